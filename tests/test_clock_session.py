"""Clock -> session: driver signals become rig.session.ClockEvent lines, and a clock emulator game
recorded into a session file reads back with rig.session.read_session."""

from __future__ import annotations

import io
import time

import pytest

from sensors.clock import (Disconnected, Flag, Pause, Press, Reconnected, Resume, SideMap, Times, session_events,
                       to_session_event)
from sensors.clock.emulator import FakeTime, LineClockEmulator
from sensors.clock.line import LineClock
from sensors.clock.serial_link import Backoff, UsbId, find_port, parse_port_spec
from rig.session import ClockEvent, Header, dump_event, read_session, write_session
from rig.rulesets import FMJD, FPD_2026
from rig.variants import INTERNATIONAL, PORTUGUESE


def test_signal_to_session_lines():
    press = to_session_event(Press(12.5, "white", 298_000, 300_000), t0=2.5, source="line")
    assert [e.to_json() for e in press] == [
        {"type": "clock", "t": 10.0, "event": "press", "side": "white", "white_ms": 298000, "black_ms": 300000,
         "source": "line"},
        {"type": "clock", "t": 10.0, "event": "time", "white_ms": 298000, "black_ms": 300000, "source": "line"}]
    (inferred,) = to_session_event(Press(3.0, "black", inferred=True))
    assert inferred.extra == {"inferred": True} and inferred.white_ms is None
    (replayed, _) = to_session_event(Press(9.0, "black", 1, 2, at=7.0, replayed=True))
    assert replayed.extra == {"clock_t": 7.0, "replayed": True}
    assert to_session_event(Flag(4.0, "black"))[0].to_json() == {"type": "clock", "t": 4.0, "event": "flag",
                                                                 "side": "black"}
    assert to_session_event(Disconnected(5.0, "unplugged"))[0].extra == {"reason": "unplugged"}
    assert to_session_event(Reconnected(6.0, 1.0, None))[0].extra == {"gap_s": 1.0, "state_lost": None}
    with pytest.raises(TypeError):
        to_session_event("press")  # type: ignore[arg-type]


def test_session_events_keep_time_order_and_thin_periodic_times():
    sigs = [Resume(1.0, "white"), Times(1.0, 1000, 1000, "white"), Times(1.5, 900, 1000, "white"),
            Times(2.1, 800, 1000, "white"), Press(2.2, "white", 800, 1000), Press(2.0, "black", at=1.9),
            Pause(3.0, 1, 2)]
    evs = session_events(sigs, t0=0.0, time_interval_s=1.0)
    assert [e.event for e in evs] == ["resume", "time", "time", "press", "time", "press", "pause"]
    assert [e.t for e in evs] == sorted(e.t for e in evs)
    assert evs[5].t == 2.2 and evs[5].extra["clock_t"] == 1.9  # late: clamped, its own time kept


def test_emulated_game_recorded_into_a_session_file_round_trips(tmp_path):
    ft = FakeTime(start=500.0)
    t0 = ft()
    backoff = Backoff(0.01, 2, 0.05)
    with LineClockEmulator("5+3", now=ft) as emu, LineClock(emu.path, now=ft, backoff=backoff) as clock:
        deadline = time.monotonic() + 3
        while clock.device_name is None and time.monotonic() < deadline:
            time.sleep(0.005)
        signals = []

        def wait(n_presses: int, kind=Press) -> None:
            end = time.monotonic() + 3
            while time.monotonic() < end:
                s = clock.get(timeout=0.01)
                if s is not None:
                    signals.append(s)
                if sum(isinstance(x, kind) for x in signals) >= n_presses:
                    return
            raise AssertionError(signals)

        emu.start_game("left")
        for i, hand in enumerate(["left", "right", "left", "right"]):
            ft.advance(3 + i)
            emu.tick()
            emu.press(hand)
        wait(4)
        ft.advance(1)
        emu.press("left")  # a press with no move on the board: the engine calls it clock-without-move
        wait(5)
        emu.unplug()
        wait(1, Disconnected)
        ft.advance(2)
        emu.press("right")
        emu.replug()
        wait(6)
        ft.advance(400)
        emu.tick()
        wait(1, Flag)

    events = session_events(signals, t0=t0, source="line")
    header = Header(variant=PORTUGUESE, ruleset=FPD_2026, tags={"TimeControl": "300+3"})
    path = tmp_path / "game.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        write_session(fh, header, events)
    read_header, read_events = read_session(str(path))
    assert read_header == header
    assert [dump_event(e) for e in read_events] == [dump_event(e) for e in events]
    assert all(isinstance(e, ClockEvent) for e in read_events)
    kinds = [e.event for e in read_events]
    assert kinds.count("press") == 6 and kinds.count("flag") == 1
    assert "disconnected" in kinds and "reconnected" in kinds
    assert kinds.index("disconnected") < kinds.index("reconnected")
    presses = [e for e in read_events if e.event == "press"]
    assert [p.side for p in presses] == ["white", "black", "white", "black", "white", "black"]
    assert presses[0].white_ms == 300_000 and presses[1].black_ms == 299_000  # 3 s, 4 s used, +3 each
    assert presses[-1].extra.get("replayed") is True
    assert read_events[0].t >= 0 and read_events[-1].event == "flag"


def test_port_specs_and_usb_discovery(tmp_path):
    class Port:
        def __init__(self, device, vid, pid, serial_number):
            self.device, self.vid, self.pid, self.serial_number = device, vid, pid, serial_number

    ports = [Port("/dev/ttyACM0", 0x2341, 0x0043, "A1"), Port("/dev/ttyACM1", 0x2341, 0x0043, "B2"),
             Port("/dev/ttyUSB0", 0x0403, 0x6001, None)]
    assert parse_port_spec("usb:2341:0043:B2") == UsbId(0x2341, 0x43, "B2")
    assert str(UsbId(0x2341, 0x43)) == "usb:2341:0043"
    assert find_port("usb:2341:0043:B2", lambda: ports) == "/dev/ttyACM1"
    assert find_port("usb:0403:6001", lambda: ports) == "/dev/ttyUSB0"
    assert find_port("usb:2341:0043", lambda: ports) == "/dev/ttyACM0"  # the first; logged as ambiguous
    with pytest.raises(ValueError):
        parse_port_spec("usb:xyz")
    with pytest.raises(FileNotFoundError):
        find_port("usb:1234:5678", lambda: ports)
    link = tmp_path / "by-id-clock"
    link.write_text("")
    assert find_port(str(link)) == str(link)


def test_side_map():
    m = SideMap("right")
    assert (m.side("right"), m.side("left"), m.hand("white"), m.hand("black")) == ("white", "black", "right", "left")
    with pytest.raises(ValueError):
        SideMap("top")  # type: ignore[arg-type]


def test_session_lines_parse_in_a_stream():
    evs = session_events([Press(1.0, "white", 5, 6), Flag(2.0, "black")])
    buf = io.StringIO()
    write_session(buf, Header(INTERNATIONAL, FMJD), evs)
    buf.seek(0)
    _, read = read_session(buf)
    assert [(e.event, e.side) for e in read] == [("press", "white"), ("time", None), ("flag", "black")]
