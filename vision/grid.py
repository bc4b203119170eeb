"""Where the board is in the picture: its (n+1) x (n+1) square corners, found from the ArUco markers on
the frame or from the board's own squares, and the canonical top-down view built from them.

``corners[i, j]`` is the image point of board point ``(x=i, y=j)`` in white's frame (x = file, y = rank,
squares). Markers (DICT_4X4_50) sit on the frame, centred ``marker_offset`` squares outside each board
corner: id 0 at white's bottom-left, 1 bottom-right, 2 top-right, 3 top-left (docs/camera.md). With the
markers the frame is known at once; from the squares alone the grid is known up to a quarter turn,
which the calibration settles from the start position. Lens distortion is followed square by square:
the inner corners are measured, not predicted, and the view is built cell by cell from them.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.errors import BoardNotFoundError

__all__ = ["BoardGrid", "find_markers", "grid_from_markers", "grid_from_squares", "find_grid", "canonical_maps",
           "MARKER_IDS"]

MARKER_IDS = (0, 1, 2, 3)  # white's bottom-left, bottom-right, top-right, top-left


@dataclass(frozen=True)
class BoardGrid:
    """The board's square corners in the picture; ``method`` is ``markers`` or ``squares``."""

    size: int
    corners: np.ndarray  # (n+1, n+1, 2) float
    method: str

    def rotated(self, quarter_turns: int) -> "BoardGrid":
        """The same grid with white's frame turned ``quarter_turns`` times a quarter (counter-clockwise)."""
        return BoardGrid(self.size, np.rot90(self.corners, quarter_turns, axes=(0, 1)).copy(), self.method)

    def __repr__(self) -> str:
        c = self.corners
        return f"<BoardGrid {self.size}x{self.size} by {self.method} from ({c[0, 0, 0]:.0f},{c[0, 0, 1]:.0f})>"


def _gray(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Marker id -> its four corners (top-left, top-right, bottom-right, bottom-left as printed)."""
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    detector = cv2.aruco.ArucoDetector(d, cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(_gray(image))
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners) if int(i) in MARKER_IDS}


def _marker_world(mid: int, n: int, size: float, offset: float) -> np.ndarray:
    cx = -offset if mid in (0, 3) else n + offset
    cy = -offset if mid in (0, 1) else n + offset
    s = size / 2
    return np.array([[cx - s, cy + s], [cx + s, cy + s], [cx + s, cy - s], [cx - s, cy - s]])


def _refine(gray: np.ndarray, pred: np.ndarray) -> np.ndarray:
    """Measured inner corners near the predicted ones; the outer ring follows its inner neighbours' error."""
    n = pred.shape[0] - 1
    inner = pred[1:n, 1:n].reshape(-1, 1, 2).astype(np.float32)
    step = float(np.median(np.linalg.norm(np.diff(pred, axis=0), axis=2)))
    win = int(max(3, min(15, step / 4)))
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 40, 0.01)
    meas = cv2.cornerSubPix(gray, inner.copy(), (win, win), (-1, -1), crit).reshape(n - 1, n - 1, 2)
    err = meas - pred[1:n, 1:n]
    bad = np.linalg.norm(err, axis=2) > step / 3  # a corner hidden or misread: keep the prediction
    err[bad] = 0
    out = pred.copy()
    out[1:n, 1:n] = pred[1:n, 1:n] + err
    full = np.zeros_like(pred)
    full[1:n, 1:n] = err
    idx = np.clip(np.arange(n + 1), 1, n - 1)
    full = full[idx][:, idx]
    out[0, :], out[n, :], out[:, 0], out[:, n] = (pred[0, :] + full[0, :], pred[n, :] + full[n, :],
                                                  pred[:, 0] + full[:, 0], pred[:, n] + full[:, n])
    return out


