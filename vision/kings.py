"""A man or a king: two models of the piece's silhouette fitted to the picture, square by square.

A king is two stacked men (FPD 000 art. 3.1 d, FMJD 002 art. 3.5: the crowned man carries a second piece).
Seen from the camera (:mod:`vision.pose`), a piece of radius ``r`` and height ``h`` standing on board point
``p`` covers, on the top-down view, the convex hull of its base disc (radius ``r`` at ``p``) and its top disc
(radius ``r Z / (Z - h)``, displaced by the parallax ``(p - C) h / (Z - h)`` away from the point below the
camera): the side band between them is what a king shows more of. For every dark square both silhouettes
(height ``h`` and ``2 h``) are drawn once as templates (+1 piece, -1 no piece); each frame the pixels of the
piece's colour are correlated with both, each template free to slide a few pixels (a piece placed
off-centre), through the DFT, and the better fit says man or king. A second channel
says where the piece's top is: its top is lit from above and brighter than its side wall (a king's wall is
twice as tall, its top twice as far from the base), so the piece's own brightness, scaled between its
darker and brighter pixels, is correlated with +1 on each model's top disc and -1 on its wall, at the same
shift as the silhouette (both channels as one complex window, one transform a piece:
:meth:`StackReader._best`). Each colour's fits are taken off by the bias its start men showed at calibration
(:func:`vision.kings_calibration.start_bias`), and judged against a band that follows the square's parallax
(:func:`band`). A piece whose fit says neither is looked at again (:meth:`StackReader.read`: :mod:`vision.shading`,
:mod:`vision.glare_look`, and for a black piece :mod:`vision.fine_look`, at twice the resolution by a reader of its
own: ``fine``).

Where the two silhouettes differ by less than the noise the calibration measured (a camera nearly straight
above the square), the square *does not allow* a king to be told; a frame whose fit falls between the two
models does not either. The reading then carries the colour with ``king unknown``, and the stability layer
takes the stack from the rules (:mod:`vision.stability`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import cv2
import numpy as np

from vision.pose import CameraPose

__all__ = ["StackReader", "StackModel", "Look", "band", "SEARCH", "HEIGHTS"]

SEARCH = 5          # pixels a piece may stand off its square's centre, each way (placed off-centre)
PAD = 3             # pixels of "no piece here" around the larger silhouette
RIM = 1.5           # pixels each side of a silhouette's edge that count for neither model
ERODED = 1.0        # pixels a piece's labelled edge lies inside its true one in a frame (blur, JPEG, light)
# a fit (-1 a man, +1 a king as the models predict) says a man below the band and a king above it; within it
# "king unknown". The models' ideal gaps do not quite follow a frame (blur, the neighbours left out): the middle
# between men and kings moves with the king's extra parallax (``StackModel.shift``, pixels), and a black piece's
# top is only a little brighter than its wall. Band (centre at a shift of 6 pixels, its slope a pixel, its
# bounds, half-width) for a white and a black piece, set on the still positions of seeds 11-13 (12,899 pieces)
# and checked on the bench's seeds 1-5 (docs/camera.md)
BAND = ((0.25, -0.09, (-1.0, 1.0), 0.15), (-0.46, -0.13, (-0.45, 0.0), 0.3))
#: weight of the top-against-wall channel beside the silhouette's, for a white and a black piece
TOP_WEIGHT = (0.5, 1.5)
#: the piece's brightness is scaled between these percentiles of its own pixels (wall, top): a black piece's
#: top carries a brighter groove ring, so its top is taken lower
TOP_PERCENTILES = ((10.0, 90.0), (5.0, 50.0))
TOP_CONTRAST = 4.0  # grey levels: the least half-contrast a piece's brightness is scaled by (a flat piece: noise)
MIN_SEPARATION = 1.0  # the two models' ideal score gap, in units of the noise the calibration measured
MIN_SHIFT = 1.0     # pixels: below this extra parallax of the king's top the view cannot tell a king
#: a start man's usual fit off the band's middle, white and black (the median of the 24 boards of seeds 11-12,
#: even light); a board's start men's median off it is the set's and the view's own bias (a black top a little
#: darker, squares near the pieces' colour), taken off every fit of that colour, up to BIAS_MAX
MAN_FIT = (-0.85, -0.62)
BIAS_MAX = 0.5
#: the better model must score this share of what it scores on its own silhouette, a white and a black piece (a
#: black piece's brightness channel is noisier: its top is only a little brighter than its wall)
MIN_QUALITY = (0.85, 0.78)
RADII = np.arange(0.30, 0.465, 0.02)   # piece radius tried at calibration, squares
HEIGHTS = np.arange(0.06, 0.405, 0.02)  # a man's height tried at calibration, squares


@dataclass(frozen=True)
class Look:
    """A closer look at the doubtful pieces (:meth:`StackReader.read`): ``see`` given their squares returns the
    padded labelled view and brightness taken more closely there; ``where``, when given, says on which squares
    this look sees anything the ones before did not (the others are not fitted again)."""

    see: Callable[[list], tuple[np.ndarray, np.ndarray]]
    where: Callable[[tuple[int, int]], bool] | None = None
    #: gives the reader that fits and judges what this look sees (its own resolution, band and bias; its view
    #: carries no frame pixels to leave out), asked only when a piece is doubtful; None: the reader given the look
    reader: "Callable[[], StackReader] | None" = None
    #: whether the side a piece leaned to is the one this look's reader fits on the first view, against this look's
    #: own band's middle (a look that corrects what the first fit or the first band got wrong on its squares:
    #: :mod:`vision.frame_look`, :mod:`vision.near_look`), not the first fit's against the first band's
    own_lean: bool = False
    #: whether every fit of the piece so far (the first and each earlier look's, each against its own band's middle)
    #: must have leaned to the side this look settles, not the first alone (:mod:`vision.soft_look`)
    unanimous: bool = False
    #: whether this look settles on its own fit alone, whatever side the earlier fits leaned to (a reader that claims
    #: only kings, and only far clear of its band: :mod:`vision.near_black_look`)
    alone: bool = False


def band(shift: float, black: bool, bands=BAND) -> tuple[float, float]:
    """The fits (on the man -1 .. king +1 scale) up to which a piece is a man and from which it is a king, on a
    square where a king's top is displaced ``shift`` pixels beyond a man's (see ``BAND``; ``bands`` another
    reader's, in its own pixels)."""
    centre, slope, (low, high), half = bands[int(black)]
    c = min(high, max(low, centre + slope * (shift - 6.0)))
    return c - half, c + half


@dataclass(frozen=True)
class StackModel:
    """What the view shows of a piece on one dark square: the observation window (top-left corner in the
    padded view), the ideal score gaps (king fit minus man fit for a perfect man, a perfect king), how far
    the king's top is displaced beyond a man's (pixels), and the viewing angle (degrees from vertical)."""

    window: tuple[int, int]
    d_man: float
    d_king: float
    shift: float
    tilt: float

    @property
    def separation(self) -> float:
        return self.d_king - self.d_man

    def z(self, d: float) -> float:
        """A measured score gap on the man (-1) .. king (+1) scale."""
        return (2 * d - (self.d_king + self.d_man)) / self.separation


def silhouette(pose: CameraPose, x: float, y: float, r: float, h: float) -> np.ndarray:
    """Outline points (board squares) of a piece of radius ``r`` and height ``h`` standing on (x, y)."""
    a = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    tx, ty = pose.seen_at(x, y, h)
    rt = r * pose.scale(h)
    return np.vstack([np.column_stack([x + r * np.cos(a), y + r * np.sin(a)]),
                      np.column_stack([tx + rt * np.cos(a), ty + rt * np.sin(a)])])


def draw_mask(size: int, pts: np.ndarray, origin: tuple[float, float]) -> np.ndarray:
    """A soft (anti-aliased) mask, 0..1, of the convex hull of ``pts`` (pixels) in a box at ``origin``."""
    img = np.zeros((size, size), np.uint8)
    p = np.round((pts - np.array(origin)) * 16).astype(np.int32)
    cv2.fillConvexPoly(img, cv2.convexHull(p), 255, cv2.LINE_AA, shift=4)
    return img.astype(np.float32) / 255.0


_SIGN = np.array([-1.0, 1.0], np.float32)  # a window's silhouette: -1 where the piece's colour is not, +1 where it is


def _disc(pose: CameraPose, x: float, y: float, r: float, h: float) -> np.ndarray:
    """Outline points (board squares) of the top disc of a piece of radius ``r`` and height ``h`` on (x, y)."""
    a = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    tx, ty = pose.seen_at(x, y, h)
    rt = r * pose.scale(h)
    return np.column_stack([tx + rt * np.cos(a), ty + rt * np.sin(a)])


def model_templates(*pairs: tuple[np.ndarray, np.ndarray], pad: int = PAD) -> list[np.ndarray]:
    """Each silhouette, given as (inner, outer) masks (its radius less and more the ``RIM``), as a template:
    +1 inside, 0 on the rim (blur and light move a piece's labelled edge by a pixel or two), -1 on the rest
    of the silhouettes' union grown by ``pad`` pixels (where the other model, or no piece, is), 0 beyond
    (a neighbour there changes no fit)."""
    union = np.maximum.reduce([o for _, o in pairs])
    ring = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * pad + 1, 2 * pad + 1))
    near = cv2.dilate((union > 0.5).astype(np.uint8), ring).astype(np.float32)
    return [i - np.maximum(near - o, 0) for i, o in pairs]


