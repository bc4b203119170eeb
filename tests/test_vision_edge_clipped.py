"""The edge watch and cells the sensor clips since its reference picture (issue 12, hands18): a pale hand over a
light-brown or brown frame at a light of 1.1-1.2 clips its red, and a clipped cell used to say nothing, so the
hand's fingertips at the board's far edge were missed and a missed hand then stood as the edge watch's reference
(the hand-free pictures after it flagged against it). A clipped channel is a lower bound; the channels left under
the sensor's top still move as the light moves. And glare, which stands still between two pictures of one scene:
a brighter cell is a change though the reference plus white explains it (pale skin over a light-brown frame). Unit
cells, then the bench's own pictures of seeds 6 and 9 (bench/bench_vision.py)."""

from __future__ import annotations

import numpy as np

from vision_helpers import bench_game
from vision.occlusion import EdgeWatch
from vision.render import render

FRAME = np.array([[100.0], [157.0], [209.0]])  # a light-brown frame cell at a light of 1.17, BGR, as corrected


def _anew(cells: np.ndarray, light: float = 0.0) -> bool:
    """Whether a cell the sensor now clips (``cells``: BGR, a channel at 255 clipped) changed against ``FRAME``."""
    channels = cells < 230
    return bool(EdgeWatch._clipped_anew(cells, FRAME, channels, np.array([True]), np.array([light]))[0])


def test_clipped_cell_pale_skin_over_a_light_brown_frame_is_a_change():
    assert _anew(np.array([[194.0], [225.0], [255.0]]))  # pale skin: red clipped, blue nearly doubled
    assert _anew(np.array([[204.0], [255.0], [255.0]]))  # red and green clipped: blue alone tells


def test_clipped_cell_the_light_rising_to_the_sensors_top_is_no_change():
    risen = np.exp(0.2)  # the side's light up by a fifth: every channel with it, the red past the top
    assert not _anew(np.minimum(FRAME * risen, 255.0), light=0.2)
    assert not _anew(np.array([[101.0], [158.0], [255.0]]))  # only the red reached the top (a bound: >= 255)
    assert _anew(np.array([[60.0], [100.0], [255.0]]), light=0.0)  # darker in what is left, red clipped: a hue


def _game(seed: int, g: int, first: int, last: int) -> None:
    """Pictures first .. last of the bench's game ``g`` of ``seed``, in order: every hand over the playable board
    flagged, every hand-free picture not."""
    config, pictures = bench_game(seed, g, set(range(first, last + 1)))
    clf = config.classifier()
    for i in range(first, last + 1):
        pic = pictures[i]
        reading = clf.read(render(pic.scene))
        if pic.occluded:
            assert reading.occluded, f"picture {i} (hides {pic.hidden:.2f} squares): missed, edge {reading.edge:.3f}"
        elif not pic.hand_in_view:
            assert not reading.occluded, f"hand-free picture {i} flagged: edge {reading.edge:.3f}"


def test_pale_fingertips_clipped_over_the_far_frame_brazilian_white_at_the_top():
    """Seed 6 game 0 (Brazilian, white at the top, a cream and green board, light 1.08-1.20): a pale hand in a
    navy sleeve from black's side, its fingers over the far frame and an edge man's top (pictures 75, 87, 99, 108:
    0.03-0.49 square hidden), red clipped, the frame's cells under it unclipped in the hand-free picture before."""
    _game(6, 0, 68, 108)


def test_a_missed_hand_never_becomes_the_reference_brazilian_white_at_the_top():
    """Seed 6 game 2 pictures 68-82 (Brazilian, beige and brown board, light 1.11-1.20): picture 70's pale
    fingertips over the frame (0.11 square hidden) are flagged, so it never becomes the reference, and the
    hand-free pictures 74, 75, 80, 81 (flagged against it, edge 0.78-0.80) are not."""
    _game(6, 2, 68, 82)


def test_pale_skin_over_a_light_brown_frame_is_no_glare_brazilian_white_at_the_top():
    """Seed 9 game 2 pictures 30-35 (Brazilian, white at the top, markers, light 0.64-0.67): a pale hand's arm
    over the light-brown frame (picture 35: 0.11 square hidden), the frame's cells brightened by half again: the
    frame plus about 100 grey levels of white, which was let pass as glare. Glare does not appear between two
    pictures of one scene."""
    _game(9, 2, 30, 35)
