"""Skin over the light squares: the cue that sees a hand of the light squares' own brightness.

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

import cv2
import numpy as np

from vision.colour import CLIPPED, features

__all__ = ["SkinCue"]

STEP = 2        # the cue works on a view of half the resolution (px / 2 pixels a square)
INSET = 0.125   # of a square's side, its edge left out (misregistration, blur into the dark square)


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
        fair = cv2.erode(raw.max(-1), self._small) < CLIPPED  # as the sensor took it, before the gain
        hit = (self._mask & fair & (towards_red > self.turn)).astype(np.uint8)
        hit = cv2.morphologyEx(hit, cv2.MORPH_OPEN, self._kernel)
        return float(hit.sum()) / (self.q * self.q)
