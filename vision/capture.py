"""Capture backends behind one small interface: ``open()``, ``read() -> (t, image) | None``, ``close()``,
``lock()`` (fix exposure and white balance once calibrated) and ``settings()``.

- :class:`PiCamera` — the Pi camera through picamera2 (imported only when opened, so the package works
  on any machine); exposure and white balance locked after calibration.
- :class:`V4L2Camera` — a USB webcam through ``cv2.VideoCapture`` (V4L2).
- :class:`ImageSequence` — pictures from a directory or a list, at ``fps``: tests and demos.

``t`` is seconds since the capture was opened (the picture's own time for an image sequence).
"""

from __future__ import annotations

import os
import time
from typing import Any, Iterable, Protocol

import cv2
import numpy as np

from vision.errors import CaptureError

__all__ = ["Capture", "ImageSequence", "V4L2Camera", "PiCamera", "open_capture", "IMAGE_EXTENSIONS"]

IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp")


class Capture(Protocol):
    def open(self) -> None: ...

    def read(self) -> tuple[float, np.ndarray] | None: ...

    def close(self) -> None: ...

    def lock(self, settings: dict[str, Any] | None = None) -> dict[str, Any]: ...


class _Base:
    live = True

    def __enter__(self):
        self.open()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def lock(self, settings: dict[str, Any] | None = None) -> dict[str, Any]:
        return {}


class ImageSequence(_Base):
    """Pictures read in name order from ``source`` (a directory or a list of paths), ``fps`` a second."""

    live = False

    def __init__(self, source: str | Iterable[str], fps: float = 5.0):
        if fps <= 0:
            raise CaptureError(f"fps must be positive, not {fps}")
        if isinstance(source, str):
            if not os.path.isdir(source):
                raise CaptureError(f"{source}: no such directory of pictures")
            paths = sorted(os.path.join(source, f) for f in os.listdir(source)
                           if f.lower().endswith(IMAGE_EXTENSIONS))
            if not paths:
                raise CaptureError(f"{source}: no pictures ({', '.join(IMAGE_EXTENSIONS)})")
        else:
            paths = list(source)
        self.paths = paths
        self.fps = fps
        self.index = 0
        self.opened = False

    def open(self) -> None:
        self.opened = True

    def read(self) -> tuple[float, np.ndarray] | None:
        if self.index >= len(self.paths):
            return None
        path = self.paths[self.index]
        img = cv2.imread(path, cv2.IMREAD_COLOR)
        if img is None:
            raise CaptureError(f"{path}: not a picture OpenCV can read")
        t = self.index / self.fps
        self.index += 1
        return t, img

    def close(self) -> None:
        self.opened = False

    def __repr__(self) -> str:
        return f"<ImageSequence {self.index}/{len(self.paths)} at {self.fps:g} fps>"


class V4L2Camera(_Base):
    """A USB webcam (``/dev/videoN``) through OpenCV's V4L2 backend."""

    def __init__(self, device: int = 0, width: int = 1280, height: int = 720):
        self.device, self.width, self.height = device, width, height
        self._cap: Any = None
        self._t0 = 0.0

    def open(self) -> None:
        cap = cv2.VideoCapture(self.device, cv2.CAP_V4L2)
        if not cap.isOpened():
            raise CaptureError(f"/dev/video{self.device}: cannot open the camera")
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        self._cap, self._t0 = cap, time.monotonic()

    def read(self) -> tuple[float, np.ndarray] | None:
        if self._cap is None:
            raise CaptureError("the camera is not open")
        ok, img = self._cap.read()
        if not ok:
            raise CaptureError(f"/dev/video{self.device}: no picture (unplugged?)")
        return time.monotonic() - self._t0, img

    def lock(self, settings: dict[str, Any] | None = None) -> dict[str, Any]:
        """Manual exposure and white balance at their current (or the given) values."""
        cap = self._cap
        s = dict(settings or {})
        exposure = s.get("exposure", cap.get(cv2.CAP_PROP_EXPOSURE))
        wb = s.get("white_balance", cap.get(cv2.CAP_PROP_WB_TEMPERATURE))
        cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)  # V4L2: 1 = manual
        cap.set(cv2.CAP_PROP_EXPOSURE, exposure)
        cap.set(cv2.CAP_PROP_AUTO_WB, 0)
        cap.set(cv2.CAP_PROP_WB_TEMPERATURE, wb)
        return {"backend": "v4l2", "exposure": float(exposure), "white_balance": float(wb)}

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None

    def __repr__(self) -> str:
        return f"<V4L2Camera /dev/video{self.device} {'open' if self._cap is not None else 'closed'}>"


class PiCamera(_Base):
    """The Pi camera through picamera2 (only imported when opened)."""

    def __init__(self, width: int = 1280, height: int = 720):
        self.width, self.height = width, height
        self._cam: Any = None
        self._t0 = 0.0

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # Pi only
        except ImportError:
            raise CaptureError("picamera2 is not installed (on the Pi: apt install python3-picamera2)") from None
        cam = Picamera2()
        cam.configure(cam.create_video_configuration(main={"size": (self.width, self.height), "format": "BGR888"}))
        cam.start()
        self._cam, self._t0 = cam, time.monotonic()

    def read(self) -> tuple[float, np.ndarray] | None:
        if self._cam is None:
            raise CaptureError("the camera is not open")
        return time.monotonic() - self._t0, self._cam.capture_array("main")

    def lock(self, settings: dict[str, Any] | None = None) -> dict[str, Any]:
        """Auto exposure and white balance off, at the values they settled on (or the given ones)."""
        meta = self._cam.capture_metadata()
        s = dict(settings or {})
        controls = {"AeEnable": False, "AwbEnable": False,
                    "ExposureTime": int(s.get("exposure_us", meta["ExposureTime"])),
                    "AnalogueGain": float(s.get("analogue_gain", meta["AnalogueGain"])),
                    "ColourGains": tuple(s.get("colour_gains", meta["ColourGains"]))}
        self._cam.set_controls(controls)
        return {"backend": "picamera2", "exposure_us": controls["ExposureTime"],
                "analogue_gain": controls["AnalogueGain"], "colour_gains": list(controls["ColourGains"])}

    def close(self) -> None:
        if self._cam is not None:
            self._cam.stop()
            self._cam.close()
            self._cam = None

    def __repr__(self) -> str:
        return f"<PiCamera {'open' if self._cam is not None else 'closed'}>"


def open_capture(*, device: int | str | None = None, images: str | None = None, fps: float = 5.0,
                 size: tuple[int, int] = (1280, 720)) -> _Base:
    """An image sequence (``images``), the Pi camera (``device="pi"``) or a V4L2 webcam (``device=N``)."""
    if images is not None:
        return ImageSequence(images, fps)
    if device == "pi":
        return PiCamera(*size)
    try:
        index = int(device if device is not None else 0)
    except ValueError:
        raise CaptureError(f"camera device must be a number (/dev/videoN) or 'pi', not {device!r}") from None
    return V4L2Camera(index, *size)
