"""Ghosts of a missing diode, read from the frames (docs/reconstruction.md, "Failing switches").

Under each square a reed switch sits in series with a diode, anode on the matrix column, cathode on the
row; the scanner drives one row low at a time and reads the columns (sensors/circuit.py). A cell X whose
diode is missing conducts backwards when closed, so while X, a closed cell A in X's row and a closed cell
B in X's column are all closed, current from the column of A reaches the row of B through A, X (backwards)
and B: the fourth corner G of the rectangle reads closed whatever stands there (a *ghost*). With one
diode-less cell only this one step exists (a longer sneak path needs a second backward step).

:class:`Wiring` is the matrix (which square sits under each cell); :func:`ghost_squares` the squares a
frame cannot be trusted on, or (for one cell) the squares its missing diode would close.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from rig.variants import Variant

__all__ = ["Wiring", "ghost_squares"]


@dataclass(frozen=True)
class Wiring:
    """``cells[row][col]``: the square under matrix cell (row, col) (the scanner's cell map)."""

    cells: tuple[tuple[int, ...], ...]
    _cell: dict[int, tuple[int, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(tuple(int(s) for s in row) for row in self.cells))
        object.__setattr__(self, "_cell", {s: (r, c) for r, row in enumerate(self.cells) for c, s in enumerate(row)})

    @classmethod
    def standard(cls, variant: Variant) -> "Wiring":
        """The standard wiring of ``variant`` (row i = rank i, column j = j-th dark square from file a), as the
        scanner's default cell map wires it (docs/matrix.md)."""
        v = variant
        return cls(tuple(tuple(sq for f in range(v.size) if (sq := v.square_at(f, r)) is not None)
                         for r in range(v.size)))

    @classmethod
    def parse(cls, lists: Any, squares: int) -> "Wiring | None":
        """A wiring from a session's ``wiring`` field (lists of square numbers), or None when it is not one
        naming each of the ``squares`` once."""
        try:
            w = cls(tuple(tuple(row) for row in lists))
        except (TypeError, ValueError):
            return None
        if sorted(w._cell) != list(range(1, squares + 1)) or len(w._cell) != sum(map(len, w.cells)):
            return None
        return w

    def cell(self, square: int) -> tuple[int, int]:
        return self._cell[square]

    def at(self, row: int, col: int) -> int | None:
        cells = self.cells
        return cells[row][col] if 0 <= row < len(cells) and 0 <= col < len(cells[row]) else None


def ghost_squares(wiring: Wiring, no_diode: Iterable[int], occupied: frozenset[int]) -> frozenset[int]:
    """The squares that read closed through a sneak path in a frame reading ``occupied``: for each diode-less
    square X reading closed, every fourth corner of a rectangle X, A (X's row), B (X's column) all closed."""
    out: set[int] = set()
    for x in no_diode:
        if x not in occupied:
            continue
        rx, cx = wiring.cell(x)
        row = [c for c, s in enumerate(wiring.cells[rx]) if c != cx and s in occupied]
        col = [r for r, cells in enumerate(wiring.cells) if r != rx and cx < len(cells) and cells[cx] in occupied]
        for r in col:
            for c in row:
                g = wiring.at(r, c)
                if g is not None:
                    out.add(g)
    return frozenset(out)
