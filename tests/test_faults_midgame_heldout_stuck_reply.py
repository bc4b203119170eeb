"""Failing switches, issue 9 (held-out games, branch faults9j): a switch that sticks closed on an empty square
half a second before the move that lands there (bench/bench_faults.py --midgame --games 4 ``stuck-on-empty``),
where the mover's own move leaves two readings and his lift, the order of the changes or the opponent's reply
tells which (rig/reconstruct/stuckempty.py, chainread.py). The moves are read exactly, the switch is named
``stuck-closed`` on its square and no player irregularity stands."""

from __future__ import annotations

import pytest

from tests.test_faults_matrix import MODES
from tests.test_faults_midgame_stuck_on_empty import _read_exactly, _stuck_on_empty


@pytest.mark.parametrize("health", MODES)
def test_stuck_on_empty_international_clock_lifted_piece_is_the_piece_played(health):
    """Game 1, with a clock: black lifts 19, 19 reads occupied again 0.55 s later (stuck) and the piece lands on
    23 0.1 s after that. 18-23 with a switch stuck under 18 fits the board too, but then 19 was touched and not
    played: the piece lifted is the piece played (touch-move), so 19-23 is read with 19 stuck, and white's 28x19
    lands on it unseen (was 18-23, touched-piece-not-moved, then 28-22 with 22 dead and illegal moves)."""
    s, r, square = _stuck_on_empty("international", 28, True, health, plies=34, game_index=1)
    assert _read_exactly(s, r, square)[26:30] == ["50-44", "19-23", "28x19", "14x23"]
    assert not any(x.type == "touched-piece-not-moved" for x in r.irregularities)


@pytest.mark.parametrize("health", MODES)
def test_stuck_on_empty_international_no_clock_reply_under_way_settles_the_reading(health):
    """Game 1, without a clock: 19 sticks under black's piece before it is lifted, so 19-23 shows only its
    landing; white lifts 28 and 18-23 or 19-23 is read from a stuck origin (18, the lowest; an observation, the
    reading open). White's 28x19 takes 23 off and lands on 19 unseen: no move with 18-23 read. When black lifts
    14 (his next move begins while white's is pending), the reading is taken the other way: 19-23, the fault
    moved to 19, then 28x19 and 14x23 (was 18-23 with 28 and 14 taken off, then illegal moves)."""
    s, r, square = _stuck_on_empty("international", 28, False, health, plies=34, game_index=1)
    assert _read_exactly(s, r, square)[26:30] == ["50-44", "19-23", "28x19", "14x23"]
    assert any(o.detail == "18-23 re-read as 19-23" for o in r.observations)


@pytest.mark.parametrize("health", MODES)
def test_stuck_on_empty_international_clock_capture_cleared_just_before_the_origin_recloses(health):
    """Game 2, with a clock: white's 18x9 over 13; 13 is taken off and 18 reads occupied again 50 ms later and
    stays (stuck). The captured piece was in the hand for 50 ms, under ``touch_s``: no deliberate move put it on
    18, so 18x9 is read with 18 stuck (was 13-9 read as a second move and a touched piece, then illegal moves);
    black's 27x18 lands on it unseen."""
    s, r, square = _stuck_on_empty("international", 28, True, health, plies=34, game_index=2)
    assert _read_exactly(s, r, square)[26:30] == ["24x13", "18x9", "27x18", "12x23"]
