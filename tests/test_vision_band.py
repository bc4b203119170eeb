"""The band outside the board (vision.occlusion.BandCue): an arm reaching in over the board's edge changes
the frame's colour there; drifting light, a shadow, glare and clipped pixels do not count as a change."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from calibration.camera import calibrate_camera
from rig.variants import get_variant
from vision.config import CameraConfig
from vision.errors import CameraConfigError
from vision.occlusion import BandCue
from vision.render import SKINS, Hand, drift, render
from vision.testset import calibration_pictures, position_scene

FRAME = (84, 132, 176)  # BGR of the first palette's frame


def _view(n: int = 4, px: int = 32):
    m = px // 2
    full = np.zeros((n * px + 2 * m, n * px + 2 * m, 3), np.uint8)
    full[:] = FRAME
    full[m:m + n * px, m:m + n * px] = (168, 212, 236)
    gain = np.ones((n * px, n * px, 3), np.float32)
    probe = BandCue(n, px, m)
    ref, _ = probe.colours(full, gain)
    return BandCue(n, px, m, ref=ref), full, gain


def test_band_cue_sees_an_arm_but_not_light_drift_shadow_glare_or_clipping():
    cue, full, gain = _view()
    assert cue.area(full, gain) == 0.0
    with pytest.raises(CameraConfigError, match="band must be"):
        BandCue(4, 32, 16, ref=cue.ref[:-1])                         # a config's band not of this board
    dim = (full.astype(np.float32) * 0.7).astype(np.uint8)
    assert cue.area(dim, gain / 0.7) == 0.0                          # the light drifted, the board's gain follows
    band_only = full.copy()
    band_only[:16] = (band_only[:16].astype(np.float32) * 0.75).astype(np.uint8)
    assert cue.area(band_only, gain) == 0.0                          # one side dimmer: its own light
    glare = full.copy()
    glare[:, :12] = np.clip(glare[:, :12].astype(np.int16) + 50, 0, 255).astype(np.uint8)
    assert cue.area(glare, gain) == 0.0                              # white added: glare
    clipped = full.copy()
    clipped[-16:, 40:90] = 255
    assert cue.area(clipped, gain) == 0.0                            # the sensor's top says nothing
    for colour in ((88, 122, 178), (58, 80, 120), (84, 48, 40), (32, 30, 30)):  # skins, a navy and a black sleeve
        arm = full.copy()
        arm[-16:, 40:80] = colour                                    # crossing the bottom side
        assert cue.area(arm, gain) >= 0.25, colour


def test_hand_at_the_edge_flagged_by_the_band_and_still_boards_in_drifting_light_not():
    v = get_variant("portuguese")
    empty, start = calibration_pictures(v, 51, markers=False, side="bottom")
    config = calibrate_camera(v, render(empty), render(start)).config
    assert config.band_squares > 0
    again = CameraConfig.from_dict(config.to_dict())  # the band and its threshold kept in the config file
    assert again.band_squares == config.band_squares
    assert np.allclose(again.appearance.band, config.appearance.band, atol=0.01)
    clf = config.classifier()
    off = replace(config, band_squares=0.0).classifier()
    scene = position_scene(empty, dict(start.pieces), 5100)
    rng = random.Random(51)
    light = scene.light
    for k in range(6):
        light = drift(light, rng, 0.15)
        reading = clf.read(render(replace(scene, light=light, seed=5100 + k)))
        assert not reading.occluded, f"still picture {k}: band {reading.band:.2f} taken for a hand"
        assert reading.band <= config.band_squares
    for x in (1.5, 3.5):  # fingers over the first rank, the arm over the frame: the cues inside see a trace
        hand = Hand(at=(x, -0.3), z=0.3, side_y=-1, skin=SKINS[1])
        img, hidden = render(replace(scene, hands=(hand,)), cover=True)
        assert hidden > 0.25
        reading = clf.read(img)
        assert reading.band > config.band_squares and reading.occluded, f"hand at {x}: band {reading.band:.2f}"
        # without the band: only the dark square's colour over the light squares' sides (issue 12 part 3) sees it
        quiet = off.read(img)
        assert not quiet.occluded or quiet.dark_on_light > 0.0
