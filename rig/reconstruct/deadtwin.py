"""The other square of a dead reading closing (docs/reconstruction.md, "Failing switches"; issue 9).

A move whose landing showed nothing on a board with two squares it could reach is read onto one of them, that
square's switch named ``dead`` (chainread.py, an open reading; an observation names both). When the piece went to
the other square and its switch was the dead one, that switch often works again (recovery.py): it closes under
the piece, a square where the game read has no piece and no legal move of the side to move lands or passes. Read
the other way, the piece stands there: the moves are read again at once, the fault moves to that square and ends at
the closing (or, the closing within ``stable_s`` of the fault with only the opponent's lifts before it, the piece
was still in the mover's hand at his opponent's lift: no switch failed, earlylift.py, the fault is withdrawn). The
closing is taken out of the turn under way. Left to the turn's commit, it reads as the opponent's piece set down
there, and the lift of the piece standing on it as part of his move (30-25 read 30-24; 25 closing as black lifts
4; white's 25x14 lift then read in black's turn, 4-9 as ``capture-not-taken``).

:class:`DeadTwin` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from rig.move import Move
from rig.reconstruct.chainread import OpenReading
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.state import Segment

__all__ = ["DeadTwin"]


class DeadTwin:
    """The engine's side of a dead reading's other square closing (module docstring)."""

    def _init_deadtwin(self) -> None:
        # the last closing a re-read was tried for, with the plies and readings it was tried on: the search is not
        # repeated per frame while none of them changed
        self._twin_tried: tuple[SquareChange, int, tuple[OpenReading, ...]] | None = None

    def _dead_twin_closed(self) -> None:
        """A square read closed in the turn under way, unmasked, is the other square of an open reading that named a
        masked switch dead (30-24 read for 30-25, 24 dead; 25 closes as black begins his reply): the game has no
        piece there and no legal move of the side to move lands on or passes it, while the reading taken the other
        way has its piece standing there. Read so, that piece came down on it: its switch, dead, works again, or (the
        closing within ``stable_s`` of the fault, only the opponent's lifts before it in the turn) the piece was
        still in the hand at his lift (earlylift.py). The moves are read the other way at once (chainread.py) and
        the closing taken out of the turn, before it is read as a piece set down and the piece's lift as part of
        the reply: the fault moves to that square and ends at the closing, or, a late landing, is withdrawn."""
        plies, seg = self._plies, self._seg
        if self._split is not None or self._held is not None or not plies:
            return
        for r in self._open_readings:
            if r.fault != "dead" or r.standing or r.ply >= len(plies):
                continue
            played = plies[r.ply].move
            if played is None or all(m.key != played.key for m in r.moves):
                continue
            dead = r.fault_at(played)
            for m in r.moves:
                square = r.fault_at(m)
                if m.key == played.key or square not in self._occ or square in self._mask \
                        or square in seg.occ0 or self.board.piece_at(square) is not None:
                    continue
                closing = next((c for c in seg.changes if c.square == square), None)
                if closing is None or closing.up or dead not in self._mask or self._fault_kind(dead) != "dead":
                    continue
                tried = (closing, len(plies), tuple(self._open_readings))
                if tried == self._twin_tried:
                    return                  # tried on this very board: the search would find the same
                if any(square in x.path[1:] for x in self._index(self.board).moves):
                    continue
                self._twin_tried = tried
                self._twin_landed(r, m, dead, closing)
                return

    def _twin_landed(self, r: OpenReading, other: Move, dead: int, closing: SquareChange) -> None:
        """:meth:`_dead_twin_closed`'s re-read: ``r`` taken as ``other``, ``closing`` (its square's) out of the
        turn."""
        plies, seg = self._plies, self._seg
        square, t = closing.square, closing.t
        found = self._find_chain(lambda board, cur: True if square in cur else None)      # chainread.py
        if found is None or found.first > r.ply or found.steps[r.ply - found.first][0].key != other.key:
            return
        index = next(i for i in range(len(self.sensor_faults) - 1, -1, -1)
                     if self.sensor_faults[i].square == dead and self.sensor_faults[i].current)
        late = r.ply == len(plies) - 1 and t - self.sensor_faults[index].since < self.settings.stable_s \
            and all(c.up for c in seg.changes if c.t < t)
        name = self.variant.square_name
        self._rewrite_chain(t, found, f"{name(square)} closed under the piece the other reading puts there")
        turn = self._seg
        self._seg = Segment(turn.t0, turn.occ0, pieces=turn.pieces)
        for c in turn.changes:
            if c is not closing:
                self._record_change(self._seg, c)
        if self._fault_kind(square) != "dead" or square not in self._mask:
            return
        self._set_reading(square, True)
        if late:
            self._mask.remove(square)
            self._withdraw_fault(index, f"the piece of {other.text(name=name)} came down on {name(square)} after "
                                        f"the opponent's lift: {name(dead)} was never its square")
        else:
            self._recovered(t, square, "its switch closed under the piece the other reading puts there: it was "
                                       "the dead one, and works again")
