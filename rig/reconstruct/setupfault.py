"""A faulty switch found at the set-up (docs/reconstruction.md, "Failing switches"; issue 9).

The board differs from the start position on exactly one square: a piece missing or one too many, or a switch
that does not read. The sensors cannot tell which until the first move (FPD 000 art. 7.2; CODEX 004 art. 44):
an observation first. Put right before the first move it is ``wrong-setup``, corrected; the game begun with the
board so (a starting piece lifted, that square as it was) it is the switch: ``dead`` under a starting piece,
``stuck-closed`` on an empty square, masked from the first frame (:meth:`FaultHandling._fault`).

:class:`SetupFaults` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from rig.reconstruct.state import PLAY

__all__ = ["SetupFaults", "setup_suspect"]


def setup_suspect(occ: frozenset[int], start: frozenset[int]) -> tuple[int, str] | None:
    """The one square where the board differs from the start position, and the fault it would be:
    ``dead`` (empty where a starting piece stands) or ``stuck-closed`` (occupied where none does)."""
    diff = occ ^ start
    if len(diff) != 1:
        return None
    (square,) = diff
    return square, "dead" if square in start else "stuck-closed"


class SetupFaults:
    """The engine's side of a switch found faulty at the set-up (see the module docstring)."""

    def _setup_single(self, occ: frozenset[int], t: float) -> bool:
        """A still board one square off the start position: a piece missing (or one too many) or a switch
        that does not read; the sensors cannot tell which until the first move (FPD 000 art. 7.2; CODEX 004
        art. 44): an observation, not yet ``wrong-setup``."""
        suspect = setup_suspect(occ, self._start_occupancy())
        if suspect is None:
            return False
        if self._setup_obs is None:
            square, kind = suspect
            name = self.variant.square_name(square)
            what = "empty where a starting piece stands" if kind == "dead" else "occupied where no piece starts"
            self._setup_obs = self._observe(
                "wrong-setup", t, (square,), f"square {name} reads {what}", self.board.turn, self._number,
                f"one square only: a piece {'missing' if kind == 'dead' else 'too many'} or a switch that "
                f"{'does not close' if kind == 'dead' else 'is stuck closed'}; put right before the first move "
                "it is wrong-setup, the game begun with it is a faulty switch")
        return True

    def _setup_put_right(self, t: float) -> None:
        """The board was put right after a one-square observation: it was a set-up error (the switch
        closed or opened as the piece came or went): ``wrong-setup``, corrected."""
        obs_index = self._setup_obs
        if obs_index is None:
            return
        self._setup_obs = None
        obs = self.observations[obs_index]
        idx = self._irregular("wrong-setup", obs.t, obs.squares, f"start position differs: {obs.detail}",
                              self.board.turn, obs.number)
        self._set_status(idx, "corrected", t, "the board was set up right")

    def _setup_fault(self, c) -> bool:
        """The game begins (a starting piece is lifted) with the board one square off the start: that
        square's switch is faulty. Masks it, starts the game and reads the lift as its first change."""
        if not c.up:
            return False
        target = self._start_occupancy()
        if c.square not in target or self._pieces is not None:
            return False
        before = self._occ | {c.square}
        suspect = setup_suspect(before, target)
        if suspect is None or suspect[0] == c.square:
            return False
        square, kind = suspect
        since = self._first_t if self._first_t is not None else c.t
        name = self.variant.square_name(square)
        detail = (f"square {name} never closed under its starting piece" if kind == "dead"
                  else f"square {name} reads occupied though no piece starts there")
        self._fault(square, kind, since, detail + "; the game began with it: check the switch", kind == "dead")
        self._setup_obs = None
        self._occ = target
        self._phase = PLAY
        self._seg = type(self._seg)(c.t, target, pieces=self._pieces)
        self._change(c)
        return True
