"""Re-reading a move that a masked board left open, from the moves after it (docs/reconstruction.md, "Failing
switches").

Where a masked square (a missing diode's rectangle, a faulty switch) leaves two legal moves that explain a
turn exactly and neither the lifts nor the frame tell which (an observation), the engine reads one. The game
itself may tell later: the piece that went to the other square is played from there (8-13 read as 8-12, then
13-19 shows as 12-19, not a move), or a rectangle breaks and the square reads what stands on it. When the
board a turn shows is explained by no legal move under the reading taken but exactly by one legal move once
an earlier open reading is taken the other way (every move between them staying the same legal move), the
moves from that reading on are read again: that is what the sensors showed, not a player's irregularity. A
reading of the turn still under way (its move not yet committed: the opponent's first lift pending) is kept, and
the opponent's move then tells it the same way once the mover begins his next one (:meth:`ChainReread._split_reread`).

:func:`reread_chain` is the pure search; :class:`ChainReread` (mixed into
:class:`rig.reconstruct.faults.FaultHandling`) keeps the open readings and rewrites the record.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import product
from typing import Any, Callable, NamedTuple, Sequence

from rig.board import Board
from rig.move import Move
from rig.reconstruct.maskread import explain_masked
from rig.reconstruct.matcher import Explanation, PositionIndex, explain
from rig.reconstruct.state import SIDE, Segment, Undo, snap

__all__ = ["OpenReading", "ChainReading", "fault_square", "reread_chain", "turn_shown", "ChainReread", "REREAD_PLIES",
           "REREAD_FAULT_PLIES"]

#: how many plies back an open reading is still re-read (the moves after it are read again with it); one that
#: chose a faulty switch's square is kept longer: the piece it put on the wrong square may stand for long
REREAD_PLIES = 4
REREAD_FAULT_PLIES = 60


class OpenReading(NamedTuple):
    """A turn two legal moves explained on a masked board: its ply, the moves that fitted, the occupancy
    the turn started from (masked squares as the game then gave them)."""

    ply: int
    moves: tuple[Move, ...]
    occ0: frozenset[int]
    fault: str | None = None        # a sensor fault read with the move (``stuck-closed`` under its origin,
    #                                 ``dead`` under its destination, ``ghost``: its origin a missing diode's
    #                                 ghost, or stuck): re-reading the move moves the fault
    standing: tuple[int, ...] = ()  # not two moves: a capture read with these pieces left standing, which a
    #                                 switch stuck closed under them reads the same (stuckcapture.py)
    gone: bool = False              # ``standing`` are pieces read taken off the board, which a switch that died
    #                                 under them reads the same (stuckcapture.py)
    beside: tuple[int, ...] = ()    # the fault's square with each of ``moves`` where it is neither's origin nor
    #                                 destination (a switch stuck on an empty square beside the landing, unseen.py)
    reclosed: bool = False          # ``standing`` squares opened in the turn and read closed again (stuckempty.py
    #                                 ``_reclosed_suspect``): a landing there may have come (landedcapture.py)

    def fault_at(self, move: Move) -> int:
        """The square of the reading's faulty switch when ``move`` was played (:func:`fault_square`)."""
        assert self.fault is not None
        if self.beside:
            return self.beside[next(i for i, m in enumerate(self.moves) if m.key == move.key)]
        return fault_square(self.fault, move)


def fault_square(kind: str, move: Move) -> int:
    """The square of a faulty switch ``kind`` that ``move`` implies: a stuck switch (or a missing diode's ghost)
    hid its lift, a dead one its landing."""
    return move.origin if kind in ("stuck-closed", "ghost") else move.destination


class ChainReading(NamedTuple):
    """The moves from an open reading's ply on, read again, and the current turn's move after them."""

    first: int                                         # the first ply read again
    steps: tuple[tuple[Move, frozenset[int]], ...]     # each move and the occupancy after it
    board: Board                                       # the position after them
    occ0: frozenset[int]                               # its occupancy (the current turn's start)
    current: Any                                       # what the board shows from there (``accept``'s value)


def _after(occ: frozenset[int], move: Move) -> frozenset[int]:
    return (occ - {move.origin}).difference(move.captured) | {move.destination}


