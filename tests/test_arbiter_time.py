"""The arbiter's ``time`` action takes effect: the times shown, the record's clock stamps and the hub's clock
messages carry the time added or taken from the action on; a clock read over USB wins at its next reading;
the review API refuses bad values (4xx) and leaves the game untouched; ``rig transcribe`` reproduces it."""

from __future__ import annotations

import httpx
import pytest

from rig.hub.messages import Messages
from rig.reconstruct import ClockUpdate, Reconstructor
from rig.session import ArbiterEvent, ClockEvent, read_session
from session_builder import SessionBuilder
from test_web_arbiter import AUTH, post, transcribe
from web_helpers import BoardRig, session_of, wait_for

MIN = 60_000


def opening(source: str | None = None) -> SessionBuilder:
    """Two moves with presses; every clock line from ``source`` (None: no source, the rig's own times)."""
    b = SessionBuilder("portuguese", clock_header=True)
    extra = {"source": source} if source else {}
    for text, side, times in (("9-13", "white", (598_000, 600_000)), ("23-19", "black", (598_000, 597_000))):
        b.move(text)
        press(b, side, times, extra)
    return b


def press(b: SessionBuilder, side: str, times: tuple[int, int], extra: dict | None = None) -> None:
    """A press as the clock drivers journal it: the press with its times, then a time line."""
    b.wait(0.3)
    b.events.append(ClockEvent(b.t, "press", side, *times, extra=dict(extra or {})))
    b.events.append(ClockEvent(b.t, "time", None, *times, extra=dict(extra or {})))


def clocks(outs) -> list[tuple[int, int]]:
    return [(o.white_ms, o.black_ms) for o in outs if isinstance(o, ClockUpdate)]


def feed_all(engine: Reconstructor, events) -> list:
    outs: list = []
    for ev in events:
        outs += engine.feed(ev)
    return outs


def test_time_added_shows_at_once_and_in_every_later_reading():
    b = opening()
    b.arbiter("time", side="white", delta_ms=2 * MIN, note="opponent's phone rang")
    b.wait(1.0)
    b.events.append(ClockEvent(b.t, "time", None, 596_000, 597_000))
    b.move("13-17")
    press(b, "white", (594_000, 597_000))
    engine = Reconstructor(b.header)
    outs = feed_all(engine, b.events)
    seen = clocks(outs)
    assert (598_000 + 2 * MIN, 597_000) in seen                      # at the action, from the last reading
    assert (596_000 + 2 * MIN, 597_000) in seen                      # the clock's next reading, corrected
    assert seen[-1] == (594_000 + 2 * MIN, 597_000)
    last = [m for m in engine.moves if not m.withdrawn][-1]
    assert last.move_text == "13-17" and last.clock_ms == 594_000 + 2 * MIN
    pdn = engine.pdn()
    assert "[%clock W0:11:54 b0:09:57]" in pdn or "w0:11:54" in pdn.lower()     # the record's stamp
    assert "120 s added to white's clock: opponent's phone rang" in " ".join(
        o.text for o in outs if type(o).__name__ == "Note")


def test_time_taken_never_below_zero_and_for_the_named_side_only():
    b = opening()
    b.arbiter("time", side="black", delta_ms=-30 * MIN)
    engine = Reconstructor(b.header)
    seen = clocks(feed_all(engine, b.events))
    assert seen[-1] == (598_000, 0)


@pytest.mark.parametrize("source", ["dgt", "line", "gpio"])
def test_a_clock_driver_s_next_reading_wins(source):
    """The arbiter sets a clock read over USB with his own hand (the rig sets its own GPIO clock model): the
    rig shows the correction at once and the clock's next reading (which carries it) replaces it; nothing is
    added twice."""
    b = opening(source)
    b.arbiter("time", side="black", delta_ms=MIN)
    b.wait(1.0)
    b.events.append(ClockEvent(b.t, "time", None, 596_000, 657_000, extra={"source": source}))
    b.wait(5.0)
    b.events.append(ClockEvent(b.t, "time", None, 591_000, 657_000, extra={"source": source}))
    engine = Reconstructor(b.header)
    seen = clocks(feed_all(engine, b.events))
    assert seen[-3:] == [(598_000, 597_000 + MIN), (596_000, 657_000), (591_000, 657_000)]


def test_hub_clock_message_carries_the_correction():
    b = opening()
    engine = Reconstructor(b.header)
    m = Messages("b1", "t", 1, "s1")
    feed_all(engine, b.events)
    msgs = m.from_outputs(engine, engine.feed(ArbiterEvent(b.t + 1, "time", side="white", delta_ms=MIN)))
    clock = [x for x in msgs if x["kind"] == "clock"]
    assert clock and clock[-1]["white_ms"] == 598_000 + MIN and clock[-1]["black_ms"] == 597_000


@pytest.fixture(scope="module")
def game():
    return session_of("portuguese", 16)


