"""Glare taken off a doubtful piece's window before the stack's second look.

Glare adds the same white to every channel (:class:`vision.colour.AddedWhite`), which the light's gain, a
factor, does not take off. On a piece it brightens the top and the wall alike where the spot falls: a black
man's top, only 18 grey levels over its wall, is no longer told from it by the top-against-wall channel, and a
white man's light square beside it turns the white pieces' colour. A king (two stacked men, FPD 000 art. 3.1 d,
FMJD 002 art. 3.5) is told by where its top lies against its wall, so a man under glare falls in the band
between the models. The white is measured on the light squares, nothing standing there
(:meth:`vision.classify.Classifier._glare_cells`: grey levels as taken, a dark square the mean of its light
neighbours'); spread over the view as the light's gain is (bilinear between square centres) and scaled by that
gain, it is taken off every pixel of the doubtful piece's window and the pixels round it before the second look
(:mod:`vision.shading` measures its light on the light squares' pixels: glare left on them would read as more
light and darken the piece). The second look settles a piece only where it agrees with the first
(:meth:`vision.kings.StackReader.read`).
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from vision.shading import HALO

__all__ = ["GlareField"]


class GlareField:
    """The white glare adds at every pixel of the top-down view (``n`` x ``n`` squares of ``px`` pixels,
    ``margin`` pixels round them), from each square's white (:meth:`field`), and taken off a view (:meth:`off`)."""

    def __init__(self, n: int, px: int, margin: int):
        self.n, self.px, self.margin = n, px, margin

    def field(self, cells: np.ndarray) -> np.ndarray:
        """Per-pixel white (float32, the view with its margin) from each square's white ``cells`` (n, n, grey
        levels as taken): bilinear between square centres, as the light's gain is spread, the margin replicated."""
        size = self.n * self.px
        f = cv2.resize(cells.astype(np.float32), (size, size), interpolation=cv2.INTER_LINEAR)
        m = self.margin
        return cv2.copyMakeBorder(f, m, m, m, m, cv2.BORDER_REPLICATE)

    @staticmethod
    def off(corrected: np.ndarray, gain: np.ndarray, white: np.ndarray, at: tuple[slice, slice]) -> np.ndarray:
        """The pixels ``at`` of ``corrected`` (BGR uint8, the gain applied) with the glare's white taken off: the
        white as taken (``white``, per pixel) times the light's ``gain`` there (per pixel and channel), saturated
        at 0 (uint8)."""
        w = white[at]
        return cv2.subtract(corrected[at], cv2.multiply(gain[at], cv2.merge([w, w, w]), dtype=cv2.CV_8U))

    @staticmethod
    def reaches(white: np.ndarray, box: tuple[int, int, int, int]) -> bool:
        """Whether the glare's ``white`` (per pixel, :meth:`field`) reaches ``box`` ((top, bottom, left, right) of
        the view) or the ``HALO`` pixels round it, where :meth:`without` takes it off."""
        h, w = white.shape
        top, bottom, left, right = box
        return bool(white[max(0, top - HALO):min(h, bottom + HALO), max(0, left - HALO):min(w, right + HALO)].any())

    def without(self, corrected: np.ndarray, labels: np.ndarray, gain: np.ndarray, cells: np.ndarray, boxes,
                classes: Callable[[np.ndarray], np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """(corrected, labels) with the glare's white taken off round each of ``boxes`` ((top, bottom, left,
        right) of the view, the second look's windows) and ``HALO`` pixels beyond (where :mod:`vision.shading`
        measures the light), the pixels there labelled again by ``classes``; the inputs themselves when no glare
        reaches a box. ``cells`` each square's white (n, n, grey levels as taken), ``gain`` the light's gain a
        pixel."""
        if not cells.any():
            return corrected, labels
        white = self.field(cells)
        h, w = corrected.shape[:2]
        plain, relabelled = corrected, labels
        for top, bottom, left, right in boxes:
            at = (slice(max(0, top - HALO), min(h, bottom + HALO)), slice(max(0, left - HALO), min(w, right + HALO)))
            if not self.reaches(white, (top, bottom, left, right)):
                continue
            if plain is corrected:
                plain, relabelled = corrected.copy(), labels.copy()
            plain[at] = self.off(corrected, gain, white, at)
            relabelled[at] = classes(plain[at])
        return plain, relabelled
