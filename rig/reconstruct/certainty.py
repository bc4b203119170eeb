"""Certain or not: what the sensors prove is an irregularity, what they cannot settle is an observation.

A reed switch sees a square occupied or not; it cannot see a hand release a piece, nor which hand touched a
square. The engine raises an irregularity only when the frames prove it, and records the rest under
``observations`` for the arbiter's review (docs/reconstruction.md, "Certain or not"); a real board's habits
(a neighbour phantom, a captured piece left standing that its owner plays) are read as the play they are.
Mixed into :class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from rig.move import Move
from rig.reconstruct.matcher import Explanation
from rig.reconstruct.state import PendingSplit

__all__ = ["Certainty"]


class Certainty:
    """The rules that sort a finding into an irregularity or an observation."""

    def _release_threshold(self) -> float:
        s = self.settings
        return max(s.release_s, s.touch_s)

    def _release_findings(self, stray: list[int], move: Move, t: float, number: int) -> list[int]:
        """FPD 4.6 / FMJD 002 art. 3.12: a piece set down off its path and moved on. Certain when it stayed
        down ``release_s`` or longer (a hand does not rest a held piece that long); shorter, the set-down may
        have been a change of mind with the piece still in hand: an observation. Returns the irregularities."""
        seg = self._seg
        name = self.variant.square_name
        mover = self.board.turn
        limit = self._release_threshold()
        long = [s for s in stray if seg.landings[s] >= limit]
        short = [s for s in stray if seg.landings[s] < limit]
        text = f", then moved on to {name(move.destination)}"
        if short and self.judge.reported("piece-moved-after-release"):
            dwell = max(seg.landings[s] for s in short)
            self._observe("piece-moved-after-release", t, short, "set down on " + ", ".join(name(s) for s in short)
                          + text, mover, number,
                          f"set down {dwell:.2f} s (under {limit:g} s): a reed switch cannot tell a release from a "
                          "hand that kept hold of the piece (a piece is played when released)")
        found: list[int] = []
        if long:
            self._flag(found, t, mover, number, "piece-moved-after-release", long,
                       "set down on " + ", ".join(name(s) for s in long) + text)
        return found

    def _early_removal_findings(self, early: list[int], move: Move, final: float, t: float,
                                number: int) -> list[int]:
        """FPD 3.8; CODEX 004 art. 42.J: captured pieces taken off before the capturing piece's landing was
        read. Certain when the removal came ``removal_margin_s`` or more before it; closer, the landing's
        switch may have closed late (a slow magnet) after the piece was released: an observation."""
        if self._landing_hidden(early, move, t, number):
            return []
        seg = self._seg
        name = self.variant.square_name
        mover = self.board.turn
        margin = self.settings.removal_margin_s
        sure = [s for s in early if final - seg.lifted_at[s] >= margin]
        close = [s for s in early if s not in sure]
        text = f"removed before the capturing piece reached {name(move.destination)}: "
        if close and self.judge.reported("capture-removed-early"):
            gap = min(final - seg.lifted_at[s] for s in close)
            self._observe("capture-removed-early", t, close, text + ", ".join(name(s) for s in close), mover, number,
                          f"taken off {gap * 1000:.0f} ms before the landing was read (under {margin * 1000:g} ms): "
                          "the landing's switch may have closed late, after the piece was released")
        found: list[int] = []
        if sure:
            self._flag(found, t, mover, number, "capture-removed-early", sure, text + ", ".join(name(s) for s in sure))
        return found

    def _held_off_observation(self, t: float) -> None:
        """Without a clock, the opponent's first lifted piece stays off on a still board: his hand may hold it
        while he thinks (a long hold is regular), or the mover took it off (``wrong-piece-removed``, CODEX 004
        art. 42.G): nothing on the board tells. Read as his turn begun; recorded as an observation."""
        split = self._split
        square = split.square
        name = self.variant.square_name
        mover = self.board.turn
        self._observe("wrong-piece-removed", t, (square,), f"{name(square)} off the board after the move",
                      mover, self._number,
                      f"without a clock a piece off the board for {self.settings.stable_s:g} s may be in its owner's "
                      "hand (he began his turn) or taken off by the mover: read as his turn begun")

    def _phantom_free_split(self, seg, c, occ_before: frozenset[int]):
        """The opponent's first lift while a square the mover never played to has just closed (less than
        ``touch_s`` before: a magnet passing close by, or a slow neighbour): the mover's move as the board
        shows it without that square. A real landing of the mover comes well before his opponent's lift."""
        recent = frozenset(s for s, at in seg.placed_at.items()
                           if s not in seg.occ0 and s in occ_before and c.t - at < self.settings.touch_s)
        if not recent or len(recent) > 2:
            return None
        occ = occ_before - recent
        plan = self._plan(occ, c.square)
        if plan is None:
            return None
        return PendingSplit(len(seg.changes), c.t, plan, occ, c.square)

    def _standing_split(self, seg, c, occ_before: frozenset[int]) -> PendingSplit | None:
        """Without a clock, a captured piece still standing lifted once the capture shows: the mover taking
        it off, or its owner beginning his move with it (CODEX 004 art. 42.K); tentative like any first
        lift of the opponent: where it comes down tells."""
        plan = self._removal_plan          # what _plan found at this lift
        if plan is None or not plan.legal or c.square not in plan.standing:
            return None
        return PendingSplit(len(seg.changes), c.t, plan, occ_before, c.square)

    def _split_lands(self, split: PendingSplit, square: int) -> bool:
        """A placement on an empty square while the opponent's first lifted piece is off: his move under way.
        When that piece is a captured one still standing (:meth:`_standing_split`), only if it can go there
        (any other square closing is a magnet passing by, or the mover's hand)."""
        plan = split.plan
        if not isinstance(plan, Explanation) or split.square not in plan.standing or not self._plan_fits_board(plan):
            return True
        after = self._physical_after(plan, split.occ)
        return any(m.origin == split.square and m.destination == square for m in self._index(after).moves)

    def _recheck_correction(self, c) -> None:
        """The change after a standing captured piece was lifted by its owner: put down on a square it can
        move to, it was his move with that piece, not the correction (the capture-not-removed stands and
        his move accepts it); any other change confirms the correction."""
        square, board, seg, ply, i, entry, undo, legal_after, statuses = self._recheck
        self._recheck = None
        if c.up or self._undo is not undo or not any(m.origin == square for m in self._index(board).to(c.square)):
            return
        self.board = board
        self._seg = seg
        ply.needs_setup = True
        ply.fen = entry.__dict__.get("_fen_source") or entry.fen_after
        self.moves[i] = entry
        undo.legal_after = legal_after
        self._rebuild_tracker()
        for k, status in statuses:
            self._set_status(k, status, c.t, f"{self.variant.square_name(square)} was not taken off: "
                                             f"{'white' if board.turn else 'black'} moved it")

    def _split_captures(self, square: int) -> bool:
        """The opponent lifted a piece (his move may have begun) and now a piece of the mover leaves: the mover
        still at work, unless a capture by the opponent's lifted piece takes it: his capture is under way, its
        landing not read yet (a slow magnet, a masked square) or its pieces taken off two at once."""
        split = self._split
        plan = split.plan
        if not isinstance(plan, Explanation) or not self._plan_fits_board(plan):
            return False
        after = self._physical_after(plan, split.occ)
        return any(m.origin == split.square and square in m.captured for m in self._index(after).moves)

    def _plan_fits_board(self, plan: Explanation) -> bool:
        """The explanation was made on the engine's board as it is (every piece it names stands there)."""
        board = self.board
        return board.piece_at(plan.move.origin) is not None and all(
            board.piece_at(s) is not None for s in (*plan.move.captured, *plan.standing, *plan.missing))

    def _split_is_removal(self, square: int) -> bool:
        """The split is a standing captured piece lifted (:meth:`_standing_split`) and ``square``, just lifted
        too, is another piece the same capture took: the mover is clearing the captured pieces."""
        plan = self._split.plan
        return isinstance(plan, Explanation) and self._split.square in plan.standing and square in plan.move.captured
