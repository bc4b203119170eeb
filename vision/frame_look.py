"""A piece on the board's edge whose king's top would reach over the frame: the stack's look with the frame left out.

A king is two stacked men (FPD 000 art. 3.1 d, FMJD 002 art. 3.5), told by its height seen in perspective
(:mod:`vision.kings`): its top disc is displaced away from the camera, on the edge rows farthest from it by up to
half a square beyond the board's outline, over the frame. Calibration marks the frame's pixels that the empty board
shows in a piece's colour (a dark frame reads as the black pieces' colour) as *static*, and the first look counts
them as "no piece": a king's top over them takes from the king's fit and adds to the man's, the better model then
fits it badly (on the still positions of dev seeds 20, 22-25, 14 of the 16 white kings left "king unknown" for
their fit's quality on the farthest rows stood on such an edge square), and a man's, whose top stays on the board,
hardly changes. Here such a piece is fitted again by a reader of its own for which those pixels say nothing
either way (``StackReader.frame_unseen``), its models' ideal gaps and scores measured on the same windows with the
same pixels left out (the scale the first band and the start bias were set on: a perfect man still fits -1 and a
perfect king +1); the first band, the calibrated start bias (:func:`vision.kings_calibration.start_bias`) and the
first look's quality floor judge it. It reads the second look's view (the light within the square,
:mod:`vision.shading`), and like every look settles a piece only where two fits agree
(:meth:`vision.kings.StackReader.read`); but on these squares the first fit is the one the frame pulled towards a
man (5 of those 16 kings leaned to a man; with the frame left out every one fitted above the band), so the side
the piece must have leaned to is the one this look's reader fits on the first view (``Look.own_lean``). Squares
whose king's silhouette covers fewer than ``MIN_PIXELS`` static pixels are not its: the look would see little
new.

On these squares the first look, too, fits with this look's reader (``StackReader.read``'s ``first``, vision25):
counted as "no piece", the frame pulled white kings there not only into the band but past it, and the first look
said "man" of them (6 of the 15 wrong claims on the dev seeds 11, 13, 20-29), which no later look may take back.
With the frame's pixels saying nothing, every white piece on these squares of those seeds (333 men, 127 kings) fits
on its own side of the band's middle: the men at least 0.26 under it, the kings at least 0.24 over it.
"""

from __future__ import annotations

import copy

import numpy as np

from vision.kings import StackReader

__all__ = ["FrameLook", "MIN_PIXELS"]

#: static pixels a king's silhouette must cover for this look to ask (about 2 % of it: a few pixels of the frame's
#: outline beside a piece, blurred into a piece's colour, change little)
MIN_PIXELS = 20


class FrameLook:
    """The frame look of a calibrated view: ``stacks`` the top view's stack reader (its start bias calibrated),
    ``static`` its padded frame pixels of a piece's colour (None: no such pixels, the look asks nothing)."""

    def __init__(self, stacks: StackReader, static: np.ndarray | None):
        self.coarse, self.static = stacks, static
        self.covered = self._covered(static) if static is not None else {}
        self._reader: StackReader | None = None

    def asks(self, rc: tuple[int, int]) -> bool:
        """Whether a piece on square ``rc`` is this look's (its king's silhouette reaches the static pixels)."""
        return rc in self.covered

    def _covered(self, static: np.ndarray) -> dict[tuple[int, int], np.ndarray]:
        """The ``static`` pixels of each square's observation window, for the squares where a king's silhouette,
        standing on the square's centre, covers at least ``MIN_PIXELS`` of them (beyond the silhouettes they count
        against both models alike: leaving them out there changes no fit)."""
        c = self.coarse
        s = c.size
        king = c._perfect(c.radius, 2 * c.height)[:, :s, :s, 0] > 0
        out = {}
        for i, rc in enumerate(c.squares):
            y0, x0 = c.models[rc].window
            frame = static[y0:y0 + s, x0:x0 + s]
            if int((frame & king[i]).sum()) >= MIN_PIXELS:
                out[rc] = frame.copy()
        return out

    @property
    def reader(self) -> StackReader:
        """The top view's reader for which the static pixels say nothing, its ideal gaps and own scores measured
        with them left out on this look's squares (built on first use: only doubtful pieces on them ask)."""
        if self._reader is None:
            c = self.coarse
            reader = copy.copy(c)  # the same templates, band, bias and floor
            reader.frame_unseen = True
            reader.ideal, reader.own = c.ideal.copy(), c.own.copy()
            if self.covered:
                s = c.size
                idx = np.array([c.index[rc] for rc in self.covered])
                frame = np.stack(list(self.covered.values()))
                for m, h in enumerate((c.height, 2 * c.height)):
                    win = c._perfect(c.radius - c.eroded / c.px, h)[idx]
                    win[:, :s, :s, 0][frame] = 0
                    win[:, :s, :s, 1][frame] = 0
                    for b in range(reader.ideal.shape[1]):
                        best = c._best(win, idx, np.full(len(idx), b))
                        reader.ideal[idx, b, m] = best[:, 1] - best[:, 0]
                        reader.own[idx, b, m] = np.maximum(best[:, m], 1.0)
            self._reader = reader
        return self._reader
