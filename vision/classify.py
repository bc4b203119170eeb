"""Per-frame recognition: every playable square empty / w / W / b / B with a confidence, and whether a hand
hides the board.

The picture is turned into the canonical top-down view (white at the bottom, ``px`` pixels a square).
Light is measured where nothing may stand, the light squares: each one's brightness against the
calibration gives a local gain (a shadow band, a lamp's gradient, the day drifting), the median of their
colour ratios a global tint. Each corrected pixel is then the nearest of four learned appearances (light
square, empty dark square, white piece, black piece) in a brightness-tolerant colour space
(log brightness; chroma over brightness), or *unexplained* when it is like none of them: a hand or an
arm. A square's colour is the vote of the pixels at its centre; a king is two stacked men, taller: the
piece's silhouette is fitted with a man's and a king's as the camera's pose predicts them on that square
(:mod:`vision.kings`), and where the view cannot tell them apart the square's reading says so (``unknown``):
the stability layer then takes the stack from the rules (docs/camera.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import cv2
import numpy as np

from rig.variants import Variant
from vision.colour import BLACK, CLASSES, CLIPPED, DARK, LIGHT, UNEXPLAINED, WHITE, AddedWhite, features
from vision.fine_look import FineLook
from vision.frame_look import FrameLook
from vision.glare_look import GlareField
from vision.kings import StackReader
from vision.near_black_look import NearBlackLook
from vision.near_look import NearLook
from vision.occlusion import EDGE_SQUARES, BandCue, ClippedCue, EdgeWatch, SkinCue, piece_reach
from vision.picture_stacks import read_stacks
from vision.pose import CameraPose
from vision.shading import FineLight
from vision.soft_look import SoftLook
from vision import stats

__all__ = ["Reading", "Appearance", "Classifier", "features", "CLASSES", "LIGHT", "DARK", "WHITE", "BLACK",
           "UNEXPLAINED"]

LIGHT_CHANGE = 1.1  # |log gain| (or 4 x |log tint| of a channel) past which the board is not just lit otherwise
UNEXPLAINED_D2 = 18.0  # squared normalised distance beyond which a pixel is like no class
RIM = 3  # pixels around a piece's colour whose unexplained colour is the blur of its edge, not a hand
GLARE_STEPS = (25.0, 50.0, 75.0)  # white added by glare that a pixel may carry
GLARE_SEEN = 20.0  # white added to a light square (grey levels, as taken) past which it is glare, not noise
EDGE = 4  # pixels along the board's outline where the frame's colour may show (misregistration, blur, JPEG)
HUE_SQUARES = 3  # unclipped light squares needed to measure the light's tint (else no hue cue is read)
BAND_EVIDENCE = 0.01  # board area (squares) unexplained that, with the band outside it changed, means a hand
DARK_INSIDE = 0.05  # a dark square's colour inside light squares (squares) that is a hand (hand-free: up to 0.012)
WARM_SQUARES = 0.15  # dark squares' area of warm clipped colour (vision.occlusion.ClippedCue) that is a hand
FLOOR = np.array([0.18, 0.035, 0.035], np.float32)  # least spread of each feature (noise, JPEG, shadows)


@dataclass(frozen=True)
class Appearance:
    """What the calibration learned: each class's feature mean and spread, the light squares' reference
    colour, the frame's pixels of a piece's colour, and what tells a king: the camera's pose (from the
    board's homography, :mod:`vision.pose`), the set's piece radius and a man's height, and the noise of the
    man-or-king fit on the start men."""

    mean: np.ndarray          # (4, 3)
    std: np.ndarray           # (4, 3)
    light_ref: np.ndarray     # (n, n, 3) reference colour of each light square (0 on dark squares)
    kings: bool = True        # False: the view cannot tell a king from a man on any square (too steep)
    static: np.ndarray | None = None  # canonical pixels of a piece's colour on the empty board (frame, markers)
    pose: CameraPose | None = None    # the camera over the board (squares, white's frame)
    piece: tuple[float, float] = (0.0, 0.0)  # a man's radius and height, squares
    king_noise: float = 0.0   # spread of the man-or-king fit gap on the start men (score units)
    band: np.ndarray | None = None  # (k, 3) the empty board's band cells outside it (vision.occlusion.BandCue)
    king_bias: tuple[float, float] = (0.0, 0.0)  # the start men's man-or-king fit off a man's usual, white and black
    fine_bias: float = 0.0    # the black start men's fit off a man's usual at the finer look's resolution
    soft_bias: float = 0.0    # the same, the finer window smoothed more (vision.soft_look)


@dataclass
class Reading:
    """One frame as the camera read it."""

    squares: dict[int, str]
    confidence: dict[int, float]
    occluded: bool
    unexplained: float = 0.0         # area of the board like nothing learned, in squares
    foreign: int = 0                 # light squares of a hue they never have (skin)
    dark_on_light: float = 0.0       # a dark square's colour on light squares, in squares
    skin: float = 0.0                # light squares' area whose hue turned towards red (vision.occlusion), squares
    band: float = 0.0                # band outside the board changed from the empty board's (vision.occlusion), squares
    warm: float = 0.0                # warm clipped colour on dark squares (vision.occlusion.ClippedCue), squares
    edge: float = 0.0                # frame at the board's edge changed since the last hand-free picture (EdgeWatch)
    ms: float = 0.0
    t: float = 0.0
    stack: dict[int, float] = field(default_factory=dict)  # occupied squares: fit, -1 a man .. +1 a king
    unknown: frozenset[int] = frozenset()  # occupied squares whose stack the view cannot tell ("king unknown")

    @property
    def occupied(self) -> frozenset[int]:
        return frozenset(self.squares)

    def to_json(self) -> dict:
        return {"squares": {str(k): v for k, v in sorted(self.squares.items())}, "occluded": self.occluded,
                "ms": round(self.ms, 3),
                "confidence": {str(k): round(v, 3) for k, v in sorted(self.confidence.items())},
                "king_unknown": sorted(self.unknown)}


class Classifier:
    """Reads frames with a calibrated view (``maps`` from :func:`vision.grid.canonical_maps`)."""

    def __init__(self, variant: Variant, px: int, maps: tuple[np.ndarray, np.ndarray], appearance: Appearance | None,
                 *, occluded_squares: float = 0.5, hue_deg: float = 22.0, hue_shift: float = 0.07,
                 hand_squares: int = 2, dark_on_light: float = 0.2, skin_squares: float = 0.25,
                 band_squares: float = 0.0):
        self.variant = v = variant
        self.n, self.px = v.size, px
        self.maps = maps
        self.margin = (maps[0].shape[0] - self.n * px) // 2
        self.appearance = appearance
        self.occluded_squares = occluded_squares
        self._lut: np.ndarray | None = None
        self._hue_known = True  # the last picture's light tint was measured (see _gain)
        self._clipped_cells = np.zeros((self.n, self.n), bool)  # the last picture's clipped light squares
        self._no_glare = np.zeros((self.n, self.n), np.float32)
        self._glare = self._no_glare  # the last picture's white added by glare on each square (see _gain)
        n = self.n
        self.dark = np.array([[v.is_dark(f, n - 1 - row) for f in range(n)] for row in range(n)])  # [row, col]
        self.square_at = {(n - 1 - r, f): v.square_at(f, r) for f in range(n) for r in range(n) if v.is_dark(f, r)}
        c = (np.arange(px) + 0.5 - px / 2) / px
        rr = np.hypot(c[:, None], c[None, :])
        self.centre = rr < 0.3
        inside = np.zeros((px, px), np.uint8)
        inside[EDGE:px - EDGE, EDGE:px - EDGE] = 1
        light = np.kron((~self.dark).astype(np.uint8), np.ones((px, px), np.uint8))
        self._light_inside = light * np.tile(inside, (n, n))  # light squares' inside, EDGE pixels of each side left out
        self.block = slice(px // 4, px - px // 4)
        # a dark square's light gain: the mean of its light neighbours' (every orthogonal neighbour is light)
        cross = np.zeros((n + 2, n + 2), np.float32)
        cross[1:-1, 1:-1] = 1
        self._cross_count = (cross[:-2, 1:-1] + cross[2:, 1:-1] + cross[1:-1, :-2] + cross[1:-1, 2:])
        self.hue_deg, self.hue_shift, self.hand_squares = hue_deg, hue_shift, hand_squares
        self.dark_on_light = dark_on_light
        self.skin_squares = skin_squares
        self.band_squares = band_squares  # 0: the band cue is off
        self.stacks: StackReader | None = None
        self.fine_look: FineLook | None = None
        self.near_look: NearLook | None = None
        self.frame_look: FrameLook | None = None
        self.soft_look: SoftLook | None = None
        self.near_black_look: NearBlackLook | None = None
        self._unreachable: np.ndarray | None = None
        self._static_padded: np.ndarray | None = None
        if appearance is not None and appearance.pose is not None and appearance.piece[1] > 0:
            self.stacks = StackReader(appearance.pose, n, px, self.margin, list(self.square_at),
                                      appearance.piece[0], appearance.piece[1], appearance.king_noise,
                                      appearance.king_bias)
            if appearance.static is not None and appearance.static.shape == maps[0].shape:
                self._static_padded = self.stacks.padded(appearance.static.astype(np.uint8), 0).astype(bool)
            # the stack's last look at a doubtful black piece, at twice the resolution (vision.fine_look)
            self.fine_look = FineLook(maps, self.stacks, self._static_padded, appearance.fine_bias)
            self.near_look = NearLook(self.stacks)  # a doubtful white piece on the rows nearest the camera
            self.frame_look = FrameLook(self.stacks, self._static_padded)  # a king's top over the frame
            self.soft_look = SoftLook(self.fine_look, appearance.soft_bias)  # a dim black piece, smoothed more
            self.near_black_look = NearBlackLook(self.soft_look)  # a black piece on the nearest rows, smoothed more
            # light squares' pixels that no piece on the board can cover, seen from this camera; not the board's
            # outer edge (the frame's colour there after a pixel of misregistration, blur, JPEG)
            self._unreachable = np.kron(~self.dark, np.ones((px, px), bool)) & ~self.stacks.reach()
            e = EDGE
            self._unreachable[:e], self._unreachable[-e:], self._unreachable[:, :e], self._unreachable[:, -e:] = (
                False, False, False, False)
        self.band: BandCue | None = None
        self.edge: EdgeWatch | None = None
        self._light_log = np.zeros(0, np.float32)  # the last picture's light squares' log gains (see _gain)
        if appearance is not None:
            st = self.stacks
            self.edge = EdgeWatch(n, px, self.margin, piece_reach(
                {rc: sq for rc, sq in self.square_at.items()}, n, px, self.margin,
                *((st.pose, st.radius, st.height) if st is not None else ())))
            self.band = BandCue(n, px, self.margin, None if self.stacks is None else self.stacks.reach(margin=True),
                                appearance.band)
            self._skin = SkinCue(appearance.light_ref, self.dark, px)
            self._warm = ClippedCue(self.dark, px)
            self._fine = FineLight(appearance.light_ref, self.dark, px, self.margin)  # the stack's second look
            self._glare_field = GlareField(n, px, self.margin)  # glare's white, off before the second look
            self._added_white = AddedWhite(appearance.light_ref.astype(np.float32) + 1.0)  # as _gain's obs
            ref = features(np.clip(appearance.light_ref[~self.dark], 0, 255)[None].astype(np.float32))[0]
            self._ref_clipped = appearance.light_ref[~self.dark].max(-1) > 250
            self._ref_chroma = np.column_stack([ref, np.arctan2(ref[:, 2], ref[:, 1]), np.hypot(ref[:, 1], ref[:, 2])])

    # -- steps ------------------------------------------------------------------------------

    def canonical(self, image: np.ndarray) -> np.ndarray:
        """The top-down view with its margin (``px // 2`` pixels around the board)."""
        return cv2.remap(image, self.maps[0], self.maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def inner(self, full: np.ndarray) -> np.ndarray:
        m = self.margin
        return full[m:m + self.n * self.px, m:m + self.n * self.px]

    def label_picture(self, image: np.ndarray) -> np.ndarray:
        """The class of every pixel of a picture's top-down view, margin included."""
        return self.label_grey(image)[0]

    def label_grey(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The class and the corrected brightness (uint8) of every pixel of a picture's top-down view, margin
        included."""
        canon = self.canonical(image)
        gain = self._gain(self.inner(canon))[0]
        m = self.margin
        corrected = cv2.multiply(canon, cv2.copyMakeBorder(gain, m, m, m, m, cv2.BORDER_REPLICATE), dtype=cv2.CV_8U)
        return self._classes(corrected), cv2.cvtColor(corrected, cv2.COLOR_BGR2GRAY)

    def cells(self, canon: np.ndarray, mean: bool = False, where: np.ndarray | None = None):
        """(n, n, 3) median colour of each square's central block (and, with ``mean``, its mean colour); with
        ``where`` (n, n) only those squares', the others 0. The median is the two middle values of the
        block averaged, as ``np.median`` gives it (the block partitioned round them, not sorted). The chosen blocks
        are gathered once, a channel's pixels in one run (the mean of uint8 values in float32 is exact: the same in
        any order)."""
        n, px = self.n, self.px
        at = np.ones((n, n), bool) if where is None else where
        rows, cols = np.nonzero(at)
        view = canon.reshape(n, px, n, px, 3)[:, self.block, :, self.block].transpose(0, 2, 4, 1, 3)
        chosen = np.ascontiguousarray(view[rows, cols]).reshape(len(rows), 3, -1)  # (k, 3, pixels)
        k = chosen.shape[-1]
        lo, hi = (k - 1) // 2, k // 2
        ranked = np.partition(chosen, (lo, hi) if hi > lo else lo, axis=-1)
        median = np.zeros((n, n, 3))
        median[at] = (ranked[..., lo].astype(np.float64) + ranked[..., hi]) / 2
        if not mean:
            return median
        means = np.zeros((n, n, 3), np.float32)
        means[at] = chosen.mean(axis=-1, dtype=np.float32)
        return median, means

    def gain(self, canon: np.ndarray) -> np.ndarray:
        """Per-pixel colour gain that brings the light squares back to their calibrated colour."""
        return self._gain(canon)[0]

    def _gain(self, canon: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(per-pixel gain, each light square's corrected colour (n, n, 3))."""
        ap = self.appearance
        n, px = self.n, self.px
        obs, means = self.cells(canon, mean=True, where=~self.dark)  # only the light squares' are read below
        obs = obs.astype(np.float32) + 1.0
        light = ~self.dark
        ref = ap.light_ref.astype(np.float32) + 1.0
        lum = np.where(light, ref.sum(2) / obs.sum(2), 0.0)
        self._light_log = np.log(lum[light]).astype(np.float32)  # the light's pattern (vision.occlusion.EdgeWatch)
        # a clipped channel (a square brighter than the sensor takes) says nothing of the tint or the level
        fair = light & (obs.max(-1) < CLIPPED)
        self._clipped_cells = light & ~fair  # as the sensor took them (the gain may bring them back below)
        # the tint from the squares the sensor did not clip, however few (a clipped channel reads too low:
        # its gain comes out too high and turns every square's hue); none: the hue cannot be measured
        self._hue_known = bool(fair.sum() >= HUE_SQUARES)
        tinted = fair if self._hue_known else light
        if fair.sum() < max(3, light.sum() // 4):
            fair = light
        glob = float(stats.median(lum[fair]))
        self._glare = self._glare_cells(obs, ref, self._clipped_cells ^ light, glob)
        lum = np.where(light, np.clip(lum, glob * 0.45, glob * 2.2), 0.0)
        tint = stats.median_rows(((ref / obs)[tinted] / lum[tinted][:, None]).T)
        self._light_change = float(max(abs(np.log(glob)), np.abs(np.log(tint / tint.mean())).max() * 4))
        padded = np.pad(np.where(light, lum, 0.0), 1)
        around = padded[:-2, 1:-1] + padded[2:, 1:-1] + padded[1:-1, :-2] + padded[1:-1, 2:]
        lum = np.where(light, lum, around / self._cross_count)
        g = cv2.resize(lum.astype(np.float32), (n * px, n * px), interpolation=cv2.INTER_LINEAR)
        return cv2.merge([g * np.float32(t) for t in tint]), (means + 1.0) * tint  # hue needs no brightness

    def _glare_cells(self, obs: np.ndarray, ref: np.ndarray, fair: np.ndarray, glob: float) -> np.ndarray:
        """White added by glare on each square (n, n), grey levels as taken: on a light square, its colour fitted
        as a factor of its reference plus white (:class:`vision.colour.AddedWhite`; a clipped square says
        nothing); on a dark square, the mean of its light neighbours'. Under ``GLARE_SEEN``: 0 (noise); so is a
        square no brighter than the board's light (``glob``, the median gain) makes it by half that white (the
        edge of a shadow band mixes two levels into a colour the fit reads as white added)."""
        white = self._added_white(obs)
        brighter = obs.mean(-1) - ref.mean(-1) / glob
        seen = fair & (white > GLARE_SEEN) & (brighter > white / 2)
        if not seen.any():
            return self._no_glare
        p = np.pad(np.where(seen, white, 0.0), 1)
        around = (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]) / self._cross_count
        return np.where(self.dark, around, p[1:-1, 1:-1]).astype(np.float32)

    def foreign(self, light_cells: np.ndarray) -> int:
        """How many light squares show a hue they never have (skin): nothing stands on a light square, and
        neither shadow, light drift nor glare turns its hue (they scale or add white)."""
        light = ~self.dark
        cells = light_cells[light]
        obs = features(np.clip(cells, 0, 255)[None])[0]
        ref = self._ref_chroma
        # a clipped channel turns the hue: no evidence, in the picture as taken or in the calibration's
        clipped = (cells.max(-1) > 250) | self._ref_clipped | self._clipped_cells[light]
        sat = np.hypot(obs[:, 1], obs[:, 2])
        turn = np.degrees(np.abs(np.angle(np.exp(1j * (np.arctan2(obs[:, 2], obs[:, 1]) - ref[:, 3])))))
        shift = 2 * ref[:, 4] * np.sin(np.radians(turn) / 2)  # chroma moved, at the square's own saturation
        return int(((sat > 0.5 * ref[:, 4]) & (turn > self.hue_deg) & (shift > self.hue_shift)
                    & ~clipped).sum())

    @property
    def lut(self) -> np.ndarray:
        """Class of every colour (64 levels a channel, BGR), computed once: a frame is then one look-up."""
        if self._lut is None:
            ap = self.appearance
            q = (np.arange(64) * 4 + 2).astype(np.uint8)
            b, g, r = np.meshgrid(q, q, q, indexing="ij")
            colours = np.stack([b, g, r], axis=-1).reshape(-1, 1, 3).astype(np.float32)
            f = features(colours)[:, 0]
            d = (((f[:, None, :] - ap.mean) / ap.std) ** 2).sum(-1)
            lut = d.argmin(-1).astype(np.uint8)
            lost = d.min(-1) > UNEXPLAINED_D2
            for glare in GLARE_STEPS:  # glare adds white: a colour like none may be one under glare
                f = features(np.clip(colours[lost] - glare, 0, 255))[:, 0]
                dg = (((f[:, None, :] - ap.mean) / ap.std) ** 2).sum(-1)
                found = dg.min(-1) <= UNEXPLAINED_D2
                idx = np.nonzero(lost)[0][found]
                lut[idx] = dg[found].argmin(-1)
                lost[idx] = False
            lut[lost] = UNEXPLAINED
            self._lut = lut
        return self._lut

    def labels(self, canon: np.ndarray, gain: np.ndarray | None = None) -> np.ndarray:
        """Class index of every pixel of the canonical view (UNEXPLAINED = like none)."""
        return self._classes(cv2.multiply(canon, self.gain(canon) if gain is None else gain, dtype=cv2.CV_8U))

    def classes(self, img: np.ndarray) -> np.ndarray:
        """Class index of every pixel of a light-corrected view (BGR uint8; see :meth:`_classes`)."""
        return self._classes(img)

    def _classes(self, img: np.ndarray) -> np.ndarray:
        """Class index of every pixel of a light-corrected view: the colour's 18-bit code (6 bits a channel, BGR)
        built in place in one int32 array, then one look-up."""
        q = img >> 2
        code = q[..., 0].astype(np.int32)
        code <<= 6
        code |= q[..., 1]
        code <<= 6
        code |= q[..., 2]
        return self.lut.take(code)

    # -- the whole frame --------------------------------------------------------------------

    def read(self, image: np.ndarray, t: float = 0.0) -> Reading:
        _ = self.lut  # built once, before the first picture is timed
        start = time.perf_counter()
        n, px = self.n, self.px
        full = self.canonical(image)
        gain, light_cells = self._gain(self.inner(full))
        m = self.margin
        gain_full = cv2.copyMakeBorder(gain, m, m, m, m, cv2.BORDER_REPLICATE)
        corrected = cv2.multiply(full, gain_full, dtype=cv2.CV_8U)
        lab_full = self._classes(corrected)
        lab = self.inner(lab_full)
        # a hue turned is a hand's only where the light's tint is known (a board clipped all over: no hue cue)
        hands = self.foreign(light_cells) if self._hue_known else 0
        skin = self._skin.area(self.inner(full), gain) if self._hue_known else 0.0
        band = self.band.area(full, gain)
        # a piece's blurred rim mixes its colour with the square's into one like neither: not a hand
        rim = cv2.dilate(((lab == WHITE) | (lab == BLACK)).astype(np.uint8), np.ones((RIM, RIM), np.uint8))
        # a pixel with a channel at the sensor's top is no evidence either (glare on an overexposed board)
        inner = self.inner(full)
        fair = cv2.inRange(inner, (0, 0, 0), (CLIPPED - 1,) * 3) > 0  # every channel below CLIPPED
        warm = self._warm.area(inner, gain, ~fair)  # a pale hand over an overexposed board
        unexplained = cv2.morphologyEx((lab == UNEXPLAINED).astype(np.uint8) & (1 - rim) & fair, cv2.MORPH_OPEN,
                                       np.ones((3, 3), np.uint8))
        cells = lab.reshape(n, px, n, px).transpose(0, 2, 1, 3)[:, :, self.centre]  # (n, n, k)
        # a dark square's colour where only a light square can be: a hand (a shadow keeps a light square light);
        # so is a piece's colour on a light square where no piece on the board reaches (a sleeve, a carried piece)
        # (in blobs: the noise of a dim light square scatters single pixels of the dark squares' colour). Only where
        # the sensor clipped nothing: a dark colour never reaches its top, and a light square at the top read after
        # a gain whose tint its clipped channels made wrong (every light square clipped) turns brown
        dark = cv2.morphologyEx((lab == DARK).astype(np.uint8) & fair, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        # over a light square's whole inside, its edge left out (misregistration, blur): a dark hand at the board's
        # edge covers the light squares' sides, not their centres
        dark_inside = float(cv2.countNonZero(dark & self._light_inside)) / (px * px)
        dark_on_light = dark_inside
        if self._unreachable is not None:
            # (a light square clipped white by the sensor looks like a white piece: no evidence)
            stray = (((lab == BLACK) | ((lab == WHITE) & fair)) & self._unreachable).astype(np.uint8)
            dark_on_light += float(cv2.morphologyEx(stray, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)).sum()) / (px * px)
        area = float(unexplained.sum()) / (px * px) + dark_on_light
        # the whole board a colour no light explains (a sleeve before the lens): the light cannot be trusted
        covered = self._light_change > LIGHT_CHANGE
        # an arm over the band outside the board, with a trace of something unexplained on it: a hand at the edge
        arm = self.band_squares > 0 and band > self.band_squares and area > BAND_EVIDENCE
        occluded = (area > self.occluded_squares or dark_on_light > self.dark_on_light or dark_inside > DARK_INSIDE
                    or hands >= self.hand_squares or skin > self.skin_squares or covered or arm or warm > WARM_SQUARES)
        votes = np.stack([(cells == k).sum(-1) for k in (DARK, WHITE, BLACK)], axis=-1)
        counts = votes.tolist()  # Python ints: the squares' loops below index no numpy scalar
        # the frame at the board's edge against the last hand-free picture: a hand reaching in (its pixels before
        # the glare's white is taken off pieces below)
        edge = 0.0
        if self.edge is not None:
            occupied = frozenset((sq, counts[row][col][1] >= counts[row][col][2])  # (square, white)
                                 for (row, col), sq in self.square_at.items()
                                 if counts[row][col][0] < counts[row][col][1] + counts[row][col][2])
            edge = self.edge.watch(corrected, full, occupied, self._light_log, occluded)
            occluded = occluded or edge > EDGE_SQUARES
        squares: dict[int, str] = {}
        confidence: dict[int, float] = {}
        pieces: list[tuple[tuple[int, int], int]] = []
        for (row, col), sq in self.square_at.items():
            d, w, b = counts[row][col]
            total = max(1, d + w + b)
            if d >= w + b:
                confidence[sq] = d / total
                continue
            if w >= b and self._glare[row, col] > 0:  # a black piece under glare: a grey too bright (glare only
                w, b = self._deglare(lab_full, corrected, gain_full, row, col)  # brightens: a black read stays)
            colour = WHITE if w >= b else BLACK
            pieces.append(((row, col), colour))
            squares[sq] = "w" if colour == WHITE else "b"
            confidence[sq] = max(w, b) / total
        # a picture with a hand over the board never becomes a position (vision.stability): its stacks are not read
        stack, unknown = ({}, frozenset(squares)) if occluded else self._stacks(lab_full, corrected, pieces, squares,
                                                                                       gain_full, image)
        return Reading(squares, confidence, occluded, unexplained=area, foreign=hands, dark_on_light=dark_on_light,
                       skin=skin, band=band, warm=warm, edge=edge, ms=(time.perf_counter() - start) * 1000, t=t,
                       stack=stack, unknown=unknown)

    def _deglare(self, lab_full: np.ndarray, corrected: np.ndarray, gain_full: np.ndarray, row: int, col: int
                 ) -> tuple[int, int]:
        """A piece's pixels judged again with the glare's white (``_glare``, scaled by the light's gain) taken
        off, at square (row, col)'s centre: a pixel of a piece's colour keeps a piece's colour, the nearer one
        without glare. Where the square's colour turns, the pixels of a window of two squares round it are
        changed in place (its stack is read from them); elsewhere nothing is. Returns the (white, black) votes."""
        px, m = self.px, self.margin
        y, x = m + row * px, m + col * px
        labels = self._judged(lab_full, corrected, gain_full, (slice(y, y + px), slice(x, x + px)), row, col)[0]
        w, b = (int((labels[self.centre] == k).sum()) for k in (WHITE, BLACK))
        if w < b:  # the colour turned
            y0, x0 = max(0, y - px // 2), max(0, x - px // 2)
            win = (slice(y0, y + px + px // 2), slice(x0, x + px + px // 2))
            labels, plain = self._judged(lab_full, corrected, gain_full, win, row, col)
            piece = labels != lab_full[win]
            lab_full[win][piece] = labels[piece]
            corrected[win][piece] = plain[piece]
        return w, b

    def _judged(self, lab_full: np.ndarray, corrected: np.ndarray, gain_full: np.ndarray, win, row: int, col: int
                ) -> tuple[np.ndarray, np.ndarray]:
        """(labels, pixels) of window ``win`` with square (row, col)'s glare taken off its pixels of a piece's
        colour (the others keep their label)."""
        plain = cv2.subtract(corrected[win], cv2.convertScaleAbs(gain_full[win], alpha=float(self._glare[row, col])))
        old = lab_full[win]
        new = self._classes(plain)
        keep = ((old != WHITE) & (old != BLACK)) | ((new != WHITE) & (new != BLACK))
        return np.where(keep, old, new), plain

    def _stacks(self, lab_full: np.ndarray, corrected: np.ndarray, pieces, squares: dict[int, str],
                gain_full: np.ndarray, image: np.ndarray) -> tuple[dict[int, float], frozenset]:
        """Man or king on every occupied square (``squares`` upper-cased where the fit says a king), and the
        squares whose stack the view cannot tell (every one when the calibration found no square that can):
        their code is the colour's man, ``unknown`` says it is not known (:func:`vision.picture_stacks.read_stacks`)."""
        if self.stacks is None or not self.appearance.kings or not pieces:
            return {}, frozenset(squares)
        stack: dict[int, float] = {}
        unknown = set()
        for rc, (z, known, king) in read_stacks(self, lab_full, corrected, pieces, gain_full, image).items():
            sq = self.square_at[rc]
            stack[sq] = z
            if not known:
                unknown.add(sq)
            elif king:
                squares[sq] = squares[sq].upper()
        return stack, frozenset(unknown)
