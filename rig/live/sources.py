"""Live sources: the matrix scanner and the game clock, each on its own thread, feeding one inbox.

Every source stamps what it sees with the session time (:class:`SessionClock`:
monotonic seconds since the session start, scaled for simulations) and
publishes a *horizon*: the time up to which it has delivered everything (no
later item of that source will be older). The consumer releases inbox items
in time order up to the smallest horizon, so a clock press and a frame that
cross on their way in still reach the journal and the engine in time order,
and the sensor threads never wait for the consumer (the inbox is unbounded).
"""

from __future__ import annotations

import abc
import itertools
import logging
import math
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from sensors.clock import ClockDevice, ClockSignal, Times, to_session_event
from rig.session import ClockEvent, Frame

__all__ = ["SessionClock", "Item", "Inbox", "Source", "MatrixSource", "SimMatrixSource", "ClockSource", "CameraSource"]

log = logging.getLogger(__name__)


class SessionClock:
    """Session seconds: ``base`` plus the monotonic time since construction, times ``speed``.

    ``speed`` > 1 runs a simulation faster than real time; ``base`` continues a resumed session.
    ``started=False``: the time stands at ``base`` until :meth:`start` (a simulation waits for its clock
    driver to be connected before the hands begin).
    """

    def __init__(self, base: float = 0.0, speed: float = 1.0, monotonic: Callable[[], float] = time.monotonic,
                 *, started: bool = True):
        if speed <= 0:
            raise ValueError(f"speed must be positive, not {speed}")
        self.base = float(base)
        self.speed = float(speed)
        self._mono = monotonic
        self._start: float | None = monotonic() if started else None

    def start(self) -> None:
        if self._start is None:
            self._start = self._mono()

    def __call__(self) -> float:
        if self._start is None:
            return self.base
        return self.base + (self._mono() - self._start) * self.speed

    def real(self, session_s: float) -> float:
        """Real seconds for a span of session seconds."""
        return session_s / self.speed

    def sleep_until(self, t: float, stop: threading.Event | None = None) -> bool:
        """Wait until the session time is ``t``; False if ``stop`` was set first."""
        while True:
            left = 0.01 if self._start is None else self.real(t - self())
            if left <= 0:
                return True
            if stop is not None:
                if stop.wait(min(left, 0.05)):
                    return False
            else:
                time.sleep(min(left, 0.05))

    def __repr__(self) -> str:
        return f"<SessionClock t={self():.3f} speed={self.speed:g}>"


@dataclass(order=True)
class Item:
    """One thing a source saw: ``kind`` ``event`` (a session line) or ``health`` (a switch health event)."""

    t: float
    seq: int
    kind: str = field(compare=False)
    payload: Any = field(compare=False)
    source: str = field(compare=False, default="")


class Inbox:
    """Thread-safe, unbounded: producers never block."""

    def __init__(self) -> None:
        self._q: "queue.Queue[Item]" = queue.Queue()
        self._seq = itertools.count()
        self.wake = threading.Event()

    def put(self, t: float, kind: str, payload: Any, source: str = "") -> None:
        self._q.put(Item(t, next(self._seq), kind, payload, source))

    def get(self, timeout: float) -> list[Item]:
        """What arrived, waiting up to ``timeout`` seconds for the first item."""
        out: list[Item] = []
        try:
            out.append(self._q.get(timeout=timeout))
        except queue.Empty:
            return out
        while True:
            try:
                out.append(self._q.get_nowait())
            except queue.Empty:
                return out


class Source(Protocol):
    name: str

    def start(self, inbox: Inbox) -> None: ...

    def horizon(self) -> float: ...

    @property
    def ended(self) -> bool: ...

    def close(self) -> None: ...


