"""Calibration of the camera on rendered boards: both sizes, with and without markers, white on every side
of the picture; the variant's orientation and start position checked (wrong-setup)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from calibration.camera import calibrate_camera
from rig.board import Board
from vision.config import load_camera_config, save_camera_config
from vision.errors import BoardNotFoundError, CameraCalibrationError, CameraConfigError
from vision.render import SIDES, render
from vision.testset import calibration_pictures, write_pictures
from rig.variants import BRAZILIAN, INTERNATIONAL, PORTUGUESE, get_variant

CASES = [(variant, markers, side) for variant in ("portuguese", "international")
         for markers in (True, False) for side in SIDES]


@pytest.mark.parametrize("variant,markers,side", CASES)
def test_calibration_finds_board_side_and_orientation(variant, markers, side):
    seed = 100 + CASES.index((variant, markers, side))
    empty, start = calibration_pictures(get_variant(variant), seed, markers=markers, side=side)
    report = calibrate_camera(get_variant(variant), render(empty), render(start))
    cfg = report.config
    assert report.white_side == side
    assert cfg.method == ("markers" if markers else "squares")
    n = 10 if variant == "international" else 8
    assert cfg.corners.shape == (n + 1, n + 1, 2)
    # the start picture reads back as the start position, men of the right colours (a stack is read from
    # a piece's height in perspective: at most a couple of men may look like kings)
    got = cfg.classifier().read(render(start)).squares
    assert {s: c.lower() for s, c in got.items()} == Board(variant).piece_codes()
    assert sum(c.isupper() for c in got.values()) <= 2


DARK_FRAME = ([("international", markers, side) for markers in (True, False) for side in SIDES]
              + [("portuguese", False, side) for side in SIDES])


@pytest.mark.parametrize("variant,markers,side", DARK_FRAME)
def test_calibration_dark_frame_on_a_dark_table(variant, markers, side):
    # a frame as dark as the dark squares on a dark table: in grey the edge squares have no outline
    seed = 120 + DARK_FRAME.index((variant, markers, side))
    empty, start = calibration_pictures(get_variant(variant), seed, markers=markers, side=side)
    empty, start = (replace(x, palette=2, table=(62, 56, 112)) for x in (empty, start))
    report = calibrate_camera(get_variant(variant), render(empty), render(start))
    assert report.white_side == side
    assert report.config.method == ("markers" if markers else "squares")
    got = report.config.classifier().read(render(start)).squares
    assert {s: c.lower() for s, c in got.items()} == Board(variant).piece_codes()


def test_board_turned_a_quarter_is_wrong_setup():
    # a board with its dark corner at white's bottom left, set up for the Portuguese game (FPD 000 1.2)
    empty, start = calibration_pictures(BRAZILIAN, 7, markers=True, side="bottom")
    with pytest.raises(CameraCalibrationError) as exc:
        calibrate_camera(PORTUGUESE, render(empty), render(start))
    assert exc.value.kind == "wrong-setup"
    assert "bottom right" in str(exc.value)


def test_start_position_missing_a_piece_is_wrong_setup():
    empty, start = calibration_pictures(INTERNATIONAL, 8, markers=False, side="left")
    pieces = dict(start.pieces)
    del pieces[17]
    with pytest.raises(CameraCalibrationError) as exc:
        calibrate_camera(INTERNATIONAL, render(empty), render(replace(start, pieces=pieces)))
    assert exc.value.kind == "wrong-setup" and "17" in str(exc.value)


def test_no_board_in_the_picture():
    blank = np.full((720, 1280, 3), 120, np.uint8)
    with pytest.raises(BoardNotFoundError):
        calibrate_camera(PORTUGUESE, blank, blank)


def test_config_round_trip_and_errors(tmp_path):
    empty, start = calibration_pictures(PORTUGUESE, 9, markers=True, side="top")
    cfg = calibrate_camera(PORTUGUESE, render(empty), render(start)).config
    path = tmp_path / "cam.toml"
    save_camera_config(cfg, path)
    back = load_camera_config(path)
    assert back.variant.name == "portuguese" and back.method == "markers"
    assert np.allclose(back.corners, cfg.corners, atol=1e-3)
    assert back.appearance.kings == cfg.appearance.kings
    bad = tmp_path / "bad.toml"
    bad.write_text("variant = 'portuguese'\n")
    with pytest.raises(CameraConfigError, match="missing key"):
        load_camera_config(bad)
    with pytest.raises(CameraConfigError, match="no such camera config"):
        load_camera_config(tmp_path / "none.toml")


def test_rig_calibrate_camera_command(tmp_path):
    empty, start = calibration_pictures(INTERNATIONAL, 11, markers=False, side="right")
    e, s = write_pictures(str(tmp_path / "cal"), [empty, start])
    out = tmp_path / "cam.toml"
    rig = [sys.executable, "-m", "rig.cli"]
    done = subprocess.run(rig + ["calibrate", "camera", "--variant", "international", "--empty", e, "--start", s,
                                 "-o", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "white at the right" in done.stdout and load_camera_config(out).variant.name == "international"
    # a wrong setup (Portuguese rules on this board) and a missing picture: exit 2, a message, no traceback
    done = subprocess.run(rig + ["calibrate", "camera", "--variant", "portuguese", "--empty", e, "--start", s,
                                 "-o", str(tmp_path / "x.toml")], capture_output=True, text=True)
    assert done.returncode == 2 and "rig calibrate:" in done.stderr and "Traceback" not in done.stderr
    done = subprocess.run(rig + ["calibrate", "camera", "--empty", e, "--start", str(tmp_path / "no.jpg")],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "no.jpg" in done.stderr
