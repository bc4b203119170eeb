"""The electrical model of a diode matrix: which lines a driven-low line pulls low.

Every cell is a reed switch in series with a diode, anode on the column,
cathode on the row. Columns have pull-ups. To read row ``r`` the scanner
drives it low and leaves every other row high-impedance (an input, as an
open-drain driver would): a column reads low when current can flow from its
pull-up into the low row.

Current through a closed cell flows column -> row only; a cell whose diode
is missing (or shorted) conducts both ways. So a column ``c2`` can reach row
``r2`` not only through its own cell but along a *sneak path*
``c2 -> r1 -> c1 -> r2``: through (r1, c2) forwards, (r1, c1) BACKWARDS
(row to column), then (r2, c1) forwards. The backward step needs a
diode-less cell, so with switches (r1,c1), (r1,c2), (r2,c1) closed, a ghost
appears at the open (r2, c2) exactly when the diagonally opposite corner
(r1, c1) has no diode; a missing diode at (r1, c2), (r2, c1) or (r2, c2)
itself makes no ghost there (those steps run forwards anyway). Longer
chains alternate the same way and are handled by the search below.

Swapping roles (a column driven low, rows read with pull-ups) nothing flows
row -> column through a good cell, so a row reading low finds a diode-less
closed cell directly: the *diode check* the scanner runs.

A diode soldered the wrong way round (*reversed*) conducts row -> column
only: the scan never sees its switch (the square looks dead), but the diode
check does, on a row that reads low although the scan saw nothing closed
there; its backward step makes sneak paths like a missing diode.
"""

from __future__ import annotations

from collections import deque
from typing import Iterable

__all__ = ["Cell", "conduction", "low_lines", "columns_low", "rows_low", "indeterminate_cells", "explain_backward"]

Cell = tuple[int, int]
Node = tuple[str, int]  # ("r", i) or ("c", j)


def conduction(closed: Iterable[Cell], no_diode: Iterable[Cell] = (), reversed_: Iterable[Cell] = (),
               skip: Cell | None = None) -> dict[Node, list[Node]]:
    """node -> the nodes that can push current into it through closed switches."""
    into: dict[Node, list[Node]] = {}
    nd, rev = set(no_diode), set(reversed_)
    for cell in closed:
        if cell == skip:
            continue
        r, c = ("r", cell[0]), ("c", cell[1])
        if cell not in rev:
            into.setdefault(r, []).append(c)      # column -> row through the diode
        if cell in nd or cell in rev:
            into.setdefault(c, []).append(r)      # row -> column: diode missing or reversed
    return into


def low_lines(closed: Iterable[Cell], no_diode: Iterable[Cell], driven_low: Iterable[Node],
              skip: Cell | None = None, reversed_: Iterable[Cell] = ()) -> set[Node]:
    """Every line (row or column node) pulled low by the ``driven_low`` lines.

    ``closed``: cells whose switch conducts; ``no_diode``: cells that conduct both ways
    when closed; ``reversed_``: cells that conduct row -> column only; ``skip``: a cell to
    leave out (to ask "is this reading explained without it?").
    """
    into = conduction(closed, no_diode, reversed_, skip)
    seen = set(driven_low)
    todo = deque(seen)
    while todo:
        n = todo.popleft()
        for m in into.get(n, ()):
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


def columns_low(closed: Iterable[Cell], no_diode: Iterable[Cell], row: int, reversed_: Iterable[Cell] = ()) -> set[int]:
    """The columns that read low while ``row`` is driven low (the normal scan)."""
    return {i for k, i in low_lines(closed, no_diode, [("r", row)], reversed_=reversed_) if k == "c"}


def rows_low(closed: Iterable[Cell], no_diode: Iterable[Cell], col: int, reversed_: Iterable[Cell] = ()) -> set[int]:
    """The rows that read low (pull-ups on the rows) while column ``col`` is driven low (the diode check)."""
    return {i for k, i in low_lines(closed, no_diode, [("c", col)], reversed_=reversed_) if k == "r"}


def indeterminate_cells(closed: Iterable[Cell], no_diode: Iterable[Cell], reversed_: Iterable[Cell] = ()) -> set[Cell]:
    """Closed readings that a sneak path would also produce: the scan cannot tell whether they are real.

    ``reversed_``: reversed cells whose switch is closed now (the scan cannot see them; the diode check can).
    """
    closed = set(closed)
    nd = set(no_diode) & closed
    rev = set(reversed_)
    if not nd and not rev:
        return set()
    out = set()
    for cell in closed:
        if ("c", cell[1]) in low_lines(closed | rev, nd, [("r", cell[0])], skip=cell, reversed_=rev):
            out.add(cell)
    return out


def explain_backward(closed: Iterable[Cell], readings: dict[int, set[int]]) -> dict[Cell, str]:
    """The fewest cells that conduct backwards and explain a diode check.

    ``closed``: the cells the scan sees closed; ``readings``: column driven -> rows that read low.
    Returns cell -> ``"missing-diode"`` (seen closed by the scan, so it conducts both ways) or
    ``"reversed-diode"`` (not seen by the scan: it conducts row -> column only). Every direct
    reading is a candidate; one that longer chains through the others explain is dropped.
    """
    closed = set(closed)
    cands = sorted({(i, j) for j, rows in readings.items() for i in rows})

    def explains(cells: list[Cell]) -> bool:
        nd = {c for c in cells if c in closed}
        rev = {c for c in cells if c not in closed}
        return all(rows_low(closed | rev, nd, j, rev) == rows for j, rows in readings.items())

    keep = list(cands)
    for cell in cands:
        trial = [c for c in keep if c != cell]
        if explains(trial):
            keep = trial
    return {c: "missing-diode" if c in closed else "reversed-diode" for c in keep}
