"""Failing switches, issue 9 (branch faults13a): misses of bench/bench_faults.py --midgame --games 24 on plies 14 20
26 32. Each test builds the bench's session (its seed and fault, tests/simulate_helpers.py ``midgame_case``), cut a
few plies after the fault, and reads it in both modes: the moves exact, no player irregularity standing."""

from __future__ import annotations

import pytest

from simulate_helpers import current_faults, midgame_case, moves_read, standing
from tests.test_faults_matrix import MODES


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("case", ["stuck-closed", "stuck-closed-recovering-8"])
def test_stuck_closed_landing_before_the_lift_international_no_clock_game_2(health, case):
    """Game 2, without a clock: 19's switch sticks closed on the empty square 0.2 s before black lifts 13 for
    13-19. The closing alone was read at once as black's landing with its lift hidden (13 or 14 stuck under the
    origin, 13 masked); 13 then opened, but stayed masked, and white's 24x13 read `capture-not-removed` (19's
    removal unseen), then `position-lost`. 13 opening shows its switch works: the piece was lifted after 19 closed,
    so 19 is the stuck one (closedfirst.py ``_origin_opened_after``)."""
    s, r, square = midgame_case("international", 2, 26, case, False, health, plies=38)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[24:29] == ["35x24", "13-19", "24x13", "18x9", "27x18"]
    assert standing(r) == []
    if case == "stuck-closed":
        assert current_faults(r) == [(square, "stuck-closed")] == [(19, "stuck-closed")]
    assert all(f.square != 13 for f in r.sensor_faults)


@pytest.mark.parametrize("health", MODES)
def test_dead_under_the_capture_landing_international_no_clock_game_2(health):
    """Game 2, without a clock: white's 35x24 takes 30 off last, then 24's switch dies under white's piece (0.6 s
    later) and black plays 13-19; white's 24x13 follows from the dead square (its lift unseen). 30's lift was read
    as black's first lift (the capture left with it standing) and 24 reading off as black's 30x19 under way: the
    still board after 13-19 read no move, then 13x9, `capture-not-removed`, `illegal-move`, `own-piece-removed`.
    Read as the capture complete, black's move exact, and white's piece on 24 read off after his move
    (removalsplit.py): the capture's `capture-not-removed` is dismissed."""
    s, r, _square = midgame_case("international", 2, 26, "dead-under-piece", False, health, plies=32)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[24:29] == ["35x24", "13-19", "24x13", "18x9", "27x18"]
    assert standing(r) == []
    assert [(i.type, i.squares, i.status) for i in r.irregularities] == [("capture-not-removed", (30,), "dismissed")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_recovering_late_landing_after_the_opponents_lift_international_clock_game_4(health):
    """Game 4, with a clock: 32 sticks closed under white's man, 32-28 shows only its landing and is read 33-28
    with a missing diode suspected (33 a ghost). Black lifts 17; 32's switch works again 0.5 s later (read as white
    lifting 32) and black's 17 comes down on 22 0.1 s after that. At the lift black's move was read onto 21, held
    for the diode (its landing unseen), and 22's closing as white's: 17-21, then 28x17 read 28-17 (`illegal-move`
    twice). 22 is where black's lifted piece goes and white's 32 cannot: the mover's late landing
    (heldlanding.py), 17-22; 32-28 is then re-read from the moves after it."""
    s, r, square = midgame_case("international", 4, 32, "stuck-closed-recovering-2", True, health, plies=40)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[32:35] == ["32-28", "17-22", "28x17"]
    assert standing(r) == []
    assert (square, "stuck-closed") in [(f.square, f.kind) for f in r.sensor_faults] and square == 32
