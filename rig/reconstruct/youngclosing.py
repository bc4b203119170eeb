"""A closing younger than ``touch_s`` at the opponent's first lift read only once it is a hand's: a stuck origin
named, a landing or a captured piece left standing read there (docs/reconstruction.md, "Failing switches" and
"Real-board soak"; issue 9).

The opponent's first lift finds the mover's turn showing a square closed with nothing lifted: a legal move from a
square whose switch did not open explains it, read ``stuck-closed`` under that origin (faults.py ``_fault_plan``).
A neighbour phantom beside the opponent's piece closes a square too, a few milliseconds before that piece's lift is
confirmed, and opens again within ``touch_s`` (the soak's H14-1: after white's pass, 13 closed 3 ms before black's
lift of 18 and opened 85 ms later; read as white's 9-13 from a switch stuck under 9, a second move of the side that
passed). A landing stays closed: a hand sets a piece down ``touch_s`` or more.

So at that lift a stuck-origin reading whose destination closed less than ``touch_s`` before is set aside
(:meth:`YoungClosingWait._closing_young`) and the lift remembered (:meth:`YoungClosingWait._await_young_closing`).
The next change decides (:meth:`YoungClosingWait._young_closing_passed`): that square opening within ``touch_s`` of
its closing was a phantom, and nothing is named (the lift is read as the board shows it without the square); any
other change, the square still closed, reads the turn as at the lift (the fault named, the lift begins the
opponent's move), as it was read at once before. A real stuck switch under a piece played with a reply lifted at
once keeps its reading; only the phantom's opening, which no landing makes, drops it.

A reading that needs no fault is set aside the same way when its move lands on a square that closed less than
``touch_s`` before the lift and the board read without that square shows the mover's move too
(:meth:`YoungClosingWait._young_landing_split`; the soak's 17000644, no clock: white's b2-a3, his own g1 taken off,
then a neighbour phantom closes h2 12 ms before black's lift of h4 and opens 100 ms later: read as white's g1-h2, a
second move with a capture not taken, and black's "removal" of h2). The next change decides: the square opening within
``touch_s`` of its closing was a phantom, and the lift is read on the board without it (certainty.py
``_phantom_free_split``: b2-a3 with g1 off, own-piece-removed); anything else reads the lift as it was read at once.
So too a reading that leaves a captured piece standing on such a square, and where the lift commits the mover's
move at once (his opponent's first lifted piece stayed off, segmenter.py) the commit waits as the split does (the
soak's 19000402: d4xb6 taking c7, e7, e5, c7 taken off, then a phantom closing c7 13 ms before black's lift of a7:
read as c7 standing, capture-not-removed and opponent-piece-touched, then black's own-piece-removed). So too an
illegal reading when the square is the mover's origin, closed again, and the board without it shows a legal move
of his, exact or not (the soak's 21006696, no clock: black's d6xf4, his own c7 taken off, then a phantom closing d6
1 ms before white's lift of g3: read as c7xf4, an illegal move, and d6's opening as white's wrong removal; now
d6xf4 and own-piece-removed). A board still for ``stable_s`` after the lift ends the wait too, the square still
closed (:meth:`YoungClosingWait._young_closing_stayed`).

:class:`YoungClosingWait` is mixed into :class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from typing import NamedTuple

from rig.reconstruct.matcher import Explanation
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.state import PendingSplit, Plan, Segment

__all__ = ["YoungClosingWait", "YoungClosing"]


class YoungClosing(NamedTuple):
    """The opponent's first lift, come less than ``touch_s`` after the closing a stuck-origin reading explains (or
    a reading's landing)."""

    seg: Segment                       # the turn's segment (the wait ends with it)
    index: int                         # the segment's changes before the lift
    t: float                           # when the piece was lifted
    occ: frozenset[int]                # the confirmed occupancy before the lift
    square: int                        # the square lifted
    closing: int                       # the square whose closing the stuck origin explained
    at: float                          # when it closed
    plan: Plan | None = None           # a reading with no fault landing or left standing there (None: a stuck
    #                                    origin's)
    free: PendingSplit | None = None   # with ``plan``: the lift read on the board without that square
    commit: str | None = None          # with ``plan``: the reason to commit it at the lift (None: a split)


