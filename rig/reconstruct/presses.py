"""Clock presses: the clock's events as commit points of the mover's move.

The mover's press ends his move: the segment is committed at the press; a press that arrives late (its
``clock_t`` earlier than the line) is dated back; a press while the opponent holds a piece he just
lifted is *held* until what follows tells whether that lift began his move; a press without a move on
the board is ``clock-without-move``, and a move of the side not to move after it is committed for him
(FPD 000 art. 7.5b; CODEX 004 art. 42.A). A flag fall goes to the arbiter (CODEX 004 art. 29, 57.C; FPD
000 art. 5.4), both flags fallen is a draw (CODEX 004 art. 59.A, 60.A); the times shown stamp the record.
The arbiter's time corrections are shown at once; a clock driver's next reading carries them and wins
(docs/clock.md, "The arbiter's time corrections").
Mixed into :class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from dataclasses import replace

from rig.pdn import ClockStamp, result_text
from rig.reconstruct import detectors
from rig.reconstruct.faults import WaitingPress, one_square_off
from rig.reconstruct.matcher import Explanation, explain
from rig.reconstruct.outputs import (
    ClockUpdate,
    MoveEntry,
)
from rig.reconstruct.state import LOST, OVER, SETUP, SIDE, HeldPress, Ply, Segment, TwoMoves, Undo, snap
from rig.session import ClockEvent

__all__ = ["ClockPresses", "CLOCK_DRIVERS"]

#: the clock drivers whose readings carry an arbiter's correction once it is set (``source`` of their lines,
#: docs/clock.md): a clock read over USB (``dgt``, ``line``) or the rig's own GPIO clock model (``gpio``)
CLOCK_DRIVERS = ("dgt", "line", "gpio")


class ClockPresses:
    """Reads the clock's presses, times and flag falls into commits and clock stamps."""

    # -- clock -------------------------------------------------------------------------------

    def _clock(self, ev: ClockEvent) -> None:
        ev = self._corrected(ev)
        t = ev.t
        if self._undo_wait is not None:
            if ev.event == "press" and self._undo_press_wait(ev):
                return
            if not any(isinstance(d, WaitingPress) for d in self._deferred):
                self._settle_undo_wait(t, now=True)     # the board as it stands at the press (none waiting)
        if self.settings.use_clock is None and not self._clock_mode:
            self._clock_mode = True
        if ev.event == "press":
            self._press(ev)
        elif ev.event == "time":
            self._times = (ev.white_ms, ev.black_ms)
            held = self._held
            if held is not None and held.times is None and ev.t == held.event.t:
                self._held = replace(held, times=(ev.white_ms, ev.black_ms))
            elif self._await_time is not None and self._await_time < len(self.moves):
                self._stamp(self._await_time, ev.white_ms, ev.black_ms)
                self._await_time = None
            self._emit(ClockUpdate(t, ev.white_ms, ev.black_ms, self._running))
        elif ev.event == "flag":
            white = ev.side == "white"
            self.tracker.flag(white)
            if self._phase is OVER:
                self._note(t, f"{ev.side}'s flag fell after the end of the game")
                return
            outcome = self.tracker.flag_outcome()
            if outcome == "draw":
                self._end(t, result_text(self.variant, "draw"), "both flags fell (CODEX art. 59.A, 60.A)")
            elif outcome is not None and len(self.tracker.flags) == 1:
                self._end(t, result_text(self.variant, outcome),
                          f"{ev.side}'s flag fell (CODEX art. 29, 57.C; FPD 5.4): the arbiter confirms "
                          "whether the opponent could still win")
        elif ev.event in ("pause", "resume"):
            self._running = None if ev.event == "pause" else self._running
            self._note(t, f"clock {ev.event}")
        else:
            self._note(t, f"clock {ev.event}: a gap in the clock record, not an irregularity")

    def _undo_press_wait(self, ev: ClockEvent) -> bool:
        """A press less than ``touch_s`` after the closing that put the board back as it was before the last
        move: a neighbour phantom on the square that move left may be what closed it, the real landing still to
        come under a slow magnet (as :meth:`_landing_wait`). Looked at again ``magnet_s`` later, once: a
        take-back the board still shows then is read as before, with the press; a press known only after the
        fact never waits. True when it waits."""
        wait = self._undo_wait
        if wait is None or id(ev) in self._waited or ev.extra or ev.t - wait[0] >= self.settings.touch_s:
            return False
        self._wait(ev)
        return True

    def _corrected(self, ev: ClockEvent) -> ClockEvent:
        """The clock's reading with the arbiter's corrections not yet in it. A clock driver's reading (its
        lines' ``source``: ``dgt``, ``line`` over USB, set by the arbiter's hand; ``gpio``, the rig's own
        time model, set by the rig) carries the correction from its next reading on, and wins. A line with
        no source (a session written by hand or by another program) gets the corrections added, from the
        action on."""
        if ev.white_ms is None or ev.black_ms is None or self._time_offset == (0, 0):
            return ev
        if ev.extra.get("source") in CLOCK_DRIVERS:
            self._time_offset = (0, 0)
            return ev
        dw, db = self._time_offset
        return replace(ev, white_ms=max(0, ev.white_ms + dw), black_ms=max(0, ev.black_ms + db))

    def _press(self, ev: ClockEvent) -> None:
        t = ev.t
        white = ev.side == "white"
        self._running = SIDE[not white]
        if self._phase is SETUP:
            self._check_setup(t)
            if self._phase is SETUP:
                occ = self._occ
                if self._setup_flagged is None:
                    self._flag_setup(occ, True, t)
                self._note(t, f"{ev.side} pressed the clock before the board was set up")
                return
        if self._phase in (LOST, OVER) or self._clock_mode is False and self.settings.use_clock is False:
            self._note(t, f"{ev.side} pressed the clock ({self._phase}): ignored")
            return
        at, after = self._press_time(ev)
        n = len(self.moves)
        split = self._split
        if white != self.board.turn and split is not None and (not after or at >= split.t):
            self._resolve_split()       # the opponent pressed: the piece he lifted began his move
        seg = self._seg
        if white != self.board.turn or after and at < seg.t0:
            # the press ends a move of his that was read before it came (his opponent began)
            last = self._last_standing(ev.side, at if after else None)
            if last is not None and last == self._last_standing() and not self._entry_plies[last].pressed \
                    and self._landed_before_press(at):      # earlylift.py: his piece came down on the other square
                last = self._last_standing(ev.side, at if after else None)
            if last is not None and (after or last == self._last_standing()) and not self._entry_plies[last].pressed \
                    and (after or not self._shows_move_of(white)):
                entry = self.moves[last]
                self._note(t, f"{ev.side}'s press ends {entry.number}. {entry.move_text}, read when his "
                              "opponent began")
                if at < entry.t:
                    self.moves[last] = entry.evolve(t=at)
                self._pressed(last, ev)
                return
            if after or not seg.changes or self._occ == seg.occ0:
                self._note(t, f"{ev.side} pressed the clock after his move was read")
                return
            last = seg.changes[-1]
            if (last.up or at - last.t < self.settings.touch_s) \
                    and (self._air_wait(ev, white) or not after and self._landing_wait(ev)):
                return      # his landing may still come under a slow magnet, even behind a move the board shows
            self._other_side_commit(t, white)
        elif split is not None and at < split.t:
            # pressed before the opponent's first lift: the move stood as it was then
            self._held = HeldPress(ev, at, split.occ, split.index)
            self._resolve_split()
            return
        elif split is not None:
            self._held = HeldPress(ev, at, self._occ, len(seg.changes))
            self._note(t, f"{ev.side} pressed the clock while {SIDE[not white]}'s piece "
                          f"{self.variant.square_name(split.square)} is off the board: what follows tells "
                          "whether it began his move")
            return
        elif self._occ == seg.occ0 and not (self._mask.assumed and self._masked_move_unseen(self._occ)):
            if after:
                self._note(t, f"{ev.side}'s press matches no move on the board: no clock-without-move is read "
                              "from a press that came late")
                return
            self._record((detectors.clock_without_move(self._context(t, white)),))
            return
        else:
            if not after and self._open_readings and self._standing_magnet_wait(ev):
                return
            plan = self._plan(self._occ, faults=False)
            occ_after = None
            if plan is None:
                if not after and self._magnet_wait(ev):
                    return
                # the press ends the move: a landing on a captured piece's square read standing (stuckcapture.py)
                plan, occ_after = self._standing_landed(at) or (self._fault_plan(self._occ, None), None)
                if plan is None and self._ending and id(ev) in self._waited:
                    plan = self._last_press_plan(at, white)
            elif not after and (self._landing_wait(ev) or self._destination_wait(ev, plan)):
                return
            if plan is not None:
                self._commit_plan(plan, at, f"{ev.side} pressed the clock", occ_after)
            elif after:
                self._note(t, f"{ev.side}'s press came late and the board shows no move of his: left to what "
                              "follows")
                return
            else:
                self._other_side_commit(t, not white, fallback_for=white)
        if len(self.moves) > n:
            self._pressed(len(self.moves) - 1, ev)

    def _standing_magnet_wait(self, ev: ClockEvent) -> bool:
        """A press that finds no legal move on the board while a capture's pieces are read left standing: the
        turn read as over would be read again with them removed and a switch stuck closed under the landing
        (stuckempty.py ``_stuck_landing``, stuckcapture.py), and a move one square short of a legal one reads
        the same until a slow magnet closes its landing. Waits ``magnet_s`` first (:meth:`_magnet_wait`), as a
        new faulty switch does; True when it waits."""
        if id(ev) in self._waited or not any(r.standing for r in self._open_readings):
            return False
        own = self._explain(self._occ)
        return (own is None or not (own.legal and own.exact)) and self._magnet_wait(ev)

    def _last_press_plan(self, t: float, white: bool) -> Explanation | None:
        """The input ends on the mover's press (looked at again ``magnet_s`` later), his move one square short of
        a legal move: its landing never closed (or its origin never opened). A switch dead under the landing reads
        so, and so does a slow magnet the recording stopped before; nothing after it can tell which, so no
        switch is named (:meth:`_fault_plan` names one only where the game goes on). The press completes the move
        (FPD 000 art. 6.2a): the move is read and an observation says what the sensors did not see; where two
        moves fit, the lowest square is read and the observation names both. The explanation, or None."""
        seg = self._seg
        changed = {c.square for c in seg.changes}
        quiet = frozenset(range(1, self.variant.squares + 1)) - changed - self._mask.squares
        index = self._index()
        found = sorted(one_square_off(index, seg.occ0, self._occ, quiet), key=lambda f: f[1])
        if not found:
            return None
        move, square, kind = found[0]
        expl = explain(self.board, seg.occ0, self._occ ^ {square}, frozenset(seg.landings), tuple(seg.lift_order),
                       seg.hints, index)
        if expl is None or not expl.legal or not expl.exact:
            return None
        name = self.variant.square_name
        squares = tuple(sorted({f[1] for f in found}))
        where = " or ".join(name(s) for s in squares)
        what = "closed" if kind == "dead" else "opened"
        self._observe("illegal-move", t, squares, f"read as {self.board.move_text(expl.move, index.moves)}", white,
                      self._number, f"the session ends on {SIDE[white]}'s press with {where} never {what}: a "
                                    "faulty switch or a slow magnet the recording stopped before; the sensors "
                                    "cannot tell which" + (", nor which square" if len(squares) > 1 else ""))
        return expl

    def _destination_wait(self, ev: ClockEvent, plan) -> bool:
        """A press that finds the board showing a move whose destination closed less than ``touch_s`` before
        it, a square leaving since (a neighbour phantom beside a sliding king, then the slide leaving a square
        it crossed): the real landing, under a slow magnet, may still come. Looked at again ``magnet_s``
        later, once (as :meth:`_landing_wait` when the closing is the last change); True when it waits. A board
        read as two moves waits on the second's destination: the slide's crossed square and the phantom beside it
        read as a step there and a step on (23-28, 28-33 for 23-46)."""
        if isinstance(plan, TwoMoves):
            plan = plan.second
        if id(ev) in self._waited or not isinstance(plan, Explanation):
            return False
        at = self._seg.placed_at.get(plan.move.destination)
        if at is None or ev.t - at >= self.settings.touch_s:
            return False
        self._wait(ev)
        return True

    def _press_time(self, ev: ClockEvent) -> tuple[float, bool]:
        """When the press was made (``clock_t`` of a line that arrived late: replayed after a reconnection,
        docs/clock.md), and whether it is known only after the fact (replayed, inferred from the lever of
        a DGT clock, or later than the debounce window: until then the engine has decided nothing the
        press could have changed); a late arrival is noted in the timeline."""
        extra = ev.extra
        if not extra:
            return ev.t, False
        at = extra.get("clock_t")
        at = ev.t if not isinstance(at, (int, float)) else min(float(at), ev.t)
        flags = [k for k in ("replayed", "inferred") if extra.get(k)]
        after = bool(flags) or at < ev.t - self.settings.bounce_s
        if after:
            when = f"made at {at:.3f}, {ev.t - at:.3f} s before it arrived" if at < ev.t else "time unknown"
            self._note(ev.t, f"{ev.side}'s press came after the fact ({', '.join(flags) or 'late'}; {when})")
        return at, after

    def _last_standing(self, side: str | None = None, at: float | None = None) -> int | None:
        """The index in ``moves`` of the last move (of ``side``) that stands (not withdrawn); with ``at``,
        the last whose turn had begun by then (the move a press made at ``at`` ended)."""
        plies = self._entry_plies
        for i in range(len(plies) - 1, -1, -1):
            ply = plies[i]
            if not ply.withdrawn and (side is None or self.moves[i].side == side) and (at is None or ply.start <= at):
                return i
        return None

    def _entry_of(self, ply: Ply) -> int:
        plies = self._entry_plies
        return next(i for i in range(len(plies) - 1, -1, -1) if plies[i] is ply)

    def _shows_move_of(self, white: bool) -> bool:
        """The turn's board shows exactly a legal move of ``white`` (the side not to move)."""
        seg = self._seg
        if not seg.changes or self._occ == seg.occ0:
            return False
        other = snap(self.board)
        other.turn = white
        expl = explain(other, seg.occ0, self._occ, frozenset(seg.landings), tuple(seg.lift_order),
                       index=self._index(other))
        return expl is not None and expl.legal and expl.exact

    def _pressed(self, index: int, ev: ClockEvent, times: tuple[int, int] | None = None) -> None:
        """The mover's press ended move ``index``: the clock times with the press (or the time line that
        follows it) are that move's."""
        self._entry_plies[index].pressed = True
        if times is None and ev.white_ms is not None and ev.black_ms is not None:
            times = (ev.white_ms, ev.black_ms)
        if times is not None:
            self._stamp(index, *times)
            self._await_time = None
        else:
            self._await_time = index

    def _stamp(self, index: int, white_ms: int | None, black_ms: int | None) -> None:
        entry = self.moves[index]
        ms = white_ms if entry.side == "white" else black_ms
        self.moves[index] = entry.evolve(clock_ms=ms)
        self._entry_plies[index].clock = ClockStamp(white_ms, black_ms, entry.side == "black")

    def _commit_held(self, reason: str) -> None:
        """The held press stands as it was made: the mover's move is what the board showed at the press
        (the opponent's piece he had lifted was taken off by the mover); later changes are the opponent's."""
        held = self._held
        assert held is not None
        plan = self._plan(held.occ)
        if plan is None:
            if self._split is not None:
                self._resolve_split()
            else:
                self._held = None         # nothing left to stamp: the press stands as a note
                self._note(held.event.t, f"{held.event.side}'s press matches no move on the board")
            return
        self._split = None
        self._cut(held.index, held.at, plan, held.occ, reason)

    def _other_side_commit(self, t: float, white: bool, fallback_for: bool | None = None) -> None:
        """The board shows a move of the side NOT to move: a second move in one turn (CODEX 42.A), or
        the reply after the mover pressed without moving (FPD 7.5b)."""
        seg = self._seg
        other = snap(self.board)
        other.turn = not other.turn
        expl = explain(other, seg.occ0, self._occ, frozenset(seg.landings),
                       tuple(seg.lift_order), index=self._index(other))
        if expl is not None and (expl.legal or fallback_for is not None):
            passed = self._passes(t, SIDE[other.turn])
            self._commit(expl, t, "a move of the side not to move", other_side=True, pass_accepted=passed)
            return
        reread = self._reread_turn(t) if (self._open_readings or self._stale_dead) else None
        if reread is not None:
            self._commit(reread[0], t, "read after an earlier open reading was re-read", occ_after=reread[1])
            return
        occ = self._occ
        squares = occ ^ seg.occ0
        if len(squares) >= self.settings.lost_squares:
            self._lose(t, occ)
            return
        mover = self.board.turn
        text = "?(" + " ".join(("+" if s in occ else "-") + self.variant.square_name(s) for s in sorted(squares)) + ")"
        after = self._assign(occ)
        idx, = self._record((detectors.unexplained_change(self._context(t, mover), squares),))
        from_irregular = self._accept_open(mover, t)
        entry = MoveEntry(self._number, SIDE[mover], text, t, None, None, False, self._fen(after))
        if not mover:
            self._number += 1
        comment = f"{SIDE[mover]} {text}: illegal-move"
        if from_irregular:
            comment = f"{comment}; {self._irregular_position(from_irregular)}"
        ply = Ply(snap(self.board), None, False, self._fen(after), None, False, None, comment, [idx],
                   start=seg.t0, text=text)
        self._plies.append(ply)
        self.moves.append(entry)
        self._entry_plies.append(ply)
        self._emit(entry)
        self._undo = Undo(len(self._plies) - 1, seg.occ0, snap(self.board))
        self.tracker.set_position(self._fen(after))
        self.board = after
        self._seg = Segment(t, occ, pieces=self._pieces)
        if self._mask.assumed:
            self._mask_sync()
        self._counters(t)
