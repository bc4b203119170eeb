"""The matrix scanner: gpiozero pins in, debounced session frames and health events out.

One scan drives each row low in turn (the other rows high-impedance) and
reads the columns (pull-ups); a cell is closed when its column reads low.
A cell's debounced state changes after ``debounce`` consecutive scans agree.
Whenever the debounced cells change the scanner runs the *diode check*
(each column driven low in turn, rows read with pull-ups: a row reading low
betrays a closed cell conducting backwards, see :mod:`sensors.circuit`),
then :class:`~sensors.health.HealthMonitor` turns cells into squares. A
:class:`~rig.session.Frame` is emitted only when the occupied squares change,
stamped with the monotonic ``clock`` relative to ``t0``.

The pins come from a gpiozero pin factory: the default one on a Pi (lgpio on
a Pi 5 and older Pis), :class:`~sensors.simmatrix.MatrixMockFactory` in tests
and demos. Nothing Pi-specific is imported here.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Iterable, Iterator

from rig.session import Frame
from rig.variants import Variant, get_variant
from sensors.cellmap import Cell, CellMap, default_cellmap
from sensors.circuit import rows_low
from sensors.errors import MatrixConfigError
from sensors.health import HealthEvent, HealthMonitor
from sensors.pinmap import PinMap, default_pinmap

__all__ = ["MatrixScanner", "raw_rows"]

MatrixEvent = Frame | HealthEvent


def _default_factory():
    from gpiozero import Device

    if Device.pin_factory is None:
        Device.pin_factory = Device._default_pin_factory()
    return Device.pin_factory


def raw_rows(cells: Iterable[Cell], shape: tuple[int, int]) -> list[str]:
    """Cells as one string per matrix row, ``"1"`` = closed (the frame's optional ``raw`` field)."""
    cells = set(cells)
    return ["".join("1" if (r, c) in cells else "0" for c in range(shape[1])) for r in range(shape[0])]


class MatrixScanner:
    """Scans a reed-switch matrix. A context manager; ``close()`` releases the pins.

    ``expected_start``: squares that must be occupied at the start (health checks), or None.
    ``raw``: put the debounced cell states in each frame's ``raw`` field.
    ``when_frame``/``when_health``: optional callbacks, called from :meth:`scan`.
    """

    def __init__(self, variant: str | Variant, pinmap: PinMap | None = None, cellmap: CellMap | None = None, *,
                 pin_factory=None, scan_hz: float = 200.0, debounce: int = 3,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
                 t0: float | None = None, expected_start: Iterable[int] | None = None, raw: bool = False,
                 diode_check: bool = True):
        self.variant = get_variant(variant)
        self.pinmap = pinmap or default_pinmap(self.variant.size)
        self.pinmap.check_size(self.variant.size)
        self.cellmap = cellmap or default_cellmap(self.variant)
        if self.cellmap.variant != self.variant.name:
            raise MatrixConfigError(f"the cell map is for {self.cellmap.variant}, the scanner for {self.variant.name}")
        if not scan_hz > 0:
            raise MatrixConfigError(f"scan rate must be positive, not {scan_hz!r}")
        if not isinstance(debounce, int) or debounce < 1:
            raise MatrixConfigError(f"debounce is a number of scans >= 1, not {debounce!r}")
        self.scan_hz = float(scan_hz)
        self.debounce = debounce
        self.clock, self.sleep = clock, sleep
        self.raw = raw
        self.diode_check_enabled = diode_check
        self.health = HealthMonitor(self.cellmap, expected_start)
        self.when_frame: Callable[[Frame], None] | None = None
        self.when_health: Callable[[HealthEvent], None] | None = None
        self.factory = pin_factory or _default_factory()
        self._rows, self._cols = [], []
        try:
            for g in self.pinmap.rows:
                p = self.factory.pin(g)
                p.input_with_pull("floating")
                self._rows.append(p)
            for g in self.pinmap.cols:
                p = self.factory.pin(g)
                p.input_with_pull("up")
                self._cols.append(p)
        except Exception:
            self.close()
            raise
        n_rows, n_cols = self.pinmap.shape
        self._stable = [0] * n_rows
        self._count = [[0] * n_cols for _ in range(n_rows)]
        self._settle = 0
        self._cells: frozenset[Cell] = frozenset()
        self.occupied: frozenset[int] | None = None
        self.scans = 0
        self.t0 = self.clock() if t0 is None else t0
        self._closed = False

    # -- pins ----------------------------------------------------------------------------

    def read_raw(self) -> list[int]:
        """One pass over the rows: per row, the bit mask of columns reading low (closed)."""
        out = []
        cols = self._cols
        for row in self._rows:
            row.output_with_state(False)
            m = 0
            for j, col in enumerate(cols):
                if not col.state:
                    m |= 1 << j
            row.input_with_pull("floating")
            out.append(m)
        return out

    def diode_check(self) -> set[Cell]:
        """Closed cells that conduct backwards (column driven low, rows pulled up read low).

        A row reading low while column ``j`` is driven names the cell (row, j) when that cell is
        closed; longer backward chains are attributed to the closed cells on them.
        """
        found: set[Cell] = set()
        closed = self._cells
        for p in self._rows:
            p.input_with_pull("up")
        try:
            for j, col in enumerate(self._cols):
                col.output_with_state(False)
                low = {i for i, p in enumerate(self._rows) if not p.state}
                col.input_with_pull("up")
                found |= {(i, j) for i in low if (i, j) in closed}
                for i in low:
                    if (i, j) not in closed:  # a chain: every closed cell of that row that explains it
                        found |= {(i, k) for k in range(len(self._cols))
                                  if (i, k) in closed and i in rows_low(closed, {(i, k)}, k)}
        finally:
            for p in self._rows:
                p.input_with_pull("floating")
        return found

    # -- scanning ------------------------------------------------------------------------

    @property
    def quiet(self) -> bool:
        """Settled, with no cell half-way through its debounce: a constant matrix would change nothing."""
        return self._settle >= self.debounce and not any(any(c) for c in self._count)

    @property
    def cells(self) -> frozenset[Cell]:
        """The debounced closed cells (ghosts and masked switches included)."""
        return self._cells

    def _debounce(self, raw: list[int]) -> tuple[bool, list[Cell]]:
        changed, glitches = False, []
        n = self.debounce
        for i, m in enumerate(raw):
            diff = m ^ self._stable[i]
            counts = self._count[i]
            for j in range(len(counts)):
                if diff >> j & 1:
                    counts[j] += 1
                    if counts[j] >= n:
                        self._stable[i] ^= 1 << j
                        counts[j] = 0
                        changed = True
                elif counts[j]:
                    counts[j] = 0
                    glitches.append((i, j))
        return changed, glitches

    def scan(self) -> list[MatrixEvent]:
        """One scan: read, debounce, check; the events it produced (a frame only on change)."""
        if self._closed:
            raise MatrixConfigError("the scanner is closed")
        t = self.clock() - self.t0
        raw = self.read_raw()
        self.scans += 1
        if self._settle < self.debounce:  # the first stable reading is the starting state
            if self._settle and raw != self._stable:
                self._settle = 0
            self._stable = raw
            self._settle += 1
            if self._settle < self.debounce:
                return []
            changed, glitches = True, []
        else:
            changed, glitches = self._debounce(raw)
        events: list[MatrixEvent] = list(self.health.glitch(t, glitches)) if glitches else []
        if changed or self.occupied is None:
            self._cells = frozenset((i, j) for i, m in enumerate(self._stable)
                                    for j in range(len(self._cols)) if m >> j & 1)
            if self.diode_check_enabled and self._cells:
                events += self.health.add_no_diode(t, self.diode_check())
            occupied, health = self.health.update(t, self._cells)
            events += health
            if occupied != self.occupied:
                self.occupied = occupied
                raw_field = raw_rows(self._cells, self.pinmap.shape) if self.raw else None
                events.append(Frame(t=t, occupied=occupied, raw=raw_field))
        for ev in events:
            cb = self.when_frame if isinstance(ev, Frame) else self.when_health
            if cb is not None:
                cb(ev)
        return events

    def run(self, duration: float | None = None, stop: threading.Event | None = None) -> Iterator[MatrixEvent]:
        """Scan at ``scan_hz`` until ``duration`` seconds have passed or ``stop`` is set, yielding events."""
        period = 1.0 / self.scan_hz
        start = nxt = self.clock()
        while not (stop is not None and stop.is_set()):
            if duration is not None and self.clock() - start >= duration:
                break
            yield from self.scan()
            nxt += period
            delay = nxt - self.clock()
            if delay > 0:
                self.sleep(delay)
            else:
                nxt = self.clock()

    # -- device protocol -----------------------------------------------------------------

    def close(self) -> None:
        for p in self._rows + self._cols:
            try:
                p.close()
            except Exception:  # noqa: BLE001 - closing must release every pin it can
                pass
        self._rows, self._cols = [], []
        self._closed = True

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> "MatrixScanner":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        if self._closed:
            return f"<MatrixScanner {self.variant.name} closed>"
        occ = "unsettled" if self.occupied is None else f"occupied={len(self.occupied)}"
        masked = f" masked={sorted(self.cellmap.squares_of(self.health.masked))}" if self.health.masked else ""
        return (f"<MatrixScanner {self.variant.name} {self.pinmap.shape[0]}x{self.pinmap.shape[1]} "
                f"{self.scan_hz:g}Hz debounce={self.debounce} scans={self.scans} {occ}{masked}>")
