"""A black piece on the farthest rows (vision/soft_look.py, since vision28): where every earlier look leaves it "king
unknown", the soft look (the finer window smoothed more) is asked there too, and settles it only where every fit so far
leaned to the side it settles (``Look.unanimous``). A king is two stacked men (FPD 000 art. 3.1 d, FMJD 002 art. 3.5);
a man left unknown costs nothing, the rules give his stack."""

from __future__ import annotations


import pytest

import vision.soft_look as soft_look

from tests.vision_helpers import bench_positions

#: the bench's seed 8 board 10 (bench_vision.py: an international board, white on the picture's left), a dim board
#: compressed hard; its still positions 0 and 5 with black kings on the farthest rows (a king's top 8 pixels or more
#: beyond a man's)
SEED, BOARD, POSITIONS = 8, 10, (0, 5)
SETTLED = {0: 39, 5: 31}   # the king whose every fit leaned to a king: the soft look settles it
LEANED_MAN = {0: 49, 5: 36}  # the king whose first fit leaned to a man (-0.55, -0.51 against the middle -0.45)
FAR = 8.0                   # pixels: the farthest rows


@pytest.fixture(scope="module")
def board():
    """(classifier, {position: (pieces, picture)}) of the bench's board."""
    _, _, config, pictures = bench_positions(SEED, BOARD, POSITIONS)
    return config.classifier(), pictures


def _read_near_only(clf, image):
    """The reading with the soft look kept off the farthest rows, as before vision28."""
    kept = soft_look.MAX_SHIFT
    soft_look.MAX_SHIFT = FAR
    try:
        clf.edge.forget()
        return clf.read(image)
    finally:
        soft_look.MAX_SHIFT = kept


def _far(clf, square: int) -> bool:
    at = {sq: rc for rc, sq in clf.square_at.items()}
    return clf.stacks.models[at[square]].shift >= FAR


def test_a_far_black_king_every_fit_leaning_to_a_king_is_settled(board):
    """The right case: the king is read a king; with the soft look kept off the farthest rows (as before) it was left
    "king unknown"."""
    clf, pictures = board
    for k, square in SETTLED.items():
        pieces, image = pictures[k]
        assert pieces[square] == "B" and _far(clf, square)
        clf.edge.forget()
        reading = clf.read(image)
        assert square not in reading.unknown and reading.squares[square] == "B", k
        before = _read_near_only(clf, image)
        assert square in before.unknown and before.squares[square] == "b", k


def test_a_far_king_whose_first_fit_leaned_to_a_man_stays_unknown(board):
    """The unknown case: the fits disagree, so the soft look does not settle it; it keeps its colour."""
    clf, pictures = board
    for k, square in LEANED_MAN.items():
        pieces, image = pictures[k]
        assert pieces[square] == "B" and _far(clf, square)
        clf.edge.forget()
        reading = clf.read(image)
        assert square in reading.unknown and reading.squares[square] == "b", k


def test_no_far_man_is_said_a_king(board):
    """The case it must not change: every man on the farthest rows of these positions is read a man or left unknown,
    never a king; every other piece reads as before."""
    clf, pictures = board
    men = 0
    for k, (pieces, image) in pictures.items():
        clf.edge.forget()
        reading = clf.read(image)
        before = _read_near_only(clf, image)
        for s, code in pieces.items():
            if code in "wb" and _far(clf, s):
                men += 1
                assert reading.squares[s] == code, (k, s)
            if s != SETTLED[k]:
                assert reading.squares.get(s) == before.squares.get(s), (k, s)
    assert men > 0
