"""A piece of the mover read lifted while his opponent's first lift is pending (docs/reconstruction.md, Commit;
Failing switches).

Without a clock, the opponent's first lift after the mover's move splits the turn once his move shows; a lift
of the mover's own piece before that is read as the mover still at work (the split dropped). A switch that
dies under one of the mover's pieces during the opponent's move reads the same lift (a5 read off 0.35 s after
black lifts d6 for d6xb4, white's b4-c5 standing exactly): the split dropped, the opponent's capture and the
mover's next move (a5xc3xa1, its lift unseen) ran into one irregular move.

The split is kept, the mover's lift noted, when the mover's move stands legal and exact and the lifted piece
is not the one he played (a hand going back to the played piece is still at work). The next change settles it:
the opponent's lifted piece coming down on the path of a legal capture of it is his capture under way (the
removals that follow are his, not the mover's), and the mover's lift falls in that capture's turn (unseen.py
``_interleaved`` reads it as the start of the mover's next move, the pieces that move takes included). Any
other change (the mover's piece set down, another lift, a quiet landing) drops the split as before: a quiet
reply leaves the board still with the mover's piece off, which ``_interleaved`` already reads from the
mover's turn (36-31, 19-23, 34 read off 5 ms after the lift of 19). No irregularity comes of it: a player
may pick up his piece before his turn (FMJD 002 art. 3.11 forbids touching it only in his turn), and a dead
switch is named once a piece stands on it again.

Where the mover's move pending is one of two readings from a pair of origins (a stuck switch or a missing diode's
ghost hid its lift) and the lifted piece is the one the reading taken leaves on the other square, its opening,
seen in the same debounce as the opponent's lift, is that square's stuck switch working again when the next change
is no move of that piece (:meth:`OwnLift._twin_lift_freed`): the move pending is read the other way. A change the
opponent's lifted piece reaches with a legal reply to the move pending is his, not a second move of the mover's
piece (:meth:`OwnLift._reply_lands_first`).

:class:`OwnLift` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from rig.reconstruct.matcher import Explanation
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.state import PendingSplit, Segment, snap

__all__ = ["OwnLift"]


class OwnLift:
    """The engine's side of a mover's lift read during the opponent's pending first lift (module docstring)."""

    def _own_lift_kept(self, square: int) -> PendingSplit | None:
        """The mover's piece on ``square`` read lifted while the split is pending: the split kept, the lift
        noted, when the mover's move stands legal and exact and ``square`` is not its piece (else None, the
        mover still at work)."""
        split = self._split
        plan = split.plan
        if self._clock_mode or split.own is not None or not isinstance(plan, Explanation) \
                or not (plan.legal and plan.exact) or plan.standing or square == plan.move.destination:
            return None
        return split._replace(own=square)

    def _own_lift_settled(self, split: PendingSplit, c: SquareChange) -> bool:
        """The change after a kept split's own lift (``c``; the lift itself first): the opponent's piece
        landing on the path of a legal capture of it keeps the split (his move under way, the split resolves
        on it); any other change drops it (a quiet reply is read as before: the board then stays still with
        the mover's piece off, and ``_interleaved`` reads the mover's move, the reply and that lift)."""
        if c.up:
            return c.square == split.own
        if self._twin_lift_freed(split, c):
            return True
        if c.square in split.occ:
            return False
        after = self._physical_after(split.plan, split.occ)
        return any(m.origin == split.square and m.captured and c.square in m.path[1:]
                   for m in self._index(after).moves)

    def _twin_lift_freed(self, split: PendingSplit, c: SquareChange) -> bool:
        """The mover's move pending is one of two readings from a pair of origins (44-39 read 43-39: 43 a missing
        diode's ghost, or 44 stuck; an open reading), and the piece the reading taken leaves on the other square
        (44) read lifted (the split's ``own``) before that reading was made: its opening came a few milliseconds
        after the opponent's lift, in the same debounce. The opening is recovery.py's held opening of the other
        square (``_twin_opened``), seen late: the next change ``c`` (a landing) tells. A landing no legal move of
        that piece makes (the opponent's own), or, for a ghost reading, the ghost's square reading closed once the
        opening broke its rectangle (a ghost needs every corner closed: its switch reads a piece), shows that
        switch was the stuck one working again: the move pending is read the other way (recovery.py
        ``_pending_other_way``: the fault moves there and ends at the opening, an observation), the lift (and that
        closing) is taken out of the turn and the split kept. True when so read."""
        own = split.own
        plan = split.plan
        n = len(self._plies)
        if own is None or not isinstance(plan, Explanation):
            return False
        reading = next((r for r in self._open_readings if r.ply == n and r.fault in ("stuck-closed", "ghost")
                        and any(m.key == plan.move.key for m in r.moves)), None)
        if reading is None or self._piece_lands(own, frozenset({c.square}), frozenset()):      # recovery.py
            return False
        stuck = reading.fault_at(plan.move)
        # the ghost's own square reading closed once its rectangle broke (the lift of ``own`` broke it) is no
        # piece set down: read the other way, its piece stood there all along
        freed = reading.fault == "ghost" and c.square == stuck and stuck not in self._mask
        if stuck == own or (c.square in split.occ or stuck not in self._mask) and not freed \
                or all(reading.fault_at(m) != own for m in reading.moves if m.key != plan.move.key):
            return False
        lift = next((x for x in reversed(self._seg.changes) if x.square == own and x.up), None)
        if lift is None or not self._pending_other_way(c.t, lift.t, stuck, own):       # recovery.py
            return False
        self._split = self._split._replace(own=None)      # no lift of the mover's stands: the opening was the switch
        if stuck not in self._mask and stuck not in self._freed:
            # a ghost's mask dropped (ghostread.py ``_ghost_moved``): the square reads as its switch last read
            self._set_reading(stuck, stuck in self._raw_prev)
        turn = self._seg
        self._seg = Segment(turn.t0, turn.occ0, pieces=turn.pieces)
        for x in turn.changes:
            if x is not lift and not (freed and x is c):
                self._record_change(self._seg, x)
        return True

    def _reply_lands_first(self, square: int, on: frozenset[int]) -> bool:
        """The piece on ``square`` is the mover's, his move pending (the split: the opponent's first lift read; that
        move legal, exact and not of ``square``), and the opponent's lifted piece has a legal reply landing on or
        passing a square of ``on`` to that move or to the move of the open reading that puts a stuck switch under
        ``square`` (its piece the one played): that change is the reply's. The mover's piece going there would be a
        second move, his opponent's piece in the hand (a move out of turn, ``two-moves``), so
        recovery.py ``_piece_lands`` does not read it as that piece's (international game 19 ply 35: 19-24 read, 19
        or 20 stuck; 20 opens as white's 30 is in the air and 30-25 lands, a reply to 20-24: 20's switch working
        again, not 20-25)."""
        split, board = self._split, self.board
        piece = board.piece_at(square)
        if split is None or piece is None or piece[0] != board.turn or not isinstance(split.plan, Explanation):
            return False
        plan = split.plan
        if not (plan.legal and plan.exact) or square in plan.move.path + plan.move.captured:
            return False
        n = len(self._plies)
        moves = [plan.move] + [m for r in self._open_readings if r.ply == n and r.fault == "stuck-closed"
                               for m in r.moves if r.fault_at(m) == square and m.key != plan.move.key]
        for move in moves:
            after = snap(board)
            after.push(move)
            if any(m.origin == split.square and set(m.path[1:]) & on for m in self._index(snap(after)).moves):
                return True
        return False
