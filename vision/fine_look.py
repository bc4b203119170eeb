"""A black piece at twice the top view's resolution: the stack's last look where the others abstain.

A king is two stacked men (FPD 000 art. 3.1 d, FMJD 002 art. 3.5), told by where its top lies against its wall
(:mod:`vision.kings`). A black piece's top is only about 18 grey levels brighter than its wall, and the top view
(``px`` pixels a square, sampled by bilinear interpolation from a picture with up to twice that resolution near
the camera) scatters single pixels across that small step: the fits of black men and kings overlap. Sampled at
twice the resolution (the view's remap tables interpolated, so the same lens model) and smoothed by a Gaussian
(``SMOOTH``: the picture's JPEG blocks and the sensor's noise, resolved at that scale, averaged away again), the
window of a doubtful black piece is fitted by a reader of its own at that resolution (the models' pixel constants
scaled with it), with its own band (``FINE_BAND``) and its own start bias (:func:`vision.kings_calibration.
fine_bias`). Only doubtful black pieces pay for it (about 0.7 ms a piece); the reader's templates are drawn on
first use. It reads the picture as taken, so not where glare reaches the piece's window (glare's white brightens the
top and the wall alike: :mod:`vision.glare_look` takes it off for the coarser look), and like the looks before it
settles a piece only on the side of the band's middle the first fit already leaned to
(:meth:`vision.kings.StackReader.read`).
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from vision.kings import MIN_QUALITY, StackReader

__all__ = ["FineLook", "FINE", "FINE_BAND", "FINE_MAN_FIT", "MIN_SHIFT", "SMOOTH"]

FINE = 2            # times the top view's resolution
SMOOTH = 1.6        # pixels (at the finer resolution) of the Gaussian the window is smoothed by
#: the band (as :data:`vision.kings.BAND`, the shift in the top view's pixels) of a white and a black piece; only
#: black pieces are looked at this way. The middle between black men and kings, each board's start bias taken off,
#: and the half-width and quality floor of the first look's black band, set on the dev seeds' still positions
FINE_BAND = ((0.0, 0.0, (-1.0, 1.0), 1.0), (-0.01, -0.13, (-1.0, 1.0), 0.3))
#: a black start man's usual fit off the band's middle (dev seeds): a board's start men's median off it is its bias
FINE_MAN_FIT = -0.75
#: top-view pixels of the king's extra parallax under which the finer look is not asked: on the rows nearest the
#: camera it separates black men and kings worse than the top view (dev seeds: d' 4.8 against 5.4), and there a
#: black man whose first fit leaned to a king was fitted as one (seed 7 board 4 position 18 square 42, shift 2.8)
MIN_SHIFT = 4.0
PADDING = 255       # the label of a pixel outside the view (as StackReader.padded)


class FineLook:
    """The finer look of a calibrated view: ``maps`` the top view's remap tables (margin included), ``stacks`` the
    top view's stack reader, ``static`` its padded frame pixels of a piece's colour (or None), ``bias`` the black
    start men's bias at this resolution."""

    def __init__(self, maps: tuple[np.ndarray, np.ndarray], stacks: StackReader, static: np.ndarray | None,
                 bias: float = 0.0):
        self.maps, self.coarse, self.static, self.bias = maps, stacks, static, bias
        self._reader: StackReader | None = None
        self._cache: dict[tuple[int, int], tuple[np.ndarray, ...]] = {}

    @property
    def reader(self) -> StackReader:
        """The stack reader at ``FINE`` times the resolution (built on first use: only doubtful black pieces)."""
        if self._reader is None:
            c = self.coarse
            self._reader = StackReader(c.pose, c.n, c.px * FINE, c.margin * FINE, c.squares, c.radius, c.height,
                                       c.noise * FINE * FINE, (0.0, self.bias), fine=FINE, bands=FINE_BAND,
                                       floor=MIN_QUALITY)
        return self._reader

    def asks(self, rc: tuple[int, int]) -> bool:
        """Whether the finer look is asked about a piece on square ``rc`` (its shift at least ``MIN_SHIFT``)."""
        return self.coarse.models[rc].shift >= MIN_SHIFT

    def see(self, image: np.ndarray, gain: np.ndarray, classes: Callable[[np.ndarray], np.ndarray],
            squares) -> tuple[np.ndarray, np.ndarray]:
        """The padded labelled view and brightness at the finer resolution, filled on the windows of ``squares``
        only: ``image`` the picture, ``gain`` the light's gain a pixel of the top view (margin included),
        ``classes`` the classifier's colour look-up; frame pixels of a piece's colour (``static``) are left out."""
        return self.view(image, gain, classes, squares, SMOOTH)

    def view(self, image: np.ndarray, gain: np.ndarray, classes: Callable[[np.ndarray], np.ndarray],
             squares, smooth: float) -> tuple[np.ndarray, np.ndarray]:
        """What :meth:`see` gives, the windows smoothed by a Gaussian of ``smooth`` pixels (:mod:`vision.soft_look`:
        more than ``SMOOTH``)."""
        r = self.reader
        side = r.n * r.px + 2 * r.margin + 2 * r.border
        labels = np.full((side, side), PADDING, np.uint8)
        grey = np.zeros((side, side), np.uint8)
        s = r.size
        for rc in squares:
            y0, x0 = r.models[rc].window
            gx, gy, mx, my, outside = self._sampling(rc)
            pic = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            g = cv2.remap(gain, gx, gy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            plain = cv2.GaussianBlur(cv2.multiply(pic, g, dtype=cv2.CV_8U), (0, 0), smooth)
            lab = classes(plain)
            lab[outside] = PADDING
            labels[y0:y0 + s, x0:x0 + s] = lab
            bright = cv2.cvtColor(plain, cv2.COLOR_BGR2GRAY)
            bright[outside] = 0
            grey[y0:y0 + s, x0:x0 + s] = bright
        return labels, grey

    def _sampling(self, rc: tuple[int, int]) -> tuple[np.ndarray, ...]:
        """Square ``rc``'s finer window (kept: the calibration fixes it): its pixels' coordinates in the top view
        (margin included; pixel centres, as a resize by ``FINE`` places them), in the picture (the top view's remap
        tables interpolated there), and the pixels outside the top view or on its frame pixels of a piece's colour
        (``static``)."""
        if rc not in self._cache:
            r = self.reader
            y0, x0 = r.models[rc].window
            ys = ((np.arange(y0, y0 + r.size) - r.border + 0.5) / FINE - 0.5).astype(np.float32)
            xs = ((np.arange(x0, x0 + r.size) - r.border + 0.5) / FINE - 0.5).astype(np.float32)
            gx, gy = np.meshgrid(xs, ys)
            mx = cv2.remap(self.maps[0], gx, gy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            my = cv2.remap(self.maps[1], gx, gy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            side = self.maps[0].shape[0]
            outside = (np.minimum(gx, gy) < -0.5) | (np.maximum(gx, gy) > side - 0.5)
            if self.static is not None:
                b = self.coarse.border
                outside |= cv2.remap(self.static.astype(np.uint8), gx + b, gy + b, cv2.INTER_NEAREST,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=0) > 0
            self._cache[rc] = (gx, gy, mx, my, outside)
        return self._cache[rc]

    def fits(self, image: np.ndarray, gain: np.ndarray, classes: Callable[[np.ndarray], np.ndarray], squares,
             black: int) -> tuple[np.ndarray, np.ndarray]:
        """The finer fit and its quality (:meth:`vision.kings.StackReader.fits`) of the black pieces on ``squares``
        (``black`` their class), every one of them looked at (calibration, measurement)."""
        pieces = [(rc, black) for rc in squares]
        return self.reader.fits(*self.see(image, gain, classes, squares), pieces, None, black)
