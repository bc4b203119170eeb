"""The rig's move generator against the naive one in tests/naive_movegen.py.

Full legal move sets (origin, destination, captured set, promotion) and every
landing path are compared on hand-made midgame positions with kings (the
capture laws where generators go wrong: flying-king landings that continue or
not, circular captures back to the start square, pieces that cannot be jumped
twice or in a row, the quantity and quality laws, men crossing the far row),
on thousands of random piece placements, and on positions of random games.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from naive_movegen import naive_moves, naive_moves_all_paths, naive_perft, random_pieces
from rig.board import Board
from rig.variants import FILES, VARIANTS, Variant, get_variant

# Hand-made positions, written on an 8x8 board whose a1 is dark (brazilian
# geometry): (name, white pieces, black pieces, white to move). "K" marks a king.
# For international they are moved two ranks up; for portuguese (dark square at
# the bottom right, FPD 1.2) they are mirrored left-right. Either way the
# diagonal structure, and so the tricky feature, is kept.
HAND = [
    ("king landings, only some continue", "Ka1,e1,g1", "c3,f4,b6,h8", True),
    ("windmill back to the start square", "Kc1,h2", "d2,d4,b4,b2,g7", True),
    ("two pieces in a row cannot be jumped", "Ka1,g1,e3", "c3,d4,f8,Kh6", True),
    ("king at distance, several landings", "Kh8,e1,a3", "c3,Ke5,b6", True),
    ("black king, four directions", "c3,g3,c7,g7,e1", "Ke5,a7,h6", False),
    ("man crosses the far row and goes on", "b6,e1", "c7,e7,a5", True),
    ("man ends on the far row", "f6,a1", "e7,h6", True),
    ("quality: kings taken tie", "c3,g3,a3,e1", "d4,f6,Kf4,d6,Kb4,h8", True),
    ("quality: one chain takes two kings", "c3,g3,a3,e1", "d4,Kf6,Kf4,d6,b4,h8", True),
    ("quantity beats quality", "a1,h2,c1", "b2,d4,f6,Kg3,Kg5,a7", True),
    ("men capture backward (not in portuguese)", "d4,h2", "c3,e5,f6,a7", True),
    ("captured pieces stay as blockers", "Ka3,g1", "c5,e5,e3,c3,Kg7,a7", True),
    ("kings on both sides, black to move", "Kb2,c3,e3,Kg5,f2", "Kd6,b6,e7,g7,Kh4", False),
    ("crowded middle game with kings", "a1,c1,e1,b2,d2,Kf4,c3,g3,h4",
     "Kd8,b8,a7,c7,e7,f6,b6,d6,h6,Ka5", True),
    ("king behind own man, capture through a gap", "Kd4,c3,e5", "f6,b6,g7,a7,Kb2", True),
    ("black man capture chain with choices", "c3,e3,c5,e5,g5,Ka1", "d6,Kh8,b8", False),
]


def _place(variant: Variant, name: str) -> int:
    f, r = FILES.index(name[0]), int(name[1:]) - 1
    if variant.name == "international":
        r += 2
    elif variant.name == "portuguese":
        f = variant.size - 1 - f
    sq = variant.square_at(f, r)
    assert sq is not None, f"{name} is not a dark square of {variant.name}"
    return sq


def hand_position(variant: Variant, white: str, black: str) -> dict[int, tuple[bool, bool]]:
    pieces: dict[int, tuple[bool, bool]] = {}
    for colour, spec in ((True, white), (False, black)):
        for item in spec.split(","):
            king = item.startswith("K")
            sq = _place(variant, item[1:] if king else item)
            assert sq not in pieces
            pieces[sq] = (colour, king)
    return pieces


def rig_board(variant: Variant, pieces: dict[int, tuple[bool, bool]], white_to_move: bool) -> Board:
    board = Board(variant)
    board.set_pieces(pieces, white_to_move)
    return board


def assert_same_moves(variant: Variant, pieces: dict[int, tuple[bool, bool]], white_to_move: bool) -> None:
    board = rig_board(variant, pieces, white_to_move)
    where = f"{variant.name} {board.fen()}"
    rig = {m.key: m.promotes for m in board.legal_moves}
    assert len(rig) == len(board.legal_moves), f"duplicate keys in legal_moves: {where}"
    assert rig == naive_moves(variant, pieces, white_to_move), where
    rig_paths = Counter((m.path, m.captured, m.promotes) for m in board.legal_moves_all_paths())
    naive_paths = Counter((m.path, m.captured, m.promotes)
                          for m in naive_moves_all_paths(variant, pieces, white_to_move))
    assert rig_paths == naive_paths, where


CASES = [(v, h) for v in VARIANTS for h in HAND]


@pytest.mark.parametrize("variant,case", CASES, ids=[f"{v}-{h[0]}" for v, h in CASES])
def test_hand_made_positions(variant, case):
    v = get_variant(variant)
    _, white, black, white_to_move = case
    assert_same_moves(v, hand_position(v, white, black), white_to_move)


def _hand(variant: str, name: str) -> Board:
    v = get_variant(variant)
    _, white, black, wtm = next(h for h in HAND if h[0] == name)
    return rig_board(v, hand_position(v, white, black), wtm)


# The hand-made positions really exercise what their names say (checked by hand).

@pytest.mark.parametrize("variant", VARIANTS)
def test_windmill_returns_to_start_by_two_paths(variant):
    board = _hand(variant, "windmill back to the start square")
    home = [m for m in board.legal_moves if m.origin == m.destination]
    assert home and all(len(m.captured) == 4 for m in home)
    for move in home:  # once round each way: one move, two paths
        paths = [m for m in board.legal_moves_all_paths() if m.key == move.key]
        assert len(paths) == 2 and paths[0].path == tuple(reversed(paths[1].path))


@pytest.mark.parametrize("variant", VARIANTS)
def test_some_king_landings_continue(variant):
    board = _hand(variant, "king landings, only some continue")
    v = board.variant
    king = _place(v, "a1")
    caps = [m for m in board.legal_moves if m.origin == king]
    assert caps and all(len(m.captured) == 2 for m in caps)
    # the king lands on d4 to go on over b6, on e5 to go on over f4; every other landing stops
    assert {m.path[1] for m in board.legal_moves_all_paths()} == {_place(v, "d4"), _place(v, "e5")}


@pytest.mark.parametrize("variant", VARIANTS)
def test_two_in_a_row_are_not_jumped(variant):
    board = _hand(variant, "two pieces in a row cannot be jumped")
    king = _place(board.variant, "a1")
    assert all(m.origin != king or not m.captured for m in board.legal_moves)


@pytest.mark.parametrize("variant", ["brazilian", "international"])
def test_man_crossing_the_far_row_stays_a_man(variant):
    board = _hand(variant, "man crosses the far row and goes on")
    v = board.variant
    far = v.promotion_squares(True)
    (move,) = board.legal_moves
    assert len(move.captured) == 2 and any(s in far for s in move.path[1:-1])
    assert move.destination not in far and not move.promotes
    board.push(move)
    assert board.piece_at(move.destination) == (True, False)


@pytest.mark.parametrize("variant", VARIANTS)
def test_man_ending_on_far_row_is_crowned(variant):
    board = _hand(variant, "man ends on the far row")
    (move,) = board.legal_moves
    assert move.promotes and move.destination in board.variant.promotion_squares(True)
    board.push(move)
    assert board.piece_at(move.destination) == (True, True)


def test_portuguese_men_do_not_capture_backward():
    board = _hand("portuguese", "men capture backward (not in portuguese)")
    assert not any(m.captured for m in board.legal_moves)
    assert any(m.captured for m in _hand("brazilian", "men capture backward (not in portuguese)").legal_moves)


def test_portuguese_quality_tie_leaves_free_choice():
    board = _hand("portuguese", "quality: kings taken tie")
    moves = board.legal_moves
    # two chains of the man on g3 and one of the man on a3 each take a man and a king
    assert len(moves) == 3 and len({m.origin for m in moves}) == 2
    assert all(len(m.captured) == 2 and sum(board.piece_at(s)[1] for s in m.captured) == 1 for m in moves)
    # the man on c3 takes two pieces too, but no king
    assert _place(board.variant, "c3") not in {m.origin for m in moves}


def test_portuguese_quality_takes_the_two_kings():
    board = _hand("portuguese", "quality: one chain takes two kings")
    (move,) = board.legal_moves
    assert all(board.piece_at(s)[1] for s in move.captured)


@pytest.mark.parametrize("variant", VARIANTS)
def test_quantity_beats_quality(variant):
    board = _hand(variant, "quantity beats quality")
    assert {len(m.captured) for m in board.legal_moves} == {3}


# -- random positions -----------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_random_placements(variant):
    v = get_variant(variant)
    rng = random.Random(f"naive-{variant}")
    captures = 0
    for _ in range(1500):
        pieces = random_pieces(v, rng)
        wtm = rng.random() < 0.5
        assert_same_moves(v, pieces, wtm)
        captures += any(naive_moves(v, pieces, wtm))  # keys are truthy
    assert captures > 300  # the sample is not all quiet positions


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games(variant):
    v = get_variant(variant)
    rng = random.Random(f"games-{variant}")
    kings_seen = 0
    for _ in range(40):
        board = Board(v)
        for _ply in range(200):
            assert_same_moves(v, board.pieces(), board.turn)
            moves = board.legal_moves
            if not moves:
                break
            board.push(rng.choice(moves))
            kings_seen += board.wk != 0 or board.bk != 0
    assert kings_seen > 0


# -- the naive generator on its own: docs/rules.md's perft table ------------------------------------

PERFT_TABLE = {
    "international": (9, 81, 658, 4265, 27117),
    "brazilian": (7, 49, 302, 1469, 7473),
    "portuguese": (7, 49, 302, 1469, 7361),
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_naive_generator_matches_the_perft_table(variant):
    v = get_variant(variant)
    pieces = {s: (True, False) for s in v.white_start} | {s: (False, False) for s in v.black_start}
    deepest = 4 if variant == "international" else 5  # depth 5 is where portuguese parts from brazilian
    for depth, expected in enumerate(PERFT_TABLE[variant][:deepest], start=1):
        assert naive_perft(v, pieces, True, depth) == expected
