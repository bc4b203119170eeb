"""The matrix lines as the Pi's inputs see them: voltages that take time to move.

A line under the board is a few hundred pF of wire and diodes, pulled up by
the Pi's internal resistor (about 50 kOhm): when the row that held a column
low is released, the column climbs back with a time constant of
R x C = 50 kOhm x 300 pF = 15 us, and while the released row itself is still
low a closed switch keeps its column one diode drop above it. A scanner that
reads the columns right after driving the next row sees the previous row's
switches there (``tests/test_matrix_settle.py``). Pulling a line low goes
through a driver and the series resistor: R x C = 330 Ohm x 300 pF = 0.1 us.

:class:`LineVoltages` keeps, per line, the exponential it is following since
the last change of drive, pull or switches, and reads a line as the Pi does:
high above ``v_threshold``. ``sensors.simmatrix`` uses it when given a
:class:`LineModel`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

__all__ = ["LineModel", "LineVoltages", "Node"]

Node = tuple[str, int]  # ("r", i) or ("c", j)


@dataclass(frozen=True)
class LineModel:
    """Electrical values of the lines (defaults: hardware/schematics/README.md, 1 m runs).

    ``c_line``: farads per line; ``r_pullup``: the Pi's internal pull-up; ``r_drive``: driver plus
    series resistor when a line is pulled low; ``v_diode``: a 1N4148's drop at tens of uA;
    ``v_threshold``: where the input flips (the Pi reads low below 0.8 V, high above 2.0 V).
    """

    c_line: float = 300e-12
    r_pullup: float = 50e3
    r_drive: float = 400.0
    v_dd: float = 3.3
    v_diode: float = 0.5
    v_threshold: float = 1.65

    @property
    def tau_up(self) -> float:
        return self.r_pullup * self.c_line


class LineVoltages:
    """Every line's voltage as a function of time, re-anchored at each change of the circuit."""

    def __init__(self, model: LineModel, nodes: Iterable[Node], t: float = 0.0):
        self.model = model
        v = model.v_dd
        # node -> (t0, v0, target, tau)
        self._state: dict[Node, tuple[float, float, float, float]] = {n: (t, v, v, math.inf) for n in nodes}
        self._edges: dict[Node, list[tuple[Node, float]]] = {}

    def _own(self, n: Node, t: float) -> float:
        t0, v0, target, tau = self._state[n]
        if tau == math.inf or t <= t0:
            return v0
        return target + (v0 - target) * math.exp(-(t - t0) / tau)

    def voltage(self, n: Node, t: float) -> float:
        """The line's voltage: its own curve, held down by any line it conducts into (one diode
        drop above it: a column cannot rise above a still-low row its closed switch feeds)."""
        v = self._own(n, t)
        for m, drop in self._edges.get(n, ()):
            v = min(v, self._own(m, t) + drop)
        return v

    def high(self, n: Node, t: float) -> bool:
        return self.voltage(n, t) > self.model.v_threshold

    def update(self, t: float, driven: set[Node], low: set[Node], pulled_up: set[Node],
               edges: dict[Node, list[tuple[Node, float]]]) -> None:
        """The circuit changed at ``t``: ``driven`` lines are driven low, ``low`` lines reach a driven
        one through conducting switches, ``pulled_up`` have their pull-up on; ``edges[n]`` lists the
        lines ``n`` pushes current into (with the drop on the way)."""
        m = self.model
        same_edges = edges is self._edges
        feeders: dict[Node, int] = {}
        for n, outs in edges.items():
            if n in pulled_up:
                for k, _ in outs:
                    feeders[k] = feeders.get(k, 0) + 1
        c = m.c_line
        for n, (_t0, _v0, old_target, old_tau) in self._state.items():
            if n in driven:
                target, tau = 0.0, m.r_drive * c
            elif n in low:
                target, tau = m.v_diode, 2 * m.r_drive * c
            elif n in pulled_up:
                target, tau = m.v_dd, m.r_pullup * c
            elif feeders.get(n):  # floating, charged through closed switches by pulled-up lines
                target, tau = m.v_dd - m.v_diode, m.r_pullup * 2 * c / feeders[n]
            else:  # floating: keeps its charge
                target, tau = None, math.inf
            if same_edges and tau == old_tau and (target is None or target == old_target):
                continue  # the same curve goes on
            v = self.voltage(n, t)
            self._state[n] = (t, v, v if target is None else target, tau)
        self._edges = edges
