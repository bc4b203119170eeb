"""Failing switches, issue 9 (plies 11 17 23 29, never traced before this pass): a switch that sticks closed on an
empty square half a second before the move that lands there (bench/bench_faults.py --midgame --games 24 --plies
11 17 23 29 ``stuck-on-empty``), international games without a clock. The moves are read exactly, the switch is
named ``stuck-closed`` (and no other), and no player irregularity stands (stuckempty.py, unseen.py,
segmenter.py)."""

from __future__ import annotations

import pytest

from tests.test_faults_matrix import MODES
from tests.test_faults_midgame_stuck_on_empty import _read_exactly, _stuck_on_empty


@pytest.mark.parametrize("health", MODES)
def test_stuck_on_empty_international_no_clock_captured_square_recloses_before_the_next_removal(health):
    """Game 9 ply 17: white's 34x23x12 takes 29 and 18; 18 is taken off and its switch sticks 0.09 s later
    (less than ``touch_s``: no hand puts a piece back that fast), then 29 is taken off. That second removal
    of the same capture shows the mover clearing it: the first lift was his removal too, not black beginning
    with 18. Black's 7x18 then lands on the stuck 18 unseen and takes 12: the capture is read again with 18
    stuck (``capture-not-removed`` dismissed), not committed with 18 and 29 standing and lost."""
    s, r, square = _stuck_on_empty("international", 17, False, health, plies=20, game_index=9)
    assert _read_exactly(s, r, square)[15:19] == ["20x29", "34x12", "7x18", "37-31"]
    dismissed = [x for x in r.irregularities if x.status == "dismissed"]
    assert [(x.type, x.squares) for x in dismissed] == [("capture-not-removed", (square,))]


@pytest.mark.parametrize("health", MODES)
def test_stuck_on_empty_international_no_clock_opponent_lift_is_no_stuck_reply(health):
    """Game 9 ply 29: after black's 21-26, 37 closes on its own (stuck) and white lifts 33 (33-28). A reply
    42-37 from a switch stuck under 42 would leave white lifting a second piece of his own: the lift that
    shows a reply over is the mover's (his next move) or a piece the reply captures. Read as 21-26, 33-28 with
    37 stuck (26x37 then lands on it unseen); 42 is never named."""
    s, r, square = _stuck_on_empty("international", 29, False, health, plies=32, game_index=9)
    assert _read_exactly(s, r, square)[27:31] == ["21-26", "33-28", "26x37", "42x31"]


@pytest.mark.parametrize("health", MODES)
def test_stuck_on_empty_international_no_clock_stuck_square_beside_the_capture_to_come(health):
    """Game 16 ply 29: after black's 1-6, 21 closes on its own (stuck) and white lifts 48 (48-43): no reply
    26-21 from a switch stuck under 26 is read at white's own lift (26 then named, 26x17 read 41-37). 17-21 lands on the stuck 21 unseen, 26x17 and
    12x21 follow, with 21 alone named."""
    s, r, square = _stuck_on_empty("international", 29, False, health, plies=34, game_index=16)
    assert _read_exactly(s, r, square)[27:33] == ["1-6", "48-43", "17-21", "26x17", "12x21", "41-37"]


@pytest.mark.parametrize("health", MODES)
def test_stuck_on_empty_international_no_clock_square_closed_before_the_lift(health):
    """Game 21 ply 11: 27 closes on its own 0.07 s before white lifts 31 for 31-26, which lands on 26. 31-27
    with 26 stuck explains the board too, but 27 closed before 31 was lifted (a piece lands after it is
    lifted): 31-26 with 27 stuck, whatever closed in the turn. 22-27 then lands on 27 unseen."""
    s, r, square = _stuck_on_empty("international", 11, False, health, plies=14, game_index=21)
    assert _read_exactly(s, r, square)[9:14] == ["7-12", "31-26", "22-27", "32x21", "16x27"]
