"""A faulty switch that works again (docs/reconstruction.md, "Failing switches"; issue 9).

A stuck reed often frees itself (a knock on the table, a piece put down hard) and a cold solder joint comes and
goes. A switch masked as faulty that reads again as a working switch would, under the game read, *recovered*: it
is unmasked and its fault stays in ``sensor_faults`` with its span (``until``: from then on the square reads as
its switch says). No move is re-read for it: the recovery contradicts none.

- ``dead`` (masked occupied under a piece): it closes under the piece the game has there (faults.py
  ``_masked_frame``; a late landing or an earlier ply read the other way are looked at first, earlylift.py);
- ``stuck-closed`` (masked empty): it opens. A stuck switch never opens, so where the square is one of two an open
  reading left (the piece read to have left it may stand there: 45-40 read 44-40 with 44 or 45 stuck), the opening
  may be that piece lifted (earlylift.py ``_switch_works`` re-reads the ply) or the switch freeing itself. Only
  what follows tells: the opening is taken as a lift when, with the reading taken the other way, a legal move of
  that piece captures or lands where the board changes next (a capture's removal: a landing of the turn under way
  that takes it; a lift: the next square that closes is on its path); anything else next (another piece lifted,
  a landing that piece cannot make) is the switch recovered. With no open reading, it recovered at once;
- ``stuck-closed``, the *other* square of such a reading opening (36-31 read for 37-31, 36 masked stuck; 37, read
  as white's piece, opens during black's reply): the lift of the piece the reading taken leaves there, or, read the
  other way, that square's stuck switch freeing itself. The opening is held (the square masked as the game has it)
  and the next change of another square tells: a landing (or pass, or capture) a legal move of that piece makes is
  its lift (shown, dated just before that change); anything else (black's own landing) is the switch that was stuck
  there working again: the moves are read the other way (the fault moves there; a move still pending, the
  opponent's first lift read, is taken the other way) and it recovered at the opening;
- ``stuck-closed`` under a piece a capture took (its removal unseen: read ``capture-not-removed``, an open reading
  of stuckcapture.py): the square opens later on its own, in a turn whose changes are otherwise one legal move,
  while every turn since the capture reads as one legal move with that piece removed. A piece left standing
  and taken off later, and a stuck switch freed, read the same; no player irregularity is read from what a
  switch can show: the capture is read again with the piece removed (stuckcapture.py's re-read: its
  irregularities dismissed, an observation names the square) and the switch, stuck from the capture, recovered
  at the opening. An opening after the capturer's press, before the opponent moves, reads as the board put right
  (``capture-not-removed`` corrected). A square that closes again before the turn is committed (the mover's press
  held while that piece is off, then the piece put back: a wrong removal corrected) did not free itself: the
  re-read is not made; when the opponent lifts a piece of his own less than ``touch_s`` after it
  (31 opening 25 ms before black lifts 9), no correction came before he moved by the engine's measure, and the
  frames are a stuck switch freeing as he begins: the correction is undone and the opening read with his turn, as
  above (:meth:`_freed_as_reply_begins`; certainty.py ``_recheck_correction``);
- the scanner's ``recovered`` health line (a switch it masked at the start opened) says the same;
- ``dead`` under a capture's landing, never named: without a clock, the capturing piece lifted and every captured
  piece taken off, the board stands still ``stable_s`` or longer and only then the landing square closes. No piece
  stays in the hand that long (the still board ends a move, commit.py): the piece came down unseen, on a switch
  that was dead and works again at that closing. The fault is recorded over that span (from the still board's
  end to the closing), and the removals read before the landing prove nothing: an observation, never
  ``capture-removed-early`` (the landing has no time). A closing sooner than ``stable_s`` after the board's last
  change is a landing still in the hand: an early removal stands;
- ``dead`` under a piece an open reading put on the other square: the switch working again closes under it, a
  square no legal move of the side to move reaches: the moves are read the other way at that closing
  (deadtwin.py). Where that comes later (a closing read in a turn the re-read cannot take), it is read as a piece
  set down there (``piece-moved-after-release``) before the moves are read again with the piece on that square.
  A piece cannot be set down where one stands: once read again, that irregularity is dismissed (and a turn
  committed after the re-read reads no release there, detectors.py);
- ``dead`` under the piece of a move not yet committed (the opponent's first lift read: a split) that leaves the
  square: its closing is no piece of the game's (that one left) but the opponent's landing there, on a switch that
  works again: unmasked as the move leaves it, so the closing is read as his change (27-22 played off a dead 27,
  black's 18x27 lands there).

:class:`SwitchRecovery` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from rig.board import Board
from rig.move import Move
from rig.reconstruct.chainread import OpenReading, reread_chain, turn_shown
from rig.reconstruct.matcher import Explanation, explain
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.outputs import DISMISSED, SensorFault
from rig.reconstruct.state import Ply, Segment, snap
from rig.reconstruct.stuckcapture import STANDING_ONLY, replay_without

__all__ = ["PendingOpening", "SwitchRecovery"]


class PendingOpening(NamedTuple):
    """A masked stuck-closed square that opened while an open reading names it: a lift or a recovery, told by
    the board's next change (``before``: the frame it opened in)."""

    square: int
    t: float
    before: frozenset[int]
    twin: int | None = None     # an unmasked square's opening, held: the masked stuck square of the reading taken


