"""Commit policy: when a turn's segment becomes a move, and what committing it does.

A segment is committed at the mover's clock press (:mod:`rig.reconstruct.presses`), when the opponent starts
his move, or, without a clock, when the board has stood still for ``stable_s`` with a legal move on it (a
camera's ``hand`` frame while captured pieces of the move still stand is the mover taking them off: the time
counts from the last one); a segment that holds the mover's move and the opponent's start is split at the
opponent's first lift. Committing plays the move on the board, opens the irregularities the trail shows,
accepts an open irregular position where the rule set's book says the opponent's move does (CODEX 004 art.
43, 50; FMJD 002 art. 5.7; under the FPD it stays open, 000 art. 7.5a, 001 art. 5.1.3), and flags a second
move in one turn (CODEX 004 art. 42.A) or a move after a press without one (FPD 000 art. 7.5b).
Mixed into :class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from functools import partial

from rig.board import Board
from rig.reconstruct import detectors
from rig.reconstruct.matcher import Explanation
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.outputs import (
    ACCEPTED,
    CORRECTED,
    OPEN,
    MoveEntry,
)
from rig.reconstruct.replyfirst import landing_on_quick_removal, reply_before_landing
from rig.reconstruct.state import PLAY, SETUP, SIDE, Plan, Ply, Segment, Undo, snap

__all__ = ["CommitPolicy"]


class CommitPolicy:
    """Commits the turn's segment as a move: still board, opponent's start, split segment, the commit."""

    def _check_stable(self, t: float) -> None:
        """Without a clock: a board unchanged for ``stable_s`` that shows a legal move commits it."""
        if self._land_wait is not None:
            self._settle_land_wait(t)
        if self._undo_wait is not None:
            self._settle_undo_wait(t)
        phase = self._phase
        seg = self._seg
        if phase is PLAY:
            last = seg.last_change
            if last is None or not seg.changes:
                return
            if self._hand_t > last and last + self.settings.stable_s <= t:
                # a camera's hand over the board while captured pieces of the move still stand: the mover taking
                # them off (FPD 000 3.8), his move not finished; the board is still from the hand's last picture
                expl = self._explain()
                if expl is not None and expl.standing:
                    last = self._hand_t
            if last + self.settings.stable_s > t:
                return
        else:
            if phase is SETUP:
                self._check_setup(t)
            return
        deadline = last + self.settings.stable_s
        p = self._deb.earliest_pending()
        if p is not None and p <= deadline:
            return
        seg.last_change = None      # decided: nothing more until the board changes again
        if self._young_lift is not None:
            self._young_closing_stayed()    # a young closing that stayed: the lift read as it was (youngclosing.py)
            if self._seg is not seg:
                return                      # the mover's move committed: the reply's segment is looked at next
        # (without a clock, a piece the opponent lifted after the mover's move accounts for its colour gone)
        if (self._split is None or self._clock_mode) and self._unplayable(self._occ):
            # a capture by the side not to move (a second move, CODEX 42.A) takes a piece of the
            # side to move: both colours gone, yet one move explains it
            if not self._other_side_move(deadline, self._occ) and not self._interleaved(deadline, self._occ) \
                    and not self._dead_landing_taken(deadline, self._occ):
                # both colours gone and a square closed that no move reaches: a square that closed on its own
                # beside the move, with no piece to put there, is a switch stuck closed (unseen.py
                # ``_stuck_on_empty``), not a knocked board: a sensor fault, never a player's irregularity
                plan = self._stuck_on_empty(self._occ, None) if not self._ending else None
                if plan is not None:
                    self._commit_plan(plan, deadline, f"board stable for {self.settings.stable_s:g} s")
                elif self._ending or not self._last_closing_apart(deadline):     # lastclosing.py
                    self._lose(deadline, self._occ)
            return
        if self._clock_mode:
            return
        if self._split is not None:
            if self._split.square in self._occ:
                self._resolve_split()     # the opponent's piece is back: he touched it, his turn began
                return
            plan = self._split.plan
            if isinstance(plan, Explanation) and self._split.square in plan.standing:
                self._split = None        # a captured piece taken off and left off: the mover removed it
                plan = self._plan(self._occ)
                if (plan is None or isinstance(plan, Explanation) and not plan.legal) \
                        and self._interleaved(deadline, self._occ):
                    return                # his landing read off after it and a reply played (interleave.py)
                if plan is not None:
                    self._commit_plan(plan, deadline, f"board stable for {self.settings.stable_s:g} s")
                return
            # it stayed off: in its owner's hand (he thinks with it) or taken off by the mover; without a
            # clock the sensors cannot tell: his turn began, and an observation says what may have happened
            # unless his move is played with it (:meth:`_held_off_settled`)
            self._held_off_observation(deadline)
            if not self._cleared_under_lift(self._split, None):     # earlylift.py
                self._resolve_split()
            return
        expl = self._explain()
        if expl is not None and expl.legal and expl.exact:
            self._commit(expl, deadline, f"board stable for {self.settings.stable_s:g} s")
        elif (self._open_readings or self._stale_dead) and (reread := self._reread_turn(deadline)) is not None:
            self._commit(reread[0], deadline, "read after an earlier open reading was re-read", occ_after=reread[1])
        elif self._removal_read_as_lift(deadline, self._occ):
            return                        # the last capture's removal read as the opponent's lift (removalsplit.py)
        elif not self._own_lifted(seg) or self._own_lifts_off(seg, self._occ):
            # his pieces gone may be the ones a second move of the opponent captured (CODEX 42.A)
            self._other_side_move(deadline, self._occ)
        elif expl is None or not expl.legal:
            self._interleaved(deadline, self._occ)    # the reply's piece read off early (interleave.py)

    def _unplayable(self, occ: frozenset[int]) -> bool:
        """A still board no move (or move in progress) accounts for: pieces of both colours gone
        that no capture takes, or more changed squares than any move makes (FPD 7.4; CODEX 46-48)."""
        seg = self._seg
        changed = occ ^ seg.occ0
        if len(changed) >= self._lost_limit():
            return True
        removed = seg.occ0 - occ
        board = self.board
        colours = {p[0] for p in map(board.piece_at, removed) if p is not None}
        if len(removed) < 2 or len(colours) < 2:
            return False
        expl = self._explain(occ)
        if expl is not None and expl.kind != "illegal-move":
            return False
        own = [s for s in removed if (board.piece_at(s) or (None,))[0] == board.turn]
        if len(own) == 1:
            theirs = removed - {own[0]}
            added = occ - seg.occ0
            for m, _ in self._index().sequences:
                if m.origin == own[0] and theirs <= set(m.captured) and added <= set(m.path):
                    return False
        return True

    def _commit_plan(self, plan: Plan, t: float, reason: str, occ_after: frozenset[int] | None = None,
                     reply: SquareChange | None = None) -> None:
        if isinstance(plan, Explanation):
            self._commit(plan, t, reason, occ_after=occ_after, reply=reply)
        else:
            first, mid, t_mid, second = plan
            rest = self._occ if occ_after is None else occ_after
            self._commit(first, t_mid, reason, occ_after=mid)
            self._commit(second, t, "a second move in the same turn (CODEX 42.A)", occ_after=rest,
                         other_side=True)

    def _resolve_split(self) -> None:
        """The opponent's move has begun (his lifted piece came down elsewhere, or he pressed) although
        the mover never pressed: commit the mover's move as it stood at the opponent's first lift, and
        read the rest as the opponent's turn."""
        assert self._split is not None
        index, t, plan, occ_at = self._split[:4]
        self._split = None
        self._cut(index, t, plan, occ_at, f"{SIDE[not self.board.turn]} began his move before a clock press")

    def _cut(self, index: int, t: float, plan: Plan, occ_at: frozenset[int], reason: str) -> None:
        """Commit ``plan`` from the segment's first ``index`` changes (the board then showed ``occ_at``)
        and start the next turn with the changes after them."""
        old = self._seg
        rest = old.changes[index:]
        self._seg = Segment(old.t0, old.occ0, pieces=old.pieces)
        head = old.changes[:index]
        shown = set(old.occ0)
        last: dict[int, int] = {}
        for k, c in enumerate(head):
            (shown.discard if c.up else shown.add)(c.square)
            last[c.square] = k
        # squares read closed at the cut that the plan leaves out (a neighbour phantom, just closed): their
        # closing is no touch nor landing of the mover
        phantom = {last[s] for s in shown - occ_at if s in last and t - head[last[s]].t < self.settings.touch_s}
        for k, c in enumerate(head):
            if k not in phantom:
                self._record_change(self._seg, c)
        self._commit_plan(plan, t, reason, occ_at, rest[0] if rest else None)
        seg = self._seg
        for c in rest:
            self._record_change(seg, c)

    def _physical_after(self, expl: Explanation, occ: frozenset[int]) -> Board:
        """The position as it stands after ``expl``'s move: captured pieces still standing keep
        their colour, pieces missing are gone; the opponent is to move."""
        before = self.board
        after = snap(before)
        if expl.legal:
            after.push(expl.move)
            after.clear_stack()
        else:
            pieces = before.pieces()
            piece = pieces.pop(expl.move.origin)
            for s in expl.move.captured:
                pieces.pop(s, None)
            pieces[expl.move.destination] = (piece[0], piece[1] or expl.move.promotes)
            after.set_pieces(pieces, not before.turn)
        if expl.standing or expl.missing:
            pieces = after.pieces()
            old = before.pieces()
            for s in expl.standing:
                pieces[s] = old[s]
            for s in expl.missing:
                pieces.pop(s, None)
            after.set_pieces(pieces, after.turn)
        return after

    def _accept_open(self, mover: bool, t: float) -> list[int]:
        """The mover plays on: his move accepts every open irregularity of his opponent where the book says
        so (CODEX art. 43, 50; FMJD 5.7); under the FPD (000 7.5a, 001 5.1.3) they stay open for the arbiter
        and the move is played from an irregular position: the indexes of those he now plays on from."""
        side = SIDE[not mover]
        judge = self.judge
        still: list[int] = []
        for i, irr in enumerate(self.irregularities):
            if irr.status == OPEN and irr.side == side and irr.type not in ("position-lost", "wrong-setup"):
                if judge.accepts(irr.type):
                    self._set_status(i, ACCEPTED, t, f"{SIDE[mover]} played on")
                elif i not in judge.replied:
                    judge.replied.add(i)
                    still.append(i)
        if still:
            self._note(t, f"{SIDE[mover]} played on from an irregular position: "
                          f"{self._irregular_position(still)}; open for the arbiter")
        return still

    def _passes(self, t: float, by: str) -> bool:
        """The side to move pressed without a move (FPD 7.5b) and ``by``, his opponent, now moved: the turn
        passed. Accepted where the book says so; otherwise the reply's commit (``_accept_open``) leaves it open
        for the arbiter and marks the reply as played from an irregular position."""
        judge = self.judge
        passed = [i for i, irr in enumerate(self.irregularities)
                  if irr.type == "clock-without-move" and irr.status == OPEN and irr.side == SIDE[self.board.turn]
                  and i not in judge.replied]
        if passed and judge.accepts("clock-without-move"):
            for i in passed:
                self._set_status(i, ACCEPTED, t, f"{by} played on")
        return bool(passed)

    def _commit(self, expl: Explanation, t: float, reason: str, *, occ_after: frozenset[int] | None = None,
                other_side: bool = False, pass_accepted: bool = False, reply: SquareChange | None = None) -> None:
        """Write the segment's move: the entry, its irregularities, the record, the tracker; the board
        becomes the position as it stands and the opponent's turn begins (``reply``: the first change after the
        move, when the segment was cut there)."""
        if self._held_off is not None:
            self._held_off_settled(None if other_side else expl.move, t)
        occ = self._occ if occ_after is None else occ_after
        if not other_side and (self._open_readings or self._stale_dead) and not (expl.legal and expl.exact):
            reread = self._reread_turn(t, occ, committing=True)   # an earlier open reading explains it
            if reread is not None:
                expl, occ = reread
        freed = self._freed               # squares a re-read unmasked: their changes in the turn were hidden
        if freed:
            occ = self._freed_occupancy(expl.move, occ)     # chainread.py
        seg = self._seg
        setup_before = None
        in_turn = self.board              # the position with the side whose turn it was to move
        if other_side:
            flipped = snap(self.board)
            flipped.turn = not flipped.turn
            self.board = flipped
            setup_before = self._fen(flipped)
        board_before = self.board         # never changed in place: the board is replaced below
        if not other_side and expl.move.destination not in freed:
            self._landing_closed_before(expl, board_before)     # stuckempty.py
        mover = board_before.turn
        held = self._held
        if held is not None:
            self._held = None
            if (held.event.side == "white") != mover:
                held = None
            else:
                t = min(t, held.at)
        two_moves = other_side and not pass_accepted
        if pass_accepted and mover:
            self._number += 1         # black's turn passed (FPD 7.5b): white's reply opens the next number
        number = self._number - (1 if two_moves and not mover else 0)
        if not mover and not two_moves:
            self._number += 1
        move = expl.move
        name = self.variant.square_name
        index = self._index(board_before)
        text = board_before.move_text(move, index.to(move.destination)) if expl.legal else move.text(name=name)
        after = self._physical_after(expl, occ)
        from_irregular = self._accept_open(mover, t)
        ctx = detectors.Context(self.judge.book, t, mover, number)
        found = self._record((detectors.two_moves(ctx, move, text),), before=in_turn) if two_moves else []
        findings = detectors.move_findings(ctx, board_before, index, expl, text)
        unseen, why = self._unseen_landings(), ""
        if not other_side and (recovered := self._landing_recovered(move, seg)) is not None:     # recovery.py
            unseen, why = unseen | {move.destination}, recovered
        elif not other_side and not self._clock_mode and reply is not None \
                and (early := reply_before_landing(move, seg, reply, board_before, self.settings, name)):
            unseen, why = unseen | {move.destination}, early                                   # replyfirst.py
        elif not other_side and not self._clock_mode and (quick := landing_on_quick_removal(
                move, seg, self._plies[-1] if self._plies else None, self.settings, name)):
            unseen, why = unseen | {move.destination}, quick                                   # replyfirst.py
        findings += detectors.trail_findings(ctx, board_before, index, expl, seg, self.settings, unseen, why)
        if findings:
            found += self._record(findings)
        legal_in_record = expl.legal
        fen_after = partial(self._fen_of, after.wm, after.wk, after.bm, after.bk, after.turn)
        entry = MoveEntry.lazy(number, SIDE[mover], text, t, None, move, expl.legal and not two_moves, fen_after)
        needs_setup = legal_in_record and (bool(expl.standing) or bool(expl.missing))
        comment = None
        if found:
            comment = "; ".join(self.irregularities[i].type for i in found)
            if not legal_in_record:
                comment = f"{SIDE[mover]} {text}: {comment}"
        if from_irregular:
            comment = "; ".join(([comment] if comment else []) + [self._irregular_position(from_irregular)])
        ply = Ply(board_before, move, legal_in_record, fen_after, setup_before, needs_setup, None, comment,
                   found, start=seg.t0, text=text)
        if move.captured and (landed := seg.placed_at.get(move.destination)) is not None:
            ply.capture_times = (landed, {s: seg.lifted_at[s] for s in move.captured if s in seg.lifted_at})
        elif move.captured:
            ply.removed_at = {s: seg.lifted_at[s] for s in move.captured if s in seg.lifted_at}
        self._plies.append(ply)
        self.moves.append(entry)
        self._entry_plies.append(ply)
        self._emit(entry)
        if self.trace or found:
            self._note(t, f"commit {SIDE[mover]} {text} ({reason})")
        # the tracker follows the record
        if setup_before is not None:
            self.tracker.set_position(setup_before)
        if legal_in_record:
            self.tracker.push(move)
            if needs_setup:
                self.tracker.set_position(ply.fen_after)
        else:
            self.tracker.set_position(ply.fen_after)
        legal_after = None
        if needs_setup:
            legal_after = snap(board_before)
            legal_after.push(move)
            legal_after = snap(legal_after)
        self._undo = Undo(len(self._plies) - 1, seg.occ0, board_before, legal_after)
        if self._taken_back is not None:
            key, idx = self._taken_back
            if key == move.key and board_before.key() == self._undo.board_before.key():
                self._set_status(idx, CORRECTED, t, "the same move was played again")
            self._taken_back = None
        self.board = after
        self._await_time = None
        if held is not None:
            self._pressed(len(self.moves) - 1, held.event, held.times)
        self._seg = Segment(t, occ, pieces=self._pieces)
        self._split = None
        if self._mask.assumed:
            self._mask_sync()
            self._landed_before_commit()      # earlylift.py: a dead switch that read the piece before the commit
        self._counters(t)
        if legal_after is None:
            # with the board short of the legal result (a piece wrongly taken off) the game is not over
            # yet: the correction may give the opponent his move back; it ends at the correction or finish()
            self._end_of_game_check(t)

    def _assign(self, occ: frozenset[int]) -> Board:
        """Colours for a board no move explains: pieces that stayed keep theirs; a new square takes
        the nearest piece that left (the mover's first); anything else is flagged as the mover's man."""
        before = self.board.pieces()
        mover = self.board.turn
        kept = {s: p for s, p in before.items() if s in occ}
        left = sorted((s for s in before if s not in occ), key=lambda s: (before[s][0] != mover, s))
        v = self.variant
        for s in sorted(occ - set(before)):
            if left:
                fs, rs = v.coords(s)
                src = min(left, key=lambda x: (before[x][0] != mover,
                                               max(abs(v.coords(x)[0] - fs), abs(v.coords(x)[1] - rs))))
                left.remove(src)
                kept[s] = before[src]
            else:
                kept[s] = (mover, False)
        b = Board(v)
        b.set_pieces(kept, not mover)
        return b