def _moved_with_fault(move: Move, swap: dict[int, int], moves: Sequence[Move]) -> Move | None:
    """``move`` was read onto (off) the square a faulty switch was read under, so its landing (lift) showed
    nothing; read again with the fault under another square (``swap``: old square to new), the one legal move
    (``moves``) of the same piece onto (off) the new square instead, capturing the same pieces. None: none or two."""
    dest, orig = swap.get(move.destination), swap.get(move.origin)
    if dest is None and orig is None:
        return None
    fits = [m for m in moves if set(m.captured) == set(move.captured) and (
        dest is not None and m.origin == move.origin and m.destination == dest
        or orig is not None and m.destination == move.destination and m.origin == orig)]
    return fits[0] if len(fits) == 1 else None


def reread_chain(readings: Sequence[OpenReading], played: Sequence[Move], board_at: Callable[[int], Board],
                 index_of: Callable[[Board], PositionIndex],
                 accept: Callable[[Board, frozenset[int]], Any]) -> ChainReading | None:
    """The one way of taking the open ``readings`` otherwise that the board now shows: ``accept(position,
    occupancy)`` gives what the board shows after the moves read that way (the current turn's move), or None
    when it contradicts them. ``played``: the moves read from the first open reading's ply on (each legal, as
    the record has them); ``board_at(ply)``: the position before that ply. Every move between keeps being the
    same legal move, or, where it was read onto (off) the square of a fault the re-read moves, the same piece's
    move onto (off) the fault's new square (:func:`_moved_with_fault`), or, the next move read onto a ``dead``
    fault's new square and no longer legal there, onto the old one; the way that changes the fewest
    readings wins (a reading nothing contradicts stays). None when no way fits, or two with as few changes
    (the sensors do not tell)."""
    if not readings:
        return None
    first = readings[0].ply
    options: list[tuple[Move, ...]] = []
    by_ply = {r.ply: r for r in readings}
    for k, move in enumerate(played):
        r = by_ply.get(first + k)
        options.append(tuple(dict.fromkeys([move, *r.moves]).keys()) if r is not None else (move,))
    found: list[tuple[int, ChainReading]] = []
    for combo in product(*options):
        changed = sum(a is not b for a, b in zip(combo, played))
        if not changed:
            continue                      # the reading taken: it is what the board contradicts
        board = snap(board_at(first))
        cur = readings[0].occ0
        steps: list[tuple[Move, frozenset[int]]] = []
        swap: dict[int, int] = {}
        back: dict[int, int] = {}         # a dead fault moved by the ply just before: new square -> old
        for k, move in enumerate(combo):
            legal = index_of(board).moves
            # a move read onto (off) a fault's old square showed nothing there (masked): that switch working,
            # the same piece went onto (came off) the new square, even where the move read stays legal
            moved = _moved_with_fault(move, swap, legal) if swap and move is played[k] else None
            if moved is None and back and move is played[k] and not any(m.key == move.key for m in legal):
                # the very next move read onto the dead fault's new square, where the re-read has the piece: that
                # switch working again under it, the same piece went onto the old square, masked then
                moved = _moved_with_fault(move, back, legal)
            back = {}
            if moved is not None:
                move = moved
            elif not any(m.key == move.key for m in legal):
                break
            r = by_ply.get(first + k)
            if r is not None and r.fault and move is not played[k]:
                old, new = r.fault_at(played[k]), r.fault_at(move)
                if old != new:
                    swap[old] = new
                    back = {new: old} if r.fault == "dead" else {}
            cur = _after(cur, move)
            steps.append((move, cur))
            board = snap(board)
            board.push(move)
            board = snap(board)
        else:
            shown = accept(board, cur)
            if shown is not None:
                found.append((changed, ChainReading(first, tuple(steps), board, cur, shown)))
    if not found:
        return None
    fewest = min(n for n, _ in found)
    best = [c for n, c in found if n == fewest]
    return best[0] if len(best) == 1 else None


