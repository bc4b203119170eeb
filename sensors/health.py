"""Switch health: what the scanner reports about the hardware, and what it keeps out of the frames.

:class:`HealthMonitor` sits between the debounced matrix and the frames. It
turns closed cells into occupied squares, and on the way:

- masks a switch closed at the start where no piece can be (``stuck-closed``,
  masked until the switch first opens, then ``recovered``), and reports one
  that stays closed after every other starting square has been lifted;
- reports a starting square that never closes (``dead``; nothing to mask:
  the scanner cannot invent a piece);
- holds cells whose reading a sneak path through a known diode-less cell
  (or a reversed diode under a piece) would also produce (``missing-diode``
  and ``reversed-diode`` events come from the scanner's diode check): a ghost
  never appears in a frame, at the price that a real change on such a cell
  is seen only once the rectangle breaks;
- reports ``chattering`` switches (many bounces rejected by the debounce).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Iterable

from rig.session import HEALTH_KINDS as SESSION_HEALTH_KINDS

from sensors.cellmap import Cell, CellMap
from sensors.circuit import indeterminate_cells

__all__ = ["HealthEvent", "HEALTH_KINDS", "HealthMonitor"]

#: the kinds of health event: the session format's (a ``health`` line of the journal carries one)
HEALTH_KINDS = SESSION_HEALTH_KINDS


@dataclass(frozen=True)
class HealthEvent:
    """Something wrong with one switch. ``masked``: its square is kept out of the frames."""

    t: float
    kind: str
    square: int
    cell: Cell
    message: str
    masked: bool = False
    related: tuple[int, ...] = field(default=())
    #: the cell map (square under each matrix cell), on a ``missing-diode`` event: the engine finds the
    #: rectangles whose fourth corner the cell can close (rig/reconstruct/ghosts.py)
    wiring: tuple[tuple[int, ...], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "health", "t": round(self.t, 4), "kind": self.kind, "square": self.square,
                             "cell": list(self.cell), "masked": self.masked, "message": self.message}
        if self.related:
            d["related"] = list(self.related)
        if self.wiring is not None:
            d["wiring"] = [list(row) for row in self.wiring]
        return d


class HealthMonitor:
    """Debounced cells in, occupied squares and health events out (one call per scan).

    ``expected_start``: the squares that must hold a piece at the start (the rules' initial
    position, or a set-up position), or None to skip the start checks.
    """

    def __init__(self, cellmap: CellMap, expected_start: Iterable[int] | None = None, *,
                 chatter_limit: int = 8, chatter_window: float = 1.0, chatter_quiet: float = 10.0):
        self.cellmap = cellmap
        self.expected_start = None if expected_start is None else frozenset(expected_start)
        self.chatter_limit = chatter_limit
        self.chatter_window = chatter_window
        self.chatter_quiet = chatter_quiet
        self.masked: set[Cell] = set()
        self.no_diode: set[Cell] = set()
        self.reversed: set[Cell] = set()          # ever found reversed
        self.reversed_now: frozenset[Cell] = frozenset()  # reversed and closed at the last check
        self.reversed_changed = False
        self.reported: frozenset[Cell] | None = None
        self.events: list[HealthEvent] = []
        self._start_closed: set[Cell] = set()
        self._opened: set[Cell] = set()
        self._stuck_reported: set[Cell] = set()
        self._glitches: dict[Cell, deque[float]] = {}
        self._chatter_at: dict[Cell, float] = {}
        self._held: set[Cell] = set()

    def _event(self, out: list, t: float, kind: str, cell: Cell, message: str, masked: bool = False,
               related: Iterable[int] = ()) -> None:
        sq = self.cellmap.square(cell)
        ev = HealthEvent(t, kind, sq, cell, f"square {sq} (matrix row {cell[0]}, column {cell[1]}): {message}",
                         masked, tuple(sorted(related)), self.cellmap.cells if kind == "missing-diode" else None)
        out.append(ev)
        self.events.append(ev)

    def add_backward(self, t: float, found: dict[Cell, str]) -> list[HealthEvent]:
        """The diode check's result: cell -> ``missing-diode`` or ``reversed-diode``."""
        out: list[HealthEvent] = []
        for cell, kind in sorted(found.items()):
            if kind == "missing-diode" and cell not in self.no_diode:
                self.no_diode.add(cell)
                self._event(out, t, kind, cell,
                            "conducts backwards (diode missing or shorted): ghosts possible in its rectangles")
            elif kind == "reversed-diode" and cell not in self.reversed:
                self.reversed.add(cell)
                self._event(out, t, kind, cell,
                            "a piece there is invisible to the scan: the diode is soldered the wrong way round "
                            "(band towards the column); turn it round")
        now = frozenset(c for c, k in found.items() if k == "reversed-diode")
        self.reversed_changed = now != self.reversed_now
        self.reversed_now = now
        return out

    def glitch(self, t: float, cells: Iterable[Cell]) -> list[HealthEvent]:
        """Cells whose raw reading flipped and flipped back before the debounce accepted it."""
        out: list[HealthEvent] = []
        for cell in cells:
            q = self._glitches.setdefault(cell, deque())
            q.append(t)
            while q and q[0] < t - self.chatter_window:
                q.popleft()
            if len(q) >= self.chatter_limit and t - self._chatter_at.get(cell, -1e9) >= self.chatter_quiet:
                self._chatter_at[cell] = t
                self._event(out, t, "chattering", cell,
                            f"{len(q)} bounces in {self.chatter_window:g} s (loose magnet, failing switch?)")
        return out

    def update(self, t: float, closed: frozenset[Cell]) -> tuple[frozenset[int], list[HealthEvent]]:
        """The occupied squares to report for these debounced closed cells, and any new events."""
        out: list[HealthEvent] = []
        first = self.reported is None
        if first:
            self._start_closed = set(closed)
            if self.expected_start is not None:
                expected = self.cellmap.cells_of(self.expected_start)
                for cell in sorted(closed - expected):
                    self.masked.add(cell)
                    self._event(out, t, "stuck-closed", cell,
                                "closed at the start where no piece can be: masked until it opens", masked=True)
                for cell in sorted(expected - closed):
                    self._event(out, t, "dead", cell, "no piece seen where the start position has one")
        for cell in sorted(self.masked - closed):
            self.masked.discard(cell)
            self._event(out, t, "recovered", cell, "opened: no longer masked")
        self._opened |= self._start_closed - closed
        never = self._start_closed - self._opened - self._stuck_reported - self.masked
        if len(self._start_closed) > 4 and len(never) == 1 and self._start_closed - never <= self._opened:
            for cell in sorted(never):
                self._stuck_reported.add(cell)
                self._event(out, t, "stuck-closed", cell,
                            "never opened while every other starting square did: a piece that has not "
                            "moved yet, or a switch stuck closed (lift the piece to check)")
        visible = closed - self.masked
        indet = indeterminate_cells(closed, self.no_diode, self.reversed_now) - self.masked
        if indet:
            before: frozenset[Cell] | None
            if first:
                before = self.cellmap.cells_of(self.expected_start) if self.expected_start is not None else visible
            else:
                before = self.reported
            assert before is not None   # reported since the first scan
            visible = (visible - indet) | (indet & before)
        held = indet - visible
        for cell in sorted(held - self._held):
            self._event(out, t, "ghost-held", cell, "reads closed through a sneak path: kept as it was (empty)",
                        related=self.cellmap.squares_of(self.no_diode | self.reversed_now))
        self._held = held
        self.reported = frozenset(visible)
        return self.cellmap.squares_of(visible), out
