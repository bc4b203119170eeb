"""Failing switches, issue 9: a fault moved to another square by a re-read frees its first square, which must
read again as the game gives it (bench/bench_faults.py --midgame --games 8, international game 7: the engine
raised a KeyError there before)."""

from __future__ import annotations


import pytest

from tests.test_faults_matrix import MODES
from simulate_helpers import midgame_case


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_international_clock_game_7_fault_moved_off_a_square_the_reply_then_leaves(health):
    """37 sticks closed under white's piece half a second before 37-32 (ply 28). Nothing is seen lifted, so the
    move is first read 38-32 with 38's switch stuck; four moves later white's 38-33, lifted from the square the
    mask held occupied, shows it was 37-32: the moves are read again and the fault moves to 37. 38, freed,
    kept the state its mask gave it (occupied) although its piece had just left for 33, so black's next move
    1-7 was read with white's 38 removed from a board that had no piece there (KeyError in the detectors).
    The freed square now takes the state the re-read game gives it (chainread.py ``_reread_turn``)."""
    s, r, square = midgame_case("international", 7, 28, "stuck-closed", True, health, plies=40)
    assert square == 37
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[28:36] == ["37-32", "10-14", "50-44", "14-19", "33-28", "15-20", "38-33", "1-7"]
    assert [i for i in r.irregularities if i.status != "dismissed"] == []
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(37, "stuck-closed")]
    assert [(o.type, o.squares) for o in r.observations][:1] == [("illegal-move", (38, 37))]   # which switch


@pytest.mark.parametrize("health", MODES)
def test_dead_international_no_clock_game_7_fault_moved_while_the_opponents_lift_is_pending(health):
    """25 dies half a second before white's 30-25 lands there (ply 10): read 30-24 with 24's switch dead (the
    mask holding 24 occupied). Black's 12-18 shows it was 30-25: the moves are read again, the fault moves to
    25, and 24 is freed. The split at black's lift, taken before the re-read, still had 24 occupied, so white's
    next move 34-30 was read with a piece removed from the empty 24 (KeyError in the detectors). The commit now
    takes a freed square as the move leaves it (chainread.py ``_freed_occupancy``)."""
    s, r, square = midgame_case("international", 7, 10, "dead", False, health, plies=20)
    assert square == 25
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[10:13] == ["30-25", "12-18", "34-30"]
    assert [i for i in r.irregularities if i.status != "dismissed"] == []
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(25, "dead")]
