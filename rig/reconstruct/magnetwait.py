"""A dead landing read once the slow-magnet window has passed (docs/reconstruction.md, "Failing switches"; issue 9).

Without a clock the opponent's first lift ends the mover's move, and where no move explains the board then, a legal
move explaining every square but its destination, which did not change in the turn, finds that switch ``dead``
(faults.py ``_fault_plan``). Not within ``magnet_s`` of the mover's last change: a reed switch under a slow magnet
closes up to 0.25 s after the piece lands, so the destination may still close. A capture's last change is a
captured piece's removal, and the opponent often lifts within that window (0.27 s after 14 came off, black's 9x20
onto a dead 20; 0.29 s after 24 came off, 20x29 onto a dead 29). Nothing was read then, and nothing later reads
it: the turn piled up the reply and the next move (``position-lost`` at the still board, or ``illegal-move`` with
pieces read taken off early).

So the lift that came too early is remembered (:meth:`MagnetWait._await_magnet`) where the turn shows lifts alone,
the last a captured piece taken off (a capture nothing showed coming down; a square set down and read off again is
interleave.py's), and a ``dead`` reading was set aside only for the window. The opponent's next change, ``magnet_s``
or more after the mover's last one, not on a square that reading names and with those squares still reading open in
its frame, reads the turn as at that lift (:meth:`MagnetWait._magnet_passed`): the fault is named, the observation
written where two squares fit, and the lift begins the opponent's move (a split) as it would have. A slow magnet
closes its square within the window, and a square that closes drops the wait. A player who keeps the capturing piece
in his hand, or puts it off the board, while his opponent moves on gives the same frames: the engine reads a dead
switch there after the window exactly as it does at a later lift, never an irregularity of the player (faults.py).

:class:`MagnetWait` is mixed into :class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from typing import NamedTuple

from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.state import PendingSplit, Segment

__all__ = ["MagnetWait", "AwaitedLift"]


class AwaitedLift(NamedTuple):
    """The opponent's first lift, come within ``magnet_s`` of the mover's last change with a ``dead`` reading
    set aside for it."""

    seg: Segment                       # the turn's segment (the wait ends with it)
    index: int                         # the segment's changes before the lift
    t: float                           # when the piece was lifted
    occ: frozenset[int]                # the confirmed occupancy before the lift
    square: int                        # the square lifted
    last: float                        # the mover's last change
    squares: frozenset[int]            # the squares the dead readings name


class MagnetWait:
    """The engine's side of a dead landing set aside for a slow magnet (see the module docstring)."""

    def _await_magnet(self, seg: Segment, occ: frozenset[int], square: int, t: float) -> None:
        """The opponent lifted ``square`` at ``t`` (the board reading ``occ`` before it) and no plan was read:
        remember the lift where a ``dead`` reading was set aside only because the mover's last change is younger
        than ``magnet_s`` (no clock). Only where the turn shows lifts alone, the last a captured piece taken off:
        a capture whose landing nothing showed."""
        last = seg.last_change
        if self._clock_mode or last is None or t - last >= self.settings.magnet_s or self._split is not None \
                or not seg.changes or not all(x.up for x in seg.changes):
            return                        # (a square set down in the turn: a landing seen, interleave.py reads it)
        taken = self.board.piece_at(seg.changes[-1].square)
        if taken is None or taken[0] == self.board.turn:
            return                        # the mover's last change is no captured piece taken off
        from rig.reconstruct.faults import one_square_off    # (faults.py mixes the fault stages in: imported late)
        changed = {c.square for c in seg.changes}
        quiet = frozenset(range(1, self.variant.squares + 1)) - changed - self._mask.squares
        squares = frozenset(sq for _, sq, kind in one_square_off(self._index(), seg.occ0, occ, quiet)
                            if kind == "dead")
        if squares:
            self._magnet_lift = AwaitedLift(seg, len(seg.changes), t, occ, square, last, squares)

    def _magnet_passed(self, c: SquareChange) -> None:
        """The change after the remembered lift (:meth:`_await_magnet`): ``magnet_s`` or more after the mover's
        last change, and on none of the squares the dead readings name, it reads the turn as at that lift (the
        fault named, the lift begins the opponent's move). Anything else drops the wait."""
        wait = self._magnet_lift
        self._magnet_lift = None
        seg = self._seg
        if wait is None or seg is not wait.seg or len(seg.changes) != wait.index + 1 or self._split is not None \
                or self._held is not None or c.square in wait.squares \
                or c.t - wait.last < self.settings.magnet_s or wait.squares & (self._deb.raw or frozenset()):
            return                        # (a square it names reading closed in the same frame: a slow landing)
        self._split_at(seg, wait.index, wait.t, wait.occ, wait.square, c.t)

    def _split_at(self, seg: Segment, index: int, t: float, occ: frozenset[int], square: int, at: float) -> None:
        """Read the turn as it stood at change ``index`` of ``seg`` (the opponent's lift of ``square`` at ``t``,
        the board ``occ``), with the clock at ``at`` at least: a faulty switch's plan found there becomes the
        pending split (as at the lift itself, ``_fault_plan``). Shared by the waits that put that reading off
        (this one, youngclosing.py)."""
        head = Segment(seg.t0, seg.occ0, pieces=seg.pieces)
        for x in seg.changes[:index]:
            self._record_change(head, x)
        now = self._now
        self._seg, self._now = head, max(now, at)
        try:
            plan = self._fault_plan(occ, square)
        finally:
            self._seg, self._now = seg, now
        if plan is not None:
            self._split = PendingSplit(index, t, plan, occ, square)
