"""The live loop of ``rig run``: sources -> journal -> engine -> sinks, on one consumer thread.

The sensor threads (matrix scanner, clock reader) only put what they see into
the :class:`~rig.live.sources.Inbox`. The consumer (:meth:`LiveLoop.run`, the
caller's thread) takes items in time order up to the sources' common horizon
and, for each event:

1. appends it to the journal (written, flushed, fsynced: the journal is the
   source of truth; it is written before anything is derived from it);
2. feeds it to the reconstruction engine;
3. shows the engine's outputs and, after a move, an irregularity or the end of
   the game, rewrites the PDN and the report atomically next to the session.

Between events it calls ``engine.advance(horizon)``, so a move commits (debounce
window, ``stable_s`` without a clock) without waiting for the next frame. Event
times are kept on the journal's 0.1 ms grid, so the engine sees exactly what
``rig transcribe`` will read back: the live PDN and the transcription agree.
"""

from __future__ import annotations

import heapq
import json
import logging
import math
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable

from rig.live.journal import Journal, RunPaths, atomic_write
from rig.live.screen import RunView
from rig.live.sinks import SinkSet
from rig.live.sources import Inbox, Item, Source, clock_event_at
from rig.reconstruct import (GameEnd, Irregularity, IrregularityUpdate, MoveEntry, MoveWithdrawn, PositionLost,
                             PositionRestored, Reconstructor)
from rig.session import HEALTH_KINDS, ClockEvent, Event, Frame, HealthLine

__all__ = ["LiveLoop", "RunOutcome", "RECORD_OUTPUTS", "GRID"]

log = logging.getLogger(__name__)

#: outputs after which the PDN and the report are rewritten
RECORD_OUTPUTS = (MoveEntry, MoveWithdrawn, Irregularity, IrregularityUpdate, GameEnd, PositionLost,
                  PositionRestored)
#: the journal's time resolution (docs/session-format.md ``t`` written with 4 decimals)
GRID = 1e-4


def _down(t: float) -> float:
    return math.floor(t / GRID + 1e-6) * GRID if math.isfinite(t) else t


@dataclass
class RunOutcome:
    """How a run ended and what it did."""

    reason: str                     # game-end, stopped, simulation-end, source-ended, source-failed
    result: str = "*"
    moves: int = 0
    irregularities: int = 0
    lines: int = 0                  # journal lines appended by this run
    health: int = 0
    clamped: int = 0                # late clock lines moved to the engine's time
    engine_error: str | None = None
    sync_s: float = 0.0             # time spent writing+fsyncing journal lines
    record_writes: int = 0
    record_s: float = 0.0           # time spent rewriting PDN + report
    wall_s: float = 0.0
    max_lag_s: float = 0.0          # largest (session) delay between an event's time and its release
    source_errors: list[str] = field(default_factory=list)


