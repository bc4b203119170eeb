"""A simulated reed-switch matrix, and gpiozero mock pins wired to it.

:class:`SimulatedMatrix` knows where the pieces are over time and what the
switches do about it: contact bounce, a slow magnet chattering near the
pull-in point, faults (a switch stuck closed, a dead one, a missing or
reversed diode, a broken row or column wire) and, with a
:class:`~sensors.rcmodel.LineModel`, lines that take microseconds to
settle (every pin call then costs ``call_s`` of virtual time). :class:`MatrixMockFactory` is gpiozero's
:class:`~gpiozero.pins.mock.MockFactory` whose pins read the matrix: a column
input's level is computed (:mod:`sensors.circuit`) from the switches closed
at that instant and the row outputs driven low at that instant, so the
scanner runs on it exactly as on a Pi.

Time is the matrix's ``clock`` (a :class:`SimClock` for fast, repeatable
runs, or ``time.monotonic``); piece changes are scheduled at times and the
switches are a function of time, so a whole game can be scheduled first and
scanned afterwards.
"""

from __future__ import annotations

import bisect
import random
import re
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from gpiozero.pins.mock import MockFactory, MockPin

from rig.variants import Variant
from sensors.cellmap import Cell, CellMap, default_cellmap
from sensors.circuit import conduction, low_lines
from sensors.errors import MatrixConfigError
from sensors.pinmap import PinMap, default_pinmap
from sensors.rcmodel import LineModel, LineVoltages

__all__ = ["SimClock", "Fault", "FAULT_KINDS", "POSES", "SwitchModel", "SimulatedMatrix", "MatrixPin",
           "MatrixMockFactory"]

FAULT_KINDS = ("stuck-closed", "dead", "missing-diode", "reversed-diode", "broken-row", "broken-col",
               "dead-spot", "crosstalk", "repelling-king")
#: How a piece can sit on its square (``SimulatedMatrix.place``): the placement faults act on them.
POSES = ("centre", "off-centre", "king")


class SimClock:
    """Virtual time: ``clock()`` reads it, ``clock.sleep(dt)`` advances it (instantly)."""

    def __init__(self, start: float = 0.0):
        self.now = float(start)

    def __call__(self) -> float:
        return self.now

    def sleep(self, dt: float) -> None:
        if dt > 0:
            self.now += dt

    def __repr__(self) -> str:
        return f"<SimClock t={self.now:.4f}>"


@dataclass(frozen=True)
class Fault:
    """A hardware fault: ``stuck-closed``/``dead``/``missing-diode``/``reversed-diode`` on a square,
    ``broken-row``/``broken-col`` on a matrix row/column index, and the placement faults on a square:
    ``dead-spot`` (a piece off-centre does not close the reed), ``crosstalk`` (a stacked king also
    closes a diagonal neighbour's reed), ``repelling-king`` (a stacked king closes nothing: the two
    magnets repel).

    ``stuck-closed`` and ``dead`` may fail in the middle of the game (``since``) and work again (``until``): a
    stuck reed freed by a knock on the table, a cold solder joint that comes and goes. In ``[since, until)`` the
    switch is forced (closed or open); outside it, it follows its magnet."""

    kind: str
    target: int
    #: ``stuck-closed`` and ``dead`` only: the switch fails at this time (seconds), working before
    since: float = float("-inf")
    #: ``stuck-closed`` and ``dead`` only: the switch works again from this time on (seconds), as its magnet says
    until: float = float("inf")

    def __post_init__(self) -> None:
        if self.kind not in FAULT_KINDS:
            raise MatrixConfigError(f"unknown fault {self.kind!r}; expected one of {', '.join(FAULT_KINDS)}")
        if (self.since != float("-inf") or self.until != float("inf")) and self.kind not in ("stuck-closed", "dead"):
            raise MatrixConfigError(f"only stuck-closed and dead switches fail mid-game or recover, not {self.kind}")
        if self.until <= self.since:
            raise MatrixConfigError(f"a switch recovers after it fails: {self.until:g} is not after {self.since:g}")

    @classmethod
    def parse(cls, text: "str | Fault") -> "Fault":
        """``"stuck-closed:12"``, ``"dead:5"``, ``"missing-diode:18"``, ``"broken-row:3"``; a switch that fails
        in the middle of the game: ``"dead:5@120"`` (from 120 s on); one that then works again:
        ``"stuck-closed:12@120-180"`` (failed from 120 s, working again from 180 s; ``@0-180``: failed from the
        start)."""
        if isinstance(text, Fault):
            return text
        kind, sep, target = text.partition(":")
        target, at, span = target.partition("@")
        if not sep or not target.strip().isdigit():
            raise MatrixConfigError(f"a fault is KIND:NUMBER[@SECONDS[-SECONDS]] (e.g. stuck-closed:12), "
                                    f"not {text!r}")
        if at:
            # the dash between the two times follows a digit, a point or "inf" (a leading one is a sign)
            since, *until = re.split(r"(?<=[\d.fF])-", span, maxsplit=1)
            try:
                when = float(since)
                end = float(until[0]) if until else float("inf")
            except ValueError:
                raise MatrixConfigError(f"the times after @ must be seconds, not {span!r}") from None
            return cls(kind.strip(), int(target), when, end)
        return cls(kind.strip(), int(target))

    def __str__(self) -> str:
        span = "" if self.since == float("-inf") else f"@{self.since:g}"
        if self.until != float("inf"):
            span = f"@{self.since:g}-{self.until:g}"
        return f"{self.kind}:{self.target}{span}"


