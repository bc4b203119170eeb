"""Ghosts of a missing diode in the engine (docs/reconstruction.md, "Failing switches"): the frame stage that
finds the diode-less square from the frames and masks its ghosts while their rectangle stands, the reading of
moves the rectangles hide, and the re-reading of a move two readings fitted once the rectangle breaks. Mixed
into :class:`rig.reconstruct.faults.FaultHandling` (it uses the engine's board, segment, mask and outputs)."""

from __future__ import annotations

from typing import NamedTuple

from rig.move import Move
from rig.reconstruct.ghosts import Wiring, ghost_squares
from rig.reconstruct.maskread import explain_masked
from rig.reconstruct.matcher import Explanation, explain
from rig.reconstruct.outputs import SensorFault
from rig.reconstruct.state import SIDE

__all__ = ["GHOST_WINDOW_S", "GhostGuess", "GhostHandling"]

#: a ghost closes with the corner that completes its rectangle: in the same frame, or a scan or two apart
#: when the two contacts bounce differently (the scanner debounces each cell on its own)
GHOST_WINDOW_S = 0.025


class GhostGuess(NamedTuple):
    """A lift read as hidden by a missing diode's ghost where a switch stuck under another origin fits too: the
    ply, when, the diode suspects before it, and the diode it named (None: still a suspect)."""

    ply: int
    t: float
    suspects: frozenset[int]
    named: int | None


