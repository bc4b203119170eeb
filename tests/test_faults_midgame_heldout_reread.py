"""Failing switches, issue 9 (held-out games of bench/bench_faults.py --midgame --games 4, branch faults9k): a
reading left open on a faulty switch, settled by the moves after it. Each test builds the bench's session, cut a
few plies after the fault; the moves are read exactly, no player irregularity stands and the fault is named."""

from __future__ import annotations


import pytest

from simulate_helpers import midgame_case
from tests.test_faults_matrix import MODES
from tests.test_faults_midgame_heldout import _midgame
from tests.test_faults_midgame_stuck_on_empty import _read_exactly, _stuck_on_empty


def _stuck_leaving(variant: str, index: int, ply: int, clock: bool, health: bool, plies: int):
    """bench_faults.py --midgame ``stuck-closed``: the switch under the lowest square ply ``ply``'s move empties
    sticks closed half a second before that turn. (session, reconstructor, square)."""
    return midgame_case(variant, index, ply, "stuck-closed", clock, health, plies)


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_clock_game_1_landing_after_the_opponents_lift(health):
    """28 dies under white's piece 0.1 s before black's 19-23 lands: read at that lift, 19 left and nothing came
    down, 24 (of 24 and 23) read dead. 23 then closes, white's first closing after his lift: black's piece came
    down late. White's turn shows no legal move (28x19 set down on 23 first), but 28x19 once 19-23 is re-read
    with that closing as its landing: the move is re-read and the fault on 24 withdrawn (earlylift.py), not moved
    to 23 with a piece-moved-after-release."""
    s, r = _midgame("international", 1, 28, "dead-under-piece", health, plies=32, clock=True)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[26:30] == ["50-44", "19-23", "28x19", "14x23"]
    assert r.irregularities == []
    assert [(f.square, f.kind, bool(f.withdrawn)) for f in r.sensor_faults] == [(24, "dead", True)]
    assert [o.detail for o in r.observations if o.type == "illegal-move"] == ["read as 19-24", "19-24 re-read as 19-23"]


@pytest.mark.parametrize("health", MODES)
def test_stuck_on_empty_international_clock_game_3_fault_moves_with_the_reread(health):
    """Game 3, with a clock: black's 17-21 lands on 21 first and 22 sticks 0.15 s later: read as 17-22 with 21
    stuck (the square that closed first), an open reading. White's 27-22 lands on the stuck 22 unseen, read as
    27-21 onto the masked 21; black's 18x27 is no move on that reading. With 17-21 and 22 stuck, 27-21 is 27-22
    (its landing unseen either way) and 18x27 takes it: re-read, the fault moved to 22 (chainread.py)."""
    s, r, square = _stuck_on_empty("international", 22, True, health, plies=26, game_index=3)
    assert _read_exactly(s, r, square)[20:24] == ["41-36", "17-21", "27-22", "18x27"]
    assert [o.detail for o in r.observations if o.type == "illegal-move"] == ["read as 17-22", "17-22 re-read as 17-21"]


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_brazilian_no_clock_game_1_multi_capture_from_a_stuck_origin(health):
    """Game 1, without a clock: a5 sticks closed under white's piece; black's d6xb4 takes c5, then white's
    a5xc3xa1 shows only its landings on c3 and a1 and the removal of b4 (b2 still standing). No player plays a
    piece from nowhere: d6xb4 is read, a5 stuck-closed, and white's turn from the landing on c3 (unseen.py
    ``_stuck_reply``): was one black move b2-a1 with five irregularities."""
    s, r, square = _stuck_leaving("brazilian", 1, 22, False, health, plies=26)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[20:24] == ["b4-c5", "d6xb4", "a5xa1", "e7-d6"]
    assert r.irregularities == []
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(square, "stuck-closed")]
