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

:class:`OwnLift` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from rig.reconstruct.matcher import Explanation
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.state import PendingSplit

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
        if c.square in split.occ:
            return False
        after = self._physical_after(split.plan, split.occ)
        return any(m.origin == split.square and m.captured and c.square in m.path[1:]
                   for m in self._index(after).moves)
