"""The engine's per-position shortcuts give what the board itself gives: FenWriter's text is Board.fen()
exactly, and PositionIndex holds the legal moves, captures due and candidates of the position."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rig.board import Board
from rig.geometry import geometry
from rig.reconstruct.fenwriter import FenWriter, _byte_squares
from rig.reconstruct.matcher import PositionIndex, capture_sequences
from rig.simulate import random_game
from rig.variants import get_variant

VARIANTS = ("portuguese", "brazilian", "international")


def _game_boards(variant: str, seed: int) -> list[Board]:
    board = Board(variant)
    out = [board.copy()]
    for move in random_game(variant, 150, seed):
        board.push(move)
        out.append(board.copy())
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_fen_writer_follows_games(variant):
    writer = FenWriter(get_variant(variant), limit=8)   # small: the kept items are cleared often
    for seed in range(4):
        for board in _game_boards(variant, seed):
            assert writer.fen(board) == board.fen()
            assert writer.fen(board) == board.fen()     # the kept parts read the same


@pytest.mark.parametrize("variant", VARIANTS)
def test_byte_squares_table(variant):
    """Each byte of each chunk of a bitboard gives the squares of its set bits, ascending, ghosts left out."""
    v = get_variant(variant)
    sq = geometry(v).sq
    table = _byte_squares(v)
    assert len(table) == (len(sq) + 7) // 8
    for k, chunk in enumerate(table):
        assert len(chunk) == 256
        for byte, squares in enumerate(chunk):
            bits = [8 * k + i for i in range(8) if byte >> i & 1 and 8 * k + i < len(sq)]
            assert squares == tuple(sorted(sq[b] for b in bits if sq[b]))


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_fen_writer_any_position(variant, data):
    v = get_variant(variant)
    squares = data.draw(st.lists(st.integers(1, v.squares), unique=True, max_size=v.squares))
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    board = Board(v)
    board.set_pieces({s: (rng.random() < 0.5, rng.random() < 0.3) for s in squares}, rng.random() < 0.5)
    assert FenWriter(v).fen(board) == board.fen()


@pytest.mark.parametrize("variant", VARIANTS)
def test_position_index_matches_board(variant):
    for seed in range(3):
        for board in _game_boards(variant, seed)[::3]:
            index = PositionIndex(board)
            moves = board.legal_moves_all_paths()
            assert index.moves == moves
            assert index.keys == {m.key for m in board.legal_moves}
            assert index.due == board.is_capture_due()
            assert index.has_moves == bool(moves)
            assert index.longest == max((len(m.captured) for m in moves), default=0)
            assert index.origins == {m.origin for m in moves}
            assert index.own == {s for s, (w, _k) in board.pieces().items() if w == board.turn}
            assert index.legal_moves == board.legal_moves
            assert index.sequences == capture_sequences(board)
            for dest in range(1, board.variant.squares + 1):
                assert index.to(dest) == [m for m in moves if m.destination == dest]
            assert index.round_trips == [m for m in moves if m.origin == m.destination]
