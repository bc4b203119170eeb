"""The serial clock drivers against their emulators over real pty pairs: presses, times, increments,
flag fall, pause/resume, garbage on the line, unplug/replug mid-game, and ``rig clock``."""

from __future__ import annotations

import json
import threading
import time

import pytest

from sensors.clock import Disconnected, Flag, Pause, Press, Reconnected, Resume, Times
from sensors.clock.dgt import DgtClock
from sensors.clock.emulator import DgtBoardEmulator, FakeTime, LineClockEmulator, make_emulator
from sensors.clock.line import LineClock, encode_frame
from sensors.clock.serial_link import Backoff
from sensors.clock.timecontrol import TimeControl

FAST = Backoff(initial=0.01, factor=2.0, maximum=0.05)
DRIVERS = {"dgt": DgtClock, "line": LineClock}


def collect(clock, until, timeout: float = 3.0) -> list:
    """Signals from ``clock`` until ``until(signals)`` holds; fails on timeout."""
    got: list = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sig = clock.get(timeout=0.01)
        if sig is not None:
            got.append(sig)
        if until(got):
            return got
    raise AssertionError(f"timed out waiting; got {got!r}")


def has(kind, n: int = 1, **fields):
    def pred(got: list) -> bool:
        return sum(isinstance(s, kind) and all(getattr(s, k) == v for k, v in fields.items()) for s in got) >= n
    return pred


def ready(protocol: str, emu, clock) -> None:
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline:
        if protocol == "dgt" and emu.mode == "update_nice":
            return
        if protocol == "line" and clock.device_name is not None:
            return
        time.sleep(0.005)
    raise AssertionError("driver did not finish its handshake")


@pytest.fixture(params=["dgt", "line"])
def rig(request):
    protocol = request.param
    ft = FakeTime()
    emu = make_emulator(protocol, "5+3", now=ft).start()
    clock = DRIVERS[protocol](emu.path, now=ft, backoff=FAST)
    clock.open()
    try:
        ready(protocol, emu, clock)
        yield protocol, emu, clock, ft
    finally:
        clock.close()
        emu.stop()


def test_game_presses_times_increment_pause_flag(rig):
    protocol, emu, clock, ft = rig
    emu.start_game("left")  # the arbiter starts White's clock (000 6.3c)
    collect(clock, has(Resume, running="white"))
    ft.advance(10)
    emu.tick()
    got = collect(clock, has(Times, white_ms=290000))
    assert got[-1].black_ms == 300000 and got[-1].running == "white"

    emu.press("left")  # White ends his move: +3 s Fischer increment
    press = collect(clock, has(Press))[-1]
    assert (press.side, press.white_ms, press.black_ms) == ("white", 293000, 300000)
    assert not press.inferred and not press.replayed

    ft.advance(5)
    emu.press("right")
    press = collect(clock, has(Press, side="black"))[-1]
    assert (press.white_ms, press.black_ms) == (293000, 298000)

    assert emu.press("right") == "ignored"  # the lever is already down on that side
    emu.pause()
    pause = collect(clock, has(Pause))[-1]
    assert (pause.white_ms, pause.black_ms) == (293000, 298000)
    ft.advance(100)  # paused: nothing counts
    emu.tick()
    emu.resume()
    collect(clock, has(Resume, running="white"))
    assert clock.state.white_ms == 293000

    ft.advance(293.5)
    emu.tick()
    got = collect(clock, has(Flag, side="white"))
    assert not any(isinstance(s, Press) for s in got)
    assert clock.state.flags == {"white"} and clock.state.white_ms == 0
    assert clock.state.presses == 2
    assert "flags=white" in repr(clock) and "connected" in repr(clock)


def test_white_on_the_right(rig):
    protocol, emu, clock, ft = rig
    clock.sides = type(clock.sides)("right")
    emu.start_game("right")
    collect(clock, has(Resume, running="white"))
    ft.advance(2)
    emu.press("right")
    press = collect(clock, has(Press))[-1]
    assert (press.side, press.white_ms, press.black_ms) == ("white", 301000, 300000)


def test_garbage_is_rejected_and_the_game_goes_on(rig):
    protocol, emu, clock, ft = rig
    emu.start_game("left")
    collect(clock, has(Resume))
    if protocol == "dgt":
        bad_bcd = bytes([0x8d, 0x00, 0x0a, 0x00, 0x5a, 0x00, 0x00, 0x99, 0x00, 0x01])  # 5a and 99: not BCD
        noise = b"\x13\x37\x00\x7f" + bad_bcd + b"\xff\x8d\x00"
        before = clock._decoder.rejected
    else:
        noise = (b"junk\r\n" + encode_frame("77 5 PRESS L 1 2")[:-6] + b"0000\r\n"  # bad CRC
                 + encode_frame("78 5 TIME 99999999999 0 L") + encode_frame("79 5 PRESS X 1 2"))
        before = clock._framer.rejected
    emu.inject(noise)
    emu.press("left")
    got = collect(clock, has(Press))
    assert [(s.side, s.white_ms) for s in got if isinstance(s, Press)] == [("white", 303000)]
    assert all(not isinstance(s, Times) or s.white_ms in (300000, 303000) for s in got)
    rejected = clock._decoder.rejected if protocol == "dgt" else clock._framer.rejected
    assert rejected > before


