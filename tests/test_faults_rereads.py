"""Failing switches, issue 9 part 3 (second pass): a masked reading re-read from the moves after it
(rig/reconstruct/chainread.py) and a reply from a switch that stuck mid-game without a clock
(rig/reconstruct/unseen.py), per variant and clock mode, through the simulated matrix as bench/bench_faults.py
plays them."""

from __future__ import annotations


import pytest

from rig.board import Board
from rig.reconstruct.chainread import OpenReading, reread_chain, turn_shown
from rig.reconstruct.matcher import PositionIndex
from rig.reconstruct.state import Segment
from rig.reconstruct.unseen import stuck_origin_replies
from rig.variants import get_variant
from tests.test_faults_matrix import MODES, _exact, _read
from simulate_helpers import midgame_case


def _midgame(variant: str, ply: int, kind: str, clock: bool, health: bool, plies: int | None = None):
    """bench_faults.py --midgame: the switch under the square the ply's move leaves sticks (or the one it
    lands on dies) half a second before that turn. (session, reconstructor, square)."""
    return midgame_case(variant, 0, ply, kind, clock, health, plies)


def _re_read(r, text: str) -> bool:
    return any(f"re-read as {text}" in o.detail for o in r.observations)


# -- a missing diode: the moves after an open reading tell it ------------------------------------------------


@pytest.mark.parametrize("health", MODES)
def test_missing_diode_open_reading_re_read_from_the_next_move_international_clock(health):
    """8-13 with 12 and 13 both ghosts fits as well as 8-12 (an observation); black's 13-19 two moves later
    reads as 12-19, no legal move: the open reading taken the other way makes it one, so 8-13 is re-read
    (and white's move between stays), no illegal-move."""
    s, r = _read("international", 9, "missing-diode:29", True, health, plies=92)
    _exact(s, r, 29, "ghost")
    assert _re_read(r, "8-13")
    assert "taken back" not in r.pdn()


def test_moves_re_read_keep_their_clock_stamps_international_clock():
    """8-12 re-read as 8-13 (and 49-44 after it read again): both keep the times their presses gave, in the
    entries and in the PDN's %clock comments."""
    s, r = _read("international", 9, "missing-diode:29", True, True, plies=92)
    assert _re_read(r, "8-13")
    live = [m for m in r.moves if not m.withdrawn]
    assert [m.move_text for m in live] == s.expected_moves
    assert all(m.clock_ms is not None for m in live)
    withdrawn = {(m.number, m.side): m.clock_ms for m in r.moves if m.withdrawn}
    again = [m for m in live if (m.number, m.side) in withdrawn]
    assert [m.move_text for m in again] == ["8-13", "49-44"]
    assert all(m.clock_ms == withdrawn[m.number, m.side] for m in again)
    pdn = r.pdn()
    assert "8-13 {[%clock W0:56:06 b0:56:35]}" in pdn and "49-44 {[%clock w0:56:02 B0:56:35]}" in pdn


def test_missing_diode_open_reading_re_read_from_the_next_move_international_no_clock():
    s, r = _read("international", 9, "missing-diode:29", False, True, plies=92)
    _exact(s, r, 29, "ghost")
    assert _re_read(r, "8-13")


def test_missing_diode_two_open_readings_the_fewest_changed_international_clock():
    """41-36/41-37 and then 11-17/12-17 both open; white's 39-34 fits only with 41-37, whichever of black's
    two readings: the way that changes the fewest readings is taken (11-17 stays)."""
    s, r = _read("international", 0, "missing-diode:29", True, True, plies=70)
    _exact(s, r, 29, "ghost")
    assert _re_read(r, "41-37")


def test_missing_diode_open_reading_re_read_at_the_still_board_international_no_clock():
    """Without a clock white's 39-34 is read on a still board: no move explains it under 41-36, one does under
    41-37 (no position-lost)."""
    s, r = _read("international", 0, "missing-diode:29", False, True, plies=70)
    _exact(s, r, 29, "ghost")
    assert _re_read(r, "41-37")


def test_missing_diode_freed_squares_re_read_while_the_reply_is_under_way_international_no_clock():
    """White lifts 29 (the diode-less square) while black's 20-25 is not yet read: the rectangle breaks, 37
    reads occupied and 36 empty, so 41-36 is re-read as 41-37 under black's turn (no wrong-piece-removed)."""
    s, r = _read("international", 8, "missing-diode:29", False, True, plies=32)
    _exact(s, r, 29, "ghost")
    assert _re_read(r, "41-37")


# -- a switch that sticks mid-game, without a clock -----------------------------------------------------------


@pytest.mark.parametrize("health", MODES)
def test_stuck_mid_game_reply_from_the_stuck_square_brazilian_no_clock(health):
    """b4 sticks closed; white's b4-a5 shows only a5 closing, then black lifts f6: black's a7-b6, the stuck
    switch and white's reply are read (no position-lost)."""
    s, r, square = _midgame("brazilian", 10, "stuck-closed", False, health, plies=16)
    _exact(s, r, square, "stuck-closed")
    assert r.observations == []


def test_stuck_mid_game_two_origins_an_observation_brazilian_no_clock():
    """a1 sticks; white's a1-b2 shows only b2 closing, and c1-b2 fits too: the lowest origin is read, an
    observation names both (the game goes on exact)."""
    s, r, square = _midgame("brazilian", 16, "stuck-closed", False, True, plies=24)
    _exact(s, r, square, "stuck-closed")
    assert [o.squares for o in r.observations if "stuck closed under any of" in o.why] == [(29, 30)]