def turn_shown(seg: Segment, occ: frozenset[int], masked: frozenset[int], index_of: Callable[[Board], PositionIndex],
               lifted: int | None = None, clearing: bool = False
               ) -> Callable[[Board, frozenset[int]], Explanation | None]:
    """For :func:`reread_chain`: the legal move the turn ``seg`` (the board reading ``occ``) shows exactly
    from a position, the masked squares as that position has them (either way where a move may have
    gone onto or off one unseen, :func:`explain_masked`; unsettled is no reading). ``lifted``: a piece being
    lifted, which may be one the move captured (still standing until then); ``clearing``: when it is, the
    capture's other pieces may still stand too (the capturer takes them off in any order, FMJD 002 art. 4.4)."""
    lifts = tuple(seg.lift_order)
    landings = frozenset(seg.landings)

    def accept(board: Board, cur: frozenset[int]) -> Explanation | None:
        now = (occ - masked) | (cur & masked)
        index = index_of(board)
        expl = explain(board, cur, now, landings, lifts, seg.hints, index)
        if masked and (expl is None or not (expl.legal and expl.exact)):
            expl, settled = explain_masked(board, cur, now, masked, landings, lifts, seg.hints, index, expl)
            if not settled:
                return None
        if expl is None or not expl.legal or expl.missing:
            return None
        if not expl.standing <= {lifted} and not (clearing and lifted in expl.move.captured
                                                  and expl.standing <= set(expl.move.captured)):
            return None
        return expl

    return accept


