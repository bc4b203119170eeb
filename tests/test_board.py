"""Board: push/pop history, FEN, notation, game end."""

import pytest

from rig.board import BLACK, WHITE, Board
from rig.errors import AmbiguousMoveError, IllegalMoveError, InvalidFenError
from rig.move import Move


def test_initial_positions():
    assert Board("portuguese").fen() == "W:W1-12:B21-32"
    assert Board("international").fen() == "W:W31-50:B1-20"
    b = Board("brazilian")
    assert b.fen() == "W:W" + ",".join(b.variant.square_name(s) for s in range(21, 33)) + ":B" + ",".join(
        b.variant.square_name(s) for s in range(1, 13))


def test_portuguese_first_moves_go_up_the_board():
    b = Board("portuguese")
    assert [m.text() for m in b.legal_moves] == ["9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"]


def test_push_pop_restores_everything():
    b = Board("international")
    start = b.fen()
    moves = []
    for _ in range(30):
        legal = b.legal_moves
        if not legal:
            break
        m = legal[len(moves) * 7 % len(legal)]
        moves.append(m)
        b.push(m)
    assert b.move_stack == moves
    while b.move_stack:
        b.pop()
    assert b.fen() == start
    assert b.turn is WHITE


def test_parse_move_styles_and_errors():
    b = Board("portuguese", fen="W:W14:B18,27")  # e4 takes f5, landing on g6
    m = b.parse_move("14x21")
    assert m.captured == (18,) and m.destination == 21
    assert b.parse_move("14:21") == m
    with pytest.raises(IllegalMoveError):
        b.parse_move("14-17")  # a plain move while a capture is compulsory (FPD 3.3a)
    with pytest.raises(ValueError):  # IllegalMoveError is a ValueError too
        b.parse_move("banana")


def test_brazilian_algebraic_notation():
    b = Board("brazilian")
    m = b.parse_move("c3-d4")
    assert b.move_text(m) == "c3-d4"
    b.push(m)
    assert b.turn is BLACK


@pytest.mark.parametrize("variant, fen, texts", [
    ("international", "W:WK26,15:B5,9,22,33,31,32,45",
     ["26x37x14x3", "26x42x20x3", "26x6", "26x11", "26x17", "26x39", "26x44", "26x50"]),
    ("brazilian", "W:WK14,2:B8,27,28,10,11,19,13", ["c5xf8xh6xe3xg1", "c5xe7xg5xe3xg1"]),
])
def test_full_path_only_when_two_captures_read_the_same(variant, fen, texts):
    b = Board(variant, fen=fen)
    legal = b.legal_moves
    assert [b.move_text(m) for m in legal] == texts
    for m, t in zip(legal, texts):
        assert b.parse_move(t).key == m.key


def test_ambiguous_short_capture_is_reported():
    b = Board("international", fen="W:WK26,15:B5,9,22,33,31,32,45")
    with pytest.raises(AmbiguousMoveError) as e:
        b.parse_move("26x3")
    assert "26x37x14x3" in str(e.value)
    assert b.parse_move("26x6").destination == 6


def test_game_over_no_pieces_and_no_moves():
    assert Board("portuguese", fen="B:W10:B").is_game_over()
    assert Board("portuguese", fen="B:W10:B").winner() is WHITE
    # black man on 1 blocked? Portuguese black men move down: a black man on 2 with white on ... blocked
    blocked = Board("portuguese", fen="B:W1,2,5,6:B")
    assert blocked.winner() is WHITE


def test_invalid_fen_says_where():
    with pytest.raises(InvalidFenError) as e:
        Board("portuguese", fen="W:W1,2,99:B30")
    assert "column" in str(e.value) and "99" in str(e.value)
    with pytest.raises(InvalidFenError):
        Board("portuguese", fen="X:W1:B30")
    with pytest.raises(InvalidFenError):
        Board("portuguese", fen="W:W1,2:B2")


def test_fen_reader_accepts_wild_forms():
    b = Board("international", fen='"w:b1-3,K10:w45-47."')
    assert b.piece_at(10) == (False, True)
    assert b.piece_at(46) == (True, False)
    assert b.turn is WHITE


def test_move_value_type():
    m = Move(1, 2, (1, 2))
    assert str(m) == "1-2" and not m.is_capture
    c = Move(10, 28, (10, 19, 28), (14, 23))
    assert c.text(full_path=True) == "10x19x28" and c.key == (10, 28, frozenset({14, 23}))
    assert "captured" in repr(c)
