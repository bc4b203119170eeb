"""Irregularity detector: the irregularities and observations a committed turn shows, and their status.

From a turn's trail it raises what the frames prove (touched pieces, a piece set down and moved on, a
capture taken in the wrong order: FPD 000 art. 4.3-4.6, 001 art. 5.1.1; FMJD 002 art. 3.11, 4.11; CODEX
004 art. 42.C), as the rule set's law (:mod:`rig.reconstruct.law`) words them; what the sensors cannot
settle goes to ``observations`` (:mod:`rig.reconstruct.certainty`). An irregular position stays *open*
until accepted, corrected or dismissed (FPD 000 art. 7.5a, 001 art. 5.1.3).
Mixed into :class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from rig.board import Board
from rig.reconstruct.matcher import Explanation, PositionIndex
from rig.reconstruct.outputs import (
    OPEN,
    RULES,
    Irregularity,
    IrregularityUpdate,
    Observation,
    SensorFault,
)
from rig.reconstruct.state import SIDE, snap

__all__ = ["IrregularityDetector"]


class IrregularityDetector:
    """Raises irregularities and observations and keeps their status."""

    def _irregular(self, kind: str, t: float, squares, detail: str, white: bool, number: int,
                   before: Board | None = None) -> int:
        """Record an irregularity, cited by the rule set in force; ``before``: the position it was committed
        from (default the engine's board), what an arbiter's ``rectify`` restores where the book says so."""
        rule = self.judge.rule(kind) or RULES.get(kind, "")
        irr = Irregularity(kind, number, SIDE[white], t, tuple(squares), rule, OPEN, detail)
        self.irregularities.append(irr)
        self._emit(irr)
        index = len(self.irregularities) - 1
        self.judge.remember(index, self.board if before is None else before)
        return index

    def _observe(self, kind: str, t: float, squares, detail: str, white: bool, number: int, why: str) -> int:
        """Record an observation for review: ``kind`` an irregularity id whose facts the sensors cannot prove
        (``why`` says what is missing). Never changes the game or its status."""
        rule = self.judge.rule(kind) or RULES.get(kind, "")
        obs = Observation(kind, number, SIDE[white], t, tuple(squares), rule, why, OPEN, detail)
        self.observations.append(obs)
        self._emit(obs)
        return len(self.observations) - 1

    def _sensor_fault(self, square: int, kind: str, since: float, detail: str = "") -> None:
        """Report a faulty switch once (by square and kind)."""
        if any(f.square == square and f.kind == kind for f in self.sensor_faults):
            return
        fault = SensorFault(square, kind, since, detail)
        self.sensor_faults.append(fault)
        self._emit(fault)

    def _set_status(self, index: int, status: str, t: float, reason: str) -> None:
        irr = self.irregularities[index]
        if irr.status == status:
            return
        self.irregularities[index] = replace(irr, status=status)
        self._emit(IrregularityUpdate(index, status, t, reason))

    def _trail_irregularities(self, board: Board, index: PositionIndex, expl: Explanation, t: float,
                              number: int) -> list[int]:
        """Touch-move, release, early and out-of-order removal and crowning, from the turn's evidence, each
        judged by the rule set's book (``self.judge``: FPD 000 4.3-4.6, 001 5.1.1, FMJD 002 3.11, 4.11,
        CODEX 004 42.C): reported, reported as an observation, or not at all."""
        seg = self._seg
        mover = board.turn
        move = expl.move
        found: list[int] = []
        name = self.variant.square_name
        judge = self.judge
        flag = partial(self._flag, found, t, mover, number)
        touches = seg.touches
        if touches:
            first_lift = min((c.t for c in seg.changes if c.up and c.square == move.origin), default=None)
            sq = judge.touched_not_moved(index, move, touches, first_lift)
            if sq:
                flag("touched-piece-not-moved", sq, f"touched {', '.join(name(s) for s in sq)}"
                     f"{' first' if len(sq) == 1 and len(touches) > 1 else ''}, played {name(move.origin)}")
            touched_opp = sorted({s for s, _, _ in touches
                                  if board.piece_at(s) is not None and board.piece_at(s)[0] != mover})
            if touched_opp:
                flag("opponent-piece-touched", touched_opp,
                     "lifted and put back: " + ", ".join(name(s) for s in touched_opp))
        stray = sorted(s for s in seg.landings if s not in move.path) if seg.landings else ()
        if stray:
            found.extend(self._release_findings(stray, move, t, number))
        if move.captured:
            final = seg.placed_at.get(move.destination)
            if final is None and move.origin == move.destination:
                final = max((c.t for c in seg.changes if c.square == move.origin and not c.up), default=None)
            early = sorted(s for s in move.captured
                           if s in seg.lifted_at and final is not None and seg.lifted_at[s] < final)
            if early:
                found.extend(self._early_removal_findings(early, move, final, t, number))
            order = judge.removal_out_of_order(move, seg.lifted_at, self.settings.bounce_s)
            if order is not None:
                flag("capture-removed-out-of-order", order,
                     f"removed {', '.join(name(s) for s in order)}; jumped "
                     f"{', '.join(name(s) for s in move.captured)}",
                     "disorder is rectified only at the opponent's request, which the sensors cannot hear")
        if seg.pieces is not None:
            piece = board.piece_at(move.origin)
            seen = seg.pieces.get(move.origin)
            if piece is not None and piece[1] and seen in ("w", "b"):
                as_man = snap(board)
                pieces = as_man.pieces()
                pieces[move.origin] = (piece[0], False)
                as_man.set_pieces(pieces, board.turn)
                if not any(m.key == move.key for m in as_man.legal_moves):
                    flag("uncrowned-king-moved", (move.origin,),
                         f"the man on {name(move.origin)} was not crowned yet",
                         "the book makes the piece a king on the base; whose the missing crown is, the sensors "
                         "cannot tell")
        return found

    def _flag(self, found: list[int], t: float, white: bool, number: int, kind: str, squares, detail: str,
              why: str = "") -> None:
        """Report ``kind`` as the book says: an irregularity (its index appended to ``found``), an observation
        for review (``why``: what the sensors cannot settle), or nothing where the book makes it no fault."""
        judge = self.judge
        if not judge.reported(kind):
            return
        if judge.observed(kind):
            self._observe(kind, t, squares, detail, white, number, why or f"{judge.law(kind).text}: for the arbiter")
        else:
            found.append(self._irregular(kind, t, squares, detail, white, number))

    def _irregular_position(self, indexes: list[int]) -> str:
        """The record's mark on a move played on from open irregularities (FPD 000 7.5a, 001 5.1.3)."""
        return "played from an irregular position (" + "; ".join(
            f"{self.irregularities[i].type} {self.irregularities[i].rule}" for i in indexes) + ")"