class YoungClosingWait:
    """The engine's side of a stuck-origin reading set aside for a young closing (see the module docstring)."""

    def _closing_young(self, square: int) -> bool:
        """``square`` (the destination of a stuck-origin reading) closed less than ``touch_s`` before now: True,
        and it is remembered for :meth:`_await_young_closing`."""
        at = self._seg.placed_at.get(square)
        if at is None or self._now - at >= self.settings.touch_s:
            return False
        self._young_square = (square, at)
        return True

    def _await_young_closing(self, seg: Segment, occ: frozenset[int], square: int, t: float) -> None:
        """The opponent lifted ``square`` at ``t`` (the board reading ``occ`` before it) and no plan was read
        because a stuck-origin reading's closing was too young: remember the lift for the next change."""
        young, self._young_square = self._young_square, None
        if young is not None and self._split is None:
            self._young_lift = YoungClosing(seg, len(seg.changes), t, occ, square, *young)

    def _young_closing_passed(self, c: SquareChange) -> None:
        """The change after the remembered lift: the closing's square opening within ``touch_s`` was a phantom
        (nothing named, or the lift read without it); anything else, the square still closed, reads the turn as
        at the lift."""
        wait = self._young_lift
        if wait is not None:
            self._young_read(wait, c.square == wait.closing and c.up and c.t - wait.at < self.settings.touch_s)

    def _young_closing_stayed(self) -> None:
        """The board still for ``stable_s`` after the remembered lift: the square stayed closed, the turn is read
        as at the lift (commit.py ``_check_stable``)."""
        self._young_read(self._young_lift, False)

    def _young_read(self, wait: YoungClosing, phantom: bool) -> None:
        """The remembered lift read now that it is told whether the young closing was a phantom."""
        self._young_lift = None
        seg = self._seg
        if seg is not wait.seg or len(seg.changes) != wait.index + 1 or self._split is not None \
                or self._held is not None:
            return
        if wait.plan is not None:
            split = wait.free if phantom else PendingSplit(wait.index, wait.t, wait.plan, wait.occ, wait.square)
            if wait.commit is None:
                self._split = split
            else:                         # (commit.py: committed as at the lift, the lift begins the reply)
                self._cut(split.index, split.t, split.plan, split.occ, wait.commit)
        elif not phantom and wait.closing in self._occ:     # (a phantom: no landing, nothing named)
            self._split_at(seg, wait.index, wait.t, wait.occ, wait.square,      # magnetwait.py
                           wait.at + self.settings.touch_s)

    def _young_landing_split(self, seg: Segment, c: SquareChange, plan: Plan, occ: frozenset[int],
                             commit: str | None = None) -> bool:
        """The opponent's first lift ``c`` (the board ``occ`` before it) read as ``plan``, whose move lands on a
        square closed less than ``touch_s`` before, or which leaves a captured piece standing on one, or (an illegal
        reading) which has the mover's origin closed again: when the board read without that square shows the
        mover's move too (certainty.py ``_phantom_free_split``; for the origin, a legal move, exact or not), both
        readings are kept for the next change (:meth:`_young_closing_passed`) and True is returned (no split yet;
        with ``commit``, the reason the lift commits the mover's move, no commit yet)."""
        if isinstance(plan, Explanation):
            squares = {plan.move.destination, *plan.standing}
            if not plan.legal:            # (the mover's origin closed again: a phantom there, an illegal reading)
                squares.update(seg.occ0.intersection(seg.placed_at))
        else:
            squares = {plan.first.move.destination, plan.second.move.destination, *plan.second.standing}
        touch_s = self.settings.touch_s
        young = {s for s in squares if s in occ and (at := seg.placed_at.get(s)) is not None and c.t - at < touch_s}
        if len(young) != 1 or self._split is not None or self._held is not None \
                or self._open_readings or self._stale_dead:
            return False
        square, = young
        removal = self._removal_plan
        origin = square in seg.occ0 and isinstance(plan, Explanation) and not plan.legal
        free = self._phantom_free_split(seg, c, occ, legal=origin)
        self._removal_plan = removal
        if free is None or square in free.occ:
            return False                  # (no reading without it: the reading at the lift is the only one)
        self._young_lift = YoungClosing(seg, len(seg.changes), c.t, occ, c.square, square, seg.placed_at[square],
                                        plan, free, commit)
        return True