def test_pages_api_and_pdn_follow_the_action_and_transcribe_reproduces_it(tmp_path, game):
    half = game.events[len(game.events) // 2].t
    with BoardRig(tmp_path, game) as rig, httpx.Client(base_url=rig.url, timeout=10) as client:
        rig.release_until(half)
        rig.settle()
        wait_for(lambda: client.get("/api/game").json()["clock"] is not None)
        before = client.get("/api/game").json()["clock"]
        body = post(client, action="time", side="black", delta_ms=90_000, note="FPD 7.5b: white's penalty")
        assert body["lines"][0]["delta_ms"] == 90_000
        # journaled within the page's wait, or queued (202) on a loaded machine: shown once applied
        after = wait_for(lambda: (c := client.get("/api/game").json()["clock"])["black_ms"] != before["black_ms"]
                         and c)
        assert after["black_ms"] == before["black_ms"] + 90_000 and after["white_ms"] == before["white_ms"]
        rig.release_all()
        rig.settle()
        wait_for(lambda: rig.engine.moves and len(rig.engine.moves) >= 16)
        # the journal has the arbiter line before the clock line that follows it
        _, events = read_session(rig.paths.session)
        k = next(i for i, e in enumerate(events) if isinstance(e, ArbiterEvent))
        assert events[k].action == "time" and events[k].side == "black"
        later = [e for e in events[k + 1:] if isinstance(e, ClockEvent) and e.event == "time"]
        raw = later[-1]
        final = client.get("/api/game").json()["clock"]
        assert final["black_ms"] == raw.black_ms + 90_000 and final["white_ms"] == raw.white_ms
        pdn = client.get("/game.pdn").text
    replayed, _ = transcribe(rig.paths.session, tmp_path)
    assert replayed == rig.engine.pdn() == pdn
    # a black move after the action carries his corrected time in its clock stamp
    after_moves = [m for m in rig.engine.moves if m.t > events[k].t and m.side == "black" and not m.withdrawn]
    presses = [e for e in events[k + 1:] if isinstance(e, ClockEvent) and e.black_ms is not None]
    assert after_moves and after_moves[-1].clock_ms in {p.black_ms + 90_000 for p in presses}


@pytest.mark.parametrize("action,message", [
    ({"side": "black", "delta_ms": "60000"}, "'delta_ms' must be an integer"),
    ({"side": "black", "delta_ms": 1.5}, "'delta_ms' must be an integer"),
    ({"side": "black", "delta_ms": True}, "'delta_ms' must be an integer"),
    ({"side": "black", "delta_ms": 10**12}, "at most"),
    ({"side": "black", "delta_ms": -10**12}, "at most"),
    ({"side": "black", "delta_ms": 0}, "non-zero"),
    ({"side": "red", "delta_ms": 60000}, "'side'"),
    ({"delta_ms": 60000}, "'side'"),
    ({"side": "white"}, "'delta_ms' must be an integer"),
    ({"side": "white", "delta_ms": 60000, "seconds": 60}, "does not take 'seconds'"),
], ids=["string", "float", "bool", "absurd", "absurd-taken", "zero", "side", "no-side", "no-delta", "extra"])
def test_bad_time_actions_are_refused_and_change_nothing(tmp_path, game, action, message):
    with BoardRig(tmp_path, game) as rig, httpx.Client(base_url=rig.url, timeout=10) as client:
        rig.release_until(game.events[len(game.events) // 3].t)
        rig.settle()
        before = client.get("/api/game").json()
        lines = len(rig.journal_lines())
        r = client.post("/arbiter/api/action", json={"action": "time", **action}, headers=AUTH)
        assert r.status_code == 400 and message in r.json()["error"], r.text
        r = client.post("/arbiter/api/action", json={"action": "time", "side": "white", "delta_ms": 60000})
        assert r.status_code == 401                                          # no token
        rig.settle()
        assert len(rig.journal_lines()) == lines
        now = client.get("/api/game").json()
        assert now["clock"] == before["clock"] and now["seq"] == before["seq"]


@pytest.mark.parametrize("white_side", ["left", "right"])
def test_the_simulated_arbiter_sets_the_emulated_clock(white_side):
    """``rig run --simulate``: the journaled correction sets the emulator's dial of that side, as an arbiter
    sets a real clock; its next reading over the (emulated) USB line carries it."""
    from rig.live.arbiter_hand import ArbiterHand
    from sensors.clock.emulator import FakeTime, make_emulator

    now = FakeTime()
    emu = make_emulator("line", "5+3", now=now)
    emu.model.start("left")
    now.advance(10.0)
    hand = ArbiterHand(lambda: emu.model, white_side)
    left, right = emu.model.times()
    hand.on_event(None, ArbiterEvent(12.0, "time", side="black", delta_ms=MIN))
    black_left = white_side == "right"
    assert emu.model.times() == ((left + MIN, right) if black_left else (left, right + MIN))
    hand.on_event(None, ArbiterEvent(13.0, "time", side="white", delta_ms=-60 * MIN))
    assert emu.model.times()[1 if black_left else 0] == 0                  # never below zero
    hand.on_event(None, ArbiterEvent(14.0, "result", result="1-0"))         # other decisions: nothing
    assert hand.corrections == 2
    assert ArbiterHand(lambda: None).on_event(None, ArbiterEvent(15.0, "time", side="white", delta_ms=MIN)) is None
    emu.port.close()


def test_the_gpio_clock_model_follows_the_arbiter():
    """``--clock-gpio``: the rig keeps the time; the correction sets its model, and its readings carry it."""
    from gpiozero.pins.mock import MockFactory

    from rig.live.arbiter_hand import ArbiterHand
    from sensors.clock.emulator import FakeTime
    from sensors.clock.gpio import GpioClock

    now = FakeTime()
    seen: list = []
    clock = GpioClock("5+3", now=now, on_signal=seen.append, pin_factory=MockFactory(), ticker=False)
    clock.open()
    try:
        clock.start("white")
        now.advance(4.0)
        ArbiterHand(lambda: clock.model, "left").on_event(None, ArbiterEvent(4.0, "time", side="white", delta_ms=MIN))
        now.advance(6.0)
        clock.tick()
        times = [s for s in seen if type(s).__name__ == "Times"]
        assert times and times[-1].white_ms == 5 * MIN - 10_000 + MIN and times[-1].black_ms == 5 * MIN
    finally:
        clock.close()
