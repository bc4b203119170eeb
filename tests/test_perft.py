"""Perft: the rig's leaf counts against docs/rules.md "Reference perft counts".

Captures with the same origin, destination and captured set count once. The
depth-7 counts run in CI (a few seconds in all); ``Board.perft``'s fast path is
also checked against a perft written with the public API (legal_moves,
push, pop) and, on positions with kings, against the naive generator.
"""

from __future__ import annotations

import pytest

from naive_movegen import naive_perft
from rig.board import Board, api_perft
from rig.variants import VARIANTS

# docs/rules.md "Reference perft counts", depths 1-7 from the initial position.
TABLE = {
    "international": (9, 81, 658, 4265, 27117, 167140, 1049442),
    "brazilian": (7, 49, 302, 1469, 7473, 37628, 187302),
    "portuguese": (7, 49, 302, 1469, 7361, 36473, 177532),
}

# Midgame positions with kings (FEN in each variant's own notation).
MIDGAMES = {
    "international": ["W:WK46,28,33,34,38,39,K3:B7,12,K17,19,22,23,K44",
                      "B:W27,28,31,32,33,36,37,K45:B8,K16,18,19,21,23,K49"],
    "brazilian": ["W:WKa1,c3,e3,g3,f2,b4:Bd6,f6,Kh8,b6,c7,Ke5",
                  "B:Wc1,e1,Kd4,a5,g5:Bb6,d8,Kf2,h6,e7,a7"],
    "portuguese": ["W:WK1,6,7,10,14,15:B19,22,23,K27,28,K31",
                   "B:W5,9,K13,18,20:B17,21,K24,26,30,32"],
}




@pytest.mark.parametrize("variant", VARIANTS)
def test_perft_table_to_depth_6(variant):
    board = Board(variant)
    fen = board.fen()
    assert [board.perft(d) for d in range(1, 7)] == list(TABLE[variant][:6])
    assert board.fen() == fen and board.ply() == 0  # perft leaves the board as it was


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_perft_table_depth_7(variant):
    assert Board(variant).perft(7) == TABLE[variant][6]


def test_perft_depth_zero_is_one():
    assert Board("international").perft(0) == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_fast_perft_equals_api_perft(variant):
    board = Board(variant)
    assert api_perft(board, 4) == board.perft(4)
    for fen in MIDGAMES[variant]:
        board = Board(variant, fen)
        assert api_perft(board, 3) == board.perft(3), fen


@pytest.mark.parametrize("variant,fen", [(v, f) for v, fens in MIDGAMES.items() for f in fens])
def test_midgame_perft_against_naive(variant, fen):
    board = Board(variant, fen)
    assert board.wk or board.bk
    expected = naive_perft(board.variant, board.pieces(), board.turn, 3)
    assert board.perft(3) == expected


def test_cli_perft_prints_count_and_speed(capsys):
    from rig.cli import main
    assert main(["perft", "brazilian", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"perft(4) = {TABLE['brazilian'][3]}"
    assert lines[1].startswith(f"{TABLE['brazilian'][3]} nodes in ") and lines[1].endswith("nodes/s")


def test_cli_perft_divide_sums_to_total(capsys):
    from rig.cli import main
    assert main(["perft", "international", "3", "--divide"]) == 0
    out = capsys.readouterr().out.split("\n\n")
    counts = [int(line.rsplit(": ", 1)[1]) for line in out[0].splitlines()]
    assert len(counts) == TABLE["international"][0] and sum(counts) == TABLE["international"][2]
    assert out[1].startswith(f"perft(3) = {TABLE['international'][2]}\n")


def test_cli_perft_from_fen_and_bad_fen(capsys):
    from rig.cli import main
    # the king on h1 (1) takes d5 (19) and lands on c6, b7 or a8
    assert main(["perft", "portuguese", "1", "--fen", "W:WK1:B19"]) == 0
    assert capsys.readouterr().out.startswith("perft(1) = 3\n")
    assert main(["perft", "portuguese", "1", "--fen", "X:W1"]) == 2
    assert "side to move" in capsys.readouterr().err