@dataclass(frozen=True)
class SwitchModel:
    """How a reed switch follows its magnet.

    ``delay_max``: the contact moves up to this long after the piece lands/leaves.
    ``bounce_max``/``bounce_gap``: a normal change bounces up to that many times, gaps up to that long.
    ``slow``: probability that a change is a slow magnet, chattering for ``slow_s`` with gaps
    up to ``slow_gap`` (kept below two scan periods so a 3-scan debounce rides it out).
    """

    delay_max: float = 0.004
    bounce_max: int = 6
    bounce_gap: float = 0.0015
    slow: float = 0.0
    slow_s: float = 0.08
    slow_gap: float = 0.008


class SimulatedMatrix:
    """The switches and diodes under the board, as a function of time.

    ``wiring``: the true cell of each square (default: the standard wiring).
    ``lines``: the electrical model of the lines (:class:`LineModel`, the default) or None for
    lines that switch instantly; ``call_s``: virtual time each pin call takes (a :class:`SimClock`
    only), so reads right after a write see the lines as they are a few microseconds later.
    """

    def __init__(self, variant: Variant, *, pinmap: PinMap | None = None, wiring: CellMap | None = None,
                 faults: Iterable[str | Fault] = (), model: SwitchModel | None = None, seed: int = 0,
                 clock: Callable[[], float] | None = None, lines: LineModel | None = LineModel(),
                 call_s: float = 2e-6):
        self.variant = variant
        self.pinmap = pinmap or default_pinmap(self.variant.size)
        self.pinmap.check_size(self.variant.size)
        self.wiring = wiring or default_cellmap(self.variant)
        if self.wiring.variant != self.variant:
            raise MatrixConfigError(f"the wiring is a {self.wiring.variant.name} map, the matrix {self.variant.name}")
        self.model = model or SwitchModel()
        self.clock = clock or time.monotonic
        self._rng = random.Random(seed)
        self.faults = tuple(Fault.parse(f) for f in faults)
        rows, cols = self.pinmap.shape
        self.stuck_closed: set[Cell] = set()
        self.dead: set[Cell] = set()
        self.no_diode: set[Cell] = set()
        self.reversed: set[Cell] = set()
        self.placement_faults: dict[int, set[str]] = {}
        self._fails_at: dict[Cell, tuple[float, float]] = {}  # a switch failing mid-game: [since, until)
        self._change_times_pending: list[float] = []
        self._induced: dict[int, list[Cell]] = {}  # square -> neighbour cells its king closed too
        self.broken_rows: set[int] = set()
        self.broken_cols: set[int] = set()
        for f in self.faults:
            if f.kind in ("broken-row", "broken-col"):
                limit = rows if f.kind == "broken-row" else cols
                if not 0 <= f.target < limit:
                    raise MatrixConfigError(f"{f}: the matrix has {limit} {f.kind[7:]}s (0..{limit - 1})")
                (self.broken_rows if f.kind == "broken-row" else self.broken_cols).add(f.target)
            else:
                if not 1 <= f.target <= self.variant.squares:
                    raise MatrixConfigError(f"{f}: {self.variant.name} has squares 1..{self.variant.squares}")
                cell = self.wiring.cell(f.target)
                if f.kind in ("dead-spot", "crosstalk", "repelling-king"):
                    self.placement_faults.setdefault(f.target, set()).add(f.kind)
                    continue
                {"stuck-closed": self.stuck_closed, "dead": self.dead, "missing-diode": self.no_diode,
                 "reversed-diode": self.reversed}[f.kind].add(cell)
                if f.since != float("-inf") or f.until != float("inf"):
                    self._fails_at[cell] = (f.since, f.until)
                    self._change_times_pending.extend(x for x in (f.since, f.until) if abs(x) != float("inf"))
        # per cell: change times and states (the contact's history); empty = open since forever
        self._times: dict[Cell, list[float]] = {}
        self._states: dict[Cell, list[bool]] = {}
        self._target: dict[Cell, bool] = {}
        self._role = {g: ("r", i) for i, g in enumerate(self.pinmap.rows)}
        self._role.update({g: ("c", j) for j, g in enumerate(self.pinmap.cols)})
        self._driven: dict[tuple[str, int], bool] = {}
        self._pulled_up: set[tuple[str, int]] = set()
        self.line_model = lines
        self.call_s = call_s
        self._volts = None if lines is None else LineVoltages(lines, set(self._role.values()), self.clock())
        self._volts_key: frozenset[tuple[int, int]] | None = None
        self.pin_calls = 0
        self._cache: tuple | None = None
        self._closed_cache: tuple[float, float, frozenset[Cell]] | None = None
        self._edges_cache: tuple[frozenset[Cell], dict] | None = None
        self._change_times: list[float] = sorted(self._change_times_pending)   # failing or recovering: a change

    # -- the pieces -----------------------------------------------------------------------

    def _now(self, t: float | None) -> float:
        return self.clock() if t is None else float(t)

    def _contact_change(self, cell: Cell, state: bool, t: float, bounce: bool, slow: bool | None) -> None:
        if self._target.get(cell, False) == state:
            return
        self._target[cell] = state
        times = self._times.setdefault(cell, [])
        states = self._states.setdefault(cell, [])
        k = bisect.bisect_right(times, t)  # a new change cancels what was still to come
        del times[k:], states[k:]
        m, rng = self.model, self._rng
        if not bounce:
            times.append(t)
            states.append(state)
            self._note_changes([t])
            return
        at = t + rng.uniform(0.0, m.delay_max)
        slow = rng.random() < m.slow if slow is None else slow
        if slow:
            end, s = at + rng.uniform(0.5, 1.0) * m.slow_s, state
            while at < end:
                times.append(at)
                states.append(s)
                at += rng.uniform(0.0005, m.slow_gap)
                s = not s
        else:
            n = rng.randint(0, m.bounce_max)
            for i in range(n):
                times.append(at)
                states.append(state if i % 2 == 0 else not state)
                at += rng.uniform(0.0002, m.bounce_gap)
        if not states or states[-1] != state:
            times.append(at)
            states.append(state)
        self._note_changes(times[k:])

    def _note_changes(self, times: list[float]) -> None:
        for x in times:
            bisect.insort(self._change_times, x)
        self._cache = self._closed_cache = None

    def next_change(self, t: float) -> float | None:
        """The first time after ``t`` at which a switch may move (None: nothing scheduled)."""
        k = bisect.bisect_right(self._change_times, t)
        return self._change_times[k] if k < len(self._change_times) else None

    def set_occupied(self, squares: Iterable[int], t: float | None = None, *, bounce: bool = True,
                     slow: bool | None = None) -> None:
        """From ``t`` on, exactly these squares hold a piece (each changed switch bounces)."""
        t = self._now(t)
        want = self.wiring.cells_of(squares)
        for r in range(self.pinmap.shape[0]):
            for c in range(self.pinmap.shape[1]):
                cell = (r, c)
                self._contact_change(cell, cell in want, t, bounce, slow)

    def neighbour(self, square: int) -> int:
        """The first diagonal neighbour of ``square`` (where a ``crosstalk`` fault reaches)."""
        f, r = self.variant.coords(square)
        return next(n for df, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1))
                    if (n := self.variant.square_at(f + df, r + dr)) is not None)

    def place(self, square: int, t: float | None = None, *, bounce: bool = True, slow: bool | None = None,
              pose: str = "centre") -> None:
        """A piece put on ``square``: ``pose`` centred, pushed ``off-centre`` or a stacked ``king``."""
        if pose not in POSES:
            raise MatrixConfigError(f"a piece sits {' or '.join(POSES)}, not {pose!r}")
        t = self._now(t)
        faults = self.placement_faults.get(square, set())
        if (pose == "off-centre" and "dead-spot" in faults) or (pose == "king" and "repelling-king" in faults):
            return
        self._contact_change(self.wiring.cell(square), True, t, bounce, slow)
        if pose == "king" and "crosstalk" in faults:
            cell = self.wiring.cell(self.neighbour(square))
            self._induced.setdefault(square, []).append(cell)
            self._contact_change(cell, True, t, bounce, slow)

    def lift(self, square: int, t: float | None = None, *, bounce: bool = True, slow: bool | None = None) -> None:
        t = self._now(t)
        self._contact_change(self.wiring.cell(square), False, t, bounce, slow)
        for cell in self._induced.pop(square, ()):
            self._contact_change(cell, False, t, bounce, slow)

    def contact(self, cell: Cell, t: float | None = None) -> bool:
        """Whether the switch of ``cell`` conducts at ``t`` (faults included)."""
        if cell in self.stuck_closed or cell in self.dead:
            since, until = self._fails_at.get(cell, (float("-inf"), float("inf")))
            if since <= self._now(t) < until:
                return cell in self.stuck_closed
        times = self._times.get(cell)
        if not times:
            return False
        k = bisect.bisect_right(times, self._now(t))
        return self._states[cell][k - 1] if k else False

    def closed_cells(self, t: float | None = None) -> frozenset[Cell]:
        t = self._now(t)
        cache = self._closed_cache
        if cache is not None and cache[0] <= t < cache[1]:  # no contact moves in [t0, next change)
            return cache[2]
        rows, cols = self.pinmap.shape
        out = frozenset((r, c) for r in range(rows) for c in range(cols) if self.contact((r, c), t))
        k = bisect.bisect_right(self._change_times, t)
        upto = self._change_times[k] if k < len(self._change_times) else float("inf")
        self._closed_cache = (t, upto, out)
        return out

    # -- the wires ------------------------------------------------------------------------

    def _broken(self, node: tuple[str, int]) -> bool:
        return (node[0] == "r" and node[1] in self.broken_rows) or (node[0] == "c" and node[1] in self.broken_cols)

    def tick(self) -> None:
        """One pin call: counted, and ``call_s`` of virtual time on a :class:`SimClock`."""
        self.pin_calls += 1
        if isinstance(self.clock, SimClock):
            self.clock.now += self.call_s

    def drive(self, gpio: int, low: bool) -> None:
        """The pin drives its line low (``low``) or lets it go (a pin call of the lines or of simulated lgpio)."""
        node = self._role.get(gpio)
        if node is None:
            return
        was = node in self._driven
        if low and not self._broken(node):
            self._driven[node] = True
        else:
            self._driven.pop(node, None)
        if was != (node in self._driven):
            self._reanchor()

    def pull(self, gpio: int, up: bool) -> None:
        """The pin's pull-up went on or off (an input's bias)."""
        node = self._role.get(gpio)
        if node is None:
            return
        was = node in self._pulled_up
        (self._pulled_up.add if up and not self._broken(node) else self._pulled_up.discard)(node)
        if was != (node in self._pulled_up):
            self._reanchor()

    def _low_set(self, t: float) -> set[tuple[str, int]]:
        closed = self.closed_cells(t)
        key = (closed, frozenset(self._driven))
        if self._cache is None or self._cache[0] != key:
            if not self._driven:
                low = set()
            elif not self.no_diode and not self.reversed and all(k == "r" for k, _ in self._driven):
                # fast path: with every diode in place a driven row pulls down its own closed cells only
                low = set(self._driven) | {("c", c) for r, c in closed if ("r", r) in self._driven}
            else:
                low = low_lines(closed, self.no_diode, self._driven, reversed_=self.reversed)
            self._cache = (key, low)
        return self._cache[1]

    def level(self, gpio: int) -> bool | None:
        """The level an input on ``gpio`` reads now (True = high), or None for a pin not on the matrix."""
        node = self._role.get(gpio)
        if node is None:
            return None
        if self._broken(node):
            return True
        t = self.clock()
        low = self._low_set(t)
        if self._volts is None:
            return node not in low
        if self.closed_cells(t) != self._volts_key:
            self._reanchor()
        return self._volts.high(node, t)

    def _reanchor(self) -> None:
        """The circuit changed now (a drive, a pull, a switch): every line follows a new curve."""
        if self._volts is None:
            return
        t = self.clock()
        closed = self.closed_cells(t)
        if self._edges_cache is None or self._edges_cache[0] != closed:
            assert self.line_model is not None   # lines with voltages follow a line model
            drop = self.line_model.v_diode
            edges: dict = {}
            for into, froms in conduction(closed, self.no_diode, self.reversed).items():
                for f in froms:
                    cell = (into[1], f[1]) if into[0] == "r" else (f[1], into[1])
                    edges.setdefault(f, []).append((into, 0.0 if cell in self.no_diode else drop))
            self._edges_cache = (closed, edges)
        edges = self._edges_cache[1]
        self._volts.update(t, set(self._driven), self._low_set(t), self._pulled_up, edges)
        self._volts_key = closed

    def pin_factory(self) -> "MatrixMockFactory":
        """A gpiozero pin factory whose pins are this matrix's wires."""
        return MatrixMockFactory(self)

    def lgpio(self):
        """A simulated ``lgpio`` module whose GPIOs are this matrix's wires (:mod:`sensors.simlgpio`)."""
        from sensors.simlgpio import SimLgpio

        return SimLgpio(self)

    def __repr__(self) -> str:
        faults = ", ".join(map(str, self.faults)) or "no faults"
        return (f"<SimulatedMatrix {self.variant.name} {self.pinmap.shape[0]}x{self.pinmap.shape[1]} "
                f"closed={len(self.closed_cells())} {faults}>")


