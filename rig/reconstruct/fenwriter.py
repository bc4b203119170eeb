"""The FEN of the engine's positions, written once per colour's set of pieces.

Every move entry carries the FEN after it (``MoveEntry.fen_after``). Between two
consecutive positions one colour's pieces usually stay as they were (only a capture
changes the opponent's), so the writer keeps each colour's part of the FEN by its
bitboards and writes only the part that changed. The text is exactly
:meth:`rig.board.Board.fen` (rig.fen.make_fen: squares ascending, runs of three or
more numbers as ranges, kings prefixed ``K``, algebraic names without ranges).
"""

from __future__ import annotations

from rig.board import Board
from rig.geometry import geometry
from rig.variants import Variant

__all__ = ["FenWriter"]


class FenWriter:
    """``fen(board)`` equals ``board.fen()``; each colour's part is kept by its (men, kings) bitboards."""

    __slots__ = ("_sq", "_names", "_parts", "_limit")

    def __init__(self, variant: Variant, limit: int = 256):
        g = geometry(variant)
        self._sq = g.sq
        self._names = {s: variant.square_name(s) for s in range(1, variant.squares + 1)} if variant.algebraic \
            else None
        self._parts: dict[tuple[str, int, int], str] = {}
        self._limit = limit

    def fen(self, board: Board) -> str:
        return ("W:" if board.turn else "B:") + self._part("W", board.wm, board.wk) + ":" \
            + self._part("B", board.bm, board.bk)

    def _part(self, colour: str, men: int, kings: int) -> str:
        key = (colour, men, kings)
        part = self._parts.get(key)
        if part is None:
            items = self._items(men, "") + self._items(kings, "K")
            part = colour + ",".join(items)
            if len(self._parts) >= self._limit:
                self._parts.clear()
            self._parts[key] = part
        return part

    def _items(self, mask: int, prefix: str) -> list[str]:
        sq = self._sq
        squares = []
        while mask:
            low = mask & -mask
            squares.append(sq[low.bit_length() - 1])
            mask ^= low
        squares.sort()
        names = self._names
        if names is not None:
            return [prefix + names[s] for s in squares]
        out: list[str] = []
        i, n = 0, len(squares)
        while i < n:
            j = i
            while j + 1 < n and squares[j + 1] == squares[j] + 1:
                j += 1
            if j - i >= 2:
                out.append(f"{prefix}{squares[i]}-{squares[j]}")
            else:
                out.extend(f"{prefix}{squares[k]}" for k in range(i, j + 1))
            i = j + 1
        return out
