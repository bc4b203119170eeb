"""A stuck origin named only once the closing it explains is a hand's (docs/reconstruction.md, "Failing switches";
issue 9).

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

:class:`YoungClosingWait` is mixed into :class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from typing import NamedTuple

from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.state import Segment

__all__ = ["YoungClosingWait", "YoungClosing"]


class YoungClosing(NamedTuple):
    """The opponent's first lift, come less than ``touch_s`` after the closing a stuck-origin reading explains."""

    seg: Segment                       # the turn's segment (the wait ends with it)
    index: int                         # the segment's changes before the lift
    t: float                           # when the piece was lifted
    occ: frozenset[int]                # the confirmed occupancy before the lift
    square: int                        # the square lifted
    closing: int                       # the square whose closing the stuck origin explained
    at: float                          # when it closed


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
        (nothing named); anything else, the square still closed, reads the turn as at the lift."""
        wait = self._young_lift
        self._young_lift = None
        seg = self._seg
        if wait is None or seg is not wait.seg or len(seg.changes) != wait.index + 1 or self._split is not None \
                or self._held is not None or wait.closing not in self._occ:
            return
        if c.square == wait.closing and c.up and c.t - wait.at < self.settings.touch_s:
            return                        # opened again within touch_s: a neighbour phantom, no landing
        self._split_at(seg, wait.index, wait.t, wait.occ, wait.square,      # magnetwait.py
                       wait.at + self.settings.touch_s)
