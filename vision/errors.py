"""Errors of the camera layer; each also subclasses the matching built-in (see rig.errors)."""

from rig.errors import RigError

__all__ = ["CameraError", "CameraConfigError", "BoardNotFoundError", "CameraCalibrationError", "CaptureError"]


class CameraError(RigError, RuntimeError):
    """Base of the camera layer's errors."""


class CameraConfigError(CameraError, ValueError):
    """A camera config file that cannot be used: missing, not TOML, a bad or missing value."""


class BoardNotFoundError(CameraError, LookupError):
    """The board is not in the picture (no markers, no squares)."""


class CameraCalibrationError(CameraError):
    """The calibration could not learn a usable view; ``kind`` is ``wrong-setup`` when the board or the
    start position is set up wrong (FPD 000 7.2, CODEX 004 art. 44), else ``calibration``."""

    def __init__(self, message: str, kind: str = "calibration"):
        self.kind = kind
        super().__init__(f"{kind}: {message}" if kind == "wrong-setup" else message)


class CaptureError(CameraError, OSError):
    """A capture device that cannot be opened or stopped delivering pictures."""
