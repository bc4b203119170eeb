"""The GPIO button clock on gpiozero mock pins; the Pi keeps the time (injected clock)."""

from __future__ import annotations

import time

import pytest

from sensors.clock import Flag, Pause, Press, Resume, Times
from sensors.clock.emulator import FakeTime
from sensors.clock.gpio import DEFAULT_PINS, GpioClock


@pytest.fixture
def pins():
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


def push(factory, pin: int) -> None:
    p = factory.pin(pin)
    p.drive_low()   # buttons pull up: pressed = low
    p.drive_high()
    time.sleep(0.025)  # past the 20 ms debounce


def test_buttons_press_times_increment_pause_flag(pins):
    ft = FakeTime()
    with GpioClock("1+2", now=ft, ticker=False, pause_pin=DEFAULT_PINS["pause"]) as clock:
        assert "connected" in repr(clock) and f"left={DEFAULT_PINS['left']}" in repr(clock)
        push(pins, DEFAULT_PINS["right"])  # Black's button starts White's clock (000 6.3c)
        assert [type(s) for s in clock.poll()] == [Resume, Times]
        assert clock.state.running == "white"
        ft.advance(10)
        clock.tick()
        assert clock.poll() == [Times(ft(), 50_000, 60_000, "white")]
        push(pins, DEFAULT_PINS["right"])  # not Black's turn: nothing happens
        assert clock.poll() == []
        push(pins, DEFAULT_PINS["left"])
        assert clock.poll() == [Press(ft(), "white", 52_000, 60_000)]
        ft.advance(5)
        push(pins, DEFAULT_PINS["pause"])
        assert clock.poll() == [Pause(ft(), 52_000, 55_000)]
        ft.advance(30)
        push(pins, DEFAULT_PINS["pause"])
        assert clock.poll() == [Resume(ft(), "black")]
        ft.advance(56)
        clock.tick()
        got = clock.poll()
        assert Flag(ft(), "black") in got and clock.state.flags == {"black"}
        assert clock.state.black_ms == 0
    assert clock.ended and "not connected" not in repr(clock)


def test_a_flag_that_falls_before_a_pause_is_reported_before_the_pause(pins):
    """The arbiter pauses after the running dial reached zero but before a tick saw it: the flag comes first,
    stamped at the pause, and is not lost (the dials were brought up to date by the pause)."""
    ft = FakeTime()
    with GpioClock("0.05", now=ft, ticker=False, pause_pin=DEFAULT_PINS["pause"]) as clock:
        clock.start("white")
        clock.poll()
        ft.advance(4)
        push(pins, DEFAULT_PINS["pause"])
        assert clock.poll() == [Flag(ft(), "white"), Pause(ft(), 0, 3_000)]
        clock.tick()
        assert clock.poll() == [] and clock.state.flags == {"white"}


def test_white_on_the_right_and_ticker_thread(pins):
    ft = FakeTime()
    with GpioClock("0.05", now=ft, white_side="right", left_pin=5, right_pin=6, tick_s=0.005) as clock:
        clock.start("white")
        assert clock.model.running == "right"
        ft.advance(3.5)
        deadline = time.monotonic() + 2
        while "white" not in clock.state.flags and time.monotonic() < deadline:
            time.sleep(0.005)
        assert clock.state.flags == {"white"}
        push(pins, 6)
        assert any(isinstance(s, Press) and s.side == "white" for s in clock.poll())


def test_nothing_pi_only_is_imported_with_the_package():
    import subprocess
    import sys
    code = ("import sys, sensors.clock, sensors.clock.gpio, sensors.clock.dgt, sensors.clock.line, sensors.clock.emulator;"
            "bad = [m for m in ('gpiozero', 'lgpio', 'RPi', 'serial') if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
