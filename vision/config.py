"""The camera configuration file (TOML): what ``rig calibrate camera`` writes and ``rig vision read``,
``rig record --camera`` and ``rig run --camera`` read.

    variant = "international"
    px = 32                        # canonical view: pixels a square
    method = "markers"             # how the board was found: markers | squares
    image_size = [1280, 720]
    marker_size = 0.9              # squares (docs/camera.md)
    marker_offset = 0.65
    homography = [[...], ...]      # board plane (squares, white's frame) -> picture, fitted to the corners
    corners = [[[x, y], ...], ...] # (n+1) x (n+1) square corners in the picture, white's frame
    [appearance]                   # learned from the empty board and the start position
    mean = [[...], ...]            # light square, empty dark square, white piece, black piece
    std = [[...], ...]
    light_ref = [[[b, g, r], ...], ...]
    kings = true                   # false: the view tells a king on no square
    camera = [x, y, z, focal]      # the camera's centre over the board (squares, white's frame), focal (px)
    piece = [r, h]                 # a man's radius and height, squares (fitted to the start men)
    king_noise = 12.0              # spread of the man-or-king fit on the start men
    king_bias = [0.1, -0.2]        # the start men's fit off a man's usual one, white and black (vision.kings)
    king_fine_bias = -0.1          # the black start men's fit off a man's usual one at twice the resolution
    king_soft_bias = -0.1          # the same, the finer window smoothed more (vision.soft_look)
    static = {shape, bits}         # top-down view pixels of a piece's colour on the empty board (packed)
    [stability]
    agree = 2                      # hand-free frames that must agree before a position is emitted
    hold = 6                       # frames an unexplained position must persist before it is let through
    occluded_squares = 0.5         # board area like nothing learned (squares) that means a hand
    hand_squares = 2               # light squares of a hue they never have (skin) that mean a hand
    dark_on_light = 0.2            # a dark square's colour on light squares (squares) that means a hand
    skin_squares = 0.25            # light squares' area whose hue turned towards red (squares) that means a hand
    band_squares = 0.15            # band outside changed (squares): with a trace on the board, a hand (0: off)
    [capture]                      # exposure and white balance locked after calibration (picamera2)
"""

from __future__ import annotations

import base64
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import tomli_w

from rig.variants import Variant, get_variant
from vision.classify import Appearance, Classifier
from vision.errors import CameraConfigError
from vision.grid import canonical_maps
from vision.pose import CameraPose, board_homography

__all__ = ["CameraConfig", "load_camera_config", "save_camera_config"]


