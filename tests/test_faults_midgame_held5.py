"""Failing switches, issue 9 (branch faults12b): misses of bench/bench_faults.py --midgame --games 24 on plies 12 18
24 30. Each test builds the bench's session (its seed and fault, tests/simulate_helpers.py ``midgame_case``), cut a
few plies after the fault, and reads it in both modes: the moves exact, no player irregularity standing."""

from __future__ import annotations

import pytest

from simulate_helpers import current_faults, midgame_case, moves_read, standing
from tests.test_faults_matrix import MODES


@pytest.mark.parametrize("case", ["stuck-closed", "stuck-closed-recovering-8"])
@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_international_no_clock_game_1_reply_onto_the_other_square_of_a_stuck_pair(health, case):
    """Game 1, without a clock: white's 39-33 shows only its landing (39 stuck), read from a stuck origin, 38 or 39
    (an observation, 38-33 read). Black's 7-12, then white lifts 44 for 44-39 onto the stuck 39 (no landing seen)
    and black lifts 12 again: under 38-33 no move of 44 explains that (39 holds a piece), with 39-33 read the reply
    lands on the masked 39 (splitreply.py). Was `position-lost` at white's 8th move and nothing read after it."""
    s, r, square = midgame_case("international", 1, 12, case, False, health, plies=24)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[12:16] == ["39-33", "7-12", "44-39", "12-18"]
    assert standing(r) == []
    if case == "stuck-closed":
        assert current_faults(r) == [(square, "stuck-closed")] == [(39, "stuck-closed")]


@pytest.mark.parametrize("health", MODES)
def test_dead_brazilian_no_clock_game_0_capture_onto_the_dead_square_then_the_reply(health):
    """Brazilian game 0, without a clock: c3's switch dies, white's a5xc3 shows the lift of a5 and the removal of b4
    but no landing, then black plays e7-d6 and the board stands still. Both colours gone and no move explains it:
    was `position-lost` at white's 13th move. Read in order, the capture is exact with c3 occupied and black's reply
    exact after it, begun `touch_s` after the removal: no player keeps his capturing piece in the hand while his
    opponent moves on, so c3 is `dead` (masked occupied) and both moves are read (unseen.py
    ``_dead_landing_taken``)."""
    s, r, square = midgame_case("brazilian", 0, 24, "dead", False, health, plies=30)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[23:26] == ["d6xb4", "a5xc3", "e7-d6"]
    assert standing(r) == []
    assert current_faults(r) == [(square, "dead")] == [(22, "dead")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_recovering_international_no_clock_game_18_twin_opens_while_a_removal_is_pending(health):
    """Game 18, without a clock: 41 sticks and white's 41-37 is read 42-37 (42 or 41 stuck, an observation). Eight
    plies later, 41's switch works again and opens 0.3 s after white's 34x25 took 30 off, 85 ms before black lifts
    5 for 5-10. The opening is held until the next change tells (recovery.py ``_settle_twin``), but that change,
    black's lift, is the one that tells the removal of 30 from black lifting his own captured piece: the split was
    still open, the re-read could not commit 34x25, and 41 was read lifted (`own-piece-removed`, then
    `position-lost` thirty moves later). The opening is now settled at the change after: 5-10's landing is no move
    of a piece from 41, so 42-37 is re-read 41-37 and 41's switch recovered at its opening."""
    s, r, square = midgame_case("international", 18, 24, "stuck-closed-recovering-8", False, health, plies=36)
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[24] == "41-37" and got[30:32] == ["34x25", "5-10"]
    assert standing(r) == []
    assert [(f.square, f.kind, f.until is not None) for f in r.sensor_faults if not f.withdrawn] \
        == [(square, "stuck-closed", True)] == [(41, "stuck-closed", True)]
