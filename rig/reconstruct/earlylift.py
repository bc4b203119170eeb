"""The opponent's piece lifted before the capture's pieces were taken off (docs/reconstruction.md, Commit).

A capture is over once its pieces are off the board (FMJD 002 art. 3.11, 4.4; CODEX 004 art. 42.K; FPD 000
art. 3.8); the mover presses after that. The opponent may lift his piece while the mover is still taking them
off, and a switch that dies under one of the opponent's pieces reads the same (its piece reads lifted at once).
Read at that lift, the capture stands with its pieces on the board (``capture-not-removed``) and their removal
falls in the opponent's turn (``own-piece-removed``, and ``capture-not-taken`` where the standing piece could
be captured). The two read the same at the press as a mover who took off one of the opponent's pieces that the
capture did not take, then the captured ones, and pressed (``wrong-piece-removed``): only what follows tells.

The opponent's lifted piece coming down on a square a legal move of it reaches, the only change after the
mover's removals and his press, settles it: the opponent's move began with that lift, and the mover finished
his capture (every piece it took off, before his press) while the opponent held his piece; no player
irregularity stands. (A wrong removal shows the opponent lifting another piece, or putting that one back.) The
capture is committed without that lift, as it stood once its pieces were off; the lift and the landing begin
the opponent's turn. A switch that died there is named once a piece stands on it again and reads empty.

The same lift can come while the mover's piece is still in his hand (13 read lifted 0.3 s after black lifts 21
for 21-17): the mover's move is read as over, and its destination, still open, as a ``dead`` switch. The
landing comes a moment later; the square, masked, reads closed under the piece the game put there once that
move is committed. A switch that reads the very piece it was named dead for worked all along: the fault is
withdrawn (:meth:`EarlyLift._late_landing`; kept in ``sensor_faults`` with the reason, emitted again). Where two
squares explained the move (19 left for 19-23 or 19-24, 24 read dead: never seen closing) the piece may come down
on the other one: the first closing after the opponent's lift, only his lifts before it. When his turn then shows
no legal move, but one with that closing taken as the mover's landing and his move re-read onto that square, the
move is re-read (chainread.py) and the fault withdrawn: no switch failed there (:meth:`EarlyLift._landed_late`).

:class:`EarlyLift` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from rig.board import Board
from rig.reconstruct.chainread import ChainReading, reread_chain, turn_shown
from rig.reconstruct.matcher import Explanation, explain
from rig.reconstruct import detectors
from rig.reconstruct.state import PendingSplit, Ply, Segment, snap

__all__ = ["EarlyLift"]


class EarlyLift:
    """The engine's side of an opponent's lift read before the capture was cleared (module docstring)."""

    def _cleared_under_lift(self, split: PendingSplit, square: int | None) -> bool:
        """The opponent's piece lifted at ``split`` came down on ``square`` (the segment's last change; None:
        without a clock, the board stays still with it off, :meth:`_held_off_observation`), and every change
        between were the mover taking off the pieces his capture left standing at that lift (before his press,
        when one is held): the capture is committed as it stood once they were off, and the lift (and the
        landing) begin the opponent's turn. True when so read."""
        plan = split.plan
        if not isinstance(plan, Explanation) or not plan.standing or split.square in plan.standing:
            return False
        seg = self._seg
        changes = seg.changes
        between = changes[split.index + 1:-1 if square is not None else None]
        removed = frozenset(c.square for c in between)
        if not between or removed != frozenset(plan.standing) or len(removed) != len(between) \
                or any(not c.up for c in between):
            return False
        held = self._held
        if held is not None and (square is None or held.index != len(changes) - 1):
            return False                  # a removal after the press: the move the press ended left it standing
        landing = frozenset() if square is None else frozenset((square,))
        if self._mask.squares & (removed | landing | {split.square}) or landing & split.occ - removed:
            return False                  # (a piece set down on a square that was occupied: not his move)
        occ = split.occ - removed
        head = Segment(seg.t0, seg.occ0, pieces=seg.pieces)
        for c in changes[:split.index] + between:
            self._record_change(head, c)
        expl = explain(self.board, head.occ0, occ, frozenset(head.landings), tuple(head.lift_order), head.hints,
                       self._index())
        if expl is None or not (expl.legal and expl.exact) or not removed <= set(expl.move.captured):
            return False
        after = snap(self.board)
        after.push(expl.move)
        after = snap(after)
        moves = [m for m in self._index(after).moves if m.origin == split.square]
        if not moves or square is not None and not any(square in m.path[1:] for m in moves):
            return False                  # not a move of that piece: the lift was no start of his
        rest = [changes[split.index]] + ([changes[-1]] if square is not None else [])
        name = self.variant.square_name
        then = f", then played to {name(square)}" if square is not None else ", and kept off"
        self._split = None
        self._seg = head
        self._commit(expl, split.t, f"{name(split.square)} lifted while {expl.move.text(name=name)}'s pieces were "
                                    f"taken off{then}", occ_after=occ)
        turn = self._seg
        for c in rest:
            self._record_change(turn, c)
        return True

    def _late_landing(self, square: int, t: float) -> None:
        """``square``, masked as a ``dead`` switch, reads closed (since ``t``) under the piece the game put there: when
        the fault was named during the turn of the move that put that piece there (no move onto or off it since),
        the switch read that piece: the landing came after the fault was read, the fault is withdrawn. Only
        while that move is the last or the one before it (the opponent's reply read meanwhile), and less than
        ``stable_s`` after the fault was read: no piece stays in the hand longer (:meth:`_switch_works` reads a
        later closing; a switch that closes later recovered, recovery.py)."""
        index = next((i for i in range(len(self.sensor_faults) - 1, -1, -1)
                      if self.sensor_faults[i].square == square and self.sensor_faults[i].current), None)
        if index is None or self.sensor_faults[index].kind != "dead":
            return
        fault = self.sensor_faults[index]
        if t - fault.since >= self.settings.stable_s:
            return
        plies = [p for p in self._plies if not p.withdrawn and p.move is not None]
        for k in range(len(plies) - 1, -1, -1):
            ply, move = plies[k], plies[k].move
            if square in move.captured or square == move.origin:
                return                    # the piece standing there came later: the switch may have recovered
            if square in move.path[1:]:
                # named in that move's turn (a move re-read from the moves after it starts at its entry's
                # time, so the turn is bounded by the moves around it)
                named_then = (k == 0 or plies[k - 1].start <= fault.since) \
                    and (k + 1 == len(plies) or fault.since < plies[k + 1].start)
                if move.destination == square and named_then and k >= len(plies) - 2:
                    name = self.variant.square_name(square)
                    self._withdraw_fault(index, f"{name} read closed under the piece of {ply.text or move}: it "
                                                "came down after the fault was read (a piece still in the hand)")
                    self._removed_before_landing(ply, t)
                return

    def _removed_before_landing(self, ply: Ply, t: float) -> None:
        """``ply``, a capture read with its landing unseen (its square masked ``dead``), landed at ``t``: the
        fault was withdrawn, so by the engine's own reading its piece came down then, and a captured piece read off
        before it may have been taken off early (FPD 000 3.8; CODEX 004 art. 42.J). The same frames come from a
        switch dead under the landing piece that works again later (dead-recovering: the closing is the switch,
        not the landing), so the removal is an observation for the arbiter, never an irregularity; before, it was
        lost with the fault, with no word. Not where the opponent's turn shows a landing before ``t``: a piece
        held in the hand while he completed a move is no late landing (his capture over that square needs the
        piece there: 34x12 over 29, 29 closing after 12, a dead switch working again)."""
        move, removed = ply.move, ply.removed_at
        if move is None or not removed or any(not c.up and c.t <= t for c in self._seg.changes):
            return
        early = sorted(s for s, off in removed.items() if off < t)
        entry = next((e for e, p in zip(self.moves, self._entry_plies) if p is ply), None)
        if not early or entry is None:
            return
        ctx = detectors.Context(self.judge.book, t, entry.side == "white", entry.number)
        dest = self.variant.square_name(move.destination)
        gap = t - min(removed[s] for s in early)
        findings = detectors.early_removal_unseen(
            ctx, early, move, self.variant.square_name,
            f"{dest}'s switch was read dead under the landing and closed {gap:.2f} s after the removal: a late "
            "landing and a dead switch working again read the same")
        ply.removed_at = None
        ply.irregularities += self._record(findings, before=ply.board_before)

    def _landed_before_commit(self) -> None:
        """After a commit: a square masked as a ``dead`` switch whose switch read closed, since the fault, while
        the move that puts a piece there was not yet committed (38 lifted, black's 21 read lifted a moment later,
        38-32 read with 32 dead; 32 closes 0.4 s after the lift, the move committed only at the press) read that
        piece: the frame that showed it came before the game had the piece there, so it is looked at now as
        :meth:`rig.reconstruct.faults.FaultHandling._masked_frame` looks at a frame (:meth:`_late_landing`:
        the fault withdrawn, the square unmasked)."""
        mask = self._mask
        for square, on in list(mask.assumed.items()):
            if not on or square in self._ghost_masked or not self._raw_masked.get(square) \
                    or self._fault_kind(square) != "dead" or self._their_landing(square):
                continue
            fault = next(f for f in reversed(self.sensor_faults) if f.square == square and f.current)
            closed = self._raw_moved.get(square)
            if closed is None or closed < fault.since:
                continue
            self._late_landing(square, closed)
            if self._fault_kind(square) is None:
                mask.remove(square)
                self._note(closed, f"square {self.variant.square_name(square)}: its switch reads again; no longer "
                                   "masked")

    def _stuck_lifted(self, t: float, square: int) -> None:
        """``square``, masked as stuck closed under a piece the game has there (a move read onto it, its landing
        unseen), opens: a stuck switch never does. Where an open reading named it (10-14 read 9-14 with 9 or 10
        stuck, then 4-10 read 4-9 onto the masked 9), the piece that stood there all along is being lifted (9x20,
        30 plies later): the reading is taken the other way (:meth:`_switch_works`; the moves onto the stuck
        square move with the fault, chainread.py), and the square, freed, shows the lift. A move read from its
        landing alone and not yet committed: the landing square's switch is the stuck one (closedfirst.py). With no
        open reading naming it and no move pending (the turn under way has no change), the switch works again
        (recovery.py): unmasked, so the opening reads as the lift it is (20 stuck, then 15-20; white's 20-14 seventy
        plies later went unseen; international game 19 ply 35, stuck-closed-recovering-8)."""
        if self._origin_opened_after(t, square):
            return
        if self._stuck_readings(square):
            self._switch_works(t, square, "stuck-closed")
        elif self._split is None and self._held is None and not self._seg.changes:
            self._recovered(t, square, "its switch opened under its piece: it works again")      # recovery.py

    def _switch_works(self, t: float, square: int, kind: str = "dead", why: str | None = None) -> None:
        """``square``, masked as a faulty switch of an open reading (one of two squares a ply's piece could
        reach, or come from), reads what a working switch reads under the game of the ply read the other way:
        the switch works, so the reading was wrong. When exactly one way of reading the plies (each staying
        legal) fits, the mover's move under way is committed, the moves are read so and the fault moves to the
        other square (chainread.py); the square, freed, shows its reading as a change of the turn under way.

        - ``dead`` (read under a landing of an earlier ply, not the last: no piece stays in the hand over a
          whole reply): it closes under the piece the game has there, so that piece never came down on it; the
          way read leaves ``square`` empty, and the opponent's piece lifted (a pending split) has a legal move
          onto it (41-37 read 41-36 with 36 or 37 dead; 36 closing under white's 41-36 seven moves later);
        - ``stuck-closed`` (read under an origin): it opens, which a stuck switch never does, so the piece read
          to have left it stands there and is being lifted now; the way read leaves a piece on ``square`` and
          changes that ply (45-40 read 44-40 with 44 or 45 stuck; 44 opening under white's 44-39 four plies
          later). Not bounded by ``REREAD_FAULT_PLIES``: the opening tells whenever it comes.

        ``why``: the observation's reason, when another square's reading told (recovery.py)."""
        plies, split = self._plies, self._split
        if self._held is not None or not plies:
            return
        pending = None
        removal = kind != "dead" and self._last_removal(split)
        if removal:
            split = None              # (dropped below once the re-read is found: the mover's capture goes on)
        if split is not None:
            if not isinstance(split.plan, Explanation) or not (split.plan.legal and split.plan.exact):
                return
            pending = split.plan.move
        if kind == "dead":
            last = len(plies) + (pending is not None) - 2   # a later ply: not the piece still in the hand
            readings = self._live_readings()
            fits = [r for r in readings if r.fault == "dead" and r.ply < last
                    and (move := plies[r.ply].move) is not None and r.fault_at(move) == square]
        else:
            readings = fits = self._stuck_readings(square)
        if not fits:
            return
        # the closing, read the other way, is a landing: of the opponent's piece lifted (a pending split), else of
        # a piece the mover lifted in this turn (none lifted: the switch under the piece read there works again)
        lifted = {split.square} if split is not None else {c.square for c in self._seg.changes if c.up}

        def accept(board: Board, cur: frozenset[int]) -> bool | None:
            if kind != "dead":
                return True if square in cur else None
            if square in cur or not any(m.origin in lifted and square in m.path[1:] for m in self._index(board).moves):
                return None
            return True

        def search() -> ChainReading | None:
            first = readings[0].ply
            played = [p.move for p in plies[first:]] + ([pending] if pending is not None else [])
            found = reread_chain(readings, played, lambda k: plies[k].board_before if k < len(plies)
                                 else self.board, self._index, accept)
            if found is None or found.first != fits[0].ply or kind != "dead" and found.steps[0][0].key == played[0].key:
                return None
            return found

        found = search()
        if found is None:
            return
        if removal:
            self._split = None
        name = self.variant.square_name
        if split is not None:
            self._split = None
            change = "closed" if kind == "dead" else "opened"
            self._cut(split.index, split.t, split.plan, split.occ, f"{name(square)} {change} after the opponent "
                                                                   f"lifted {name(split.square)}: his move starts")
            if kind == "dead":
                found = self._find_chain(accept)
            else:
                pending = None
                readings = fits = self._stuck_readings(square)
                found = search() if fits else None
            if found is None:
                return
        if kind == "dead":
            why = why or f"the switch of {name(square)} closed under the piece the game had there: it works, the " \
                         "piece went to the other square"
        else:
            why = why or f"the switch of {name(square)} opened: it is not stuck, the piece came from the other square"
            used = set(map(id, readings))
            self._stale_stuck = [r for r in self._stale_stuck if id(r) not in used]
            self._open_readings = list(readings) + [r for r in self._open_readings if id(r) not in used]
        self._rewrite_chain(t, found, why)

    @staticmethod
    def _last_removal(split: PendingSplit | None) -> bool:
        """The opponent's first lift pending (``split``) is of a piece the mover's capture took, still standing,
        the one piece it leaves (his last removal, or the opponent lifting that piece: only what follows tells).
        A masked stuck square opening after it, read as the lift of the piece a reading taken the other way
        leaves there, begins the opponent's move (no player lifts two pieces to begin one): the captured piece
        was the mover's removal and his capture goes on, complete."""
        plan = None if split is None else split.plan
        return isinstance(plan, Explanation) and plan.legal and not plan.missing \
            and plan.standing == {split.square}

    def _their_landing(self, square: int) -> bool:
        """``square``, masked as a ``dead`` switch under the last ply's landing, one of two squares its piece
        could reach (an open reading), reads closed after the opponent lifted a piece that, the ply read the
        other way, has a legal move onto it: the closing may be his landing, not the mover's piece coming
        down late, so the switch is not taken to work (no withdrawal); the moves after it tell (chainread.py)."""
        plies = self._plies
        lifted = {c.square for c in self._seg.changes if c.up}
        if not plies or not lifted or (played := plies[-1].move) is None or played.destination != square:
            return False
        last = len(plies) - 1
        for r in self._live_readings():
            if r.ply != last or r.fault != "dead":
                continue
            for alt in r.moves:
                if alt.key == played.key or square in alt.path[1:]:
                    continue
                after = snap(plies[last].board_before)
                after.push(alt)
                if any(m.origin in lifted and square in m.path[1:] for m in self._index(snap(after)).moves):
                    return True
        return False

    def _landed_late(self, t: float, occ: frozenset[int],
                     lifted: int | None) -> tuple[Explanation, frozenset[int]] | None:
        """The turn under way shows no legal move; the last ply was read with a ``dead`` switch on one of two
        squares its piece could reach, and the turn's first closing, only the opponent's lifts before it, is the
        other square: the mover's piece still in his hand at that lift came down there (the module docstring).
        When the turn without that closing shows one legal move after the last ply re-read onto that square,
        the ply is re-read, the closing is its landing and the fault is withdrawn. The turn's move and the
        occupancy after it, or None (nothing changed)."""
        plies = self._plies
        last = len(plies) - 1
        reading = next((r for r in self._live_readings() if r.ply == last and r.fault == "dead"), None)
        seg = self._seg
        down = next((i for i, c in enumerate(seg.changes) if not c.up), None)
        if reading is None or down is None or not down:
            return None
        square = seg.changes[down].square
        played = plies[last].move
        alts = [m for m in reading.moves if m.destination == square and m.key != played.key]
        index = next((i for i, f in enumerate(self.sensor_faults) if f.square == played.destination
                      and f.kind == "dead" and f.current), None)
        if len(alts) != 1 or index is None or square in seg.occ0 \
                or seg.changes[down].t - self.sensor_faults[index].since >= self.settings.stable_s:
            return None
        alone = reading._replace(moves=tuple(alts), fault=None, beside=())
        head = Segment(seg.t0, (reading.occ0 - {played.origin}) | {square}, pieces=seg.pieces)
        for c in seg.changes[:down] + seg.changes[down + 1:]:
            self._record_change(head, c)
        masked = self._mask.squares
        found: ChainReading | None = reread_chain(
            [alone], [played], lambda k: plies[k].board_before, self._index,
            turn_shown(head, occ, masked, self._index, lifted))
        if found is None:
            return None
        self._open_readings = [alone] + [r for r in self._open_readings if r.standing]
        held, split = self._held, self._split
        self._held = self._split = None
        self._seg = head
        self._rewrite_chain(t, found, f"the piece came down on {self.variant.square_name(square)} after the "
                                      "opponent's lift (still in the hand)")
        self._held, self._split = held, split
        dead = played.destination
        self._mask.remove(dead)
        name = self.variant.square_name
        self._withdraw_fault(index, f"the piece of {found.steps[0][0].text(name=name)} came down on {name(square)} "
                                    f"after the opponent's lift: {name(dead)} was never its square")
        move = found.current.move
        after = (found.occ0 - {move.origin}).difference(move.captured) | {move.destination}
        return found.current, (occ - masked) | (after & (masked - {dead}))

    def _landed_before_press(self, at: float) -> bool:
        """With a clock, the mover presses once his piece is down (FMJD 002 art. 3.11; the press completes the
        move). The last ply, his, was read with a ``dead`` switch on one of two squares its piece could reach,
        committed when the opponent's turn began with a lift (a switch dying under the opponent's piece reads
        the same); the turn's first closing, only lifts before it and before the mover's press at ``at``, is the
        other square: his piece came down there, and his press came after it. The ply is re-read onto that
        square and the fault withdrawn, as :meth:`_landed_late` does without a clock; what is left of the turn
        is lifts only, read by what follows (a lone lift is no move: ``turn_shown`` cannot accept it). True when
        re-read."""
        plies = self._plies
        if not plies or self._held is not None or self._split is not None:
            return False
        last = len(plies) - 1
        reading = next((r for r in self._live_readings() if r.ply == last and r.fault == "dead"), None)
        seg = self._seg
        down = next((i for i, c in enumerate(seg.changes) if not c.up), None)
        if reading is None or not down or seg.changes[down].t >= at:
            return False
        square = seg.changes[down].square
        played = plies[last].move
        if played is None or square in seg.occ0 or square in self._mask.squares:
            return False
        alts = [m for m in reading.moves if m.destination == square and m.key != played.key and not m.captured]
        index = next((i for i, f in enumerate(self.sensor_faults) if f.square == played.destination
                      and f.kind == "dead" and f.current), None)
        rest = seg.changes[:down] + seg.changes[down + 1:]
        if len(alts) != 1 or index is None or any(not c.up for c in rest):
            return False
        lifts = {c.square for c in rest}
        alone = reading._replace(moves=tuple(alts), fault=None, beside=())

        def accept(board: Board, cur: frozenset[int]) -> bool | None:
            # the lifts left: the opponent's pieces, on squares the re-read leaves occupied
            side = board.turn
            return True if lifts <= cur and all(board.piece_at(s) is not None and board.piece_at(s).white == side
                                                for s in lifts) else None

        found: ChainReading | None = reread_chain([alone], [played], lambda k: plies[k].board_before, self._index,
                                                  accept)
        if found is None:
            return False
        head = Segment(seg.t0, (reading.occ0 - {played.origin}) | {square}, pieces=seg.pieces)
        for c in rest:
            self._record_change(head, c)
        self._open_readings = [alone] + [r for r in self._open_readings if r.standing]
        self._seg = head
        self._rewrite_chain(at, found, f"the piece came down on {self.variant.square_name(square)} before its "
                                       "mover's press (the opponent's lift came first)")
        dead = played.destination
        self._mask.remove(dead)
        name = self.variant.square_name
        self._withdraw_fault(index, f"the piece of {found.steps[0][0].text(name=name)} came down on {name(square)} "
                                    f"before its mover's press: {name(dead)} was never its square")
        return True
