"""Failing switches, issue 9 (branch faults13b): misses of bench/bench_faults.py --midgame --games 24 on plies
14 20 26 32 where a move's origin was read one square off because its neighbour stuck closed, and a captured
piece's stuck switch freeing itself during the reply. Each test builds the bench's session (its seed and fault,
tests/simulate_helpers.py ``midgame_case``), cut a few plies after the fault, and reads it in both modes: the moves
exact, the switch named, no player irregularity standing."""

from __future__ import annotations

import pytest

from simulate_helpers import midgame_case, moves_read, standing
from tests.test_faults_matrix import MODES

KINDS = ["stuck-closed", "stuck-closed-recovering-8"]


def _pair_observed(r, a: int, b: int) -> bool:
    """An observation names both squares of a stuck pair (the sensors cannot tell them)."""
    return any(o.type == "illegal-move" and {a, b} <= set(o.squares) for o in r.observations)


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("case", KINDS)
def test_stuck_origin_read_as_ghost_then_rectangle_breaks_international_clock_game_5(health, case):
    """Game 5, with a clock: 40's switch sticks closed 0.5 s before white lifts 40 for 40-34 (its lift unseen; 39
    reaches 34 too). The frames alone read 40 as a missing diode's ghost (22's rectangle stood), 39 stuck the other
    reading. When 25's lift breaks the rectangle, 40 still reads closed: no ghost, but 40's own switch stuck explains
    it as well as 39's (ghostread.py ``_ghost_stuck_here``). It was re-read 39-34 with 39 stuck, then 39x30 read
    34-30, `two-moves`, `illegal-move`. The move stays 40-34, the pair open, an observation names 39 and 40."""
    s, r, square = midgame_case("international", 5, 14, case, True, health, plies=24)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[14] == "40-34" and got[20] == "39x30"
    assert standing(r) == []
    assert square == 40 and (40, "stuck-closed") in [(f.square, f.kind) for f in r.sensor_faults]
    assert all(f.kind != "ghost" for f in r.sensor_faults)
    assert _pair_observed(r, 39, 40)


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("case", KINDS)
def test_stuck_pair_opens_after_capture_last_removal_international_no_clock_game_5(health, case):
    """Game 5, without a clock: the same 40-34 read 39-34 (39 or 40 stuck: an observation). Six plies later black's
    23x34 takes 29 off (pending: its owner's lift, or black's last removal), then 39 opens and white's 39x30 lands on
    30. A stuck switch never opens; read the other way, the piece on 39 captures 34 onto 30: the opening is its lift,
    so the captured piece lifted before it was black's last removal (earlylift.py ``_last_removal``). It was 23x30
    with `illegal-move`, `capture-removed-early`."""
    s, r, square = midgame_case("international", 5, 14, case, False, health, plies=24)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[14] == "40-34" and got[19:21] == ["23x34", "39x30"]
    assert standing(r) == []
    assert square == 40 and (40, "stuck-closed") in [(f.square, f.kind) for f in r.sensor_faults]
    assert _pair_observed(r, 39, 40)


@pytest.mark.parametrize("health", MODES)
def test_standing_square_opens_after_reply_lift_international_no_clock_game_21(health):
    """Game 21, without a clock: 24 sticks closed under the black piece white's 38x20 takes (`capture-not-removed`,
    its removal unseen) and works again eight plies later, 0.17 s after black lifts 5 for 5-10. The opening was
    read as the first piece staying off (white taking 5 off: `wrong-piece-removed`) and 24 lifted to begin black's
    move (24-10, `illegal-move`). A square a capture was read to leave standing opens with no hand near when its
    switch frees itself: the lift of 5 stays pending (stuckempty.py ``_standing_opens``), and black's turn reads
    5-10 with the capture read again complete, 24 stuck from it and recovered (recovery.py)."""
    s, r, square = midgame_case("international", 21, 26, "stuck-closed-recovering-8", False, health, plies=36)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[26] == "38x20" and got[32:34] == ["44-39", "5-10"]
    assert standing(r) == []
    faults = [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn]
    assert square == 24 and faults == [(24, "stuck-closed")]
    assert [f.until is not None for f in r.sensor_faults] == [True]