def test_stuck_mid_game_reply_captures_the_piece_just_played_portuguese_no_clock():
    """10 sticks; black's 19-14 is taken by white's 10x19 from the stuck square: the landing on the square
    black just left, then the removal of the piece he played, are the reply (not his piece taken off)."""
    s, r, square = _midgame("portuguese", 16, "stuck-closed", False, True, plies=24)
    _exact(s, r, square, "stuck-closed")


@pytest.mark.parametrize("health", MODES)
def test_stuck_mid_game_two_origins_international_no_clock(health):
    s, r, square = _midgame("international", 16, "stuck-closed", False, health, plies=24)
    _exact(s, r, square, "stuck-closed")


# -- the pure functions ---------------------------------------------------------------------------------------


def test_stuck_origin_replies_portuguese():
    """White to move; 14 closes and no origin opened: 10-14 or 11-14 from a stuck switch (the sensors cannot
    tell which); a square that changed in the turn is no stuck origin."""
    v = get_variant("portuguese")
    board = Board(v)
    occ = board.occupied()
    after = (occ - {10}) | {14}
    replies = stuck_origin_replies(board, PositionIndex(board), occ, after | {10}, ())
    assert [m.text() for m in replies] == ["10-14", "11-14"]
    assert [m.text() for m in stuck_origin_replies(board, PositionIndex(board), occ, after | {10}, (10,))] == [
        "11-14"]


def test_reread_chain_takes_the_other_reading_only_when_it_alone_explains_portuguese():
    """10-13 was read where 10-14 fitted as well; black's 21-17, then white's 14-18 only fits with 10-14."""
    v = get_variant("portuguese")
    start = Board(v)
    occ0 = start.occupied()
    moves = {m.text(): m for m in PositionIndex(start).moves}
    read, other = moves["10-13"], moves["10-14"]
    b1 = start.copy()
    b1.push(read)
    reply = next(m for m in PositionIndex(b1).moves if m.text() == "21-17")
    boards = [start, b1]
    after_reply = ((occ0 - {10}) | {14}) - {21} | {17}
    seg = Segment(0.0, after_reply)
    now = (after_reply - {14}) | {18}
    accept = turn_shown(seg, now, frozenset(), lambda b: PositionIndex(b))
    found = reread_chain([OpenReading(0, (read, other), occ0)], [read, reply], lambda k: boards[k],
                         lambda b: PositionIndex(b), accept)
    assert found is not None and [m.text() for m, _ in found.steps] == ["10-14", "21-17"]
    assert found.current.move.text() == "14-18"
    # nothing open: nothing to re-read
    assert reread_chain([], [read, reply], lambda k: boards[k], lambda b: PositionIndex(b), accept) is None


# -- a faulty switch read on one of two squares: the moves after it move the fault ---------------------------


@pytest.mark.parametrize("health", MODES)
def test_dead_mid_game_on_one_of_two_squares_moved_by_a_later_move_international_clock(health):
    """37 dies before 41-37: 41-36 with 36 dead fits as well (an observation); 37x28 many moves later shows no
    legal move under 41-36 but one under 41-37: the moves from there are read again and the fault moves to
    37 (no illegal-move)."""
    s, r, square = _midgame("international", 22, "dead", True, health, plies=60)
    _exact(s, r, square, "dead")
    assert _re_read(r, "41-37")


def test_dead_mid_game_on_one_of_two_squares_moved_by_a_later_capture_international_no_clock():
    """The same without a clock: white's capture from 37 shows its landing and then the removal (a lift of a
    black piece): under 41-37 that is the capture with its taken piece being lifted, so the moves are re-read
    there."""
    s, r, square = _midgame("international", 22, "dead", False, True, plies=60)
    _exact(s, r, square, "dead")
    assert _re_read(r, "41-37")


# -- a switch that dies mid-game under the opponent's landing, without a clock ------------------------------


@pytest.mark.parametrize("health", MODES)
def test_dead_mid_game_reply_lands_unseen_brazilian_no_clock(health):
    """a5 dies; white lifts b4 after black's a7-b6 and nothing closes, then black lifts f6: white's move went
    to a dead switch (b4-a5 or b4-c5: an observation names both, the lowest is read), not the mover still at
    work (no position-lost)."""
    s, r, square = _midgame("brazilian", 10, "dead", False, health, plies=16)
    _exact(s, r, square, "dead")
    assert [o.squares for o in r.observations if "dead switch under any of" in o.why] == [(13, 14)]


def test_dead_mid_game_reply_lands_unseen_one_square_brazilian_no_clock():
    """b2 dies; white's a1-b2 shows only the lift, then black lifts e5: no two-moves, no wrong-piece-removed."""
    s, r, square = _midgame("brazilian", 16, "dead", False, True, plies=24)
    _exact(s, r, square, "dead")
    assert r.observations == []


@pytest.mark.parametrize("health", MODES)
def test_reply_onto_a_masked_stuck_square_is_no_dead_landing_brazilian_no_clock(health):
    """f6-e5 onto the stuck (masked) e5 shows only the lift, then white lifts e3: the masked square's reading
    is the game's, so the reply went there; no dead switch is inferred on g5."""
    s, r = _read("brazilian", 0, "stuck-closed:15", False, health)
    _exact(s, r, 15, "stuck-closed")


@pytest.mark.parametrize("health", MODES)
def test_stuck_mid_game_capture_onto_the_square_left_is_no_take_back_portuguese_clock(health):
    """10 sticks; white's 10x19 lands where black's 19-14 came from, then takes 14 off: the board is as before
    19-14, but the landing came before the lift (no hand puts a piece down before lifting it): no
    move-taken-back; the press reads the capture from the stuck switch."""
    s, r, square = _midgame("portuguese", 16, "stuck-closed", True, health, plies=24)
    _exact(s, r, square, "stuck-closed")
