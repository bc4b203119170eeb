"""Record builder: the game's counters and end, and the take-backs that withdraw a move from the record.

After each commit the rule set's :class:`rig.rulesets.GameTracker` gives the draw counters and the
outcome: a side with no move loses (FPD 000 art. 5.2; FMJD 002 art. 7.2; CODEX 004 art. 57.A). A move
put back on the board before the opponent moved is withdrawn from the record and the tracker rebuilt from
the remaining plies; a standing captured piece lifted by its owner is checked against the next change
(CODEX 004 art. 42.K).
The PDN (:func:`game_record`) and the report (:func:`report`) are written from the plies and the findings;
:meth:`rig.reconstruct.Reconstructor.record` and :meth:`rig.reconstruct.Reconstructor.report` hand them the
engine's. Mixed into :class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from rig.board import Board
from rig.move import Move
from rig.pdn import GameRecord, result_text
from rig.reconstruct import detectors
from rig.reconstruct.matcher import explain
from rig.reconstruct.outputs import (
    CORRECTED,
    OPEN,
    CounterUpdate,
    GameEnd,
    Irregularity,
    MoveEntry,
    MoveWithdrawn,
    Observation,
    SensorFault,
)
from rig.reconstruct.state import OVER, PLAY, SIDE, Ply, Recheck, Segment, TakenBack, Undo, snap
from rig.rulesets import DrawCounter, GameTracker
from rig.session import Header
from rig.variants import Variant

__all__ = ["RecordBuilder", "game_record", "report"]


def game_record(variant: Variant, header: Header, plies: Iterable[Ply], result: str) -> GameRecord:
    """The game as PDN: each move that stands, ``/FEN/`` setups where the board went on from an irregular
    position (FPD 000 art. 7.5a; CODEX 004 art. 43), clock comments, the result; a withdrawn move is a comment
    on the move played instead (``{12-16 taken back}``)."""
    record = GameRecord(variant, dict(header.tags), header.fen)
    undone: list[str] = []
    for ply in plies:
        if ply.withdrawn:
            undone.append(ply.text)
            continue
        comment = ply.comment
        if undone and not ply.setup_only:
            comment = "; ".join([f"{', '.join(undone)} taken back"] + ([comment] if comment else []))
            undone = []
        if ply.setup_before is not None:
            record.add_setup(ply.setup_before)
        if ply.setup_only:
            record.add_setup(ply.fen_after, comment)
        elif ply.legal and ply.move is not None:
            record.add_move(ply.board_before, ply.move, None if ply.needs_setup else comment,
                            None if ply.needs_setup else ply.clock)
            if ply.needs_setup:
                record.add_setup(ply.fen_after, comment, ply.clock)
        else:
            record.add_setup(ply.fen_after, comment, ply.clock)
    record.set_result(result)
    return record


def report(moves: Sequence[MoveEntry], irregularities: Sequence[Irregularity], observations: Sequence[Observation],
           sensor_faults: Sequence[SensorFault], counters: Iterable[DrawCounter], reached: Mapping[str, DrawCounter],
           result: str) -> dict[str, Any]:
    """The docs/session-format.md report: moves, irregularities, observations, sensor faults, the draw rules
    (the counters as they stand, and any that reached its limit during the game), the result."""
    draw = {c.rule: c for c in counters}
    for rule, c in reached.items():
        draw.setdefault(rule, c)
    return {
        "moves": [m.report() for m in moves],
        "irregularities": [i.report() for i in irregularities],
        "observations": [o.report() for o in observations],
        "sensor_faults": [f.report() for f in sensor_faults],
        "draw_rules": [{"rule": c.rule, "from_number": c.from_number, "count": c.count, "limit": c.limit,
                        "reached": c.reached} for c in draw.values()],
        "result": result,
    }


class RecordBuilder:
    """Keeps the counters, the result and the plies of the record right."""

    def _counters(self, t: float) -> None:
        counters = tuple(self.tracker.counters())
        if counters != self.counters:
            self.counters = counters
            self._emit(CounterUpdate(t, counters))
        for c in counters:
            if c.reached:
                self._reached[c.rule] = c

    def _end_of_game_check(self, t: float) -> None:
        if self._phase is not PLAY or self._index().has_moves:
            return
        outcome = self.tracker.outcome()
        if outcome is not None and self.result == "*":
            self._end(t, result_text(self.variant, outcome),
                      f"{SIDE[self.tracker.board.turn]} has no move (FPD 5.2; FMJD 7.2; CODEX 57.A)")

    def _end(self, t: float, result: str, reason: str) -> None:
        self.result = result
        self.result_reason = reason
        self._phase = OVER
        self._emit(GameEnd(t, result, reason))

    # -- corrections and take-backs ----------------------------------------------------------

    def _try_undo(self, t: float, occ: frozenset[int]) -> bool:
        undo = self._undo
        assert undo is not None
        if undo.ply != len(self._plies) - 1:
            self._undo = None
            return False
        ply = self._plies[undo.ply]
        if not ply.irregularities and undo.legal_after is None and occ != undo.occ_before:
            return False                  # nothing to correct, and not put back: the usual change
        open_irr = [i for i in ply.irregularities if self.irregularities[i].status == OPEN]
        if occ == undo.occ_before and occ != self._seg.occ0 and not (self._mask.assumed
                                                                     and self._masked_move_shows(occ)) \
                and not self._stuck_capture_shown():
            entry = self._withdraw(t, undo)
            if open_irr:
                for i in open_irr:
                    self._set_status(i, CORRECTED, t, "the board was put back before the opponent moved")
            elif ply.move is not None:
                ctx = self._context(t, ply.board_before.turn, entry.number)
                idx, = self._record((detectors.move_taken_back(ctx, ply.move, entry.move_text),),
                                    before=Board(self.variant, ply.fen_after))
                self._taken_back = TakenBack(ply.move.key, idx)
            return True
        if undo.legal_after is not None and occ == undo.legal_after.occupied():
            lifted = self._seg.occ0 - occ
            if len(lifted) == 1 and not occ - self._seg.occ0:
                # a standing captured piece lifted by its owner (now to move): taken off, or his move with it;
                # kept to check against the next change (CODEX 004 art. 42.K)
                i = self._entry_of(ply)
                self._recheck = Recheck(next(iter(lifted)), self.board, self._seg, ply, i, self.moves[i], undo,
                                       undo.legal_after, [(k, self.irregularities[k].status) for k in open_irr])
            for i in open_irr:
                if self.irregularities[i].type in ("capture-not-removed", "wrong-piece-removed",
                                                   "own-piece-removed"):
                    self._set_status(i, CORRECTED, t, "the board was put right before the opponent moved")
            ply.needs_setup = False
            ply.fen_after = self._fen(undo.legal_after)
            i = self._entry_of(ply)
            self.moves[i] = self.moves[i].evolve(fen_after=ply.fen_after)
            self.board = snap(undo.legal_after)
            self._rebuild_tracker()
            self._seg = Segment(t, occ, pieces=self._pieces)
            if self._mask.assumed:
                self._mask_sync()
            undo.legal_after = None
            self._end_of_game_check(t)
            return True
        if open_irr and not ply.legal or any(self.irregularities[i].type == "capture-incomplete" for i in open_irr):
            expl = explain(undo.board_before, undo.occ_before, occ, index=self._index(undo.board_before))
            if expl is not None and expl.legal and expl.exact and not self._landed_before_lift(ply.move, expl.move):
                self._withdraw(t, undo)
                for i in open_irr:
                    self._set_status(i, CORRECTED, t, "the move was put right before the opponent moved")
                self._commit(expl, t, "the move read again after the correction")
                return True
        return False

    def _landed_before_lift(self, old: Move | None, new: Move) -> bool:
        """``new``, the move read again from ``old`` (a capture stopped short, then "put right"), goes on from
        where ``old`` stopped, yet its landing closed in this turn before that piece left ``old``'s destination:
        no hand puts a piece down before lifting it, so that landing is another piece's, the opponent's move
        (the capture stopped short stands: FPD 000 art. 4.9, FMJD 002 art. 4.10, CODEX 004 art. 42.I)."""
        if old is None or new.destination == old.destination or old.destination not in new.path:
            return False
        placed = lifted = None
        for c in self._seg.changes:
            if c.square == new.destination and not c.up:
                placed = c.t
            elif c.square == old.destination and c.up and lifted is None:
                lifted = c.t
        return placed is not None and lifted is not None and placed < lifted

    def _withdraw(self, t: float, undo: Undo) -> MoveEntry:
        """Withdraw the last move (docs/engine-contract.md): it stays in ``moves``, marked, and leaves the
        record; the board is back where it was before it, and the move is read again."""
        ply = self._plies[undo.ply]
        ply.withdrawn = True
        index = self._entry_of(ply)
        entry = self.moves[index] = self.moves[index].evolve(withdrawn=True)
        self._number = entry.number
        self._emit(MoveWithdrawn(t, index, entry.move_text))
        self.board = snap(undo.board_before)
        self._undo = None
        self._await_time = None
        self._rebuild_tracker()
        self._seg = Segment(t, undo.occ_before, pieces=self._pieces)
        self._split = None                # its changes were of the segment just undone
        if self._mask.assumed:
            self._mask_sync()
        return entry

    def _rebuild_tracker(self) -> None:
        tracker = GameTracker(self.header.ruleset, snap(self.start_board))
        for ply in self._plies:
            if ply.withdrawn:
                continue
            if ply.setup_before is not None:
                tracker.set_position(ply.setup_before)
            if ply.setup_only:
                tracker.set_position(ply.fen_after)
            elif ply.legal and ply.move is not None:
                tracker.push(ply.move)
                if ply.needs_setup:
                    tracker.set_position(ply.fen_after)
            else:
                tracker.set_position(ply.fen_after)
        for white in self.tracker.flags:
            tracker.flag(white)
        self.tracker = tracker
        self.counters = tuple(tracker.counters())
