"""A doubtful black piece looked at at twice the top view's resolution (vision/fine_look.py): a black piece's top
is only a little brighter than its wall, and where the earlier looks leave its stack "king unknown" a window
sampled finer and smoothed tells a king (two stacked men, FPD 000 art. 3.1 d, FMJD 002 art. 3.5) from a man by
its own band and its own start bias; it abstains where that band says neither."""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.camera import calibrate_camera
from rig.variants import get_variant
from vision.classify import BLACK
from vision.config import CameraConfig
from vision.fine_look import FINE_MAN_FIT
from vision.kings import BIAS_MAX
from vision.kings_calibration import fine_bias
from vision.render import render
from vision.testset import calibration_pictures, position_scene

from tests.vision_helpers import assert_look_settles_by_its_band, look_settled, reads_without


@pytest.fixture(scope="module")
def board():
    v = get_variant("international")
    empty, start = calibration_pictures(v, 5713, markers=False, side="left")
    config = calibrate_camera(v, render(empty), render(start)).config
    return v, empty, start, config


def _gain(clf, image):
    """The light's gain a pixel of the top view, margin included."""
    canon = clf.canonical(image)
    m = clf.margin
    return cv2.copyMakeBorder(clf.gain(clf.inner(canon)), m, m, m, m, cv2.BORDER_REPLICATE)


def test_the_fine_look_tells_black_kings_and_men_the_others_leave_unknown_international(board):
    """Black men and kings on positions in hard light: where the earlier looks say "king unknown" on a black piece,
    the finer look settles some of them, kings and men, every one right, and changes no other reading."""
    v, empty, _, config = board
    clf = config.classifier()
    rng = random.Random(5713)
    settled = {"B": 0, "b": 0}
    unknown = 0
    for k in range(SCENES):
        squares = rng.sample(range(1, v.squares + 1), 30)
        pieces = {s: rng.choice("bbBBw") for s in squares}
        scene = position_scene(empty, pieces, 571300 + k)
        # a noisy picture, JPEG 70, in dim light: the noise that scatters a black piece's small top-against-wall step
        scene = replace(scene, light=replace(scene.light, level=0.7, noise=4.5, jpeg=70))
        both, before = reads_without(clf, render(scene), "fine_look")
        for s in look_settled(both, before, pieces, "bB", k):
            settled[pieces[s]] += 1
        unknown += len(before.unknown)
    # measured: 24 pieces "king unknown" before the finer look, 5 black kings and 1 black man settled (all right)
    assert settled["B"] >= 1 and settled["b"] >= 1, (settled, unknown)


SCENES = 40


def test_the_fine_look_abstains_within_its_band_international(board):
    """A finer fit inside the finer band (or a first fit leaning the other way) leaves the piece "king unknown"; one
    clear of the band on the side the first fit leaned settles it."""
    v, empty, _, config = board
    clf = config.classifier()
    rng = random.Random(57131)
    at = {sq: rc for rc, sq in clf.square_at.items()}
    for k in range(60):
        squares = rng.sample(range(1, v.squares + 1), 30)
        pieces = {s: rng.choice("bbBBw") for s in squares}
        image = render(position_scene(empty, pieces, 571400 + k))
        _, before = reads_without(clf, image, "fine_look")
        white = clf._glare_field.field(clf._glare)  # the finer look is not asked where glare reaches
        doubt = [s for s in before.unknown if pieces[s] in "bB" and clf.fine_look.asks(at[s])
                 and not clf._glare_field.reaches(white, clf.stacks.boxes([at[s]])[0])]
        if doubt:
            break
    assert doubt, "the seeded scenes hold a black piece the earlier looks leave unknown (the test needs one)"

    assert_look_settles_by_its_band(clf, "fine_look", image, before, doubt[0], black=True)


def test_the_fine_bias_is_learnt_from_the_start_position_international(board):
    """Calibration keeps the black start men's finer fit off a man's usual one; with it taken off, the start men
    sit at that usual fit, and the config keeps it."""
    v, _, start, config = board
    ap = config.appearance
    assert abs(ap.fine_bias) <= BIAS_MAX
    clf = config.classifier()
    image = render(start)
    at = {sq: rc for rc, sq in clf.square_at.items()}
    men = [at[s] for s in v.black_start]
    # with the bias taken off, the start men's median finer fit sits at a man's usual one below the band's middle
    z, _ = clf.fine_look.fits(image, _gain(clf, image), clf.classes, men, BLACK)
    reader = clf.fine_look.reader
    off = np.median([v - sum(reader.band_at(rc, True)) / 2 for rc, v in zip(men, z)])
    if abs(ap.fine_bias) < BIAS_MAX:
        assert off == pytest.approx(FINE_MAN_FIT, abs=0.02)
    # the calibration's own reading of the same picture gives the same bias whatever bias its classifier had
    plain = replace(config, appearance=replace(ap, fine_bias=0.0)).classifier()
    assert fine_bias(plain, image, men, BLACK) == pytest.approx(ap.fine_bias, abs=0.02)
    again = CameraConfig.from_dict(config.to_dict())
    assert again.appearance.fine_bias == pytest.approx(ap.fine_bias, abs=1e-4)
    assert FINE_MAN_FIT < 0


def test_the_fine_look_leaves_black_pieces_under_glare_alone_international(board):
    """The finer look reads the picture as taken, glare's white on: it is not asked about a piece whose window glare
    reaches (the glare look's), and is still asked about doubtful black pieces away from it."""
    v, empty, _, config = board
    clf = config.classifier()
    fine = clf.fine_look
    see = fine.see
    asked: list = []
    near = far = 0

    def spy(image, gain, classes, squares):
        asked.append(list(squares))
        return see(image, gain, classes, squares)

    fine.see = spy
    rng = random.Random(57132)
    try:
        for k in range(24):
            squares = rng.sample(range(1, v.squares + 1), 30)
            pieces = {s: rng.choice("bbBBw") for s in squares}
            scene = position_scene(empty, pieces, 571500 + k)
            glare = (float(rng.randrange(300, 1000)), float(rng.randrange(150, 600)), 60.0, 60.0)
            scene = replace(scene, light=replace(scene.light, level=0.7, noise=4.5, jpeg=70, glare=glare))
            asked.clear()
            clf.edge.forget()
            clf.read(render(scene))
            white = clf._glare_field.field(clf._glare)
            for rc in (rc for squares_ in asked for rc in squares_):
                assert not clf._glare_field.reaches(white, clf.stacks.boxes([rc])[0]), (k, rc)
                far += 1
            near += bool(clf._glare.any())
    finally:
        fine.see = see
    assert near and far, (near, far)
