"""Fuzzed input on both clock parsers: never a crash, never a bogus event."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sensors.clock import SIDES, Flag, Pause, Press, Resume, Times
from sensors.clock.dgt import (BoardMessage, BwTime, ClockAck, DgtClock, DgtDecoder, decode_bwtime, encode_ack,
                           encode_bwtime)
from sensors.clock.emulator import FakeTime
from sensors.clock.line import LineClock, LineFramer, device_line, encode_frame, parse_device
from sensors.clock.timecontrol import MAX_CLOCK_MS

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

seconds = st.integers(0, 9 * 3600 + 3599).map(lambda s: s * 1000)
bwtimes = st.builds(BwTime, right_ms=seconds, left_ms=seconds, right_flag=st.booleans(), left_flag=st.booleans(),
                    right_per_move=st.booleans(), left_per_move=st.booleans(), running=st.booleans(),
                    lever_right_high=st.booleans(), battery_low=st.booleans(), right_turn=st.booleans(),
                    left_turn=st.booleans(), no_clock=st.booleans()).filter(
    lambda r: any(encode_bwtime(r)[3:]))  # an all-zero reading is ignored by design (dgtbrd.h)


def feed_chunks(decoder, data: bytes, cuts: list[int]) -> list:
    out, last = [], 0
    for c in sorted(set(min(c, len(data)) for c in cuts)) + [len(data)]:
        out += decoder.feed(data[last:c])
        last = c
    return out


def valid_signal(sig) -> bool:
    if isinstance(sig, Times):
        return 0 <= sig.white_ms <= MAX_CLOCK_MS and 0 <= sig.black_ms <= MAX_CLOCK_MS and sig.running in (*SIDES, None)
    if isinstance(sig, Press):
        return sig.side in SIDES and all(v is None or 0 <= v <= MAX_CLOCK_MS for v in (sig.white_ms, sig.black_ms))
    if isinstance(sig, Flag):
        return sig.side in SIDES
    if isinstance(sig, Pause):
        return all(v is None or 0 <= v <= MAX_CLOCK_MS for v in (sig.white_ms, sig.black_ms))
    if isinstance(sig, Resume):
        return sig.running in (*SIDES, None)
    return False


# --------------------------------------------------------------------------- DGT


@SETTINGS
@given(st.binary(max_size=400), st.lists(st.integers(0, 400), max_size=6))
def test_dgt_random_bytes_never_crash_and_give_only_sane_messages(data, cuts):
    decoder = DgtDecoder()
    msgs = feed_chunks(decoder, data, cuts)
    assert msgs == DgtDecoder().feed(data)  # however the bytes arrive
    for m in msgs:
        assert isinstance(m, (BwTime, ClockAck, BoardMessage))
        if isinstance(m, BwTime):
            assert 0 <= m.left_ms <= MAX_CLOCK_MS and 0 <= m.right_ms <= MAX_CLOCK_MS
            assert m.left_ms % 1000 == 0 and m.right_ms % 1000 == 0
        if isinstance(m, BoardMessage):
            assert all(b < 0x80 for b in m.data)
    driver = DgtClock("/unused", now=FakeTime())
    for m in msgs:
        assert all(valid_signal(s) for s in driver.interpret(m))


@SETTINGS
@given(st.binary(max_size=200).map(lambda b: bytes(x & 0x7f for x in b)))
def test_dgt_data_bytes_alone_never_make_a_message(data):
    assert DgtDecoder().feed(data) == []


@SETTINGS
@given(st.binary(max_size=200), bwtimes)
def test_dgt_good_message_after_garbage_is_recovered(garbage, reading):
    msgs = DgtDecoder().feed(garbage + encode_bwtime(reading))
    assert msgs and msgs[-1] == reading


@SETTINGS
@given(bwtimes, st.sampled_from([1, 2, 4, 5]), st.integers(0x0a, 0x0f), st.booleans())
def test_dgt_bad_bcd_never_gives_times(reading, index, nibble, high):
    frame = bytearray(encode_bwtime(reading))
    data = bytearray(frame[3:])
    data[index] = (nibble << 4 | (data[index] & 0x0f)) if high else ((data[index] & 0x70) | nibble)
    if data[index] & 0x80:
        return
    assert not isinstance(decode_bwtime(bytes(data)), BwTime)


@SETTINGS
@given(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))
def test_dgt_ack_roundtrip(a0, a1, a2, a3):
    assert DgtDecoder().feed(encode_ack(a0, a1, a2, a3)) == [ClockAck(a0, a1, a2, a3)]


# --------------------------------------------------------------------------- line protocol

line_msgs = st.one_of(
    st.tuples(st.just("TIME"), seconds, seconds, st.sampled_from(["L", "R", "-"])),
    st.tuples(st.just("PRESS"), st.sampled_from(["L", "R"]), seconds, seconds),
    st.tuples(st.just("FLAG"), st.sampled_from(["L", "R"])),
    st.tuples(st.just("PAUSE"), seconds, seconds),
    st.tuples(st.just("RESUME"), st.sampled_from(["L", "R"])),
)


def decode_lines(data: bytes, cuts: list[int] | None = None) -> list:
    framer = LineFramer()
    bodies = feed_chunks(framer, data, cuts or [])
    return [m for m in (parse_device(b) for b in bodies) if m is not None]


@SETTINGS
@given(st.binary(max_size=400), st.lists(st.integers(0, 400), max_size=6))
def test_line_random_bytes_never_crash(data, cuts):
    msgs = decode_lines(data, cuts)
    assert msgs == decode_lines(data)
    driver = LineClock("/unused", now=FakeTime())
    for m in msgs:
        for s in driver.interpret(m):
            assert valid_signal(s)


@SETTINGS
@given(st.text(alphabet="0123456789ABCDEF LRPESTIMHOFLAGUCK-$*\r\n", max_size=300))
def test_line_accepts_only_frames_present_with_their_crc(text):
    data = text.encode()
    for body in LineFramer().feed(data):
        assert encode_frame(body)[:-2].upper() in data.upper()


@SETTINGS
@given(st.integers(0, 65535), st.integers(0, 2**32 - 1), line_msgs, st.data())
def test_line_corrupted_byte_never_gives_another_message(seq, up, msg, data):
    frame = device_line(seq, up, *msg)
    good = decode_lines(frame)
    assert len(good) == 1 and good[0].verb == msg[0]
    i = data.draw(st.integers(0, len(frame) - 1))
    b = data.draw(st.integers(0, 255).filter(lambda x: x != frame[i]))
    bad = frame[:i] + bytes([b]) + frame[i + 1:]
    assert decode_lines(bad) in ([], good)  # rejected, or (hex case change in the CRC) the same message


@SETTINGS
@given(st.binary(max_size=300).filter(lambda b: b"\n" not in b), st.integers(0, 65535), line_msgs,
       st.lists(st.integers(0, 400), max_size=4))
def test_line_good_frame_after_garbage_is_recovered(garbage, seq, msg, cuts):
    frame = device_line(seq, 1, *msg)
    got = decode_lines(garbage + frame, cuts)
    assert got == decode_lines(frame)


@SETTINGS
@given(st.integers(0, 65535), st.integers(MAX_CLOCK_MS + 1, 10**10 - 1), st.sampled_from(["TIME", "PRESS", "PAUSE"]))
def test_line_out_of_range_times_are_rejected(seq, ms, verb):
    args = {"TIME": (ms, 0, "L"), "PRESS": ("L", 0, ms), "PAUSE": (ms, 0)}[verb]
    assert decode_lines(device_line(seq, 5, verb, *args)) == []
