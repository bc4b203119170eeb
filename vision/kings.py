"""A man or a king: two models of the piece's silhouette fitted to the picture, square by square.

A king is two stacked men (FPD 000 art. 3.1 d, FMJD 002 art. 3.5: the crowned man carries a second piece).
Seen from the camera (:mod:`vision.pose`), a piece of radius ``r`` and height ``h`` standing on board point
``p`` covers, on the top-down view, the convex hull of its base disc (radius ``r`` at ``p``) and its top disc
(radius ``r Z / (Z - h)``, displaced by the parallax ``(p - C) h / (Z - h)`` away from the point below the
camera): the side band between them is what a king shows more of. For every dark square both silhouettes
(height ``h`` and ``2 h``) are drawn once as templates (+1 piece, -1 no piece); each frame the pixels of the
piece's colour are correlated with both, each template free to slide a few pixels (a piece placed
off-centre), all squares at once through the FFT, and the better fit says man or king.

Where the two silhouettes differ by less than the noise the calibration measured (a camera nearly straight
above the square), the square *does not allow* a king to be told; a frame whose fit falls between the two
models does not either. The reading then carries the colour with ``king unknown``, and the stability layer
takes the stack from the rules (:mod:`vision.stability`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.pose import CameraPose

__all__ = ["StackReader", "StackModel", "fit_piece", "MAN_AT", "MAN_AT_BLACK", "KING_AT", "SEARCH", "HEIGHTS"]

SEARCH = 5          # pixels a piece may stand off its square's centre, each way (placed off-centre)
PAD = 3             # pixels of "no piece here" around the larger silhouette
RIM = 1.5           # pixels each side of a silhouette's edge that count for neither model
ERODED = 1.0        # pixels a piece's labelled edge lies inside its true one in a frame (blur, JPEG, light)
# a fit (-1 a man, +1 a king as the models predict) says a man up to MAN_AT and a king from KING_AT; between
# them "king unknown" (the band where men and kings of the rendered set overlap, widened from (0, 0.6) until about
# one claim in 2,000 is wrong on the bench's still positions of seeds 11-13, was one in 260)
MAN_AT, KING_AT = 0.0, 0.7
# a black king's lower man is as dark as a dark square in dim light: part of its side band is labelled as the
# square, and its fit falls towards a man's; a black piece is called a man only well below the middle
MAN_AT_BLACK = -0.4
MIN_SEPARATION = 4.0  # the two models' ideal score gap, in units of the noise the calibration measured
MIN_SHIFT = 1.0     # pixels: below this extra parallax of the king's top the view cannot tell a king
MIN_QUALITY = 0.9   # the better model must score this share of what it scores on its own silhouette
RADII = np.arange(0.30, 0.465, 0.02)   # piece radius tried at calibration, squares
HEIGHTS = np.arange(0.06, 0.405, 0.02)  # a man's height tried at calibration, squares


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


def _silhouette(pose: CameraPose, x: float, y: float, r: float, h: float) -> np.ndarray:
    """Outline points (board squares) of a piece of radius ``r`` and height ``h`` standing on (x, y)."""
    a = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    tx, ty = pose.seen_at(x, y, h)
    rt = r * pose.scale(h)
    return np.vstack([np.column_stack([x + r * np.cos(a), y + r * np.sin(a)]),
                      np.column_stack([tx + rt * np.cos(a), ty + rt * np.sin(a)])])


def _draw(size: int, pts: np.ndarray, origin: tuple[float, float]) -> np.ndarray:
    """A soft (anti-aliased) mask, 0..1, of the convex hull of ``pts`` (pixels) in a box at ``origin``."""
    img = np.zeros((size, size), np.uint8)
    p = np.round((pts - np.array(origin)) * 16).astype(np.int32)
    cv2.fillConvexPoly(img, cv2.convexHull(p), 255, cv2.LINE_AA, shift=4)
    return img.astype(np.float32) / 255.0


_RING = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * PAD + 1, 2 * PAD + 1))


def _templates(*pairs: tuple[np.ndarray, np.ndarray]) -> list[np.ndarray]:
    """Each silhouette, given as (inner, outer) masks (its radius less and more the ``RIM``), as a template:
    +1 inside, 0 on the rim (blur and light move a piece's labelled edge by a pixel or two), -1 on the rest
    of the silhouettes' union grown by ``PAD`` pixels (where the other model, or no piece, is), 0 beyond
    (a neighbour there changes no fit)."""
    union = np.maximum.reduce([o for _, o in pairs])
    near = cv2.dilate((union > 0.5).astype(np.uint8), _RING).astype(np.float32)
    return [i - np.maximum(near - o, 0) for i, o in pairs]


def _pair(reader: "StackReader", x: float, y: float, r: float, h: float, origin, size: int | None = None):
    """(inner, outer) masks of a piece's silhouette at ``origin`` (pixels), its radius less and more ``RIM``."""
    a = RIM / reader.px
    return tuple(_draw(size or reader.box, reader.to_px(_silhouette(reader.pose, x, y, rr, h)), tuple(origin))
                 for rr in (r - a, r + a))


class StackReader:
    """Man or king on the dark squares ``squares`` ((row, col) of the top-down view), from the labelled view
    (:class:`vision.classify.Classifier` labels, margin included): ``px`` pixels a square, ``margin`` around
    the board, ``n`` squares a side; ``radius`` and ``height`` of a man in squares; ``noise`` of the score
    gap the calibration measured on the start men. A fit is judged against the two models' ideal gaps: each
    silhouette as a frame shows it, its labelled edge ``ERODED`` pixels inside the true one."""

    def __init__(self, pose: CameraPose, n: int, px: int, margin: int, squares, radius: float, height: float,
                 noise: float = 0.0):
        self.pose, self.n, self.px, self.margin = pose, n, px, margin
        self.radius, self.height, self.noise = radius, height, noise
        self.squares = list(squares)
        self.index = {rc: i for i, rc in enumerate(self.squares)}
        far = max(np.hypot(*(np.array(pose.seen_at(x, y, 2 * height)) - (x, y))) for x in (0, n) for y in (0, n))
        self.box = int(np.ceil((2 * radius * pose.scale(2 * height) + far) * px)) + 2 * PAD
        self.size = self.box + 2 * SEARCH                   # observation window, pixels a side
        self.fft = int(2 ** np.ceil(np.log2(self.size)))     # no wrap-around for shifts 0 .. 2 SEARCH
        self.border = self.size
        t = np.zeros((len(self.squares), 2, self.fft, self.fft), np.float32)
        models = []
        for i, rc in enumerate(self.squares):
            t[i, :, :self.box, :self.box], model = self._templates(rc, radius, height)
            models.append(model)
        self.spectra = np.conj(np.fft.rfft2(t))
        self.ideal = np.zeros((len(self.squares), 2))  # ideal gaps: a man, a king
        self.own = np.ones((len(self.squares), 2))     # each model's fit to its own ideal silhouette
        if self.squares:
            idx = np.arange(len(self.squares))
            for k, hh in enumerate((height, 2 * height)):
                best = self._best(self._perfect(radius - ERODED / px, hh), idx)
                self.ideal[:, k] = best[:, 1] - best[:, 0]
                self.own[:, k] = np.maximum(best[:, k], 1.0)
        self.models = {rc: StackModel(m.window, float(self.ideal[i, 0]), float(self.ideal[i, 1]), m.shift,
                                      m.tilt) for i, (rc, m) in enumerate(zip(self.squares, models))}
        self.neighbours = {rc: self._neighbours(rc) for rc in self.squares}

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

    def _templates(self, rc, r: float, h: float) -> tuple[np.ndarray, StackModel]:
        """(man, king) templates of a square and its model (ideal gaps not yet known)."""
        o, x, y = self._origin(rc, self.height)
        man, king = _templates(_pair(self, x, y, r, h, o), _pair(self, x, y, r, 2 * h, o))
        tm = np.array(self.pose.seen_at(x, y, h)) - (x, y)
        tk = np.array(self.pose.seen_at(x, y, 2 * h)) - (x, y)
        window = (int(o[1]) - SEARCH, int(o[0]) - SEARCH)
        return (np.stack([man, king]),
                StackModel(window, 0.0, 0.0, float(np.hypot(*(tk - tm))) * self.px, self.pose.tilt(x, y)))

    def _neighbours(self, rc: tuple[int, int]) -> list[tuple[tuple[int, int], np.ndarray]]:
        """The squares near ``rc`` whose piece may reach into its window, each with the part of the window
        it may cover (a king's silhouette grown by how far off-centre a piece may stand), less the core of
        ``rc``'s own man: pixels of a neighbour of the same colour are no evidence either way."""
        out = []
        o, x, y = self._origin(rc, self.height)
        origin = tuple(o - SEARCH)
        own = _draw(self.size, self.to_px(_silhouette(self.pose, x, y, self.radius - RIM / self.px, self.height)),
                    origin) > 0.5
        grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * SEARCH + 1, 2 * SEARCH + 1))
        for other in self.squares:
            if other == rc or max(abs(other[0] - rc[0]), abs(other[1] - rc[1])) > 2:
                continue
            ox, oy = other[1] + 0.5, self.n - other[0] - 0.5
            cover = _draw(self.size, self.to_px(_silhouette(self.pose, ox, oy, self.radius, 2 * self.height)),
                          origin) > 0.5
            cover = cv2.dilate(cover.astype(np.uint8), grow).astype(bool) & ~own
            if cover.any():
                out.append((other, cover))
        return out

    def _perfect(self, r: float, h: float) -> np.ndarray:
        """Every square's piece of radius ``r`` and height ``h`` as a perfect frame shows it (+1 / -1)."""
        out = np.zeros((len(self.squares), self.fft, self.fft), np.float32)
        for i, rc in enumerate(self.squares):
            o, x, y = self._origin(rc, self.height)
            out[i, :self.size, :self.size] = 2 * _draw(self.size, self.to_px(_silhouette(
                self.pose, x, y, r, h)), tuple(o - SEARCH)) - 1
        return out

    def _best(self, obs: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """(man fit, king fit), each at its best shift, of the observation windows ``obs`` (k, fft, fft) of
        squares ``idx``."""
        v = 2 * SEARCH + 1
        c = np.fft.irfft2(np.fft.rfft2(obs)[:, None] * self.spectra[idx], s=(self.fft, self.fft))
        return c[:, :, :v, :v].reshape(len(idx), 2, -1).max(-1)

    def _measure(self, obs: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """King fit - man fit of the observation windows ``obs`` of squares ``idx``."""
        best = self._best(obs, idx)
        return best[:, 1] - best[:, 0]

    # -- frames -----------------------------------------------------------------------------

    def padded(self, lab: np.ndarray, value: int = 255) -> np.ndarray:
        b = self.border
        return cv2.copyMakeBorder(lab, b, b, b, b, cv2.BORDER_CONSTANT, value=value)

    def windows(self, padded: np.ndarray, pieces, static: np.ndarray | None = None) -> np.ndarray:
        """Observation windows (k, fft, fft): +1 where the piece's colour shows, -1 elsewhere, 0 padding and
        where a neighbour of the same colour may reach; ``pieces`` ((row, col), colour class) pairs;
        ``static`` the padded frame pixels to leave out."""
        s = self.size
        obs = np.zeros((len(pieces), self.fft, self.fft), np.float32)
        colour_at = dict(pieces)
        for i, (rc, colour) in enumerate(pieces):
            y0, x0 = self.models[rc].window
            win = padded[y0:y0 + s, x0:x0 + s] == colour
            if static is not None:
                win &= ~static[y0:y0 + s, x0:x0 + s]
            o = obs[i, :s, :s]
            o[...] = win
            o *= 2
            o -= 1
            for other, cover in self.neighbours[rc]:
                if colour_at.get(other) == colour:
                    o[cover] = 0
        return obs

    def reach(self, margin: bool = False) -> np.ndarray:
        """Where a piece standing on the board may show in the top-down view (no margin, ``n px`` a side; with
        ``margin``, the view with its margin):
        every dark square's king silhouette (a third taller than two measured men: the height is fitted on the
        start men, blur spreads a top), the piece placed off-centre by up to ``SEARCH`` pixels. A piece's colour
        beyond it is something else (a sleeve, a carried piece: a hand)."""
        size = self.n * self.px + (2 * self.margin if margin else 0)
        out = np.zeros((size, size), np.uint8)
        off = self.border + (0 if margin else self.margin)
        grow = (SEARCH + RIM + 1) / self.px
        for rc in self.squares:
            x, y = rc[1] + 0.5, self.n - rc[0] - 0.5
            pts = self.to_px(_silhouette(self.pose, x, y, self.radius + grow, 2.67 * self.height)) - off
            cv2.fillConvexPoly(out, cv2.convexHull(np.round(pts).astype(np.int32)), 1)
        return out.astype(bool)

    def allows(self, rc: tuple[int, int]) -> bool:
        """Whether the view can tell a king on this square: the king's top displaced enough beyond a man's,
        and the two models' gap well above the noise."""
        m = self.models[rc]
        return m.shift >= MIN_SHIFT and m.separation >= MIN_SEPARATION * max(self.noise, 1.0)

    def fits(self, padded: np.ndarray, pieces, static: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """For ``pieces`` ((row, col), colour class): the fit on the man (-1) .. king (+1) scale, and how well
        the better model fits (its score over what it scores on its own ideal silhouette)."""
        idx = np.array([self.index[rc] for rc, _ in pieces])
        best = self._best(self.windows(padded, pieces, static), idx)
        man, king = self.ideal[idx, 0], self.ideal[idx, 1]
        z = (2 * (best[:, 1] - best[:, 0]) - (man + king)) / np.maximum(king - man, 1e-9)
        quality = np.where(z >= 0, best[:, 1] / self.own[idx, 1], best[:, 0] / self.own[idx, 0])
        return z, quality

    def read(self, padded: np.ndarray, pieces, static: np.ndarray | None = None, black: int | None = None) -> dict:
        """(row, col) -> (z, known) for ``pieces`` ((row, col), colour class): the fit on the man (-1) ..
        king (+1) scale, and whether it says which (the square allows it, the fit is clear of the band
        between the models, and the better model fits the piece: a glare or a shadow of the piece's colour
        beside it fits neither); pieces of the class ``black`` are called men only up to ``MAN_AT_BLACK``."""
        if not pieces:
            return {}
        z, quality = self.fits(padded, pieces, static)
        return {rc: (float(v), self.allows(rc) and (v <= (MAN_AT_BLACK if c == black else MAN_AT) or v >= KING_AT)
                     and q >= MIN_QUALITY)
                for (rc, c), v, q in zip(pieces, z, quality)}


def _widths(reader: "StackReader", obs: np.ndarray, squares) -> list[float]:
    """Each piece's width across the parallax (pixels): what its height does not change."""
    out = []
    s = reader.size
    for i, rc in enumerate(squares):
        win = (obs[i, :s, :s] > 0).astype(np.uint8)
        count, comp = cv2.connectedComponents(win, connectivity=4)
        y0, x0 = reader.models[rc].window
        x, y = rc[1] + 0.5, reader.n - rc[0] - 0.5
        base, foot = reader.to_px(np.array([[x, y], reader.pose.foot]))
        centre = np.round(base - (x0, y0)).astype(int)
        label = comp[min(s - 1, max(0, centre[1])), min(s - 1, max(0, centre[0]))]
        if count < 2 or label == 0:
            continue
        ys, xs = np.nonzero(comp == label)
        u = (base - foot) / max(1e-9, float(np.hypot(*(base - foot))))
        across = xs * -u[1] + ys * u[0]
        out.append(float(np.percentile(across, 99.5) - np.percentile(across, 0.5)) + 1.0)
    return out


def fit_piece(pose: CameraPose, n: int, px: int, margin: int, lab: np.ndarray, men, static: np.ndarray | None
              ) -> tuple[float, float, float]:
    """The set's piece radius and a man's height (squares) as the start position's men show them (``men``:
    ((row, col), colour class) pairs, ``lab`` the labelled view): the radius from the men's width across
    the parallax, then the height whose silhouettes fit them best; and the noise of the man-or-king gap on
    them (score units, a robust spread)."""
    squares = [rc for rc, _ in men]
    probe = StackReader(pose, n, px, margin, squares, float(RADII.max()), float(HEIGHTS.max()) / 2)
    padded = probe.padded(lab)
    pst = probe.padded(static.astype(np.uint8), 0).astype(bool) if static is not None else None
    windows = probe.windows(padded, men, pst)
    widths = _widths(probe, windows, squares)
    r = float(np.clip((np.median(widths) - 1) / 2 / px, RADII.min(), RADII.max())) if widths else 0.38
    obs = np.fft.rfft2(windows)
    best = (-np.inf, 0.0)
    for h in HEIGHTS:
        t = np.zeros((len(men), probe.fft, probe.fft), np.float32)
        for i, rc in enumerate(squares):
            o, x, y = probe._origin(rc, probe.height)
            full = _draw(probe.box, probe.to_px(_silhouette(pose, x, y, r, float(h))), tuple(o))
            t[i, :probe.box, :probe.box] = _templates((full, full))[0]  # a sharp picture: the edge counts
        c = np.fft.irfft2(obs * np.conj(np.fft.rfft2(t)), s=(probe.fft, probe.fft))
        total = float(c[:, :2 * SEARCH + 1, :2 * SEARCH + 1].reshape(len(men), -1).max(-1).sum())
        if total > best[0]:
            best = (total, float(h))
    h = best[1]
    reader = StackReader(pose, n, px, margin, squares, r, h)
    padded = reader.padded(lab)
    pst = reader.padded(static.astype(np.uint8), 0).astype(bool) if static is not None else None
    idx = np.arange(len(men))
    gaps = reader._measure(reader.windows(padded, men, pst), idx) - reader.ideal[idx, 0]
    noise = float(1.4826 * np.median(np.abs(gaps - np.median(gaps)))) if len(gaps) else 0.0
    return r, h, noise
