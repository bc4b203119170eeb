"""Failing switches, issue 9 (branch faults11a): stuck-closed and dead-under-piece misses of bench/bench_faults.py
--midgame --games 24 on plies never traced before (11 17 23 29, 13 19 25 31). Each test builds the bench's session
(its seed and fault, tests/simulate_helpers.py ``midgame_case``), cut a few plies after the fault, and reads it in
both modes: the moves exact, the switch named, no player irregularity standing."""

from __future__ import annotations

import pytest

from simulate_helpers import current_faults, midgame_case, moves_read, standing
from tests.test_faults_matrix import MODES


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_clock_game_19_landing_read_before_its_commit_withdraws_the_fault(health):
    """Game 19, with a clock: white lifts 38 for 38-32 and black's 21 reads lifted 0.36 s later (its switch dies
    under it): 38-32 is read with 32 `dead` (its landing not yet seen). 32 closes 0.06 s after that, while the
    move waits for what follows the press, so the closing came before the game had the piece there; once 38-32 is
    committed that closing is the piece coming down late (earlylift.py ``_landed_before_commit``): the fault on 32
    is withdrawn and unmasked, so white's 32x21 shows its lift and the dead 21 is named (was ``?(-27)``, 16-27 and
    two `illegal-move`)."""
    s, r, square = midgame_case("international", 19, 29, "dead-under-piece", True, health, plies=36)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[28:32] == ["38-32", "21-27", "32x21", "16x27"]
    assert standing(r) == []
    assert current_faults(r) == [(square, "dead")] == [(21, "dead")]
    assert [(f.square, bool(f.withdrawn)) for f in r.sensor_faults if f.square == 32] == [(32, True)]


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_portuguese_no_clock_game_0_own_landing_read_off_then_the_reply(health):
    """Portuguese game 0, without a clock: black's 23x14 lands on 14, 19 is taken off, and 14's switch dies 0.3 s
    later (read as the piece lifted again), 15 ms before white lifts 6 for 6-10. The still board was read as the
    capture taken on by its removal (19 read as the split's piece taken off and left off) and committed as the one
    move 23x10 (`illegal-move`, `capture-removed-early`). The changes read in the game's order instead
    (interleave.py, now tried there too): 23x14, the reply 6-10, and 14 read off begins black's 14x5."""
    s, r, square = midgame_case("portuguese", 0, 19, "dead-under-piece", False, health, plies=22)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[17:21] == ["23x14", "6-10", "14x5", "1x10"]
    assert standing(r) == []


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_no_clock_game_9_next_capture_takes_a_piece_that_stood(health):
    """Game 9, without a clock: black's 21-26 lands and 26's switch dies 0.7 s later (read as lifted again);
    white plays 33-28, then black's 26x37, its lift unseen, lands on 37 and takes 31 off. The interleaved reading
    (21-26, 33-28, then black's next move begun by the lift of 26) now lets that next move capture a piece that
    stood all along (31), not only one the reply put down: was position-lost."""
    s, r, square = midgame_case("international", 9, 29, "dead-under-piece", False, health, plies=34)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[27:31] == ["21-26", "33-28", "26x37", "42x31"]
    assert standing(r) == []


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_international_no_clock_game_1_still_board_ends_on_the_replys_landing(health):
    """Game 1, without a clock: white's 33x31 (over 28 and 27) is cleared, then black's 14-19 shows only its
    landing on 19 (14 stuck closed), and the board stays still for 2 s before white lifts 39. No move explains
    that still board: it was position-lost, and nothing was read after it. 33x31 is exact without the closing on
    19, which came on its own 0.9 s later and which a reply from a square that never opened can make: 33x31 is
    committed and the closing begins black's turn (lastclosing.py); white's lift then reads the reply from a stuck
    origin (13 or 14, an observation), and the moves after it show it was 14."""
    s, r, square = midgame_case("international", 1, 11, "stuck-closed", False, health, plies=24)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[10:13] == ["33x31", "14-19", "39-33"]
    assert standing(r) == []
    assert current_faults(r) == [(square, "stuck-closed")] == [(14, "stuck-closed")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_international_no_clock_game_10_last_removal_then_a_reply_from_a_stuck_origin(health):
    """Game 10, without a clock: white's 32x21 lands and takes 27 off 0.5 s later; 11 sticks closed and black's
    11-16 shows only its landing on 16. The removal of 27 was read as black lifting his captured piece, still
    standing, and the landing as that piece played, 27x16 over 21 (two `capture-not-removed`, then position-lost
    at black's 6-11 onto the stuck 11). Every move of 27 onto 16 takes 21, which still stands; with 27 taken off,
    11-16 from a square that never opened lands there exactly: the capture is complete and 11 is stuck closed
    (lastclosing.py ``_removal_then_stuck_reply``)."""
    s, r, square = midgame_case("international", 10, 17, "stuck-closed", False, health, plies=26)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[16:20] == ["32x21", "11-16", "44-39", "16x27"]
    assert standing(r) == []
    assert r.irregularities == []
    assert current_faults(r) == [(square, "stuck-closed")] == [(11, "stuck-closed")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_international_no_clock_game_16_stuck_pair_settled_when_the_other_switch_opens(health):
    """Game 16, without a clock: 10 sticks closed under black's piece of 10-14, which shows only its landing on
    14: 9 or 10 could be stuck (a pair the sensors cannot tell then: 9-14 is read, an observation names both), and
    black's 4-10 then shows only the lift of 4 (read 4-9 onto the masked 9). Thirty plies later the piece on 9 is
    lifted for 9x20 and 9's switch opens, which a stuck switch never does: the reading is taken the other way
    (earlylift.py ``_stuck_lifted``), 10-14 and 4-10 are read, and only 10 is named (was 9-14 and 4-9, both 9
    and 10 named stuck)."""
    s, r, square = midgame_case("international", 16, 17, "stuck-closed", False, health, plies=50)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[16:20] == ["36-31", "10-14", "31-26", "4-10"]
    assert got[46:48] == ["25x14", "9x20"]
    assert standing(r) == []
    assert current_faults(r) == [(square, "stuck-closed")] == [(10, "stuck-closed")]
    assert [o.squares for o in r.observations if o.type == "illegal-move"] == [(9, 10), (10, 14)]
