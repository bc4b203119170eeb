"""Geometry, numbering and orientation of the three variants (docs/rules.md "Variants")."""

import pytest

from rig.errors import InvalidSquareError
from rig.variants import BRAZILIAN, INTERNATIONAL, PORTUGUESE, VARIANTS, get_variant


def test_fpd_2_2_portuguese_numbering_from_white_bottom_right():
    # FPD 2.2: 1..32 from white's bottom-right corner, right to left, bottom to top.
    assert [PORTUGUESE.algebraic_name(s) for s in (1, 2, 3, 4)] == ["h1", "f1", "d1", "b1"]
    assert [PORTUGUESE.algebraic_name(s) for s in (5, 6, 7, 8)] == ["g2", "e2", "c2", "a2"]
    assert PORTUGUESE.algebraic_name(32) == "a8"


def test_fpd_1_2_portuguese_dark_corner_at_each_players_right():
    assert PORTUGUESE.square_at(7, 0) == 1  # h1, white's bottom right
    assert PORTUGUESE.square_at(0, 7) == 32  # a8, black's bottom right
    assert PORTUGUESE.square_at(0, 0) is None  # a1 is light


def test_fpd_2_3_rio_is_the_long_diagonal():
    assert sorted(PORTUGUESE.long_diagonal) == [1, 5, 10, 14, 19, 23, 28, 32]


def test_cbd_brazilian_numbering_and_algebraic_names():
    assert [BRAZILIAN.square_name(s) for s in (1, 2, 3, 4)] == ["b8", "d8", "f8", "h8"]
    assert BRAZILIAN.square_name(29) == "a1"
    assert BRAZILIAN.square_name(32) == "g1"
    assert BRAZILIAN.parse_square("a1") == 29
    assert BRAZILIAN.parse_square("29") == 29
    assert sorted(BRAZILIAN.long_diagonal) == [4, 8, 11, 15, 18, 22, 25, 29]


def test_fmjd_2_6_international_numbering():
    assert INTERNATIONAL.algebraic_name(1) == "b10"
    assert INTERNATIONAL.algebraic_name(5) == "j10"
    assert INTERNATIONAL.algebraic_name(6) == "a9"
    assert INTERNATIONAL.algebraic_name(46) == "a1"
    assert INTERNATIONAL.algebraic_name(50) == "i1"
    # FMJD 2.4: the long diagonal begins at each player's left (a1 and j10)
    assert {46, 5} <= INTERNATIONAL.long_diagonal


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=list(VARIANTS))
def test_numbering_is_a_bijection_onto_dark_squares(variant):
    seen = set()
    for s in range(1, variant.squares + 1):
        f, r = variant.coords(s)
        assert (f + r) % 2 == (1 if variant.mirrored else 0), "playable squares are the dark ones"
        assert variant.square_at(f, r) == s
        assert variant.square(variant.index(s)) == s
        seen.add((f, r))
    assert len(seen) == variant.squares


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=list(VARIANTS))
def test_start_rows_and_promotion_rows(variant):
    assert len(variant.white_start) == len(variant.black_start) == (12 if variant.size == 8 else 20)
    white_ranks = {variant.coords(s)[1] for s in variant.white_start}
    black_ranks = {variant.coords(s)[1] for s in variant.black_start}
    rows = 3 if variant.size == 8 else 4
    assert white_ranks == set(range(rows))
    assert black_ranks == set(range(variant.size - rows, variant.size))
    assert {variant.coords(s)[1] for s in variant.promotion_squares(True)} == {variant.size - 1}
    assert {variant.coords(s)[1] for s in variant.promotion_squares(False)} == {0}


def test_promotion_squares_by_number():
    assert sorted(PORTUGUESE.promotion_squares(True)) == [29, 30, 31, 32]  # FPD 3.1d
    assert sorted(PORTUGUESE.promotion_squares(False)) == [1, 2, 3, 4]
    assert sorted(INTERNATIONAL.promotion_squares(True)) == [1, 2, 3, 4, 5]
    assert sorted(BRAZILIAN.promotion_squares(True)) == [1, 2, 3, 4]


def test_bad_squares_and_names():
    with pytest.raises(InvalidSquareError):
        PORTUGUESE.coords(33)
    with pytest.raises(ValueError):  # InvalidSquareError is a ValueError
        BRAZILIAN.parse_square("a2")  # light square
    with pytest.raises(ValueError):
        get_variant("checkers")
