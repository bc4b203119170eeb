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

The same switch can hide the reply's lift just after a capture: the mover's last removal (27, taken by 32x21) is
read as the opponent's lift of that piece, still standing, and the reply's landing (11-16 from a stuck 11) as that
piece played (27x16, taking 21). That reading needs two captures each leaving a piece standing; where every move
of the piece lifted onto that square is a capture whose pieces still stand, and a legal reply from a square that
never opened lands there exactly once the mover's capture is complete, the capture is committed complete and the
reply read from a ``stuck-closed`` origin (unseen.py ``_stuck_origin_fault``), no irregularity. A captured piece
its owner plays on (a simple move) stays ``capture-not-removed``.

:class:`LastClosing` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from rig.reconstruct.matcher import Explanation
from rig.reconstruct.state import SIDE, PendingSplit
from rig.reconstruct.unseen import on_path, stuck_origin_replies

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

    def _removal_then_stuck_reply(self, split: PendingSplit, x: int) -> bool:
        """A captured piece still standing (``split``: the mover's capture read with it standing, then it was
        lifted) and then ``x`` closed where that piece can go: its owner's move with it, unless every such move
        captures pieces that still stand, and, the lift taken as the mover's removal (his capture complete,
        exact), one legal reply from a square that did not change in the turn lands on ``x`` exactly. Then the
        capture is committed complete, the reply's origin is ``stuck-closed`` and ``x`` begins the reply's turn
        (the module docstring). True when so read."""
        plan = split.plan
        seg = self._seg
        changes = seg.changes
        if self._held is not None or self._diode_trouble() or not isinstance(plan, Explanation) \
                or not plan.legal or split.square not in plan.standing or not changes or changes[-1].up \
                or changes[-1].square != x or x in self._mask:
            return False
        before = self._physical_after(plan, split.occ)
        own = [m for m in self._index(before).moves if m.origin == split.square and m.destination == x]
        if not own or any(not m.captured or not set(m.captured) <= self._occ for m in own):
            return False                  # (its owner playing it on: capture-not-removed stands)
        occ_full = split.occ - {split.square}
        full = self._explain(occ_full)
        if full is None or not full.legal or not full.exact or full.move.key != plan.move.key:
            return False
        after = self._physical_after(full, occ_full)
        moved = {c.square for c in changes}
        replies = [m for m in stuck_origin_replies(after, self._index(after), occ_full, self._occ, moved)
                   if m.destination == x and m.origin not in self._mask]
        if not replies:
            return False
        replies.sort(key=lambda m: m.origin)
        t_x = changes[-1].t
        name = self.variant.square_name
        self._split = None
        self._land_wait = None
        self._cut(len(changes) - 1, t_x, full, occ_full,
                  f"{name(split.square)} taken off; {SIDE[not self.board.turn]} landed on {name(x)}")
        self._stuck_origin_fault(replies[0], replies, t_x)
        return True