class LiveLoop:
    """Consumes the sources' inbox on the calling thread until the game ends (plus ``grace_s``), ``stop`` is set,
    the session time reaches ``end_at`` (simulations), or a source ends."""

    def __init__(self, engine: Reconstructor, journal: Journal, paths: RunPaths, sources: Iterable[Source],
                 clock: Callable[[], float], *, view: RunView | None = None, screen=None,
                 health_journal: Journal | None = None, stop: threading.Event | None = None,
                 grace_s: float = 3.0, end_at: float | None = None, tick_s: float = 0.02, redraw_s: float = 0.25,
                 on_event: Callable[[Event], None] | None = None, on_started: Callable[[], None] | None = None,
                 sinks: Iterable[object] = ()):
        self.engine = engine
        self.journal = journal
        self.paths = paths
        self.sources = list(sources)
        self.clock = clock
        self.view = view
        self.screen = screen
        self.health_journal = health_journal
        self.stop = stop or threading.Event()
        self.grace_s = grace_s
        self.end_at = end_at
        self.tick_s = tick_s
        self.redraw_s = redraw_s
        self.on_event = on_event
        self.on_started = on_started
        #: consumers of the journaled events and the engine's outputs (pages, MQTT): rig.live.sinks
        self.sinks = SinkSet(list(sinks))
        self.inbox = Inbox()
        self.t = 0.0                    # the engine's time (never goes back)
        self.ended_at: float | None = None
        self._pending: list[Item] = []
        self._dirty = False
        self._dead: str | None = None
        #: extra fields for the next frame line (a resumed session without a clock marks its gap there)
        self.mark_next_frame: dict | None = None
        self.outcome = RunOutcome("stopped")

    # -- the engine and the sinks -------------------------------------------------------------

    def replay(self, events: Iterable[Event]) -> int:
        """Feed recorded events (a resumed journal) to the engine without journaling them again."""
        n = 0
        for ev in events:
            self._engine(lambda: self.engine.feed(ev), show=False)
            self.t = max(self.t, ev.t)
            n += 1
        self.write_record()
        return n

    def _engine(self, call: Callable[[], list], show: bool = True) -> None:
        if self._dead is not None:
            return
        try:
            outs = call()
        except Exception as exc:  # noqa: BLE001 - the journal goes on; the game can be transcribed later
            self._dead = f"{type(exc).__name__}: {exc}"
            log.exception("the reconstruction engine failed at t=%.3f", self.t)
            self.note(f"the engine failed ({self._dead}); the session is still recorded: "
                       f"rig transcribe {self.paths.session}")
            return
        if not outs:
            return
        if self.sinks:
            self.sinks.call("on_outputs", self, outs)
        for out in outs:
            if self.view is not None:
                self.view.update(out)
            if isinstance(out, GameEnd):
                self.ended_at = out.t
            if isinstance(out, RECORD_OUTPUTS):
                self._dirty = True
        if self.view is not None:
            self.view.board = self.engine.board
            if show and self.screen is not None:
                self.screen.show(self.view, outs, self.t)

    def note(self, text: str) -> None:
        """A note of the run for the terminal view (a resumed journal, a torn line, a failed engine)."""
        if self.view is not None:
            self.view.notes.append(text)
            if self.screen is not None and hasattr(self.screen, "note"):
                self.screen.note(self.view, text)

    def write_record(self) -> None:
        """Rewrite GAME.pdn and GAME.report.json atomically."""
        if self._dead is not None:
            return
        t = time.perf_counter()
        atomic_write(self.paths.pdn, self.engine.pdn())
        atomic_write(self.paths.report, json.dumps(self.engine.report(), indent=2) + "\n")
        self.outcome.record_writes += 1
        self.outcome.record_s += time.perf_counter() - t
        self._dirty = False

    def append(self, ev: Event) -> None:
        """Journal one event (durably), then feed it to the engine."""
        t = round(ev.t, 4)
        if t < self.t:
            self.outcome.clamped += 1
            t = self.t
        if t != ev.t:
            late = t > ev.t + GRID
            ev = clock_event_at(ev, t) if late and isinstance(ev, ClockEvent) else replace(ev, t=t)
        if self.mark_next_frame is not None and isinstance(ev, Frame):
            line = ev.to_json()
            line.update(self.mark_next_frame)
            self.mark_next_frame = None
            self.journal.append(line)
        else:
            self.journal.append(ev)
        self.outcome.lines += 1
        self.t = t
        if self.on_event is not None:
            self.on_event(ev)
        if self.sinks:
            self.sinks.call("on_event", self, ev)
        self._engine(lambda: self.engine.feed(ev))

    def submit(self, ev: Event, source: str = "arbiter") -> None:
        """Thread-safe: queue an event from outside the sensors (an arbiter's decision from the pages).

        It is journaled, then fed to the engine, in time order with the sensors' events, like any other line.
        """
        self.inbox.put(ev.t, "event", ev, source)

    def _health(self, ev) -> None:
        """A switch health finding of the scanner: to the sidecar log, and into the session as a ``health``
        line (docs/session-format.md) fed to the engine like any other, so that the engine masks the switch
        live and ``rig transcribe`` of the journal gives the same result."""
        self.outcome.health += 1
        if self.health_journal is not None:
            self.health_journal.append(ev.to_json())
        if getattr(ev, "kind", None) in HEALTH_KINDS:
            extra = {k: v for k, v in ev.to_json().items()
                     if k not in ("type", "t", "kind", "square", "masked", "message")}
            self.append(HealthLine(ev.t, ev.kind, ev.square, bool(ev.masked), ev.message, extra))
        if self.sinks:
            self.sinks.call("on_health", self, ev)
        if self.view is not None:
            self.view.health.append(ev)
            if self.screen is not None and hasattr(self.screen, "health"):
                self.screen.health(self.view, ev)

    # -- the loop ----------------------------------------------------------------------------

    def horizon(self) -> float:
        hs = [s.horizon() for s in self.sources]
        return min(hs) if hs else self.clock()

    def _release(self, upto: float) -> None:
        while self._pending and self._pending[0].t <= upto:
            item = heapq.heappop(self._pending)
            lag = self.clock() - item.t
            if lag > self.outcome.max_lag_s:
                self.outcome.max_lag_s = lag
            if item.kind == "event":
                self.append(item.payload)
            else:
                self._health(item.payload)

    def _take(self, items: list[Item]) -> None:
        for item in items:
            heapq.heappush(self._pending, item)

    def _finished(self, now: float, h: float) -> str | None:
        if self.stop.is_set():
            return "stopped"
        if self.ended_at is not None and now - self.ended_at >= self.grace_s:
            return "game-end"
        if self.end_at is not None and min(h, now) >= self.end_at:
            return "simulation-end"
        for s in self.sources:
            if s.ended:
                err = getattr(s, "error", None)
                if err is not None:
                    self.outcome.source_errors.append(f"{s.name}: {type(err).__name__}: {err}")
                return "source-ended"
        return None

    def run(self) -> RunOutcome:
        """Start the sources and consume until the end; then close the sources, settle, write the record."""
        wall = time.perf_counter()
        reason = "stopped"
        try:
            for s in self.sources:
                try:
                    s.start(self.inbox)
                except Exception as exc:  # noqa: BLE001 - pins or port that cannot be opened: end the run
                    self.outcome.source_errors.append(f"{s.name}: cannot start: {type(exc).__name__}: {exc}")
                    self.stop.set()
                    break
            if self.on_started is not None and not self.stop.is_set():
                self.on_started()
            if self.sinks:
                self.sinks.call("on_start", self)
            if self.stop.is_set() and self.outcome.source_errors:
                reason = "source-failed"
            last_draw = time.monotonic()
            while reason != "source-failed":
                self._take(self.inbox.get(self.tick_s))
                h = self.horizon()
                self._release(h)
                if math.isfinite(h):
                    target = _down(h)
                    if target > self.t:
                        self.t = target
                        self._engine(lambda: self.engine.advance(target))
                if self._dirty:
                    self.write_record()
                if self.screen is not None and self.view is not None and time.monotonic() - last_draw >= self.redraw_s:
                    self.screen.tick(self.view, self.clock())
                    last_draw = time.monotonic()
                done = self._finished(self.clock(), h)
                if done is not None:
                    reason = done
                    break
        finally:
            for s in self.sources:
                try:
                    s.close()
                except Exception:  # noqa: BLE001 - close every source it can
                    log.exception("closing the %s source failed", s.name)
            # what the sources delivered before closing is part of the session
            self._take(self.inbox.get(0.0))
            self._release(float("inf"))
            self._engine(lambda: self.engine.finish())
            self.write_record()
            if self.sinks:
                self.sinks.call("on_close", self)
        o = self.outcome
        o.reason = reason
        o.result = self.engine.result
        o.moves = len(self.engine.moves)
        o.irregularities = len(self.engine.irregularities)
        o.engine_error = self._dead
        o.sync_s = self.journal.sync_s
        o.wall_s = time.perf_counter() - wall
        return o
