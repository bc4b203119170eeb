"""The stack's second look (vision/shading.py): the light within a square, measured on the light squares' own
pixels, corrects the view where a shadow band's edge crosses a piece, and a piece whose first fit said neither
man nor king is fitted again there (a king is two stacked men, FPD 000 art. 3.1 d, FMJD 002 art. 3.5)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.camera import calibrate_camera
from rig.variants import get_variant
from vision.classify import BLACK, LIGHT, WHITE
from vision.render import render
from vision.testset import calibration_pictures, position_scene

PIECES = {s: ("W", "w", "B")[s % 3] for s in range(5, 29)}


@pytest.fixture(scope="module")
def board():
    v = get_variant("portuguese")
    empty, start = calibration_pictures(v, 561, markers=True, side="bottom")
    config = calibrate_camera(v, render(empty), render(start)).config
    return empty, config.classifier()


def _view(clf, image):
    """(light-corrected view, its labels) as the classifier makes them, square by square."""
    full = clf.canonical(image)
    gain = clf.gain(clf.inner(full))
    m = clf.margin
    corrected = cv2.multiply(full, cv2.copyMakeBorder(gain, m, m, m, m, cv2.BORDER_REPLICATE), dtype=cv2.CV_8U)
    return corrected, clf._classes(corrected)


def _residual(clf, corrected, labels) -> np.ndarray:
    """|log| of each evidence pixel's light left uncorrected (its light square's reference grey over its grey)."""
    grey = cv2.cvtColor(corrected, cv2.COLOR_BGR2GRAY).astype(np.float32)
    ref = clf._fine.ref
    ok = (labels == LIGHT) & (ref > 0) & (grey > 0) & (grey < 250)
    ok &= cv2.dilate(((labels == WHITE) | (labels == BLACK)).astype(np.uint8), np.ones((15, 15), np.uint8)) == 0
    return np.abs(np.log(ref[ok] / grey[ok]))


def test_even_light_asks_for_no_correction(board):
    empty, clf = board
    corrected, labels = _view(clf, render(position_scene(empty, PIECES, 5611, hard=False)))
    f = clf._fine.factor(corrected, labels, LIGHT, (WHITE, BLACK))
    assert abs(float(np.median(f)) - 1) < 0.03
    assert np.percentile(f, 98) < 1.1


def test_a_shadow_band_edge_is_followed_within_a_square(board):
    """Across a shadow band's edge the square-level gain leaves part of each square too dark or too bright; the
    finer correction takes most of it off (measured on the light squares' pixels it did not use: those within
    15 pixels of a piece are left out of both)."""
    empty, clf = board
    scene = position_scene(empty, PIECES, 5611, hard=False)
    scene = replace(scene, light=replace(scene.light, band=(0.4, 0.0, 90.0, 0.4)))
    corrected, labels = _view(clf, render(scene))
    before = np.percentile(_residual(clf, corrected, labels), 95)
    f = clf._fine.factor(corrected, labels, LIGHT, (WHITE, BLACK))
    after = np.percentile(_residual(clf, cv2.multiply(corrected, cv2.merge([f, f, f]), dtype=cv2.CV_8U), labels), 95)
    assert before > 0.15  # the band's edge: 15 % of light off somewhere
    assert after < 0.6 * before, (before, after)


def test_the_second_look_is_a_box_of_the_view(board):
    """The second look corrects a piece's window and the pixels round it, clipped to the view."""
    empty, clf = board
    corrected, labels = _view(clf, render(position_scene(empty, PIECES, 5611, hard=False)))
    h, w = corrected.shape[:2]
    relit, at = clf._fine.relit(corrected, labels, LIGHT, (WHITE, BLACK), (-10, 40, w - 30, w + 10))
    assert at == (slice(0, 40), slice(w - 30, w)) and relit.shape == (40, 30, 3) and relit.dtype == np.uint8
    (box,) = clf.stacks.boxes([next(iter(clf.square_at))])
    assert box[1] - box[0] == box[3] - box[2] == clf.stacks.size
    assert "FineLight" in repr(clf._fine)


def test_the_second_look_reads_kings_under_a_shadow_edge(board):
    """A shadow band laid across a board of men and kings in 24 places: the second look settles part of the
    pieces the first look left "king unknown", every one of them right, and leaves every other reading as it
    was (it is asked for only where the first fit says neither)."""
    empty, clf = board
    reader = clf.stacks
    read = reader.read

    def first_look(*a, again=None, **k):
        return read(*a, **k)

    unknown_first = settled = 0
    for angle in (0.4, 1.1, 2.0):
        for offset in range(-120, 161, 40):
            scene = position_scene(empty, PIECES, 5611, hard=False)
            scene = replace(scene, light=replace(scene.light, band=(angle, float(offset), 90.0, 0.4)))
            image = render(scene)
            clf.edge.forget()  # separate scenes, not a sequence: the edge watch compares pictures in order
            both = clf.read(image)
            reader.read = first_look
            try:
                clf.edge.forget()
                first = clf.read(image)
            finally:
                reader.read = read
            assert both.squares.keys() == first.squares.keys() == PIECES.keys()
            assert both.unknown <= first.unknown
            for s in first.squares:
                if s not in first.unknown:
                    assert both.squares[s] == first.squares[s] and both.stack[s] == first.stack[s]
                elif s not in both.unknown:
                    assert both.squares[s] == PIECES[s], (angle, offset, s, both.stack[s])
                    settled += 1
            unknown_first += len(first.unknown)
    # measured: 14 pieces "king unknown" at the first look, 9 settled (all right) by the second
    assert unknown_first >= 8  # the shadow's edge does make the first look abstain here
    assert settled >= 0.4 * unknown_first, (settled, unknown_first)
