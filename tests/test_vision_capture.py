"""Capture backends: the image sequence (tests and demos) behaves like a camera; the Pi camera and V4L2
backends fail with a clear error where there is no such device, and picamera2 is only imported when opened."""

from __future__ import annotations

import sys

import cv2
import numpy as np
import pytest

from vision.capture import ImageSequence, PiCamera, V4L2Camera, open_capture
from vision.errors import CaptureError


def test_image_sequence_reads_in_name_order_at_its_rate(tmp_path):
    for i, v in ((2, 30), (0, 10), (1, 20)):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), np.full((4, 6, 3), v, np.uint8))
    (tmp_path / "notes.txt").write_text("not a picture")
    with ImageSequence(str(tmp_path), fps=4) as cap:
        got = []
        while (item := cap.read()) is not None:
            got.append((item[0], int(item[1][0, 0, 0])))
        assert "3/3" in repr(cap)
    assert got == [(0.0, 10), (0.25, 20), (0.5, 30)]
    assert ImageSequence(str(tmp_path)).lock() == {}


def test_image_sequence_errors(tmp_path):
    with pytest.raises(CaptureError, match="no such directory"):
        ImageSequence(str(tmp_path / "none"))
    with pytest.raises(CaptureError, match="no pictures"):
        ImageSequence(str(tmp_path))
    with pytest.raises(CaptureError, match="fps"):
        ImageSequence([], fps=0)
    bad = tmp_path / "x.jpg"
    bad.write_bytes(b"not a jpeg")
    with pytest.raises(CaptureError, match="x.jpg"):
        ImageSequence([str(bad)]).read()


def test_open_capture_chooses_the_backend(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((2, 2, 3), np.uint8))
    assert isinstance(open_capture(images=str(tmp_path)), ImageSequence)
    assert isinstance(open_capture(device="pi"), PiCamera)
    cam = open_capture(device="3")
    assert isinstance(cam, V4L2Camera) and cam.device == 3 and "closed" in repr(cam)
    with pytest.raises(CaptureError, match="number"):
        open_capture(device="front")


def test_pi_camera_is_imported_lazily(monkeypatch):
    import vision.capture  # noqa: F401 - importing the package never needs picamera2

    assert "picamera2" not in sys.modules
    monkeypatch.setitem(sys.modules, "picamera2", None)  # as on a machine without it
    with pytest.raises(CaptureError, match="picamera2"):
        PiCamera().open()


def test_v4l2_without_a_device_is_a_clear_error():
    cam = V4L2Camera(63)
    with pytest.raises(CaptureError, match="/dev/video63"):
        cam.open()
    with pytest.raises(CaptureError, match="not open"):
        cam.read()