class GhostHandling:
    """The engine's side of a missing diode (see the module docstring)."""

    def _init_ghosts(self) -> None:
        extra = self.header.extra
        sim = extra.get("simulator")
        #: a matrix session: ghosts of a missing diode are looked for in the frames (ghosts.py)
        self._ghost_watch = extra.get("source") == "matrix" or (isinstance(sim, dict) and bool(sim.get("matrix")))
        self._wiring: Wiring | None = None
        self._no_diode: set[int] = set()              # diode-less squares: the scanner's finding or the frames'
        self._diode_suspects: frozenset[int] = frozenset()   # the frames' candidates while two or more remain
        self._scanner_holds = False                   # the scanner holds ghost readings (its diode check)
        self._ghost_until: dict[int, float] = {}      # when a square's ghost mask was last lifted
        self._ghost_masked: set[int] = set()          # squares masked now because a sneak path may close them
        self._raw_prev: frozenset[int] = frozenset()  # the last frame as read
        self._raw_t = 0.0                             # its time
        self._reread_alts: tuple[int, list[Explanation]] | None = None   # an unsettled reading, to re-read
        self._reread_undo = None                      # its undo, kept while the opponent's move may follow
        self._refuted: set[int] = set()               # squares whose diode a settled frame shows in place
        self._ghost_guess: GhostGuess | None = None   # a lift read hidden by a ghost where a stuck switch fits too

    def _ghost_stage(self, t: float, occupied: frozenset[int]) -> None:
        """Ghosts of a missing diode (ghosts.py): a square that closes together with a corner of a rectangle
        whose other corners read closed, where the game has no piece, names the diode-less corner (once one
        candidate is left: a ``ghost`` fault); while a known (or candidate) diode-less square and two corners
        read closed, the fourth corner's reading is masked (its state is the game's)."""
        wiring = self._wiring
        if wiring is None:
            wiring = self._wiring = Wiring.standard(self.variant)
        on = occupied - self._raw_prev
        if self._raw_prev and t - self._raw_t >= GHOST_WINDOW_S:
            if not self._no_diode:
                self._refute_diodes(wiring, self._raw_prev)
            elif not self._scanner_holds:
                self._refute_named(t, wiring, self._raw_prev)
        self._raw_prev = occupied
        self._raw_t = t
        if on and not self._no_diode and self._deb.raw is not None:
            recent = [(tt, s) for tt, s in self._raw_on if t - tt <= GHOST_WINDOW_S and s in occupied]
            recent += [(t, s) for s in on]
            self._raw_on = recent
            if len(recent) > 1:
                self._ghost_search(t, occupied, on, [s for _, s in recent])
        diodes = self._no_diode | self._diode_suspects
        if not diodes and not self._ghost_masked:
            return                        # (a diode refuted: the squares masked for its ghosts are freed)
        ghosts = ghost_squares(wiring, diodes, occupied)
        masked = self._ghost_masked
        if self._reread_alts is not None and self._undo is not None and self._undo.ply == self._reread_alts[0]:
            self._reread_undo = self._undo        # kept while the opponent's move may follow it
        freed = masked - ghosts
        # the move pending read from a ghost's square (ghostsplit.py), then a committed one's, then the others
        if freed and not self._ghost_split_freed(t, occupied, freed) \
                and not self._ghost_stuck_here(t, occupied, freed) \
                and not self._reread_freed(t, occupied, freed) and self._reread_alts is not None:
            self._reread(t, occupied, freed)
        if freed:
            # what a freed square reads now stood there unseen: read before the change that broke the rectangle
            self._deb.reveal(t, (s for s in freed if self._fault_kind(s) is None and s not in self._held_squares),
                             occupied)
        for square in freed:
            masked.discard(square)
            self._ghost_until[square] = t
            if self._fault_kind(square) is None and square not in self._held_squares:
                self._mask.remove(square)
        for square in ghosts - masked:
            if square in self._mask:
                continue
            masked.add(square)
            self._mask_square(square, square in self._occ)


    def _reread(self, t: float, occupied: frozenset[int], freed: frozenset[int]) -> None:
        """A missing diode's rectangle broke and its squares read again: when the last move was read from two
        that fitted the masked board (an observation) and what the freed squares read contradicts it but fits
        the other, the last move is re-read (withdrawn from the record without a take-back, the other one
        committed), before the opponent's change in this frame is read."""
        ply, alts = self._reread_alts or (-1, [])
        undo = self._undo
        if undo is not None and undo.ply == ply + 1 and self._reread_undo is not None:
            self._reread_two(t, occupied, freed, alts, undo, self._reread_undo)
            return
        if undo is None or undo.ply != ply or self._seg.changes or self._split is not None or self._held is not None:
            if undo is None or undo.ply != ply:
                self._reread_alts = None
            return
        board = self.board

        def shows(squares_after: frozenset[int]) -> bool:
            return all((s in occupied) == (s in squares_after) for s in freed)

        now = frozenset(s for s in range(1, self.variant.squares + 1) if board.piece_at(s) is not None)
        if shows(now):
            return
        occ0 = undo.occ_before
        fitting = []
        for e in alts:
            after = (occ0 - {e.move.origin}).difference(e.move.captured) | {e.move.destination}
            if shows(after):
                fitting.append((e, after))
        if len({e.move.key for e, _ in fitting}) != 1:
            return
        expl, after = fitting[0]
        self._reread_alts = None
        entry = self.moves[-1]
        name = self.variant.square_name
        self._withdraw(t, undo)
        self._plies.pop()                 # a misreading, not a move taken back: out of the record
        self._commit(expl, entry.t, "re-read once the missing diode's rectangle broke", occ_after=after)
        self._observe("illegal-move", t, tuple(sorted(freed)), f"{entry.move_text} re-read as "
                      f"{expl.move.text(name=name)}", entry.side == "white", entry.number,
                      "a missing diode's rectangle masked both readings; the squares it freed show which")


    def _reread_two(self, t: float, occupied: frozenset[int], freed: frozenset[int], alts: list[Explanation],
                    undo, first_undo) -> None:
        """:meth:`_reread` when the opponent has moved since (a move that touches none of the squares the two
        readings differ on): both are withdrawn, the other reading and the opponent's move committed again."""
        self._reread_alts = self._reread_undo = None
        if self._seg.changes or self._split is not None or self._held is not None or len(self._plies) < 2:
            return
        last = self._plies[-1]
        q = last.move
        if q is None or not last.legal or last.setup_before is not None or last.needs_setup:
            return
        occ0 = first_undo.occ_before
        chosen = self._plies[-2].move
        if chosen is None:
            return
        chosen_after = (occ0 - {chosen.origin}).difference(chosen.captured) | {chosen.destination}

        def shows(squares_after: frozenset[int]) -> bool:
            return all((s in occupied) == (s in squares_after) for s in freed)

        def then_q(after: frozenset[int]) -> frozenset[int]:
            return (after - {q.origin}).difference(q.captured) | {q.destination}

        if shows(then_q(chosen_after)):
            return
        fitting = []
        for e in alts:
            after = (occ0 - {e.move.origin}).difference(e.move.captured) | {e.move.destination}
            touched = set(q.path) | set(q.captured)
            if not touched & (after ^ chosen_after) and shows(then_q(after)):
                fitting.append((e, after))
        if len({e.move.key for e, _ in fitting}) != 1:
            return
        expl, after = fitting[0]
        board = first_undo.board_before.copy()
        board.push(expl.move)
        reply = explain(board, after, then_q(after), frozenset(), (), None, self._index(board))
        if reply is None or not reply.legal or not reply.exact or reply.move.key != q.key:
            return
        first, second = self.moves[-2], self.moves[-1]
        name = self.variant.square_name
        self._withdraw(t, undo)
        self._plies.pop()
        self._withdraw(t, first_undo)
        self._plies.pop()                 # misreadings, not moves taken back: out of the record
        self._commit(expl, first.t, "re-read once the missing diode's rectangle broke", occ_after=after)
        self._commit(reply, second.t, "read again after the move before it was re-read", occ_after=then_q(after))
        self._observe("illegal-move", t, tuple(sorted(freed)), f"{first.move_text} re-read as "
                      f"{expl.move.text(name=name)}", first.side == "white", first.number,
                      "a missing diode's rectangle masked both readings; the squares it freed show which")


    def _refute_diodes(self, wiring: Wiring, frame: frozenset[int]) -> None:
        """A frame that stood ``GHOST_WINDOW_S`` (every cell settled): a square reading closed whose missing
        diode would close a square that reads open has its diode (a ghost never acts as a corner of its own
        culprit's rectangles, so the test is exact)."""
        refuted = self._refuted
        for x in frame:
            if x not in refuted and not ghost_squares(wiring, (x,), frame) <= frame:
                refuted.add(x)
        if self._diode_suspects & refuted:
            self._diode_suspects -= refuted


    def _refute_named(self, t: float, wiring: Wiring, frame: frozenset[int]) -> None:
        """A settled frame in which a diode-less square the frames named reads closed with two corners of a
        rectangle, yet the fourth corner reads open: the diode is there (the test of :meth:`_refute_diodes`,
        exact), so the squares it was read from were something else (a switch stuck closed under the origin it
        explained). The ``ghost`` fault is withdrawn and its ghosts are no longer masked (the next frame frees
        them). A ghost-masked origin that still reads closed after its piece left (:meth:`_ghost_origin`) has no
        ghost left to explain it: its own switch is stuck closed, and it is named so (the same evidence, one
        explanation fewer) rather than freed to read a piece that left."""
        refuted: float | None = None            # since when the withdrawn ghost stood
        for x in [x for x in self._no_diode if x in frame and not ghost_squares(wiring, (x,), frame) <= frame]:
            self._no_diode.discard(x)
            self._refuted.add(x)
            name = self.variant.square_name(x)
            for i, f in enumerate(self.sensor_faults):
                if f.square == x and f.kind == "ghost" and not f.withdrawn:
                    refuted = f.since
                    self._withdraw_fault(i, f"a rectangle of {name} stood while its fourth corner read open: its "
                                            "diode is in place")
        if refuted is None or self._no_diode:
            return
        for square in sorted(s for s in self._ghost_masked if s in self._stayed_closed and s in frame
                             and self.board.piece_at(s) is None and self._fault_kind(s) is None):
            self._ghost_masked.discard(square)
            self._ghost_guess = None
            # the move read from it stays one of two: its reading now reads a stuck switch there, which the
            # switch opening (the other square's piece still on it) re-reads (earlylift.py ``_switch_works``)
            self._open_readings = [r._replace(fault="stuck-closed") if r.fault == "ghost" and r.ply < len(self._plies)
                                   and r.fault_at(self._plies[r.ply].move) == square else r
                                   for r in self._open_readings]
            self._fault(square, "stuck-closed", refuted, f"{self.variant.square_name(square)} kept reading closed "
                                                         "after its piece left, and no missing diode explains it",
                        False)

    def _ghost_search(self, t: float, occupied: frozenset[int], on: frozenset[int], recent: list[int]) -> None:
        """Squares that closed within ``GHOST_WINDOW_S`` of each other (a hand puts down one piece at a time):
        the diode-less squares X whose ghosts explain every one of them that was empty but one (the piece put
        down) and leave one that really closed (the corner that completed the rectangle)."""
        wiring = self._wiring
        assert wiring is not None
        board = self.board
        new = frozenset(s for s in recent if s not in self._occ)     # empty, or a piece lifted this turn
        if not new:
            return
        scored: dict[int, int] = {}
        for x in occupied - self._refuted:
            ghosts = ghost_squares(wiring, (x,), occupied)
            ghosts = ghost_squares(wiring, (x,), occupied - (ghosts & new))
            if not ghosts <= occupied:
                continue            # X would close other squares too, and they read open
            ghosts &= new
            rest = new - ghosts
            if not ghosts or len(rest) > 1 or not set(recent) - ghosts:
                continue
            if x in new and rest != {x} or x not in new and board.piece_at(x) is None and x not in self._occ:
                continue
            scored[x] = len(ghosts)
        if not scored:
            return
        top = max(scored.values())
        found = frozenset(x for x, n in scored.items() if n == top)
        suspects = self._diode_suspects
        both = suspects & found
        self._diode_suspects = suspects = both if both else suspects | found
        if len(suspects) == 1:
            (x,) = suspects
            self._diode_suspects = frozenset()
            self._no_diode.add(x)
            name = self.variant.square_name(x)
            self._sensor_fault(x, "ghost", t, f"squares the game says are empty read occupied exactly while "
                                              f"{name} and two corners of a matrix rectangle with it do: "
                                              f"{name}'s diode is missing (or shorted)")
            self._note(t, f"square {name}: missing diode, its ghosts masked from now on (check its diode)")


    def _hidden_reply(self, c, occ_before: frozenset[int]) -> bool:
        """Without a clock, the mover lifts another piece (or the one he played, released ``release_s`` ago; or
        puts one down on an empty square, its lift from a masked square unseen) while the board shows his move
        exactly, and his opponent has a legal reply
        between squares a missing diode's rectangles mask (its lift and landing unseen): that reply was
        played. Both moves are committed, ``c`` begins the mover's next move (a landing: one that a legal
        move from a masked square after the reply explains); two such replies are an observation. (Else it
        would read as two moves in one turn, which the sensors do not prove.)"""
        seg = self._seg
        if not self._ghost_masked or self._clock_mode or not seg.changes or self._split is not None:
            return False
        masked = self._mask.squares
        if c.up and c.square not in seg.placed_at:
            plan = self._explain(occ_before)
            if plan is None or c.square == plan.move.destination:
                return False
        else:
            # a landing, or the piece played lifted again once released: only after a move the board showed
            # (its squares unmasked, read as they stand: no reading of the masked squares is opened here)
            if c.up and c.t - seg.placed_at[c.square] < self.settings.release_s:
                return False
            plan = explain(self.board, seg.occ0, occ_before, frozenset(seg.landings), tuple(seg.lift_order),
                           seg.hints, self._index())
            if plan is None or {plan.move.origin, plan.move.destination} & masked or (
                    c.up and c.square != plan.move.destination):
                return False
        if not plan.legal or not plan.exact:
            return False
        after = self._physical_after(plan, occ_before)
        occ0 = self._mask.filter(occ_before)
        index = self._index(after)
        if not any({m.origin, m.destination} | set(m.captured) <= masked for m in index.moves):
            return False
        reply, settled = explain_masked(after, occ0, occ0, masked, frozenset(), (), None, index, None,
                                        lambda e: self._fits_frame(e, occ0))
        if reply is None or not reply.legal or not reply.exact:
            return False
        if not c.up:
            board = after.copy()
            board.push(reply.move)
            if not any(m.destination == c.square and m.origin in masked and not m.captured
                       for m in self._index(board).moves):
                return False
        name = self.variant.square_name
        mover = SIDE[not after.turn]
        self._commit_plan(plan, c.t, f"{mover} lifted {name(c.square)} after his move" if c.up else
                          f"{mover} put a piece down on {name(c.square)} after his move", occ_before)
        self._commit_plan(reply, c.t, "a reply unseen under a missing diode's rectangle", occ0)
        if c.square == plan.move.destination:
            # the same frames as the piece moved on after its release (FPD 4.6), which the sensors cannot tell
            self._observe("piece-moved-after-release", c.t, (c.square,),
                          f"{plan.move.text(name=name)} then {reply.move.text(name=name)} read, the piece on "
                          f"{name(c.square)} lifted again for the next move", not after.turn,
                          self._number - 1,
                          "the reply ran between squares a missing diode's rectangle masks: the same frames show "
                          "the piece moved on after its release with no reply")
        if not settled:
            self._observe("illegal-move", c.t, (reply.move.origin, reply.move.destination),
                          f"read as {reply.move.text(name=name)}", after.turn, self._number - (0 if after.turn else 1),
                          "a missing diode's rectangle hid the reply; two legal replies fit the board")
        return True


    def _fits_frame(self, expl: Explanation, occ0: frozenset[int] | None = None) -> bool:
        """The last frame is what the matrix reads with the pieces where ``expl`` puts them: each ghost of a
        diode-less square reads closed (or, when the scanner holds them, may read anything), every other
        square as its piece; a square masked for a stuck or dead switch is left out."""
        start = self._seg.occ0 if occ0 is None else occ0
        real = (start - {expl.move.origin}).difference(expl.move.captured) | {expl.move.destination}
        wiring = self._wiring
        assert wiring is not None
        ghosts = ghost_squares(wiring, self._no_diode | self._diode_suspects, real)
        frame = self._raw_prev
        faulty = frozenset(s for s in self._mask.squares if self._fault_kind(s) is not None)
        if self._scanner_holds:
            return not ((frame ^ real) - ghosts - faulty)
        return not ((frame ^ (real | ghosts)) - faulty)


    def _ghost_origin(self, found: list[tuple[Move, int, str]], occ: frozenset[int],
                      lifted: int | None) -> Explanation | None:
        """Frames alone: a move whose origin still reads closed, where that origin is a ghost of a square X
        whose missing diode would close it now (X, a corner in X's row and one in X's column read closed)
        and close nothing that reads open: the lift was hidden by the ghost, not a stuck switch. X joins the
        diode-less candidates (named once one is left), the origin is masked, and the move is read. Not X the
        opponent's piece just ``lifted``: that frame reads the origin closed with X open, which no ghost of X does
        (17 read a ghost of 25 as white lifted 25 for 25x14; international game 1 ply 35, 17 stuck)."""
        wiring = self._wiring
        if wiring is None:
            return None
        seg = self._seg
        best: tuple[Move, int, frozenset[int]] | None = None
        for move, square, kind in found:
            if kind != "stuck-closed":
                continue
            xs = frozenset(x for x in occ - self._refuted if x != square and x != lifted
                           and square in (g := ghost_squares(wiring, (x,), occ)) and g <= occ)
            if xs and (best is None or len(xs) < len(best[2])):
                best = (move, square, xs)
        if best is None:
            return None
        move, square, xs = best
        expl = explain(self.board, seg.occ0, occ - {square}, frozenset(seg.landings), tuple(seg.lift_order),
                       seg.hints, self._index())
        if expl is None or not expl.legal or not expl.exact or lifted is not None and (
                lifted in expl.standing or lifted in expl.move.captured):
            return None
        suspects = self._diode_suspects
        both = suspects & xs
        self._diode_suspects = both if both else suspects | xs
        t = seg.last_change if seg.last_change is not None else seg.t0
        others = [m for m, sq, k in found if k == "stuck-closed" and sq != square]
        if others:
            # a switch stuck under another origin reads the same: the moves after it may show it (chainread.py)
            self._ghost_guess = GhostGuess(len(self._plies), t, suspects, None)
            self._open_reading([Explanation(m, True, None) for m in (move, *others)], seg.occ0, fault="ghost")
        self._note(t, f"square {self.variant.square_name(square)} still reads closed after its piece left: a "
                      "missing diode's ghost (its rectangle reads closed), masked while it stands")
        self._ghost_masked.add(square)
        self._stayed_closed.add(square)
        self._mask_square(square, False)
        if len(self._diode_suspects) == 1:
            (x,) = self._diode_suspects
            self._diode_suspects = frozenset()
            self._no_diode.add(x)
            if others:
                self._ghost_guess = self._ghost_guess._replace(named=x)
            name = self.variant.square_name(x)
            self._sensor_fault(x, "ghost", t, f"a square a piece left kept reading closed while {name} and two "
                                              f"corners of a matrix rectangle with it did: {name}'s diode is "
                                              "missing (or shorted)")
        return expl


    def _ghost_moved(self, t: float, old: int, new: int) -> None:
        """A move read with its origin ``old`` a ghost (:meth:`_ghost_origin`) is re-read from ``new``, whose
        switch stuck closed (chainread.py): the ghost's mask and the diode it suspected are dropped (the ghost
        fault it named becomes the stuck switch), and ``new`` is masked."""
        guess = self._ghost_guess
        if old == new or guess is None:
            return
        self._ghost_masked.discard(old)
        self._mask.remove(old)
        name = self.variant.square_name
        self._ghost_to_stuck(guess, new, f"a piece came to a square with nothing lifted: only {name(new)} explains "
                                         f"it (the moves after it show it, not a missing diode's ghost on "
                                         f"{name(old)}), and its switch did not open")

    def _ghost_stuck_here(self, t: float, occupied: frozenset[int], freed: frozenset[int]) -> bool:
        """A missing diode's rectangle broke, and the origin a move was read from as that diode's ghost, a switch
        stuck under another origin fitting too (:meth:`_ghost_origin`), still reads closed where the game has no
        piece, every other freed square reading as the game has it. No ghost explains it; that origin's own switch
        stuck closed does, as well as the other reading (40-34 read with 40 a ghost of 22; 39-34 with 39 stuck):
        while the other origin still reads closed, the sensors cannot tell them (where it opened since, the move
        read would make that a lift, the other reading a stuck switch freeing itself: it is re-read, chainread.py
        ``_reread_freed``). The move stays as read and its reading open, the fault ``stuck-closed`` (the
        switch of either square opening later tells, recovery.py); the diode's suspicion goes as in
        :meth:`_ghost_moved`, and an observation names both squares."""
        guess = self._ghost_guess
        if guess is None or guess.ply >= len(self._plies):
            return False
        move = self._plies[guess.ply].move
        reading = next((r for r in self._open_readings if r.ply == guess.ply and r.fault == "ghost"), None)
        if reading is None or move is None or not self._reading_stands(reading):
            return False
        square = move.origin
        others = [m.origin for m in reading.moves if m.origin != square]
        if square not in freed or square not in occupied or self.board.piece_at(square) is not None \
                or any((s in occupied) != (s in self._occ) for s in freed - {square}) \
                or not all(s in occupied for s in others):
            return False          # (another origin opened since: a lift the kept reading needs, its stuck switch not)
        self._open_readings = [r._replace(fault="stuck-closed") if r is reading else r for r in self._open_readings]
        self._ghost_masked.discard(square)
        name = self.variant.square_name
        both = ", ".join(name(s) for s in sorted((square, *others)))
        self._ghost_to_stuck(guess, square, f"{name(square)} kept reading closed after its piece left once the "
                                            "rectangle that could close it broke: a switch stuck closed under any "
                                            f"of {both} explains it")
        entry = self.moves[self._entry_of(self._plies[guess.ply])]
        self._observe("illegal-move", t, tuple(sorted((square, *others))), f"read as {entry.move_text}",
                      entry.side == "white", entry.number, f"a switch stuck closed under any of {both} explains the "
                      f"landing on {name(move.destination)}; the sensors cannot tell which")
        return True

    def _ghost_to_stuck(self, guess: GhostGuess, new: int, detail: str) -> None:
        """The ghost read for ``guess`` was ``new``'s switch stuck closed: the diode suspects before it are
        restored, the ghost fault it named becomes the stuck switch, and ``new`` is masked (empty)."""
        self._ghost_guess = None
        self._diode_suspects = guess.suspects
        for i, f in enumerate(self.sensor_faults):
            if f.kind == "ghost" and f.square == guess.named:
                self._no_diode.discard(f.square)
                fault = self.sensor_faults[i] = SensorFault(new, "stuck-closed", guess.t, detail)
                self._emit(fault)
                self._mask_square(new, False)
                break
        else:
            self._fault(new, "stuck-closed", guess.t, detail, False)

    def _unseen_landings(self) -> frozenset[int]:
        """The squares a missing diode's rectangle masked during the turn: a landing there has no time
        (:func:`rig.reconstruct.detectors.early_removal_unseen`)."""
        t0 = self._seg.t0
        if not self._ghost_masked and not self._ghost_until:
            return frozenset()
        return frozenset(self._ghost_masked) | frozenset(s for s, until in self._ghost_until.items() if until >= t0)