class SwitchRecovery:
    """The engine's side of a faulty switch that works again (module docstring)."""

    def _init_recovery(self) -> None:
        self._opening: PendingOpening | None = None
        self._raw_moved: dict[int, float] = {}     # when each masked square's reading last changed

    def _recovered(self, t: float, square: int, why: str | None) -> None:
        """``square``'s switch works again from ``t``: unmasked (a note says ``why``, when given), its standing
        fault given ``until`` (emitted again, the same ``since``)."""
        if why is not None:
            self._note(t, f"square {self.variant.square_name(square)}: {why}; no longer masked")
        self._mask.remove(square)
        self._held_squares.pop(square, None)
        for i in range(len(self.sensor_faults) - 1, -1, -1):
            f = self.sensor_faults[i]
            if f.square == square and f.current:
                fault = self.sensor_faults[i] = replace(f, until=t)
                self._emit(fault)
                break

    def _landing_recovered(self, move: Move, seg: Segment) -> str | None:
        """``move`` (a capture committed from ``seg``, every captured piece read off before its landing closed)
        landed on a dead switch that works again at that closing (module docstring): without a clock, the closing
        came after the board had stood still ``stable_s`` or longer; or the square is the one the
        ply before read taken off early and has read empty since (:meth:`_died_under_capture`). The fault is
        recorded with its span; why the landing went unseen (for the early removal's observation), else None."""
        dest = move.destination
        if not move.captured or move.origin == dest or dest in self._mask:
            return None
        final = seg.placed_at.get(dest)
        if final is None or move.origin not in seg.lifted_at \
                or not all(seg.lifted_at.get(s, final) < final for s in move.captured):
            return None
        died = self._died_under_capture(dest, seg, final, max(seg.lifted_at[s] for s in move.captured))
        name = self.variant.square_name(dest)
        if died is not None:
            since = died
            detail = "its piece read off before the last capture landed, then empty until this capture's landing " \
                     "closed after its removals: one dead switch, working again at that closing"
            why = f"{name} read its piece taken off early by the last capture and nothing since, then closed only " \
                  f"after this capture's removals (at {final:.2f} s): a switch that died under that piece and came " \
                  "back under this one reads the same; the landing was not seen"
        else:
            last = max((c.t for c in seg.changes if c.t < final), default=None)
            stable = self.settings.stable_s
            if self._clock_mode or last is None or final - last <= stable:
                return None
            since = last + stable
            detail = f"closed {final - last:.1f} s after the board stood still, the captured pieces off: the landing " \
                     "came down unseen"
            why = f"{name} closed only after the board had stood still {stable:g} s (at {final:.2f} s): its switch " \
                  "was dead and came back, the landing was not seen"
        fault = SensorFault(dest, "dead", since, detail, until=final)
        self.sensor_faults.append(fault)
        self._emit(fault)
        self._note(final, f"square {name}: switch dead under the landing, works again")
        if died is not None:
            self._dead_removal(dest, final)         # deadremoval.py: the removal read early was the switch dying
        return why

    def _died_under_capture(self, square: int, seg: Segment, final: float, removed: float) -> float | None:
        """``square``, where the capture committed from ``seg`` lands (closing at ``final``, after its removals), is
        the one piece the last ply's capture read taken off early (a standing ``capture-removed-early`` naming only
        it), read empty since and closing only that once in this turn. A switch dying under a piece reads it lifted
        at that instant, and one working again under a piece reads it set down: one dead switch over that span
        explains both early removals, two players' irregularities the sensors cannot tell from it
        (deadremoval.py). Without a clock only (with one, a real early removal followed by a slow landing on that
        square read so: portuguese soak seed 1000221). The closing must come ``removal_margin_s`` or more after this
        capture's last removal (at ``removed``): closer, a slow magnet under a working switch reads the same, this
        capture's removal is no irregularity to explain and the last one's stands (soak hard seed 11). The time
        that ply's turn began, else None."""
        plies = self._plies
        if self._clock_mode or not plies or square in seg.occ0 or final - removed < self.settings.removal_margin_s \
                or [c.t for c in seg.changes if c.square == square] != [final]:
            return None
        last = plies[-1]
        if last.move is None or square not in last.move.captured:
            return None
        for i in last.irregularities:
            irr = self.irregularities[i]
            if irr.type == "capture-removed-early" and irr.status != DISMISSED and tuple(irr.squares) == (square,):
                return last.start
        return None

    def _freed_as_reply_begins(self, c: SquareChange, square: int, seg: Segment, board: Board) -> bool:
        """``square``, a captured piece read left standing (an open reading: unchanged in the capture's turn), opened
        after the capturer's move and was read as the board put right (``seg``: that turn's changes, ``board``: the
        position before the correction); ``c``, the next change, is its owner's lift of another piece of his less
        than ``touch_s`` after that opening. A correction is made before the opponent moves; that close, no two
        deliberate acts are in order by the engine's measure, and a switch stuck under the piece freeing itself as
        he begins reads the same: read with his turn (the correction undone), where :meth:`_standing_recovered`
        settles it (module docstring)."""
        opened = seg.lifted_at.get(square)
        piece = board.piece_at(c.square)
        return c.up and c.square != square and opened is not None and 0.0 <= c.t - opened < self.settings.touch_s \
            and piece is not None and piece.white == board.turn \
            and any(r.standing and not r.gone and square in r.standing for r in self._open_readings)

    def _set_downs_reread(self, t: float, old: list[Ply]) -> None:
        """The plies ``old`` were read again (chainread.py) as the plies from the same index on: a
        ``piece-moved-after-release`` of an old ply naming only squares where, read again, a piece stood when that
        turn began was no release (a piece cannot be set down where one stands): the closing was the switch under
        that piece (a dead one working again): dismissed (module docstring)."""
        new = self._plies[len(self._plies) - len(old):]
        for before, after in zip(old, new):
            for i in before.irregularities:
                irr = self.irregularities[i]
                if irr.type != "piece-moved-after-release" or irr.status == DISMISSED or not irr.squares \
                        or any(after.board_before.piece_at(s) is None for s in irr.squares):
                    continue
                where = ", ".join(self.variant.square_name(s) for s in irr.squares)
                self._set_status(i, DISMISSED, t, f"read again, a piece stood on {where}: its switch closing under "
                                                  "it was no piece set down")

    def _landing_after_vacated(self, t: float, square: int) -> bool:
        """``square``, masked ``dead`` under the piece of the mover's move still pending (the opponent's first lift
        read, the move not yet committed: a split) that leaves it, reads closed: not that piece (it left), but
        the opponent's landing there on a switch that works again. Unmasked as the pending move leaves it, so
        the closing is read as a change of the opponent's turn (module docstring)."""
        split = self._split
        if split is None or not isinstance(split.plan, Explanation) or self._fault_kind(square) != "dead":
            return False
        move = split.plan.move
        if square == move.destination or square != move.origin and square not in move.captured:
            return False
        self._set_reading(square, False)
        self._split = split._replace(occ=split.occ - {square})     # the opponent's turn starts with it empty
        self._recovered(t, square, f"its switch closed after {move.text(name=self.variant.square_name)}, pending, "
                                   "left it: a piece landing on a switch that works again")
        return True

    def _stuck_opened(self, t: float, square: int, occupied: frozenset[int], seen_closed: bool) -> None:
        """``square``, masked as stuck closed (empty by the game), opens: recovered, a lift of the piece an open
        reading taken the other way leaves there (re-read at once when the turn under way captures it), or, to be
        told by the next change, pending (module docstring). ``seen_closed``: the switch was read closed since it
        was masked (one the scanner masks reads open from the first frame on: its ``recovered`` line tells)."""
        if not self._stuck_readings(square):
            if seen_closed:
                self._recovered(t, square, "its switch opened where the game has no piece: it works again")
            return
        if self._other_way_takes(square, frozenset(self._seg.landings), captured=True):
            self._switch_works(t, square, "stuck-closed")      # earlylift.py
            return
        self._opening = PendingOpening(square, t, occupied)

    def _twin_opened(self, t: float, occupied: frozenset[int]) -> None:
        """An unmasked square read closed opens, the other square of an open reading that named a masked switch
        stuck closed (36-31 read for 37-31, 36 stuck; 37 opens): the lift of the piece the reading taken leaves
        there, or, read the other way, that square's stuck switch freeing itself. The opening is held (masked as
        the game has it) until the next change tells (module docstring)."""
        plies = self._plies
        split = self._split
        for r in self._open_readings:
            if r.fault != "stuck-closed" or r.standing or r.ply > len(plies):
                continue
            if r.ply < len(plies):
                played = plies[r.ply].move
            else:                   # the turn under way, its move pending (the opponent's first lift read)
                played = split.plan.move if split is not None and isinstance(split.plan, Explanation) else None
            if played is None or all(m.key != played.key for m in r.moves):
                continue
            stuck = r.fault_at(played)
            if stuck not in self._mask or self._fault_kind(stuck) != "stuck-closed":
                continue
            for m in r.moves:
                square = r.fault_at(m)
                raw = self._deb.raw       # the last frame read: the square opens in this one
                if m.key == played.key or square in self._mask or square in occupied or raw is None \
                        or square not in raw or self.board.piece_at(square) is None:
                    continue
                self._mask_square(square, True)
                self._opening = PendingOpening(square, t, occupied, stuck)
                return

    def _settle_twin(self, t: float, occupied: frozenset[int]) -> None:
        """A held opening of :meth:`_twin_opened`: closed again, nothing happened; the next change of another square
        a landing (or pass) of that square's piece: it was lifted (the lift shown, dated before that change);
        anything else: the moves are read the other way (earlylift.py ``_switch_works``), the fault moves to
        that square and its switch works again from the opening."""
        pending = self._opening
        assert pending is not None and pending.twin is not None
        square = pending.square
        if square in occupied or square not in self._mask or self._fault_kind(square) is not None:
            self._opening = None
            if square in self._mask and self._fault_kind(square) is None:
                self._mask.remove(square)
            return
        masked = self._mask.squares
        on = (occupied - pending.before) - masked
        if not on and not (pending.before - occupied) - masked:
            return
        split = self._split
        if split is not None and isinstance(split.plan, Explanation) and split.square in split.plan.standing \
                and not self._piece_lands(square, on, (pending.before - occupied) - masked):
            return      # a capture's last removal or the opponent's first lift, told by this change: the next tells
        self._opening = None
        if not self._piece_lands(square, on, (pending.before - occupied) - masked) \
                and self._pending_other_way(t, pending.t, pending.twin, square):
            return
        if not self._piece_lands(square, on, (pending.before - occupied) - masked):
            name = self.variant.square_name
            self._switch_works(t, pending.twin, "stuck-closed",      # earlylift.py: read the other way
                               f"{name(square)} opened and the board went on without a move of a piece from it: its "
                               f"switch was the stuck one (it works again), the piece came from {name(square)}")
            if self._fault_kind(square) == "stuck-closed":
                self._recovered(pending.t, square, "its switch opened and the board went on without a piece "
                                                   "there: it was stuck, and works again")
                return
        if square in self._mask and self._fault_kind(square) is None:
            self._mask.remove(square)
            self._deb.reveal(t, (square,), occupied)      # the lift came first: dated just before this change
        self._twin_works(square)

    def _twin_works(self, square: int) -> None:
        """The switch under ``square`` showed its piece's lift: the stuck-closed readings that could put the fault
        there are settled the way they were read. The other square's switch opening later is no proof the other
        way (earlylift.py ``_stuck_lifted``): a stuck switch that works again opens too (was: 36-31 with 36 stuck,
        37x28 shown as a lift, then 41-36's piece lifted from 36 re-read sixteen plies with 37-31)."""
        def names(r: OpenReading) -> bool:
            return r.fault == "stuck-closed" and any(r.fault_at(m) == square for m in r.moves)
        self._open_readings = [r for r in self._open_readings if not names(r)]
        self._stale_stuck = [r for r in self._stale_stuck if not names(r)]

    def _pending_other_way(self, t: float, opened: float, stuck: int, square: int, why: str | None = None) -> bool:
        """:meth:`_settle_twin`'s reading the other way when the reading is of the move still pending (a split):
        that move is taken the other way, the fault moves to ``square`` and ends at its opening (``opened``);
        ``why``: what told (ghostsplit.py). False when the reading is of a committed ply (nothing done)."""
        split, n = self._split, len(self._plies)
        reading = next((r for r in self._open_readings if r.ply == n and r.fault in ("stuck-closed", "ghost")), None)
        if split is None or reading is None or not isinstance(split.plan, Explanation):
            return False
        plan = split.plan.move
        other = next((m for m in reading.moves if m.key != plan.key and reading.fault_at(m) == square), None)
        if other is None or reading.fault_at(plan) != stuck:
            return False
        self._open_readings = [r for r in self._open_readings if r is not reading]
        self._split = split._replace(plan=Explanation(other, True, None), occ=(split.occ - {square}) | {stuck})
        self._move_fault(t, reading.fault, stuck, square)          # chainread.py (ghostread.py ``_ghost_moved``)
        name = self.variant.square_name
        self._recovered(opened, square, "its switch opened and the board went on without a piece there: it was "
                                        "stuck, and works again")
        why = why or f"{name(square)} opened and the board went on without a move of a piece from it: its switch " \
                     "was the stuck one (it works again)"
        self._observe("illegal-move", t, (other.origin, other.destination), f"{plan.text(name=name)} re-read as "
                      f"{other.text(name=name)}", self.board.turn, self._number,
                      f"a masked square left two moves possible; {why}")
        return True

    def _piece_lands(self, square: int, on: frozenset[int], off: frozenset[int]) -> bool:
        """The piece the game has on ``square`` has a legal move (its side to move) landing on or passing a square
        of ``on``, or capturing one of ``off``, the other side's move still pending played first: that piece's lift
        came after it (12-18 no legal move before white's 37-32, a capture due; international game 12 ply 17)."""
        piece = self.board.piece_at(square)
        if piece is None or self._reply_lands_first(square, on):     # the opponent's reply's (ownlift.py)
            return False
        board: Board = snap(self.board)
        pending = self._pending_move() if piece[0] != board.turn else None
        if pending is not None and square not in pending.path + pending.captured:
            board.push(pending)
            board = snap(board)
        board.turn = piece[0]
        return any(m.origin == square and (set(m.path[1:]) & on or set(m.captured) & off)
                   for m in self._index(snap(board)).moves)

    def _pending_move(self) -> Move | None:
        """The mover's move not yet committed: the split's (the opponent's first lift read), else the legal move
        the turn under way shows exactly (a masked square's opening commits nothing; read without the engine's
        ``_explain``, whose masked reading opens readings), or None."""
        split, seg = self._split, self._seg
        if split is not None or not seg.changes or self._held is not None:
            plan = None if split is None else split.plan
            return plan.move if isinstance(plan, Explanation) and plan.legal else None
        expl = explain(self.board, seg.occ0, self._occ, frozenset(seg.landings), tuple(seg.lift_order), seg.hints,
                       self._index())
        return expl.move if expl is not None and expl.legal and expl.exact else None

    def _settle_opening(self, t: float, occupied: frozenset[int]) -> None:
        """A frame while a stuck square's opening is pending: the first change of another (unmasked) square tells
        a lift (a square the piece's legal move lands on or passes, with the reading taken the other way) from a
        recovery (anything else)."""
        pending = self._opening
        assert pending is not None
        if pending.twin is not None:
            self._settle_twin(t, occupied)
            return
        square = pending.square
        if square not in self._mask or square in occupied:
            self._opening = None          # moved by a re-read, or closed again: as before, masked
            return
        masked = self._mask.squares | {square}
        on = (occupied - pending.before) - masked
        if not on and not (pending.before - occupied) - masked:
            return
        self._opening = None
        if on and not self._turn_lands(square, on, occupied) \
                and self._other_way_takes(square, on, captured=False, shown=pending.before):
            self._switch_works(t, square, "stuck-closed")      # earlylift.py: the piece was lifted
            if square not in self._mask:
                self._deb.reveal(t, (square,), occupied)      # the lift came first: dated just before the landing
        else:
            self._recovered(pending.t, square, "its switch opened and the board went on without a piece there: it "
                                               "works again")

    def _turn_lands(self, square: int, on: frozenset[int], occupied: frozenset[int]) -> bool:
        """``square``'s opening pending, the next change ``on``: a piece of the side to move, lifted in the turn
        under way (no move pending) and still off, lands on it by a legal move, while the piece an open reading
        taken the other way leaves on ``square`` is the other side's. That landing is the turn's own move; read as
        the lift's, it would be a move out of turn with the mover's piece in the hand (no player irregularity is
        read from what a switch can show): no proof of a lift, the switch worked again (17 stuck for 17-21,
        opening after white lifted 27, 30 ms before 27-22 landed)."""
        plies, board = self._plies, self.board
        if self._split is not None or self._held is not None:
            return False
        readings = self._stuck_readings(square)
        if not readings or any(r.ply >= len(plies) or plies[r.ply].board_before.turn == board.turn
                               for r in readings):
            return False
        lifted = {c.square for c in self._seg.changes if c.up} - occupied
        return any(m.origin in lifted and set(m.path[1:]) & on for m in self._index(snap(board)).moves)

    def _other_way_takes(self, square: int, landed: frozenset[int], captured: bool,
                         shown: frozenset[int] | None = None) -> bool:
        """With the open readings naming ``square`` stuck taken the other way (a piece standing there), a legal
        move of either side lands on (or passes over) a square of ``landed``: one capturing the piece on
        ``square`` (``captured``), or one played from it. ``shown``: the frame the square opened in; the mover's
        move it shows, not yet committed (without a clock a move is committed at the opponent's first change, and
        a masked square's opening is none), is played first."""
        if not landed:
            return False
        readings = self._stuck_readings(square)
        if not readings:
            return False
        plies = self._plies
        played = [p.move for p in plies[readings[0].ply:]]
        found = reread_chain(readings, played, lambda k: plies[k].board_before, self._index,
                             lambda board, cur: True if square in cur else None)
        if found is None or found.steps[0][0].key == played[0].key:
            return False
        boards = []
        for turn in (found.board.turn, not found.board.turn):
            board: Board = snap(found.board)
            board.turn = turn
            boards.append(snap(board))
        if shown is not None:
            masked = self._mask.squares | {m.origin for r in readings for m in r.moves}   # either way's stuck
            for pending in self._index(snap(found.board)).moves:
                board = snap(found.board)
                board.push(pending)
                if board.occupied() - masked == shown - masked:
                    boards.append(snap(board))
        for board in boards:
            for m in self._index(board).moves:
                path = set(m.path[1:])
                if (square in m.captured if captured else m.origin == square) and path & landed:
                    return True
        return False

    def _standing_recovered(self, t: float, occ: frozenset[int], lifted: int | None,
                            committing: bool) -> tuple[Explanation, frozenset[int]] | None:
        """The current turn shows no legal move exactly: a piece a capture was read to leave standing (an open
        reading, ``capture-not-removed``), its square unchanged since, opened once in this turn and stayed open
        (on the board now too: a held press committed once that square closed again is a piece lifted and put
        back, a wrong removal corrected, no switch freeing),
        and with that piece removed at the capture every turn since and this one (without that opening) read as
        one legal move: its switch was stuck and recovered (module docstring). The turn's move and the occupancy
        after it (the turn read with the piece standing, if irregular, kept as an observation); None otherwise."""
        seg, plies = self._seg, self._plies
        for r in reversed([r for r in self._open_readings if r.standing and not r.gone and r.ply < len(plies)]):
            squares = frozenset(r.standing)
            opened = [c for c in seg.changes if c.square in squares]
            capture = plies[r.ply]
            move = capture.move
            if len(opened) != len(squares) or not all(c.up for c in opened) or squares & (occ | self._occ) \
                    or capture.withdrawn \
                    or move is None or not capture.legal or not squares <= set(move.captured):
                continue
            later = plies[r.ply + 1:]
            if any(p.withdrawn or p.setup_before is not None or p.setup_only for p in later):
                continue
            irregular = [self.irregularities[i] for p in plies[r.ply:] for i in p.irregularities]
            if not any(x.type == "capture-not-removed" and squares <= set(x.squares) for x in irregular) \
                    or any(x.type not in STANDING_ONLY for x in irregular):
                continue
            bounds = [p.board_before.occupied() for p in later] + [self.board.occupied()]
            if any(not squares <= s for s in bounds):
                continue
            board = snap(capture.board_before)
            board.push(move)
            masked = self._mask.squares | squares
            after_capture = (r.occ0 - {move.origin}).difference(move.captured) | {move.destination}
            replay = replay_without(snap(board), after_capture, bounds[1:], masked, self._index)
            if replay is None:
                continue
            steps, board, cur = replay
            head = Segment(seg.t0, seg.occ0, pieces=seg.pieces)
            for c in seg.changes:
                if c.square not in squares:
                    self._record_change(head, c)
            current = turn_shown(head, occ, masked, self._index, lifted)(board, cur)
            if current is None or squares & {current.move.origin, current.move.destination}:
                continue
            held, split = self._held, self._split
            self._held = self._split = None
            self._rewrite_standing(t, r, [(move, after_capture)] + steps, cur, self._explain(occ))  # stuckcapture
            if committing:
                self._held, self._split = held, split
            for c in opened:
                self._recovered(c.t, c.square, f"the switch under {self.variant.square_name(c.square)} opened on "
                                               "its own: stuck from the capture, it works again")
            masked = self._mask.squares
            after = (cur - {current.move.origin}).difference(current.move.captured) | {current.move.destination}
            return current, (occ - masked) | (after & masked)
        return None
