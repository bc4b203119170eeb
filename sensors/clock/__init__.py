"""Game clocks: one event vocabulary for every clock the rig can read.

The clock is part of the move: pressing it completes the move (FPD 000 6.2a),
an illegal move counts as made when the clock is pressed (000 7.5a), pressing
without moving is itself irregular (000 7.5b), a fallen flag loses (CODEX 004
art. 29, 57.C) and two fallen flags draw (004 art. 59.A, 60.A). The rig does
not judge any of that here: drivers only report what the clock did, as
:class:`ClockSignal` values, and :func:`session_events` turns them into
:class:`rig.session.ClockEvent` lines for the session file and the
reconstruction engine.

Drivers (each a :class:`ClockDevice`, a context manager):

- :class:`sensors.clock.dgt.DgtClock` -- a DGT board relaying a DGT 3000/XL clock (DGT serial protocol);
- :class:`sensors.clock.line.LineClock` -- the open line protocol (docs/clock-line-protocol.md);
- :class:`sensors.clock.gpio.GpioClock` -- two push buttons on GPIO, the Pi keeps the time.

Nothing here imports Pi-only or serial modules at import time.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from typing import Any, Callable, ClassVar, Iterable, Iterator, Literal

from rig.errors import RigError
from rig.session import SIDES, ClockEvent, Side

__all__ = [
    "Side",
    "ClockHand",
    "SIDES",
    "HANDS",
    "ClockError",
    "ClockNotFoundError",
    "ClockSignal",
    "Press",
    "Times",
    "Flag",
    "Pause",
    "Resume",
    "Disconnected",
    "Reconnected",
    "ClockState",
    "ClockDevice",
    "SideMap",
    "to_session_event",
    "session_events",
    "format_ms",
]

log = logging.getLogger(__name__)

ClockHand = Literal["left", "right"]  #: physical side of the clock, seen from the front (the arbiter's view)
HANDS: tuple[ClockHand, ClockHand] = ("left", "right")


class ClockError(RigError, OSError):
    """A clock that cannot be reached or spoken to."""


class ClockNotFoundError(ClockError, FileNotFoundError):
    """No clock at the given port, USB id or path."""


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class ClockSignal:
    """Something the clock did. ``t`` is the host's monotonic time (seconds) when the rig learned it."""

    t: float
    kind: ClassVar[str] = ""


@dataclass(frozen=True)
class Press(ClockSignal):
    """``side`` pressed its clock, ending its move (000 6.2a). Times are those shown after the press
    (increment included) when the clock reports them. ``at`` is when it happened on the clock if that
    differs from ``t`` (an event replayed after a reconnection); ``inferred`` marks a press deduced from
    the lever position after a gap (DGT), not reported by the clock."""

    side: Side
    white_ms: int | None = None
    black_ms: int | None = None
    at: float | None = None
    inferred: bool = False
    replayed: bool = False
    kind: ClassVar[str] = "press"


@dataclass(frozen=True)
class Times(ClockSignal):
    """The times both clocks show; ``running`` is the side whose clock counts (None: stopped)."""

    white_ms: int
    black_ms: int
    running: Side | None = None
    kind: ClassVar[str] = "time"


@dataclass(frozen=True)
class Flag(ClockSignal):
    """``side``'s time is over (000 6.1 "queda de seta"; 004 art. 29, 57.C; both flags: 59.A/60.A)."""

    side: Side
    at: float | None = None
    replayed: bool = False
    kind: ClassVar[str] = "flag"


@dataclass(frozen=True)
class Pause(ClockSignal):
    """Both clocks stopped (000 6.4c-d: the arbiter suspends, or a player stops them to call him)."""

    white_ms: int | None = None
    black_ms: int | None = None
    at: float | None = None
    replayed: bool = False
    kind: ClassVar[str] = "pause"


@dataclass(frozen=True)
class Resume(ClockSignal):
    """The clocks run again (or start: 000 6.3c); ``running`` is the side whose clock now counts."""

    running: Side | None = None
    at: float | None = None
    replayed: bool = False
    kind: ClassVar[str] = "resume"


@dataclass(frozen=True)
class Disconnected(ClockSignal):
    """The link to the clock is lost (USB unplugged, port closed); a gap in the record begins."""

    reason: str = ""
    kind: ClassVar[str] = "disconnected"