class ChainReread:
    """The engine's side of :func:`reread_chain` (see the module docstring)."""

    def _init_chainread(self) -> None:
        self._open_readings: list[OpenReading] = []
        # squares a re-read freed (their fault moved to another square): until the next commit, an occupancy
        # taken before the re-read has them as their mask had them, not as the game does
        self._freed: frozenset[int] = frozenset()
        # open readings of a stuck origin past REREAD_FAULT_PLIES: only the switch opening re-reads them
        self._stale_stuck: list[OpenReading] = []

    def _open_reading(self, alts: list[Explanation], occ0: frozenset[int], fault: str | None = None,
                      beside: tuple[int, ...] = ()) -> None:
        """The turn being read was explained by two legal moves (``alts``) that nothing told apart (``beside``:
        the fault's square with each, :class:`OpenReading`)."""
        ply = len(self._plies)
        moves = tuple(dict.fromkeys(e.move for e in alts))
        self._open_readings = [r for r in self._open_readings if r.ply < ply] + [
            OpenReading(ply, moves, occ0, fault, beside=beside if len(beside) == len(moves) else ())]

    def _live_readings(self) -> list[OpenReading]:
        """The open readings still to re-read: recent, their ply read as one of their moves, every ply from
        the first on a legal move of the record."""
        plies = self._plies
        n = len(plies)
        keep = []
        standing = []
        for r in self._open_readings:
            if r.standing or r.ply == n:
                standing.append(r)        # read by _reread_standing; or the turn under way (its move not
                continue                  # yet committed: :meth:`_split_reread`, then re-read as the others)
            if r.ply >= n or r.ply < n - (REREAD_FAULT_PLIES if r.fault else REREAD_PLIES):
                if r.fault == "stuck-closed" and r.ply < n:
                    self._stale_stuck.append(r)   # its switch opening still tells (:meth:`_stuck_readings`)
                elif r.fault == "dead" and r.ply < n and not r.standing:
                    self._stale_dead.append(r)    # a move from its other square still tells (deadmoved.py)
                continue
            if not self._reading_stands(r):
                continue
            keep.append(r)
        self._open_readings = keep + standing
        if not keep or not self._plies_sound(keep[0].ply):
            return []
        return keep

    def _reading_stands(self, r: OpenReading) -> bool:
        """The open reading's ply is still in the record, read as one of its moves."""
        ply = self._plies[r.ply]
        return not ply.withdrawn and ply.move is not None and any(ply.move.key == m.key for m in r.moves)

    def _plies_sound(self, first: int) -> bool:
        """Every ply from ``first`` on is a legal move of the record, with no set-up between (what a re-read
        of the moves from there needs)."""
        for ply in self._plies[first:]:
            if ply.withdrawn or ply.move is None or not ply.legal or ply.setup_before is not None \
                    or ply.needs_setup or ply.setup_only:
                return False
        return True

    def _stuck_readings(self, square: int) -> list[OpenReading]:
        """The open readings, recent or past REREAD_FAULT_PLIES, that read a switch stuck closed under
        ``square`` with the move they took (the first re-readable one, and the recent ones after it): a stuck
        switch never opens, so its opening tells whenever it comes (:meth:`EarlyLift._switch_works`)."""
        live = self._live_readings()
        n = len(self._plies)
        self._stale_stuck = [r for r in self._stale_stuck if r.ply < n and self._reading_stands(r)]
        fits = [r for r in self._stale_stuck + live if r.fault == "stuck-closed"
                and r.fault_at(self._plies[r.ply].move) == square]
        if not fits:
            return []
        first = min(fits, key=lambda r: r.ply)
        if not self._plies_sound(first.ply):
            return []
        return [first] + [r for r in live if r.ply > first.ply]

    def _reread_turn(self, t: float, occ: frozenset[int] | None = None, committing: bool = False,
                     lifted: int | None = None) -> tuple[Explanation, frozenset[int]] | None:
        """The current turn shows no legal move under the moves read: when taking an open reading the other
        way makes it one (:func:`reread_chain`), the moves from that reading on are read again (withdrawn
        from the record without a take-back, an observation says so) and the turn's move is returned, its
        segment now starting from the position they give, with the occupancy after it (masked squares as it
        leaves them). None otherwise (nothing changed). ``committing``: called by the commit of the turn (a
        held press or a cut segment is its own); ``lifted``: an opponent's piece being lifted, which may be
        one the move captured."""
        if not (self._open_readings or self._stale_dead) or not committing and (self._split is not None
                                                                                or self._held is not None):
            return None
        occ = self._occ if occ is None else occ
        masked = self._mask.squares
        # a faulty switch read under one of a move's candidate squares may be under another: all of them
        # are read as the moves put them
        unsure = frozenset(r.fault_at(m) for r in self._open_readings if r.fault and r.ply < len(self._plies)
                           for m in r.moves if not self._closed_since(r, r.fault_at(m)))
        late = self._landed_late(t, occ, lifted)      # earlylift.py: the mover's piece came down after that lift
        if late is not None:
            return late
        found = self._find_chain(turn_shown(self._seg, occ, masked | unsure, self._index, lifted))
        if found is None:
            other = self._reread_standing(t, occ, lifted, committing) or self._stuck_landing(t, occ, lifted) \
                or self._landed_on_cleared(t, occ) \
                or self._standing_recovered(t, occ, lifted, committing)    # landedcapture.py, recovery.py
            if other is not None or (found := self._stale_dead_chain(occ, masked | unsure, lifted)) is None:
                return other                                               # deadmoved.py
        held, split = self._held, self._split     # (``committing``: the commit under way uses them)
        self._held = self._split = None
        self._rewrite_chain(t, found, "the moves after it show which was played")
        self._held, self._split = held, split
        shown = _after(found.occ0, found.current.move)
        for square in self._freed:
            self._set_reading(square, square in shown)     # the turn's move, read again, gives its state
        return found.current, (occ - masked) | (shown & masked)

    def _closed_since(self, r: OpenReading, square: int) -> bool:
        """``square``, a square the open reading ``r`` may have read a ``dead`` switch under, is not masked and its
        switch closed after ``r``'s turn began: a dead switch never closes (one that closes under the piece the
        game puts there works again and is unmasked, faults.py ``_masked_frame``), so read that way the square
        reads as its switch says, not as the game gives it."""
        closed = self._closed_once.get(square)
        return r.fault == "dead" and square not in self._mask and closed is not None \
            and closed > self._plies[r.ply].start

    def _split_reread(self, t: float, lifted: int) -> bool:
        """The mover lifts his piece on ``lifted`` while his opponent's first lift is pending (a split: the
        mover's move not yet committed, read from a turn two moves explained, an open reading of that turn):
        the opponent's changes since that lift are a legal move exactly with the turn read the other way, and
        none with the reading taken (28x19 landing unseen on the stuck 19 after 18-23 was read for 19-23). The
        opponent's move was over (the mover begins his next one): the turn is read the other way (the fault
        moves with it), the opponent's move is committed, and the lift begins the mover's next move."""
        split = self._split
        if split is None or self._held is not None or not isinstance(split.plan, Explanation):
            return False
        plan = split.plan.move
        n = len(self._plies)
        reading = next((r for r in self._open_readings if r.ply == n and r.fault and not r.standing
                        and any(m.key == plan.key for m in r.moves)), None)
        if reading is None:
            return False
        seg = self._seg
        rest = Segment(split.t, split.occ)
        for c in seg.changes[split.index:]:
            self._record_change(rest, c)
        occ = self._occ | {lifted}
        masked = self._mask.squares | {reading.fault_at(m) for m in reading.moves}
        accept = turn_shown(rest, occ, masked, self._index)
        board = self.board

        def shown(move: Move) -> Explanation | None:
            after = snap(board)
            after.push(move)
            return accept(snap(after), _after(seg.occ0, move))

        if shown(plan) is not None:
            return False                  # the reading taken explains the opponent's move
        others = [m for m in reading.moves if m.key != plan.key and shown(m) is not None]
        if len(others) != 1:
            return False
        move = others[0]
        self._split = None
        self._open_readings = [r for r in self._open_readings if r is not reading]
        self._move_fault(t, reading.fault, reading.fault_at(plan), reading.fault_at(move))
        name = self.variant.square_name
        text = move.text(name=name)
        self._cut(split.index, split.t, Explanation(move, True, None), _after(seg.occ0, move),
                  f"read as {text}: {SIDE[not board.turn]} began his move before a clock press")
        entry = self.moves[-1]
        self._observe("illegal-move", t, (move.origin, move.destination), f"{plan.text(name=name)} re-read as {text}",
                      entry.side == "white", entry.number,
                      "a masked square left two moves possible; the move after it shows which was played")
        occ = self._occ | {lifted}
        reply = turn_shown(self._seg, occ, self._mask.squares, self._index)(self.board, self._seg.occ0)
        if reply is not None and reply.exact:
            self._commit(reply, t, f"{SIDE[not self.board.turn]} lifted {name(lifted)}: his move starts",
                         occ_after=(occ - self._mask.squares) | (_after(self._seg.occ0, reply.move)
                                                                 & self._mask.squares))
        return True

    def _reread_freed(self, t: float, occupied: frozenset[int], freed: frozenset[int]) -> bool:
        """A missing diode's rectangle broke and its squares read again: when what they read contradicts the
        game but fits it with an open reading taken the other way, the moves from that reading on are read
        again (also while the next turn is under way: its changes stay, from the position they give)."""
        if not self._open_readings or self._split is not None or self._held is not None:
            return False
        occ = self._occ
        if all((s in occupied) == (s in occ) for s in freed):
            return False

        def accept(board: Board, cur: frozenset[int]) -> bool | None:
            return None if any((s in occupied) != (s in cur) for s in freed) else True

        found = self._find_chain(accept)
        if found is None:
            return False
        self._rewrite_chain(t, found, "the squares a missing diode's rectangle freed show which was played")
        return True

    def _find_chain(self, accept) -> ChainReading | None:
        readings = self._live_readings()
        if not readings:
            return None
        plies = self._plies
        first = readings[0].ply
        return reread_chain(readings, [p.move for p in plies[first:]], lambda k: plies[k].board_before,
                            self._index, accept)

    def _rewrite_chain(self, t: float, found: ChainReading, why: str) -> None:
        """Withdraw the plies from ``found.first`` on (misreadings, not moves taken back: out of the record)
        and commit the moves ``found`` reads; the turn under way keeps its changes, from the position they
        give (masked squares as the game now has them)."""
        plies = self._plies
        first = found.first
        seg = self._seg
        entries = [self.moves[self._entry_of(p)] for p in plies[first:]]
        old_index = [self._entry_of(p) for p in plies[first:]]
        stamps = [(p.pressed, p.clock) for p in plies[first:]]     # the clock's times stay the moves'
        awaiting = self._await_time
        olds = [self._open_readings[0].occ0]
        for ply in plies[first:-1]:
            olds.append(_after(olds[-1], ply.move))
        old_plies = plies[first:]
        for k in range(len(plies) - 1, first - 1, -1):
            self._withdraw(t, Undo(k, olds[k - first], plies[k].board_before))
            plies.pop()
        readings = self._open_readings
        self._open_readings = [r for r in readings if r.standing and r.ply < first]
        self._reread_alts = None
        for r in readings:
            if r.fault and first <= r.ply and r.ply - first < len(found.steps):
                self._move_fault(t, r.fault, r.fault_at(entries[r.ply - first].move),
                                 r.fault_at(found.steps[r.ply - first][0]), ended_after=entries[r.ply - first].t)
        prev = olds[0]
        freed, self._freed = self._freed, frozenset()      # the moves read again carry the game's own occupancies
        for k, (entry, (move, after)) in enumerate(zip(entries, found.steps)):
            self._seg = Segment(entry.t, prev, pieces=self._pieces)
            self._commit(Explanation(move, True, None), entry.t, "re-read from the moves after it", occ_after=after)
            pressed, stamp = stamps[k]
            self._restamp(len(self.moves) - 1, pressed, stamp)
            if awaiting is not None and awaiting == old_index[k]:
                awaiting = len(self.moves) - 1
            prev = after
        self._set_downs_reread(t, old_plies)        # recovery.py
        for square in list(self._mask.assumed):
            self._mask_square(square, self.board.piece_at(square) is not None)
        self._freed = freed
        for square in freed:
            self._set_reading(square, square in found.occ0)
        seg.occ0 = found.occ0
        self._seg = seg
        if awaiting is not None:
            self._await_time = awaiting       # a press whose times are still to come ended a move read again
        name = self.variant.square_name
        changed = next(k for k, (m, _) in enumerate(found.steps) if m.key != entries[k].move.key)
        move = found.steps[changed][0]
        self._observe("illegal-move", t, (move.origin, move.destination),
                      f"{entries[changed].move_text} re-read as {move.text(name=name)}",
                      entries[changed].side == "white", entries[changed].number,
                      f"a masked square left two moves possible; {why}")

    def _freed_occupancy(self, move: Move, occ: frozenset[int]) -> frozenset[int]:
        """``occ``, the board after the turn being committed, with each square freed by a re-read as ``move``
        leaves it (the occupancy may have been taken before the re-read, from the square's mask); the freed
        squares read as their switches say from here on."""
        freed, self._freed = self._freed, frozenset()
        return (occ - freed) | (_after(self._seg.occ0, move) & freed)

    def _restamp(self, index: int, pressed: bool, stamp: Any) -> None:
        """The move ``index`` read again keeps the press and the clock's times of the move it replaces."""
        self._entry_plies[index].pressed = pressed
        if stamp is not None:
            self._entry_plies[index].clock = stamp
            self.moves[index] = self.moves[index].evolve(
                clock_ms=stamp.white_ms if self.moves[index].side == "white" else stamp.black_ms)

    def _move_fault(self, t: float, kind: str, old: int, new: int, ended_after: float | None = None) -> None:
        """The faulty switch read under ``old`` is under ``new`` (its move re-read): the fault and its mask move
        (the mask takes the state the game gives the square once the moves are read again). ``ended_after``: the
        re-read ply's time; a ``dead`` fault on ``old`` read as working again after it (a closing there, which the
        moves read again give to a landing) moves too, standing again: ``new``'s switch tells when it works."""
        if kind == "ghost":
            self._ghost_moved(t, old, new)        # ghostread.py
            return
        if old == new:
            return
        faults = self.sensor_faults
        index = next((i for i, f in enumerate(faults) if f.square == old and f.kind == kind and f.current), None)
        if index is None and ended_after is not None and kind == "dead":
            index = next((i for i in range(len(faults) - 1, -1, -1) if faults[i].square == old
                          and faults[i].kind == kind and not faults[i].withdrawn
                          and (until := faults[i].until) is not None and until > ended_after), None)
        name = self.variant.square_name
        works = None        # an ended fault moved onto a dead switch that closed since: it worked again then
        if index is not None and faults[index].until is not None and kind == "dead":
            works = self._closed_once.get(new)
            works = works if works is not None and ended_after is not None and works > ended_after else None
        if index is not None:
            fault = faults[index] = replace(faults[index], square=new, until=works)
            self._emit(fault)
        self._mask.remove(old)
        self._freed = self._freed | {old}
        if works is not None:
            self._note(t, f"square {name(new)}: switch {kind} (not {name(old)}: the moves after it show which), "
                          f"working again since it closed at {works:.2f} s")
            return
        self._mask_square(new, False)
        self._note(t, f"square {name(new)}: switch {kind} (not {name(old)}: the moves after it show which), "
                      "masked from now on")
