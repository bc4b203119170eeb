"""A dim black piece on the middle rows looked at once more, the finer window smoothed more (vision/soft_look.py): in
dim light and a picture compressed hard a black piece's small top-against-wall step is lost in the JPEG's blocks,
and where every earlier look leaves its stack "king unknown" the finer window smoothed by ``SOFT`` pixels tells a
king (two stacked men, FPD 000 art. 3.1 d, FMJD 002 art. 3.5) from a man by the finer band and a start bias of its
own; it abstains where that band says neither."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.camera import calibrate_camera
from rig.variants import get_variant
from vision.classify import BLACK
from vision.config import CameraConfig
from vision.fine_look import FINE_BAND, FINE_MAN_FIT, SMOOTH
from vision.kings import BIAS_MAX
from vision.kings_calibration import soft_bias
from vision.render import render
from vision.soft_look import SOFT, SOFT_BAND, SOFT_LOWER
from vision.testset import calibration_pictures

from tests.vision_helpers import dim_black_scenes, look_settled, reads_without

SEED = 5713
SCENES = 12


@pytest.fixture(scope="module")
def board():
    v = get_variant("international")
    empty, start = calibration_pictures(v, SEED, markers=False, side="left")
    config = calibrate_camera(v, render(empty), render(start)).config
    return v, empty, start, config


def _dim_scenes(v, clf, empty, seed: int, count: int):
    """Black kings and men on the soft look's squares (the middle rows), a few white pieces elsewhere, dim
    (``dim_black_scenes``)."""
    middle = [sq for rc, sq in clf.square_at.items() if clf.soft_look.asks(rc)]
    return dim_black_scenes(v, empty, middle, seed, count, blacks=16, kinds="bBBB", whites=8)


def test_the_soft_look_tells_dim_black_kings_the_others_leave_unknown_international_no_clock(board):
    """Dim, hard-compressed pictures of black pieces on the middle rows: where every earlier look says "king
    unknown" on a black piece, the soft look settles some of them, every one right, and changes no other reading."""
    v, empty, _, config = board
    clf = config.classifier()
    settled = {"B": 0, "b": 0}
    unknown = 0
    for k, pieces, image in _dim_scenes(v, clf, empty, SEED, SCENES):
        both, before = reads_without(clf, image, "soft_look")
        for s in look_settled(both, before, pieces, "bB", k):
            settled[pieces[s]] += 1
        unknown += len(before.unknown)
    # measured: 6 pieces "king unknown" before the soft look, 2 black kings and 1 black man settled (all right)
    assert settled["B"] >= 1, (settled, unknown)


def _doubtful(v, clf, empty, seed: int):
    """A dim scene's picture, its reading without the soft look, and a black piece on the look's squares that every
    earlier look leaves unknown."""
    at = {sq: rc for rc, sq in clf.square_at.items()}
    for _, pieces, image in _dim_scenes(v, clf, empty, seed, 40):
        _, before = reads_without(clf, image, "soft_look")
        doubt = [s for s in before.unknown if pieces[s] in "bB" and clf.soft_look.asks(at[s])]
        if doubt:
            return image, before, doubt[0]
    raise AssertionError("the seeded scenes hold a black piece the earlier looks leave unknown (the test needs one)")


def _fixed(forced: dict[str, float], key: str):
    """A reader's ``fits`` that gives every piece the fit ``forced[key]``, its quality perfect."""
    return lambda padded, grey, pcs, static=None, black=None: (np.full(len(pcs), forced[key]), np.ones(len(pcs)))


