"""A white piece on the rows nearest the camera: the stack's look where a king's fit falls in the band's lower half.

A king is two stacked men (FPD 000 art. 3.1 d, FMJD 002 art. 3.5), told by its height seen in perspective
(:mod:`vision.kings`). On the rows nearest the camera a king's top stands only 2.5-5 pixels beyond a man's in the
top view, and the first band (:data:`vision.kings.BAND`, its middle rising as the shift falls) sits too high there
for a white piece: on the dev seeds' still positions (11, 13, 20-29) the white men of those rows (shift under
``NEAR_SHIFT``) never fitted above the band's middle, while a white king fitted as low as 0.2 under it. Kings fall
lower still on a board whose white start men fitted towards a king (:func:`vision.kings_calibration.start_bias`,
``king_bias``): the kings do not carry that bias in full (on the boards whose bias was 0.4 or more, taking the
whole of it off moved the kings' median fit down 0.22 and the men's 0.16). Where the earlier looks leave such a
white piece "king unknown" (and no glare reaches its window: the glare look's), the second look's view (the light within
the square, :mod:`vision.shading`) is judged again by a band of its own (``NEAR_BAND``: a king from the first band's
middle, a man from 0.3 under it) with ``BIAS_KEPT`` of the board's white start bias taken off, the better model at
least the first look's quality floor. Like every look it settles a piece only where two fits agree
(:meth:`vision.kings.StackReader.read`); but the first band's middle, the side the first fit is judged by elsewhere,
is the one this look corrects: on the dev seeds' still positions (11, 13, 20-29) this look fitted 14 white pieces
clear of its band, on a king's side, without settling them, every one a king whose first fit lay 0.01-0.32 under the
first band's middle. So the side the piece leaned to is this look's own fit of the first view (``BIAS_KEPT`` of the
bias off) against this look's own band's middle (``Look.own_lean``): a king where both fits stand above
``NEAR_BAND``'s middle and this look's fit above its king edge (11 of those 14 kings, no man), a man where both stand
under it and this look's fit under its man edge.
"""

from __future__ import annotations

import copy

from vision.kings import BAND, StackReader

__all__ = ["NearLook", "NEAR_BAND", "NEAR_SHIFT", "BIAS_KEPT"]

#: top-view pixels of the king's extra parallax under which a white piece is this look's (the rows nearest the
#: camera; dev seeds: there the middle between white men and kings lies 0.11-0.16 under the first band's)
NEAR_SHIFT = 5.0
#: the band (as :data:`vision.kings.BAND`) of a white and a black piece: white, a king from the first band's
#: middle, a man from 0.3 under it; black pieces are not looked at this way (their band unchanged)
NEAR_BAND = ((BAND[0][0] - 0.15, BAND[0][1], BAND[0][2], 0.15), BAND[1])
#: share of the board's white start bias this look takes off a fit (the kings do not carry the start men's bias)
BIAS_KEPT = 0.5


class NearLook:
    """The near look of a calibrated view: ``stacks`` the top view's stack reader (its start bias calibrated)."""

    def __init__(self, stacks: StackReader):
        self.coarse = stacks
        reader = copy.copy(stacks)  # the same templates and windows, its own band and bias
        reader.bands = NEAR_BAND
        reader.bias = stacks.bias * (BIAS_KEPT, 1.0)
        self.reader = reader

    def asks(self, rc: tuple[int, int]) -> bool:
        """Whether a white piece on square ``rc`` is this look's (the king's extra parallax under ``NEAR_SHIFT``)."""
        return self.coarse.models[rc].shift < NEAR_SHIFT
