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


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_landing_read_on_the_recovered_square_international_clock_game_5(health):
    """Game 5, with a clock: 25's switch dies 0.5 s before black's 20-25 (read 20-24, 24 or 25 dead, an
    observation). White's 30-24 lands on 24 (masked, its closing kept from the reading), and 115 ms later 25's
    switch works again under black's piece: its closing was read as white's landing, 30-25. Black's 19x30 then
    read 24-30 with `own-piece-removed` (19). Read the other way (20-25), 30-25 cannot be played (25 holds black's
    piece): the same piece's move onto the old square of the fault (30-24) is the one the frames show, 25's closing
    that switch working again, and 19x30 is exact (chainread.py ``reread_chain``, ``_move_fault``)."""
    s, r, square = midgame_case("international", 5, 33, "dead-recovering-2", True, health, plies=40)
    assert square == 25
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[33:36] == ["20-25", "30-24", "19x30"]
    assert standing(r) == []
    faults = [(f.square, f.kind, f.until is not None) for f in r.sensor_faults if not f.withdrawn]
    assert faults == [(25, "dead", True)]