@dataclass(frozen=True)
class Reconnected(ClockSignal):
    """The link is back after ``gap_s`` seconds. ``state_lost``: the clock restarted during the gap, so
    what happened then cannot be recovered (None: unknown)."""

    gap_s: float = 0.0
    state_lost: bool | None = False
    kind: ClassVar[str] = "reconnected"


@dataclass(frozen=True)
class ClockState:
    """A snapshot of what the rig knows about the clock."""

    white_ms: int | None = None
    black_ms: int | None = None
    running: Side | None = None
    paused: bool = False
    flags: frozenset[Side] = frozenset()
    connected: bool = False
    presses: int = 0


@dataclass(frozen=True)
class SideMap:
    """Which physical side of the clock is White's (arbiter's choice, 000 6.3b; 004 art. 22)."""

    white: ClockHand = "left"

    def __post_init__(self) -> None:
        if self.white not in HANDS:
            raise ValueError(f"white side must be left or right, got {self.white!r}")

    def side(self, hand: ClockHand) -> Side:
        return "white" if hand == self.white else "black"

    def hand(self, side: Side) -> ClockHand:
        other: ClockHand = "right" if self.white == "left" else "left"
        return self.white if side == "white" else other


# --------------------------------------------------------------------------- session lines


def to_session_event(sig: ClockSignal, t0: float = 0.0, source: str | None = None) -> list[ClockEvent]:
    """The session line(s) for one signal, ``t`` relative to ``t0`` (the session start, same clock).

    A press gives a ``press`` line and, when the times are known, a ``time`` line at the same ``t``
    (docs/session-format.md example). Optional extras: ``source``, ``inferred``, ``replayed``, ``clock_t``
    (when it happened on the clock), ``reason``, ``gap_s``, ``state_lost``.
    """
    if not isinstance(sig, ClockSignal):
        raise TypeError(f"not a clock signal: {sig!r}")
    t = max(0.0, sig.t - t0)
    extra: dict[str, Any] = {"source": source} if source else {}
    at = getattr(sig, "at", None)
    if at is not None and abs(at - sig.t) > 1e-3:
        extra["clock_t"] = round(max(0.0, at - t0), 4)
    if getattr(sig, "replayed", False):
        extra["replayed"] = True
    if isinstance(sig, Press):
        if sig.inferred:
            extra["inferred"] = True
        out = [ClockEvent(t, "press", side=sig.side, white_ms=sig.white_ms, black_ms=sig.black_ms, extra=extra)]
        if sig.white_ms is not None and sig.black_ms is not None:
            out.append(ClockEvent(t, "time", white_ms=sig.white_ms, black_ms=sig.black_ms,
                                  extra={"source": source} if source else {}))
        return out
    if isinstance(sig, Times):
        if sig.running:
            extra["running"] = sig.running
        return [ClockEvent(t, "time", white_ms=sig.white_ms, black_ms=sig.black_ms, extra=extra)]
    if isinstance(sig, Flag):
        return [ClockEvent(t, "flag", side=sig.side, extra=extra)]
    if isinstance(sig, Pause):
        return [ClockEvent(t, "pause", white_ms=sig.white_ms, black_ms=sig.black_ms, extra=extra)]
    if isinstance(sig, Resume):
        if sig.running:
            extra["running"] = sig.running
        return [ClockEvent(t, "resume", extra=extra)]
    if isinstance(sig, Disconnected):
        extra["reason"] = sig.reason
        return [ClockEvent(t, "disconnected", extra=extra)]
    if isinstance(sig, Reconnected):
        extra["gap_s"] = round(sig.gap_s, 3)
        extra["state_lost"] = sig.state_lost
        return [ClockEvent(t, "reconnected", extra=extra)]
    raise TypeError(f"not a clock signal: {sig!r}")


def session_events(signals: Iterable[ClockSignal], t0: float = 0.0, source: str | None = None,
                   time_interval_s: float = 0.0) -> list[ClockEvent]:
    """Session lines for a stream of signals, in non-decreasing ``t`` (a late signal is clamped to the
    last ``t``; its own time stays in ``clock_t``). Periodic ``time`` lines closer than
    ``time_interval_s`` to the previous one are dropped (press times are always kept)."""
    out: list[ClockEvent] = []
    last_t = 0.0
    last_time_line = float("-inf")
    for sig in signals:
        for ev in to_session_event(sig, t0, source):
            if ev.t < last_t:
                ev = replace(ev, t=last_t)
            if ev.event == "time" and not isinstance(sig, Press):
                if ev.t - last_time_line < time_interval_s:
                    continue
            if ev.event == "time":
                last_time_line = ev.t
            last_t = ev.t
            out.append(ev)
    return out


