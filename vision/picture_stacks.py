"""Man or king on every occupied square of one picture: the stack reader's looks, built and asked in order.

A king is two stacked men (FPD 000 art. 3.1 d, FMJD 002 art. 3.5), told by its height seen in perspective
(:mod:`vision.kings`). The first look fits every piece on the picture's labelled top view; a piece whose fit says
neither is looked at again (:meth:`vision.kings.StackReader.read`): the light within the square
(:mod:`vision.shading`, the second look), glare's white taken off first where glare reaches the piece's window
(:mod:`vision.glare_look`), then the later looks in their order (:mod:`vision.looks`). On the squares where a king's
top reaches over the frame the first look leaves the frame's pixels out (:mod:`vision.frame_look`); on the nearest
rows the first look claims a black piece only past its band (:mod:`vision.near_black_look`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import cv2
import numpy as np

from vision.colour import BLACK, LIGHT, WHITE
from vision.kings import Look
from vision.looks import later_looks

if TYPE_CHECKING:
    from vision.classify import Classifier

__all__ = ["read_stacks"]


def read_stacks(clf: "Classifier", lab_full: np.ndarray, corrected: np.ndarray, pieces, gain_full: np.ndarray,
                image: np.ndarray) -> dict:
    """(row, col) -> (fit, known, king) of ``pieces`` ((row, col), colour class) in one picture read by ``clf`` (its
    stack reader calibrated): ``lab_full`` the labelled top view and ``corrected`` its light-corrected pixels (margin
    included), ``gain_full`` the light's gain a pixel, ``image`` the picture as taken (the finer looks read it)."""
    stacks = clf.stacks
    grey = stacks.padded(cv2.cvtColor(corrected, cv2.COLOR_BGR2GRAY), 0)
    lab_padded = stacks.padded(lab_full)
    shaded: list = []  # the second look's view, kept for the near look

    def closer(doubt, glare: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The light within a square (vision.shading); with ``glare``, glare's white taken off first
        (vision.glare_look: left on, the light squares read it as more light)."""
        lab2, grey2 = lab_padded.copy(), grey.copy()
        b = stacks.border
        boxes = stacks.boxes(doubt)
        plain, lab_plain = corrected, lab_full
        if glare:
            plain, lab_plain = clf._glare_field.without(corrected, lab_full, gain_full, clf._glare, boxes,
                                                        clf._classes)
        for box in boxes:
            relit, (ys, xs) = clf._fine.relit(plain, lab_plain, LIGHT, (WHITE, BLACK), box)
            at = (slice(ys.start + b, ys.stop + b), slice(xs.start + b, xs.stop + b))
            lab2[at] = clf._classes(relit)
            grey2[at] = cv2.cvtColor(relit, cv2.COLOR_BGR2GRAY)
        shaded.extend([] if glare else [(lab2, grey2)])
        return lab2, grey2

    looks = [Look(closer)]
    glared: Callable[[tuple[int, int]], bool] = lambda rc: False  # noqa: E731
    if clf._glare.any():  # a third look where glare reaches a doubtful piece's window
        white = clf._glare_field.field(clf._glare)
        glared = lambda rc: clf._glare_field.reaches(white, stacks.boxes([rc])[0])  # noqa: E731
        looks.append(Look(lambda doubt: closer(doubt, glare=True), glared))
    black = {rc for rc, c in pieces if c == BLACK}
    # the finer looks read the picture as taken (vision.fine_look, vision.soft_look), the others the second's
    looks += later_looks(clf.fine_look, clf.near_look, clf.frame_look, clf.soft_look, clf.near_black_look,
                         lambda look, doubt: look.see(image, gain_full, clf._classes, doubt), lambda: shaded[0],
                         black, glared)
    frame = clf.frame_look  # on its squares the first look leaves the frame's pixels out (vision.frame_look)
    first = (frame.asks, frame.reader) if frame is not None and frame.covered else None
    # the first look claims a black piece on the nearest rows only past its band (vision.near_black_look)
    wary = clf.near_black_look.wary if clf.near_black_look is not None else None
    return stacks.read(lab_padded, grey, pieces, clf._static_padded, black=BLACK, again=looks, first=first, wary=wary)
