"""Failing switches, issue 9: the held-out games of bench/bench_faults.py --midgame --games 4 (games 1-3 of each
variant, never used to tune the engine). Each test builds the bench's session, cut a few plies after the fault."""

from __future__ import annotations


import pytest

from tests.test_faults_matrix import MODES
from simulate_helpers import midgame_case


def _midgame(variant: str, index: int, ply: int, kind: str, health: bool, plies: int, clock: bool = False):
    """bench_faults.py --midgame on real game ``index``: ``kind`` "dead" (the switch under the square ply ``ply``
    lands on dies) or "dead-under-piece" (the one under the piece it moves), half a second before that turn;
    the game cut after ``plies`` plies. (session, reconstructor)."""
    s, r, _square = midgame_case(variant, index, ply, kind, clock, health, plies)
    return s, r


@pytest.mark.parametrize("health", MODES)
def test_dead_international_no_clock_game_3_early_removal_read_on_the_dying_switch(health):
    """27 dies under white's piece 0.4 s after black lifts 22 for 22x31, before the landing; the removal after
    it shows nothing. White's 36x27 then names 27 dead: the capture-removed-early read on 27 is dismissed and
    an observation keeps the doubt (rig/reconstruct/deadremoval.py)."""
    s, r = _midgame("international", 3, 16, "dead", health, plies=20)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[15:17] == ["22x31", "36x27"]
    assert [(i.type, i.squares, i.status) for i in r.irregularities] == [("capture-removed-early", (27,),
                                                                          "dismissed")]
    assert [(o.type, o.squares) for o in r.observations if o.type == "capture-removed-early"] == [
        ("capture-removed-early", (27,))]
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(27, "dead")]


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_brazilian_no_clock_game_1_own_lift_during_the_opponents_first_lift(health):
    """a5 dies under white's piece 0.35 s after black lifts d6 for d6xb4 (white's b4-c5 standing); black lands on
    b4, takes c5 off, white's a5xc3xa1 shows only its landings and removals. The split at d6 is kept through
    a5's lift (rig/reconstruct/ownlift.py), and black's next lift reads d6xb4 then a5xa1 from the square read
    off early (unseen.py), b2 taken by the reply: was one irregular b4xa1, illegal-move and own-piece-removed."""
    s, r = _midgame("brazilian", 1, 22, "dead-under-piece", health, plies=26)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[20:24] == ["b4-c5", "d6xb4", "a5xa1", "e7-d6"]
    assert [i for i in r.irregularities if i.status != "dismissed"] == []


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_no_clock_game_1_dead_square_read_off_early_ranked_first(health):
    """37 dies under white's piece while black's 12-18 is under way: 37 read off early, 37-32 read from it
    (unseen.py). White's 41-37 then lands on the dead 37 and nothing closes: 36 and 37 both explain it. 37, the
    square read off before its piece was played, is taken before 36 (never seen closing) (faults.py
    ``_fault_plan``): was 41-36, then capture-not-removed, own-piece-removed and position-lost."""
    s, r = _midgame("international", 1, 16, "dead-under-piece", health, plies=24)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[16:19] == ["37-32", "1-7", "41-37"]
    assert r.irregularities == []
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(37, "dead")]
