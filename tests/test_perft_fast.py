"""rig.perft's shortcuts against perft through the public API (legal_moves, push, pop).

rig.perft reads single-jump captures and quiet moves straight off shifted
masks and hands every other capture to the full search of rig.movegen; both
sides have their own functions. Checked here, every variant, either side to
move, at each depth where a different function counts (1: the bulk count,
2: moves then bulk count, 3: the recursion), on positions of random games (men
exchanging single pieces, chains, crowning) and on random placements with kings
(flying kings, the quality law in Portuguese, men crossing the far row).
"""

from __future__ import annotations

import random

import pytest

from naive_movegen import random_pieces
from rig.board import Board, api_perft
from rig.perft import perft
from rig.variants import VARIANTS, get_variant


def game_positions(variant: str, count: int, rng: random.Random) -> list[Board]:
    out = []
    while len(out) < count:
        board = Board(variant)
        for _ in range(rng.randint(0, 90)):
            moves = board.legal_moves
            if not moves:
                break
            board.push(rng.choice(moves))
        out.append(board.copy(stack=False))
    return out


def placements(variant: str, count: int, rng: random.Random) -> list[Board]:
    v = get_variant(variant)
    out = []
    for _ in range(count):
        board = Board(v)
        board.set_pieces(random_pieces(v, rng), rng.random() < 0.5)
        out.append(board)
    return out


def fast(board: Board, depth: int) -> int:
    return perft(board._g, board.wm, board.wk, board.bm, board.bk, board.turn, depth)


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_positions(variant):
    rng = random.Random(f"perft-games-{variant}")
    single = chains = 0
    for board in game_positions(variant, 200, rng):
        for depth in (1, 2, 3):
            assert fast(board, depth) == api_perft(board, depth), (board.fen(), depth)
        longest = max((len(m.captured) for m in board.legal_moves), default=0)
        single += longest == 1
        chains += longest > 1
    assert single >= 10 and chains >= 3  # both capture paths were taken


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_placements_with_kings(variant):
    rng = random.Random(f"perft-placements-{variant}")
    kings = 0
    for board in placements(variant, 300, rng):
        for depth in (1, 2):
            assert fast(board, depth) == api_perft(board, depth), (board.fen(), depth)
        kings += bool(board.wk and board.bk)
    assert kings >= 100


def test_depth_zero_and_both_sides():
    board = Board("brazilian", "B:W21,22:B10,11")
    assert fast(board, 0) == 1
    for turn in (True, False):
        board.turn = turn
        assert fast(board, 2) == api_perft(board, 2)