def _pair(reader: "StackReader", x: float, y: float, r: float, h: float, origin, size: int | None = None):
    """(inner, outer) masks of a piece's silhouette at ``origin`` (pixels), its radius less and more ``RIM``."""
    a = reader.rim / reader.px
    return tuple(draw_mask(size or reader.box, reader.to_px(silhouette(reader.pose, x, y, rr, h)), tuple(origin))
                 for rr in (r - a, r + a))


def _top_template(reader: "StackReader", x: float, y: float, r: float, h: float, origin) -> np.ndarray:
    """The top-against-wall template of a piece: +1 on its top disc, -1 on its side wall, each ``RIM`` pixels
    clear of the edges between them (blur), 0 elsewhere."""
    a = reader.rim / reader.px
    inner = draw_mask(reader.box, reader.to_px(silhouette(reader.pose, x, y, r - a, h)), tuple(origin))
    top_in, top_out = (draw_mask(reader.box, reader.to_px(_disc(reader.pose, x, y, rr, h)), tuple(origin))
                       for rr in (r - a, r + a))
    return (top_in > 0.5).astype(np.float32) - np.clip(inner - top_out, 0, 1)


class StackReader:
    """Man or king on the dark squares ``squares`` ((row, col) of the top-down view), from the labelled view
    (:class:`vision.classify.Classifier` labels, margin included): ``px`` pixels a square, ``margin`` around
    the board, ``n`` squares a side; ``radius`` and ``height`` of a man in squares; ``noise`` of the score
    gap the calibration measured on the start men. A fit is judged against the two models' ideal gaps: each
    silhouette as a frame shows it, its labelled edge ``ERODED`` pixels inside the true one. ``fine`` times the
    top view's resolution (``px`` already multiplied), the pixel constants scaled with it; ``bands`` and
    ``floor`` its band (``BAND``) and quality floor (``MIN_QUALITY``)."""

    def __init__(self, pose: CameraPose, n: int, px: int, margin: int, squares, radius: float, height: float,
                 noise: float = 0.0, bias: tuple[float, float] = (0.0, 0.0), fine: int = 1, bands=BAND,
                 floor: tuple[float, float] = MIN_QUALITY):
        self.pose, self.n, self.px, self.margin = pose, n, px, margin
        self.radius, self.height, self.noise = radius, height, noise
        self.bias = np.array(bias, np.float64)
        self.search, self.pad, self.rim, self.eroded = SEARCH * fine, PAD * fine, RIM * fine, ERODED * fine
        self.fine, self.bands, self.floor = fine, bands, floor
        #: whether the frame pixels given as ``static`` say nothing (0) rather than "no piece" (-1) in a window
        self.frame_unseen = False
        self.men = True  #: whether a fit of this reader may settle a man (False: kings only, vision.near_black_look)
        self.squares = list(squares)
        self.index = {rc: i for i, rc in enumerate(self.squares)}
        far = max(np.hypot(*(np.array(pose.seen_at(x, y, 2 * height)) - (x, y))) for x in (0, n) for y in (0, n))
        self.box = int(np.ceil((2 * radius * pose.scale(2 * height) + far) * px)) + 2 * self.pad
        self.size = self.box + 2 * self.search                   # observation window, pixels a side
        self.fft = int(2 ** np.ceil(np.log2(self.size)))     # no wrap-around for shifts 0 .. 2 SEARCH
        self.border = self.size
        k = len(self.squares)
        t = np.zeros((k, 2, self.fft, self.fft), np.float32)
        tops = np.zeros((k, 2, self.fft, self.fft), np.float32)
        models = []
        for i, rc in enumerate(self.squares):
            t[i, :, :self.box, :self.box], tops[i, :, :self.box, :self.box], model = self._templates(rc, radius, height)
            models.append(model)
        self.spectra = self._spectra(t, tops)
        self.ideal = np.zeros((k, 2, 2))  # ideal gaps [square, white 0 / black 1, a man 0 / a king 1]
        self.own = np.ones((k, 2, 2))     # each model's fit to its own ideal silhouette, same axes
        if self.squares:
            idx = np.arange(k)
            for m, hh in enumerate((height, 2 * height)):
                win = self._perfect(radius - self.eroded / px, hh)
                for b in range(len(TOP_WEIGHT)):
                    best = self._best(win, idx, np.full(k, b))
                    self.ideal[:, b, m] = best[:, 1] - best[:, 0]
                    self.own[:, b, m] = np.maximum(best[:, m], 1.0)
        gap = self.ideal[:, :, 1] - self.ideal[:, :, 0]
        worst = gap.argmin(1)  # a square's model: the colour whose models lie closer
        self.models = {rc: StackModel(m.window, float(self.ideal[i, worst[i], 0]), float(self.ideal[i, worst[i], 1]),
                                      m.shift, m.tilt) for i, (rc, m) in enumerate(zip(self.squares, models))}
        self.neighbours = {rc: self._neighbours(rc) for rc in self.squares}
        # the neighbours' reach, as flat indices into an observation window (fft pixels a row)
        self._cover = {rc: [(other, (np.nonzero(c)[0] * self.fft + np.nonzero(c)[1]).astype(np.intp))
                            for other, c in nb] for rc, nb in self.neighbours.items()}

    # -- geometry ---------------------------------------------------------------------------

    def to_px(self, pts: np.ndarray) -> np.ndarray:
        """Board points (squares, white's frame) -> padded view pixels."""
        off = self.margin + self.border
        return np.column_stack([off + pts[:, 0] * self.px, off + (self.n - pts[:, 1]) * self.px])

    def _origin(self, rc: tuple[int, int], h: float) -> tuple[np.ndarray, float, float]:
        """(template box top-left (x, y), board x, board y) of a square: the box centred between the base and
        the king's top."""
        x, y = rc[1] + 0.5, self.n - rc[0] - 0.5
        mid = self.to_px(np.array([[x, y], self.pose.seen_at(x, y, 2 * h)])).mean(0)
        return np.floor(mid - self.box / 2), x, y

    def _templates(self, rc, r: float, h: float) -> tuple[np.ndarray, np.ndarray, StackModel]:
        """(man, king) silhouette templates of a square, (man, king) top-against-wall templates, and its model
        (ideal gaps not yet known)."""
        o, x, y = self._origin(rc, self.height)
        man, king = model_templates(_pair(self, x, y, r, h, o), _pair(self, x, y, r, 2 * h, o), pad=self.pad)
        tops = np.stack([_top_template(self, x, y, r, hh, o) for hh in (h, 2 * h)])
        tm = np.array(self.pose.seen_at(x, y, h)) - (x, y)
        tk = np.array(self.pose.seen_at(x, y, 2 * h)) - (x, y)
        window = (int(o[1]) - self.search, int(o[0]) - self.search)
        return (np.stack([man, king]), tops,
                StackModel(window, 0.0, 0.0, float(np.hypot(*(tk - tm))) * self.px, self.pose.tilt(x, y)))

    def _neighbours(self, rc: tuple[int, int]) -> list[tuple[tuple[int, int], np.ndarray]]:
        """The squares near ``rc`` whose piece may reach into its window, each with the part of the window
        it may cover (a king's silhouette grown by how far off-centre a piece may stand), less the core of
        ``rc``'s own man: pixels of a neighbour of the same colour are no evidence either way."""
        out = []
        o, x, y = self._origin(rc, self.height)
        origin = tuple(o - self.search)
        own = draw_mask(self.size, self.to_px(silhouette(self.pose, x, y, self.radius - self.rim / self.px,
                                                         self.height)), origin) > 0.5
        grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * self.search + 1, 2 * self.search + 1))
        for other in self.squares:
            if other == rc or max(abs(other[0] - rc[0]), abs(other[1] - rc[1])) > 2:
                continue
            ox, oy = other[1] + 0.5, self.n - other[0] - 0.5
            cover = draw_mask(self.size, self.to_px(silhouette(self.pose, ox, oy, self.radius, 2 * self.height)),
                          origin) > 0.5
            cover = cv2.dilate(cover.astype(np.uint8), grow).astype(bool) & ~own
            if cover.any():
                out.append((other, cover))
        return out

    def _perfect(self, r: float, h: float) -> np.ndarray:
        """Every square's piece of radius ``r`` and height ``h`` as a perfect frame shows it, as windows (see
        :meth:`windows`): the silhouette (+1 / -1) and its brightness (+1 its top, -1 its wall, 0 off the
        piece)."""
        win = np.zeros((len(self.squares), self.fft, self.fft, 2), np.float32)
        out, top = win[..., 0], win[..., 1]
        for i, rc in enumerate(self.squares):
            o, x, y = self._origin(rc, self.height)
            sil = draw_mask(self.size, self.to_px(silhouette(self.pose, x, y, r, h)), tuple(o - self.search)) > 0.5
            disc = draw_mask(self.size, self.to_px(_disc(self.pose, x, y, r, h)), tuple(o - self.search)) > 0.5
            out[i, :self.size, :self.size] = np.where(sil, 1, -1)
            top[i, :self.size, :self.size] = np.where(disc, 1, np.where(sil, -1, 0))
        return win

    @staticmethod
    def _spectra(t: np.ndarray, tops: np.ndarray) -> np.ndarray:
        """Each square's (man, king) templates as one complex template a colour, transformed once: the silhouette
        ``t`` real and the top-against-wall ``tops`` imaginary, weighted by the colour's ``TOP_WEIGHT``, the
        spectrum conjugated (see :meth:`_best`): (square, colour, model, fft, fft, re/im) float32."""
        k, _, size, _ = t.shape
        out = np.zeros((k, len(TOP_WEIGHT), 2, size, size, 2), np.float32)
        g = np.empty((size, size, 2), np.float32)
        for i in range(k):
            for b, weight in enumerate(TOP_WEIGHT):
                for m in range(2):
                    g[..., 0] = t[i, m]
                    np.multiply(tops[i, m], np.float32(weight), out=g[..., 1])
                    out[i, b, m] = cv2.dft(g)
        out[..., 1] *= -1
        return out

    def _best(self, win: np.ndarray, idx: np.ndarray, colour: np.ndarray) -> np.ndarray:
        """(man fit, king fit), each at its best shift, of the windows ``win`` (k, fft, fft, 2: the silhouette,
        the brightness; see :meth:`windows`) of squares ``idx``, the brightness weighted by the ``TOP_WEIGHT``
        of ``colour`` (k,) (0 white, 1 black).

        Both channels in one complex correlation: with ``o + i p`` the window (silhouette ``o``, brightness
        ``p``) and ``t - i w u`` a model's template (silhouette ``t``, top-against-wall ``u``, weight ``w``),
        the real part of their (unconjugated) correlation is ``o * t + w p * u``, the fit; so one complex
        transform a window, and one product and one inverse transform a model (OpenCV's DFT, the templates'
        spectra kept from the calibration, ``_spectra``); only the 2 ``SEARCH`` + 1 shifts a side are read."""
        k, v = len(idx), 2 * self.search + 1
        spec, prod, c = (np.empty((self.fft, self.fft, 2), np.float32) for _ in range(3))
        out = np.empty((k, 2))
        for i in range(k):
            cv2.dft(win[i], spec)
            h = self.spectra[idx[i], colour[i]]
            for m in range(2):
                cv2.mulSpectrums(spec, h[m], 0, prod)
                cv2.dft(prod, c, cv2.DFT_INVERSE | cv2.DFT_SCALE)
                out[i, m] = c[:v, :v, 0].max()
        return out

    # -- frames -----------------------------------------------------------------------------

    def padded(self, lab: np.ndarray, value: int = 255) -> np.ndarray:
        b = self.border
        return cv2.copyMakeBorder(lab, b, b, b, b, cv2.BORDER_CONSTANT, value=value)

    def windows(self, padded: np.ndarray, pieces, static: np.ndarray | None = None, grey: np.ndarray | None = None,
                black: int | None = None) -> np.ndarray:
        """Observation windows (k, fft, fft, 2), the two channels of a complex window (see :meth:`_best`): the
        silhouette, +1 where the piece's colour shows, -1 elsewhere, 0 padding and where a neighbour of the same
        colour may reach; ``pieces`` ((row, col), colour class) pairs; ``static`` the padded frame pixels of a
        piece's colour, counted as no piece (-1; 0 with ``frame_unseen``); and, with ``grey`` (the padded view's
        brightness, uint8), the brightness: each piece's own pixels' brightness scaled to -1 (its wall) .. +1 (its
        top) by the ``TOP_PERCENTILES`` of the colour (``black`` the black pieces' class), 0 off the piece (0
        everywhere without ``grey``)."""
        s = self.size
        k = len(pieces)
        win = np.zeros((k, self.fft, self.fft, 2), np.float32)
        colour_at = dict(pieces)
        corners = [self.models[rc].window for rc, _ in pieces]

        def cut(view: np.ndarray) -> np.ndarray:
            return np.stack([view[y:y + s, x:x + s] for y, x in corners]) if k else np.zeros((0, s, s), view.dtype)

        on = cut(padded) == np.array([c for _, c in pieces], padded.dtype)[:, None, None]
        if static is not None:
            frame = cut(static)
            on &= ~frame
        obs = win[:, :s, :s, 0]
        obs[...] = _SIGN.take(on.view(np.uint8))
        if static is not None and self.frame_unseen:
            obs[frame] = 0  # no evidence either way (vision.frame_look)
        for i, (rc, colour) in enumerate(pieces):
            sil = win[i].reshape(-1, 2)
            for other, cover in self._cover[rc]:
                if colour_at.get(other) == colour:
                    sil[cover, 0] = 0
        if grey is None:
            return win
        on = obs > 0  # the piece's colour, where no neighbour of its colour may reach
        greys = cut(grey)
        dark = np.array([c == black for _, c in pieces])
        # each piece's brightness percentiles from one histogram a piece (all pieces in one bincount)
        codes = greys.astype(np.int32)
        codes += (np.arange(k, dtype=np.int32) * 256)[:, None, None]
        cum = np.bincount(codes[on], minlength=k * 256).reshape(k, 256).cumsum(1)
        pct = np.array(TOP_PERCENTILES, np.float32)[dark.astype(int)] / 100  # (k, 2)
        lo = (cum < cum[:, -1:] * pct[:, :1]).sum(1)
        hi = (cum < cum[:, -1:] * pct[:, 1:]).sum(1)
        mid = ((lo + hi) / 2).astype(np.float32)[:, None, None]
        scale = np.maximum((hi - lo) / 2, TOP_CONTRAST).astype(np.float32)[:, None, None]
        # each piece's 256 grey levels scaled once (the same float32 steps as pixel by pixel), looked up in one
        # take; a pixel off the piece looks up the table's last entry, 0
        table = np.zeros(k * 256 + 1, np.float32)
        levels = np.arange(256, dtype=np.float32)[None, :] - mid[:, :, 0]
        levels /= scale[:, :, 0]
        np.clip(levels, -1, 1, out=levels)
        table[:-1] = levels.ravel()
        codes[~on] = k * 256
        win[:, :s, :s, 1] = table.take(codes)
        return win

    def reach(self, margin: bool = False) -> np.ndarray:
        """Where a piece standing on the board may show in the top-down view (no margin, ``n px`` a side; with
        ``margin``, the view with its margin):
        every dark square's king silhouette (a third taller than two measured men: the height is fitted on the
        start men, blur spreads a top), the piece placed off-centre by up to ``SEARCH`` pixels. A piece's colour
        beyond it is something else (a sleeve, a carried piece: a hand)."""
        size = self.n * self.px + (2 * self.margin if margin else 0)
        out = np.zeros((size, size), np.uint8)
        off = self.border + (0 if margin else self.margin)
        grow = (self.search + self.rim + 1) / self.px
        for rc in self.squares:
            x, y = rc[1] + 0.5, self.n - rc[0] - 0.5
            pts = self.to_px(silhouette(self.pose, x, y, self.radius + grow, 2.67 * self.height)) - off
            cv2.fillConvexPoly(out, cv2.convexHull(np.round(pts).astype(np.int32)), 1)
        return out.astype(bool)

    def allows(self, rc: tuple[int, int]) -> bool:
        """Whether the view can tell a king on this square: the king's top displaced enough beyond a man's,
        and the two models' gap well above the noise."""
        m = self.models[rc]
        return m.shift >= MIN_SHIFT and m.separation >= MIN_SEPARATION * max(self.noise, 1.0)

    def fits(self, padded: np.ndarray, grey: np.ndarray, pieces, static: np.ndarray | None = None,
             black: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """For ``pieces`` ((row, col), colour class): the fit on the man (-1) .. king (+1) scale, and how well
        the better model fits (its score over what it scores on its own ideal silhouette); ``padded`` the
        labelled view, ``grey`` its brightness (see :meth:`windows`)."""
        idx = np.array([self.index[rc] for rc, _ in pieces])
        dark = np.array([c == black for _, c in pieces]).astype(int)
        best = self._best(self.windows(padded, pieces, static, grey, black), idx, dark)
        man, king = self.ideal[idx, dark, 0], self.ideal[idx, dark, 1]
        z = (2 * (best[:, 1] - best[:, 0]) - (man + king)) / np.maximum(king - man, 1e-9) - self.bias[dark]
        own = self.own[idx, dark]
        quality = np.where(z >= 0, best[:, 1] / own[:, 1], best[:, 0] / own[:, 0])
        return z, quality

    def read(self, padded: np.ndarray, grey: np.ndarray, pieces, static: np.ndarray | None = None,
             black: int | None = None, again: Callable | Sequence[Look] | None = None,
             first: "tuple[Callable[[tuple[int, int]], bool], StackReader] | None" = None,
             wary: Callable[[tuple[int, int], bool], float] | None = None) -> dict:
        """(row, col) -> (z, known, king) for ``pieces`` ((row, col), colour class): the fit on the man (-1) ..
        king (+1) scale; whether it says which (the square allows it, the fit is clear of the band between the
        models, and the better model fits the piece: a glare or a shadow of the piece's colour beside it fits
        neither), each colour by its own band (:func:`band`); and whether it says a king. ``again``, when given,
        is a second look (a :class:`Look`'s ``see``, or several looks tried in turn), asked for only when a
        piece's fit still says neither: given those squares, it returns the padded labelled view and brightness
        taken more closely there (:mod:`vision.shading`: the light within a square; :mod:`vision.glare_look`:
        glare's white off); those pieces alone (and of them, those the look's ``where`` names) are fitted again,
        judged the same way, and settled where the new fit is clear and on the side of the band's middle the
        first one was (for a look with ``own_lean``, its own reader's fit of the first view against its own band's
        middle). ``first``, when given, (squares, reader): on those squares that reader fits the first view in this
        one's place (:mod:`vision.frame_look`: the frame's pixels left out where a king's top reaches over them).
        ``wary(rc, black)``, when given, how far past its band the first fit of a piece on ``rc`` must lie to settle
        it (:mod:`vision.near_black_look`: a black piece on the nearest rows); the looks after it are not wary."""
        if not pieces:
            return {}
        z, quality = self.fits(padded, grey, pieces, static, black)  # (every piece: its neighbours' reach known)
        theirs = [i for i, (rc, _) in enumerate(pieces) if first is not None and first[0](rc)]
        if first is not None and theirs:
            z[theirs], quality[theirs] = first[1].fits(padded, grey, [pieces[i] for i in theirs], static, black)
        past = {rc: 0.0 if wary is None else wary(rc, c == black) for rc, c in pieces}
        out = {rc: self._judge(rc, c == black, v, q, past[rc]) for (rc, c), v, q in zip(pieces, z, quality)}
        # the side of the band's middle each fit of a piece leaned to (a king True), the first and every look's
        leaned = {rc: [v >= sum(self.band_at(rc, c == black)) / 2] for (rc, c), v in zip(pieces, z)}
        for look in (() if again is None else (Look(again),) if callable(again) else again):
            doubt = [(rc, c) for rc, c in pieces if self.allows(rc) and not out[rc][1]
                     and (look.where is None or look.where(rc))]
            if not doubt:
                continue
            reader = self if look.reader is None else look.reader()
            frame = static if reader.fine == self.fine else None
            z, quality = reader.fits(*look.see([rc for rc, _ in doubt]), doubt, frame, black)
            lean = (reader.fits(padded, grey, doubt, frame, black)[0] if look.own_lean
                    else [out[rc][0] for rc, _ in doubt])
            for (rc, c), v, q, first in zip(doubt, z, quality, lean):
                closer = reader._judge(rc, c == black, v, q)
                # the looks must agree: the first fit (every fit so far, ``unanimous``) leaned to the side the new
                # one settles; with ``own_lean`` the look's own fit of the first view, against its own band's middle
                edges = reader.band_at(rc, c == black) if look.own_lean else band(self.models[rc].shift, c == black)
                sides = [] if look.alone else leaned[rc] if look.unanimous else [first >= sum(edges) / 2]
                if closer[1] and all(closer[2] == side for side in sides):
                    out[rc] = closer
                leaned[rc].append(v >= sum(reader.band_at(rc, c == black)) / 2)
        return out

    def boxes(self, squares) -> list[tuple[int, int, int, int]]:
        """Each square's observation window as (top, bottom, left, right) pixels of the view with its margin
        (unpadded; it may reach beyond the view)."""
        b, s = self.border, self.size
        return [(m.window[0] - b, m.window[0] - b + s, m.window[1] - b, m.window[1] - b + s)
                for m in (self.models[rc] for rc in squares)]

    def band_at(self, rc: tuple[int, int], black: bool) -> tuple[float, float]:
        """This reader's band (:func:`band`) on square ``rc``, its shift in the top view's pixels."""
        return band(self.models[rc].shift / self.fine, black, self.bands)

    def _judge(self, rc: tuple[int, int], black: bool, z: float, quality: float, past: float = 0.0
               ) -> tuple[float, bool, bool]:
        """(z, known, king) of one piece's fit ``z`` and ``quality`` (see :meth:`read`), a claim ``past`` beyond the
        band."""
        man_at, king_at = self.band_at(rc, black)
        clear = ((z <= man_at - past and self.men) or z >= king_at + past) and quality >= self.floor[int(black)]
        return float(z), self.allows(rc) and clear, z >= king_at
