"""The FEN of the engine's positions, each bitboard written once.

Every move entry carries the FEN after it (``MoveEntry.fen_after``). Between two
consecutive positions only the mover's men or kings and the captured pieces change,
so the writer keeps the text of each men or kings bitboard it has written and writes
only what changed (byte by byte: a table gives the squares of each byte). The text is
exactly :meth:`rig.board.Board.fen` (rig.fen.make_fen: squares ascending, runs of three
or more numbers as ranges, kings prefixed ``K``, algebraic names without ranges)."""

from __future__ import annotations

from functools import lru_cache

from rig.board import Board
from rig.geometry import geometry
from rig.variants import Variant

__all__ = ["FenWriter"]


@lru_cache(maxsize=None)
def _byte_squares(variant: Variant) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The squares of each byte of a bitboard: ``[k][byte]`` -> the squares of bits 8k..8k+7 set in
    ``byte``, ascending."""
    sq = geometry(variant).sq
    top = len(sq)
    table = []
    for k in range((top + 7) // 8):
        # the subsets of the byte's squares, built bit by bit: index ``byte`` holds the squares of its set bits
        subsets: list[tuple[int, ...]] = [()]
        for b in range(8 * k, 8 * k + 8):
            s = sq[b] if b < top else 0
            subsets += [t + (s,) for t in subsets] if s else subsets
        table.append(tuple([tuple(sorted(t)) for t in subsets]))
    return tuple(table)


@lru_cache(maxsize=None)
def _square_names(variant: Variant) -> dict[int, str]:
    return {s: variant.square_name(s) for s in range(1, variant.squares + 1)}


class FenWriter:
    """``fen(board)`` equals ``board.fen()``. Each colour's men and kings are written once per bitboard
    (a move rewrites only the mover's men or kings, and the captured ones)."""

    __slots__ = ("_chunks", "_names", "_items", "_limit")

    def __init__(self, variant: Variant, limit: int = 512):
        self._chunks = _byte_squares(variant)
        self._names = _square_names(variant) if variant.algebraic else None
        self._items: dict[tuple[int, bool], str] = {}
        self._limit = limit

    def fen(self, board: Board) -> str:
        return self.fen_of(board.wm, board.wk, board.bm, board.bk, board.turn)

    def fen_of(self, wm: int, wk: int, bm: int, bk: int, white: bool) -> str:
        """The FEN of the position with these bitboards, ``white`` to move."""
        items = self._items
        get = items.get
        wmt = get((wm, False))
        if wmt is None:
            wmt = self._write(wm, False)
        wkt = get((wk, True))
        if wkt is None:
            wkt = self._write(wk, True)
        bmt = get((bm, False))
        if bmt is None:
            bmt = self._write(bm, False)
        bkt = get((bk, True))
        if bkt is None:
            bkt = self._write(bk, True)
        return ("W:W" if white else "B:W") + (wmt + "," + wkt if wmt and wkt else wmt or wkt) + ":B" \
            + (bmt + "," + bkt if bmt and bkt else bmt or bkt)

    def _write(self, mask: int, king: bool) -> str:
        """The comma-separated items of the pieces on ``mask``, kept for the next positions."""
        squares: list[int] = []
        chunks = self._chunks
        k = 0
        m = mask
        while m:
            byte = m & 255
            if byte:
                squares.extend(chunks[k][byte])
            m >>= 8
            k += 1
        squares.sort()
        prefix = "K" if king else ""
        names = self._names
        if names is not None:
            text = ",".join([prefix + names[s] for s in squares])
        else:
            out: list[str] = []
            i, n = 0, len(squares)
            while i < n:
                j = i
                while j + 1 < n and squares[j + 1] == squares[j] + 1:
                    j += 1
                if j - i >= 2:
                    out.append(f"{prefix}{squares[i]}-{squares[j]}")
                else:
                    out.extend(f"{prefix}{squares[x]}" for x in range(i, j + 1))
                i = j + 1
            text = ",".join(out)
        if len(self._items) >= self._limit:
            self._items.clear()
        self._items[(mask, king)] = text
        return text
