"""A dim black piece on the middle and farthest rows: the finer look's window smoothed more, where the finer look
abstains.

A king is two stacked men (FPD 000 art. 3.1 d, FMJD 002 art. 3.5), told by where its top lies against its wall
(:mod:`vision.kings`). A black piece's top is only about 18 grey levels brighter than its wall at an even light;
on a dim board, or inside a shadow band, that step shrinks to a dozen levels or less, and a picture compressed hard
(JPEG quality 70-80) turns it into blocks and ringing the finer look's smoothing (:data:`vision.fine_look.SMOOTH`,
1.6 pixels at twice the top view's resolution) leaves in place: on the dev seeds' still positions the black kings
the earlier looks left "king unknown" on the middle rows (a king's extra parallax ``MIN_SHIFT`` .. ``MAX_SHIFT``)
were nearly all on such boards (JPEG 70: 10 of 580 kings, 95: 1 of 561; light under 0.8: 10 of 732, 0.9 or more: 2
of 769), their finer fit 0 .. 0.3 over the finer band's middle. Smoothed by ``SOFT`` pixels instead, black men and
kings on those rows separate better (d' 6.9 against 6.4, each board's own start bias taken off) and those kings fit
above the band. Here such a piece, when every earlier look leaves it unknown and no glare reaches its window (the
glare look's), is fitted once more by the finer look's reader (its templates shared) on its window smoothed by
``SOFT``, with a start bias of its own (:func:`vision.kings_calibration.soft_bias`, from the start position:
smoothing lowers every fit), judged by the finer band moved with it (``SOFT_BAND``) and the finer floor. It settles
a piece only where every fit of it so far (the first, the second look's, the finer look's, each against its own
band's middle) leaned to the side it settles (``Look.unanimous``, :meth:`vision.kings.StackReader.read`): with the
first fit's side alone it called a black man a king on the bench's seed 2 (board 6, position 7, square 3: under a
shadow band's edge, the first fit 0.06 on a king's side of the middle, the second look's and the finer fits on a
man's, the soft fit 0.44 over its middle). The rows nearest the camera are not its (the finer look's own limit).
The farthest rows (left out until vision28, unmeasured: the top is small there, and smoothing may blur it into the
wall) are since vision28: there the black kings every look left unknown were the largest class of wrong squares on
the bench's seeds 1-9, their finer fits just inside its band, and the unanimous rule keeps the men out.
"""

from __future__ import annotations

import copy
from typing import Callable

import numpy as np

from vision.fine_look import FINE_BAND, MIN_SHIFT, FineLook
from vision.kings import StackReader

__all__ = ["SoftLook", "SOFT", "SOFT_BAND", "SOFT_LOWER", "MIN_SHIFT", "MAX_SHIFT"]

#: pixels (at the finer look's resolution) of the Gaussian a doubtful window is smoothed by (the finer look's: 1.6).
#: Dev seeds' black pieces on the middle rows, d' between men and kings: 6.4 at 1.6, 6.9 at 2.4 and 3.2, 6.5 at 4.0
SOFT = 3.2
#: top-view pixels of the king's extra parallax from which the look is not asked: none since vision28. Until then
#: 8.0, the farthest rows left out unmeasured (a small top smoothed into its wall); there the fine look's fits of the
#: black kings every look left unknown lay just inside its band (bench seeds 1-9: the largest class of wrong
#: squares), and the soft window, asked only where every fit so far leaned to a king, settles
#: them (docs/camera.md, vision28)
MAX_SHIFT = float("inf")
#: how far under the finer look's a black start man's soft fit lies on the median board (dev seeds 20 and 24: the
#: start men's soft bias, against a man's usual finer fit :data:`vision.fine_look.FINE_MAN_FIT`, -0.32 on the median
#: board): smoothing lowers every fit, so the finer band's middle is moved down by as much (a board's own start bias
#: then lies about 0, well within ``BIAS_MAX``), the band's width and the usual man's distance below it kept
SOFT_LOWER = 0.3
#: the band (as :data:`vision.kings.BAND`) of a black piece: the finer band moved down by ``SOFT_LOWER``
SOFT_BAND = (FINE_BAND[0], (FINE_BAND[1][0] - SOFT_LOWER, FINE_BAND[1][1],
                            (FINE_BAND[1][2][0] - SOFT_LOWER, FINE_BAND[1][2][1] - SOFT_LOWER), FINE_BAND[1][3]))


class SoftLook:
    """The soft look of a calibrated view: ``fine`` its finer look (the resolution, the sampling and the reader's
    templates are that look's), ``bias`` the black start men's bias with the window smoothed by ``SOFT``."""

    def __init__(self, fine: FineLook, bias: float = 0.0):
        self.fine, self.bias = fine, bias
        self._reader: StackReader | None = None

    @property
    def reader(self) -> StackReader:
        """The finer look's reader (the same templates and floor) with this look's own band and black start bias."""
        if self._reader is None:
            reader = copy.copy(self.fine.reader)
            reader.bias = np.array((0.0, self.bias), np.float64)
            reader.bands = SOFT_BAND
            self._reader = reader
        return self._reader

    def asks(self, rc: tuple[int, int]) -> bool:
        """Whether a black piece on square ``rc`` is this look's (the middle and farthest rows: the king's extra
        parallax from ``MIN_SHIFT`` to under ``MAX_SHIFT``)."""
        return MIN_SHIFT <= self.fine.coarse.models[rc].shift < MAX_SHIFT

    def see(self, image: np.ndarray, gain: np.ndarray, classes: Callable[[np.ndarray], np.ndarray],
            squares) -> tuple[np.ndarray, np.ndarray]:
        """The finer look's padded labelled view and brightness on the windows of ``squares``, smoothed by ``SOFT``
        (:meth:`vision.fine_look.FineLook.view`)."""
        return self.fine.view(image, gain, classes, squares, SOFT)

    def fits(self, image: np.ndarray, gain: np.ndarray, classes: Callable[[np.ndarray], np.ndarray], squares,
             black: int) -> tuple[np.ndarray, np.ndarray]:
        """This look's fit and its quality of the black pieces on ``squares`` (``black`` their class), every one of
        them looked at (calibration, measurement)."""
        pieces = [(rc, black) for rc in squares]
        return self.reader.fits(*self.see(image, gain, classes, squares), pieces, None, black)
