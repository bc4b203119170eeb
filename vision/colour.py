"""A pixel's colour as the classifier and the hand cues read it: brightness and chroma apart.

Log brightness (a shadow or a lamp scales it) and two chroma axes over brightness (red-green, yellow-blue),
so that a change of light moves the first and leaves the others nearly still (docs/camera.md).
"""

from __future__ import annotations

import numpy as np

__all__ = ["features", "CLIPPED"]

CLIPPED = 238.0  # a channel this bright may be clipped: its colour is no evidence of light or hue


def features(bgr: np.ndarray) -> np.ndarray:
    """(log brightness, red-green, yellow-blue chroma over brightness) of each pixel, float32."""
    f = bgr.astype(np.float32)
    b, g, r = f[..., 0], f[..., 1], f[..., 2]
    y = (r + g + b) / 3
    d = y + 25.0
    return np.stack([np.log(y + 8.0), (r - g) / d, (r + g - 2 * b) / (2 * d)], axis=-1)
