"""Failing switches, issue 9 (branch faults12a): stuck-closed misses of bench/bench_faults.py --midgame --games 24
on plies 12 18 24 30. Each test builds the bench's session (its seed and fault, tests/simulate_helpers.py
``midgame_case``), cut a few plies after the fault, and reads it in both modes: the moves exact, the switch named,
no player irregularity standing."""

from __future__ import annotations

import pytest

from simulate_helpers import current_faults, midgame_case, moves_read, standing
from tests.test_faults_matrix import MODES


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("case", ["stuck-closed", "stuck-closed-recovering-8"])
def test_stuck_closed_landing_then_captured_international_no_clock_game_16(health, case):
    """Game 16, without a clock: after white's 48-43, 21's switch sticks closed and black lifts 17 15 ms later for
    17-21 (its landing unseen); white's 26x17 takes the piece on 21 (its removal unseen), black's 12x21 lands on
    21 again. At 17's lift the closing was read as a neighbour phantom; 21 then stayed closed with 17 off and
    white lifted 26. No hand puts a piece down before lifting it: 17 went to 21, whose switch is stuck
    (closedfirst.py). Was 26-21 with `opponent-piece-touched`, `two-moves`, `wrong-piece-removed`."""
    s, r, square = midgame_case("international", 16, 30, case, False, health, plies=42)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[28:32] == ["48-43", "17-21", "26x17", "12x21"]
    assert standing(r) == []
    assert (square, "stuck-closed") in [(f.square, f.kind) for f in r.sensor_faults] and square == 21


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_landing_then_captured_international_no_clock_game_21(health):
    """Game 21, without a clock: 21 sticks closed 80 ms before black lifts 17 for 17-21; white's 26x17, then
    black's 11x33. The same reading (closedfirst.py): was 26-21, 17x33 with `two-moves` and `illegal-move`."""
    s, r, square = midgame_case("international", 21, 24, "stuck-closed", False, health, plies=30)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[22:26] == ["33-28", "17-21", "26x17", "11x33"]
    assert standing(r) == []
    assert current_faults(r) == [(square, "stuck-closed")] == [(21, "stuck-closed")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_captured_piece_then_landing_at_the_press_international_clock_game_21(health):
    """Game 21, with a clock: 21 sticks closed under black's 17-21, and white's 26x17 reads with the piece on 21
    left standing (`capture-not-removed`: its removal unseen). Twelve plies later black lifts 16 for 16-21, whose
    landing on the stuck 21 shows nothing, and presses: read with the piece standing, the turn was `?(-16)` and
    `illegal-move`. The press ends the move (FPD 000 art. 6.2a: no piece still in his hand), and with the
    captured piece removed every turn since and this one read as one legal move, 16-21 landing on the square
    read closed: the capture is read again complete and 21 named `stuck-closed` (stuckcapture.py)."""
    s, r, square = midgame_case("international", 21, 24, "stuck-closed", True, health, plies=42)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[24] == "26x17" and got[37:39] == ["16-21", "31x22"]
    assert standing(r) == []
    assert current_faults(r) == [(square, "stuck-closed")] == [(21, "stuck-closed")]
    assert [o.type for o in r.observations if 21 in o.squares] == ["capture-not-removed"]


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("clock", [True, False], ids=["clock", "no_clock"])
@pytest.mark.parametrize("case", ["stuck-closed", "stuck-closed-recovering-8"])
def test_stuck_closed_captured_piece_then_landing_international_game_13(health, clock, case):
    """Game 13, both clock modes: 23 sticks closed under black's 19-23, white's 28x19 reads with the piece on 23
    left standing (`capture-not-removed`); four plies later black's 18-23 lands on the stuck 23 and shows only
    the lift of 18. It was read 18-22 onto a switch "dead" under 22 (unseen.py ``_dead_landing`` without a clock,
    faults.py ``_fault_plan`` at the press), then `capture-incomplete` and `position-lost` or a cascade of
    `capture-not-taken`. The turn is over (the press; without a clock white lifting with 18 still off) and, the
    captured piece removed, 18-23 lands on the square read closed: the capture is read again complete and 23 named
    `stuck-closed` (stuckcapture.py) before any new fault."""
    s, r, square = midgame_case("international", 13, 24, case, clock, health, plies=40)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[23:28] == ["19-23", "28x19", "24x13", "37-32", "18-23"]
    assert standing(r) == []
    assert (23, "stuck-closed") in [(f.square, f.kind) for f in r.sensor_faults] and square == 23
    assert all(f.kind != "dead" for f in r.sensor_faults)
