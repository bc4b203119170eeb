"""The USB-serial link under the serial clock drivers: finding the port, a reader thread, and
reconnection with backoff when the cable is pulled mid-game.

A port is named by a path (``/dev/ttyACM0``; better a stable one such as
``/dev/serial/by-id/usb-...``, which survives re-enumeration) or by USB id:
``usb:VID:PID`` or ``usb:VID:PID:SERIAL`` (hex ids, as ``lsusb`` prints them),
looked up with :func:`serial.tools.list_ports.comports` at every (re)connection.
The reader thread never blocks the caller: data goes to a callback, and the
sensor loop reads the clock's signal queue with ``poll()``.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from sensors.clock import ClockNotFoundError

__all__ = ["Backoff", "UsbId", "parse_port_spec", "find_port", "SerialLink"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Backoff:
    """Delays between reconnection attempts: ``initial`` seconds, times ``factor``, capped at ``maximum``."""

    initial: float = 0.2
    factor: float = 2.0
    maximum: float = 5.0

    def delays(self) -> Iterator[float]:
        d = self.initial
        while True:
            yield d
            d = min(self.maximum, d * self.factor)


@dataclass(frozen=True)
class UsbId:
    """A USB device id: vendor and product (and optionally the serial number string)."""

    vid: int
    pid: int
    serial_number: str | None = None

    def matches(self, port: Any) -> bool:
        if getattr(port, "vid", None) != self.vid or getattr(port, "pid", None) != self.pid:
            return False
        return self.serial_number is None or getattr(port, "serial_number", None) == self.serial_number

    def __str__(self) -> str:
        base = f"usb:{self.vid:04x}:{self.pid:04x}"
        return f"{base}:{self.serial_number}" if self.serial_number else base


_USB_RE = re.compile(r"^usb:([0-9a-fA-F]{1,4}):([0-9a-fA-F]{1,4})(?::(.+))?$")


def parse_port_spec(spec: str) -> str | UsbId:
    """A path stays a path; ``usb:VID:PID[:SERIAL]`` becomes a :class:`UsbId`."""
    m = _USB_RE.match(spec.strip())
    if m:
        return UsbId(int(m[1], 16), int(m[2], 16), m[3])
    if spec.lower().startswith("usb:"):
        raise ValueError(f"bad USB id {spec!r}; expected usb:VID:PID or usb:VID:PID:SERIAL in hex, e.g. usb:2341:0043")
    return spec


def find_port(spec: str | UsbId, comports: Callable[[], list[Any]] | None = None) -> str:
    """The device path for a spec, or :class:`ClockNotFoundError` saying what was looked for."""
    if isinstance(spec, str):
        spec = parse_port_spec(spec)
    if isinstance(spec, str):
        if "://" in spec or os.path.exists(spec):
            return spec
        raise ClockNotFoundError(f"no clock at {spec} (the path does not exist)")
    if comports is None:
        from serial.tools import list_ports
        comports = list_ports.comports
    found = [p for p in comports() if spec.matches(p)]
    if not found:
        raise ClockNotFoundError(f"no USB serial device {spec} is plugged in")
    if len(found) > 1:
        log.warning("several devices match %s (%s); using %s; add the serial number to choose",
                    spec, ", ".join(p.device for p in found), found[0].device)
    return found[0].device


class SerialLink:
    """One serial port kept open by a reader thread that reconnects with backoff.

    Callbacks run in the reader thread: ``on_connect(reconnect: bool, gap_s: float)`` right after the port
    opens (send the handshake there), ``on_data(bytes)`` for every chunk read, ``on_disconnect(reason)``
    when the port is lost. Without ``reconnect`` the thread ends at the first loss and calls
    ``on_end()``.
    """

    def __init__(self, spec: str | UsbId, *, baudrate: int = 9600,
                 on_data: Callable[[bytes], None],
                 on_connect: Callable[[bool, float], None] = lambda reconnect, gap: None,
                 on_disconnect: Callable[[str], None] = lambda reason: None,
                 on_end: Callable[[], None] = lambda: None,
                 reconnect: bool = True, backoff: Backoff = Backoff(),
                 read_timeout: float = 0.05, serial_factory: Callable[..., Any] | None = None,
                 comports: Callable[[], list[Any]] | None = None, name: str = "clock"):
        self.spec = parse_port_spec(spec) if isinstance(spec, str) else spec
        self.baudrate = baudrate
        self.reconnect = reconnect
        self.backoff = backoff
        self.read_timeout = read_timeout
        self.name = name
        self._on_data, self._on_connect = on_data, on_connect
        self._on_disconnect, self._on_end = on_disconnect, on_end
        self._serial_factory = serial_factory
        self._comports = comports
        self._ser: Any = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.device: str | None = None
        self.connections = 0
        self._lost_at: float | None = None

    # ------------------------------------------------------------------ life cycle
    def _open_port(self) -> Any:
        device = find_port(self.spec, self._comports)
        factory = self._serial_factory
        if factory is None:
            import serial
            factory = serial.serial_for_url
        ser = factory(device, baudrate=self.baudrate, bytesize=8, parity="N", stopbits=1,
                      timeout=self.read_timeout, write_timeout=1.0, exclusive=True)
        self.device = device
        return ser

    def open(self, wait: bool = True) -> "SerialLink":
        """Open the port and start the reader. With ``wait`` a first failure raises
        :class:`ClockNotFoundError`; without, the reader keeps trying with backoff."""
        if self._thread is not None:
            return self
        first: Any = None
        if wait:
            try:
                first = self._open_port()
            except ClockNotFoundError:
                raise
            except (OSError, ValueError) as exc:  # serial.SerialException is an OSError
                raise ClockNotFoundError(f"cannot open {self.spec}: {exc}") from exc
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(first,), name=f"{self.name}-reader", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        self._thread = None
        self._drop()

    def __enter__(self) -> "SerialLink":
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connected(self) -> bool:
        return self._ser is not None

    def __repr__(self) -> str:
        state = f"connected to {self.device}" if self.connected else "not connected"
        return f"<SerialLink {self.spec} {state} connections={self.connections}>"

    # ------------------------------------------------------------------ I/O
    def write(self, data: bytes) -> bool:
        """Send bytes; False (logged) when the port is not open or the write fails."""
        with self._write_lock:
            ser = self._ser
            if ser is None:
                log.info("%s: not connected, dropped %d bytes to send", self.name, len(data))
                return False
            try:
                ser.write(data)
                return True
            except (OSError, ValueError) as exc:
                log.warning("%s: write failed: %s", self.name, exc)
                return False

    def _drop(self) -> None:
        with self._write_lock:
            ser, self._ser = self._ser, None
        if ser is not None:
            try:
                ser.close()
            except (OSError, ValueError):
                pass

    def _connected(self, ser: Any) -> None:
        with self._write_lock:
            self._ser = ser
        self.connections += 1
        reconnect = self.connections > 1
        gap = time.monotonic() - self._lost_at if self._lost_at is not None else 0.0
        log.info("%s: %s %s", self.name, "reconnected to" if reconnect else "connected to", self.device)
        self._on_connect(reconnect, gap)

    def _run(self, first: Any) -> None:
        try:
            if first is not None:
                self._connected(first)
            delays = self.backoff.delays()
            while not self._stop.is_set():
                ser = self._ser
                if ser is None:
                    try:
                        ser = self._open_port()
                    except (OSError, ValueError) as exc:
                        delay = next(delays)
                        log.debug("%s: %s; retrying in %.2fs", self.name, exc, delay)
                        self._stop.wait(delay)
                        continue
                    delays = self.backoff.delays()
                    self._connected(ser)
                try:
                    data = ser.read(max(1, getattr(ser, "in_waiting", 0) or 1))
                except (OSError, ValueError, TypeError) as exc:
                    # pyserial raises SerialException (an OSError) when the device goes away; a closed
                    # port can also give TypeError/ValueError from inside pyserial
                    if self._stop.is_set():
                        break
                    reason = str(exc) or type(exc).__name__
                    self._lost_at = time.monotonic()
                    self._drop()
                    log.warning("%s: link lost: %s", self.name, reason)
                    self._on_disconnect(reason)
                    if not self.reconnect:
                        break
                    continue
                if data:
                    self._on_data(bytes(data))
        except Exception:
            log.exception("%s: reader thread failed", self.name)
        finally:
            self._drop()
            self._on_end()
