"""The edge watch (vision.occlusion.EdgeWatch): a hand reaching in over the board's edge, against the last
hand-free picture of the same scene. The bench's own pictures that every other cue missed (a fingertip over an
edge piece's rim, skin over the frame), the hand-free pictures before them not flagged, and pictures of another
scene (another position, other light) never compared."""

from __future__ import annotations

from dataclasses import replace

from rig.variants import get_variant
from vision_helpers import bench_game
from vision.occlusion import EDGE_SQUARES
from vision.render import render
from vision.testset import calibration_pictures, position_scene

from calibration.camera import calibrate_camera


def _bench_game(seed: int, g: int, first: int, last: int):
    """The bench's camera for game ``g`` of ``seed`` (bench/bench_vision.py) and its pictures first .. last."""
    config, pictures = bench_game(seed, g, set(range(first, last + 1)))
    return config, None, [pictures[i] for i in sorted(pictures)]


def _check(seed: int, g: int, first: int, missed: int):
    """Pictures first .. missed - 1 hand-free and not flagged, picture ``missed`` a hand hiding a sliver of the
    board: flagged by the edge watch after them, not by any cue read alone."""
    config, _, pictures = _bench_game(seed, g, first, missed)
    clf = config.classifier()
    for pic in pictures[:-1]:
        assert not pic.hand_in_view
        reading = clf.read(render(pic.scene))
        assert not reading.occluded, f"hand-free picture flagged (edge {reading.edge:.3f})"
    hand = pictures[-1]
    assert 0 < hand.hidden < 0.25
    img = render(hand.scene)
    reading = clf.read(img)
    assert reading.occluded and reading.edge > EDGE_SQUARES, f"edge {reading.edge:.3f}"
    alone = config.classifier().read(img)  # no hand-free picture before it: no reference
    assert not alone.occluded and alone.edge == 0.0


def test_fingertip_over_an_edge_piece_pale_skin_on_a_dark_frame():
    """Seed 1 game 0 picture 32 (Portuguese, white at the bottom, markers): the fingers of a hand from black's
    side over the far frame touch a black man's top (0.0006 square hidden); no trace on the board."""
    _check(1, 0, 30, 32)


def test_fingertips_the_frames_colour_over_the_far_edge():
    """Seed 12 game 0 picture 32 (Portuguese, white at the bottom): a hand of the frame's own colour (skin
    178,122,88 over a frame of 176,132,84) from black's side, its fingertips over a black man's top (0.07 square
    hidden): no colour of the board's own changes but the man's rim."""
    _check(12, 0, 30, 32)


def test_another_scene_is_never_compared():
    """Two still positions of one camera, other pieces and other light (a picture out of a game's order): the
    second is not compared with the first (edge 0), and a board seen again in the same light agrees."""
    v = get_variant("brazilian")
    empty, start = calibration_pictures(v, 4242, markers=False, side="left")
    config = calibrate_camera(v, render(empty), render(start)).config
    clf = config.classifier()
    first = position_scene(empty, {1: "w", 2: "b", 5: "W", 28: "b", 32: "w"}, 11)
    second = position_scene(empty, {3: "b", 4: "w", 9: "B", 29: "w", 30: "b", 31: "w"}, 12)
    for scene in (first, first, second, replace(second, seed=second.seed + 1)):
        reading = clf.read(render(scene))
        assert not reading.occluded and reading.edge == 0.0, f"edge {reading.edge:.3f}"
    clf.edge.forget()
    assert clf.read(render(second)).edge == 0.0


def test_light_rising_to_the_sensors_top_is_not_a_hand_international():
    """Seed 5 game 1 pictures 93-104 (International, white on the right, no markers, a glare spot beside the
    frame): the light's level drifts from 0.99 to 1.20, up to the sensor's top on the light squares (16-20 % of
    the picture clipped); their red clips first, the light's gain comes out too red and the whole frame beside
    them turns red against the empty board and the hand-free picture before. Each side's own tint is taken off
    (vision.occlusion.side_tint): the hand-free pictures are not flagged (band and edge were 0.19-0.44 square
    on pictures 100 and 103), every picture with a hand over the board still is."""
    config, _, pictures = _bench_game(5, 1, 88, 104)
    clf = config.classifier()
    for i, pic in enumerate(pictures, start=88):
        reading = clf.read(render(pic.scene))
        if pic.occluded:
            assert reading.occluded, f"picture {i}: hand missed"
        elif not pic.hand_in_view:
            assert not reading.occluded, (f"picture {i}: hand-free picture flagged (band {reading.band:.2f}, "
                                          f"edge {reading.edge:.3f})")
            assert reading.band < 0.15 and reading.edge <= EDGE_SQUARES


def test_a_dark_frames_noise_is_no_hand_portuguese_white_at_the_bottom():
    """Seed 7 game 0 pictures 0-31 in order (Portuguese, markers, a dark brown frame, JPEG 70): the frame's
    cells (30-45 grey levels) differ from the reference picture's by 2-5 grey levels of colour all along a side,
    0.05-0.08 of their brightness: a blob of 0.22 square at the left side (picture 30). Each side's own noise
    (twice its median colour left over) is taken off: the hand-free pictures are not flagged, every picture with
    a hand over the board still is."""
    config, _, pictures = _bench_game(7, 0, 0, 31)
    clf = config.classifier()
    for i, pic in enumerate(pictures):
        reading = clf.read(render(pic.scene))
        if pic.occluded:
            assert reading.occluded, f"picture {i}: hand missed"
        elif not pic.hand_in_view:
            assert not reading.occluded and reading.edge <= EDGE_SQUARES, f"picture {i}: edge {reading.edge:.3f}"
