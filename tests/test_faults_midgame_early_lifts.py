"""Failing switches, issue 9 part 3 (fourth pass): a switch that dies under a piece while the opponent's move is
under way, without a clock (bench/bench_faults.py --midgame ``dead-under-piece``). Its lift reads before the
opponent's first lift, or right after the reply's lift while the mover's move is still on the board; the turn is
read as the mover's move and the reply, the piece's lift setting out his next move
(rig/reconstruct/unseen.py ``UnseenReplies._interleaved``), never as a lost position."""

from __future__ import annotations

import zlib

import pytest

from rig.simulate import HumanModel, simulate_game
from sensors.simulation import through_matrix
from tests.test_faults_matrix import MODES, _game
from simulate_helpers import read_with_health


def _dead_under_piece(variant: str, ply: int, health: bool, plies: int, clock: bool = False):
    """bench_faults.py --midgame dead-under-piece (without a clock unless ``clock``): the switch under the piece
    that ply ``ply`` moves dies half a second before that turn; the game cut after ``plies`` plies. (session,
    reconstructor)."""
    game = _game(variant, 0)
    seed = f"mid:{variant}:{ply}:{clock}"
    s = simulate_game(variant, game.moves[:plies], fen=game.fen, seed=seed, clock=clock,
                      model=HumanModel(bounce_p=0.0), tags=game.tags)
    square = game.moves[ply].origin
    s = through_matrix(s, [f"dead:{square}@{s.turns[ply].start_t - 0.5:.4f}"], seed=zlib.crc32(seed.encode()))
    r = read_with_health(s, health)
    return s, r


def _read_exactly(s, r) -> list[str]:
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert r.irregularities == []
    return got


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_portuguese_no_clock_lift_read_before_the_opponents_move(health):
    """13 dies (reads empty) 0.16 s before black lifts 21 for 21-17; white's 13-18 then shows only its landing,
    and black lifts 28 for his next move. Read as 21-17 then 13-18 (the lift of 13 set apart as the reply's),
    not as a lost position."""
    s, r = _dead_under_piece("portuguese", 10, health, plies=14)
    assert _read_exactly(s, r)[9:12] == ["21-17", "13-18", "28-24"]


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_brazilian_no_clock_lift_read_before_the_opponents_move(health):
    """The same on the Brazilian board: the switch under the piece of b4-a5 dies during a7-b6."""
    s, r = _dead_under_piece("brazilian", 10, health, plies=14)
    assert _read_exactly(s, r)[9:11] == ["a7-b6", "b4-a5"]


def test_dead_under_piece_brazilian_no_clock_later_in_the_game():
    """Brazilian, ply 16: the switch under a1 dies during b6-c5; a1-b2 follows."""
    s, r = _dead_under_piece("brazilian", 16, True, plies=20)
    assert _read_exactly(s, r)[15:17] == ["b6-c5", "a1-b2"]


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_no_clock_lift_read_during_the_reply(health):
    """34 dies 5 ms after black lifts 19 for 19-23, white's 36-31 on the board: the board then stays still with
    both colours gone (no one move explains it). Read as 36-31, 19-23, and 34 lifted for white's next move
    (34-29 lands 4 s later), not as a lost position."""
    s, r = _dead_under_piece("international", 10, health, plies=14)
    assert _read_exactly(s, r)[8:11] == ["36-31", "19-23", "34-29"]


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_no_clock_lift_read_during_a_capture(health):
    """37 dies while black's 14x23 is under way (after the lift of 14, before the landing on 23 and the removal
    of 19); white's 37-32 then shows only its landing, and black lifts 21. Read as 14x23 then 37-32 (the lift of
    37 set apart as the reply's, not a piece the capture took), not as a lost position."""
    s, r = _dead_under_piece("international", 16, health, plies=20)
    assert _read_exactly(s, r)[15:18] == ["14x23", "37-32", "21-27"]
