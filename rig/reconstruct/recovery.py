"""A faulty switch that works again (docs/reconstruction.md, "Failing switches"; issue 9).

A stuck reed often frees itself (a knock on the table, a piece put down hard) and a cold solder joint comes and
goes. A switch masked as faulty that reads again as a working switch would, under the game read, *recovered*: it
is unmasked and its fault stays in ``sensor_faults`` with its span (``until``: from then on the square reads as
its switch says). No move is re-read for it: the recovery contradicts none.

- ``dead`` (masked occupied under a piece): it closes under the piece the game has there (faults.py
  ``_masked_frame``; a late landing or an earlier ply read the other way are looked at first, earlylift.py);
- ``stuck-closed`` (masked empty): it opens. A stuck switch never opens, so where the square is one of two an open
  reading left (the piece read to have left it may stand there: 45-40 read 44-40 with 44 or 45 stuck), the opening
  may be that piece lifted (earlylift.py ``_switch_works`` re-reads the ply) or the switch freeing itself. Only
  what follows tells: the opening is taken as a lift when, with the reading taken the other way, a legal move of
  that piece captures or lands where the board changes next (a capture's removal: a landing of the turn under way
  that takes it; a lift: the next square that closes is on its path); anything else next (another piece lifted,
  a landing that piece cannot make) is the switch recovered. With no open reading, it recovered at once;
- the scanner's ``recovered`` health line (a switch it masked at the start opened) says the same.

:class:`SwitchRecovery` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from rig.board import Board
from rig.reconstruct.chainread import reread_chain
from rig.reconstruct.state import snap

__all__ = ["PendingOpening", "SwitchRecovery"]


class PendingOpening(NamedTuple):
    """A masked stuck-closed square that opened while an open reading names it: a lift or a recovery, told by
    the board's next change (``before``: the frame it opened in)."""

    square: int
    t: float
    before: frozenset[int]


class SwitchRecovery:
    """The engine's side of a faulty switch that works again (module docstring)."""

    def _init_recovery(self) -> None:
        self._opening: PendingOpening | None = None
        self._raw_moved: dict[int, float] = {}     # when each masked square's reading last changed

    def _recovered(self, t: float, square: int, why: str | None) -> None:
        """``square``'s switch works again from ``t``: unmasked (a note says ``why``, when given), its standing
        fault given ``until`` (emitted again, the same ``since``)."""
        if why is not None:
            self._note(t, f"square {self.variant.square_name(square)}: {why}; no longer masked")
        self._mask.remove(square)
        self._held_squares.pop(square, None)
        for i in range(len(self.sensor_faults) - 1, -1, -1):
            f = self.sensor_faults[i]
            if f.square == square and not f.withdrawn and f.until is None:
                fault = self.sensor_faults[i] = replace(f, until=t)
                self._emit(fault)
                break

    def _stuck_opened(self, t: float, square: int, occupied: frozenset[int], seen_closed: bool) -> None:
        """``square``, masked as stuck closed (empty by the game), opens: recovered, a lift of the piece an open
        reading taken the other way leaves there (re-read at once when the turn under way captures it), or, to be
        told by the next change, pending (module docstring). ``seen_closed``: the switch was read closed since it
        was masked (one the scanner masks reads open from the first frame on: its ``recovered`` line tells)."""
        if not self._stuck_readings(square):
            if seen_closed:
                self._recovered(t, square, "its switch opened where the game has no piece: it works again")
            return
        if self._other_way_takes(square, frozenset(self._seg.landings), captured=True):
            self._switch_works(t, square, "stuck-closed")      # earlylift.py
            return
        self._opening = PendingOpening(square, t, occupied)

    def _settle_opening(self, t: float, occupied: frozenset[int]) -> None:
        """A frame while a stuck square's opening is pending: the first change of another (unmasked) square tells
        a lift (a square the piece's legal move lands on or passes, with the reading taken the other way) from a
        recovery (anything else)."""
        pending = self._opening
        assert pending is not None
        square = pending.square
        if square not in self._mask or square in occupied:
            self._opening = None          # moved by a re-read, or closed again: as before, masked
            return
        masked = self._mask.squares | {square}
        on = (occupied - pending.before) - masked
        if not on and not (pending.before - occupied) - masked:
            return
        self._opening = None
        if on and self._other_way_takes(square, on, captured=False):
            self._switch_works(t, square, "stuck-closed")      # earlylift.py: the piece was lifted
            if square not in self._mask:
                self._deb.reveal(t, (square,), occupied)      # the lift came first: dated just before the landing
        else:
            self._recovered(pending.t, square, "its switch opened and the board went on without a piece there: it "
                                               "works again")

    def _other_way_takes(self, square: int, landed: frozenset[int], captured: bool) -> bool:
        """With the open readings naming ``square`` stuck taken the other way (a piece standing there), a legal
        move of either side lands on (or passes over) a square of ``landed``: one capturing the piece on
        ``square`` (``captured``), or one played from it."""
        if not landed:
            return False
        readings = self._stuck_readings(square)
        if not readings:
            return False
        plies = self._plies
        played = [p.move for p in plies[readings[0].ply:]]
        found = reread_chain(readings, played, lambda k: plies[k].board_before, self._index,
                             lambda board, cur: True if square in cur else None)
        if found is None or found.steps[0][0].key == played[0].key:
            return False
        for turn in (found.board.turn, not found.board.turn):
            board: Board = snap(found.board)
            board.turn = turn
            for m in self._index(snap(board)).moves:
                path = set(m.path[1:])
                if (square in m.captured if captured else m.origin == square) and path & landed:
                    return True
        return False
