"""Hands on a physical reed board: contact changes with seeded timing and switch bounce.

:class:`Hands` keeps the physical truth (which squares hold a piece) and a
time cursor; each action (lift, place, a brief closure as a magnet slides
over a square, a clock press) is recorded at the cursor. :meth:`Hands.frames`
turns the recorded contact changes, bounce included, into the session's
frames: the complete occupied set after every change (docs/session-format.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rig.errors import RigError
from rig.session import ClockEvent, Frame
from rig.simulate.model import HumanModel, Range
from rig.variants import Variant

__all__ = ["Hands", "PlayersClock", "PhysicalError", "between", "step_squares"]


class PhysicalError(RigError, RuntimeError):
    """An action the physical board cannot do (placing on an occupied square, lifting from an empty one)."""


def _r(t: float) -> float:
    return round(t, 4)


@dataclass(frozen=True)
class _Change:
    t: float
    seq: int
    square: int
    closed: bool


class Hands:
    """The physical board and the hands acting on it, with a time cursor ``t`` (seconds)."""

    def __init__(self, occupied, rng: random.Random, model: HumanModel, t: float = 0.0):
        self.rng = rng
        self.model = model
        self.t = t
        self.initial = frozenset(occupied)
        self.occupied: set[int] = set(occupied)
        self._changes: list[_Change] = []
        self._busy_until: dict[int, float] = {}
        self.clock_events: list[ClockEvent] = []

    # -- time -------------------------------------------------------------------------------

    def wait(self, span: Range | float) -> float:
        """Advance the cursor by a fixed time or a uniform draw from a range; returns the time waited."""
        dt = span if isinstance(span, (int, float)) else self.rng.uniform(*span)
        self.t += dt
        return dt

    # -- contacts ---------------------------------------------------------------------------

    def _record(self, square: int, closed: bool, glitches: int) -> None:
        t = max(self.t, self._busy_until.get(square, 0.0))
        seq = len(self._changes)
        self._changes.append(_Change(_r(t), seq, square, closed))
        for _ in range(glitches):
            t += self.rng.uniform(*self.model.bounce_ms) / 1000
            self._changes.append(_Change(_r(t), seq + 1, square, not closed))
            t += self.rng.uniform(*self.model.bounce_ms) / 1000
            self._changes.append(_Change(_r(t), seq + 2, square, closed))
            seq += 2
        self._busy_until[square] = t + 0.001

    def _glitches(self, most: int | None = None) -> int:
        if self.model.bounce_p <= 0 or self.rng.random() >= self.model.bounce_p:
            return 0
        return self.rng.randint(1, most or self.model.bounce_glitches)

    def lift(self, square: int) -> None:
        """A piece leaves ``square`` (break, maybe with bounce)."""
        if square not in self.occupied:
            raise PhysicalError(f"no piece to lift on square {square}")
        self.occupied.discard(square)
        self._record(square, False, self._glitches())

    def place(self, square: int) -> None:
        """A piece is set down on ``square`` (make, maybe with bounce)."""
        if square in self.occupied:
            raise PhysicalError(f"square {square} is already occupied")
        self.occupied.add(square)
        self._record(square, True, self._glitches())

    def place_late(self, square: int, delay: float, flickers: int = 0) -> float:
        """A piece set down on ``square`` whose switch closes only ``delay`` s later (a weak magnet, maybe
        after ``flickers`` brief closures of 3-15 ms); the cursor stays at the arrival. Returns the time the
        switch holds closed."""
        if square in self.occupied:
            raise PhysicalError(f"square {square} is already occupied")
        self.occupied.add(square)
        t0 = max(self.t, self._busy_until.get(square, 0.0))
        for k in range(flickers):
            at = t0 + delay * (k + 1) / (flickers + 2)
            self._mark(at, square, True)
            self._mark(at + self.rng.uniform(0.003, 0.015), square, False)
        self._mark(t0 + delay, square, True)
        self._busy_until[square] = t0 + delay + 0.001
        return t0 + delay

    def pulse(self, square: int, t: float, span: float) -> bool:
        """The switch of ``square`` reads the opposite of its piece from ``t`` for ``span`` s (a phantom on an
        empty square, a jostled piece), without moving the cursor. False (nothing recorded) when the square
        changed after ``t``."""
        if self._busy_until.get(square, 0.0) > t:
            return False
        here = square in self.occupied
        self._mark(t, square, not here)
        self._mark(t + span, square, here)
        self._busy_until[square] = t + span + 0.001
        return True

    def free_since(self, square: int) -> float:
        """When the last contact change on ``square`` (bounce included) is over."""
        return self._busy_until.get(square, 0.0)

    def settled_at(self, square: int) -> float | None:
        """When the last contact change recorded on ``square`` happened: its bounce's last transition, the time
        the engine dates a change by (None: no change on it yet)."""
        busy = self._busy_until.get(square)
        return None if busy is None else _r(busy - 0.001)

    def last_change(self) -> float:
        """The time of the last contact change recorded (bounce, late closures included)."""
        return max((c.t for c in self._changes), default=0.0)

    def _mark(self, t: float, square: int, closed: bool) -> None:
        self._changes.append(_Change(_r(t), len(self._changes), square, closed))

    def settle(self, square: int) -> None:
        """Advance the cursor past the bounce of the last contact change on ``square`` (what follows is
        after it on the switches too)."""
        self.t = max(self.t, self._busy_until.get(square, 0.0))

    def brush(self, square: int) -> None:
        """A magnet passes over an empty square: a closure longer than ``bounce_s``, shorter than ``touch_s``
        (at most one glitch at each end). Advances the cursor past it."""
        if square in self.occupied:
            return
        window = self.model.slide_window()
        assert window is not None
        self._record(square, True, self._glitches(1))
        self.t = self._busy_until[square] + self.rng.uniform(*window)
        self._record(square, False, self._glitches(1))
        self.t = max(self.t, self._busy_until[square])

    def carry(self, squares: list[int], slide: bool) -> None:
        """Move the piece in hand across ``squares`` (the empty squares between two stops): sliding over
        them when ``slide``, else through the air. Advances the cursor by one travel time."""
        if slide and squares:
            # the gap runs from the end of the lift's bounce: no square is closed between two of a slide
            self.settle(self._last_lift_sq)
            for sq in squares:
                self.wait(self.model.slide_gap_s)
                self.brush(sq)
            self.wait(self.model.slide_gap_s)
            lo = self.model.travel_s[0]
            # the origin stays open longer than touch_s even for a fast slide
            self.t = max(self.t, self._last_lift_t + lo)
        else:
            self.wait(self.model.travel_s)

    _last_lift_t: float = 0.0
    _last_lift_sq: int = -1

    def pick_up(self, square: int) -> None:
        """Lift the piece that is about to move (remembers when, for :meth:`carry`)."""
        self.lift(square)
        self._last_lift_t = self.t
        self._last_lift_sq = square

    # -- clock ------------------------------------------------------------------------------

    def clock(self, event: ClockEvent) -> None:
        self.clock_events.append(event)

    # -- output -----------------------------------------------------------------------------

    def changes(self) -> list[tuple[float, int, bool]]:
        """Every contact change in time order: (t, square, closed)."""
        return [(c.t, c.square, c.closed) for c in sorted(self._changes, key=lambda c: (c.t, c.seq))]

    def frames(self, start: float = 0.0) -> list[Frame]:
        """The initial frame, then one frame per instant at which occupancy changed."""
        state = set(self.initial)
        out = [Frame(_r(start), frozenset(state))]
        for t, sq, closed in self.changes():
            if closed:
                state.add(sq)
            else:
                state.discard(sq)
            if out[-1].t == t:
                out[-1] = Frame(t, frozenset(state))
            else:
                out.append(Frame(t, frozenset(state)))
        return out


class PlayersClock:
    """A two-sided game clock in milliseconds, Fischer increment (000 6.3a): the simulator's own model."""

    def __init__(self, base_ms: int, increment_ms: int = 0, white_starts: bool = True, t: float = 0.0):
        self.ms = {True: base_ms, False: base_ms}
        self.increment_ms = increment_ms
        self.running: bool = white_starts
        self.since = t

    def press(self, t: float) -> tuple[int, int]:
        """The running side presses at ``t``: its time is charged, the increment added, the other side runs."""
        side = self.running
        used = int(round((t - self.since) * 1000))
        self.ms[side] = max(0, self.ms[side] - used) + self.increment_ms
        self.running = not side
        self.since = t
        return self.ms[True], self.ms[False]

    def times(self, t: float) -> tuple[int, int]:
        """(white_ms, black_ms) shown at ``t``."""
        run = max(0, self.ms[self.running] - int(round((t - self.since) * 1000)))
        return (run, self.ms[False]) if self.running else (self.ms[True], run)


def between(variant: Variant, a: int, b: int) -> list[int]:
    """The squares strictly between ``a`` and ``b`` on their diagonal (empty list if not on one)."""
    fa, ra = variant.coords(a)
    fb, rb = variant.coords(b)
    df, dr = fb - fa, rb - ra
    if abs(df) != abs(dr) or df == 0:
        return []
    sf, sr = (1 if df > 0 else -1), (1 if dr > 0 else -1)
    out = []
    for i in range(1, abs(df)):
        sq = variant.square_at(fa + i * sf, ra + i * sr)
        if sq is not None:
            out.append(sq)
    return out


def step_squares(variant: Variant, square: int, ranks: tuple[int, ...] = (1, -1)) -> list[int]:
    """The diagonal neighbours of ``square`` one rank up (+1) and/or down (-1), as white sees the board."""
    f, r = variant.coords(square)
    out = []
    for dr in ranks:
        for df in (-1, 1):
            sq = variant.square_at(f + df, r + dr)
            if sq is not None:
                out.append(sq)
    return out
