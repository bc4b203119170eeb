"""Hands the colour of the board: pale skin over beige squares is seen by the hue it turns (vision.occlusion),
while shadows, glare, drifting light and pieces beside a light square are not taken for a hand."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from calibration.camera import calibrate_camera
from rig.variants import get_variant
from vision.classify import features
from vision.occlusion import SkinCue
from vision.render import SKINS, Hand, render
from vision.testset import calibration_pictures, position_scene

BEIGE = (168, 212, 236)  # BGR of the first palette's light squares


def _board(n: int = 4, px: int = 32):
    dark = (np.add.outer(np.arange(n), np.arange(n)) % 2).astype(bool)
    ref = np.zeros((n, n, 3), np.float32)
    ref[~dark] = BEIGE
    img = np.zeros((n * px, n * px, 3), np.uint8)
    for r in range(n):
        for c in range(n):
            img[r * px:(r + 1) * px, c * px:(c + 1) * px] = (50, 74, 112) if dark[r, c] else BEIGE
    return SkinCue(ref, dark, px), img, np.ones((n * px, n * px, 3), np.float32)


def test_skin_cue_sees_pale_skin_but_not_light_shadow_glare_or_pieces():
    cue, img, gain = _board()
    assert cue.area(img, gain) == 0.0
    shadow = (img.astype(np.float32) * 0.55).astype(np.uint8)
    assert cue.area(shadow, gain / 0.55) == 0.0                      # a shadow the gain brings back
    glare = np.clip(img.astype(np.int16) + 60, 0, 255).astype(np.uint8)
    assert cue.area(glare, gain) == 0.0                              # white added: the hue stays
    grey = (img.astype(np.float32) * 0.5 + 110).astype(np.uint8)
    assert cue.area(grey, gain) == 0.0                               # mixed with a white piece's side
    clipped = np.full_like(img, 255)
    assert cue.area(clipped, gain) == 0.0                            # a clipped square says nothing
    hand = img.copy()
    hand[:64, :96] = (170, 196, 236)                                 # pale skin (BGR), the squares' brightness
    area = cue.area(hand, gain)
    assert 1.0 < area < 3.0                                          # three light squares' insides, in part
    f = features(np.array([[BEIGE, (170, 196, 236)]], np.uint8))[0]
    assert abs(f[0, 0] - f[1, 0]) < 0.05                             # as bright as the square: only the hue tells


def test_pale_hand_over_beige_board_flagged_and_still_boards_not():
    empty, start = calibration_pictures(get_variant("portuguese"), 31, markers=False, side="right")
    empty, start = replace(empty, palette=0), replace(start, palette=0)
    config = calibrate_camera(get_variant("portuguese"), render(empty), render(start)).config
    clf = config.classifier()
    rng = random.Random(31)
    pieces = dict(start.pieces)
    for k in range(6):
        scene = position_scene(empty, pieces, 3100 + k)
        assert not clf.read(render(scene)).occluded, f"still picture {k} taken for a hand"
        at = (rng.uniform(1.5, 6.5), rng.uniform(2.5, 5.5))
        hand = Hand(at=at, z=rng.choice((0.7, 1.0, 1.5)), side_y=rng.choice((-1, 1)), skin=SKINS[0],
                    angle=rng.uniform(-0.4, 0.4), sleeve=rng.choice((None, (222, 200, 160))))
        img, hidden = render(replace(scene, hands=(hand,)), cover=True)
        reading = clf.read(img)
        assert hidden > 1.0, f"hand {k} hides only {hidden:.2f} squares"  # lifting, carrying, placing
        assert reading.occluded, f"hand {k} over {hidden:.2f} squares missed (skin {reading.skin:.2f})"


def test_board_squares_keep_their_colour_from_picture_to_picture():
    empty, _ = calibration_pictures(get_variant("brazilian"), 5, markers=True, side="bottom")
    a = render(replace(empty, light=replace(empty.light, noise=0.0, jpeg=0)))
    b = render(replace(empty, seed=empty.seed + 7, light=replace(empty.light, noise=0.0, jpeg=0)))
    assert np.array_equal(a, b)  # a board's wood does not change between pictures


def test_overexposed_board_not_taken_for_a_hand():
    """Light squares near the sensor's top: a clipped channel reads too low, so a tint measured on them turns
    every square's hue towards red. The tint comes from the squares the sensor did not clip (a shadow band's),
    and with none at all no hue cue is read; a pale hand is still seen by what the board cannot explain."""
    empty, start = calibration_pictures(get_variant("portuguese"), 21, markers=True, side="left")
    config = calibrate_camera(get_variant("portuguese"), render(empty), render(start)).config
    clf = config.classifier()
    pieces = dict(start.pieces)
    scene = position_scene(empty, pieces, 2101)
    bright = replace(scene.light, level=1.17, gradient=(-0.09, 0.39), tint=(1.02, 1.0, 0.98), glare=None,
                     band=(1.66, 115.0, 62.0, 0.43))
    clipped_all = replace(bright, band=None, level=1.2, gradient=(0.0, 0.0))  # the brightest the renderer makes
    for light in (bright, clipped_all):
        reading = clf.read(render(replace(scene, light=light)))
        assert not reading.occluded, f"skin {reading.skin:.2f}, hue {reading.foreign}"
        assert reading.squares == pieces
    assert reading.skin == 0.0 and reading.foreign == 0  # every light square clipped: no hue to read
    hand = Hand(at=(3.5, 4.0), z=0.8, side_y=-1, skin=SKINS[1])
    img, hidden = render(replace(scene, light=bright, hands=(hand,)), cover=True)
    assert hidden > 1.0 and clf.read(img).occluded


def test_a_pieces_colour_where_no_piece_reaches_is_a_hand():
    """A dark sleeve (or a carried piece) over light squares shows a piece's colour where no piece on the
    board can: outside every dark square's king silhouette as the camera sees it. Kings on the board, tall
    and leaning away from the camera, stay inside their silhouettes."""
    from rig.variants import get_variant

    empty, start = calibration_pictures(get_variant("international"), 41, markers=True, side="left")
    config = calibrate_camera(get_variant("international"), render(empty), render(start)).config
    clf = config.classifier()
    v = get_variant("international")
    kings = {s: ("W" if s % 2 else "B") for s in range(1, v.squares + 1) if s % 3 == 0}
    for k in range(3):
        reading = clf.read(render(position_scene(empty, kings, 41 + k)))
        assert not reading.occluded and reading.dark_on_light <= config.dark_on_light
        assert {s: c.lower() for s, c in reading.squares.items()} == {s: c.lower() for s, c in kings.items()}
    scene = position_scene(empty, dict(start.pieces), 48)
    for at in ((1.5, 5.5), (6.3, 2.5), (4.0, 4.0)):
        hand = Hand(at=at, z=0.7, side_y=1, skin=SKINS[0], sleeve=(30, 30, 32), carrying="w")
        reading = clf.read(render(replace(scene, light=replace(scene.light, level=1.15), hands=(hand,))))
        assert reading.dark_on_light > config.dark_on_light, f"sleeve at {at}: {reading.dark_on_light:.2f}"
