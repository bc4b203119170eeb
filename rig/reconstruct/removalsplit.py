"""A capture's last removal read as the opponent's lift, then the capture's landing read off (docs/reconstruction.md,
"Failing switches"; issue 9).

Without a clock the mover's move is committed at his opponent's first lift. A capture's piece taken off last by the
capturer (30, taken by white's 35x24) is also the opponent's piece: its lift is read as his first lift, the capture
left with it standing. When the capture's landing then reads off (24: a switch that dies under the piece just put
down, or the capturer lifting it again), the opponent's piece on 30 can take it (30x19), and the turn is cut there:
white's 35x24 committed with ``capture-not-removed``, black's turn begun with 30 lifted. When black then plays a
move of his own (13-19: 13 lifted, 19 closing) and the board stands still, no move explains the turn (30x19 leaves
13 off). Read the other way, every change is the game's: the capture complete (30 its own removal), black's move
exact, and the capturer's piece on 24 read off after his move and still off, as interleave.py reads a mover's piece
read off during the reply (a dead switch, or his next move begun early: 24x13 follows). The capture is committed
again complete (its ``capture-not-removed`` dismissed, the reason given), the reply is committed, and the lift of the
landing begins the capturer's next move. Only without a clock, where the capture's one irregularity was the piece
left standing, the turn began with that piece's lift, and the reply is legal and exact without it.

:class:`RemovalSplit` is mixed into :class:`rig.reconstruct.engine.Reconstructor`.
"""

from __future__ import annotations

from rig.reconstruct.matcher import Explanation, explain
from rig.reconstruct.outputs import DISMISSED
from rig.reconstruct.state import SIDE, Segment, Undo, snap

__all__ = ["RemovalSplit"]


class RemovalSplit:
    """The engine's side of a capture's last removal read as the opponent's first lift (module docstring)."""

    def _removal_read_as_lift(self, t: float, occ: frozenset[int]) -> bool:
        """Without a clock, the board stands still (decided at ``t``, showing ``occ``) and no move explains the
        turn; the last ply is a capture committed with one piece left standing (its only irregularity), the turn
        began with that piece's lift and it stayed off, the capture's landing read off once and stays off, and
        from the capture complete the turn without that lift is one legal move exactly that does not take the
        landing's piece: the capture is read complete, the reply is committed and the landing's lift begins the
        capturer's next move (module docstring). True when read so."""
        plies, seg = self._plies, self._seg
        if self._clock_mode or self._held is not None or self._split is not None or not plies \
                or len(seg.changes) < 3 or self._mask.assumed or self._diode_trouble():
            return False
        n = len(plies)
        last = plies[-1]
        move = last.move
        if last.withdrawn or move is None or not last.legal or not move.captured:
            return False
        reading = next((r for r in self._open_readings if r.standing and not r.gone and r.ply == n - 1), None)
        first = seg.changes[0]
        if reading is None or tuple(reading.standing) != (first.square,) or not first.up \
                or any(c.square == first.square for c in seg.changes[1:]):
            return False
        if [self.irregularities[i].type for i in last.irregularities] != ["capture-not-removed"]:
            return False
        dest = move.destination
        lifts = [c for c in seg.changes if c.square == dest]
        if len(lifts) != 1 or not lifts[0].up or dest in occ:
            return False
        full = (reading.occ0 - {move.origin}).difference(move.captured) | {dest}
        if full != seg.occ0 - {first.square}:
            return False
        board = snap(last.board_before)
        board.push(move)
        after = snap(board)
        reply = explain(after, full, occ | {dest}, index=self._index(after))
        if reply is None or not reply.legal or not reply.exact or dest in reply.move.captured \
                or dest in reply.move.path:
            return False
        name = self.variant.square_name
        capturer = SIDE[not self.board.turn]
        entry = self.moves[self._entry_of(last)]
        why = (f"{name(first.square)} taken off at {first.t:.2f} s was {capturer}'s own removal (read as his "
               f"opponent's first lift): {name(dest)} read off after it and the reply played without it")
        for i in last.irregularities:
            self._set_status(i, DISMISSED, t, f"read again: {why}")
        self._withdraw(t, Undo(n - 1, reading.occ0, last.board_before))
        plies.pop()
        self._open_readings = [r for r in self._open_readings if r.ply < n - 1]
        self._seg = Segment(entry.t, reading.occ0, pieces=self._pieces)
        self._commit(Explanation(move, True, None), entry.t, f"re-read: {why}", occ_after=full)
        for c in seg.changes[1:]:
            if c.square != dest:
                self._record_change(self._seg, c)
        self._commit(reply, t, f"{SIDE[self.board.turn]} played; {capturer} lifted {name(dest)} after his move",
                     occ_after=occ | {dest})
        self._record_change(self._seg, lifts[0])
        return True