def test_unplug_replug_mid_game_keeps_the_press(rig):
    protocol, emu, clock, ft = rig
    emu.start_game("left")
    collect(clock, has(Resume))
    ft.advance(4)
    emu.press("left")
    collect(clock, has(Press, side="white"))

    emu.unplug()
    collect(clock, has(Disconnected))
    assert not clock.state.connected
    ft.advance(6)
    assert emu.press("right") == "press"  # Black moves and presses while the cable is out
    ft.advance(3)
    emu.replug()
    got = collect(clock, has(Press, side="black"))
    reconnected = [s for s in got if isinstance(s, Reconnected)]
    assert len(reconnected) == 1 and reconnected[0].gap_s == pytest.approx(9.0)
    press = [s for s in got if isinstance(s, Press)][-1]
    assert press.black_ms == 297000  # increment included
    if protocol == "dgt":
        assert press.inferred  # read from the lever position after the gap,
        assert press.white_ms == 296000  # with the times read then (White has been thinking for 3 s)
    else:
        assert press.white_ms == 299000  # the times at the press, as the clock recorded them
        assert press.replayed and press.at == pytest.approx(1010.0)  # replayed by the clock, with its time
    assert clock.state.connected and clock.state.presses == 2 == emu.model.moves

    ft.advance(1)
    emu.press("left")  # and the game goes on normally
    assert collect(clock, has(Press, side="white", n=1))[-1].inferred is False


def test_line_replays_several_presses_and_reports_a_restart():
    ft = FakeTime()
    with LineClockEmulator("3+2", now=ft) as emu, LineClock(emu.path, now=ft, backoff=FAST) as clock:
        ready("line", emu, clock)
        emu.start_game("left")
        collect(clock, has(Resume))
        emu.unplug()
        collect(clock, has(Disconnected))
        for hand in ("left", "right", "left"):
            ft.advance(2)
            emu.press(hand)
        ft.advance(1)
        emu.tick()
        emu.replug()
        got = collect(clock, has(Press, n=3))
        presses = [s for s in got if isinstance(s, Press)]
        assert [p.side for p in presses] == ["white", "black", "white"]
        assert [p.at for p in presses] == pytest.approx([1002.0, 1004.0, 1006.0])
        assert all(p.replayed for p in presses)

        emu.unplug()
        collect(clock, has(Disconnected))
        emu.reboot()  # power lost: the clock forgets everything
        emu.replug()
        got = collect(clock, has(Reconnected))
        assert got[-1].state_lost is True


def test_line_commands_set_time_control_and_start():
    ft = FakeTime()
    with LineClockEmulator("5+3", now=ft) as emu, LineClock(emu.path, now=ft, backoff=FAST) as clock:
        ready("line", emu, clock)
        assert clock.set_time_control(TimeControl.parse("10b5"))
        collect(clock, has(Times, white_ms=600000))
        assert clock.time_control == TimeControl.parse("10b5")
        clock.start("white")
        collect(clock, has(Resume, running="white"))
        ft.advance(2)
        emu.press("left")  # Bronstein: the 2 s used are given back (at most 5)
        assert collect(clock, has(Press))[-1].white_ms == 600000
        ft.advance(7)
        emu.press("right")  # 7 s used, 5 given back
        assert collect(clock, has(Press, side="black"))[-1].black_ms == 598000
        clock.pause()
        collect(clock, has(Pause))
        clock.resume()
        collect(clock, has(Resume, running="white"))
        clock._send("FROB")
        deadline = time.monotonic() + 2
        while not clock.errors and time.monotonic() < deadline:
            time.sleep(0.01)
        assert clock.errors[-1].code == "unknown-command"


def test_dgt_set_and_run_with_delay():
    ft = FakeTime()
    with DgtBoardEmulator("15d5", now=ft) as emu, DgtClock(emu.path, now=ft, backoff=FAST) as clock:
        ready("dgt", emu, clock)
        assert clock.set_and_run(60_000, 90_000, "black")
        collect(clock, has(Resume, running="black"))
        assert clock.state.white_ms == 60_000 and clock.state.black_ms == 90_000
        assert clock.acks and clock.acks[-1].ack0 == 0x10 and clock.acks[-1].ack1 == 0x0a
        ft.advance(8)  # simple delay: the first 5 s do not count
        emu.tick()
        collect(clock, has(Times, black_ms=87_000))
        emu.press("right")
        assert collect(clock, has(Press))[-1].black_ms == 87_000  # no increment with a delay


def test_no_clock_port_is_reported():
    from sensors.clock import ClockNotFoundError
    with pytest.raises(ClockNotFoundError):
        LineClock("/nonexistent/clock").open()
    with pytest.raises(FileNotFoundError):  # a ClockNotFoundError is also the built-in
        DgtClock("usb:0403:6001:NOSUCH", comports=lambda: []).open()


def test_cli_prints_json_events_until_the_port_closes(capsys):
    from rig.cli import main
    ft = FakeTime()
    with LineClockEmulator("5+3", now=ft) as emu:
        result: dict = {}
        t = threading.Thread(target=lambda: result.setdefault("rc", main(
            ["clock", "--port", emu.path, "--protocol", "line", "--json"])))
        t.start()
        deadline = time.monotonic() + 3
        while b"HELLO" not in bytes(emu.received) and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(0.05)
        emu.start_game("left")
        ft.advance(1)
        emu.press("left")
        time.sleep(0.1)
        emu.unplug()
        t.join(timeout=3)
    assert result.get("rc") == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    events = [x["event"] for x in lines]
    assert events[:2] == ["resume", "time"] and events[-1] == "disconnected"
    press = next(x for x in lines if x["event"] == "press")
    assert press["side"] == "white" and press["white_ms"] == 302000


def test_cli_demo_text_output(capsys):
    from rig.cli import main
    assert main(["clock", "--protocol", "dgt", "--demo"]) == 0
    out = capsys.readouterr().out
    assert out.count(" press ") == 6 and " pause " in out and out.rstrip().splitlines()[-1].split()[1] == "disconnected"
