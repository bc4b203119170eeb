"""Lost positions: no reading is left for the board, and the position is lost until the board shows it again
(FPD 000 art. 7.4; CODEX 004 art. 46-48). Split out of the segmenter, which declares it when a turn changes more
squares than any reading allows (:meth:`LostPosition._lost_limit`). Mixed into :class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from rig.reconstruct import detectors
from rig.reconstruct.outputs import CORRECTED, PositionLost, PositionRestored
from rig.reconstruct.state import LOST, PLAY, Segment, snap

__all__ = ["LostPosition"]


class LostPosition:
    """The position declared lost, and restored once the board shows it again."""

    def _lost_limit(self) -> int:
        """The changed squares that lose the position: the longest legal capture's and 2 + ``lost_squares``
        more (never under 2 + ``lost_squares``: the segmenter compares that floor first)."""
        last = self._indexed
        index = last.candidates if last.board is self.board else None
        if index is None:
            index = self._index()
        return index.longest + 2 + self.settings.lost_squares

    def _lose(self, t: float, occ: frozenset[int]) -> None:
        reread = self._reread_turn(t, occ) if (self._open_readings or self._stale_dead) else None
        if reread is not None:
            self._commit(reread[0], t, "read after an earlier open reading was re-read", occ_after=reread[1])
            return
        squares = tuple(sorted(occ ^ self._seg.occ0))
        self._phase = LOST
        self._split = None
        self._held = None
        self._lost_target = snap(self.board)
        self._lost, = self._record((detectors.position_lost(self._context(t, self.board.turn), squares),))
        self._emit(PositionLost(t, squares))

    def _lost_check(self, t: float) -> None:
        target = self._lost_target
        if target is None or self._occ != target.occupied():
            return
        self._phase = PLAY
        self.board = snap(target)
        self._seg = Segment(t, target.occupied(), pieces=self._pieces)
        if self._mask.assumed:
            self._mask_sync()
        self._undo = None
        if self._lost is not None:
            self._set_status(self._lost, CORRECTED, t, "the position was restored")
        self._lost = None
        self._emit(PositionRestored(t, self._fen(target)))
