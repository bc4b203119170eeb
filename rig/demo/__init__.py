"""``rig demo``: a simulated board plays a real game, and the terminal shows it live.

The session comes from the simulator (:mod:`rig.simulate`); the reconstruction engine is fed one event at a
time in scaled real time, and :mod:`rig.demo.view` shows what it reconstructs.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import IO, Callable

from rig.demo.view import AnsiScreen, GameView, PlainLog
from rig.reconstruct import Reconstructor
from rig.simulate import SimulatedSession

__all__ = ["DEMO_DIR", "demo_game_path", "auto_speed", "play", "DemoResult"]

#: the bundled real games (rig/data/demo/SOURCES.md)
DEMO_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "demo")
#: a whole game is shown in about this many seconds at the default speed
WATCH_SECONDS = 90.0


def demo_game_path(variant: str) -> str:
    return os.path.join(DEMO_DIR, f"{variant}.pdn")


def auto_speed(session: SimulatedSession, seconds: float = WATCH_SECONDS) -> float:
    """The speed that shows the whole session in about ``seconds`` (never slower than real time)."""
    return max(1.0, session.duration / seconds)


@dataclass
class DemoResult:
    view: GameView
    engine: Reconstructor


def play(session: SimulatedSession, screen: AnsiScreen | PlainLog, *, title: str, info: str, recorded: str,
         speed: float, sleep: Callable[[float], None] = time.sleep,
         clock: Callable[[], float] = time.monotonic, tick_s: float = 0.25) -> DemoResult:
    """Feed the session to the engine at ``speed`` times real time, updating ``screen`` as outputs come."""
    engine = Reconstructor(session.header)
    view = GameView(title, engine.board)
    screen.start(view, info)
    t0 = session.events[0].t if session.events else 0.0
    wall0 = clock()
    for ev in session.events:
        due = wall0 + (ev.t - t0) / speed
        while True:
            left = due - clock()
            if left <= 0:
                break
            sleep(min(left, tick_s))
            screen.tick(view, t0 + (clock() - wall0) * speed)
        outputs = engine.feed(ev)
        for out in outputs:
            view.update(out)
        view.board = engine.board
        if outputs:
            screen.show(view, outputs, ev.t)
    outputs = engine.finish()
    for out in outputs:
        view.update(out)
    view.board = engine.board
    if outputs:
        screen.show(view, outputs, view.t)
    screen.finish(view, recorded)
    return DemoResult(view, engine)


def screen_for(stream: IO[str], plain: bool) -> AnsiScreen | PlainLog:
    """ANSI when the stream is a terminal and ``plain`` is not asked for."""
    if plain or not (hasattr(stream, "isatty") and stream.isatty()):
        return PlainLog(stream)
    return AnsiScreen(stream)