@dataclass(frozen=True)
class CameraConfig:
    variant: Variant
    px: int
    corners: np.ndarray
    appearance: Appearance
    method: str = "markers"
    image_size: tuple[int, int] = (1280, 720)
    marker_size: float = 0.9
    marker_offset: float = 0.65
    agree: int = 2
    hold: int = 6
    occluded_squares: float = 0.5
    hand_squares: int = 2
    dark_on_light: float = 0.2
    skin_squares: float = 0.25
    band_squares: float = 0.0
    capture: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        n = self.variant.size
        if self.corners.shape != (n + 1, n + 1, 2):
            raise CameraConfigError(f"corners must be {n + 1} x {n + 1} points for {self.variant.name}, "
                                    f"not {self.corners.shape[:2]}")
        if not (isinstance(self.agree, int) and self.agree >= 1):
            raise CameraConfigError(f"agree must be a whole number of frames >= 1, not {self.agree!r}")
        if not (isinstance(self.hold, int) and self.hold >= self.agree):
            raise CameraConfigError(f"hold must be a whole number of frames >= agree, not {self.hold!r}")
        if not 8 <= self.px <= 128:
            raise CameraConfigError(f"px must be 8..128 pixels a square, not {self.px!r}")

    def homography(self) -> np.ndarray:
        """The board plane (squares, white's frame) -> picture homography fitted to the measured corners
        (the corners themselves follow lens distortion; the homography is the undistorted summary)."""
        return board_homography(self.corners)

    def classifier(self) -> Classifier:
        clf = Classifier(self.variant, self.px, canonical_maps(self.corners, self.px, self.px // 2), self.appearance,
                         occluded_squares=self.occluded_squares,
                         hand_squares=self.hand_squares, dark_on_light=self.dark_on_light,
                         skin_squares=self.skin_squares, band_squares=self.band_squares)
        if clf.fine_look is not None and self.appearance.kings:
            _ = clf.fine_look.reader  # the finer look's templates drawn now (0.1-0.2 s), not on a picture
        if clf.frame_look is not None and self.appearance.kings:
            _ = clf.frame_look.reader  # the frame look's ideal windows measured now, not on a picture
        if clf.soft_look is not None and self.appearance.kings:
            _ = clf.soft_look.reader  # the soft look's (the finer look's templates, its own bias)
        if clf.near_black_look is not None and self.appearance.kings:
            _ = clf.near_black_look.reader  # the soft look's, claiming kings only
        return clf

    def to_dict(self) -> dict:
        ap = self.appearance
        d: dict[str, Any] = {
            "variant": self.variant.name, "px": self.px, "method": self.method, "image_size": list(self.image_size),
            "marker_size": self.marker_size, "marker_offset": self.marker_offset,
            "homography": np.round(self.homography(), 8).tolist(),
            "corners": np.round(self.corners, 3).tolist(),
            "appearance": {"mean": np.round(ap.mean, 5).tolist(), "std": np.round(ap.std, 5).tolist(),
                           "light_ref": np.round(ap.light_ref, 2).tolist(),
                           "kings": ap.kings, "piece": [round(ap.piece[0], 4), round(ap.piece[1], 4)],
                           "king_noise": round(ap.king_noise, 3),
                           "king_bias": [round(float(b), 4) for b in ap.king_bias],
                           "king_fine_bias": round(float(ap.fine_bias), 4),
                           "king_soft_bias": round(float(ap.soft_bias), 4)},
            "stability": {"agree": self.agree, "hold": self.hold, "occluded_squares": self.occluded_squares,
                          "hand_squares": self.hand_squares, "dark_on_light": self.dark_on_light,
                          "skin_squares": self.skin_squares, "band_squares": self.band_squares},
        }
        if ap.pose is not None:
            d["appearance"]["camera"] = [round(c, 4) for c in ap.pose.centre] + [round(ap.pose.focal, 2)]
        if ap.band is not None:
            d["appearance"]["band"] = np.round(ap.band, 2).tolist()
        if ap.static is not None:
            d["appearance"]["static"] = {"shape": list(ap.static.shape),
                                         "bits": base64.b64encode(np.packbits(ap.static).tobytes()).decode()}
        if self.capture:
            d["capture"] = dict(self.capture)
        if self.notes:
            d["notes"] = list(self.notes)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "CameraConfig":
        a, s = d["appearance"], d.get("stability", {})
        static = None
        if "static" in a:
            shape = tuple(int(x) for x in a["static"]["shape"])
            bits = np.frombuffer(base64.b64decode(a["static"]["bits"]), np.uint8)
            static = np.unpackbits(bits)[:shape[0] * shape[1]].reshape(shape).astype(bool)
        pose = None
        if "camera" in a:
            cam = [float(x) for x in a["camera"]]
            if len(cam) != 4 or cam[2] <= 0:
                raise CameraConfigError("appearance: camera must be [x, y, height > 0, focal]")
            pose = CameraPose((cam[0], cam[1], cam[2]), cam[3])
        piece = tuple(float(x) for x in a.get("piece", (0.0, 0.0)))
        if len(piece) != 2 or min(piece) < 0:
            raise CameraConfigError("appearance: piece must be [radius, height] in squares, not negative")
        bias = tuple(float(x) for x in a.get("king_bias", (0.0, 0.0)))
        if len(bias) != 2:
            raise CameraConfigError("appearance: king_bias must be [white, black]")
        ap = Appearance(np.array(a["mean"], np.float32), np.array(a["std"], np.float32),
                        np.array(a["light_ref"], np.float32), bool(a.get("kings", True)), static, pose,
                        (piece[0], piece[1]), float(a.get("king_noise", 0.0)),
                        np.array(a["band"], np.float32).reshape(-1, 3) if "band" in a else None, (bias[0], bias[1]),
                        float(a.get("king_fine_bias", 0.0)), float(a.get("king_soft_bias", 0.0)))
        if ap.mean.shape != (4, 3) or ap.std.shape != (4, 3):
            raise CameraConfigError("appearance: mean and std must be 4 x 3")
        if np.any(ap.std <= 0):
            raise CameraConfigError("appearance: std must be positive")
        return cls(variant=get_variant(d["variant"]), px=int(d.get("px", 32)),
                   corners=np.array(d["corners"], np.float64), appearance=ap, method=d.get("method", "markers"),
                   image_size=tuple(d.get("image_size", (1280, 720))), marker_size=float(d.get("marker_size", 0.9)),
                   marker_offset=float(d.get("marker_offset", 0.65)), agree=s.get("agree", 2), hold=s.get("hold", 6),
                   occluded_squares=float(s.get("occluded_squares", 0.5)),
                   hand_squares=int(s.get("hand_squares", 2)),
                   dark_on_light=float(s.get("dark_on_light", 0.2)),
                   skin_squares=float(s.get("skin_squares", 0.25)),
                   band_squares=float(s.get("band_squares", 0.0)),
                   capture=dict(d.get("capture", {})), notes=tuple(d.get("notes", ())))


def load_camera_config(path: str | Path) -> CameraConfig:
    """Read and validate a camera config; errors name the file and what is wrong."""
    try:
        with open(path, "rb") as fh:
            d = tomllib.load(fh)
    except FileNotFoundError:
        raise CameraConfigError(f"{path}: no such camera config (run `rig calibrate camera`)") from None
    except IsADirectoryError:
        raise CameraConfigError(f"{path}: is a directory, not a camera config") from None
    except tomllib.TOMLDecodeError as exc:
        raise CameraConfigError(f"{path}: not valid TOML ({exc})") from None
    try:
        return CameraConfig.from_dict(d)
    except KeyError as exc:
        raise CameraConfigError(f"{path}: missing key {exc}") from None
    except (ValueError, TypeError) as exc:
        raise CameraConfigError(f"{path}: {exc}") from None


def save_camera_config(config: CameraConfig, path: str | Path) -> None:
    Path(path).write_text(tomli_w.dumps(config.to_dict()), encoding="utf-8")
