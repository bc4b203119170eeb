"""A black piece on the farthest rows (vision/soft_look.py, since vision28): where every earlier look leaves it "king
unknown", the soft look (the finer window smoothed more) is asked there too, and settles it only where every fit so far
leaned to the side it settles (``Look.unanimous``). A king is two stacked men (FPD 000 art. 3.1 d, FMJD 002 art. 3.5);
a man left unknown costs nothing, the rules give his stack."""

from __future__ import annotations

import random

import pytest

import vision.soft_look as soft_look
from calibration.camera import calibrate_camera
from rig.variants import get_variant
from vision.render import SIDES, render
from vision.testset import calibration_pictures, position_scene

from tests.vision_helpers import _bench_vision

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
    bench = _bench_vision()
    variant = bench.VARIANTS[BOARD % 3]
    v = get_variant(variant)
    seed = SEED * 1000 + BOARD
    empty, start = calibration_pictures(v, seed, markers=BOARD % 2 == 0, side=SIDES[BOARD % 4])
    clf = calibrate_camera(v, render(empty), render(start)).config.classifier()
    rng = random.Random(seed)
    pictures = {}
    for k in range(max(POSITIONS) + 1):
        pieces = bench.random_position(variant, rng)
        if k in POSITIONS:
            pictures[k] = (pieces, render(position_scene(empty, pieces, seed * 100 + k)))
    return clf, pictures


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
        kept = soft_look.MAX_SHIFT
        soft_look.MAX_SHIFT = FAR
        try:
            clf.edge.forget()
            before = clf.read(image)
        finally:
            soft_look.MAX_SHIFT = kept
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
        kept = soft_look.MAX_SHIFT
        soft_look.MAX_SHIFT = FAR
        try:
            clf.edge.forget()
            before = clf.read(image)
        finally:
            soft_look.MAX_SHIFT = kept
        for s, code in pieces.items():
            if code in "wb" and _far(clf, s):
                men += 1
                assert reading.squares[s] == code, (k, s)
            if s != SETTLED[k]:
                assert reading.squares.get(s) == before.squares.get(s), (k, s)
    assert men > 0
