"""Which hand a change is: the side to move finishing his turn, the other side starting his, or the mover
playing twice (CODEX 004 art. 42.A). Predicates on the turn's segment, and the commit of a move of the side
not to move. Mixed into :class:`rig.reconstruct.Reconstructor` (with the segmenter that asks them).
"""

from __future__ import annotations

from rig.board import Board
from rig.reconstruct.matcher import Explanation, explain
from rig.reconstruct.state import SIDE, Segment, TwoMoves, snap

__all__ = ["TurnSide"]


class TurnSide:
    """Whose move the segment shows (mixin; state on :class:`rig.reconstruct.Reconstructor`)."""

    def _two_moves(self, occ: frozenset[int] | None = None, reuse: bool = False
                   ) -> TwoMoves | None:
        """The segment read as two moves of the mover (CODEX 42.A): the first point where the board
        showed a complete legal move, and a second move from there. ``reuse``: also when the second
        move may have ended on the square the first left (fewer changed squares than two moves)."""
        seg = self._seg
        occ = self._occ if occ is None else occ
        if not reuse and len(occ - seg.occ0) < 2 and len(seg.occ0 - occ) < 2:
            return None
        cur = seg.occ0
        for c in seg.changes:
            cur = cur - {c.square} if c.up else cur | {c.square}
            if c.up or cur == occ:
                continue
            first = explain(self.board, seg.occ0, cur, index=self._index())
            if first is None or not first.legal or not first.exact:
                continue
            mid = snap(self.board)
            mid.push(first.move)
            mid = snap(mid)
            mid.turn = self.board.turn
            second = explain(mid, cur, occ, index=self._index(mid))
            if second is not None:
                return TwoMoves(first, cur, c.t, second)
        return None

    def _own_lifted(self, seg: Segment) -> bool:
        turn = self.board.turn
        return any(self.board.piece_at(x) is not None and self.board.piece_at(x)[0] == turn
                   for x in seg.lift_order)

    def _own_lifts_off(self, seg: Segment, occ: frozenset[int]) -> bool:
        """Every piece of the side to move lifted in the segment is still off the board at ``occ``."""
        turn = self.board.turn
        return all(x not in occ for x in seg.lift_order
                   if self.board.piece_at(x) is not None and self.board.piece_at(x)[0] == turn)

    def _theirs_off(self, seg: Segment, occ: frozenset[int]) -> bool:
        """A piece of the side not to move was lifted in the segment and is still off the board at ``occ``, and a
        square of the side to move's lifts reads closed again (interleave.py ``_interleaved``'s early lift)."""
        board, turn = self.board, self.board.turn
        owners = {x: board.piece_at(x) for x in seg.lift_order}
        return any(p is not None and p[0] != turn and x not in occ for x, p in owners.items()) \
            and any(p is not None and p[0] == turn and x in occ for x, p in owners.items())

    def _landing_before_its_lift(self, seg: Segment, expl: Explanation) -> bool:
        """``expl``'s destination closed before its origin opened in the segment: no hand puts a piece down
        before lifting it (FMJD 002 art. 3.5: the piece moves from its square to the one it lands on), so that
        move is not what the frames show (a switch stuck under another origin is: faults.py)."""
        move = expl.move
        if move.origin == move.destination or move.origin in self._mask:
            return False
        lift = next((c.t for c in seg.changes if c.square == move.origin and c.up), None)
        land = next((c.t for c in seg.changes if c.square == move.destination and not c.up), None)
        return lift is not None and land is not None and land < lift

    def _other_side_move(self, t: float, occ: frozenset[int]) -> bool:
        """Commit the segment as a legal move of the side NOT to move, if it is one exactly. Where it is not, one
        square closed less than ``touch_s`` before ``t`` that no piece stood on (a neighbour phantom beside the
        mover's first lift, dated a few ms before it) is left out, as at the opponent's first lift
        (certainty.py ``_phantom_free_split``): the move is read on the board without it."""
        seg = self._seg
        other = snap(self.board)
        other.turn = not other.turn
        expl = self._exact_move_of(other, seg, occ)
        if expl is None:
            touch_s = self.settings.touch_s
            young = [s for s, at in seg.placed_at.items() if s in occ and s not in seg.occ0 and t - at < touch_s]
            if len(young) != 1:
                return False
            occ = occ - set(young)
            expl = self._exact_move_of(other, seg, occ)
            if expl is None:
                return False
        passed = self._passes(t, SIDE[other.turn])
        self._commit(expl, t, "a move of the side not to move", occ_after=occ, other_side=True,
                     pass_accepted=passed)
        return True

    def _exact_move_of(self, board: Board, seg: Segment, occ: frozenset[int]) -> Explanation | None:
        """The legal move of ``board``'s side to move that the segment shows exactly at ``occ`` (None: none, or
        one whose landing closed before its lift)."""
        expl = explain(board, seg.occ0, occ, frozenset(seg.landings), tuple(seg.lift_order), index=self._index(board))
        if expl is None or not expl.legal or not expl.exact or self._landing_before_its_lift(seg, expl):
            return None
        return expl
