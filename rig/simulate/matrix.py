"""A simulated session read the way a real board reads it: the hands' occupancy drives a simulated
reed-switch matrix (``sensors``), and the project's own scanner, on mock pins, makes the frames.

The hands' bounce is switched off here: the simulated matrix bounces each contact itself
(``sensors.simmatrix.SwitchModel``) and the scanner debounces it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from rig.session import Event, Frame, HealthLine
from rig.simulate.game import SimulatedSession

__all__ = ["occupancy_timeline", "through_matrix"]


def occupancy_timeline(session: SimulatedSession) -> list[tuple[float, frozenset[int]]]:
    """[(t, occupied squares), ...] of the session's frames."""
    return [(f.t, f.occupied) for f in session.frames]


def through_matrix(session: SimulatedSession, faults: Iterable[str] = (), seed: int = 0) -> SimulatedSession:
    """The same session with its frames replaced by what the scanner read from a simulated matrix
    following the session's occupancy (``faults``: ``stuck-closed:SQ``, ``dead:SQ``, ``missing-diode:SQ``),
    and the scanner's health findings as ``health`` lines, as ``rig run`` writes them (docs/session-format.md)."""
    from sensors.simulation import run_matrix_session

    timeline = occupancy_timeline(session)
    faults = list(faults)
    run = run_matrix_session(session.header.variant, timeline, faults, seed, expected_start=timeline[0][1])
    frames: list[Event] = list(run.frames)
    for h in run.health:
        extra = {k: v for k, v in h.to_json().items() if k not in ("type", "t", "kind", "square", "masked", "message")}
        frames.append(HealthLine(h.t, h.kind, h.square, h.masked, h.message, extra))
    others = [e for e in session.events if not isinstance(e, Frame)]
    events: list[Event] = sorted(frames + others, key=lambda e: (e.t, 0 if isinstance(e, Frame) else 1))
    extra = dict(session.header.extra)
    extra["simulator"] = dict(extra.get("simulator", {}), matrix=True, faults=faults)
    return replace(session, header=replace(session.header, extra=extra), events=events)
