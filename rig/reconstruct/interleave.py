"""Moves interleaved in one turn without a clock (docs/reconstruction.md, "Failing switches").

Without a clock the mover's move is committed at his opponent's first lift or on a still board. A switch that
dies under a piece reads that piece lifted at once, and so does a player who picks a piece up early (no rule
forbids either), so the lift can come before the move it belongs to: the reply's piece read off before the
mover's move is over, or a piece of the mover (one that stood before his move, or the one it just put down)
read off after his move and still off while the reply is played. No move then explains the turn. The changes
are read in the order the game allows: the mover's move, the reply, and the mover's lifts still off begin his
next move (with its landing, and the reply's piece it takes, when that move is over too: the opponent's lift
then begins the reply to it). Both moves must be legal and exact; no player irregularity comes of it. A dead
switch shows once a piece stands on its square again: the next move reads it.

:class:`InterleavedTurns` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from rig.board import Board
from rig.reconstruct.matcher import Explanation, explain
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.state import SIDE, Segment, snap

__all__ = ["InterleavedTurns"]


class InterleavedTurns:
    """The engine's side of a turn whose lifts came out of the game's order (see the module docstring)."""

    def _interleaved(self, t: float, occ: frozenset[int]) -> bool:
        """Without a clock, no move explains the turn at ``occ`` (the mover begins his next move at ``t``, or
        the board stays still), yet it shows the mover's move and a legal reply once one kind of lift is set
        apart: the reply's piece read off its square before the mover's move was over, or a piece of the mover
        read off after his move (one that stood before it, or the one it just put down) and still off. A switch
        that died under the piece then reads the lift (or a player picked the piece up early; no rule forbids
        either). The changes are read in the order the game
        allows: the mover's move, the reply, and the mover's lifts still off begin his next move. No player
        irregularity comes of it; True when both moves are committed. (A dead switch shows once a piece stands
        there again: the next move reads it.)"""
        seg = self._seg
        if self._clock_mode or self._held is not None or self._diode_trouble():
            return False
        board, mover = self.board, self.board.turn

        def owner(square: int) -> bool | None:
            piece = board.piece_at(square) if square in seg.occ0 else None
            return None if piece is None else piece[0]

        changes = seg.changes
        for k in range(len(changes)):
            head, tail = changes[:k + 1], changes[k + 1:]
            seen = Counter(x.square for x in head)
            for early in [None, *(x for x in head if x.up and owner(x.square) is (not mover) and seen[x.square] == 1)]:
                shown = set(seg.occ0)
                for x in head:
                    if x is not early:
                        (shown.discard if x.up else shown.add)(x.square)
                # the mover's pieces read off after his move and still off: one that stood there before it,
                # or the piece his move just put down (its switch dying under it, or lifted again)
                own = {x.square for x in tail if x.up and x.square in shown and x.square not in occ
                       and (owner(x.square) is mover or x.square not in seg.occ0)}
                if early is None and not own:
                    continue
                first = self._explain(frozenset(shown))
                if first is None or not first.legal or not first.exact \
                        or early is not None and early.square in first.move.captured:
                    continue
                # with an early lift, the mover's pieces off may be the ones the reply took (ownlift.py)
                for kept in [own, set()] if early is not None and own else [own]:
                    if kept & set(first.move.captured) or kept - seg.occ0 - {first.move.destination}:
                        continue          # (a square the move did not put his piece on is not his)
                    after = self._physical_after(first, frozenset(shown))
                    for landed, caps in [(None, frozenset()), *self._own_landings(tail, kept, seg.occ0)]:
                        now = occ | kept | caps if landed is None else (occ | kept | caps) - {landed}
                        second = explain(after, frozenset(shown), now, index=self._index(after))
                        if second is None or not second.legal or not second.exact \
                                or early is not None and second.move.origin != early.square \
                                or landed is not None and not self._lands_next(after, second, kept, landed, caps):
                            continue
                        self._commit_interleaved(first, second, [x for x in head if x is not early], early, tail,
                                                 kept, occ, landed, caps)
                        return True
        return False

    def _three_moves(self, occ: frozenset[int]) -> bool:
        """Without a clock, the opponent lifts a piece while the turn (at ``occ``) shows no move: read as
        :meth:`_interleaved` with the mover's next move over too (his piece read off during the reply, then
        its landing), the lift then begins the opponent's reply to it."""
        expl = self._explain(occ)
        if expl is not None and expl.legal and expl.exact:
            return False
        return self._interleaved(self._now, occ)

    @staticmethod
    def _own_landings(tail: list[SquareChange], kept: set[int],
                      occ0: frozenset[int] = frozenset()) -> list[tuple[int, frozenset[int]]]:
        """The landing of the mover's next move (its lift read off early, during the reply), tried last: a square
        that closed in ``tail`` after his first lift of ``kept`` and stayed closed (empty at his move, or left by
        the reply), with the pieces that move took: none, or the squares set down on in ``tail`` and lifted after
        that lift, last (the reply's piece taken by the mover's capture); then with one or two pieces that stood
        at the turn's start (``occ0``) and were lifted last after that lift added (26x37 over 31: 21-26's
        landing read off as its switch died, 33-28 played, then 31 taken off)."""
        lifts = [x.t for x in tail if x.up and x.square in kept]
        if not lifts:
            return []
        start = min(lifts)
        last = {x.square: x for x in tail}
        caps = frozenset(s for s, x in last.items() if x.up and x.t > start and s not in kept
                         and any(not y.up and y.square == s for y in tail))
        landings = [s for s, x in last.items() if not x.up and x.t > start and s not in kept]
        bases = [frozenset(), caps] if caps else [frozenset()]
        stood = sorted(s for s, x in last.items() if x.up and x.t > start and s in occ0 and s not in kept | caps)
        more = [frozenset(c) for n in (1, 2) for c in combinations(stood, n)]
        return [(s, c) for s in landings for c in bases] + [(s, c | m) for s in landings for c in bases for m in more]

    def _lands_next(self, board: Board, second: Explanation, kept: set[int], landed: int,
                    caps: frozenset[int]) -> bool:
        """After the reply ``second`` (legal, from ``board``), the mover's piece lifted from one of ``kept`` has
        a legal move onto ``landed`` taking ``caps`` (his next move, which the next turn reads from its changes)."""
        after = snap(board)
        after.push(second.move)
        return any(m.origin in kept and m.destination == landed and frozenset(m.captured) == caps
                   for m in self._index(snap(after)).moves)

    @staticmethod
    def _next_changes(tail: list[SquareChange], own: set[int], landed: int | None,
                      caps: frozenset[int]) -> list[SquareChange]:
        """The changes of ``tail`` that begin the mover's next move: his lifts of ``own``, the landing on
        ``landed`` after them, and the last lift of each of ``caps`` (the pieces that move takes)."""
        lifts = [x.t for x in tail if x.up and x.square in own]
        start = min(lifts) if lifts else float("inf")
        last = {x.square: x for x in tail}
        return [x for x in tail if x.square in own or x.square == landed and x.t > start
                or x.square in caps and x is last[x.square]]

    def _commit_interleaved(self, first: Explanation, second: Explanation, head: list[SquareChange],
                            early: SquareChange | None, tail: list[SquareChange], own: set[int],
                            occ: frozenset[int], landed: int | None = None,
                            caps: frozenset[int] = frozenset()) -> None:
        """:meth:`_interleaved`'s reading committed: ``head`` (the mover's move), ``early`` and the ``tail`` but
        ``own`` (the reply), and the lifts of ``own`` begin the mover's next turn (with ``landed``, its landing,
        and the removals of ``caps``, the pieces it takes)."""
        name, mover = self.variant.square_name, self.board.turn
        old = self._seg
        self._split = None
        self._seg = Segment(old.t0, old.occ0, pieces=old.pieces)
        shown = set(old.occ0)
        for x in head:
            self._record_change(self._seg, x)
            (shown.discard if x.up else shown.add)(x.square)
        if early is not None:
            shown.add(early.square)
            self._off_early.add(early.square)    # its switch may have died: first suspect of a dead one
        self._commit(first, head[-1].t, f"{SIDE[mover]} moved {first.move.text(name=name)}",
                     occ_after=frozenset(shown))
        nxt = self._next_changes(tail, own, landed, caps)
        reply = sorted(([early] if early is not None else []) + [x for x in tail if x not in nxt],
                       key=lambda x: x.t)
        for x in reply:
            self._record_change(self._seg, x)
        why = (f"{name(early.square)} read off before {SIDE[mover]}'s move was over" if early is not None else
               f"{SIDE[mover]} lifted " + ", ".join(name(x) for x in sorted(own)) + " after it")
        self._commit(second, reply[-1].t if reply else head[-1].t, f"{SIDE[not mover]} played; {why}",
                     occ_after=(occ - ({landed} - own if landed is not None else set())) | own | caps)
        for x in nxt:
            self._record_change(self._seg, x)
