"""Which matrix cell is which square.

The standard wiring puts one board line on each matrix row and the dark
squares of that line, in order, on the columns: ``axis="ranks"`` means row
``i`` is a rank and column ``j`` the ``j``-th dark square of that rank
counted from file a; ``axis="files"`` is the same board turned a quarter
(row = file, column = the dark squares of that file counted from rank 1).
A board built the other way round, mirrored, or with crossed wires is the
same structure with the rows and columns permuted, which is what
:func:`structured_map` takes. :class:`CellMap` itself is just the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterator

from rig.variants import Variant
from sensors.errors import MatrixConfigError

__all__ = ["Cell", "CellMap", "line_squares", "structured_map", "default_cellmap"]

Cell = tuple[int, int]
AXES = ("ranks", "files")


@dataclass(frozen=True)
class CellMap:
    """``cells[row][col]`` is the square number under matrix cell (row, col)."""

    variant: Variant
    cells: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        v = self.variant
        object.__setattr__(self, "cells", tuple(tuple(r) for r in self.cells))
        if len(self.cells) != v.size or any(len(r) != v.half for r in self.cells):
            raise MatrixConfigError(f"a {v.name} cell map is {v.size} rows of {v.half} squares")
        seen = [s for r in self.cells for s in r]
        bad = [s for s in seen if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= v.squares]
        if bad:
            raise MatrixConfigError(f"not {v.name} squares in the cell map: {bad}")
        missing = sorted(set(range(1, v.squares + 1)) - set(seen))
        twice = sorted({s for s in seen if seen.count(s) > 1})
        if missing or twice:
            raise MatrixConfigError(
                "the cell map must name every square once"
                + (f"; missing: {missing}" if missing else "") + (f"; twice: {twice}" if twice else ""))

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.cells), len(self.cells[0])

    def square(self, cell: Cell) -> int:
        return self.cells[cell[0]][cell[1]]

    @cached_property
    def _cell_of(self) -> dict[int, Cell]:
        return {s: (r, c) for r, row in enumerate(self.cells) for c, s in enumerate(row)}

    def cell(self, square: int) -> Cell:
        try:
            return self._cell_of[square]
        except KeyError:
            raise MatrixConfigError(f"square {square!r} is not in the {self.variant.name} cell map") from None

    def squares_of(self, cells: Iterator[Cell] | set[Cell] | frozenset[Cell]) -> frozenset[int]:
        return frozenset(self.cells[r][c] for r, c in cells)

    def cells_of(self, squares) -> frozenset[Cell]:
        return frozenset(self._cell_of[s] for s in squares)

    def to_lists(self) -> list[list[int]]:
        return [list(r) for r in self.cells]


def line_squares(variant: Variant, axis: str, line: int) -> list[int]:
    """The dark squares of a rank (``axis="ranks"``) or file, in order from file a / rank 1."""
    if axis not in AXES:
        raise MatrixConfigError(f"axis must be one of {AXES}, not {axis!r}")
    out = []
    for k in range(variant.size):
        f, r = (k, line) if axis == "ranks" else (line, k)
        sq = variant.square_at(f, r)
        if sq is not None:
            out.append(sq)
    return out


def structured_map(variant: Variant, axis: str = "ranks", row_lines=None, col_positions=None) -> CellMap:
    """The map of a board wired line by line: matrix row ``i`` is line ``row_lines[i]``,
    matrix column ``j`` the ``col_positions[j]``-th dark square of the line."""
    v = variant
    row_lines = tuple(range(v.size)) if row_lines is None else tuple(row_lines)
    col_positions = tuple(range(v.half)) if col_positions is None else tuple(col_positions)
    if sorted(row_lines) != list(range(v.size)) or sorted(col_positions) != list(range(v.half)):
        raise MatrixConfigError(f"row_lines must permute 0..{v.size - 1} and col_positions 0..{v.half - 1}")
    lines = [line_squares(v, axis, ln) for ln in range(v.size)]
    return CellMap(v, tuple(tuple(lines[row_lines[i]][col_positions[j]] for j in range(v.half))
                                 for i in range(v.size)))


def default_cellmap(variant: Variant) -> CellMap:
    """The standard wiring: row i = rank i (white's first row is row 0), column j = j-th dark square from file a."""
    return structured_map(variant)
