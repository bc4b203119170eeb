"""The stack's later looks at a doubtful piece, in the order they are asked (:meth:`vision.kings.StackReader.read`).

After the second look (the light within the square, :mod:`vision.shading`) and, where glare reaches the piece's
window, the glare look (:mod:`vision.glare_look`), a piece every look before left "king unknown" is asked about by
each of these in turn, each only on its own squares and never where glare reaches the window (glare's white
brightens a piece's top and wall alike): a black piece at twice the resolution (:mod:`vision.fine_look`), a white
piece on the rows nearest the camera (:mod:`vision.near_look`), a piece whose king's top reaches over the frame
(:mod:`vision.frame_look`), a dim black piece on the middle and farthest rows, the finer window smoothed more
(:mod:`vision.soft_look`), a black piece on the rows nearest the camera, the soft look's window
(:mod:`vision.near_black_look`). Like every look, each settles a piece only where its fit agrees with the first;
the near and frame looks judge the first view by their own reader and band (``Look.own_lean``: the first band's
middle or the frame's pixels are what they correct), the soft look only where every fit of the piece so far agrees
(``Look.unanimous``), and the near black look alone (``Look.alone``: it claims only kings, far clear of its band).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from vision.fine_look import FineLook
from vision.frame_look import FrameLook
from vision.kings import Look
from vision.near_black_look import NearBlackLook
from vision.near_look import NearLook
from vision.soft_look import SoftLook

__all__ = ["later_looks"]

Square = tuple[int, int]
View = tuple[np.ndarray, np.ndarray]


def later_looks(fine: FineLook | None, near: NearLook | None, frame: FrameLook | None, soft: SoftLook | None,
                near_black: NearBlackLook | None, finer: Callable[[FineLook | SoftLook | NearBlackLook, list], View],
                shaded: Callable[[], View], black: set[Square], glared: Callable[[Square], bool]) -> list[Look]:
    """The later looks of one picture: ``finer(look, squares)`` a finer look's view of the picture on those squares,
    ``shaded()`` the second look's view (the light within the square), ``black`` the squares of the black pieces,
    ``glared(rc)`` whether glare reaches a square's window."""
    looks = []
    if black and fine is not None:  # from the picture as taken: a man under glare was fitted as a king
        looks.append(Look(lambda doubt: finer(fine, doubt), lambda rc: rc in black and fine.asks(rc) and not glared(rc),
                          lambda: fine.reader))
    if near is not None:  # the second look's view judged by its own band, the first view's side too
        looks.append(Look(lambda doubt: shaded(), lambda rc: rc not in black and near.asks(rc) and not glared(rc),
                          lambda: near.reader, own_lean=True))
    if frame is not None and frame.covered:  # the side the piece leaned to from the look's own first fit
        looks.append(Look(lambda doubt: shaded(), lambda rc: frame.asks(rc) and not glared(rc), lambda: frame.reader,
                          own_lean=True))
    if black and fine is not None and soft is not None:  # the finer window smoothed more: with the finer look only
        looks.append(Look(lambda doubt: finer(soft, doubt), lambda rc: rc in black and soft.asks(rc) and not glared(rc),
                          lambda: soft.reader, unanimous=True))
    if black and near_black is not None:  # the soft look's window on the nearest rows: a king far clear, alone
        looks.append(Look(lambda doubt: finer(near_black, doubt),
                          lambda rc: rc in black and near_black.asks(rc) and not glared(rc), lambda: near_black.reader,
                          alone=True))
    return looks
