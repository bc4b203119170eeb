"""``rig calibrate camera``: learn the camera's view of the board from two pictures, the empty board and
the starting position.

1. The board: the four corner markers when they are there, else the empty board's own squares
   (:mod:`vision.grid`); every square corner is measured, so lens distortion is followed.
2. White's side: with markers, marker 0 is white's bottom-left. From the squares alone the grid is known
   up to a quarter turn: the start picture settles it (the pieces fill the rows nearest each player,
   white's are the light ones).
3. The orientation the variant requires (the dark corner square at each player's bottom right for the
   Portuguese game, FPD 000 1.2; bottom left for the Brazilian and international, FMJD 002 2.4): a board
   turned a quarter, or a start position that is not the variant's, is ``wrong-setup`` (FPD 000 7.2,
   CODEX 004 art. 44) and nothing is saved.
4. The appearance of a light square, an empty dark square and each colour's pieces; the light squares'
   colours as the light reference; what tells a king: the camera's pose from the board's homography
   (:mod:`vision.pose`), the pieces' radius and a man's height fitted to the start men (:mod:`vision.kings`),
   and the squares where the view cannot tell a king (a warning).
5. A check: the start picture must read back as the start position, the empty board as empty.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from rig.variants import Variant
from vision.classify import BLACK, DARK, LIGHT, WHITE, Appearance, Classifier, FLOOR, features
from vision.config import CameraConfig
from vision.errors import CameraCalibrationError
from vision.grid import BoardGrid, canonical_maps, find_grid
from vision.kings import HEIGHTS
from vision.kings_calibration import fine_bias, fit_piece, soft_bias, start_bias
from vision.pose import board_homography, pose_from_homography

__all__ = ["calibrate_camera", "CalibrationReport", "ORIENTATION_RULE"]

ORIENTATION_RULE = {"portuguese": ("right", "FPD 000 1.2"), "brazilian": ("left", "FMJD 002 2.4, as the CBD plays it"),
                    "international": ("left", "FMJD 002 2.4")}
CHANGE_SCALE = np.array([0.25, 0.06, 0.06], np.float32)
CHANGED = 3.0
#: board area (in squares) like nothing learned that is a hand (glare and a shadow band stay under it)
OCCLUDED_SQUARES = 0.5
#: light squares' area (squares) whose hue turned towards red that is a hand (vision.occlusion)
SKIN_SQUARES = 0.1
#: band area (squares) changed outside the board that, with a trace of a hand on it, is an arm (vision.occlusion)
BAND_SQUARES = 0.15


@dataclass(frozen=True)
class CalibrationReport:
    config: CameraConfig
    white_side: str              # where white sits in the picture: bottom, left, top, right
    warnings: tuple[str, ...]


def _side_of(corners: np.ndarray) -> str:
    """Where white's side of the board is in the picture (the direction from the centre to the middle of
    white's first rank)."""
    n = corners.shape[0] - 1
    centre = corners[n // 2, n // 2]
    d = corners[n // 2, 0] - centre
    if abs(d[0]) > abs(d[1]):
        return "right" if d[0] > 0 else "left"
    return "bottom" if d[1] > 0 else "top"


def _disc(px: int, radius: float) -> np.ndarray:
    c = (np.arange(px) + 0.5 - px / 2) / px
    return np.hypot(c[:, None], c[None, :]) < radius


def _cell_pixels(img: np.ndarray, n: int, px: int, row: int, col: int, mask: np.ndarray) -> np.ndarray:
    return img[row * px:(row + 1) * px, col * px:(col + 1) * px][mask]


def _change(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, how different two pictures are in brightness and colour (in units of a shadow's change)."""
    d = (features(a) - features(b)) / CHANGE_SCALE
    return np.sqrt((d * d).sum(-1))


def _orient(grid: BoardGrid, empty: np.ndarray, start: np.ndarray, px: int) -> tuple[BoardGrid, np.ndarray]:
    """The rotation of the grid that puts white's pieces at the bottom (markers: as it is)."""
    n = grid.size
    best = None
    disc = _disc(px, 0.3)
    for k in ((0,) if grid.method == "markers" else (0, 1, 2, 3)):
        g = grid.rotated(k)
        maps = canonical_maps(g.corners, px)
        e = cv2.remap(empty, *maps, cv2.INTER_LINEAR)
        s = cv2.remap(start, *maps, cv2.INTER_LINEAR)
        diff = _change(e, s).reshape(n, px, n, px).transpose(0, 2, 1, 3)[:, :, disc].mean(-1)
        bright = s.astype(np.float32).mean(-1).reshape(n, px, n, px).transpose(0, 2, 1, 3)[:, :, disc].mean(-1)
        changed = diff > CHANGED
        rows = np.arange(n)[::-1]  # rank of each canonical row
        home = (rows < n // 2 - 1) | (rows >= n // 2 + 1)
        row_score = changed[home].sum() - 3 * changed[~home].sum()
        low = changed & (rows < n // 2)[:, None]
        high = changed & (rows >= n // 2)[:, None]
        colour = (bright[low].mean() - bright[high].mean()) if low.any() and high.any() else 0.0
        key = (row_score, colour)
        if best is None or key > best[0]:
            best = (key, g, changed)
    return best[1], best[2]


def calibrate_camera(variant: Variant, empty: np.ndarray, start: np.ndarray, *, px: int = 32,
                     marker_size: float = 0.9, marker_offset: float = 0.65, use_markers: bool = True,
                     agree: int = 2, hold: int = 6) -> CalibrationReport:
    """Calibrate from the empty board and the starting position (BGR pictures of the same size)."""
    v = variant
    n = v.size
    if empty.shape != start.shape:
        raise CameraCalibrationError(f"the two pictures differ in size ({empty.shape[1]}x{empty.shape[0]} and "
                                     f"{start.shape[1]}x{start.shape[0]})")
    grid = find_grid(empty, n, marker_size, marker_offset, use_markers)
    grid, changed = _orient(grid, empty, start, px)
    maps = canonical_maps(grid.corners, px)
    e = cv2.remap(empty, *maps, cv2.INTER_LINEAR)
    s = cv2.remap(start, *maps, cv2.INTER_LINEAR)
    gray = e.astype(np.float32).mean(-1).reshape(n, px, n, px).transpose(0, 2, 1, 3)[:, :, _disc(px, 0.3)].mean(-1)
    parity = np.add.outer(np.arange(n)[::-1], np.arange(n)) % 2  # (rank + file) % 2 per [row, col]
    dark_parity = 0 if gray[parity == 0].mean() < gray[parity == 1].mean() else 1
    corner, article = ORIENTATION_RULE[v.name]
    if (dark_parity == 0) != v.is_dark(0, 0):
        raise CameraCalibrationError(
            f"the board is turned a quarter: in {v.name} draughts the dark corner square is at each player's "
            f"bottom {corner} ({article})", "wrong-setup")
    start_squares = set(v.white_start) | set(v.black_start)
    seen = {v.square_at(col, n - 1 - row) for row, col in zip(*np.nonzero(changed))}
    if seen != start_squares:
        missing = sorted(start_squares - seen)
        extra = sorted(str(x) for x in seen - start_squares)
        raise CameraCalibrationError(
            "the start picture is not the starting position"
            + (f": empty {', '.join(map(str, missing))}" if missing else "")
            + (f"; pieces on {', '.join(extra)} (light or off-start squares)" if extra else "")
            + " (FPD 000 7.2, CODEX 004 art. 44)", "wrong-setup")
    # -- appearance
    fe, fs = features(e), features(s)
    centre, piece_disc = _disc(px, 0.35), _disc(px, 0.42)
    samples: dict[int, list[np.ndarray]] = {LIGHT: [], DARK: [], WHITE: [], BLACK: []}
    moved = _change(e, s) > CHANGED
    for row in range(n):
        for col in range(n):
            sq = v.square_at(col, n - 1 - row)
            if sq is None:
                samples[LIGHT].append(_cell_pixels(fe, n, px, row, col, centre))
                continue
            samples[DARK].append(_cell_pixels(fe, n, px, row, col, centre))
            here = _cell_pixels(moved, n, px, row, col, piece_disc)
            pix = _cell_pixels(fs, n, px, row, col, piece_disc)[here]
            samples[WHITE if sq in v.white_start else BLACK].append(pix)
    mean = np.zeros((4, 3), np.float32)
    std = np.zeros((4, 3), np.float32)
    for k, parts in samples.items():
        data = np.concatenate(parts)
        if len(data) < 50:
            what = ('light squares', 'dark squares', 'white pieces', 'black pieces')[k]
            raise CameraCalibrationError(f"too few pixels of {what} to learn from")
        mean[k] = np.median(data, axis=0)
        std[k] = np.maximum(1.4826 * np.median(np.abs(data - mean[k]), axis=0) * 1.5, FLOOR)
    light_ref = np.zeros((n, n, 3), np.float32)
    probe = Classifier(v, px, maps, None)
    cells = probe.cells(e)
    light_ref[~probe.dark] = cells[~probe.dark]
    full = canonical_maps(grid.corners, px, px // 2)  # with a margin: pieces on edge squares seen whole
    appearance = Appearance(mean, std, light_ref, kings=False)
    clf = Classifier(v, px, full, appearance)
    static = clf.label_picture(empty)
    static = (static == WHITE) | (static == BLACK)  # the frame or a marker in a piece's colour
    # the band outside the board as the empty board shows it, at the calibrated light (the arm's cue)
    canon = clf.canonical(empty)
    band, _ = clf.band.colours(canon, clf.gain(clf.inner(canon)))
    appearance = Appearance(mean, std, light_ref, kings=False, static=static, band=band)
    clf = Classifier(v, px, full, appearance)
    # -- what tells a king: the camera's pose, the set's pieces as the start men show them
    warnings: list[str] = []
    h, w = empty.shape[:2]
    pose = pose_from_homography(board_homography(grid.corners), (w, h))
    lab, grey = clf.label_grey(start)
    men = []
    for colour, squares in ((WHITE, v.white_start), (BLACK, v.black_start)):
        for sq in squares:
            f, r = v.coords(sq)
            men.append(((n - 1 - r, f), colour))
    radius, height, noise = fit_piece(pose, n, px, px // 2, lab, grey, men, static, BLACK)
    appearance = Appearance(mean, std, light_ref, kings=True, static=static, pose=pose, piece=(radius, height),
                            king_noise=noise, band=band)
    clf = Classifier(v, px, full, appearance)
    assert clf.stacks is not None
    # the start men's own fit: what this set and view show of a man (vision.kings.start_bias)
    got = clf.read(start)
    at = {sq: rc for rc, sq in clf.square_at.items()}
    fits = {at[s_]: (z, WHITE if s_ in v.white_start else BLACK) for s_, z in got.stack.items()
            if s_ in v.white_start or s_ in v.black_start}
    appearance = replace(appearance, king_bias=start_bias(clf.stacks, fits, BLACK))
    clf = Classifier(v, px, full, appearance)
    black_men = [rc for rc, colour in men if colour == BLACK]  # the same at the finer look's resolution
    appearance = replace(appearance, fine_bias=fine_bias(clf, start, black_men, BLACK),
                         soft_bias=soft_bias(clf, start, black_men, BLACK))  # and smoothed more (vision.soft_look)
    clf = Classifier(v, px, full, appearance)
    blind = sorted(sq for rc, sq in clf.square_at.items() if not clf.stacks.allows(rc))
    if not HEIGHTS.min() < height < HEIGHTS.max():  # no height in reach fits: the view does not show it
        blind = sorted(clf.square_at.values())
    if len(blind) == len(clf.square_at):
        appearance = replace(appearance, kings=False)
        clf = Classifier(v, px, full, appearance)
        warnings.append("the camera looks too steeply down to see a piece's height: kings cannot be told from men "
                        "(the session keeps the kings the rules give); put the stand farther to the side "
                        "(docs/camera.md)")
    elif blind:
        warnings.append(f"a king cannot be told from a man on {len(blind)} of {len(clf.square_at)} squares "
                        f"({', '.join(map(str, blind[:12]))}{' ...' if len(blind) > 12 else ''}): the view shows "
                        "a piece's height too little there (the session keeps the kings the rules give)")
    # the hand thresholds: above what the two hand-free pictures show
    floor = [clf.read(img) for img in (empty, start)]
    occluded_squares = max(OCCLUDED_SQUARES, 0.3 + max(r.unexplained for r in floor))
    hand_squares = max(2, 2 + max(r.foreign for r in floor))
    dark_on_light = max(0.08, 0.06 + max(r.dark_on_light for r in floor))  # squares
    skin_squares = max(SKIN_SQUARES, 0.1 + max(r.skin for r in floor))
    band_squares = max(BAND_SQUARES, 0.1 + max(r.band for r in floor))
    config = CameraConfig(v, px, grid.corners, appearance, grid.method, (w, h), marker_size, marker_offset,
                          agree=agree, hold=hold, occluded_squares=round(occluded_squares, 3),
                          hand_squares=hand_squares, dark_on_light=round(dark_on_light, 3),
                          skin_squares=round(skin_squares, 3), band_squares=round(band_squares, 3),
                          notes=tuple(warnings))
    # -- check: the two pictures read back
    clf = config.classifier()
    got_start, got_empty = clf.read(start), clf.read(empty)
    want = {s_: "w" for s_ in v.white_start} | {s_: "b" for s_ in v.black_start}
    seen = {s_: c.lower() for s_, c in got_start.squares.items()}
    if seen != want or got_empty.squares or got_start.occluded or got_empty.occluded:
        wrong = sorted(set(seen.items()) ^ set(want.items()))
        raise CameraCalibrationError("the calibrated view does not read the pictures back (start: "
                                     f"{len(wrong)} squares differ, {wrong[:4]}; empty: {len(got_empty.squares)} "
                                     f"pieces seen; seen as a hand: start {got_start.occluded}, empty "
                                     f"{got_empty.occluded}); is the light even and nothing in the way?")
    stacked = sorted(s_ for s_, c in got_start.squares.items() if c.isupper() and s_ not in got_start.unknown)
    if stacked:
        warnings.append(f"{len(stacked)} of the start men look like kings ({', '.join(map(str, stacked))}): "
                        "a king is told less surely where the view shows a man's height little")
        config = replace(config, notes=config.notes + (warnings[-1],))
    return CalibrationReport(config, _side_of(grid.corners), tuple(warnings))
