"""The mover's landing after his opponent's first lift, where a held square stood in for it (docs/reconstruction.md,
"Failing switches"; issue 9).

While a missing diode is suspected, a square the scanner may hold reads "as it was": when the opponent's first lift
comes while the mover's piece is still off (17 lifted, then the opponent's 32 read lifted), the mover's move is read
onto such a square, its landing taken as held (faults.py ``_fault_plan``: 17-21, 21 masked until it reads what the
game says). When the mover's piece then comes down on another square it can reach (22, 0.1 s later), making his move
exact with no square held, that closing is his landing, not the opponent's: the opponent's lifted piece has no legal
move there, and the hand that lifted 17 put it down. Read as the opponent's (his move under way), the mover's move
was committed onto the held square and the opponent's turn began with a piece set down where his could not go
(17-21 for 17-22, then 28x17 read 28-17, `illegal-move`). The held square is unmasked (it read empty all along), the
closing is moved before the opponent's lift and the pending split takes the mover's move exact
(:meth:`HeldLanding._held_landing_late`).

:class:`HeldLanding` is mixed into :class:`rig.reconstruct.engine.Reconstructor`.
"""

from __future__ import annotations

from rig.reconstruct.matcher import Explanation, explain
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.state import PendingSplit, Segment, snap

__all__ = ["HeldLanding"]


class HeldLanding:
    """The engine's side of a late landing where a held square was read (module docstring)."""

    def _held_landing_late(self, split: PendingSplit, c: SquareChange) -> bool:
        """``c``, a closing on a square empty at the opponent's first lift (``split``), while the split's plan reads
        the mover's move onto a square masked as held (its landing unseen): where the mover's changes before the
        lift and ``c`` are his legal move exactly, from the same origin, and the opponent's lifted piece has no
        legal move onto ``c``'s square, ``c`` is the mover's late landing (module docstring). The held square is
        unmasked, ``c`` moved before the lift and the split's plan replaced. True when read so."""
        plan = split.plan
        seg = self._seg
        held = self._held_squares
        if not isinstance(plan, Explanation) or not plan.legal or not plan.exact or self._held is not None:
            return False
        h = plan.move.destination
        if h not in held or held[h] or h not in self._mask or h in seg.occ0 or c.square in seg.occ0 \
                or not seg.changes or seg.changes[-1] is not c:
            return False
        head = seg.changes[:split.index]
        shown = set(seg.occ0)
        for x in head:
            (shown.discard if x.up else shown.add)(x.square)
        shown.add(c.square)
        board = self.board
        expl = explain(board, seg.occ0, frozenset(shown), index=self._index(board))
        if expl is None or not expl.legal or not expl.exact or expl.move.destination != c.square \
                or expl.move.origin != plan.move.origin:
            return False
        after = snap(board)
        after.push(expl.move)
        after = snap(after)
        if any(m.origin == split.square and c.square in m.path[1:] for m in self._index(after).moves):
            return False                  # the opponent's lifted piece can go there: his move under way
        self._mask.remove(h)
        held.pop(h, None)
        self._set_reading(h, h in (self._deb.raw or frozenset()))
        new = Segment(seg.t0, seg.occ0, pieces=seg.pieces)
        for x in head + [c] + seg.changes[split.index:-1]:
            self._record_change(new, x)
        self._seg = new
        self._split = split._replace(index=split.index + 1, plan=expl, occ=split.occ | {c.square})
        name = self.variant.square_name
        self._note(c.t, f"{name(c.square)} closed after the opponent's lift of {name(split.square)}: the mover's "
                        f"landing ({expl.move.text(name=name)}), not {name(h)} held")
        return True
