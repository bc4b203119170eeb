"""A square whose switch closed before the piece that goes there was lifted (docs/reconstruction.md, "Failing
switches").

A switch that sticks closed on an empty square just before the opponent lifts the piece he then plays onto it
shows the closing first, then the lift, and no landing: 21 closes, 15 ms later black lifts 17 for 17-21. At the
lift the closing is read as a neighbour phantom (certainty.py ``_phantom_free_split``: the mover's move without
it). No hand puts a piece down before lifting it and a phantom lasts less than ``touch_s``, so when the square
has stayed closed, the lifted piece stayed off and the mover lifts one of his own, the opponent's piece went
there and the switch under it is stuck (:meth:`ClosedFirst._landing_closed_first`). The moves after it (26x17
taking the piece on 21, 12x21 landing there again) then read from their lifts over the masked square.

The same switch on the mover's own turn: 19 sticks closed 0.2 s before black lifts 13 for 13-19. The closing, on
its own where a black piece can land, is read at once as black's landing with its lift hidden (lastclosing.py,
unseen.py: 13 or 14 stuck under the origin, 13 masked). When the masked origin then opens while that move is still
the turn's only change, its switch works: the piece was lifted after the landing square closed, and no hand puts a
piece down before lifting it. The fault is the landing square's (:meth:`ClosedFirst._origin_opened_after`): it
moves there (masked, the game's state), the closing is taken out of the turn and the origin shows its lift; the
move is then read from that lift onto the masked square.
"""

from __future__ import annotations

from dataclasses import replace

from rig.reconstruct.matcher import Explanation
from rig.reconstruct.state import SIDE, Segment


class ClosedFirst:
    """The engine's side of the module docstring (a mixin of the Reconstructor)."""

    def _landing_closed_first(self, c) -> bool:
        """Without a clock, the opponent's first lifted piece (the pending split) stayed off, a square left out
        of the mover's move as a phantom (closed less than ``touch_s`` before that lift, where the game has no
        piece) still reads closed, and the mover lifts one of his own (``c``): the opponent's piece went to that
        square, whose switch stuck closed before the lift (masked from now on). Only where the lifted piece has
        exactly one legal move there and the board shows nothing else. The mover's move and the opponent's are
        committed; ``c`` begins the mover's next move. True when read so."""
        kept = self._reply_kept_off(c)   # (unseen.py)
        if kept is None:
            return False
        split, plan, occ = kept
        closed = occ - split.occ
        if len(closed) != 1 or occ != (split.occ - {split.square}) | closed:
            return False
        (x,) = closed
        at = self._seg.placed_at.get(x)
        if at is None or at > split.t or split.t - at >= self.settings.touch_s or x in self._mask:
            return False
        after = self._physical_after(plan, split.occ)
        if after.piece_at(x) is not None:
            return False
        moves = [m for m in self._index(after).moves if m.origin == split.square and m.destination == x
                 and not m.captured]
        if len(moves) != 1:
            return False
        move = moves[0]
        name = self.variant.square_name
        mover = self.board.turn
        self._split = None
        self._cut(split.index, split.t, plan, split.occ, f"{SIDE[not mover]} lifted {name(split.square)}: his "
                                                         "move starts")
        self._fault(x, "stuck-closed", at, f"{name(x)} closed before {name(split.square)} was lifted and stayed "
                                           f"closed; {name(split.square)} came down nowhere else: it went to "
                                           f"{name(x)}, whose switch is stuck closed", True)
        self._commit(Explanation(move, True, None), c.t, f"{SIDE[mover]} lifted {name(c.square)} after the reply")
        return True

    def _origin_opened_after(self, t: float, square: int) -> bool:
        """``square``, masked ``stuck-closed`` under the origin of the move read from a closing alone (its lift
        hidden; the turn under way has that closing as its only change, the move not committed), opens: its switch
        works, so its piece was lifted after the landing square closed (no hand puts a piece down before lifting
        it): that square's switch is the stuck one (module docstring). The fault moves there (its ``since`` the
        closing, masked empty as the game has it until the move is committed), the open readings of the turn are
        dropped, the closing is taken out of the turn and ``square`` is unmasked: its opening reads as the lift.
        True when read so."""
        seg, plies = self._seg, self._plies
        if self._split is not None or self._held is not None or len(seg.changes) != 1:
            return False
        closing = seg.changes[0]
        x = closing.square
        if closing.up or x in self._mask or x in seg.occ0 or self.board.piece_at(x) is not None:
            return False
        index = next((i for i, f in enumerate(self.sensor_faults) if f.square == square and f.current
                      and f.kind == "stuck-closed" and f.since == closing.t and not f.withdrawn), None)
        if index is None or not any(m.origin == square and m.destination == x and not m.captured
                                    for m in self._index(self.board).moves):
            return False
        name = self.variant.square_name
        n = len(plies)
        self._open_readings = [r for r in self._open_readings if r.ply < n]
        fault = self.sensor_faults[index] = replace(
            self.sensor_faults[index], square=x,
            detail=f"{name(x)} closed before {name(square)} was lifted (at {t:.2f} s: its switch works): the "
                   f"switch under {name(x)} closed on its own, stuck")
        self._emit(fault)
        self._mask.remove(square)
        self._mask_square(x, False)
        self._seg = Segment(seg.t0, seg.occ0, pieces=seg.pieces)
        self._note(t, f"square {name(x)}: switch stuck-closed (not {name(square)}: it opened after {name(x)} "
                      "closed), masked from now on")
        return True
