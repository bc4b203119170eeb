"""Record builder: the game's counters and end, and the take-backs that withdraw a move from the record.

After each commit the rule set's :class:`rig.rulesets.GameTracker` gives the draw counters and the
outcome: a side with no move loses (FPD 000 art. 5.2; FMJD 002 art. 7.2; CODEX 004 art. 57.A). A move
put back on the board before the opponent moved is withdrawn from the record and the tracker rebuilt from
the remaining plies; a standing captured piece lifted by its owner is checked against the next change
(CODEX 004 art. 42.K).
The PDN and the report are written from the plies by :meth:`rig.reconstruct.Reconstructor.record` and
:meth:`rig.reconstruct.Reconstructor.report`. Mixed into :class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from rig.board import Board
from rig.pdn import result_text
from rig.reconstruct import detectors
from rig.reconstruct.matcher import explain
from rig.reconstruct.outputs import (
    CORRECTED,
    OPEN,
    CounterUpdate,
    GameEnd,
    MoveEntry,
    MoveWithdrawn,
)
from rig.reconstruct.state import OVER, PLAY, SIDE, Recheck, Segment, Undo, snap
from rig.rulesets import GameTracker

__all__ = ["RecordBuilder"]


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
        if self._phase != PLAY or self._index().has_moves:
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
                                                                     and self._masked_move_shows(occ)):
            entry = self._withdraw(t, undo)
            if open_irr:
                for i in open_irr:
                    self._set_status(i, CORRECTED, t, "the board was put back before the opponent moved")
            elif ply.move is not None:
                ctx = self._context(t, ply.board_before.turn, entry.number)
                idx, = self._record((detectors.move_taken_back(ctx, ply.move, entry.move_text),),
                                    before=Board(self.variant, ply.fen_after))
                self._taken_back = (ply.move.key, idx)
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
            if expl is not None and expl.legal and expl.exact:
                self._withdraw(t, undo)
                for i in open_irr:
                    self._set_status(i, CORRECTED, t, "the move was put right before the opponent moved")
                self._commit(expl, t, "the move read again after the correction")
                return True
        return False

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
