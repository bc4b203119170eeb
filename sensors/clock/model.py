"""A two-sided game clock kept in software: the GPIO clock and the emulators run on it.

000 6.1: two linked dials, only one running at a time; a dial whose time is over
shows a fallen flag (it stays blocked at zero). 000 6.3a: the time per game
includes any increment after each move; 000 6.3c: White's clock is started at
the start of the game. Sides here are physical (``left``/``right``), as a clock
knows no colours.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable, Literal

from sensors.clock import ClockHand
from sensors.clock.timecontrol import MAX_CLOCK_MS, IncrementMode, TimeControl

__all__ = ["ClockModel", "PressOutcome"]

PressOutcome = Literal["press", "start", "ignored"]


def _other(hand: ClockHand) -> ClockHand:
    return "right" if hand == "left" else "left"


@dataclass
class _Dial:
    ms: int
    flag: bool = False


class ClockModel:
    """Times in integer milliseconds; ``now`` is a monotonic clock in seconds (injectable for tests).

    Thread-safe: every public method takes the model's lock.
    """

    def __init__(self, tc: TimeControl, now: Callable[[], float] = time.monotonic):
        self._now = now
        self._lock = threading.RLock()
        self.tc = tc
        self.reset(tc)

    # ------------------------------------------------------------------ set-up
    def reset(self, tc: TimeControl | None = None, left_ms: int | None = None, right_ms: int | None = None) -> None:
        """Both dials to the base time (or the given times), stopped, no flags, game not started."""
        with self._lock:
            if tc is not None:
                self.tc = tc
            self._dial = {"left": _Dial(self.tc.base_ms if left_ms is None else left_ms),
                          "right": _Dial(self.tc.base_ms if right_ms is None else right_ms)}
            self.running: ClockHand | None = None
            self.paused = False
            self.started = False
            self.moves = 0
            self._since = self._now()
            self._delay_left = 0
            self._turn_used = 0
            self._fallen: list[ClockHand] = []

    def set_times(self, left_ms: int, right_ms: int) -> None:
        """The arbiter sets the dials (000 6.4b, 7.1); flags are cleared for dials above zero."""
        if not (0 <= left_ms <= MAX_CLOCK_MS and 0 <= right_ms <= MAX_CLOCK_MS):
            raise ValueError(f"times out of range: {left_ms}, {right_ms}")
        with self._lock:
            self._settle_locked()  # a flag that fell before the arbiter set the dials is still reported
            for hand, ms in (("left", left_ms), ("right", right_ms)):
                self._dial[hand] = _Dial(ms, flag=ms == 0)

    # ------------------------------------------------------------------ running
    def _settle_locked(self) -> None:
        """Bring the running dial up to now. A flag that falls here waits in ``_fallen`` until
        :meth:`settle` reports it, whoever brought the dial up to date (reading the times must not
        swallow a flag)."""
        now = self._now()
        if self.running is not None and not self.paused:
            dt = max(0, round((now - self._since) * 1000))
            use_delay = min(dt, self._delay_left)
            self._delay_left -= use_delay
            counted = dt - use_delay
            dial = self._dial[self.running]
            self._turn_used += counted
            dial.ms = max(0, dial.ms - counted)
            if dial.ms == 0 and not dial.flag:
                dial.flag = True
                self._fallen.append(self.running)
        self._since = now

    def settle(self) -> list[ClockHand]:
        """Bring the running dial up to now; return the sides whose flag has just fallen."""
        with self._lock:
            self._settle_locked()
            fallen, self._fallen = self._fallen, []
            return fallen

    def press(self, hand: ClockHand) -> PressOutcome:
        """``hand`` presses its button. The running side's press ends its move: the increment is applied
        (Fischer: +increment; Bronstein: +min(increment, time used); delay: none) and the other dial
        starts. Before the game starts, a press starts the other side's clock (000 6.3c, 004 art. 25).
        A press on the dial that is not running, or while paused, changes nothing."""
        with self._lock:
            self._settle_locked()
            if self.paused:
                return "ignored"
            if self.running is None:
                if self.started:
                    return "ignored"
                self.started = True
                self._switch_to(_other(hand))
                return "start"
            if self.running != hand:
                return "ignored"
            dial = self._dial[hand]
            if not dial.flag:
                inc = self.tc.increment_ms
                if self.tc.mode is IncrementMode.FISCHER:
                    dial.ms = min(MAX_CLOCK_MS, dial.ms + inc)
                elif self.tc.mode is IncrementMode.BRONSTEIN:
                    dial.ms = min(MAX_CLOCK_MS, dial.ms + min(inc, self._turn_used))
            self.moves += 1
            self._switch_to(_other(hand))
            return "press"

    def _switch_to(self, hand: ClockHand) -> None:
        self.running = hand
        self._since = self._now()
        self._turn_used = 0
        self._delay_left = self.tc.increment_ms if self.tc.mode is IncrementMode.DELAY else 0

    def start(self, hand: ClockHand) -> None:
        """Start ``hand``'s clock (the arbiter starting the game, 000 6.3c)."""
        with self._lock:
            self._settle_locked()
            self.started = True
            self.paused = False
            self._switch_to(hand)

    def pause(self) -> bool:
        """Stop both clocks (000 6.4c); False if nothing was running."""
        with self._lock:
            self._settle_locked()
            if self.running is None or self.paused:
                return False
            self.paused = True
            return True

    def resume(self) -> bool:
        """Restart the clock that was running before the pause (000 6.4e)."""
        with self._lock:
            if not self.paused:
                return False
            self.paused = False
            self._since = self._now()
            return True

    # ------------------------------------------------------------------ reading
    def times(self) -> tuple[int, int]:
        """(left_ms, right_ms) as of now."""
        with self._lock:
            self._settle_locked()
            return self._dial["left"].ms, self._dial["right"].ms

    def flag(self, hand: ClockHand) -> bool:
        with self._lock:
            self._settle_locked()
            return self._dial[hand].flag

    @property
    def counting(self) -> ClockHand | None:
        """The side whose dial is counting now (None when stopped or paused)."""
        with self._lock:
            return None if self.paused else self.running

    def __repr__(self) -> str:
        left, right = self.times()
        state = "paused" if self.paused else (f"{self.running} running" if self.running else "stopped")
        return f"<ClockModel {self.tc} left={left}ms right={right}ms {state} moves={self.moves}>"
