"""The matrix scanner: gpiozero pins in, debounced session frames and health events out.

One scan drives each row low in turn (the other rows released: inputs with
their pull-ups on, never floating), waits ``settle_s`` for the lines to
settle (a released row and its columns climb back through ~50 kOhm pull-ups
into a few hundred pF: tens of microseconds, see :mod:`sensors.rcmodel`),
and reads the columns (pull-ups); a cell is closed when its column reads low.
A cell's debounced state changes after ``debounce`` consecutive scans agree.
Whenever the debounced cells change, and every ``diode_check_s`` seconds,
the scanner runs the *diode check* (each column driven low in turn, rows
read with pull-ups: a row reading low betrays a closed cell conducting
backwards, a missing diode or, where the scan saw nothing, a reversed one;
see :mod:`sensors.circuit`),
then :class:`~sensors.health.HealthMonitor` turns cells into squares. A
:class:`~rig.session.Frame` is emitted only when the occupied squares change,
stamped with the monotonic ``clock`` relative to ``t0``.

The lines come from :mod:`sensors.lines`: lgpio group calls on a Pi, or
gpiozero pins from a pin factory (:class:`~sensors.simmatrix.MatrixMockFactory`
in tests and demos). Nothing Pi-specific is imported here.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Iterable, Iterator

from rig.session import Frame
from rig.variants import Variant
from sensors.cellmap import Cell, CellMap, default_cellmap
from sensors.circuit import explain_backward
from sensors.errors import MatrixConfigError
from sensors.health import HealthEvent, HealthMonitor
from sensors.lines import MatrixLines, open_lines
from sensors.pinmap import PinMap, default_pinmap

__all__ = ["MatrixScanner", "raw_rows"]

MatrixEvent = Frame | HealthEvent


#: Default wait between driving a row and reading the columns: a line of 600 pF (a column and the
#: row just released) through a 65 kOhm pull-up reaches the Pi's 2.0 V input-high level in ~30 us.
DEFAULT_SETTLE_S = 50e-6


def raw_rows(cells: Iterable[Cell], shape: tuple[int, int]) -> list[str]:
    """Cells as one string per matrix row, ``"1"`` = closed (the frame's optional ``raw`` field)."""
    cells = set(cells)
    return ["".join("1" if (r, c) in cells else "0" for c in range(shape[1])) for r in range(shape[0])]


class MatrixScanner:
    """Scans a reed-switch matrix. A context manager; ``close()`` releases the pins.

    ``expected_start``: squares that must be occupied at the start (health checks), or None.
    ``raw``: put the debounced cell states in each frame's ``raw`` field.
    ``when_frame``/``when_health``: optional callbacks, called from :meth:`scan`.
    ``settle_s``: wait after driving a row (or a column) before reading; ``diode_check_s``: run the
    diode check at least this often (a reversed diode under a piece changes nothing in the scan).
    ``lines``: the matrix lines (default: :func:`~sensors.lines.open_lines` with ``pin_factory``/``backend``).
    """

    def __init__(self, variant: Variant, pinmap: PinMap | None = None, cellmap: CellMap | None = None, *,
                 pin_factory=None, scan_hz: float = 200.0, debounce: int = 3,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
                 t0: float | None = None, expected_start: Iterable[int] | None = None, raw: bool = False,
                 diode_check: bool = True, settle_s: float = DEFAULT_SETTLE_S, diode_check_s: float = 1.0,
                 lines: MatrixLines | None = None, backend: str = "auto"):
        self.variant = variant
        self.pinmap = pinmap or default_pinmap(self.variant.size)
        self.pinmap.check_size(self.variant.size)
        self.cellmap = cellmap or default_cellmap(self.variant)
        if self.cellmap.variant != self.variant:
            raise MatrixConfigError(f"the cell map is for {self.cellmap.variant.name}, "
                                    f"the scanner for {self.variant.name}")
        if not scan_hz > 0:
            raise MatrixConfigError(f"scan rate must be positive, not {scan_hz!r}")
        if not isinstance(debounce, int) or debounce < 1:
            raise MatrixConfigError(f"debounce is a number of scans >= 1, not {debounce!r}")
        if not (isinstance(settle_s, (int, float)) and 0 <= settle_s < 0.01):
            raise MatrixConfigError(f"settle time must be between 0 and 10 ms, not {settle_s!r} s")
        self.settle_s = float(settle_s)
        self.diode_check_s = diode_check_s
        self.scan_hz = float(scan_hz)
        self.debounce = debounce
        self.clock, self.sleep = clock, sleep
        self.raw = raw
        self.diode_check_enabled = diode_check
        self.health = HealthMonitor(self.cellmap, expected_start)
        self.when_frame: Callable[[Frame], None] | None = None
        self.when_health: Callable[[HealthEvent], None] | None = None
        self.lines = lines if lines is not None else open_lines(self.pinmap, pin_factory, backend)
        n_rows, n_cols = self.pinmap.shape
        self._stable = [0] * n_rows
        self._count = [[0] * n_cols for _ in range(n_rows)]
        self._settle = 0
        self._cells: frozenset[Cell] = frozenset()
        self.occupied: frozenset[int] | None = None
        self.scans = 0
        self.t0 = self.clock() if t0 is None else t0
        self._last_check = -float("inf")
        self._closed = False

    # -- pins ----------------------------------------------------------------------------

    def _wait_settle(self) -> None:
        if self.settle_s:
            self.sleep(self.settle_s)

    def read_raw(self) -> list[int]:
        """One pass over the rows: per row, the bit mask of columns reading low (closed).
        Every row is released again at the end."""
        out = []
        lines = self.lines
        for i in range(self.pinmap.shape[0]):
            lines.drive_row(i)
            self._wait_settle()
            out.append(lines.read_cols())
        lines.drive_row(None)
        return out

    def diode_readings(self) -> dict[int, set[int]]:
        """Column driven low -> the rows that read low (pulled up): current flowing backwards."""
        lines = self.lines
        out: dict[int, set[int]] = {}
        lines.begin_check()
        try:
            for j in range(self.pinmap.shape[1]):
                lines.drive_col(j)
                self._wait_settle()
                m = lines.read_rows()
                out[j] = {i for i in range(self.pinmap.shape[0]) if m >> i & 1}
            lines.drive_col(None)
        finally:
            lines.end_check()
        return out

    def diode_check(self) -> dict[Cell, str]:
        """Cells that conduct backwards: ``"missing-diode"`` for a cell the scan sees closed,
        ``"reversed-diode"`` for one it does not (its piece is invisible to the scan). Every
        reading is kept, closed cell or not; chains are reduced to the cells that explain them
        (:func:`~sensors.circuit.explain_backward`)."""
        self._last_check = self.clock()
        return explain_backward(self._cells, self.diode_readings())

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
            changed, glitches = True, list[Cell]()
        else:
            changed, glitches = self._debounce(raw)
        events: list[MatrixEvent] = list(self.health.glitch(t, glitches)) if glitches else []
        if changed or self.occupied is None:
            self._cells = frozenset((i, j) for i, m in enumerate(self._stable)
                                    for j in range(self.pinmap.shape[1]) if m >> j & 1)
            if self.diode_check_enabled and self._cells:
                events += self.health.add_backward(t, self.diode_check())
        elif self.diode_check_enabled and self.clock() - self._last_check >= self.diode_check_s:
            events += self.health.add_backward(t, self.diode_check())
            changed = bool(self.health.reversed_changed)
        if changed or self.occupied is None:
            occupied, health = self.health.update(t, self._cells)
            events += health
            if occupied != self.occupied:
                self.occupied = occupied
                raw_field = raw_rows(self._cells, self.pinmap.shape) if self.raw else None
                events.append(Frame(t=t, occupied=occupied, raw=raw_field))
        for ev in events:
            if isinstance(ev, Frame):
                if self.when_frame is not None:
                    self.when_frame(ev)
            elif self.when_health is not None:
                self.when_health(ev)
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
        if not self._closed and getattr(self, "lines", None) is not None:
            self.lines.close()
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
                f"{self.scan_hz:g}Hz debounce={self.debounce} settle={self.settle_s * 1e6:g}us "
                f"{self.lines.backend} scans={self.scans} {occ}{masked}>")