def _project(H: np.ndarray, n: int) -> np.ndarray:
    g = np.stack(np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij"), axis=2).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(g.astype(np.float64), H).reshape(n + 1, n + 1, 2)


def grid_from_markers(image: np.ndarray, n: int, marker_size: float, marker_offset: float) -> BoardGrid | None:
    """The grid from the four corner markers (their 16 corners give the frame); None without all four."""
    found = find_markers(image)
    if len(found) < 4:
        return None
    world = np.vstack([_marker_world(i, n, marker_size, marker_offset) for i in MARKER_IDS])
    img = np.vstack([found[i] for i in MARKER_IDS])
    H, _ = cv2.findHomography(world, img, 0)
    if H is None:
        return None
    return BoardGrid(n, _refine(_gray(image), _project(H, n)), "markers")


SB_FLAGS = cv2.CALIB_CB_NORMALIZE_IMAGE | cv2.CALIB_CB_EXHAUSTIVE | cv2.CALIB_CB_ACCURACY


def _views(image: np.ndarray):
    """Single-channel views of the picture to look for the squares in, the grey one first. The squares'
    pattern must stand out from what surrounds the board: a frame as dark as the dark squares, on a table
    as dark as the frame, leaves the edge squares without an outline in grey (the pattern is not found);
    in one of the colour channels the frame and the table part. Then each locally equalised (uneven light)."""
    gray = _gray(image)
    views = [gray] + ([image[..., k] for k in range(3)] if image.ndim == 3 else [])
    yield from views
    clahe = cv2.createCLAHE(clipLimit=3.0, tileGridSize=(8, 8))
    for view in views:
        yield clahe.apply(np.ascontiguousarray(view))


def grid_from_squares(image: np.ndarray, n: int) -> BoardGrid | None:
    """The grid from the empty board's own squares (its (n-1) x (n-1) inner corners); white's side unknown."""
    gray = _gray(image)
    pts = None
    for view in _views(image):
        ok, pts = cv2.findChessboardCornersSB(view, (n - 1, n - 1), flags=SB_FLAGS)
        if ok:
            break
    else:
        return None
    inner = pts.reshape(n - 1, n - 1, 2).transpose(1, 0, 2).astype(np.float64)  # [i, j]: column i, row j
    a, b = inner[1, 0] - inner[0, 0], inner[0, 1] - inner[0, 0]
    if a[0] * b[1] - a[1] * b[0] > 0:  # a mirror image of the board's frame: swap the axes
        inner = inner.transpose(1, 0, 2)
    g = np.stack(np.meshgrid(np.arange(1, n), np.arange(1, n), indexing="ij"), axis=2).reshape(-1, 2)
    H, _ = cv2.findHomography(g.astype(np.float64), inner.reshape(-1, 2), 0)
    pred = _project(H, n)
    pred[1:n, 1:n] = inner
    return BoardGrid(n, _refine(gray, pred), "squares")


def find_grid(image: np.ndarray, n: int, marker_size: float, marker_offset: float,
              use_markers: bool = True) -> BoardGrid:
    """Markers first, else the squares; :class:`BoardNotFoundError` when neither is seen."""
    grid = grid_from_markers(image, n, marker_size, marker_offset) if use_markers else None
    if grid is None:
        grid = grid_from_squares(image, n)
    if grid is None:
        raise BoardNotFoundError(f"no {n}x{n} board found in the picture: neither the four corner markers "
                                 "(DICT_4X4_50, ids 0-3) nor the board's squares (is the board empty, "
                                 "whole in the picture and in focus?)")
    return grid


def canonical_maps(corners: np.ndarray, px: int, margin: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """cv2.remap tables for the top-down view: ``px`` pixels a square, white at the bottom, built cell by
    cell (bilinear between each square's four measured corners); ``margin`` pixels around the board
    (the outer cells extended), so a piece on an edge square is seen whole."""
    n = corners.shape[0] - 1
    side = n * px + 2 * margin
    u = (np.arange(side) + 0.5 - margin) / px
    x = u[None, :].repeat(side, 0)             # board x of canonical column
    y = n - u[:, None].repeat(side, 1)         # board y of canonical row (top row = black's side)
    i = np.clip(np.floor(x).astype(int), 0, n - 1)
    j = np.clip(np.floor(y).astype(int), 0, n - 1)
    a, b = (x - i)[..., None], (y - j)[..., None]
    p = ((1 - a) * (1 - b) * corners[i, j] + a * (1 - b) * corners[i + 1, j]
         + (1 - a) * b * corners[i, j + 1] + a * b * corners[i + 1, j + 1])
    return p[..., 0].astype(np.float32), p[..., 1].astype(np.float32)
