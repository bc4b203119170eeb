"""The simulated board of ``rig run --simulate``: the simulator's hands drive a simulated reed-switch matrix
(read by the real scanner on gpiozero mock pins) and press a clock emulator on a pseudo-terminal (read by the
real clock driver), in scaled real time.

The hands follow a :class:`~rig.simulate.SimulatedSession` (a real game or random play, seeded): its frames
are scheduled on the :class:`~sensors.simmatrix.SimulatedMatrix` (the hands do not bounce: the switches do),
its presses are made on the emulator at their session times. A run that resumes a journal starts the world
at the journal's last time: the board as the hands left it then, the clock as the presses so far set it
(the simulated world stands still while the rig is down, so the resumed session is the whole game).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

from sensors.clock import SideMap
from sensors.clock.emulator import ClockEmulator, make_emulator
from sensors.clock.timecontrol import IncrementMode, TimeControl
from rig.session import ClockEvent
from rig.simulate import SimulatedSession
from rig.simulate.model import HumanModel

__all__ = ["Unplug", "SimulatedWorld", "build_world", "occupancy_at", "TAIL_S"]

log = logging.getLogger(__name__)

#: the run goes on this long (session seconds) after the simulated game's last event
TAIL_S = 1.0


@dataclass(frozen=True)
class Unplug:
    """The clock's cable pulled at session time ``at`` for ``seconds`` (``--clock-unplug AT:SECONDS``)."""

    at: float
    seconds: float

    @classmethod
    def parse(cls, text: str) -> "Unplug":
        at, sep, dur = text.partition(":")
        try:
            value = cls(float(at), float(dur))
        except ValueError:
            value = None
        if not sep or value is None or value.at < 0 or value.seconds <= 0:
            raise ValueError(f"--clock-unplug is AT:SECONDS (session seconds, e.g. 30:5), not {text!r}")
        return value


def occupancy_at(session: SimulatedSession, t: float) -> frozenset[int]:
    """The squares the hands have occupied at session time ``t`` (the first frame's before it starts)."""
    frames = session.frames
    occ = frames[0].occupied
    for f in frames:
        if f.t > t:
            break
        occ = f.occupied
    return occ


@dataclass
class SimulatedWorld:
    """The simulated matrix and the clock emulator, and the hands that act on them."""

    session: SimulatedSession
    matrix: Any                      # sensors.simmatrix.SimulatedMatrix
    sim_clock: Any                   # sensors.simmatrix.SimClock: the scan grid's time
    start_t: float
    end_at: float
    emulator: ClockEmulator | None = None
    actions: list[tuple[float, str, str]] = field(default_factory=list)  # (t, action, hand)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    done: list[tuple[float, str, str]] = field(default_factory=list)

    def start_hands(self, clock: Any) -> None:
        """Start the hands' thread: presses and cable pulls at their session times."""
        if not self.actions:
            return

        def run() -> None:
            for t, action, hand in self.actions:
                if not clock.sleep_until(t, self._stop):
                    return
                emu = self.emulator
                assert emu is not None
                if action == "press":
                    emu.press(hand)  # type: ignore[arg-type]
                elif action == "unplug":
                    emu.unplug()
                elif action == "replug":
                    emu.replug()
                self.done.append((t, action, hand))

        self._thread = threading.Thread(target=run, name="rig-run-hands", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        if self.emulator is not None:
            self.emulator.stop()


def build_world(session: SimulatedSession, *, clock: Callable[[], float], start_t: float = 0.0,
                faults: tuple[str, ...] = (), seed: int = 0, pinmap: Any = None, wiring: Any = None,
                protocol: str | None = "line", white_side: str = "left", unplugs: tuple[Unplug, ...] = (),
                model: HumanModel | None = None) -> SimulatedWorld:
    """Schedule ``session`` on a simulated matrix and (``protocol`` not None) a clock emulator, from ``start_t``."""
    from sensors.simmatrix import SimClock, SimulatedMatrix

    sim_clock = SimClock(start_t)
    matrix = SimulatedMatrix(session.header.variant, pinmap=pinmap, wiring=wiring, faults=faults, seed=seed,
                             clock=sim_clock)
    matrix.set_occupied(occupancy_at(session, start_t), start_t - 1.0, bounce=False)
    for f in session.frames:
        if f.t > start_t:
            matrix.set_occupied(f.occupied, f.t)
    world = SimulatedWorld(session, matrix, sim_clock, start_t, session.duration + TAIL_S)
    if protocol is None:
        return world
    model = model or HumanModel()
    tc = TimeControl(model.base_ms, model.increment_ms,
                     IncrementMode.FISCHER if model.increment_ms else IncrementMode.NONE)
    sides = SideMap(white_side)  # type: ignore[arg-type]
    virtual: list[float | None] = [0.0]

    def emu_now() -> float:
        v = virtual[0]
        return clock() if v is None else v

    emu = make_emulator(protocol, tc, now=emu_now)
    presses = [e for e in session.events if isinstance(e, ClockEvent) and e.event == "press"]
    # the arbiter starts the clock of the side to move at the start (000 6.3c)
    first = session.header.fen
    from rig.board import Board

    to_move = "white" if Board(session.header.variant, first).turn else "black"
    emu.model.start(sides.hand(to_move))  # type: ignore[arg-type]
    for p in presses:                      # what the clock went through before the (resumed) start
        if p.t <= start_t:
            virtual[0] = p.t
            emu.model.press(sides.hand(p.side))  # type: ignore[arg-type]
    virtual[0] = None
    actions: list[tuple[float, str, str]] = [(p.t, "press", sides.hand(p.side))  # type: ignore[arg-type]
                                             for p in presses if p.t > start_t]
    for u in unplugs:
        actions += [(u.at, "unplug", ""), (u.at + u.seconds, "replug", "")]
    actions.sort(key=lambda a: a[0])
    world.emulator = emu
    world.actions = actions
    emu.start()
    return world
