"""Failing switches, issue 9 (``faults9o``): a switch stuck closed under one of two squares a move could come from,
read under the wrong one (bench/bench_faults.py --midgame --games 24 --variant international ``stuck-closed``).

The move shows only its landing (its origin's switch sticks half a second before the turn); two origins fit, the
engine reads one, an observation names both and the reading stays open (chainread.py). A stuck switch never opens:
when the square read stuck opens (the piece that stood there all along is lifted), the reading is taken the other
way, the fault moves, and the lift is read (earlylift.py ``_switch_works``), however many plies later. Each test
builds the bench's session (its seed and fault), cut a few plies after that lift: the moves are read exactly, the
switch is named and no player irregularity stands."""

from __future__ import annotations

import pytest

from tests.test_faults_matrix import MODES
from simulate_helpers import midgame_case, standing


def _stuck_leaving(index: int, ply: int, clock: bool, health: bool, plies: int):
    """bench_faults.py --midgame ``stuck-closed`` on international game ``index``: the switch under the lowest
    square ply ``ply`` empties sticks closed half a second before that turn. (session, reconstructor, square)."""
    return midgame_case("international", index, ply, "stuck-closed", clock, health, plies)


def _faults(r) -> list:
    return [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn]


def _re_reads(r) -> list:
    return [(o.number, o.detail) for o in r.observations if "re-read as" in o.detail]


