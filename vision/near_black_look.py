"""A black piece on the rows nearest the camera: the soft look's window, claiming a king only far clear of its band.

A king is two stacked men (FPD 000 art. 3.1 d, FMJD 002 art. 3.5), told by where its top lies against its wall
(:mod:`vision.kings`). On the rows nearest the camera (a king's extra parallax under
:data:`vision.fine_look.MIN_SHIFT`) a king's top stands only 2.5-4 pixels beyond a man's in the top view, and a
black piece's top is only about 18 grey levels over its wall: the first and the second look leave black kings there
"king unknown" (their fits in the band), and the finer and soft looks are not asked there (at twice the resolution
smoothed by 1.6 pixels men and kings separate worse than in the top view). Smoothed by
:data:`vision.soft_look.SOFT` pixels (the soft look's window, its reader, band and start bias), the near-row black
kings the earlier looks leave unknown fit +0.6 over the band's middle on the median, but a man can reach +0.46
there, and the first fit of such a king often leaned to a man. So this look, asked only about those pieces (no glare
reaching the window: the glare look's), settles a king alone (``Look.alone``: whatever side the earlier fits leaned
to) where its fit stands at least the soft band's half-width (``0.30``) over the band's middle and the better model
fits at least ``FLOOR`` of its ideal; it never settles a man (``StackReader.men``: a man left unknown costs nothing,
the rules give his stack).

The first look, for its part, is wary on those squares (``WARY``, :meth:`vision.kings.StackReader.read`'s ``wary``):
a black piece's first fit must lie that far past the band to be claimed there, where the first look's wrong claims of
black pieces on the nearest rows stood just past it (dev seeds: a man said king 0.009 past, a king said man 0.016
past). The looks after it are not: the second look's claims that close to the band there were all right.
"""

from __future__ import annotations

import copy
from typing import Callable

import numpy as np

from vision.fine_look import MIN_SHIFT
from vision.kings import MIN_QUALITY, StackReader
from vision.soft_look import SoftLook

__all__ = ["NearBlackLook", "FLOOR", "WARY"]

#: the least share of its own ideal the better model must score (the soft look's floor: 0.78) for a king's claim
FLOOR = 0.88
#: how far past the first band a black piece's first fit on the nearest rows must lie for the first look to claim it
WARY = 0.03


class NearBlackLook:
    """The near black look of a calibrated view: ``soft`` its soft look (the window, the reader's templates, band and
    black start bias are that look's)."""

    def __init__(self, soft: SoftLook):
        self.soft = soft
        self._reader: StackReader | None = None

    @property
    def reader(self) -> StackReader:
        """The soft look's reader claiming only kings, with the better model at least ``FLOOR`` of its ideal."""
        if self._reader is None:
            reader = copy.copy(self.soft.reader)
            reader.floor = (MIN_QUALITY[0], FLOOR)
            reader.men = False
            self._reader = reader
        return self._reader

    def asks(self, rc: tuple[int, int]) -> bool:
        """Whether a black piece on square ``rc`` is this look's (the king's extra parallax under ``MIN_SHIFT``)."""
        return self.soft.fine.coarse.models[rc].shift < MIN_SHIFT

    def wary(self, rc: tuple[int, int], black: bool) -> float:
        """How far past the first band the first look's fit of a piece on ``rc`` must lie to claim it (``WARY`` for a
        black piece on this look's squares, else 0)."""
        return WARY if black and self.asks(rc) else 0.0

    def see(self, image: np.ndarray, gain: np.ndarray, classes: Callable[[np.ndarray], np.ndarray],
            squares) -> tuple[np.ndarray, np.ndarray]:
        """The soft look's view of the windows of ``squares`` (:meth:`vision.soft_look.SoftLook.see`)."""
        return self.soft.see(image, gain, classes, squares)
