"""A clock made of two push buttons on the Pi's GPIO (and optionally a pause button): the Pi keeps
the time (:class:`~sensors.clock.model.ClockModel` on ``time.monotonic``).

Wiring (docs/clock.md): each button between its GPIO pin and GND, internal pull-up on;
defaults BCM 4 (left player), BCM 18 (right player), BCM 7 (pause/resume, the
arbiter's, 000 6.4c). gpiozero is imported only when the clock is opened, so this
module loads anywhere; tests use ``gpiozero.pins.mock.MockFactory``.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

from sensors.clock import ClockDevice, ClockHand, ClockSignal, Flag, Pause, Press, Resume, Times
from sensors.clock.model import ClockModel
from sensors.clock.timecontrol import TimeControl
from sensors.pinmap import CLOCK_BUTTON_PINS

__all__ = ["GpioClock", "DEFAULT_PINS"]

#: BCM pin numbers: left button, right button, pause button.
DEFAULT_PINS = dict(CLOCK_BUTTON_PINS)


class GpioClock(ClockDevice):
    """Two buttons, one per player. The player whose clock runs ends his move by pressing his button
    (000 6.2a); a press on the other button does nothing, as on a mechanical clock. Before the game
    starts, either button starts the opponent's clock (000 6.3c). :meth:`tick` settles the time, reports
    flags at once (004 art. 29) and the times every ``time_every_s``; a ticker thread calls it every
    ``tick_s`` unless ``ticker=False`` (tests call it themselves with an injected ``now``)."""

    source = "gpio"

    def __init__(self, tc: TimeControl | str, *, left_pin: int | str = DEFAULT_PINS["left"],
                 right_pin: int | str = DEFAULT_PINS["right"], pause_pin: int | str | None = None,
                 white_side: ClockHand = "left", now: Callable[[], float] = time.monotonic,
                 bounce_s: float | None = 0.02,
                 pin_factory: Any = None, ticker: bool = True, tick_s: float = 0.05, time_every_s: float = 1.0,
                 on_signal: Callable[[ClockSignal], None] | None = None):
        super().__init__(white_side=white_side, now=now, on_signal=on_signal)
        self.tc = TimeControl.parse(tc) if isinstance(tc, str) else tc
        self.model = ClockModel(self.tc, now=now)
        self.pins = {"left": left_pin, "right": right_pin, "pause": pause_pin}
        self.bounce_s = bounce_s
        self._pin_factory = pin_factory
        self._ticker, self.tick_s, self.time_every_s = ticker, tick_s, time_every_s
        self._buttons: dict[str, Any] = {}
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_times_at = float("-inf")

    # -- life cycle
    def open(self) -> "GpioClock":
        if self._buttons:
            return self
        from gpiozero import Button  # not at import time: the rig runs (and tests) off the Pi

        kw: dict[str, Any] = {"pull_up": True, "bounce_time": self.bounce_s}
        if self._pin_factory is not None:
            kw["pin_factory"] = self._pin_factory
        try:
            for name in ("left", "right", "pause"):
                if self.pins[name] is None:
                    continue
                button = Button(self.pins[name], **kw)
                button.when_pressed = self._callback(name)
                self._buttons[name] = button
        except Exception:
            self._close_buttons()
            raise
        self._set_connected(True)
        self._stop.clear()
        if self._ticker:
            self._thread = threading.Thread(target=self._tick_loop, name="gpio-clock", daemon=True)
            self._thread.start()
        return self

    def _close_buttons(self) -> None:
        for b in self._buttons.values():
            b.close()
        self._buttons.clear()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
            self._thread = None
        self._close_buttons()
        self._set_connected(False)
        self._end()

    def _tick_loop(self) -> None:
        while not self._stop.wait(self.tick_s):
            self.tick()

    # -- inputs
    def _callback(self, name: str) -> Callable[[], None]:
        return lambda: self._button(name)

    def _button(self, name: str) -> None:
        if name == "pause":
            self.toggle_pause()
        else:
            self.press(name)  # type: ignore[arg-type]

    def press(self, hand: ClockHand) -> str:
        """What the button of ``hand`` does (also callable directly, e.g. from a keyboard)."""
        with self._lock:
            self._check_flags()
            outcome = self.model.press(hand)
            now = self._now()
            left, right = self.model.times()
            w, b = (left, right) if self.sides.white == "left" else (right, left)
            if outcome == "press":
                self._emit(Press(now, self.sides.side(hand), w, b))
            elif outcome == "start":
                running = self.sides.side(self.model.running)  # type: ignore[arg-type]
                self._emit(Resume(now, running))
                self._emit(Times(now, w, b, running))
                self._last_times_at = now
            return outcome

    def start(self, side: str = "white") -> None:
        """The arbiter starts ``side``'s clock (000 6.3c)."""
        with self._lock:
            self.model.start(self.sides.hand(side))  # type: ignore[arg-type]
            self._emit(Resume(self._now(), side))  # type: ignore[arg-type]

    def toggle_pause(self) -> None:
        with self._lock:
            self._check_flags()  # a flag that fell before the pause is reported before it
            if self.model.paused:
                if self.model.resume() and self.model.running:
                    self._emit(Resume(self._now(), self.sides.side(self.model.running)))
            elif self.model.pause():
                left, right = self.model.times()
                w, b = (left, right) if self.sides.white == "left" else (right, left)
                self._emit(Pause(self._now(), w, b))

    def _check_flags(self) -> None:
        for hand in self.model.settle():
            self._emit(Flag(self._now(), self.sides.side(hand)))

    def tick(self) -> None:
        """Settle the time: report fallen flags, and the times every ``time_every_s`` while running."""
        with self._lock:
            self._check_flags()
            now = self._now()
            if self.model.counting is not None and now - self._last_times_at >= self.time_every_s:
                left, right = self.model.times()
                w, b = (left, right) if self.sides.white == "left" else (right, left)
                self._emit(Times(now, w, b, self.sides.side(self.model.counting)))
                self._last_times_at = now

    def __repr__(self) -> str:
        pins = ", ".join(f"{k}={v}" for k, v in self.pins.items() if v is not None)
        return super().__repr__()[:-1] + f" {self.tc} pins({pins})>"
