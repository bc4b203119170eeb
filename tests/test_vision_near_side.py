"""The side a doubtful white piece on the rows nearest the camera leaned to (vision/near_look.py, ``Look.own_lean``):
the near look corrects the first band's middle, which sits too high for a white piece there, so the first fit's side
is judged as the look judges its own fit, by its own reader (``BIAS_KEPT`` of the board's white start bias off) against
its own band's middle. A white king (two stacked men, FPD 000 art. 3.1 d, FMJD 002 art. 3.5) whose first fit lay
under the first band's middle, left "king unknown" before, is settled; the look abstains within its band or where its
fit of the first view leaned the other way."""

from __future__ import annotations

import random

import numpy as np
import pytest

from calibration.camera import calibrate_camera
from rig.variants import get_variant
from vision.classify import WHITE
from vision.kings import BAND, band
from vision.near_look import BIAS_KEPT, NEAR_BAND
from vision.render import render
from vision.testset import calibration_pictures, position_scene

from tests.vision_helpers import _bench_vision, look_settled, reads_without, white_near_doubt

#: a Brazilian board seen from white's side, its white start men fitting towards a king (bias at the +0.5 limit):
#: the board, its still positions and their pictures are the bench's (bench_vision.py, random_position)
SEED = 11008


@pytest.fixture(scope="module")
def board():
    v = get_variant("brazilian")
    empty, start = calibration_pictures(v, SEED, markers=True, side="bottom")
    config = calibrate_camera(v, render(empty), render(start)).config
    return v, empty, start, config


def _pictures(v, empty, count: int):
    """The board's first ``count`` still positions (the bench's draw of pieces), each with its picture."""
    rng = random.Random(SEED)
    for k in range(count):
        pieces = _bench_vision().random_position("brazilian", rng)
        yield k, pieces, render(position_scene(empty, pieces, SEED * 100 + k))


def test_the_near_look_settles_white_kings_whose_first_fit_leaned_under_the_first_band_brazilian_no_clock(board):
    """White kings on the rows nearest the camera whose first fit lay under the first band's middle (main's near
    look, which took the first fit's side against that middle, left them "king unknown"): settled, every one right,
    and no other reading changed."""
    v, empty, _, config = board
    clf = config.classifier()
    at = {sq: rc for rc, sq in clf.square_at.items()}
    under = []
    for k, pieces, image in _pictures(v, empty, 25):
        both, before = reads_without(clf, image, "near_look")
        for s in look_settled(both, before, pieces, "wW", k):
            rc = at[s]
            if before.stack[s] < sum(band(clf.stacks.models[rc].shift, False)) / 2:
                under.append((k, s, pieces[s]))
    # measured: three kings (positions 1, 17, 24), 0.01-0.08 under the first band's middle
    assert under and all(code == "W" for _, _, code in under), under


def test_the_near_look_takes_the_side_of_its_own_fit_of_the_first_view_brazilian_no_clock(board):
    """The look's fits forced: within its band, no claim; its fit of the first view and of the second look's view on
    one side of its band's middle, the second clear, the claim, even where the first fit lay under the first band's
    middle; its fit of the first view on the other side, no claim."""
    v, empty, _, config = board
    clf = config.classifier()
    at = {sq: rc for rc, sq in clf.square_at.items()}
    for _, pieces, image in _pictures(v, empty, 25):
        doubt, before = white_near_doubt(clf, image, pieces)  # the near look is not asked where glare reaches
        if doubt:
            break
    assert doubt, "the board's still positions hold a white piece on a near row the earlier looks leave unknown"
    square = doubt[0]
    rc = at[square]
    reader = clf.near_look.reader
    fits = reader.fits
    lo, hi = reader.band_at(rc, False)
    mid = (lo + hi) / 2
    first_mid = sum(band(clf.stacks.models[rc].shift, False)) / 2
    assert mid == pytest.approx(first_mid - 0.15)  # the near band's middle, under the first band's

    def told(shaded: float, first: float) -> tuple[bool, str]:
        """Whether the piece is read known, and its code, with the look's fit of the second look's view set to
        ``shaded`` and of the first view to ``first`` (their quality perfect; the look fits the second look's view
        first)."""
        calls = iter((shaded, first) * 4)
        reader.fits = lambda padded, grey, pcs, static=None, black=None: (np.full(len(pcs), next(calls)),
                                                                          np.ones(len(pcs)))
        try:
            both, _ = reads_without(clf, image, "near_look")
        finally:
            reader.fits = fits
        return square not in both.unknown, both.squares[square]

    assert told(mid, mid)[0] is False  # within the band
    assert told(hi + 0.1, first_mid - 0.05) == (True, "W")  # under the first band's middle, over the look's: a king
    assert told(hi + 0.1, mid + 0.05) == (True, "W")
    assert told(lo - 0.1, mid - 0.05) == (True, "w")
    assert told(hi + 0.1, mid - 0.05)[0] is False  # its fit of the first view leaned to a man
    assert told(lo - 0.1, mid + 0.05)[0] is False  # ... to a king


def test_the_near_look_judges_the_first_view_with_the_start_bias_it_keeps_brazilian_no_clock(board):
    """Calibrated from the start position: the look's fit of the first view is the first fit with the part of the white
    start men's bias the look does not take off put back (``1 - BIAS_KEPT``), and every white start man on the look's
    squares leans to a man by it against the look's own band's middle."""
    v, _, start, config = board
    ap = config.appearance
    assert ap.king_bias[0] > 0.3  # this board's white start men fit towards a king
    clf = config.classifier()
    near = clf.near_look
    assert NEAR_BAND[0][0] == pytest.approx(BAND[0][0] - 0.15) and NEAR_BAND[0][3] == pytest.approx(0.15)
    seen: dict = {}
    first_fits = clf.stacks.fits

    def spy(padded, grey, pieces, static=None, black=None):
        seen.setdefault("first", (padded, grey, static, black))
        return first_fits(padded, grey, pieces, static, black)

    clf.stacks.fits = spy
    try:
        clf.edge.forget()
        clf.read(render(start))
    finally:
        clf.stacks.fits = first_fits
    padded, grey, static, black = seen["first"]
    at = {sq: rc for rc, sq in clf.square_at.items()}
    men = [(at[s], WHITE) for s in v.white_start if near.asks(at[s])]
    assert men, "the view from white's side has white start men on the near rows"
    z_first, _ = clf.stacks.fits(padded, grey, men, static, black)
    z_own, _ = near.reader.fits(padded, grey, men, static, black)
    assert np.allclose(z_own - z_first, (1 - BIAS_KEPT) * ap.king_bias[0], atol=1e-6)
    assert all(z < sum(near.reader.band_at(rc, False)) / 2 for (rc, _), z in zip(men, z_own))
