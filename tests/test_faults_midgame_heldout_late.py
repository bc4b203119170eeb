"""Failing switches, issue 9: held-out international games 4-7 of bench/bench_faults.py --midgame --games 8
(never used to tune the engine). Each test builds the bench's session for one case (the switch fails half a
second before the ply's turn), cut a few plies after the fault, and reads it in both modes."""

from __future__ import annotations


import pytest

from tests.test_faults_matrix import MODES
from simulate_helpers import midgame_case

#: bench_faults.py's mid-game cases: (fault kind, the square of the ply's move it strikes)
CASES = {"dead": ("dead", "landing"), "stuck-closed": ("stuck-closed", "leaving"),
         "dead-under-piece": ("dead", "origin"), "stuck-on-empty": ("stuck-closed", "destination")}


def _midgame(index: int, ply: int, case: str, clock: bool, health: bool, plies: int):
    """bench_faults.py --midgame, international real game ``index``, ``case`` at ply ``ply``; the game cut after
    ``plies`` plies. (session, reconstructor, faulty square)."""
    return midgame_case("international", index, ply, case, clock, health, plies)


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_international_no_clock_game_5_reply_lands_on_the_stuck_captured_square(health):
    """20 sticks closed under black's piece before white's 25x14 takes it: 25 lifted, 14 down, 20 unchanged. Black
    lifts 9 and takes 14 off (9x20, landing unseen on the stuck 20). With 20 standing no capture of 9 takes 14,
    so the lift of 14 dropped black's pending start and everything up to 34-29 ran into one irregular white
    move. Only a capture landing on 20 takes 14 from 9: no piece lands on an occupied square, so black's capture
    is under way (certainty.py ``_captures_onto_unchanged``); 25x14 is committed, and the reply re-reads it with
    20 stuck (stuckempty.py ``_stuck_landing``)."""
    s, r, square = _midgame(5, 16, "stuck-closed", False, health, plies=22)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[15:19] == ["14-19", "25x14", "9x20", "34-29"]
    assert [i for i in r.irregularities if i.status != "dismissed"] == []
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(square, "stuck-closed")]
    assert square == 20


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_no_clock_game_5_reply_lands_on_the_movers_lifted_square(health):
    """25 dies under white's piece 0.15 s after black lifts 14 for 14-19 (read off early); white's 25x14 then
    shows only its landing on 14 and the removal of 20, and black lifts 9 for 9x20. Black's own lifted square
    (14) reads closed again under white's landing, so the lift of 9 was read as black still at work and all ran
    into one irregular 14-19 (wrong-piece-removed, own-piece-removed). That lift now tries unseen.py's
    ``_interleaved`` reading (segmenter.py ``_theirs_off``): 14-19, then 25x14 from the square read off early;
    the lift of 9 begins black's next move."""
    s, r, square = _midgame(5, 16, "dead-under-piece", False, health, plies=24)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[15:19] == ["14-19", "25x14", "9x20", "34-29"]
    assert r.irregularities == []
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(square, "dead")]
    assert square == 25


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_international_no_clock_game_7_landing_before_the_lift_is_no_second_move(health):
    """25 sticks closed under white's piece before white's 25x34 over 30: the capture shows its landing on 34,
    then 30 taken off. Black's 30-34 (a second black move) explains the board exactly too, but 34 closed before
    30 opened: no hand puts a piece down before lifting it (segmenter.py ``_landing_before_its_lift``), so it is not
    read as two-moves; 25x34 is read with 25 stuck (faults.py). Was two-moves twice, then capture-not-taken on
    every white move and position-lost."""
    s, r, square = _midgame(7, 16, "stuck-closed", False, health, plies=22)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[15:18] == ["19x30", "25x34", "14-19"]
    assert r.irregularities == []
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(square, "stuck-closed")]
    assert square == 25
