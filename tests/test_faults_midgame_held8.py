"""Failing switches, issue 9 (branch faults13c): misses of bench/bench_faults.py --midgame --games 24 on plies 14 20
26 32 (and 12 18 24 30). Each test builds the bench's session (its seed and fault, tests/simulate_helpers.py
``midgame_case``), cut a few plies after what tells, and reads it in both modes: the moves exact, no player
irregularity standing."""

from __future__ import annotations

import pytest

from simulate_helpers import midgame_case, moves_read, standing
from tests.test_faults_matrix import MODES


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("clock", [True, False], ids=["clock", "no_clock"])
@pytest.mark.parametrize("case, ply", [("dead", 32), ("dead-under-piece", 14)])
def test_dead_reading_settled_by_a_move_from_the_other_square_70_plies_later_international(health, clock, case, ply):
    """Game 16, both clock modes: 37's switch is dead (dying at ply 32, or under the piece of 37-32 at ply 14) when
    white's 41-37 lands there unseen: read 41-36, 36 or 37 dead (an observation names both). The piece stands on
    37 for 70 plies, past ``REREAD_FAULT_PLIES``; then white's 37-32 shows only its landing on 32, which no move
    explains with 36 read occupied. A dead switch shows neither the piece nor its lift: taken the other way, the
    old reading makes the turn one legal move from 37, every move since legal, so the moves are read again from
    ply 32 and the fault moves to 37 (deadmoved.py). Was 36-32 `illegal-move` (clock), or `piece-moved-after-release`,
    `two-moves`, `illegal-move` (no clock)."""
    s, r, square = midgame_case("international", 16, ply, case, clock, health, plies=106)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[32] == "41-37" and got[102] == "37-32"
    assert standing(r) == []
    assert square == 37 and [(f.square, f.kind) for f in r.sensor_faults if f.current and f.kind == "dead"
                             and f.square in (36, 37)] == [(37, "dead")]
    assert any("41-36 re-read as 41-37" in o.detail for o in r.observations)


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("ply, stuck, other, played", [(14, 37, 38, "37-32"), (12, 44, 43, "44-39")])
def test_stuck_origin_working_again_at_the_reply_lift_international_no_clock(health, ply, stuck, other, played):
    """Game 16, without a clock (``stuck-closed-recovering-2``): the switch under white's piece sticks closed, so
    its move (37-32 at ply 14, 44-39 at ply 12) shows only its landing, read from the other origin as a missing
    diode's ghost (38, 43; a stuck switch there fits too: an open reading). Black lifts 6 (11) and the stuck
    switch works again 20 ms (5 ms) later, in the same debounce, before the reading was made: read as white's
    piece on that square lifted during black's move. Black's landing (and at ply 14 the ghost's square reading
    closed once the opening broke its rectangle) is no move of that piece: the switch was the stuck one working
    again, white's move is read the other way and the fault moves there with its span (ownlift.py
    ``_twin_lift_freed``). Was `position-lost` (and a `ghost` named on 12 at ply 12)."""
    s, r, square = midgame_case("international", 16, ply, "stuck-closed-recovering-2", False, health, plies=ply + 12)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[ply] == played
    assert standing(r) == []
    assert square == stuck
    assert [(f.square, f.kind, f.until is not None) for f in r.sensor_faults if not f.withdrawn] \
        == [(stuck, "stuck-closed", True)]
    assert any(f"{other}-" in o.detail and f"re-read as {played}" in o.detail for o in r.observations)