# --------------------------------------------------------------------------- devices


class ClockDevice(ABC):
    """A clock the rig reads. Signals are queued by a background thread; :meth:`poll` never blocks
    (for the sensor loop), :meth:`get` waits, iteration runs until the device ends."""

    source: ClassVar[str] = "clock"

    def __init__(self, *, white_side: ClockHand = "left", now: Callable[[], float] = time.monotonic,
                 on_signal: Callable[[ClockSignal], None] | None = None):
        self.sides = SideMap(white_side)
        self._now = now
        self._queue: "queue.Queue[ClockSignal | None]" = queue.Queue()
        self._on_signal = on_signal
        self._state = ClockState()
        self._state_lock = threading.Lock()
        self._ended = threading.Event()

    # -- life cycle
    @abstractmethod
    def open(self) -> "ClockDevice":
        """Connect and start reporting."""

    @abstractmethod
    def close(self) -> None:
        """Stop reporting and release the device."""

    def __enter__(self) -> "ClockDevice":
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def ended(self) -> bool:
        """True once the device stops producing signals (closed, or port gone without reconnection)."""
        return self._ended.is_set()

    def _end(self) -> None:
        if not self._ended.is_set():
            self._ended.set()
            self._queue.put(None)

    # -- consuming
    def poll(self) -> list[ClockSignal]:
        """All signals queued so far, without waiting."""
        out: list[ClockSignal] = []
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return out
            if item is None:
                self._queue.put(None)
                return out
            out.append(item)

    def get(self, timeout: float | None = None) -> ClockSignal | None:
        """The next signal, waiting up to ``timeout`` seconds; None on timeout or when ended."""
        try:
            item = self._queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if item is None:
            self._queue.put(None)
        return item

    def __iter__(self) -> Iterator[ClockSignal]:
        while True:
            item = self.get()
            if item is None:
                return
            yield item

    @property
    def state(self) -> ClockState:
        with self._state_lock:
            return self._state

    # -- producing
    def _emit(self, sig: ClockSignal) -> None:
        with self._state_lock:
            s = self._state
            if isinstance(sig, Press):
                s = replace(s, presses=s.presses + 1, running="black" if sig.side == "white" else "white",
                            paused=False)
                if sig.white_ms is not None and sig.black_ms is not None:
                    s = replace(s, white_ms=sig.white_ms, black_ms=sig.black_ms)
            elif isinstance(sig, Times):
                s = replace(s, white_ms=sig.white_ms, black_ms=sig.black_ms, running=sig.running)
            elif isinstance(sig, Flag):
                s = replace(s, flags=s.flags | {sig.side})
            elif isinstance(sig, Pause):
                s = replace(s, paused=True, running=None)
            elif isinstance(sig, Resume):
                s = replace(s, paused=False, running=sig.running)
            elif isinstance(sig, Disconnected):
                s = replace(s, connected=False)
            elif isinstance(sig, Reconnected):
                s = replace(s, connected=True)
            self._state = s
        log.debug("%s: %r", self.source, sig)
        self._queue.put(sig)
        if self._on_signal is not None:
            try:
                self._on_signal(sig)
            except Exception:  # a consumer's bug must not kill the reader thread
                log.exception("%s: on_signal callback failed", self.source)

    def _set_connected(self, connected: bool) -> None:
        with self._state_lock:
            self._state = replace(self._state, connected=connected)

    def __repr__(self) -> str:
        s = self.state
        times = (f"white={_fmt(s.white_ms)} black={_fmt(s.black_ms)}" if s.white_ms is not None else "no times")
        run = "paused" if s.paused else (f"{s.running} running" if s.running else "stopped")
        flags = f" flags={','.join(sorted(s.flags))}" if s.flags else ""
        conn = "connected" if s.connected else ("ended" if self.ended else "not connected")
        return f"<{type(self).__name__} {conn} {times} {run} presses={s.presses}{flags}>"


def _fmt(ms: int | None) -> str:
    if ms is None:
        return "-"
    s = ms // 1000
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def format_ms(ms: int | None) -> str:
    """``H:MM:SS`` (the PDN clock comment form, docs/rules.md "Record keeping")."""
    return _fmt(ms)
