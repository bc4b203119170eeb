"""Clock presses through the engine: per-move clock times in the PDN, clock-without-move, flags, late
presses, gaps (the integration test the clock issue asks for)."""

from __future__ import annotations

import pytest

from tests.reconstruct_helpers import VARIANTS, line_to_quiet
from tests.session_builder import SessionBuilder, play_line, run


def test_clock_times_in_the_pdn_and_the_report():
    b = SessionBuilder("portuguese")
    b.move("11-15").press("white", white_ms=599_000, black_ms=600_000)
    b.move("22-18").press("black", white_ms=599_000, black_ms=597_500)
    b.move("15-19").press("white", white_ms=595_000, black_ms=597_500)
    e = run(b)
    report = e.report()
    assert [(m["move"], m["clock_ms"]) for m in report["moves"]] == [("11-15", 599_000), ("22-18", 597_500),
                                                                    ("15-19", 595_000)]
    pdn = e.pdn()
    assert "1. 11-15 {[%clock w0:09:59 B0:10:00]} 22-18 {[%clock W0:09:59 b0:09:57]}" in pdn
    assert "2. 15-19 {[%clock w0:09:55 B0:09:57]}" in pdn


def test_clock_without_move_is_flagged_and_adds_no_move():
    b = SessionBuilder("portuguese")
    b.move("11-15").press("white", white_ms=599_000, black_ms=600_000)
    b.press("black", white_ms=599_000, black_ms=598_000)           # nothing moved
    b.board.turn = True
    e = run(b)
    assert [m.move_text for m in e.moves] == ["11-15"]
    assert [(i.type, i.number, i.side, i.status) for i in e.irregularities] == [
        ("clock-without-move", 1, "black", "open")]
    assert e.irregularities[0].rule == "FPD 7.5b"


@pytest.mark.parametrize("variant", VARIANTS)
def test_late_press_and_no_press(variant):
    b = play_line(SessionBuilder(variant), line_to_quiet(variant))
    first = b.board.legal_moves[0]
    b.play(first)                       # white forgets to press
    second = b.board.legal_moves[0]
    b.play(second).press("black")       # black moves and presses
    third = b.board.legal_moves[0]
    b.play(third).wait(0.2).press("white")
    e = run(b)
    assert [m.move.key for m in e.moves[-3:]] == [first.key, second.key, third.key]
    assert e.irregularities == []


def test_flag_ends_the_game_and_both_flags_draw():
    b = SessionBuilder("brazilian")
    b.move("c3-d4").press("white").clock("flag", "black")
    e = run(b)
    assert e.result == "1-0"
    assert "57.C" in e.result_reason
    assert '[Result "1-0"]' in e.pdn()
    b = SessionBuilder("international")
    b.move("32-28").press("white").clock("flag", "black").clock("flag", "white")
    e = run(b)
    assert e.result == "2-0"   # the first flag decided; a later one is noted only
    b = SessionBuilder("brazilian")
    b.move("c3-d4").press("white")
    e = run(b, finish=False)
    from rig.session import ClockEvent
    e.tracker.flag(True)
    out = e.feed(ClockEvent(9.0, "flag", "black"))
    assert e.result == "1/2-1/2" and any(o.to_json()["kind"] == "game-end" for o in out)


def test_disconnection_is_a_note_not_an_irregularity():
    b = SessionBuilder("portuguese")
    b.move("11-15").press("white").clock("disconnected").move("22-18").clock("reconnected").press("black")
    e = run(b)
    assert [m.move_text for m in e.moves] == ["11-15", "22-18"]
    assert e.irregularities == []
