"""A session the way a real board would produce it: hands act on a simulated matrix,
the project's own scanner reads it through gpiozero mock pins.

:func:`matrix_session` is what ``rig simulate --matrix`` calls: give it the
occupancy timeline the simulated hands produce, it returns the frames the
scanner emitted. Time is virtual (:class:`~sensors.simmatrix.SimClock`), so
a game scans in a fraction of its length; quiet stretches are skipped
without changing the result (a constant matrix gives constant readings).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterable, Sequence, cast

from rig.session import Event, Frame, HealthLine
from rig.simulate.sessiontypes import SimulatedSession
from rig.variants import Variant
from sensors.cellmap import CellMap
from sensors.errors import MatrixConfigError
from sensors.health import HealthEvent
from sensors.matrix import MatrixScanner
from sensors.pinmap import PinMap
from sensors.simmatrix import Fault, SimClock, SimulatedMatrix, SwitchModel

__all__ = ["MatrixRun", "run_matrix_session", "matrix_session", "occupancy_timeline", "through_matrix"]

Timeline = Sequence[tuple[float, Iterable[int]]]


@dataclass(frozen=True)
class MatrixRun:
    """What the scanner produced: frames (for the session) and health events (for the operator)."""

    frames: list[Frame]
    health: list[HealthEvent]
    scans: int


def run_matrix_session(variant: Variant, timeline: Timeline, faults: Iterable[str | Fault] = (), seed: int = 0,
                       *, scan_hz: float = 200.0, debounce: int = 3, model: SwitchModel | None = None,
                       pinmap: PinMap | None = None, wiring: CellMap | None = None, cellmap: CellMap | None = None,
                       expected_start: Iterable[int] | None | str = "initial", raw: bool = False,
                       tail: float = 0.5, diode_check: bool = True) -> MatrixRun:
    """Scan a simulated matrix following ``timeline`` [(t, occupied squares), ...].

    The first entry is the board as set up before the scanner starts (no bounce); every later
    change bounces as :class:`SwitchModel` says. ``faults``: e.g. ``["stuck-closed:16"]``.
    ``wiring``: how the simulated board is really wired; ``cellmap``: what the scanner believes
    (both default to the standard wiring). ``expected_start``: ``"initial"`` (the variant's
    initial position), a set of squares, or None. Scanning runs from the first entry's time
    to ``tail`` seconds after the last. ``diode_check=False`` records ghosts as a scanner
    without the check would (material for ``rig doctor``).
    """
    v = variant
    steps = [(float(t), frozenset(sq)) for t, sq in timeline]
    if not steps:
        raise MatrixConfigError("the occupancy timeline is empty")
    if any(b[0] < a[0] for a, b in zip(steps, steps[1:])):
        raise MatrixConfigError("the occupancy timeline must be in time order")
    start: Iterable[int] | None = frozenset(v.white_start) | frozenset(v.black_start) \
        if expected_start == "initial" else cast("Iterable[int] | None", expected_start)
    t_start, t_end = steps[0][0], steps[-1][0] + tail
    clock = SimClock(t_start)
    matrix = SimulatedMatrix(v, pinmap=pinmap, wiring=wiring, faults=faults, model=model, seed=seed, clock=clock)
    matrix.set_occupied(steps[0][1], t_start, bounce=False)
    for t, squares in steps[1:]:
        matrix.set_occupied(squares, t)
    period = 1.0 / scan_hz
    frames: list[Frame] = []
    health: list[HealthEvent] = []
    with MatrixScanner(v, pinmap, cellmap, pin_factory=matrix.pin_factory(), scan_hz=scan_hz, debounce=debounce,
                       clock=clock, sleep=clock.sleep, t0=0.0, expected_start=start, raw=raw,
                       diode_check=diode_check) as scanner:
        k = 0
        while True:
            grid = clock.now = t_start + k * period  # the scan grid, free of float drift
            if clock.now > t_end:
                break
            for ev in scanner.scan():
                if isinstance(ev, Frame):
                    frames.append(ev)
                else:
                    health.append(ev)
            k += 1
            if scanner.quiet:  # a scan takes virtual time too: a change during it is still to be seen
                nxt = matrix.next_change(grid)
                target = t_end if nxt is None else min(nxt, t_end)
                k = max(k, math.ceil((target - t_start) / period - 1e-9))
        scans = scanner.scans
    return MatrixRun(frames, health, scans)


def matrix_session(variant: Variant, occupancy_timeline: Timeline, faults: Iterable[str | Fault] = (),
                   seed: int = 0, **options) -> list[Frame]:
    """The frames the project's scanner emits for a simulated board following ``occupancy_timeline``.

    ``occupancy_timeline``: [(t seconds, occupied squares), ...] as the hands produce it;
    ``faults``: ``"stuck-closed:SQ"``, ``"dead:SQ"``, ``"missing-diode:SQ"`` (also
    ``"broken-row:I"``, ``"broken-col:J"``); ``seed``: the bounce pattern. Other options as
    :func:`run_matrix_session`. Frame times are on the timeline's clock.
    """
    return run_matrix_session(variant, occupancy_timeline, faults, seed, **options).frames


# -- a simulated game read through the simulated matrix (``rig simulate --matrix``) ----------------------------


def occupancy_timeline(session: SimulatedSession) -> list[tuple[float, frozenset[int]]]:
    """[(t, occupied squares), ...] of the session's frames."""
    return [(f.t, f.occupied) for f in session.frames]


def through_matrix(session: SimulatedSession, faults: Iterable[str] = (), seed: int = 0, *,
                   checks: bool = True) -> SimulatedSession:
    """The same session with its frames replaced by what the scanner read from a simulated matrix following
    the session's occupancy (``faults``: ``stuck-closed:SQ``, ``dead:SQ``, ``missing-diode:SQ``, ...), and the
    scanner's health findings as ``health`` lines, as ``rig run`` writes them (docs/session-format.md).

    The hands' bounce is switched off there: the simulated matrix bounces each contact itself
    (:class:`~sensors.simmatrix.SwitchModel`) and the scanner debounces it. ``checks=False``: a scanner
    without the start checks and the diode check (no health line; a stuck switch and ghosts reach the
    frames as they read)."""
    timeline = occupancy_timeline(session)
    faults = list(faults)
    run = run_matrix_session(session.header.variant, timeline, faults, seed,
                             expected_start=timeline[0][1] if checks else None, diode_check=checks)
    frames: list[Event] = list(run.frames)
    for h in run.health:
        extra = {k: v for k, v in h.to_json().items() if k not in ("type", "t", "kind", "square", "masked", "message")}
        frames.append(HealthLine(h.t, h.kind, h.square, h.masked, h.message, extra))
    others = [e for e in session.events if not isinstance(e, Frame)]
    events: list[Event] = sorted([*frames, *others], key=lambda e: (e.t, 0 if isinstance(e, Frame) else 1))
    extra = dict(session.header.extra)
    extra["simulator"] = dict(extra.get("simulator", {}), matrix=True, faults=faults)
    return replace(session, header=replace(session.header, extra=extra), events=events)
