"""Failing switches, issue 9 (branch faults14a): misses of bench/bench_faults.py --midgame --games 24 on plies 15 21
27 33. Each test builds the bench's session (its seed and fault, tests/simulate_helpers.py ``midgame_case``), cut a
few plies after the fault, and reads it in both modes: the moves exact, no player irregularity standing."""

from __future__ import annotations

import pytest

from simulate_helpers import midgame_case, moves_read, standing
from tests.test_faults_matrix import MODES


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_recovering_opening_during_the_reply_international_clock_game_23(health):
    """Game 23, with a clock: 17's switch sticks closed 0.5 s before black's 17-21 (read 17-21, 16 or 17 stuck,
    an observation). Two plies later it works again: 17 opens after white lifted 27, 30 ms before 27-22 lands.
    Read the other way (16-21) a black piece on 17 could land on 22, so the opening was taken as its lift: 16-21,
    27x16 `capture-not-removed`, then 18-27 `illegal-move`, `own-piece-removed`. But 22's closing is the landing
    of white's lifted piece, in white's turn: a black piece lifted and set down there would be a move out of
    turn. The switch worked again (recovery.py), the moves stay as read."""
    s, r, square = midgame_case("international", 23, 21, "stuck-closed-recovering-2", True, health, plies=28)
    assert square == 17
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[21:24] == ["17-21", "27-22", "18x27"]
    assert standing(r) == []
    assert any(f.square == 17 and f.kind == "stuck-closed" and f.until is not None for f in r.sensor_faults)
