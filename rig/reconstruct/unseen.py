"""Replies a failing switch hid (docs/reconstruction.md, "Failing switches").

- A reply from a masked square shows no lift: the opponent's first change after the board showed the mover's
  move begins his turn (:meth:`UnseenReplies._masked_reply`).
- Without a clock, a switch that sticks closed under the piece the opponent then plays shows no lift either:
  the board shows the mover's move, a square closing where the opponent can land (a capture's landings one
  after the other), then the mover lifting again (or the capture's first removal). No player plays a piece
  from nowhere, so a legal reply onto that square whose origin never opened names the stuck switch
  (:func:`stuck_origin_replies`, :meth:`UnseenReplies._stuck_reply`). The lift that shows the reply over is a
  piece of the mover's (his next move, or a piece the reply captures): the opponent lifting one of his own is
  his move under way, no reply over (a square closing on its own, then his lift, is a switch stuck on an empty
  square). A piece read taken off earlier (an
  open ``gone`` reading: its switch may have died under it) that can make the reply is tried first: it explains
  the lift the stuck reading leaves unexplained (stuckcapture.py re-reads it at the reply's turn).
- Without a clock, a switch that dies under the square the opponent's piece goes to shows the lift and no
  landing; the mover lifting again shows the reply was over (:meth:`UnseenReplies._dead_landing`).
- Without a clock, a switch dead under the mover's landing that the reply captures at once shows neither: the
  still board reads as the mover's move one square short and a legal reply taking the piece on that square
  (:meth:`UnseenReplies._dead_landing_taken`); a capture's landing there with any legal reply after it, the same.
- Lifts read out of the game's order (a switch dying under a piece during the other side's move) are
  interleave.py's.

The fault is a ``sensor_faults`` item (masked from then on), never a player's irregularity; where two squares
fit, the lowest is read, an observation says so, and the moves after it may show the other (chainread.py).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from rig.board import Board
from rig.move import Move
from rig.reconstruct.chainread import reread_chain
from rig.reconstruct.matcher import Explanation, PositionIndex, explain
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.state import SIDE, PendingSplit

__all__ = ["stuck_origin_replies", "on_path", "moved_from", "UnseenReplies"]


def stuck_origin_replies(after: Board, index: PositionIndex, occ_after: frozenset[int], occ: frozenset[int],
                         moved: Iterable[int], lifted: int | None = None) -> list[Move]:
    """The legal replies of the side to move of ``after`` (the board reading ``occ_after``) that leave the board
    reading ``occ`` when their origin's switch stays closed: every square as the reply leaves it but the
    origin, which still reads occupied and did not change in the turn (``moved``: the squares that did).
    ``lifted``: a piece the reply captures, the first taken off; the others it captures may still stand (their
    removal under way, FMJD 002 art. 3.11)."""
    moved = frozenset(moved)
    out = []
    for m in index.moves:
        if m.origin in moved or m.origin not in occ:
            continue
        result = (occ_after - {m.origin}).difference(m.captured) | {m.destination}
        if result | {m.origin} == occ or lifted in m.captured and result | {m.origin} | (
                frozenset(m.captured) - {lifted}) == occ:
            out.append(m)
    return out


def moved_from(index: Callable[[Board], PositionIndex], variant: Any, squares: Iterable[int], c: SquareChange,
               found: set[int]) -> Callable[[Board, frozenset[int]], bool | None]:
    """A re-read's test (:func:`rig.reconstruct.chainread.reread_chain`): on ``board``, some legal move from one of
    ``squares`` (occupied in ``cur``) fits the change ``c`` (a removal it captures, or a square on its path: the
    piece's lift unseen under a dead switch); its origin is added to ``found``."""
    origins = frozenset(squares)

    def accept(board: Board, cur: frozenset[int]) -> bool | None:
        for m in index(board).moves:
            if m.origin in origins and m.origin in cur and (
                    c.square in m.captured if c.up else on_path(variant, m, c.square)):
                found.add(m.origin)
                return True
        return None
    return accept


def on_path(variant: Any, move: Move, square: int) -> bool:
    """``square`` is a landing of ``move`` or a square its piece passes over on the way (a king slides along
    the diagonal before it jumps; FMJD 002 art. 3.9)."""
    path = move.path
    if square in path[1:]:
        return True
    fx, rx = variant.coords(square)
    for a, b in zip(path, path[1:]):
        (fa, ra), (fb, rb) = variant.coords(a), variant.coords(b)
        df, dr = fb - fa, rb - ra
        if abs(df) == abs(dr) and df and abs(fx - fa) == abs(rx - ra) and (fx - fa) * df > 0 \
                and (rx - ra) * dr > 0 and abs(fx - fa) < abs(df):
            return True
    return False


class UnseenReplies:
    """The engine's side of :func:`stuck_origin_replies` (see the module docstring)."""

    def _stuck_reply(self, c, occ_before: frozenset[int]) -> bool:
        """Without a clock, the mover lifts a piece (``c``) while the board shows his move plus the landing of
        a reply of his opponent whose origin never opened (``c`` may be a piece the reply captures): his move
        is committed, the origin is a ``stuck-closed`` sensor fault (masked from now on), and the opponent's
        turn is read from the landing on (``c`` is of it). A capture's reply shows its landings one by one (a5xc3xa1:
        c3 set down and lifted, then a1; :meth:`_reply_hops`) and may be clearing its pieces (``c`` the first of
        them, the others standing): the turn is cut at its first landing. The mover's capture cleared, his last
        removal read as a possible reply (``_split``), is no reply; its square closing again, the turn's last
        change, may be the reply's landing (29x20 clearing 24, then 15x24 from a stuck 15 taking the piece on 20
        as it is lifted), which a captured piece put back reads the same but for the lift. Where two origins fit,
        the lowest is read and an observation says so (the moves after it may show the other: chainread.py).
        Where a piece read taken off (:meth:`_gone_suspect`) reaches the landing, the mover's move is committed
        and no origin is named: the landing's turn re-reads that piece as standing (stuckcapture.py)."""
        seg = self._seg
        split = self._split
        if self._clock_mode or self._held is not None or not seg.changes or self._diode_trouble() \
                or split is not None and (not self._split_took_capture() or split.square in occ_before
                                          and split.square != seg.changes[-1].square):
            return False                  # (a piece the mover's capture took, lifted and kept off: his removal;
            #                               its square closing last may be the reply's landing on it)
        # the landing is the turn's last change, on its own: at least ``touch_s`` after the mover's changes
        # and before ``c`` (a neighbour phantom or a piece still in the mover's hand is not one); two squares
        # newly occupied (the mover's landing and the reply's), or the landing on a square occupied when the
        # turn began (the one the mover left): one move alone shows neither
        changes = seg.changes
        x = changes[-1].square
        touch = self.settings.touch_s
        if changes[-1].up or x == c.square or c.t - changes[-1].t < touch or len(changes) < 2 \
                or changes[-1].t - changes[-2].t < touch:
            return False
        occ0 = seg.occ0
        if x not in occ0 and len(occ_before - occ0) < 2:
            return False
        last = {ch.square: ch.t for ch in changes}
        own = self._explain(occ_before)
        if own is not None and own.legal and own.exact:
            return False                  # the landing is the mover's own move
        placed = [x]
        mover = self.board.turn
        moved = frozenset(last)
        found = []
        gone = None
        first = self._reply_hops(x)
        hops = frozenset(ch.square for ch in changes[first:])
        for x in placed:
            occ_plan = occ_before - {x}
            plan = self._explain(occ_plan)
            if plan is None or not plan.legal or not plan.exact or x == plan.move.destination:
                continue
            after = self._physical_after(plan, occ_plan)
            lifted_piece = after.piece_at(c.square)
            if lifted_piece is None or lifted_piece[0] != mover:
                continue                  # the lift is the opponent's own piece: no reply of his is over
            index = self._index(after)
            if any(m.origin == c.square and m.destination == x for m in index.moves):
                continue                  # the piece lifted can land there: the piece played (a switch stuck on x)
            if self._gone_reaches(after, x):
                # a piece read taken off (its switch may have died under it) reaches x: its move, read when the
                # landing's turn is (stuckcapture.py), before any origin is taken for a stuck switch
                gone = (plan, occ_plan)
                break
            for target in {occ_before, occ_before - {c.square}}:
                replies = [m for m in stuck_origin_replies(after, index, occ_plan, target, moved - hops,
                                                           None if target == occ_before else c.square)
                           if m.destination == x and (target == occ_before or c.square in m.captured)
                           and m.origin != c.square     # (a switch that opens now is not stuck)
                           and hops <= set(m.path[1:])]
                found.extend((plan, occ_plan, m) for m in replies)
        if gone is None and (not found or len({(p.move.key, o) for p, o, _ in found}) != 1
                             or any(r.origin in self._mask for _, _, r in found)):
            return False
        if gone is not None:
            plan, occ_plan = gone
            reply = None
        else:
            found.sort(key=lambda f: f[2].origin)
            plan, occ_plan, reply = found[0]
        name = self.variant.square_name
        mover = self.board.turn
        self._split = None
        # the reply's changes from its first landing (a capture's landings before its last: a5xc3xa1 set down on
        # c3, then a1) begin the opponent's turn: none is the mover's (a landing on the square his capture cleared
        # is no piece put back)
        t_x = changes[first].t
        self._cut(first, t_x, plan, occ_plan, f"{'black' if mover else 'white'} landed on "
                                              f"{name(changes[first].square)}")
        if reply is not None:
            self._stuck_origin_fault(reply, list(dict.fromkeys(r for _, _, r in found)), t_x)
        return True

    def _stuck_origin_fault(self, reply: Move, replies: list[Move], t_x: float) -> None:
        """:meth:`_stuck_reply`'s fault: the origin of ``reply`` is ``stuck-closed``; where ``replies`` are two or
        more, the lowest is read, an observation says so and the moves after it may show the other."""
        name = self.variant.square_name
        x, origin = reply.destination, reply.origin
        self._fault(origin, "stuck-closed", t_x, f"{name(origin)} never opened, yet only the piece there reaches "
                                                 f"{name(x)}: its switch is stuck closed", True)
        if len(replies) > 1:
            # the stuck switch is under one of the origins; the sensors cannot tell which yet: the lowest is
            # read, an observation says so, and the moves after it may show the other (chainread.py)
            self._open_reading([Explanation(r, True, None) for r in replies], self._seg.occ0, fault="stuck-closed")
            self._observe("illegal-move", t_x, tuple(sorted(r.origin for r in replies)),
                          f"read as {reply.text(name=name)}", self.board.turn, self._number,
                          "a switch stuck closed under any of " + ", ".join(name(r.origin) for r in replies)
                          + f" explains the landing on {name(x)}; the sensors cannot tell which")

    def _reply_hops(self, x: int) -> int:
        """The index of the first change of a reply landing last on ``x``: the turn's last changes, a landing
        lifted again ``touch_s`` or more after it was set down (a capture's hop: FMJD 002 art. 3.9) before
        it, back to the mover's last change; each clear of the one before by ``touch_s``."""
        changes = self._seg.changes
        touch = self.settings.touch_s
        first = len(changes) - 1
        while first >= 3 and changes[first - 1].up and changes[first - 1].square == changes[first - 2].square \
                and not changes[first - 2].up and changes[first - 2].square != x \
                and changes[first].t - changes[first - 1].t >= touch \
                and changes[first - 1].t - changes[first - 2].t >= touch \
                and changes[first - 2].t - changes[first - 3].t >= touch and changes[first - 2].square not in \
                self._seg.occ0:
            first -= 2
        return first

    def _stuck_on_empty(self, occ: frozenset[int], lifted: int | None) -> Explanation | None:
        """The mover's move is over and no move explains the board, but one legal move explains every square but
        one that closed during the turn on its own, where the game has no piece, off the move's path, and has
        stayed closed ``touch_s`` or more (a neighbour phantom lasts less; no player puts a piece down from
        nowhere): its switch stuck closed (masked from now on, empty). A square that closed so before the turn
        began (:meth:`_closed_before_turn`) is taken before any that closed in it: no landing comes before its
        lift. The move's explanation, or None."""
        seg = self._seg
        if self._diode_trouble() or not seg.changes:
            return None                   # a missing diode's ghosts close empty squares too (ghostread.py)
        board = self.board
        touch = self.settings.touch_s
        found = []
        for x in occ - seg.occ0 - self._mask.squares:
            changes = [c for c in seg.changes if c.square == x]
            if board.piece_at(x) is not None or len(changes) != 1 or self._now - changes[0].t < touch:
                continue
            expl = self._explain(occ - {x})
            if expl is None or not expl.legal or not expl.exact or on_path(self.variant, expl.move, x) \
                    or x == expl.move.origin:
                continue
            found.append((x, expl, changes[0].t))
        early = self._closed_before_turn(occ)
        if early is not None:
            found = [early]               # the other squares' readings land the piece before it was lifted
        if not found:
            return None
        # two squares closed, either the landing: the piece lands last (a hand puts it down, then presses), the
        # switch that stuck first; an observation says the sensors cannot prove which
        found.sort(key=lambda f: f[2])
        x, expl, t_x = found[0]
        if lifted is not None and (lifted in expl.standing or lifted in expl.move.captured):
            return None
        name = self.variant.square_name
        self._fault(x, "stuck-closed", t_x, f"{name(x)} closed with no piece to come there and stayed closed, the "
                                            f"rest of the board {expl.move.text(name=name)}: its switch is stuck "
                                            "closed", False)
        if len(found) > 1:
            self._observe("illegal-move", t_x, tuple(sorted(f[0] for f in found)),
                          f"read as {expl.move.text(name=name)}", board.turn, self._number,
                          "a switch stuck closed on any of " + ", ".join(name(f[0]) for f in found) + " explains "
                          f"the board; the one that closed first ({name(x)}) is taken for the switch, the last for "
                          "the landing")
            # the moves after it may show the other (chainread.py): the fault goes with the move
            self._open_reading([f[1] for f in found], seg.occ0, fault="stuck-closed",
                               beside=tuple(f[0] for f in found))
        return expl

    def _closed_before_turn(self, occ: frozenset[int]) -> tuple[int, Explanation, float] | None:
        """The one square reading occupied (``occ``) where the game has no piece that closed before the turn
        began (with or after the move before it was read) and did not change in it, such that one legal move,
        exact, explains every other square and does not pass over it: (square, the move, when it closed). A piece
        lands after it is lifted (FMJD 002 art. 3.5), so that square is no landing of the turn's move (31-27 for
        31-26 with 27 closed before 31 was lifted): its switch is the one stuck, whatever else closed in the turn.
        None unless exactly one such square."""
        seg = self._seg
        changed = {c.square for c in seg.changes}
        board = self.board
        found = []
        for x in occ - changed - self._mask.squares:
            if board.piece_at(x) is not None:
                continue
            expl = self._explain(occ - {x})
            if expl is None or not expl.legal or not expl.exact or on_path(self.variant, expl.move, x):
                continue
            found.append((x, expl, self._closed_once.get(x, seg.t0)))
        return found[0] if len(found) == 1 else None

    def _diode_trouble(self) -> bool:
        """A missing diode is known or suspected: its ghosts, and the readings a scanner holds for them, can
        show a square closing or staying open that no switch fault explains (ghostread.py reads those)."""
        return bool(self._no_diode or self._diode_suspects or self._held_squares or self._ghost_masked)

    def _reply_kept_off(self, c) -> tuple[PendingSplit, Explanation, frozenset[int]] | None:
        """Without a clock, the opponent's first lift pending after the mover's move (``_split``), that move read
        legal and exact, no diode trouble, and the mover's lift ``c`` at least ``touch_s`` after the opponent's:
        the pending split, the mover's move and the occupancy before ``c`` (the common ground of the readings of a
        piece the opponent kept off: here, closedfirst.py, splitreply.py); None otherwise."""
        split = self._split
        if self._clock_mode or split is None or self._held is not None or not isinstance(split.plan, Explanation) \
                or self._diode_trouble():
            return None
        plan = split.plan
        if not (plan.legal and plan.exact) or c.t - split.t < self.settings.touch_s:
            return None
        return split, plan, self._occ | {c.square}

    def _dead_landing(self, c) -> bool:
        """Without a clock, the opponent lifted a piece after the mover's move (``_split``), it stayed off, and
        the mover now lifts one of his own (``c``): the opponent's piece was played onto a square whose switch
        is dead (no player keeps a piece in hand while his opponent moves on). The mover's move, the dead
        switch (masked from now on) and the opponent's move are read; ``c`` begins the mover's next move.
        Where the piece could have gone to two squares, the lowest is read and an observation says so (the
        moves after it may show the other: chainread.py)."""
        kept = self._reply_kept_off(c)
        if kept is None:
            return False
        split, plan, occ = kept
        if occ != split.occ - {split.square}:
            return False
        after = self._physical_after(plan, split.occ)
        mask = self._mask
        moves = [m for m in self._index(after).moves if m.origin == split.square and not m.captured
                 and m.destination not in occ]
        if not moves or any(m.destination in mask for m in moves):
            return False                  # (a masked square: its reading is the game's, _split_to_masked)
        moves.sort(key=lambda m: m.destination)
        move = moves[0]
        name = self.variant.square_name
        mover = self.board.turn
        self._split = None
        self._cut(split.index, split.t, plan, split.occ, f"{'black' if mover else 'white'} lifted "
                                                        f"{name(split.square)}: his move starts")
        if self._open_readings and (reread := self._reread_standing(c.t, occ, None, False, True)) is not None:
            # a captured piece read standing, its switch stuck: the piece went there (stuckcapture.py)
            self._commit(reread[0], c.t, f"{SIDE[mover]} lifted {name(c.square)} after the reply", occ_after=reread[1])
            return True
        dest = move.destination
        self._fault(dest, "dead", split.t, f"{name(split.square)} was lifted and put down nowhere the switches "
                                           f"see; the next move began: only {name(dest)} explains it, and its "
                                           "switch did not close", True)
        if len(moves) > 1:
            self._open_reading([Explanation(m, True, None) for m in moves], self._seg.occ0, fault="dead")
            self._observe("illegal-move", split.t, tuple(m.destination for m in moves),
                          f"read as {move.text(name=name)}", not mover, self._number,
                          "a dead switch under any of " + ", ".join(name(m.destination) for m in moves)
                          + f" explains where {name(split.square)} went; the sensors cannot tell which")
        self._commit(Explanation(move, True, None), c.t, f"{'white' if mover else 'black'} lifted "
                                                         f"{name(c.square)} after the reply")
        return True

    def _dead_landing_taken(self, t: float, occ: frozenset[int]) -> bool:
        """Without a clock, the board stays still (at ``t``, reading ``occ``) and no move explains the turn, but
        its changes read in order as the mover's legal move one square short, its destination never changing in
        the turn, then a legal reply, exact, that captures the piece on that square: a switch dead under it
        shows neither the landing nor the removal (19x30 over 24 onto a dead 30, then 35x24 over 30). No
        player leaves a piece in the air while his opponent captures it: the square is ``dead`` (masked), both
        moves are read. The same where the mover's move is a capture (its removals seen, so it was over) and the
        reply, begun ``touch_s`` or more after them, leaves the piece there (a5xc3 over b4 onto a dead c3, then
        e7-d6): no player keeps the capturing piece in his hand while his opponent moves on; masked occupied.
        Only where one reading fits; True when committed."""
        seg = self._seg
        if self._clock_mode or self._held is not None or self._split is not None or self._diode_trouble() \
                or len(seg.changes) < 3:
            return False
        changes = seg.changes
        quiet = frozenset(range(1, self.variant.squares + 1)) - {c.square for c in changes} - self._mask.squares
        index = self._index()
        found = []
        shown = set(seg.occ0)
        for k, head_last in enumerate(changes[:-1]):
            (shown.discard if head_last.up else shown.add)(head_last.square)
            for move in index.moves:
                x = move.destination
                if x not in quiet or x in shown or move.origin == x \
                        or (seg.occ0 - {move.origin}).difference(move.captured) | {x} != shown | {x}:
                    continue
                before = frozenset(shown | {x})
                first = self._explain(before)
                if first is None or not first.legal or not first.exact or first.move.key != move.key:
                    continue
                after = self._physical_after(first, before)
                second = explain(after, before, occ, index=self._index(after))
                if second is not None and second.legal and second.exact and x in second.move.captured:
                    found.append((k, x, first, second, before))
                elif first.move.captured and changes[k + 1].t - head_last.t >= self.settings.touch_s:
                    # a capture's landing: the reply leaves the piece there (a5xc3 onto a dead c3, then e7-d6)
                    second = explain(after, before, occ | {x}, index=self._index(after))
                    if second is not None and second.legal and second.exact and x not in second.move.path:
                        found.append((k, x, first, second, before))
        if len({(f[1], f[2].move.key, f[3].move.key) for f in found}) != 1:
            return False
        k, x, first, second, before = found[-1]
        name = self.variant.square_name
        mover = self.board.turn
        taken = x in second.move.captured
        self._fault(x, "dead", changes[k].t, f"{name(first.move.origin)} left and nothing came down; the reply "
                                             f"{second.move.text(name=name)} "
                                             + (f"takes the piece on {name(x)}: its switch showed neither the landing "
                                                "nor the removal" if taken else
                                                f"followed: the piece is on {name(x)}, whose switch did not close"),
                    not taken)
        self._cut(k + 1, changes[k].t, first, before, f"{SIDE[mover]} moved {first.move.text(name=name)} onto "
                                                       f"{name(x)}, unseen")
        self._commit(second, t, f"{SIDE[not mover]} " + (f"took the piece on {name(x)}" if taken else "replied"),
                     occ_after=occ if taken else occ | {x})
        return True

    def _masked_reply(self, c, occ: frozenset[int]) -> bool:
        """The opponent's move from a masked square shows no lift: his first change is a capture's removal
        or his landing. When the board showed the mover's move exactly just before ``c`` and ``c`` fits a
        move of the opponent from a masked square, the mover's move is committed as it stood and ``c`` begins
        the opponent's turn. Not within ``touch_s`` of the mover's last change: a king sliding over the
        squares of its path shows them closed for a moment, and the piece is still in his hand."""
        prev = occ ^ {c.square}
        seg = self._seg
        if prev == seg.occ0 or seg.changes and c.t - seg.changes[-1].t < self.settings.touch_s:
            return False
        own = explain(self.board, seg.occ0, occ, frozenset(seg.landings), tuple(seg.lift_order), seg.hints,
                      self._index())
        if own is not None and own.legal and own.exact:
            return False                  # ``c`` completes a move of the mover, read with every square as it is
        plan = self._explain(prev)
        if plan is None or not plan.exact:
            return False
        after = self._physical_after(plan, prev)
        for m in self._index(after).moves if plan.legal else ():
            if m.origin in self._mask and after.piece_at(m.origin) is not None and (
                    c.square in m.captured if c.up else on_path(self.variant, m, c.square)):
                self._split = PendingSplit(len(self._seg.changes), c.t, plan, prev, m.origin)
                self._resolve_split()
                return True
        origin = self._open_dead_origin(plan, c)
        if origin is not None:
            self._split = PendingSplit(len(self._seg.changes), c.t, plan, prev, origin)
            self._resolve_split()
            return True
        return False

    def _open_dead_origin(self, plan: Explanation, c) -> int | None:
        """An earlier ply read with a ``dead`` switch on one of two squares its piece could reach (an open
        reading): taken the other way (chainread.py, every move between staying legal), the piece stands on the
        other square, masked then, and ``c`` fits a move of it (a capture's removal, or a square on its path):
        its lift is unseen too, so ``c`` may begin the opponent's turn. The square, or None."""
        readings = [r for r in self._live_readings() if r.fault == "dead"]
        if not readings:
            return self._stale_dead_origin(plan, c) if self._stale_dead else None     # deadmoved.py
        plies = self._plies
        squares = {r.fault_at(m) for r in readings for m in r.moves}
        first = self._live_readings()[0].ply
        n = len(plies)
        found: set[int] = set()
        accept = moved_from(self._index, self.variant, squares, c, found)
        chain = reread_chain(self._live_readings(), [p.move for p in plies[first:]] + [plan.move],
                             lambda k: plies[k].board_before if k < n else self.board, self._index, accept)
        return next(iter(found)) if chain is not None and len(found) == 1 else None

    def _stuck_capture_shown(self) -> bool:
        """The board is back as it was before the last move, but the turn shows the landing on the square that
        move left *before* the lift of the square it went to: no hand puts a piece down before lifting it, so
        this is no take-back but the opponent's capture onto that square taking the piece, from a square whose
        switch stayed closed (stuck; the press or the next lift reads it, :meth:`_fault_plan`)."""
        undo = self._undo
        if undo is None or self._diode_trouble():
            return False
        move = self._plies[undo.ply].move
        if move is None or move.captured:
            return False
        placed = lifted = None
        changed = set()
        for ch in self._seg.changes:
            changed.add(ch.square)
            if ch.square == move.origin and not ch.up and placed is None:
                placed = ch.t
            elif ch.square == move.destination and ch.up and lifted is None:
                lifted = ch.t
        if placed is None or lifted is None or placed >= lifted:
            return False
        return any(m.destination == move.origin and m.captured == (move.destination,) and m.origin in self._occ
                   and (m.origin not in changed or self._reclosed(m.origin, settled=False))
                   for m in self._index().moves)
