"""Time controls, the rate-of-play classes (000 Appendix B/C; 004 art. 3) and the clock model."""

from __future__ import annotations

import pytest

from sensors.clock.emulator import FakeTime
from sensors.clock.model import ClockModel
from sensors.clock.timecontrol import IncrementMode, RateClass, TimeControl, TimeControlError, classify


@pytest.mark.parametrize("text, base, inc, mode, tag", [
    ("5", 300_000, 0, IncrementMode.NONE, "300"),
    ("5min", 300_000, 0, IncrementMode.NONE, "300"),
    ("5+3", 300_000, 3_000, IncrementMode.FISCHER, "300+3"),
    ("90+30", 5_400_000, 30_000, IncrementMode.FISCHER, "5400+30"),
    ("15d5", 900_000, 5_000, IncrementMode.DELAY, "900d5"),
    ("25b10", 1_500_000, 10_000, IncrementMode.BRONSTEIN, "1500b10"),
    ("300s+2.5", 300_000, 2_500, IncrementMode.FISCHER, "300+2.5"),
    ("7.5", 450_000, 0, IncrementMode.NONE, "450"),
])
def test_parse_and_pdn_tag(text, base, inc, mode, tag):
    tc = TimeControl.parse(text)
    assert (tc.base_ms, tc.increment_ms, tc.mode, tc.pdn_tag()) == (base, inc, mode, tag)
    assert TimeControl.from_pdn_tag(tag) == tc


@pytest.mark.parametrize("text", ["", "abc", "5+", "+3", "0", "600", "5x3", "-5"])
def test_bad_time_controls_are_rejected(text):
    with pytest.raises(TimeControlError):
        TimeControl.parse(text)
    with pytest.raises(ValueError):  # also the built-in
        TimeControl.parse(text)


@pytest.mark.parametrize("tc, minutes, rate, rule, gap", [
    ("3", 3, RateClass.BELOW_BLITZ, "000 C.1", False),   # C.1: more than 3 minutes
    ("3.5", 3.5, RateClass.BLITZ, "000 C.1", False),
    ("5", 5, RateClass.BLITZ, "000 C.1", False),
    ("3+2", 4, RateClass.BLITZ, "000 C.1", False),       # 3 min + 30 x 2 s
    ("7.5", 7.5, RateClass.BLITZ, "000 B.1, C.1", True),  # in neither appendix: the faster class
    ("5+5", 7.5, RateClass.BLITZ, "000 B.1, C.1", True),
    ("8+1", 8.5, RateClass.RAPID, "000 B.1", False),
    ("10", 10, RateClass.RAPID, "000 B.1", False),
    ("14", 14, RateClass.RAPID, "000 B.1", False),
    ("15", 15, RateClass.CLASSICAL, "000 B.1", False),    # the standard game
    ("10+4", 12, RateClass.CLASSICAL, "000 B.1", False),  # B.1 as written: under 10 min with an increment
])
def test_fpd_appendices(tc, minutes, rate, rule, gap):
    r = classify(TimeControl.parse(tc), "fpd-2026")
    assert (r.minutes, r.rate, r.rule) == (minutes, rate, rule)
    assert ("GAP_POLICY" in r.note) is gap
    assert classify(TimeControl.parse(tc), "fpd-classic") == r


@pytest.mark.parametrize("ruleset, tc, rate, note", [
    ("codex-64", "9", RateClass.BLITZ, False),
    ("codex-64", "10", RateClass.BLITZ, True),         # art. 3 A < 10, B > 10: gap -> faster
    ("codex-64", "15", RateClass.RAPID, False),
    ("codex-64", "20", RateClass.RAPID, True),          # 20..21 in neither B nor C
    ("codex-64", "21", RateClass.RAPID, True),
    ("codex-64", "30", RateClass.SEMI_RAPID, False),
    ("codex-64", "45", RateClass.CLASSICAL, False),     # D: 45 or more
    ("codex-100", "25", RateClass.RAPID, False),
    ("codex-100", "30.5", RateClass.RAPID, True),
    ("codex-100", "60", RateClass.SEMI_RAPID, False),
    ("codex-100", "75", RateClass.CLASSICAL, False),
    ("codex-100", "60+30", RateClass.SEMI_RAPID, False),  # the increment is not counted by art. 3
    ("fmjd", "90+30", RateClass.CLASSICAL, True),
])
def test_codex_art3(ruleset, tc, rate, note):
    r = classify(TimeControl.parse(tc), ruleset)
    assert r.rate is rate
    assert r.rule.startswith("004 art. 3")
    assert bool(r.note) is note


def test_unknown_ruleset():
    with pytest.raises(TimeControlError):
        classify(TimeControl.parse("5"), "chess")


# --------------------------------------------------------------------------- the model


def model(tc: str) -> tuple[ClockModel, FakeTime]:
    ft = FakeTime()
    return ClockModel(TimeControl.parse(tc), now=ft), ft


def test_fischer_and_start():
    m, ft = model("1+2")
    assert m.press("right") == "start" and m.running == "left"  # Black's press starts White's clock
    ft.advance(10)
    assert m.press("right") == "ignored"
    assert m.press("left") == "press"
    assert m.times() == (52_000, 60_000) and m.running == "right" and m.moves == 1


def test_bronstein_gives_back_at_most_the_time_used():
    m, ft = model("1b5")
    m.start("left")
    ft.advance(3)
    m.press("left")
    assert m.times()[0] == 60_000
    ft.advance(8)
    m.press("right")
    assert m.times()[1] == 57_000


def test_delay_counts_only_after_the_delay():
    m, ft = model("1d5")
    m.start("left")
    ft.advance(4)
    assert m.times() == (60_000, 60_000)
    ft.advance(3)
    assert m.times() == (58_000, 60_000)
    m.press("left")
    ft.advance(5)
    assert m.times() == (58_000, 60_000)  # a fresh delay for Black


def test_pause_resume_and_flag():
    m, ft = model("0.1")
    m.start("left")
    ft.advance(2)
    assert m.pause() and not m.pause()
    ft.advance(100)
    assert m.press("left") == "ignored"
    assert m.times() == (4_000, 6_000)
    assert m.resume() and not m.resume()
    ft.advance(4.5)
    assert m.settle() == ["left"] and m.settle() == []
    assert m.times()[0] == 0 and m.flag("left") and not m.flag("right")
    m.press("left")  # a flagged player may still press; the other dial runs and may fall too (004 art. 59.A)
    ft.advance(7)
    assert m.settle() == ["right"]
    assert "left=0ms right=0ms" in repr(m)


def test_a_flag_that_falls_while_the_times_are_read_is_still_reported():
    """Reading the dials (a periodic TIME, a REPLAY's answer) brings them up to date; the flag that falls
    then must still come out of the next settle, or the clock never sends FLAG (a CI flake, session 6)."""
    m, ft = model("0.1")
    m.start("left")
    ft.advance(7)
    assert m.times() == (0, 6_000) and m.flag("left")
    assert m.settle() == ["left"] and m.settle() == []
    m.press("left")
    ft.advance(7)
    m.set_times(30_000, 30_000)  # the arbiter sets the dials just after Black's flag fell
    assert m.settle() == ["right"] and not m.flag("right")


def test_set_times_checks_range():
    m, _ = model("5")
    with pytest.raises(ValueError):
        m.set_times(-1, 5)
    m.set_times(1_000, 0)
    assert m.flag("right") and not m.flag("left")