class _Thread(abc.ABC):
    """A source running on its own daemon thread until :meth:`close`."""

    name = "source"

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._horizon = float("-inf")
        self._ended = threading.Event()
        self.error: BaseException | None = None
        self.inbox: Inbox | None = None

    def start(self, inbox: Inbox) -> None:
        self.inbox = inbox
        self._thread = threading.Thread(target=self._main, name=f"rig-run-{self.name}", daemon=True)
        self._thread.start()

    def _main(self) -> None:
        try:
            self._run()
        except BaseException as exc:  # noqa: BLE001 - reported to the consumer, which ends the run
            self.error = exc
            log.exception("%s source failed", self.name)
        finally:
            self._ended.set()
            if self.inbox is not None:
                self.inbox.wake.set()

    @abc.abstractmethod
    def _run(self) -> None:
        """The source's loop, on its own thread, until ``self._stop`` is set."""

    def horizon(self) -> float:
        return float("inf") if self._ended.is_set() else self._horizon

    @property
    def ended(self) -> bool:
        return self._ended.is_set()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)


class MatrixSource(_Thread):
    """A :class:`~sensors.matrix.MatrixScanner` scanned at its own rate on its own thread.

    The scanner must stamp frames in session time (``clock`` = the :class:`SessionClock`, ``t0=0``).
    """

    name = "matrix"

    def __init__(self, scanner: Any, clock: Callable[[], float]):
        super().__init__()
        self.scanner = scanner
        self.clock = clock
        self.scans = 0

    def _emit(self, events: list) -> None:
        assert self.inbox is not None
        for ev in events:
            self.inbox.put(ev.t, "event" if isinstance(ev, Frame) else "health", ev, self.name)

    def _run(self) -> None:
        period = 1.0 / self.scanner.scan_hz
        nxt = time.monotonic()
        while not self._stop.is_set():
            before = self.clock()
            self._emit(self.scanner.scan())
            self.scans += 1
            self._horizon = before  # the next scan's frames are stamped later than this
            nxt += period
            delay = nxt - time.monotonic()
            if delay > 0:
                self._stop.wait(delay)
            else:
                nxt = time.monotonic()


class SimMatrixSource(MatrixSource):
    """The scanner on a simulated matrix: it scans on the matrix's virtual scan grid (``sim_clock``, a
    :class:`~sensors.simmatrix.SimClock` shared by matrix and scanner) and keeps up with the session clock.
    Busy stretches are scanned at ``scan_hz`` of session time, so the scanner sees exactly what it would see
    at full speed; once the scanner is quiet (settled, nothing half-way through its debounce) the scans jump
    to the matrix's next scheduled change (a constant matrix reads the same), and the thread sleeps until a
    scan is due instead of polling. Its horizon is then the session clock: nothing can come before that
    change."""

    name = "matrix"
    #: session seconds between two scans of a matrix with nothing scheduled (the end of a game)
    IDLE_SCAN_S = 1.0
    #: the longest the thread sleeps at once (real seconds): a stop is seen within it anyway
    MAX_SLEEP_S = 0.05

    def __init__(self, scanner: Any, clock: Callable[[], float], matrix: Any, sim_clock: Any, start: float):
        super().__init__(scanner, clock)
        self.matrix = matrix
        self.sim_clock = sim_clock
        self.start_t = start

    def horizon(self) -> float:
        h = super().horizon()
        return h if math.isinf(h) else min(h, self.clock())

    def _run(self) -> None:
        period = 1.0 / self.scanner.scan_hz
        speed = float(getattr(self.clock, "speed", 1.0))
        start, k = self.start_t, 0
        while not self._stop.is_set():
            target = self.clock()
            while not self._stop.is_set():
                t = start + k * period
                if t > target:
                    break
                self.sim_clock.now = t
                self._emit(self.scanner.scan())
                self.scans += 1
                k += 1
                if self.scanner.quiet:
                    nxt = self.matrix.next_change(t)
                    skip_to = max(target, t) + self.IDLE_SCAN_S if nxt is None else nxt
                    k = max(k, math.ceil((skip_to - start) / period - 1e-9))
                self._horizon = start + k * period - 1e-6
            due = (start + k * period - self.clock()) / speed
            self._stop.wait(min(self.MAX_SLEEP_S, max(0.0005, due)))


