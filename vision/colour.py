"""A pixel's colour as the classifier and the hand cues read it: brightness and chroma apart.

Log brightness (a shadow or a lamp scales it) and two chroma axes over brightness (red-green, yellow-blue),
so that a change of light moves the first and leaves the others nearly still (docs/camera.md).
"""

from __future__ import annotations

import numpy as np

__all__ = ["features", "AddedWhite", "CLIPPED", "CLASSES", "LIGHT", "DARK", "WHITE", "BLACK", "UNEXPLAINED"]

#: the classes a pixel is read as (:class:`vision.classify.Classifier`), and their codes; UNEXPLAINED: like none
CLASSES = ("light", "dark", "white", "black")
LIGHT, DARK, WHITE, BLACK, UNEXPLAINED = 0, 1, 2, 3, 4
CLIPPED = 238.0  # a channel this bright may be clipped: its colour is no evidence of light or hue


def features(bgr: np.ndarray) -> np.ndarray:
    """(log brightness, red-green, yellow-blue chroma over brightness) of each pixel, float32."""
    f = bgr.astype(np.float32)
    b, g, r = f[..., 0], f[..., 1], f[..., 2]
    y = (r + g + b) / 3
    d = y + 25.0
    return np.stack([np.log(y + 8.0), (r - g) / d, (r + g - 2 * b) / (2 * d)], axis=-1)


class AddedWhite:
    """The white added to colours over their references ``ref`` (..., 3), glare's share.

    Light scales a colour, glare adds the same amount to every channel: ``obs = a * ref + g``, three channels
    for two unknowns, fitted by least squares (a tinted reference, such as a light square's beige, tells them
    apart). Where a reference's channels spread less than ``least_spread`` grey levels (a grey square) the
    two cannot be told apart: 0 there. The references' part is computed once: a picture's fit is a few products.
    """

    def __init__(self, ref: np.ndarray, *, least_spread: float = 8.0):
        r = ref.astype(np.float32)
        rc = r - r.mean(-1, keepdims=True)
        var = (rc * rc).sum(-1, keepdims=True)
        told = var >= 3 * least_spread ** 2 / 2
        self._weights = np.where(told, rc / np.maximum(var, 1e-6), 0.0).astype(np.float32)  # obs . w = a
        self._mean = np.where(told[..., 0], r.mean(-1), 0.0).astype(np.float32)
        self._told = told[..., 0]

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        """The white ``g`` added to each colour ``obs`` (..., 3), grey levels; 0 where it cannot be told."""
        o = obs.astype(np.float32)
        a = (o * self._weights).sum(-1)
        return np.where(self._told, o.mean(-1) - a * self._mean, 0.0).astype(np.float32)