def test_the_soft_look_abstains_within_its_band_international_no_clock(board):
    """A soft fit inside its band leaves the piece "king unknown"; one clear of the band on the side every earlier fit
    leaned to settles it; one clear of it on the other side does not (the looks disagree)."""
    v, empty, _, config = board
    clf = config.classifier()
    image, before, square = _doubtful(v, clf, empty, SEED + 1)
    rc = next(rc for rc, sq in clf.square_at.items() if sq == square)
    look, first, fine = clf.soft_look, clf.stacks, clf.fine_look.reader
    forced = {"first": 0.0, "fine": 0.0, "soft": 0.0}

    def told(**fits: float) -> tuple[bool, str]:
        """Whether the piece is read known, and its code, with the first (and the second look's), the finer and the
        soft fits of every piece set (their quality perfect)."""
        forced.update(fits)
        saved = {r: r.fits for r in (first, fine, look.reader)}
        first.fits, fine.fits, look.reader.fits = _fixed(forced, "first"), _fixed(forced, "fine"), _fixed(forced, "soft")
        try:
            both, _ = reads_without(clf, image, "soft_look")
        finally:
            for r, f in saved.items():
                r.fits = f
        return square not in both.unknown, both.squares[square]

    def middle(reader) -> float:
        return sum(reader.band_at(rc, True)) / 2

    lo, hi = look.reader.band_at(rc, True)
    king = {"first": middle(first) + 0.05, "fine": middle(fine) + 0.05}  # each in its band, leaning to a king
    man = {"first": middle(first) - 0.05, "fine": middle(fine) - 0.05}
    assert told(**king, soft=(lo + hi) / 2) == (False, "b")  # within the band: no claim
    assert told(**king, soft=hi + 0.1) == (True, "B")  # every fit leaned to a king, the soft fit clear: a king
    assert told(**man, soft=lo - 0.1) == (True, "b")
    assert told(**king, soft=lo - 0.1)[0] is False  # the earlier fits leaned the other way
    assert told(first=king["first"], fine=man["fine"], soft=hi + 0.1)[0] is False  # the finer fit leaned to a man
    assert told(first=man["first"], fine=king["fine"], soft=hi + 0.1)[0] is False  # the first fit leaned to a man


def test_the_soft_look_takes_its_bias_from_the_start_position_international_no_clock(board):
    """Calibration keeps the black start men's soft fit off a man's usual one (smoothing moves every fit: its own
    bias, not the finer look's); with it taken off, the start men sit at that usual fit, and the config keeps it. The
    look reads with the finer look's templates and band, its window smoothed more; it asks the middle and farthest rows
    (the farthest since vision28), not the nearest."""
    v, _, start, config = board
    ap = config.appearance
    assert abs(ap.soft_bias) <= BIAS_MAX and ap.soft_bias != ap.fine_bias
    clf = config.classifier()
    look = clf.soft_look
    assert look.reader.bands == SOFT_BAND and look.reader.spectra is clf.fine_look.reader.spectra
    for rc in look.reader.squares:  # the finer band, lower by SOFT_LOWER
        lo, hi = look.reader.band_at(rc, True)
        flo, fhi = clf.fine_look.reader.band_at(rc, True)
        assert (lo, hi) == pytest.approx((flo - SOFT_LOWER, fhi - SOFT_LOWER)) and hi - lo == pytest.approx(0.6)
    assert SOFT_BAND[1][1] == FINE_BAND[1][1]
    assert np.allclose(look.reader.bias, (0.0, ap.soft_bias)) and SOFT > SMOOTH
    image = render(start)
    canon = clf.canonical(image)
    m = clf.margin
    gain = cv2.copyMakeBorder(clf.gain(clf.inner(canon)), m, m, m, m, cv2.BORDER_REPLICATE)
    at = {sq: rc for rc, sq in clf.square_at.items()}
    men = [at[s] for s in v.black_start]
    z, _ = look.fits(image, gain, clf.classes, men, BLACK)
    off = np.median([v - sum(look.reader.band_at(rc, True)) / 2 for rc, v in zip(men, z)])
    if abs(ap.soft_bias) < BIAS_MAX:
        assert off == pytest.approx(FINE_MAN_FIT, abs=0.02)
    # the calibration's own reading of the same picture gives the same bias whatever bias its classifier had
    plain = replace(config, appearance=replace(ap, soft_bias=0.0)).classifier()
    assert np.allclose(plain.soft_look.reader.bias, 0.0)
    assert soft_bias(plain, image, men, BLACK) == pytest.approx(ap.soft_bias, abs=0.02)
    again = CameraConfig.from_dict(config.to_dict())
    assert again.appearance.soft_bias == pytest.approx(ap.soft_bias, abs=1e-4)
    # a configuration written before the soft look loads with no bias
    old = config.to_dict()
    del old["appearance"]["king_soft_bias"]
    assert CameraConfig.from_dict(old).appearance.soft_bias == 0.0
    shifts = {rc: m.shift for rc, m in clf.stacks.models.items()}
    assert any(look.asks(rc) for rc in shifts) and not all(look.asks(rc) for rc in shifts)
    assert all(look.asks(rc) == (4.0 <= s) for rc, s in shifts.items())
    assert any(s >= 8.0 for s in shifts.values())  # the farthest rows are on this board, and asked
