"""The light within a square: a finer correction from the light squares' own pixels, for the stack's second look.

The frame's light is measured square by square (:meth:`vision.classify.Classifier.gain`: each light square's
centre against its calibrated colour, a dark square from its light neighbours, interpolated between square
centres). A shadow band's edge is sharper than a square: where it crosses a piece, part of the piece stays too
dark after that gain, and a king (two stacked men, FPD 000 art. 3.1 d, FMJD 002 art. 3.5), told by its top
brighter than its taller wall and by its silhouette, no longer fits either model. Nothing stands on a light
square, so every light-square pixel a piece does not cover says what the light does at that point: its
calibrated colour over its colour now (after the square-level gain) is the light left to correct there. That
ratio, spread from the light squares' pixels to the pixels between them (a normalised Gaussian average: each
point takes the light of the nearest light-square pixels), corrects the view where a piece stands. Pixels a
piece's colour covers or borders (its rim, its contact shadow) and clipped pixels are no evidence. The second
look is also smoothed a little (``SMOOTH``): the noise of a JPEG picture (its blocks, its ringing at a piece's
edge) is what else leaves a piece's fit between the models.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["FineLight"]

SIGMA = 6.0          # pixels of the top-down view (32 a square): a shadow band's edge is 3-5 pixels soft there
NEAR_PIECE = 7       # pixels round a piece's colour that are no evidence (its blurred rim, its contact shadow)
SUPPORT = 1e-3       # the least Gaussian weight of light-square pixels a point needs; else the square's gain stands
LIMITS = (0.5, 2.0)  # the correction is kept within these factors (a band is at most about half as bright)
CLIPPED = 250        # grey levels at and over which a pixel says nothing of the light
HALO = int(3 * SIGMA)  # pixels round a box that its correction is measured on too
#: pixels (a Gaussian's sigma) the second look is smoothed by: a JPEG's 8-pixel blocks and ringing and the sensor's
#: noise, warped to the top-down view, scatter single pixels across a piece's labels and its top-against-wall
#: brightness; the models' edges are drawn with 1.5-pixel rims, so nothing finer than a pixel is lost
SMOOTH = 0.8


class FineLight:
    """Corrects a light-corrected top-down view (margin ``margin`` pixels round an ``n`` x ``n`` board of ``px``
    pixels a square) by the light its light squares' pixels show, against ``light_ref`` ((n, n, 3) BGR, each
    light square's calibrated colour; ``dark`` (n, n) the dark squares)."""

    def __init__(self, light_ref: np.ndarray, dark: np.ndarray, px: int, margin: int):
        n = dark.shape[0]
        grey = cv2.cvtColor(np.clip(light_ref, 0, 255).astype(np.float32).reshape(n, n, 3), cv2.COLOR_BGR2GRAY)
        ref = np.kron(np.where(dark, 0.0, grey), np.ones((px, px))).astype(np.float32)
        self.ref = cv2.copyMakeBorder(ref, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=0)
        self.px, self.margin = px, margin
        self._ring = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * NEAR_PIECE + 1, 2 * NEAR_PIECE + 1))

    def __repr__(self) -> str:
        return f"<FineLight view={self.ref.shape[1]}x{self.ref.shape[0]} sigma={SIGMA}>"

    def factor(self, corrected: np.ndarray, labels: np.ndarray, light: int, pieces: tuple[int, ...],
               ref: np.ndarray | None = None) -> np.ndarray:
        """The correction (float32, ``corrected``'s size) still owed at every pixel of ``corrected`` (BGR uint8,
        the square-level gain applied), from its pixels labelled ``light`` (class) away from the ``pieces``
        classes; ``ref`` the reference grey of the same pixels (default: the whole view's)."""
        ref = self.ref if ref is None else ref
        grey = cv2.cvtColor(corrected, cv2.COLOR_BGR2GRAY)
        piece = np.zeros(labels.shape, np.uint8)
        for k in pieces:
            piece |= labels == k
        evidence = (labels == light) & (ref > 0) & (grey < CLIPPED) & (grey > 0)
        evidence &= cv2.dilate(piece, self._ring) == 0
        w = evidence.astype(np.float32)
        ratio = np.zeros_like(w)
        np.divide(ref, grey.astype(np.float32), out=ratio, where=evidence)
        # the light varies slowly beside a pixel: averaged at half the view's resolution (a quarter of the work)
        half = (max(1, w.shape[1] // 2), max(1, w.shape[0] // 2))
        k = (2 * (HALO // 2) + 1,) * 2
        num = cv2.GaussianBlur(cv2.resize(ratio, half, interpolation=cv2.INTER_AREA), k, SIGMA / 2)
        den = cv2.GaussianBlur(cv2.resize(w, half, interpolation=cv2.INTER_AREA), k, SIGMA / 2)
        out = np.ones_like(den)
        np.divide(num, den, out=out, where=den > SUPPORT)
        out = cv2.resize(out, (w.shape[1], w.shape[0]), interpolation=cv2.INTER_LINEAR)
        return np.clip(out, *LIMITS, out=out)

    def relit(self, corrected: np.ndarray, labels: np.ndarray, light: int, pieces: tuple[int, ...],
              box: tuple[int, int, int, int]) -> tuple[np.ndarray, tuple[slice, slice]]:
        """The pixels of ``box`` ((top, bottom, left, right) of the view, clipped to it) with :meth:`factor`
        applied (BGR uint8), measured on the box and ``HALO`` pixels round it, then smoothed by ``SMOOTH``; and
        the box's slices."""
        h, w = corrected.shape[:2]
        t, b, left, r = max(0, box[0]), min(h, box[1]), max(0, box[2]), min(w, box[3])
        at = (slice(t, b), slice(left, r))
        t0, b0, l0, r0 = max(0, t - HALO), min(h, b + HALO), max(0, left - HALO), min(w, r + HALO)
        near = (slice(t0, b0), slice(l0, r0))
        f = self.factor(corrected[near], labels[near], light, pieces, self.ref[near])[t - t0:b - t0, left - l0:r - l0]
        relit = cv2.multiply(corrected[at], cv2.merge([f, f, f]), dtype=cv2.CV_8U)
        return cv2.GaussianBlur(relit, (0, 0), SMOOTH), at