class MatrixPin(MockPin):
    """A mock pin wired to the factory's :class:`SimulatedMatrix`: an input reads the matrix,
    an output driven low pulls its row (or column) down; every call costs the matrix's ``call_s``."""

    def _matrix(self) -> SimulatedMatrix:
        return self.factory.matrix

    def _gpio(self) -> int:
        return int(self.info.name[4:])

    def _get_state(self):
        self._matrix().tick()
        if self._function == "input":
            level = self._matrix().level(self._gpio())
            if level is not None and (self._pull == "up" or not level):
                return level
        return self._state

    def _set_function(self, value):
        self._matrix().tick()
        super()._set_function(value)
        self._matrix().drive(self._gpio(), value == "output" and not self._state)
        self._matrix().pull(self._gpio(), value == "input" and self._pull == "up")

    def _set_pull(self, value):
        self._matrix().tick()
        super()._set_pull(value)
        self._matrix().pull(self._gpio(), self._function == "input" and value == "up")

    def _set_state(self, value):
        self._matrix().tick()
        super()._set_state(value)
        self._matrix().drive(self._gpio(), not value)


class MatrixMockFactory(MockFactory):
    """gpiozero's MockFactory with :class:`MatrixPin` pins reading ``matrix``."""

    def __init__(self, matrix: SimulatedMatrix, revision: str | None = None):
        super().__init__(revision=revision, pin_class=MatrixPin)
        self.matrix = matrix