@pytest.mark.parametrize("health", MODES)
def test_stuck_pair_international_no_clock_game_15_stuck_square_opens(health):
    """Game 15, without a clock: 45 sticks under white's piece; 45-40 shows only its landing, read 44-40 with 44
    stuck (44 or 45, an observation). Four plies later white lifts 44 for 44-39: the switch of 44 opens, which a
    stuck switch never does, so the piece stood there: 44-40 is re-read as 45-40, the fault moves to 45, and the
    lift of 44 is read (was 43-39 from a second stuck switch, then irregularities)."""
    s, r, square = _stuck_leaving(15, 28, False, health, plies=34)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[28:33] == ["45-40", "2-8", "39-34", "7-11", "44-39"]
    assert standing(r) == []
    assert _faults(r) == [(square, "stuck-closed")] == [(45, "stuck-closed")]
    assert _re_reads(r) == [(15, "44-40 re-read as 45-40")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_pair_international_clock_game_18_stuck_square_opens_past_the_reread_plies(health):
    """Game 18, with a clock: 50 sticks; 50-44 shows only its landing, read 49-44 (49 or 50). The piece on 49 stands
    until ply 94, 78 plies later (past ``REREAD_FAULT_PLIES``): its lift opens 49, so 49-44 is re-read as 50-44
    then (every move between staying legal), not read as 50-44 again from a second stuck switch under 50."""
    s, r, square = _stuck_leaving(18, 16, True, health, plies=98)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[16] == "50-44" and got[94] == "49-44"
    assert standing(r) == []
    assert _faults(r) == [(square, "stuck-closed")] == [(50, "stuck-closed")]
    assert _re_reads(r) == [(9, "49-44 re-read as 50-44")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_pair_international_clock_game_22_moves_onto_the_wrong_square_move_with_the_fault(health):
    """Game 22, with a clock: 44 sticks; 44-39 read 43-39 (43 or 44). Later 49-44 lands on the stuck 44 unseen and is
    read 49-43 (onto the masked 43), and 44-39 again read 43-39. White's 43-38 then opens 43: re-read with 44 stuck,
    the moves read onto and off the masked 43 move with the fault to 44 (49-44, 44-39) although 43-39 stays legal
    there (43 working, its lift would have shown); was 42-38 from a second stuck switch, then irregularities."""
    s, r, square = _stuck_leaving(22, 28, True, health, plies=62)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert [got[i] for i in (28, 38, 52, 58)] == ["44-39", "49-44", "44-39", "43-38"]
    assert standing(r) == []
    assert _faults(r) == [(square, "stuck-closed")] == [(44, "stuck-closed")]
    assert _re_reads(r) == [(15, "43-39 re-read as 44-39")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_pair_international_no_clock_game_22_opponent_lands_on_the_other_stuck_square(health):
    """Game 22, without a clock: 40 sticks; 40-34 shows only its landing, read 39-34 (39 or 40). Black plays 1-6,
    white lifts 45 for 45-40, which lands unseen on the stuck 40 (it reads closed before and after), and black
    lifts 21: no masked square takes 45's piece, but with 40-34 read (40 masked, empty) 45-40 is legal, so the ply
    is re-read, 1-6 committed and 45-40 read at black's lift (stuckpair.py ``_split_to_stuck``; was
    position-lost)."""
    s, r, square = _stuck_leaving(22, 10, False, health, plies=16)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[10:14] == ["40-34", "1-6", "45-40", "21-26"]
    assert standing(r) == []
    assert _faults(r) == [(square, "stuck-closed")] == [(40, "stuck-closed")]
    assert _re_reads(r) == [(6, "39-34 re-read as 40-34")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_pair_international_clock_game_19_ghost_refuted_then_the_same_switch_stays_closed(health):
    """Game 19, with a clock: 40 sticks; 40-34 leaves 40 reading closed, read as a ghost of a missing diode at 34
    (34 and two corners of a rectangle closed). A settled frame then shows that rectangle standing with its fourth
    corner open: 34's diode is in place, the ghost fault is withdrawn and its masks freed (ghostread.py
    ``_refute_named``), not kept to mask squares for the rest of the game. At ply 48, 40-34 again leaves 40 closed
    (39-34 fits too): the switch that already read closed after its piece left is taken first, ``stuck-closed``,
    with no re-read needed (was 39-34 with 39 "held by the scanner", then position-lost)."""
    s, r, square = _stuck_leaving(19, 10, True, health, plies=52)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[10] == got[48] == "40-34"
    assert standing(r) == []
    assert _faults(r) == [(square, "stuck-closed")] == [(40, "stuck-closed")]
    assert [(f.square, f.kind) for f in r.sensor_faults if f.withdrawn] == [(34, "ghost")]
    assert [(o.number, o.squares) for o in r.observations] == [(25, (40, 39))]
    assert _re_reads(r) == []


@pytest.mark.parametrize("clock", [True, False], ids=["clock", "no_clock"])
@pytest.mark.parametrize("health", MODES)
def test_stuck_pair_international_game_16_refuted_ghost_names_the_origin_stuck(clock, health):
    """Game 16, ply 13 (found on the plies the bench had never tried, `--plies 13 19 25 31`): 11 sticks under
    black's piece; 11-17 leaves 11 reading closed with 17 and two corners of a rectangle, read as a ghost of a
    missing diode at 17 (the move right). When a settled frame refutes 17's diode, 11 still reads closed with no
    piece on it and no ghost to explain it: its own switch is stuck (ghostread.py ``_refute_named``). Freed
    instead, 11 read the piece that left as standing: 12-17 re-read, then black's 6-11 read 6-12, `illegal-move`."""
    s, r, square = midgame_case("international", 16, 13, "stuck-closed", clock, health, 20)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[13] == "11-17" and got[15] == "6-11"
    assert standing(r) == []
    assert (square, "stuck-closed") in _faults(r) and square == 11


@pytest.mark.parametrize("clock", [True, False], ids=["clock", "no_clock"])
@pytest.mark.parametrize("health", MODES)
def test_stuck_pair_international_game_16_refuted_ghost_keeps_the_pair_open(clock, health):
    """Game 16, ply 19 (the same plies): 4 sticks; its move is read from 5 with 5 a ghost of a missing diode at 32
    (4 or 5). When 32's diode is refuted, 5 still reads closed with no piece on it in the game read: it is named
    stuck closed, and the move stays one of two, now read with a stuck switch under its origin, so when the piece
    on 5 is lifted (a stuck switch never opens) the move is re-read from 4 and the fault moves there (was
    position-lost: 5's opening read against a move that had taken the other way for good)."""
    s, r, square = midgame_case("international", 16, 19, "stuck-closed", clock, health, 50)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert standing(r) == []
    assert _faults(r)[-1:] == [(square, "stuck-closed")] and square == 4


@pytest.mark.parametrize("health", MODES)
def test_stuck_pair_brazilian_no_clock_stuck_square_opens_before_the_mover_move_is_committed(health):
    """Brazilian game 2, without a clock: e5 sticks; e5-d4 shows only its landing, read c5-d4 with c5 stuck (c5 or
    e5, an observation). Three plies later white plays a3-b4 and black lifts c5 for c5xa3: without a clock a3-b4 is
    committed only at black's first change, and the opening of the masked c5 is none, so when a3 closes (c5xa3's
    landing) a3-b4 is not yet on the board. The landing is checked on the board after the move the frame shows
    (a3-b4): c5's opening is the lift, c5-d4 is re-read as e5-d4 and the fault moves to e5 (was read as c5's
    switch recovering, then irregularities)."""
    s, r, square = midgame_case("brazilian", 2, 17, "stuck-closed", False, health, 24)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[17:24] == ["e5-d4", "d2-e3", "f8-g7", "a3-b4", "c5xa3", "e3xc5", "d6xb4"]
    assert standing(r) == []
    assert _faults(r) == [(square, "stuck-closed")] == [(15, "stuck-closed")]
    assert [f.until for f in r.sensor_faults if not f.withdrawn] == [None]
