"""The set as the start position shows it: a man's radius and height, the noise of the man-or-king gap, and each
colour's bias on the man-king scale (:mod:`vision.kings`; FPD 000 art. 3.1 d, FMJD 002 art. 3.5: a king is two
stacked men, so a man's height is all the set must tell). Run once, at calibration (:mod:`calibration.camera`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.kings import (BIAS_MAX, HEIGHTS, MAN_FIT, RADII, SEARCH, StackReader, band, draw_mask, model_templates,
                          silhouette)
from vision.pose import CameraPose

if TYPE_CHECKING:
    from vision.classify import Classifier

__all__ = ["fit_piece", "gap_noise", "start_bias", "fine_bias", "soft_bias"]


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


def start_bias(reader: StackReader, fits: dict, black: int) -> tuple[float, float]:
    """The white and black men's bias on the man-king scale, from the start position's fits ``fits``
    ((row, col) -> (fit, colour class), every piece a man): each colour's median fit off ``MAN_FIT`` below
    its band's middle."""
    out = []
    for dark in (False, True):
        off = [z - sum(band(reader.models[rc].shift, dark)) / 2 for rc, (z, c) in fits.items() if (c == black) == dark]
        out.append(float(np.clip(np.median(off) - MAN_FIT[int(dark)], -BIAS_MAX, BIAS_MAX)) if off else 0.0)
    return out[0], out[1]


def fine_bias(clf: "Classifier", image: np.ndarray, men, black: int) -> float:
    """The black men's bias at the finer look's resolution (:mod:`vision.fine_look`), from the start position
    ``image`` read by ``clf`` (``men`` the black start men's (row, col)): their median finer fit, the bias ``clf``
    already takes off put back, off ``FINE_MAN_FIT`` below the finer band's middle (0 with no finer look)."""
    from vision.fine_look import FINE_MAN_FIT

    return _look_bias(clf, clf.fine_look, FINE_MAN_FIT, image, men, black)


def soft_bias(clf: "Classifier", image: np.ndarray, men, black: int) -> float:
    """The black men's bias of the soft look (:mod:`vision.soft_look`: the finer window smoothed more, which moves
    every fit: its band's middle is lower, ``SOFT_LOWER``), as :func:`fine_bias` (0 with no such look)."""
    from vision.fine_look import FINE_MAN_FIT

    return _look_bias(clf, clf.soft_look, FINE_MAN_FIT, image, men, black)


def _look_bias(clf: "Classifier", look, usual: float, image: np.ndarray, men, black: int) -> float:
    """The black start men's median fit by ``look`` (a finer look: ``fits``, ``reader``), its reader's bias put back,
    off ``usual`` below its band's middle, at most ``BIAS_MAX`` either way."""
    if look is None or not men:
        return 0.0
    canon = clf.canonical(image)
    m = clf.margin
    gain = cv2.copyMakeBorder(clf.gain(clf.inner(canon)), m, m, m, m, cv2.BORDER_REPLICATE)
    z, _ = look.fits(image, gain, clf.classes, men, black)
    reader = look.reader
    off = [v + reader.bias[1] - sum(reader.band_at(rc, True)) / 2 for rc, v in zip(men, z)]
    return float(np.clip(np.median(off) - usual, -BIAS_MAX, BIAS_MAX))


def fit_piece(pose: CameraPose, n: int, px: int, margin: int, lab: np.ndarray, grey: np.ndarray, men,
              static: np.ndarray | None, black: int | None = None) -> tuple[float, float, float]:
    """The set's piece radius and a man's height (squares) as the start position's men show them (``men``:
    ((row, col), colour class) pairs, ``lab`` the labelled view, ``grey`` its brightness, ``black`` the black
    pieces' class): the radius from the men's width across
    the parallax, then the height whose silhouettes fit them best; and the noise of the man-or-king gap on
    them (score units, a robust spread)."""
    squares = [rc for rc, _ in men]
    probe = StackReader(pose, n, px, margin, squares, float(RADII.max()), float(HEIGHTS.max()) / 2)
    padded = probe.padded(lab)
    pst = probe.padded(static.astype(np.uint8), 0).astype(bool) if static is not None else None
    windows = probe.windows(padded, men, pst)[..., 0]
    widths = _widths(probe, windows, squares)
    r = float(np.clip((np.median(widths) - 1) / 2 / px, RADII.min(), RADII.max())) if widths else 0.38
    obs = np.fft.rfft2(windows)
    best = (-np.inf, 0.0)
    for h in HEIGHTS:
        t = np.zeros((len(men), probe.fft, probe.fft), np.float32)
        for i, rc in enumerate(squares):
            o, x, y = probe._origin(rc, probe.height)
            full = draw_mask(probe.box, probe.to_px(silhouette(pose, x, y, r, float(h))), tuple(o))
            t[i, :probe.box, :probe.box] = model_templates((full, full))[0]  # a sharp picture: the edge counts
        c = np.fft.irfft2(obs * np.conj(np.fft.rfft2(t)), s=(probe.fft, probe.fft))
        total = float(c[:, :2 * SEARCH + 1, :2 * SEARCH + 1].reshape(len(men), -1).max(-1).sum())
        if total > best[0]:
            best = (total, float(h))
    h = best[1]
    reader = StackReader(pose, n, px, margin, squares, r, h)
    padded = reader.padded(lab)
    pst = reader.padded(static.astype(np.uint8), 0).astype(bool) if static is not None else None
    idx = np.arange(len(men))
    dark = np.array([c == black for _, c in men]).astype(int)
    best = reader._best(reader.windows(padded, men, pst, reader.padded(grey, 0), black), idx, dark)
    gaps = best[:, 1] - best[:, 0] - reader.ideal[idx, dark, 0]
    return r, h, gap_noise(gaps, dark)


def gap_noise(gaps: np.ndarray, colour: np.ndarray) -> float:
    """The noise of the man-or-king gap (score units) on the start men: the robust spread (1.4826 times the median
    absolute deviation) of each man's gap ``gaps`` about the median of his colour's (``colour``: 0 white, 1 black).

    Each colour's own offset is the set's and the view's bias (a black top a little darker, squares near the
    pieces' colour), which :func:`start_bias` takes off every fit of that colour; pooled about one median, the two
    colours' offsets counted as noise (seed 7 board 3: white men +62 .. +102 over a man's ideal gap, black men -164
    .. +1, a spread of 98.6 against 23.1 about each colour's own) and left a near-row square whose kings fit clear of
    the band "the view cannot tell" (:meth:`vision.kings.StackReader.allows`)."""
    if not len(gaps):
        return 0.0
    centred = np.asarray(gaps, np.float64).copy()
    for c in np.unique(colour):
        centred[colour == c] -= np.median(centred[colour == c])
    return float(1.4826 * np.median(np.abs(centred)))
