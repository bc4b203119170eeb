"""Failing switches, issue 9: `dead` and `dead-under-piece` misses of international games 4-15 of
bench/bench_faults.py --midgame --games 16 (branch faults9m). Each test builds the bench's session for one case
(the switch fails half a second before the ply's turn, tests/test_faults_midgame_heldout_late.py ``_midgame``),
cut a few plies after the fault, and reads it in both modes."""

from __future__ import annotations

import pytest

from tests.test_faults_matrix import MODES
from tests.test_faults_midgame_heldout_late import _midgame


def _read(index: int, ply: int, case: str, clock: bool, health: bool, plies: int):
    s, r, square = _midgame(index, ply, case, clock, health, plies=plies)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert r.irregularities == []
    return s, r, square, got


def _faults(r) -> list[tuple[int, str]]:
    return [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn]


@pytest.mark.parametrize("health", MODES)
def test_dead_international_clock_game_6_closing_after_the_opponents_lift_is_no_late_landing(health):
    """31-26 onto the dead 26 reads 31-27 (27 or 26 dead, open). Black lifts 21 and lands on 27, which closes: that
    closing follows the opponent's lift of a piece that, 31-26 read, lands there, so it is not taken for white's
    piece coming down late (earlylift.py ``_their_landing``: the `dead` fault on 27 is not withdrawn). The re-read
    31-26 then moves the fault to 26, and the landing on 27, hidden by its mask, names no switch stuck closed
    (commit.py: a square the re-read freed). Was 27 dead withdrawn, 27 stuck-closed, and 17x26 due all game."""
    s, r, square, got = _read(6, 16, "dead", True, health, plies=24)
    assert got[16:18] == ["31-26", "21-27"]
    assert _faults(r) == [(square, "dead")]
    assert square == 26


@pytest.mark.parametrize("health", MODES)
def test_dead_international_no_clock_game_14_switch_closing_plies_later_rereads_the_move(health):
    """41-37 onto the dead 37 reads 41-36 (36 or 37 dead, open). Seven moves later white plays 41-36 and 36 closes
    under the piece the game had there: the switch works, so that piece never came down on it (no piece stays in
    the hand over a reply: earlylift.py ``_late_landing`` withdraws only within the next ply). The moves are read
    again with 41-37, the fault moves to 37 and the closing is 41-36's landing (``_switch_works``). Was a silently
    wrong record: 41-36 then 41-37, both legal, 36 withdrawn and 37 named dead."""
    s, r, square, got = _read(14, 10, "dead", False, health, plies=28)
    assert got[10] == "41-37" and got[24] == "41-36"
    assert _faults(r) == [(square, "dead")]
    assert square == 37
    assert any("re-read as 41-37" in o.detail for o in r.observations)


@pytest.mark.parametrize("health", MODES)
def test_dead_international_no_clock_game_9_mover_lifts_his_played_piece_reply_onto_dead_switch(health):
    """32-28 onto the dead 28: 32 lifted, nothing closes; black then lifts 21, the piece he just played. The
    opponent's lifted piece stayed off and the mover goes on: it went to a dead switch (segmenter.py, unseen.py
    ``_dead_landing``; 27 or 28, 27 read, open). White's 28x17 then shows its landing on 17 first: with 32-28
    read, it is a capture from the masked square, so it begins white's turn (unseen.py ``_open_dead_origin``) and
    the moves after it re-read 32-28. Was position-lost, no fault named."""
    s, r, square, got = _read(9, 10, "dead", False, health, plies=18)
    assert got[10:13] == ["32-28", "21-26", "28x17"]
    assert _faults(r) == [(square, "dead")]
    assert square == 28


@pytest.mark.parametrize("health", MODES)
def test_dead_international_no_clock_game_13_capture_from_the_other_square_begins_the_turn(health):
    """32-28 onto the dead 28, then black lifts 19, the piece he just played (19-23): 32-27 read, 28 open. White's
    28x19 lands on 19 before 23 is taken off: a capture from 28 with 32-28 read (``_open_dead_origin``), then
    re-read. Was 24x13 read as an illegal 24-13, and 27 and 28 both named dead."""
    s, r, square, got = _read(13, 22, "dead", False, health, plies=30)
    assert got[22:26] == ["32-28", "19-23", "28x19", "24x13"]
    assert _faults(r) == [(square, "dead")]
    assert square == 28


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_no_clock_game_9_played_piece_lifted_again(health):
    """32 dies under white's piece during black's 16-21 (read lifted before 16); white's 32-28 then shows only its
    landing on 28, and black lifts 21, the piece he played, for 21-26. That lift now tries unseen.py
    ``_interleaved`` (segmenter.py): 16-21, 32-28 from the square read off early, and 21 begins black's next move.
    No piece stands on 32 again in these plies, so no fault is named. Was position-lost."""
    s, r, square, got = _read(9, 10, "dead-under-piece", False, health, plies=18)
    assert got[9:12] == ["16-21", "32-28", "21-26"]
    assert _faults(r) == []
    assert square == 32


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_no_clock_game_13_reply_from_the_other_square(health):
    """32 dies under white's piece before 32-28: the same board as game 13's dead 28 (the lift of 32 unseen as a
    lift, 28 closing), read the same way; 37-32 later shows 32 dead (a piece stands there and reads empty). Was
    an illegal move, own-piece-removed and capture-removed-early."""
    s, r, square, got = _read(13, 22, "dead-under-piece", False, health, plies=30)
    assert got[22:27] == ["32-28", "19-23", "28x19", "24x13", "37-32"]
    assert _faults(r) == [(square, "dead")]
    assert square == 32


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_no_clock_game_12_next_move_lands_during_the_reply(health):
    """34 dies under white's piece 0.15 s after black lifts 12 for 12-18; white's 34-29 then shows only its
    landing on 29, and the board stays still. Three moves ran into one turn (37-32, 12-18, 34-29: position-lost).
    unseen.py ``_interleaved`` now also takes, after the mover's move and the reply, a square that closed after
    the mover's piece read off (``_own_landings``) as the landing of his next move when that piece has a legal
    move there (``_lands_next``): 37-32, 12-18, and 34-29 read by the next turn."""
    s, r, square, got = _read(12, 22, "dead-under-piece", False, health, plies=30)
    assert got[20:25] == ["37-32", "12-18", "34-29", "23x34", "39x30"]
    assert _faults(r) == [(square, "dead")]
    assert square == 34


@pytest.mark.parametrize("health", MODES)
def test_dead_international_no_clock_game_5_quiet_reply_from_the_other_square(health):
    """34-30 onto the dead 30 reads 34-29 (29 or 30 dead, open). White's 30-25 then shows only its landing on 25,
    0.8 s after black's 7-12: no move from the masked 29 reaches it, but with 34-30 read one from 30 does
    (unseen.py ``_open_dead_origin``), so it begins white's turn; the moves after it re-read 34-30 and the fault
    moves to 30. Was position-lost."""
    s, r, square, got = _read(5, 10, "dead", False, health, plies=18)
    assert got[10:13] == ["34-30", "7-12", "30-25"]
    assert _faults(r) == [(square, "dead")]
    assert square == 30
    assert any("re-read as 34-30" in o.detail for o in r.observations)
