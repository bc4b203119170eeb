"""Debounced occupancy: raw frames in, confirmed lift/place events out.

A square's change is confirmed only once it has lasted ``bounce_s``; a change
that reverts sooner is switch bounce (or camera flicker) and never leaves this
module. The decision about a change at ``t`` is taken when an event at or after
``t + bounce_s`` arrives (or at :meth:`Debouncer.settle`), so the engine never
looks further into the future than the debounce window. Confirmed changes keep
the time the square really changed, and come out in time order.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple

__all__ = ["SquareChange", "Debouncer", "REVEAL_S"]

#: how long before its frame a change a mask hid is dated (:meth:`Debouncer.reveal`): less than any scan period
REVEAL_S = 1e-4


class SquareChange(NamedTuple):
    """A confirmed change: ``up`` True for a lift (the square emptied), False for a place."""

    t: float
    square: int
    up: bool


class Debouncer:
    """Per-square debounce of complete occupancy frames."""

    __slots__ = ("bounce_s", "raw", "stable", "pending")

    def __init__(self, bounce_s: float):
        self.bounce_s = bounce_s
        self.raw: frozenset[int] | None = None
        self.stable: set[int] = set()
        self.pending: dict[int, float] = {}   # square -> time its raw state left the stable one

    @property
    def started(self) -> bool:
        return self.raw is not None

    def confirm(self, t: float) -> list[SquareChange]:
        """Confirm every pending change that has lasted ``bounce_s`` by time ``t``."""
        pending = self.pending
        if not pending:
            return []
        limit = t - self.bounce_s + 1e-9
        if len(pending) == 1:          # the usual case: one square in flight
            [(s, p)] = pending.items()
            if p > limit:
                return []
            del pending[s]
            stable = self.stable
            if s in stable:
                stable.discard(s)
                return [SquareChange(p, s, True)]
            stable.add(s)
            return [SquareChange(p, s, False)]
        ready = [(p, s) for s, p in pending.items() if p <= limit]
        if not ready:
            return []
        ready.sort()
        out = []
        for p, s in ready:
            del self.pending[s]
            if s in self.stable:
                self.stable.discard(s)
                out.append(SquareChange(p, s, True))
            else:
                self.stable.add(s)
                out.append(SquareChange(p, s, False))
        return out

    def frame(self, t: float, occupied: frozenset[int]) -> list[SquareChange]:
        """Take a raw frame at ``t``: confirmed changes up to ``t`` come back; the frame's own
        changes wait in ``pending``. The very first frame is taken as it is."""
        if self.raw is None:
            self.raw = occupied
            self.stable = set(occupied)
            return []
        out = self.confirm(t)
        self.take(t, occupied)
        return out

    def take(self, t: float, occupied: frozenset[int]) -> None:
        """The frame's own changes wait in ``pending`` (for a caller that has just confirmed up to
        ``t``, as :meth:`frame` does first)."""
        changed = self.raw ^ occupied
        if changed:
            stable = self.stable
            pending = self.pending
            for s in changed:
                if (s in occupied) == (s in stable):
                    pending.pop(s, None)       # back to the confirmed state: bounce
                else:
                    pending[s] = t
            self.raw = occupied

    def reveal(self, t: float, squares: Iterable[int], occupied: frozenset[int]) -> None:
        """Squares a mask hid until this frame (a missing diode's rectangle broke): where they read otherwise
        than before, the change happened unseen before the frame, so it waits dated just before ``t`` (it is
        confirmed before the frame's own changes, which broke the rectangle)."""
        raw = self.raw
        if raw is None:
            return
        for s in squares:
            if (s in occupied) != (s in raw):
                if (s in occupied) == (s in self.stable):
                    self.pending.pop(s, None)
                else:
                    self.pending[s] = t - REVEAL_S
                raw = raw ^ {s}
        self.raw = raw

    def settle(self) -> list[SquareChange]:
        """End of input: every pending change is confirmed (nothing can revert it any more)."""
        return self.confirm(float("inf"))

    def earliest_pending(self) -> float | None:
        return min(self.pending.values()) if self.pending else None

    def reset(self, occupied: frozenset[int]) -> None:
        """Take ``occupied`` as the confirmed state (the first frame of a replay, a restored board)."""
        self.raw = occupied
        self.stable = set(occupied)
        self.pending.clear()
