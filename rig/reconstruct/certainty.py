"""Certain or not: what the sensors prove is an irregularity, what they cannot settle is an observation.

A reed switch sees a square occupied or not; it cannot see a hand release a piece, nor which hand touched a
square. The engine raises an irregularity only when the frames prove it, and records the rest under
``observations`` for the arbiter's review (docs/reconstruction.md, "Certain or not"): the detectors of
:mod:`rig.reconstruct.detectors` sort each finding. This stage reads a real board's habits (a neighbour
phantom, a captured piece left standing that its owner plays) as the play they are, so that no finding is
made of them. Mixed into :class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from rig.move import Move
from rig.reconstruct import detectors
from rig.reconstruct.matcher import Explanation
from rig.reconstruct.state import PendingSplit, snap

__all__ = ["Certainty"]


class Certainty:
    """A real board's habits read as the play they are: phantoms, standing captured pieces, the opponent's start."""

    #: the opponent's first lifted piece left off on a still board (its time, square, the mover, his move's
    #: number), until his move tells whose hand had it (:meth:`_held_off_settled`)
    _held_off: tuple[float, int, bool, int] | None

    def _held_off_observation(self, t: float) -> None:
        """Without a clock, the opponent's first lifted piece stays off on a still board: his hand may hold it
        while he thinks (a long hold is regular), or the mover took it off (``wrong-piece-removed``, CODEX 004
        art. 42.G): nothing on the board tells yet. Read as his turn begun; an observation unless his move,
        when read, is played with that piece (:meth:`_held_off_settled`)."""
        self._held_off_settled(None, t)
        self._held_off = (t, self._split.square, self.board.turn, self._number)

    def _held_off_settled(self, move: Move | None, t: float) -> None:
        """A move committed (``move``, of the side to move; None: the end of the session, or another piece
        left off): when his opponent's move is played with the piece held off after the mover's move (from
        its square, straight from the hand or put back first: a long hold, FPD 000 art. 4.3 touch-move kept),
        nothing stands for the arbiter whichever hand held it: had the mover taken it off, it was back before
        the opponent moved (CODEX 004 art. 42.G: put right in time), as when it is off for less than
        ``stable_s``, which is never an observation. Otherwise the sensors never told whose hand took it
        off: the observation."""
        held = self._held_off
        if held is None:
            return
        at, square, mover, number = held
        if move is not None and self.board.turn == mover:
            return                        # the mover's own move, committed now: his opponent's is to come
        self._held_off = None
        if move is not None and move.origin == square:
            return                        # his move was played with it: nothing stands for the arbiter
        self._record((detectors.held_off_observation(self._context(at, mover, number), square,
                                                     self.settings.stable_s, self.variant.square_name),))

    def _phantom_free_split(self, seg, c, occ_before: frozenset[int], exact: bool = False, legal: bool = False):
        """The opponent's first lift while a square the mover never played to has just closed (less than
        ``touch_s`` before: a magnet passing close by, or a slow neighbour): the mover's move as the board
        shows it without that square. A real landing of the mover comes well before his opponent's lift.
        The square may be the one the mover's piece left or a captured piece's (a phantom there, dated a few
        ms before the opponent's lift by the bounce of that lift): then only a legal move read exactly
        without it (``exact``: only that, too; ``legal``: any legal move, the caller waiting for the square to
        open within ``touch_s`` before it takes this reading, youngclosing.py)."""
        recent = frozenset(s for s, at in seg.placed_at.items()
                           if s in occ_before and c.t - at < self.settings.touch_s)
        if not recent or len(recent) > 2:
            return None
        # two squares just closed (a phantom and the mover's slow landing): one of them alone first, only for
        # a legal move read exactly
        singles = [frozenset((s,)) for s in sorted(recent)] if len(recent) > 1 else []
        for left_out in (*singles, recent):
            occ = occ_before - left_out
            plan = self._plan(occ, c.square, faults=False)
            if plan is None:
                continue
            sure = isinstance(plan, Explanation) and plan.legal and plan.exact
            if not sure and (exact or left_out in singles or not left_out.isdisjoint(seg.occ0)) \
                    and not (legal and isinstance(plan, Explanation) and plan.legal):
                continue
            return PendingSplit(len(seg.changes), c.t, plan, occ, c.square)
        return None

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

    def _held_press_phantom(self, split: PendingSplit, square: int, t: float) -> bool:
        """The mover pressed while the opponent's first lifted piece is off (what follows tells) and ``square``,
        which no legal move of that piece reaches, closes: a neighbour phantom beside the opponent's next piece
        reads so too, his lift of another piece while the first stays off showing the mover's wrong removal.
        It is that piece's landing, his move under way, only once it stays closed ``touch_s``
        (:meth:`_settle_land_wait`: a phantom opens sooner); True when it waits. Reached is reached with the
        capture's pieces standing or cleared (earlylift.py: cleared while the opponent held his piece). Not with a
        faulty switch masked or a missing diode suspected: the closing may be a ghost (ghostread.py reads those)."""
        plan = split.plan
        if self._held is None or not isinstance(plan, Explanation) or not self._plan_fits_board(plan) \
                or self._mask.squares or self._diode_trouble():
            return False
        boards = [self._physical_after(plan, split.occ)]
        if plan.legal:
            cleared = snap(self.board)
            cleared.push(plan.move)
            boards.append(snap(cleared))
        if any(m.origin == split.square and m.destination == square for b in boards for m in self._index(b).moves):
            return False
        self._land_wait = (t, square, split)
        return True

    def _recheck_correction(self, c) -> None:
        """The change after a standing captured piece was lifted by its owner: put down on a square it can
        move to, it was his move with that piece, not the correction (the capture-not-removed stands and
        his move accepts it); his lift of another piece less than ``touch_s`` after that opening, no correction
        proven before he moved (recovery.py ``_freed_as_reply_begins``: read with his turn); any other change
        confirms the correction."""
        square, board, seg, ply, i, entry, undo, legal_after, statuses = self._recheck
        self._recheck = None
        if self._undo is not undo:
            return
        name = self.variant.square_name
        if c.up:
            if not self._freed_as_reply_begins(c, square, seg, board):      # recovery.py
                return
            why = f"{name(square)} read off {(c.t - seg.lifted_at[square]) * 1000:.0f} ms before " \
                  f"{'white' if board.turn else 'black'} lifted {name(c.square)}: no correction before he moved"
        elif not any(m.origin == square for m in self._index(board).to(c.square)):
            return
        else:
            why = f"{name(square)} was not taken off: {'white' if board.turn else 'black'} moved it"
        self.board = board
        self._seg = seg
        ply.needs_setup = True
        ply.fen = entry.__dict__.get("_fen_source") or entry.fen_after
        self.moves[i] = entry
        undo.legal_after = legal_after
        self._rebuild_tracker()
        for k, status in statuses:
            self._set_status(k, status, c.t, why)

    def _split_captures(self, square: int) -> bool:
        """The opponent lifted a piece (his move may have begun) and now a piece of the mover leaves: the mover
        still at work, unless a capture by the opponent's lifted piece takes it: his capture is under way, its
        landing not read yet (a slow magnet, a masked square) or its pieces taken off two at once."""
        split = self._split
        plan = split.plan
        if not isinstance(plan, Explanation) or not self._plan_fits_board(plan):
            return False
        after = self._physical_after(plan, split.occ)
        if any(m.origin == split.square and square in m.captured for m in self._index(after).moves):
            return True
        return self._captures_onto_unchanged(plan, split.square, square)

    def _captures_onto_unchanged(self, plan: Explanation, origin: int, square: int) -> bool:
        """The capture ``plan`` leaves pieces standing whose squares never changed in the turn (a piece left
        standing, or a switch stuck closed under it: the frames alike) and the opponent's piece lifted from
        ``origin`` takes the piece just played on ``square`` only by a capture landing on one of those squares:
        no player lands on an occupied square (FMJD 002 art. 3.5), so his capture is under way, the piece left
        standing is the switch's reading (stuckempty.py ``_stuck_landing`` reads the capture again once the
        landing shows nothing)."""
        standing = frozenset(plan.standing)
        if not standing or not plan.legal or square != plan.move.destination \
                or any(c.square in standing for c in self._seg.changes):
            return False
        after = snap(self.board)
        after.push(plan.move)
        after.clear_stack()
        return any(m.origin == origin and square in m.captured and m.destination in standing
                   for m in self._index(after).moves)

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
