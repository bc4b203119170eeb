"""A square whose switch closed before the piece that goes there was lifted (docs/reconstruction.md, "Failing
switches").

A switch that sticks closed on an empty square just before the opponent lifts the piece he then plays onto it
shows the closing first, then the lift, and no landing: 21 closes, 15 ms later black lifts 17 for 17-21. At the
lift the closing is read as a neighbour phantom (certainty.py ``_phantom_free_split``: the mover's move without
it). No hand puts a piece down before lifting it and a phantom lasts less than ``touch_s``, so when the square
has stayed closed, the lifted piece stayed off and the mover lifts one of his own, the opponent's piece went
there and the switch under it is stuck (:meth:`ClosedFirst._landing_closed_first`). The moves after it (26x17
taking the piece on 21, 12x21 landing there again) then read from their lifts over the masked square.
"""

from __future__ import annotations

from rig.reconstruct.matcher import Explanation
from rig.reconstruct.state import SIDE


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
