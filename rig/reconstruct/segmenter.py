"""Segmenter stage: the set-up, confirmed square changes into the turn's segment, and when a position is lost.

Each confirmed lift or placement (after the debounce) is added to the segment of the turn: the evidence
since the last commit (touches, touch-downs, removals, in time order). Before the first move it checks
the set-up (FPD 000 art. 7.2; CODEX 004 art. 44: a set-up error is put right before the first move);
during play it notices the opponent's start (his own piece lifted) and a second move in one turn (CODEX
004 art. 42.A), asks :func:`rig.reconstruct.matcher.explain` which move the board shows, and declares the
position lost when no reading is left (lostposition.py: FPD 000 art. 7.4; CODEX 004 art. 46-48). Mixed into
:class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from rig.board import Board
from rig.reconstruct import detectors
from rig.reconstruct.matcher import Explanation, PositionIndex, explain
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.outputs import CORRECTED
from rig.reconstruct.state import LOST, PLAY, SETUP, SIDE, PendingSplit, Plan, Segment, Undo

__all__ = ["Segmenter"]


class Segmenter:
    """Reads the square changes of a turn into its segment and the moves they can show."""

    # -- setup -------------------------------------------------------------------------------

    def _start_occupancy(self) -> frozenset[int]:
        return self.board.occupied()

    def _check_setup(self, t: float) -> None:
        if not self._deb.started or self._phase is not SETUP:
            return
        occ = self._occ
        target = self._start_occupancy()
        colours_ok = True
        if occ == target and self._pieces is not None and set(self._pieces) == set(occ):
            want = self.board.piece_codes()
            colours_ok = all(self._pieces[s].lower() == want[s].lower() for s in occ)
        if occ == target and colours_ok and not self._deb.pending:
            self._phase = PLAY
            self._seg = Segment(t, occ, pieces=self._pieces)
            if self._setup_flagged is not None:
                self._set_status(self._setup_flagged, CORRECTED, t, "the board was set up right")
                self._setup_flagged = None
            self._setup_put_right(t)
            if self.trace:
                self._note(t, "board set up: the game starts")
            return
        last = self._seg.last_change if self._seg.last_change is not None else self._seg.t0
        if self._setup_flagged is None and not self._deb.pending and t - last >= self.settings.stable_s:
            self._flag_setup(occ, colours_ok, max(t, last))

    def _flag_setup(self, occ: frozenset[int], colours_ok: bool, t: float) -> None:
        if colours_ok and self._setup_single(occ, t):
            return                        # one square off: an observation until the first move tells
        turned = detectors.turned_start(self.variant) if self.header.fen is None else None
        irr = detectors.wrong_setup(self._context(t, self.board.turn), occ, self._start_occupancy(), colours_ok, turned)
        self._setup_flagged, = self._record((irr,))

    # -- square changes ----------------------------------------------------------------------

    #: a placement that put the board back as it was before the last move: (its time, the undo it matched),
    #: read as a take-back once the board has stayed so a while (:meth:`_settle_undo_wait`)
    _undo_wait: tuple[float, Undo] | None

    def _settle_undo_wait(self, t: float, now: bool = False) -> None:
        """The board put back as it was before the last move (FPD 000 art. 4.8; CODEX 004 art. 42.D) is a
        take-back once nothing changed for :meth:`_undo_wait_s` after (or ``now``: a press or the end settles
        it); a change sooner drops it (a neighbour phantom on the square the move left, the move going on)."""
        wait = self._undo_wait
        if wait is None:
            return
        at, undo = wait
        if not now:
            until = at + self._undo_wait_s()
            if t < until:
                return
            p = self._deb.earliest_pending()
            if p is not None and p < until:
                return
        self._undo_wait = None
        if self._undo is undo and self._phase is PLAY and self._occ == undo.occ_before:
            self._try_undo(at, self._occ)

    def _removal_on_other_path(self, plan: Explanation, c: SquareChange, occ: frozenset[int]) -> bool:
        """An opponent's piece lifted while ``plan`` (a capture with pieces still standing) is on the board,
        and a capture to the same square by another landing path takes that piece (as legal as ``plan``: a
        capture stopped early by another way, CODEX 004 art. 42.I, too): the mover is clearing his capture (a
        flown capture's path is told by the removals, FMJD 002 art. 4.11), not the opponent starting. Keeps
        that reading in ``_removal_plan``."""
        alt = self._explain(occ)
        if (alt is None or alt.legal != plan.legal or alt.kind != plan.kind or c.square not in alt.move.captured
                or alt.move.origin != plan.move.origin or alt.move.destination != plan.move.destination):
            return False
        self._removal_plan = alt
        return True

    def _split_standing(self) -> bool:
        """The opponent's first lifted piece is a captured piece still standing (the mover may be clearing
        his capture): only its landing tells that its owner began a capture with it, not a lift of the
        mover's own piece (``own-piece-removed`` just after a capture looks the same until then)."""
        plan = self._split.plan
        return isinstance(plan, Explanation) and self._split.square in plan.standing

    def _split_back_briefly(self, c: SquareChange) -> bool:
        """The opponent's first lifted piece's square closed again less than ``touch_s`` before ``c`` (a
        neighbour phantom on a captured piece's square, or a slide: no piece put back by a hand)."""
        at = self._seg.placed_at.get(self._split.square)
        return at is not None and c.t - at < self.settings.touch_s

    def _undo_wait_s(self) -> float:
        """How long a square closed by a neighbour phantom can read occupied: under ``touch_s``, dated from
        the end of its bounce to the end of the next (up to ``bounce_s`` more)."""
        return self.settings.touch_s + self.settings.bounce_s

    #: a standing captured piece's owner maybe landing it, or a phantom after a held press (certainty.py)
    _land_wait: tuple[float, int, PendingSplit] | None

    def _settle_land_wait(self, t: float, c: SquareChange | None = None) -> None:
        """The square a lifted standing captured piece can go to closed (CODEX 004 art. 42.K: its owner may
        play it): his move once it stayed closed ``touch_s`` (at ``t``, or at the change ``c``); a neighbour
        phantom there opens sooner, and the wait is dropped."""
        at, square, split = self._land_wait
        if self._split is not split or square not in self._occ:
            self._land_wait = None
            return
        until = at + self.settings.touch_s
        if c is not None and c.t < until:
            if c.square == square and c.up:
                self._land_wait = None      # opened again: a phantom
            return
        if c is None:
            p = self._deb.earliest_pending()
            if t < until or p is not None and p < until:
                return
        self._land_wait = None
        if not self._removal_then_stuck_reply(split, square):   # lastclosing.py
            self._resolve_split()

    def _change(self, c: SquareChange) -> None:
        t, square, up = c
        if self._land_wait is not None:
            self._settle_land_wait(t, c)
        wait = self._undo_wait
        if wait is not None:
            if t >= wait[0] + self._undo_wait_s():
                self._settle_undo_wait(t, now=True)
            else:
                self._undo_wait = None    # the board moved on at once: not put back
        if up:
            self._occ = self._occ - {square}
        else:
            self._occ = self._occ | {square}
            self._closed_once[square] = t   # the switch works (a faulty one is looked for elsewhere first)
        if self.trace:
            self._note(t, f"{'lift' if up else 'place'} {self.variant.square_name(square)}")
        phase = self._phase
        if phase is not PLAY:
            if phase is SETUP:
                self._seg.last_change = t
                if self._setup_fault(c):
                    return
                self._check_setup(t)
            elif phase is LOST:
                self._lost_check(t)
            return                        # OVER: nothing more is read
        if self._recheck is not None:
            self._recheck_correction(c)
        if self._magnet_lift is not None:
            self._magnet_passed(c)          # a dead landing set aside for a slow magnet (magnetwait.py)
        if self._young_lift is not None:
            self._young_closing_passed(c)   # a stuck origin set aside for a young closing (youngclosing.py)
        occ = self._occ
        seg = self._seg
        mover = self.board.turn
        piece = self.board.piece_at(square) if up and square in seg.occ0 else None
        if piece is not None:
            occ_before = occ | {square}     # the square was occupied before this lift
        if self._mask.assumed and seg.changes and (self._split is None or self._split_took_capture()) \
                and self._masked_reply(c, occ):
            seg = self._seg                   # the opponent's move from a masked square began
            piece = None
        if up and not self._clock_mode and (self._split is None or self._split_took_capture()) and seg.changes \
                and self._phase is PLAY and self._stuck_reply(c, occ | {square}):
            seg = self._seg                   # the mover's move read, then a reply from a stuck switch
            mover = self.board.turn
            if piece is None and square in seg.occ0:
                # the lift of a piece the move just read put there: the mover begins again (the reply is over)
                piece = self.board.piece_at(square)
                occ_before = occ | {square}
        if piece is not None and piece[0] != mover and not self._clock_mode and self._split is None \
                and len(seg.changes) > 4 and self._three_moves(occ_before):
            seg = self._seg                   # his move, the reply and his next (lifted early) read: c is a reply
        if piece is not None and piece[0] == mover and self._split is not None and self._mask.assumed \
                and square in self._split.occ and not self._split_captures(square) and not self._split_to_masked() \
                and self._split_to_stuck(t):
            seg = self._seg                   # the opponent's piece went to the other square of a stuck pair
            mover = self.board.turn           # (stuckpair.py): this lift is looked at on his move, the squares
            occ = self._occ                   # the re-read freed as the game now has them
            occ_before = occ | {square}
            piece = self.board.piece_at(square) if square in seg.occ0 else None
        if piece is not None and piece[0] != mover and (
                seg.changes or self._mask.assumed and self._masked_move_unseen(occ_before)):
            # an opponent's piece leaves the board: a capture being cleared, a wrong removal, or his move
            if self._split is None:
                self._removal_plan = None
                # a square closed a moment ago (a neighbour phantom) before a faulty switch
                plan = self._plan(occ_before, square, faults=False)
                if self._seg is not seg:    # the plan re-read the turn (chainread.py): a new segment, and the
                    seg = self._seg         # masked squares as the moves read again leave them
                    occ_before = self._occ | {square}
                phantom = None
                if plan is None and self._removal_plan is None:
                    if seg.placed_at:
                        phantom = self._phantom_free_split(seg, c, occ_before)
                    if phantom is None:
                        plan = self._fault_plan(occ_before, square, young_wait=True)
                        if plan is None:                # (magnetwait.py, youngclosing.py)
                            self._await_magnet(seg, occ_before, square, t)
                            self._await_young_closing(seg, occ_before, square, t)
                elif isinstance(plan, Explanation) and plan.standing and self._removal_on_other_path(plan, c, occ):
                    plan = None                 # another landing path captures the lifted piece: a removal
                elif seg.placed_at and isinstance(plan, Explanation) and not (plan.legal and plan.exact):
                    # a captured piece "still standing" whose square closed a moment ago: a phantom there
                    phantom = self._phantom_free_split(seg, c, occ_before, exact=True)
                    if phantom is not None:
                        plan = None
                if plan is not None:
                    if not self._young_landing_split(seg, c, plan, occ_before):     # (youngclosing.py)
                        self._split = PendingSplit(len(seg.changes), t, plan, occ_before, square)
                elif phantom is not None:
                    self._split = phantom
                elif not self._clock_mode and not self._batch_more:
                    self._split = self._standing_split(seg, c, occ_before)
            elif self._split.square not in occ_before and self._held is not None:
                # the first piece stayed off: the mover took it off before pressing; this lift starts the reply
                self._commit_held(f"{SIDE[not mover]} lifted {self.variant.square_name(square)}: his move starts")
                seg = self._seg
            elif not self._standing_opens(square) and (self._split.square not in occ_before
                                                       or self._split_back_briefly(c)
                                                       or self._split_reclosed_removal(c)):     # (stuckempty.py)
                # (its square closed again a moment ago: a neighbour phantom, the piece is still off)
                back = self._split.square in occ_before
                occ_before = occ_before - {self._split.square}
                self._removal_plan = None
                plan = self._plan(occ_before, square)
                if plan is None and seg.placed_at and (split := self._phantom_free_split(seg, c, occ_before)):
                    plan, occ_before = split.plan, split.occ
                if isinstance(plan, Explanation) and plan.standing and self._removal_on_other_path(plan, c, occ):
                    self._split = None    # another captured piece of the same capture by another path
                elif plan is not None:
                    # the first piece stayed off: the mover took it off; this lift starts the reply
                    self._split = None
                    reason = f"{SIDE[not mover]} lifted {self.variant.square_name(square)}: his move starts"
                    if back:
                        self._cut(len(seg.changes), t, plan, occ_before, reason)    # without the phantom
                    elif not self._young_landing_split(seg, c, plan, occ_before, reason):     # (youngclosing.py)
                        self._commit_plan(plan, t, reason, occ_before)
                    seg = self._seg
                elif self._removal_plan is not None and self._split_is_removal(square):
                    self._split = None    # another captured piece taken off: the first was the mover's removal too
        elif piece is not None and piece[0] == mover and self._ghost_masked and self._hidden_reply(c, occ_before):
            seg = self._seg                   # the mover's move and an unseen reply read: c begins his next
        elif self._ghost_masked and (not up or square in seg.placed_at) and self._hidden_reply(c, occ ^ {square}):
            seg = self._seg                   # the same, c the landing of his next move from a masked square
            #                                   or the lift of the piece he played, released
        elif piece is not None and piece[0] == mover:
            if self._held is not None:
                self._commit_held(f"{SIDE[mover]} lifted {self.variant.square_name(square)} after his press")
                seg = self._seg
            elif self._split is not None:
                if square not in self._split.occ:
                    pass                    # the phantom the split was read without opens again
                elif self._split_captures(square) and not self._split_standing():
                    self._resolve_split()     # the lifted piece is one the opponent's capture took
                    seg = self._seg
                elif self._mask.assumed and self._split_to_masked():
                    # the opponent's piece went to a masked square, unseen: his move is read as it stands,
                    # and this lift begins the reply (tentative, like any first lift of the side not to move)
                    self._resolve_split()
                    seg = self._seg
                    plan = self._plan(occ_before, square)
                    if self._seg is not seg:    # re-read by the plan, as above
                        seg = self._seg
                        occ_before = self._occ | {square}
                    if plan is not None:
                        self._split = PendingSplit(len(seg.changes), t, plan, occ_before, square)
                elif self._split_reread(t, square):
                    seg = self._seg       # the mover's move read the other way, the opponent's then (chainread.py)
                elif self._dead_landing(c) or self._landing_closed_first(c):
                    seg = self._seg       # the opponent's piece went to a dead switch, or to one that stuck
                    #                       closed before his lift (closedfirst.py): c begins the next move
                elif self._split_chain(c):
                    seg = self._seg       # the reply landed where a stuck pair was read: that pair read the other way
                elif self._interleaved(t, occ_before):
                    seg = self._seg       # the reply's lift read during the mover's move: c begins his next
                else:
                    self._split = self._own_lift_kept(square)   # the mover still at work, unless (ownlift.py)
            elif seg.changes and occ_before != seg.occ0 and (not self._own_lifted(seg)
                                                             or self._own_lifts_off(seg, occ_before)):
                # the mover begins while the board shows a move of his opponent: a second move
                # in one turn (CODEX 42.A), or the reply to a press without a move (FPD 7.5b); his
                # pieces already off may be the ones that move captured (the move then shows exactly)
                if self._other_side_move(t, occ_before) or self._interleaved(t, occ_before):
                    seg = self._seg
            elif seg.changes and self._theirs_off(seg, occ_before) and self._interleaved(t, occ_before):
                # his own lifted square closed again under the opponent's landing (a reply onto it, the reply's
                # piece read off early: a switch dead under it): his move, the reply, and c begins his next
                seg = self._seg
        elif (up and self._split is not None and self._mask.assumed and isinstance(self._split.plan, Explanation)
              and square == self._split.plan.move.destination and self._split_to_masked()):
            # the mover lifts the piece he played again after the opponent's piece went to a masked square,
            # unseen: the opponent's move is read as it stands and this lift begins the mover's next one
            self._resolve_split()
            seg = self._seg
            plan = self._plan(occ | {square}, square)
            if plan is not None:
                self._split = PendingSplit(len(seg.changes), t, plan, occ | {square}, square)
        elif (up and self._split is not None and isinstance(self._split.plan, Explanation)
              and square == self._split.plan.move.destination
              and not any(r.ply == len(self._plies) for r in self._open_readings)
              and (self._dead_landing(c) or self._split_chain(c))):
            # without a clock, the mover lifts the piece he played again while the opponent's lifted piece
            # stayed off: it went to a dead switch (unseen.py); this lift begins the mover's next move (not
            # while the mover's move is one of two readings: read the other way, the opponent's piece may be
            # capturing it, chainread.py ``_split_reread``)
            seg = self._seg
        elif (up and self._split is None and seg.changes and square not in seg.occ0 and square in seg.placed_at
              and self._interleaved(t, occ | {square})):
            # without a clock, the mover lifts the piece he played again: his move and a reply whose piece read
            # off early (a switch dead under it) are read, and this lift begins his next move (interleave.py)
            seg = self._seg
        elif up and self._split is not None and self._split_captures(square):
            self._resolve_split()       # the piece the mover just played is taken by the opponent's capture
            seg = self._seg
        self._record_change(seg, c)
        split = self._split
        if split is not None and split.own is not None and not self._own_lift_settled(split, c):
            split = self._split = None      # not the opponent's move under way: the mover was still at work
        split = self._split                 # (read the other way: ownlift.py ``_twin_lift_freed``)
        if split is not None and not up:
            if square in split.occ and self._cleared_under_lift(split, square):
                return                    # the reply lands where a piece the capture took stood (earlylift.py)
            if square not in split.occ and self._split_lands(split, square):
                if self._held_squares and self._held_landing_late(split, c):
                    return                # the mover's landing after the lift, not a held square (heldlanding.py)
                if not (isinstance(split.plan, Explanation) and split.square in split.plan.standing):
                    if not (self._held is not None and self._held_press_phantom(split, square, t)) \
                            and not self._cleared_under_lift(split, square):
                        self._resolve_split()           # (earlylift.py; a phantom's wait: certainty.py)
                    return
                # a captured piece still standing lifted, and a square it can go to closes: its owner's move
                # with it once the square stays closed (a neighbour phantom opens within touch_s)
                self._land_wait = (t, square, split)
            if self._held is not None and square == split.square:
                # the piece is back where it stood: the mover had taken it off before his press
                self._commit_held(f"{self.variant.square_name(square)} put back after the press")
                seg = self._seg
        if self._undo is not None and not self._batch_more and self._land_wait is None:
            if not up and occ == self._undo.occ_before and occ != seg.occ0:
                # put back as it was, maybe: a take-back once the board stays so (a neighbour phantom
                # closes a square a moment, maybe the very square a take-back fills)
                self._undo_wait = (t, self._undo)
            elif self._try_undo(t, occ):
                return
        changed = len(occ ^ seg.occ0)
        if changed >= 2 + self.settings.lost_squares and changed >= self._lost_limit():   # the limit's floor first
            self._lose(t, occ)

    def _record_change(self, seg: Segment, c: SquareChange) -> None:
        t, s, up = c
        seg.changes.append(c)
        seg.last_change = t
        occ0 = seg.occ0
        if up:
            if s in occ0:
                piece = self.board.piece_at(s)
                if piece is not None and piece[0] == self.board.turn:
                    seg.last_own_lift = s
            placed_at = seg.placed_at
            if s in occ0 and s not in placed_at:
                seg.lifted_at[s] = t
                if seg.pieces is None and self._pieces is not None and not seg.lift_order:
                    seg.pieces = self._pieces
                seg.lift_order.append(s)
            elif s in placed_at:
                down = placed_at.pop(s)
                if s not in occ0 and t - down >= self.settings.touch_s:
                    seg.landings[s] = t - down
                if s in occ0:
                    seg.lifted_at[s] = t
                    seg.lift_order.append(s)
        else:
            if s not in occ0:
                if seg.last_own_lift is not None:
                    seg.hints[s] = seg.last_own_lift
            elif s in seg.lifted_at:
                lifted = seg.lifted_at.pop(s)
                if t - lifted >= self.settings.touch_s:
                    seg.touches.append((s, lifted, t))
            seg.placed_at[s] = t

    def _index(self, board: Board | None = None) -> PositionIndex:
        """The candidates of ``board`` (default: the engine's board), built once per position."""
        board = self.board if board is None else board
        last = self._indexed
        if board is last.board and last.candidates is not None:
            return last.candidates        # boards are never changed once looked up: one per position
        key = board.key()
        index = self._indexes.get(key)
        if index is None:
            if len(self._indexes) >= 16:
                self._indexes.clear()     # positions of past turns are not looked up again
            index = self._indexes[key] = PositionIndex(board, shared=True)
        last.board = board
        last.candidates = index
        return index

    # -- explaining and committing -----------------------------------------------------------

    def _explain(self, occ: frozenset[int] | None = None, board: Board | None = None) -> Explanation | None:
        seg = self._seg
        occ = self._occ if occ is None else occ
        board = self.board if board is None else board
        expl = explain(board, seg.occ0, occ, frozenset(seg.landings), tuple(seg.lift_order), seg.hints,
                       self._index(board))
        if self._mask.assumed and (expl is None or not (expl.legal and expl.exact)):
            expl = self._explain_masked(board, occ, expl)
        return expl

    def _plan(self, occ: frozenset[int], lifted: int | None = None, faults: bool = True) -> Plan | None:
        """The mover's move(s) the board shows at ``occ``: an explanation, a two-move pair, or None.
        With ``lifted`` (an opponent's square just lifted) None also when that lift is a removal (the
        explanation is then kept in ``_removal_plan``). ``faults``: try a faulty switch when nothing else
        explains the board. At an opponent's lift, an earlier open reading taken the other way may explain
        it (:meth:`_reread_turn`)."""
        expl = self._explain(occ)
        if (self._open_readings or self._stale_dead) \
                and (expl is None or not expl.legal or expl.missing
                     or lifted is not None and not expl.standing <= {lifted}) \
                and (reread := self._reread_turn(self._now, occ, lifted=lifted)) is not None:
            expl = reread[0]
        if expl is not None:
            if lifted is not None and (lifted in expl.standing or lifted in expl.move.captured):
                self._removal_plan = expl
                return None
            if expl.kind == "illegal-move":
                # two legal moves, the second onto the square the first left (7-10 then 3-7), show the
                # same squares as one illegal move (3-10): the order of the changes tells (CODEX 42.A)
                two = self._two_moves(occ, reuse=True)
                if two is not None and two.first.legal and two.second.legal and two.second.exact:
                    return two
            return expl
        two = self._two_moves(occ)
        if two is not None or not faults:
            return two
        if (self._open_readings or self._stale_dead) and (reread := self._reread_turn(self._now, occ)) is not None:
            return reread[0]              # an earlier open reading taken the other way explains it
        return self._fault_plan(occ, lifted)