class CameraSource(_Thread):
    """A calibrated camera (:class:`vision.session.CameraBoard` over an opened :mod:`vision.capture` backend) on
    its own thread. Its horizon stays at the first picture of a position not yet agreed on or held back by the rules,
    so a clock press that comes meanwhile is still journaled after that position's frame. An image
    sequence (tests, demos) is paced by the session clock and ends the source when it runs out.
    It is also a sink of the loop: an arbiter's ``set-position`` releases what the rules held back."""

    name = "camera"

    def __init__(self, board: Any, capture: Any, clock: Callable[[], float]):
        super().__init__()
        self.board = board
        self.capture = capture
        self.clock = clock
        self._arbiter: "queue.Queue[tuple[str, float]]" = queue.Queue()

    def on_event(self, loop: Any, ev: Any) -> None:
        """Sink hook (the loop's thread): an arbiter's position reaches the camera's rules."""
        if getattr(ev, "action", None) == "set-position" and getattr(ev, "fen", None):
            self._arbiter.put((ev.fen, ev.t))

    def _take_arbiter(self) -> None:
        while True:
            try:
                fen, t = self._arbiter.get_nowait()
            except queue.Empty:
                return
            self.board.watcher.set_position(fen, t)

    def _run(self) -> None:
        try:
            base = None
            while not self._stop.is_set():
                got = self.capture.read()
                if got is None:
                    return
                if getattr(self.capture, "live", True):
                    t = self.clock()
                else:  # a recorded sequence: its own times, from now
                    base = self.clock() if base is None else base
                    t = base + got[0]
                    while not self._stop.is_set() and self.clock() < t:
                        self._stop.wait(0.005)
                assert self.inbox is not None
                self._take_arbiter()
                for frame in self.board.feed(t, got[1]):
                    self.inbox.put(frame.t, "event", frame, self.name)
                pending = self.board.pending_since
                self._horizon = t if pending is None else min(t, pending - 1e-6)
                self.inbox.wake.set()
        finally:
            self.capture.close()


class ClockSource:
    """A :class:`~sensors.clock.ClockDevice` (its reader thread is the driver's own) whose signals become session
    lines as they arrive. Periodic ``time`` lines closer than ``time_interval_s`` (session seconds) to the
    previous one are not kept (presses always carry their times). ``make_device(on_signal)`` builds the
    driver with this source's callback; it is opened by :meth:`start`."""

    name = "clock"

    def __init__(self, make_device: Callable[[Callable[[ClockSignal], None]], ClockDevice],
                 clock: Callable[[], float], *, time_interval_s: float = 5.0, margin_s: float = 0.005):
        self.make_device = make_device
        self.device: ClockDevice | None = None
        self.clock = clock
        self.time_interval_s = time_interval_s
        self.margin_s = margin_s
        self.inbox: Inbox | None = None
        self.signals = 0
        self._last_time = float("-inf")
        self._lock = threading.Lock()

    def on_signal(self, sig: ClockSignal) -> None:
        """The driver's callback (its reader thread)."""
        with self._lock:
            self.signals += 1
            if isinstance(sig, Times) and sig.t - self._last_time < self.time_interval_s:
                return
            for ev in to_session_event(sig, 0.0, self.device.source if self.device else None):
                if ev.event == "time":
                    self._last_time = ev.t
                assert self.inbox is not None
                self.inbox.put(ev.t, "event", ev, self.name)
        if self.inbox is not None:
            self.inbox.wake.set()

    def start(self, inbox: Inbox) -> None:
        self.inbox = inbox
        self.device = self.make_device(self.on_signal)
        self.device.open()

    def horizon(self) -> float:
        # a signal is stamped by the reader just before it is queued: allow for that instant
        return self.clock() - self.margin_s

    @property
    def ended(self) -> bool:
        return False

    def close(self) -> None:
        if self.device is not None:
            self.device.close()


def clock_event_at(ev: ClockEvent, t: float) -> ClockEvent:
    """``ev`` moved to ``t`` (a line that arrived late keeps its own time in ``clock_t``)."""
    extra = dict(ev.extra)
    extra.setdefault("clock_t", round(ev.t, 4))
    return ClockEvent(t, ev.event, ev.side, ev.white_ms, ev.black_ms, extra)
