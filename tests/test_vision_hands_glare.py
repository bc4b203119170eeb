"""Glare taken for a hand (issue 12, hands17): glare on a dark frame (the band cue) and glare with the light
at the sensor's top on light-brown dark squares (the warm clipped cue), and the hands these cues must still
see. Unit pictures for each cue, then the bench's own pictures of seeds 6 and 7 (bench/bench_vision.py) that
were flagged without a hand."""

from __future__ import annotations


import numpy as np

from vision_helpers import bench_game
from vision.classify import DARK_INSIDE
from vision.occlusion import BandCue, ClippedCue, glare_white
from vision.render import render

DARK_FRAME = (34, 44, 60)  # BGR of the third palette's frame (vision.render.PALETTES)


def _band(frame, n: int = 4, px: int = 32):
    m = px // 2
    full = np.zeros((n * px + 2 * m, n * px + 2 * m, 3), np.uint8)
    full[:] = frame
    full[m:m + n * px, m:m + n * px] = (168, 212, 236)
    gain = np.ones((n * px, n * px, 3), np.float32)
    ref, _ = BandCue(n, px, m).colours(full, gain)
    return BandCue(n, px, m, ref=ref), full, gain


def test_glare_white_is_the_frame_plus_white_at_its_sides_light():
    ref = np.array([[34.0, 34.0], [44.0, 44.0], [60.0, 60.0]])  # a dark brown frame, BGR, two cells
    glare = ref * 1.1 + 30.0                                    # the side's light, then glare's white
    assert glare_white(glare, ref, np.array([1.1, 1.1]), 0.05).all()
    skins = np.array([[88.0, 48.0], [122.0, 62.0], [178.0, 92.0]])  # pale and dark skin (BGR)
    assert not glare_white(skins, ref, np.array([1.1, 1.1]), 0.05).any()
    assert not glare_white(ref * 0.6, ref, np.array([1.0, 1.0]), 0.05).any()  # darker: no white added


def test_band_cue_glare_on_a_dark_frame_is_no_arm_but_skin_is():
    cue, full, gain = _band(DARK_FRAME)
    assert cue.area(full, gain) == 0.0
    glare = full.copy()
    # 40 grey levels of white over the bottom side's left: brighter by e^0.55, the white under half the cell's mean
    glare[-16:, 16:56] = np.clip(glare[-16:, 16:56].astype(np.int16) + 40, 0, 255).astype(np.uint8)
    assert cue.area(glare, gain) == 0.0
    for colour in ((150, 175, 212), (88, 122, 178)):  # pale (dimmed, under the top) and tanned skin
        arm = full.copy()
        arm[-16:, 40:80] = colour
        assert cue.area(arm, gain) >= 0.25, colour


def _dark_square(colour, n: int = 2, px: int = 32):
    dark = np.array([[False, True], [True, False]])
    inner = np.zeros((n * px, n * px, 3), np.uint8)
    inner[:] = (168, 212, 236)
    inner[0:px, px:2 * px] = colour  # over the dark square (0, 1)
    clipped = (inner >= 238).any(-1)
    return ClippedCue(dark, px), inner, clipped


def test_warm_clipped_cue_reads_the_colour_as_the_sensor_took_it():
    # a white piece's rim under glare, red clipped, its blue and green near it: neutral as taken; the gain
    # measured on beige light squares whose red clipped is 30 % too red and would turn it warm
    too_red = np.ones((64, 64, 3), np.float32) * np.array([0.63, 0.70, 0.82], np.float32)
    cue, inner, clipped = _dark_square((228, 237, 255))
    assert cue.area(inner, too_red, clipped) == 0.0
    cue, inner, clipped = _dark_square((255, 255, 255))  # clipped in every channel: white to the sensor
    assert cue.area(inner, too_red, clipped) == 0.0
    # pale skin with its red at the top: its blue 0.67 of it as taken; a gain of the other tint (a cream board
    # whose red and green clipped) must not hide it
    too_blue = np.ones((64, 64, 3), np.float32) * np.array([0.80, 0.755, 0.73], np.float32)
    cue, inner, clipped = _dark_square((171, 206, 255))
    assert cue.area(inner, too_blue, clipped) > 0.5


def _bench_game(seed: int, g: int, wanted: set[int]):
    """The bench's camera for game ``g`` of ``seed`` and the pictures ``wanted`` of that game (index -> Picture)."""
    return bench_game(seed, g, wanted)


def test_glare_beside_a_dark_frame_is_no_hand_portuguese_white_at_the_bottom():
    """Seed 7 game 0 (Portuguese, markers, a dark brown frame, a glare spot of 53 grey levels on the frame at
    white's side): 3-5 band cells brightened by 21-33 grey levels of white, under half the cell's brightness, were
    an arm (band 0.25-0.38 square against 0.16)."""
    config, pictures = _bench_game(7, 0, {0, 1, 7, 36})
    clf = config.classifier()
    for i, pic in sorted(pictures.items()):
        assert not pic.hand_in_view
        reading = clf.read(render(pic.scene))
        assert reading.band < config.band_squares, f"picture {i}: band {reading.band:.2f}"
        assert not reading.occluded, f"picture {i} flagged"


def test_glare_clipping_light_brown_squares_is_no_hand_brazilian_white_at_the_top():
    """Seed 6 game 2 (Brazilian, light-brown dark squares, light 1.15-1.20, a glare spot of 66 grey levels on
    the board): the white pieces under the glare clip; the light's gain, measured on beige squares whose red
    clipped, is 30 % too red and turned them warm (0.7-5.6 squares against 0.15)."""
    config, pictures = _bench_game(6, 2, {47, 52, 57})
    clf = config.classifier()
    for i, pic in sorted(pictures.items()):
        assert not pic.hand_in_view
        reading = clf.read(render(pic.scene))
        assert reading.warm == 0.0 and not reading.occluded, f"picture {i}: warm {reading.warm:.2f}"


def test_a_clipped_light_square_is_no_dark_colour_brazilian_white_at_the_top():
    """Seed 6 game 2 pictures 92, 93, 98 (Brazilian, beige and brown board, light 1.19-1.20, every light square
    clipped): the corner light square, its red just at the sensor's top, read brown after a gain whose tint the
    clipped squares made 30 % too red (0.17-0.33 square of a dark square's colour against 0.05). A dark colour
    never reaches the sensor's top: only unclipped pixels count. Picture 97 (a hand hiding 0.48 square) is still
    flagged."""
    config, pictures = _bench_game(6, 2, {92, 93, 97, 98})
    clf = config.classifier()
    for i, pic in sorted(pictures.items()):
        reading = clf.read(render(pic.scene))
        if pic.occluded:
            assert reading.occluded, f"picture {i}: hand missed"
        else:
            assert not pic.hand_in_view
            assert reading.dark_on_light < DARK_INSIDE and not reading.occluded, (
                f"picture {i}: dark on light {reading.dark_on_light:.2f}")
