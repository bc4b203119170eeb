"""The session ends with the mover's piece lifted and nothing set down (docs/reconstruction.md, "Failing switches";
issue 9).

Without a clock a move is read from its lift and its landing; at the end of the input there is no later change to
confirm a landing that did not show. A switch dead under the destination (36 dead since a piece died on it, white's
last move 41-36 onto it) and a player still holding the piece when the recording stops give the same frames: the
lift of 41, then nothing. The engine names no faulty switch at the end (a piece may still be in the hand:
``_ending``), so the last move was lost with no word.

The law settles what the sensors cannot: a player who touches one of his playable pieces must play it (FMJD 002
art. 3.11; FPD 000 art. 4.3; CODEX 004 art. 42.A's touch-move). Where the lifted piece has exactly one legal move, a
plain move onto a square that reads empty (or is masked), that move is the one he must play, and an arbiter holds
him to it: it is read (:meth:`EndLift._end_lift`), with an observation saying its landing never showed
(``touched-piece-not-moved`` the other reading). Where the piece has several legal moves, or one that captures (its
captured pieces would read off), nothing tells which: no move is read, an observation names the piece and its
squares. With a clock the move is complete at the press: a lift with no press is no move.

:class:`EndLift` is mixed into :class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from rig.reconstruct.matcher import explain

__all__ = ["EndLift"]


class EndLift:
    """A last lift with no landing at the end of the input (module docstring)."""

    def _end_lift(self, t: float) -> None:
        """At the end of the input, without a clock: the turn under way is one lift of the mover's piece and
        nothing else (no move read, no opponent's lift pending, no piece held off since the last move, certainty.py:
        the mover may have taken it off). Its one legal move, a plain move onto a square
        reading empty or masked, is read with an observation; several (or a capture): an observation only."""
        if self._clock_mode or self._split is not None or self._held is not None or self._held_off is not None:
            return                        # (a piece off since the last move: whose hand, its observation says)
        seg = self._seg
        if len(seg.changes) != 1 or not (lift := seg.changes[0]).up or lift.square in self._mask.squares:
            return
        origin = lift.square
        moves = [m for m in self._index().moves if m.origin == origin]
        if not moves:
            return                        # not a playable piece of the mover: not his move begun
        occ = self._occ
        masked = self._mask.squares
        name = self.variant.square_name
        white = self.board.turn
        if len(moves) == 1 and not moves[0].captured and (moves[0].destination not in occ
                                                          or moves[0].destination in masked):
            move = moves[0]
            dest = move.destination
            expl = explain(self.board, seg.occ0, occ | {dest}, frozenset(seg.landings), tuple(seg.lift_order),
                           seg.hints, self._index())
            if expl is None or not (expl.legal and expl.exact) or expl.move.key != move.key:
                return
            number = self._number
            self._commit(expl, t, f"end of the session: {name(origin)} lifted, its one legal move "
                                  f"{move.text(name=name)}", occ_after=occ)
            self._observe("touched-piece-not-moved", lift.t, (origin, dest),
                          f"{move.text(name=name)} read from the lift of {name(origin)} alone",
                          white, number,
                          f"the session ended with {name(origin)} lifted and {name(dest)} never closed: its "
                          "landing unseen (a dead switch) or the piece still in the hand; the touched piece's one "
                          "legal move, which the player must play (touch-move): read as played")
            return
        squares = sorted({m.destination for m in moves})
        self._observe("touched-piece-not-moved", lift.t, (origin, *squares),
                      f"{name(origin)} lifted at the end of the session, nothing set down",
                      white, self._number,
                      f"the session ended with {name(origin)} lifted and no landing seen; its legal moves reach "
                      f"{', '.join(name(s) for s in squares)}: nothing tells which, or whether it was played; no "
                      "move read")
