"""A still board whose last closing is the opponent's, without a clock (docs/reconstruction.md, "Failing switches").

Without a clock the mover's move is committed at his opponent's first lift or on a still board. A switch stuck
closed under the piece the opponent then plays hides that lift: the board shows the mover's move and, on its own
(``touch_s`` or more after his last change), a square closing where the game has no piece. When the board then
stays still for ``stable_s``, the sensors cannot yet tell that reply from a switch sticking closed on an empty
square (a square closing on its own beside the move): both show the mover's move exactly, plus that closing.
Neither is the mover's (no move of his explains it; no player puts a piece down from nowhere), so his move is
committed without it and the closing begins the next turn; what follows tells which (the mover lifting again: the
reply from a switch stuck under its origin, faults.py ``_fault_plan``; the opponent lifting: a switch stuck on an
empty square, unseen.py ``_stuck_on_empty``). Only where a legal reply from a square that never opened in the turn
lands there; anything else stays ``position-lost``.

:class:`LastClosing` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from rig.reconstruct.state import SIDE
from rig.reconstruct.unseen import on_path

__all__ = ["LastClosing"]


class LastClosing:
    """The engine's side of a still board ending on the opponent's landing (see the module docstring)."""

    def _last_closing_apart(self, t: float) -> bool:
        """Without a clock, the board stays still (decided at ``t``) and no move explains the turn, but the turn
        without its last change, a square closing ``touch_s`` or more after the change before it, where the game
        has no piece and off the move's path, is exactly the mover's legal move, and a legal reply from a square
        that did not change in the turn lands there: the move is committed without that closing, which begins the
        next turn (the module docstring). True when committed."""
        seg = self._seg
        changes = seg.changes
        if self._clock_mode or self._held is not None or self._split is not None or self._diode_trouble() \
                or len(changes) < 2:
            return False
        last = changes[-1]
        x = last.square
        if last.up or last.t - changes[-2].t < self.settings.touch_s or x in seg.occ0 or x in self._mask \
                or self.board.piece_at(x) is not None:
            return False
        occ_plan = self._occ - {x}
        plan = self._explain(occ_plan)
        if plan is None or not plan.legal or not plan.exact or on_path(self.variant, plan.move, x):
            return False
        moved = {c.square for c in changes}
        after = self._physical_after(plan, occ_plan)
        if not any(m.destination == x and m.origin in occ_plan and m.origin not in moved
                   for m in self._index(after).moves):
            return False
        name = self.variant.square_name
        self._cut(len(changes) - 1, last.t, plan, occ_plan,
                  f"board stable for {self.settings.stable_s:g} s; {name(x)} closed on its own after it: "
                  f"{SIDE[not self.board.turn]}'s move or a switch stuck closed, what follows tells")
        return True
