"""Where the camera stands, from the board's homography: what a piece's height looks like on each square.

The calibration measures the board-plane -> picture homography ``H`` (board coordinates in squares, white's
frame: x the file, y the rank, z up). With square pixels and the principal point at the picture's centre
(true of any ordinary camera to a few pixels), ``K^-1 H`` is ``lambda [r1 r2 t]``: the two rotation columns
must be orthogonal and of equal length, which gives the focal length, then the rotation and the camera's
centre ``C`` over the board. A point at height ``h`` above board point ``p`` is seen where the ray from ``C``
through it meets the board: ``C_xy + (p - C_xy) * Z / (Z - h)`` (``Z`` the camera's height), so a piece's
top disc appears displaced away from the point below the camera by ``(p - C_xy) h / (Z - h)`` and larger by
``Z / (Z - h)``: that parallax is all that tells a king (two stacked men) from a man.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.errors import CameraCalibrationError

__all__ = ["CameraPose", "board_homography", "pose_from_homography"]

#: focal length assumed (pixels, a fraction of the picture's width) when the view is too square-on for the
#: homography to tell it (a camera straight above the board: the parallax is then small anyway)
DEFAULT_FOCAL = 1.0


@dataclass(frozen=True)
class CameraPose:
    """The camera's centre over the board (squares, white's frame, ``z`` its height) and focal length
    (pixels); ``focal_measured`` False when the focal length had to be assumed."""

    centre: tuple[float, float, float]
    focal: float
    focal_measured: bool = True

    @property
    def foot(self) -> tuple[float, float]:
        """The point of the board plane below the camera (squares; may lie outside the board)."""
        return self.centre[0], self.centre[1]

    def seen_at(self, x: float, y: float, h: float) -> tuple[float, float]:
        """Where on the board plane the camera sees the point at height ``h`` above ``(x, y)`` (squares)."""
        cx, cy, z = self.centre
        k = z / (z - h)
        return cx + (x - cx) * k, cy + (y - cy) * k

    def scale(self, h: float) -> float:
        """How much larger a disc at height ``h`` looks on the board plane."""
        z = self.centre[2]
        return z / (z - h)

    def tilt(self, x: float, y: float) -> float:
        """The viewing angle from vertical at board point ``(x, y)``, degrees."""
        cx, cy, z = self.centre
        return float(np.degrees(np.arctan2(np.hypot(x - cx, y - cy), z)))


def board_homography(corners: np.ndarray) -> np.ndarray:
    """The board plane (squares, white's frame) -> picture homography fitted to the measured square corners
    ((n+1) x (n+1) points; they follow lens distortion, the homography is its undistorted summary)."""
    n = corners.shape[0] - 1
    board = np.stack(np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij"), axis=2).reshape(-1, 2)
    H, _ = cv2.findHomography(board.astype(np.float64), corners.reshape(-1, 2), 0)
    return H


def pose_from_homography(H: np.ndarray, image_size: tuple[int, int]) -> CameraPose:
    """The camera's pose from the board -> picture homography and the picture's size (principal point at
    its centre, square pixels)."""
    w, h = image_size
    Hn = np.asarray(H, float) / np.linalg.norm(np.asarray(H, float)[:, 0])
    cx, cy = w / 2.0, h / 2.0
    a = [np.array([Hn[0, i] - cx * Hn[2, i], Hn[1, i] - cy * Hn[2, i]]) for i in range(3)]
    z = [Hn[2, i] for i in range(3)]
    # in u = 1 / f^2: orthogonal columns  a1.a2 u + z1 z2 = 0;  equal lengths  (|a1|^2 - |a2|^2) u + z1^2 - z2^2 = 0
    A = np.array([a[0] @ a[1], a[0] @ a[0] - a[1] @ a[1]])
    b = -np.array([z[0] * z[1], z[0] ** 2 - z[1] ** 2])
    u = float(A @ b / (A @ A)) if A @ A > 0 else 0.0
    measured = u > 0
    focal = 1.0 / np.sqrt(u) if measured else DEFAULT_FOCAL * w
    if measured and not 0.2 * w < focal < 8 * w:  # the view is too square-on to tell the focal length
        focal, measured = DEFAULT_FOCAL * w, False
    Kinv = np.array([[1 / focal, 0, -cx / focal], [0, 1 / focal, -cy / focal], [0, 0, 1.0]])
    M = Kinv @ Hn
    lam = 2.0 / (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1]))
    if M[2, 2] * lam < 0:  # the board lies in front of the camera
        lam = -lam
    r1, r2, t = M[:, 0] * lam, M[:, 1] * lam, M[:, 2] * lam
    r3 = np.cross(r1, r2)
    R = np.column_stack([r1, r2, r3])
    U, _, Vt = np.linalg.svd(R)  # the nearest rotation
    R = U @ Vt
    C = -R.T @ t
    height = abs(float(C[2]))
    if not np.all(np.isfinite(C)) or height < 1e-6:
        raise CameraCalibrationError("the camera's place cannot be recovered from the board's homography")
    return CameraPose((float(C[0]), float(C[1]), height), float(focal), measured)
