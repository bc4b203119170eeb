"""Hand cues that need more than a pixel's class: skin over the light squares (:class:`SkinCue`), an arm over
the band outside the board (:class:`BandCue`), a warm colour the sensor clipped on a dark square
(:class:`ClippedCue`), a hand reaching in over the board's edge since the last hand-free picture
(:class:`EdgeWatch`).

Skin over the light squares: the cue that sees a hand of the light squares' own brightness.

Nothing stands on a light square, so what a light square may show is known: its calibrated colour, scaled
by the light (a shadow, a drift of the level: the hue stays) and mixed with what a piece beside it shows
in perspective (a white piece adds white, a black one darkens: the hue stays, the colour only fades), or
with glare (white added: the hue stays). Skin turns the hue towards red, even where its brightness is the
square's: pale skin over beige squares turns it ~20 degrees, a few hundredths of chroma, over whole
squares at once. Each pixel of a light square's inside (its edge mixes with the dark square beside it)
measures how far its chroma has turned towards red, across the square's calibrated chroma; what turned
past ``turn`` and forms a blob (a hand is big, JPEG's and noise's specks are not) is counted, in squares.
A pixel with a channel at the sensor's top says nothing: clipping turns a hue.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from vision.colour import CLIPPED, features
from vision.errors import CameraConfigError
from vision.stats import median, median_runs

__all__ = ["SkinCue", "BandCue", "ClippedCue", "EdgeWatch", "EDGE_SQUARES", "piece_reach"]

STEP = 2        # the cue works on a view of half the resolution (px / 2 pixels a square)
INSET = 0.125   # of a square's side, its edge left out (misregistration, blur into the dark square)


def channel_max(image: np.ndarray) -> np.ndarray:
    """Each pixel's greatest channel of a 3-channel uint8 picture (``image.max(-1)``): numpy's reduction over a
    last axis of 3 walks it one pixel at a time (about 2 ms on a 10x10 board's half-resolution view under load),
    OpenCV's per-channel maximum does it in one pass a channel."""
    b, g, r = cv2.split(image)
    return cv2.max(cv2.max(b, g), r)


class SkinCue:
    """Per picture, the area (squares) of light squares whose hue turned towards red by more than ``turn``
    (chroma units, see :func:`vision.colour.features`)."""

    def __init__(self, light_ref: np.ndarray, dark: np.ndarray, px: int, turn: float = 0.03):
        n = dark.shape[0]
        self.n, self.px, self.turn = n, px, turn
        self.q = q = px // STEP
        ref = features(np.clip(light_ref, 0, 255).astype(np.float32))[..., 1:]  # (n, n, 2) chroma
        norm = np.linalg.norm(ref, axis=-1, keepdims=True)
        unit = np.where(norm > 1e-3, ref / np.maximum(norm, 1e-3), 0.0)
        # the direction "towards red, across the square's hue": (rg, yb) turned a quarter clockwise
        across = np.stack([unit[..., 1], -unit[..., 0]], axis=-1)
        self._across = cv2.resize(across.astype(np.float32), (n * q, n * q), interpolation=cv2.INTER_NEAREST)
        inset = np.zeros((q, q), bool)
        k = max(1, int(round(q * INSET)))
        inset[k:q - k, k:q - k] = True
        usable = (~dark) & (norm[..., 0] > 1e-3)
        self._mask = np.kron(usable, np.ones((q, q), bool)) & np.tile(inset, (n, n))
        self._half_across1 = np.ascontiguousarray(self._across[..., 1] / 2)
        self._kernel = np.ones((5, 5), np.uint8)
        self._small = np.ones((3, 3), np.uint8)

    def area(self, inner: np.ndarray, gain: np.ndarray) -> float:
        """Board area (squares) of skin-turned light squares in the top-down view ``inner`` (no margin),
        with the light ``gain`` that brings the light squares back to their calibrated colour."""
        size = (self.n * self.q, self.n * self.q)
        raw = cv2.resize(inner, size, interpolation=cv2.INTER_AREA)
        g = cv2.resize(gain, size, interpolation=cv2.INTER_NEAREST)  # the gain is smooth
        b, gr, r = cv2.split(cv2.multiply(raw, g, dtype=cv2.CV_32F))
        d = (b + gr + r) * np.float32(1 / 3) + np.float32(25.0)
        # the chroma of :func:`vision.colour.features`, (r - g) / d and (r + g - 2 b) / 2 d, across the square's
        towards_red = ((r - gr) * self._across[..., 0] + (r + gr - 2 * b) * self._half_across1) / d
        fair = cv2.erode(channel_max(raw), self._small) < CLIPPED  # as the sensor took it, before the gain
        hit = (self._mask & fair & (towards_red > self.turn)).astype(np.uint8)
        hit = cv2.morphologyEx(hit, cv2.MORPH_OPEN, self._kernel)
        return float(hit.sum()) / (self.q * self.q)


EDGE_PX = 4     # pixels beyond the board's outline where the board may still show (misregistration, blur)
CELLS = 4       # band cells along a square's side (px / 4 pixels a cell)
BAND_LUM = 0.5  # |log brightness| change of a band cell, after the light's gain, that is not the light
BAND_HUE = 0.05  # colour left, over brightness, when the light's scale and glare's white are taken off


TINT_CELLS = 8  # cells of a side, unclipped, that measure its own tint

Side = np.ndarray | slice  # a side's cells: their indices, or one run of them (EdgeWatch keeps each side's together)


def used_cells(side: Side, use: np.ndarray) -> np.ndarray:
    """The indices of ``side``'s cells that ``use`` marks."""
    if isinstance(side, slice):
        return np.flatnonzero(use[side]) + side.start
    return side[use[side]]


def side_tint(obs: np.ndarray, ref: np.ndarray, use: np.ndarray, sides: Sequence[Side]) -> np.ndarray:
    """The reference colours ``ref`` (3, cells) brought to each side's own tint: each channel scaled by the
    median, over the side's cells in ``use``, of the observed ``obs`` over the reference (a hand covers a few
    of a side's cells, never most). The light's gain, measured on the light squares, brings the frame
    outside them to its calibrated tint only while the light squares are fair: when the light rises to the
    sensor's top their brightest channel (red, on beige) clips first, the gain's red comes out too high and
    the frame beside them turns red (its hue by 0.05-0.06, a whole side at once), as a hand turns a few cells."""
    out = ref.copy()
    heres = [used_cells(side, use) for side in sides]
    measured = [i for i, here in enumerate(heres) if len(here) >= TINT_CELLS]
    if not measured:
        return out
    # every cell's ratio at once (the same values as a side's own), every side's medians in one partition
    ratios = median_runs((obs + 24.0) / (ref + 24.0), [heres[i] for i in measured])
    for j, i in enumerate(measured):
        ratio = ratios[:, j]
        out[:, sides[i]] = ref[:, sides[i]] * (ratio / ratio.mean())[:, None]
    return out


def glare_white(obs: np.ndarray, ref: np.ndarray, scale: np.ndarray, hue: float) -> np.ndarray:
    """Cells (``obs``, ``ref``: (3, cells)) whose brightening glare's white explains: what the cell shows over its
    reference at its side's own light (``scale``, per cell: the light along a side scales every cell alike) is
    white, the same in every channel within ``hue`` of the cell's brightness, and positive. Glare adds the same
    few tens of grey levels to every channel whatever the colour beneath: on a dark frame (a brown of 30 grey
    levels) 25 of them nearly double the brightness while the white stays under half of it, so "half the cell's
    brightness is white" does not tell glare there. Skin over the frame is no frame plus white: its red leads by
    a few tens of grey levels (over dark brown: pale skin 0.13 of its brightness, tanned skin 0.30)."""
    d = obs - scale * ref
    w = d.mean(0)
    off = np.sqrt(((d - w) ** 2).sum(0)) / (obs.mean(0) + 25.0)
    return (w > 0) & (off <= hue)


class BandCue:
    """The band just outside the board (the frame, in the top-down view's margin): an arm reaching in over
    the board's edge crosses it. Its cells are compared with the empty board's (``ref``, learned at
    calibration), each brought to the calibrated light by the gain of the board's edge beside it. Light
    scales a colour and glare adds white: each cell is fitted as its reference scaled plus white, and it
    changed where the colour left over passes ``BAND_HUE`` or its brightness, against the rest of its
    side's (the band's own light), moved past ``BAND_LUM`` (brighter only when no glare's white explains
    it). Cells a piece on an edge square may show in (``reach``, the view with its margin), cells the
    board's outline blurs into and clipped cells say nothing."""

    def __init__(self, n: int, px: int, margin: int, reach: np.ndarray | None = None,
                 ref: np.ndarray | None = None):
        self.c = c = max(2, px // CELLS)
        self.k = k = (n * px + 2 * margin) // c
        self.px = px
        i = np.arange(k)
        # keep the cells outside the board, clear of the outline's few pixels (misregistration, blur)
        outside = ~((i * c < margin + n * px + EDGE_PX) & ((i + 1) * c > margin - EDGE_PX))
        ring = outside[:, None] | outside[None, :]
        self.rows, self.cols = np.nonzero(ring)
        # each cell's side of the board (the outline it is farthest beyond): the light along a side drifts as one
        lo, hi = margin, margin + n * px
        centre_r, centre_c = self.rows * c + c / 2, self.cols * c + c / 2
        away = np.stack([lo - centre_r, centre_r - hi, lo - centre_c, centre_c - hi])
        self._side = away.argmax(0)
        self._sides = [np.flatnonzero(self._side == s) for s in range(4)]
        self._open = np.ones(len(self.rows), bool)  # no piece on the board may show in the cell
        if reach is not None:
            cover = cv2.resize(reach[:k * c, :k * c].astype(np.float32), (k, k), interpolation=cv2.INTER_AREA)
            self._open = cover[self.rows, self.cols] < 0.02
        # the gain of the board's edge pixel nearest each cell (the light's gain is measured on the board)
        mid = lambda a: np.clip(a * c + c // 2 - margin, 0, n * px - 1)  # noqa: E731
        self._gy, self._gx = mid(self.rows), mid(self.cols)
        self.ref = None if ref is None else np.asarray(ref, np.float32)
        if self.ref is not None and self.ref.shape != (len(self.rows), 3):
            raise CameraConfigError(f"appearance: band must be {len(self.rows)} cells of 3 colours for this board "
                                    f"and px, not {self.ref.shape} (calibrate the camera again)")
        self._ref_fair = None if ref is None else self.ref.max(-1) < CLIPPED

    def colours(self, full: np.ndarray, gain: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each band cell's mean colour brought to the calibrated light, and whether the sensor clipped none
        of it (its raw mean under the top), for the top-down view ``full`` (margin) and the board's ``gain``."""
        k, c = self.k, self.c
        cells = cv2.resize(full[:k * c, :k * c], (k, k), interpolation=cv2.INTER_AREA)[self.rows, self.cols]
        raw = cells.astype(np.float32)
        return raw * gain[self._gy, self._gx], raw.max(-1) < CLIPPED - 8

    def area(self, full: np.ndarray, gain: np.ndarray) -> float:
        """Band area (squares) whose colour changed from the empty board's."""
        if self.ref is None or not len(self.rows):
            return 0.0
        obs, fair = self.colours(full, gain)
        use = fair & self._ref_fair & self._open
        ref = side_tint(obs.T, self.ref.T, use, self._sides).T
        # light scales a colour and glare adds white: fit obs = a ref + w (white) per cell; what is left is no light
        sr, s1 = ref.sum(-1), np.float32(3)
        srr, sro, so = (ref * ref).sum(-1), (ref * obs).sum(-1), obs.sum(-1)
        det = np.maximum(srr * s1 - sr * sr, 1e-3)
        a = (sro * s1 - sr * so) / det
        w = (srr * so - sr * sro) / det
        rest = np.linalg.norm(obs - a[:, None] * ref - w[:, None], axis=-1) / (so / 3 + 25.0)
        lum = np.log((so + 24.0) / (sr + 24.0))
        light = np.zeros_like(lum)  # the band's own light along each side (the board's gain is measured inside it)
        for side in range(4):
            here = use & (self._side == side)
            if here.sum() >= 4:
                light[self._side == side] = median(lum[here])
        lum -= light
        white = (w >= 0.5 * so / 3) | glare_white(obs.T, ref.T, np.exp(light), BAND_HUE)
        moved = (rest > BAND_HUE) | (lum < -BAND_LUM) | ((lum > BAND_LUM) & ~white)
        return float((moved & use).sum()) * (self.c * self.c) / (self.px * self.px)


WARM = 0.8  # a clipped pixel's least channel over its greatest (as taken) under which it is not a white piece


class ClippedCue:
    """A colour brighter than the sensor takes on a dark square's inside, and warm: a pale hand (or a beige
    sleeve) over an overexposed board. Of what may stand on a dark square only a white piece clips at an
    ordinary light, and a white piece is neutral; glare (white added) clips a light-brown square's red at the
    sensor's top too, and leaves it near neutral there (its green and blue lifted by the same white). Skin keeps
    its blue well under its red even with the red at the sensor's top. Every other cue is blind there: a
    clipped pixel is no evidence of a class, a light or a hue. The pixels whose least channel, as the sensor
    took it, is under ``WARM`` of their greatest, in blobs (a 3x3 opening: JPEG's colour bleeds at a white
    piece's rim), counted in squares.

    As the sensor took it, not after the light's gain: a lamp's tint leaves a neutral colour within about 12 %
    (the test set's lamps: red 0.95-1.05, blue 0.93-1.05 of green: a white piece's least channel at least 0.88
    of its greatest), while the gain's tint is wrong exactly where this cue looks. It is measured on the light
    squares, and where the light brings them to the sensor's top their brightest channel clips first and reads
    too low: on a beige board the gain's red comes out 30 % high (its blue 0.77 of its red) and turns a clipped
    white piece's rim (as taken, least channel 0.87-0.98 of the greatest) warm, 0.67-0.76; on a cream board it
    turns the other way and hides a pale hand (as taken 0.67-0.73, after the gain 0.73-0.79). A pixel clipped in
    every channel is white to the sensor: never warm."""

    def __init__(self, dark: np.ndarray, px: int):
        n = dark.shape[0]
        inside = np.zeros((px, px), bool)
        k = max(1, int(round(px * INSET)))
        inside[k:px - k, k:px - k] = True
        self.px = px
        self._inside = np.kron(dark, np.ones((px, px), bool)) & np.tile(inside, (n, n))
        self._kernel = np.ones((3, 3), np.uint8)

    def area(self, inner: np.ndarray, gain: np.ndarray, clipped: np.ndarray) -> float:
        """Dark squares' area (squares) of warm clipped pixels in the top-down view ``inner`` (no margin) and
        the pixels ``clipped``, as the sensor took them (the light's ``gain`` is not used: see the class)."""
        sel = self._inside & clipped
        if not sel.any():
            return 0.0
        colour = inner[sel].astype(np.float32)
        hit = np.zeros(sel.shape, np.uint8)
        hit[sel] = colour.min(-1) < WARM * colour.max(-1)
        return float(cv2.morphologyEx(hit, cv2.MORPH_OPEN, self._kernel).sum()) / (self.px * self.px)


EDGE_CELL = 2       # pixels a side of the edge watch's cells (a fingertip is 4-8 pixels wide in the top-down view)
EDGE_LUM = 0.25     # |log brightness| change of a cell, against the reference picture, past the noise and the drift
EDGE_HUE = 0.05     # colour left over (over brightness) when the light's scale and glare's white are taken off
EDGE_NEAR = 4       # cells from the board's outline a changed blob must reach (a hand reaching in: 8 pixels)
EDGE_SQUARES = 0.1  # area (squares) of one changed blob reaching the outline that is a hand
EDGE_AGREE = 0.05   # the largest changed blob (squares) two pictures in a row may show and still agree
EDGE_MOVE = 4       # squares whose occupancy may differ from the reference picture's (a move and its captures)
EDGE_LIGHT = 0.3    # share of light squares whose light may differ by a factor e^0.1 from the reference's
EDGE_HOLD = 3       # pictures a still change, flagged by this cue alone, stands before it is taken as the scene
EDGE_NOISE = 2.0    # times a side's median colour left over (its noise) a cell's must pass to count


def piece_reach(squares: dict[tuple[int, int], int], n: int, px: int, margin: int, pose=None,
                radius: float = 0.0, height: float = 0.0, grow: float = 9.5) -> dict[int, np.ndarray]:
    """Where a piece on each dark square (``squares``: (row, col) of the top-down view -> square number) may show
    in the top-down view with its ``margin``: a king's silhouette a third taller than two men (the hull of its
    base and its top disc as the camera ``pose`` sees them, :class:`vision.pose.CameraPose`), grown by ``grow``
    pixels (5 placed off-centre, 3 its contact shadow, 1.5 blur); without a pose, the square grown by half a square."""
    size = n * px + 2 * margin
    out = {}
    a = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    for (row, col), sq in squares.items():
        mask = np.zeros((size, size), np.uint8)
        x, y = col + 0.5, n - row - 0.5
        if pose is not None and height > 0:
            r, h = radius + grow / px, 2.67 * height
            tx, ty = pose.seen_at(x, y, h)
            rt = r * pose.scale(h)
            pts = np.vstack([np.column_stack([x + r * np.cos(a), y + r * np.sin(a)]),
                             np.column_stack([tx + rt * np.cos(a), ty + rt * np.sin(a)])])
        else:
            d = 1.0
            pts = np.array([[x - d, y - d], [x + d, y - d], [x + d, y + d], [x - d, y + d]])
        pix = np.column_stack([margin + pts[:, 0] * px, margin + (n - pts[:, 1]) * px])
        cv2.fillConvexPoly(mask, cv2.convexHull(np.round(pix).astype(np.int32)), 1)
        out[sq] = mask.astype(bool)
    return out


class EdgeWatch:
    """The frame just outside the board's outline, in 2x2-pixel cells, against the last hand-free picture of the
    same scene: a hand reaching in over the board's edge from a player's side changes it, even where it hides
    only a fingertip's sliver of an edge piece and looks like the frame's own colour scaled (dark skin over a
    dark frame, a sleeve the frame's colour) or like glare (pale skin over a brown frame), which the empty
    board's band (:class:`BandCue`) cannot tell from the light. Between two pictures of one scene the light only
    drifts: each side's brightness is taken against its own median, a cell changed where its brightness moved
    past ``EDGE_LUM`` (brighter too where the reference plus white explains it: glare stands still) or its colour
    turned past ``EDGE_HUE``
    (fitted as the reference scaled plus white; what every cell of its side shows, the picture's noise, taken
    off: ``EDGE_NOISE`` times the side's median). A changed blob that reaches within ``EDGE_NEAR`` cells of the
    outline and covers ``EDGE_SQUARES`` is a hand.

    The reference is a picture no cue flagged that agrees with the one before it (no changed blob past
    ``EDGE_AGREE``, glare's white and cells clipped anew counted as changes there, the same occupancy): a hand
    moves between pictures, so one never becomes the reference;
    a change that stands still for ``EDGE_HOLD`` pictures flagged by this cue alone is taken as the scene (a
    shadow moved). The reference says nothing of a picture whose occupancy differs on more than
    ``EDGE_MOVE`` squares (another position: pictures out of a game's order) or whose light pattern differs
    (more than ``EDGE_LIGHT`` of the light squares' gains moved by a factor e^0.1 against the rest: a new shadow
    band, another lamp). Where a square's occupancy changed, the cells its piece may reach (``reach``, per
    square, in the view with its margin) say nothing; a cell clipped since the reference says it by its channels
    left under the sensor's top."""

    def __init__(self, n: int, px: int, margin: int, reach: dict[int, np.ndarray]):
        c = EDGE_CELL
        self.px, self.size = px, (n * px + 2 * margin) // c
        h, k = self.size, margin // c
        yy, xx = np.mgrid[0:h, 0:h]
        away = np.stack([k - yy, yy - (h - k - 1), k - xx, xx - (h - k - 1)])
        depth = away.max(0)  # cells beyond the outline (Chebyshev), 1 = the cell beside it
        ring = depth >= 1
        idx = np.flatnonzero(ring)  # the cells watched, as flat indices of the cell grid
        self._near = ((depth <= EDGE_NEAR) & ring).ravel()
        side = away.argmax(0).ravel()[idx]
        # the cells side by side, each side's one run: a side's cells are then a view, not a gather (which cell
        # comes first within a side changes nothing: medians, and each cell's own arithmetic)
        order = np.argsort(side, kind="stable")
        self._idx = idx[order]
        ends = np.concatenate([[0], np.cumsum(np.bincount(side, minlength=4))])
        self._sides: list[Side] = [slice(int(ends[s]), int(ends[s + 1])) for s in range(4)]
        self._reach = {}
        for sq, m in reach.items():
            cover = (cv2.resize(m.astype(np.uint8), (h, h), interpolation=cv2.INTER_AREA) > 0).ravel()[self._idx]
            if cover.any():
                self._reach[sq] = cover
        self._open = np.ones((3, 3), np.uint8)
        self._grid = np.zeros(h * h, np.uint8)
        # (cells, occupancy, the light squares' log gains, cells not clipped, cells far from clipping) of the
        # reference and of the last picture
        self._ref: tuple | None = None
        self._prev: tuple | None = None
        self._held = 0

    def forget(self) -> None:
        """No reference: the next pictures are of another scene."""
        self._ref = self._prev = None
        self._held = 0

    def watch(self, corrected: np.ndarray, raw: np.ndarray, occupied: frozenset, light: np.ndarray,
              flagged: bool) -> float:
        """The area (squares) of the largest changed blob reaching the board's outline against the reference, for
        the light-corrected top-down view ``corrected`` (margin included) and the same view as the sensor took it
        (``raw``: its clipped pixels say nothing), the pieces ``occupied`` and the light squares' log gains
        ``light``; then the memory is brought up to date, ``flagged`` telling whether another cue saw a hand.
        ``occupied`` holds (square, colour) pairs: a piece of the other colour on a square is a change of it."""
        h = self.size
        small = cv2.blur(cv2.resize(corrected, (h, h), interpolation=cv2.INTER_AREA).astype(np.float32), (3, 3))
        # (3, cells): b, g, r, each channel's cells in one run (numpy walks a channel's row, not strided pixels)
        cells = np.ascontiguousarray(small.reshape(-1, 3)[self._idx].T)
        taken = np.ascontiguousarray(cv2.resize(raw, (h, h), interpolation=cv2.INTER_AREA).reshape(-1, 3)[self._idx].T)
        top = taken.max(0)
        fair = top < CLIPPED - 8  # no pixel of the cell near the sensor's top (a mean under it by a margin)
        dim = top < CLIPPED - 40  # far under it: a cell that clips in the next picture changed
        channels = taken < CLIPPED - 8  # (3, cells): each channel's own (a clipped one is a bound: at least this)
        area = 0.0
        ref, prev = self._ref, self._prev
        changed = None  # the cells changed against the reference
        if ref is not None and len(occupied ^ ref[1]) <= EDGE_MOVE and self._same_light(light, ref[2]):
            changed = self._changed(cells, channels, occupied, ref)
            area = self._blob(changed, near=True)
        alone = not flagged and area > EDGE_SQUARES
        self._held = 0 if flagged else self._held
        if prev is not None and not flagged and occupied == prev[1]:  # (another cue's hand is never the reference)
            # the last picture is most often the reference itself (every agreeing hand-free picture becomes it):
            # the cells changed against it are those just found
            if prev is not ref or changed is None:
                changed = self._changed(cells, channels, occupied, prev)
            moved = changed | (prev[4] & ~fair)  # clipped anew
            agree = self._blob(moved, near=False) < EDGE_AGREE
            self._held = self._held + 1 if agree and alone else 0
            if agree and (not alone or self._held >= EDGE_HOLD):
                self._ref = (cells, occupied, light, fair, dim)
        now = (cells, occupied, light, fair, dim)
        self._prev = self._ref if self._ref is not None and self._ref[0] is cells else now
        return area

    @staticmethod
    def _same_light(light: np.ndarray, ref: np.ndarray) -> bool:
        if light.shape != ref.shape or not len(light):
            return False
        d = light - ref
        return float((np.abs(d - median(d)) > 0.1).mean()) <= EDGE_LIGHT

    def _changed(self, cells: np.ndarray, channels: np.ndarray, occupied: frozenset, ref) -> np.ndarray:
        """Cells changed against ``ref`` (cells, occupancy, light, cells not clipped): brightness past the side's own
        drift, or hue. Brighter is a change even where the colour is the reference's plus white: glare's white does
        not appear between two pictures of one scene (the lamp and the camera stand still; the white it adds drifts
        only with the light's level, inside the side's own light), and pale skin over a light-brown frame is that
        frame plus white. ``channels`` (3, cells): each channel under the sensor's top; a cell clipped since the
        reference (:meth:`_clipped_anew`) is judged on its channels one by one."""
        fair: np.ndarray = channels.all(0)
        a = side_tint(cells, ref[0], fair, self._sides)
        so, sr = cells[0] + cells[1] + cells[2], a[0] + a[1] + a[2]
        lum = np.log((so + 24.0) / (sr + 24.0))
        light = np.zeros_like(lum)  # each side's own light
        heres = [used_cells(side, fair) for side in self._sides]
        seen = [i for i, here in enumerate(heres) if len(here)]
        if seen:
            for i, med in zip(seen, median_runs(lum[None], [heres[i] for i in seen])[0]):
                light[self._sides[i]] = med
        lum -= light
        # light scales a colour and glare adds white: fit cells = k ref + w; what is left is no light
        srr = a[0] * a[0] + a[1] * a[1] + a[2] * a[2]
        sro = a[0] * cells[0] + a[1] * cells[1] + a[2] * cells[2]
        det = np.maximum(srr * 3 - sr * sr, 1e-3)
        k = (sro * 3 - sr * so) / det
        w = (srr * so - sr * sro) / det
        left = np.sqrt(sum((cells[i] - k * a[i] - w) ** 2 for i in range(3)))
        # the side's own noise: the sensor's and JPEG's colour errors are grey levels whatever the brightness, on
        # every cell of a side at once (a dark frame: 2-5 levels, 0.05-0.08 of its cells' brightness); a cell
        # changed by what it shows beyond ``EDGE_NOISE`` times its side's median
        floor = np.zeros_like(left)
        if seen:
            for i, med in zip(seen, median_runs(left[None], [heres[i] for i in seen])[0]):
                floor[self._sides[i]] = EDGE_NOISE * med
        rest = np.maximum(left - floor, 0.0) / (so / 3 + 25.0)
        moved = fair & ((np.abs(lum) > EDGE_LUM) | (rest > EDGE_HUE))
        moved |= self._clipped_anew(cells, a, channels, ref[3], light)
        for sq, _ in occupied ^ ref[1]:  # a piece put down, taken off or of the other colour: its cells say nothing
            if sq in self._reach:
                moved &= ~self._reach[sq]
        return moved

    @staticmethod
    def _clipped_anew(cells: np.ndarray, ref: np.ndarray, channels: np.ndarray, ref_fair: np.ndarray,
                      light: np.ndarray) -> np.ndarray:
        """Cells the sensor clips now and did not in the reference (``ref_fair``) that changed: light scales every
        channel of a cell alike, so each channel still under the sensor's top moved as the side's own ``light``
        (log) moved, within ``EDGE_LUM``, and a clipped channel (its value a lower bound: the sensor took at least
        that) brightened no more than that. A pale hand over a light-brown frame at a light of 1.1-1.2 clips its
        red where the frame's red stood at 200: its blue doubles, which no drift of the light does; a frame that
        the light brings up to the sensor's top rises by the side's light in every channel it has left."""
        anew = ref_fair & ~channels.all(0)
        if not anew.any():
            return anew
        d = np.log((cells[:, anew] + 8.0) / (ref[:, anew] + 8.0)) - light[anew]
        kept = channels[:, anew]
        out = np.zeros_like(anew)
        out[anew] = (kept & (np.abs(d) > EDGE_LUM)).any(0) | (~kept & (d > EDGE_LUM)).any(0)
        return out

    def _blob(self, moved: np.ndarray, near: bool) -> float:
        """Area (squares) of the largest blob of ``moved`` (a 3x3 opening: noise's specks), reaching within
        ``EDGE_NEAR`` cells of the outline when ``near``."""
        if not moved.any():
            return 0.0
        grid = self._grid.copy()
        grid[self._idx] = moved
        m = cv2.morphologyEx(grid.reshape(self.size, self.size), cv2.MORPH_OPEN, self._open)
        if not m.any():
            return 0.0
        count, labels, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
        if near:
            hit = np.unique(labels.ravel()[self._near & (m.ravel() > 0)])
            hit = hit[hit > 0]
        else:
            hit = np.arange(1, count)
        if not len(hit):
            return 0.0
        return float(stats[hit, cv2.CC_STAT_AREA].max()) * (EDGE_CELL * EDGE_CELL) / (self.px * self.px)
