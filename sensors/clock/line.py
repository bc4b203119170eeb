"""The open line protocol for USB-serial clocks (docs/clock-line-protocol.md, version 1).

A frame is one ASCII line: ``$`` body ``*`` CRC ``\\r\\n``, the CRC being CRC-16/CCITT-FALSE
(poly 0x1021, init 0xFFFF) of the body bytes, as four upper-case hex digits.
Device bodies are ``SEQ UPTIME_MS VERB ARGS...``; host bodies ``SEQ VERB ARGS...``.
Sides are physical: ``L`` and ``R`` (the host maps them to colours).
"""

from __future__ import annotations

import binascii
import logging
import re
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

from sensors.clock import (ClockDevice, ClockHand, ClockSignal, Disconnected, Flag, Pause, Press, Reconnected, Resume,
                       Times)
from sensors.clock.serial_link import Backoff, SerialLink, UsbId
from sensors.clock.timecontrol import MAX_CLOCK_MS, IncrementMode, TimeControl, TimeControlError

__all__ = [
    "PROTOCOL_VERSION", "MAX_LINE", "crc16", "encode_frame", "LineFramer", "DeviceMessage", "HostCommand",
    "parse_device", "parse_host", "device_line", "host_line", "seq_newer", "LineClock",
]

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
MAX_LINE = 120  #: bytes, from ``$`` to ``\n`` included
SEQ_MOD = 65536
MAX_UPTIME_MS = 2**32 - 1
_BODY_RE = re.compile(r"^[A-Za-z0-9 ._-]+$")
_INT_RE = re.compile(r"^[0-9]{1,10}$")
HAND_CODES: dict[str, ClockHand] = {"L": "left", "R": "right"}
CODE_OF: dict[ClockHand, str] = {"left": "L", "right": "R"}
MODE_CODES = {"none": IncrementMode.NONE, "fischer": IncrementMode.FISCHER, "delay": IncrementMode.DELAY,
              "bronstein": IncrementMode.BRONSTEIN}
EVENT_VERBS = ("PRESS", "FLAG", "PAUSE", "RESUME")


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (check value of b"123456789" is 0x29B1)."""
    return binascii.crc_hqx(data, 0xFFFF)


def encode_frame(body: str) -> bytes:
    raw = body.encode("ascii")
    return b"$" + raw + b"*" + f"{crc16(raw):04X}".encode("ascii") + b"\r\n"


class LineFramer:
    """Cuts a byte stream into checked frame bodies. Bad frames are dropped with a logged reason:
    no ``$``, too long, bad characters, bad or missing CRC. Garbage before a ``$`` on the same line is
    skipped, so a good frame after noise is kept."""

    def __init__(self, name: str = "line") -> None:
        self._buf = bytearray()
        self.rejected = 0
        self.name = name

    def _reject(self, why: str, line: bytes | bytearray) -> None:
        self.rejected += 1
        log.warning("%s: frame rejected (%s): %r", self.name, why, bytes(line[:60]))

    def feed(self, chunk: bytes) -> list[str]:
        out: list[str] = []
        self._buf.extend(chunk)
        while True:
            nl = self._buf.find(b"\n")
            if nl < 0:
                if len(self._buf) > MAX_LINE:
                    # no end of line in sight: keep only a frame that may still be starting
                    cut = self._buf.rfind(b"$")
                    keep = len(self._buf) - cut if cut >= 0 and len(self._buf) - cut <= MAX_LINE else 0
                    self._reject(f"no end of line within {MAX_LINE} bytes", self._buf)
                    del self._buf[:len(self._buf) - keep]
                return out
            line = bytes(self._buf[:nl])
            del self._buf[:nl + 1]
            body = self._check(line)
            if body is not None:
                out.append(body)

    def _check(self, line: bytes) -> str | None:
        line = line.rstrip(b"\r")
        start = line.rfind(b"$")
        if start < 0:
            if line.strip():
                self._reject("no '$'", line)
            return None
        frame = line[start + 1:]
        if len(frame) + 3 > MAX_LINE:
            self._reject(f"longer than {MAX_LINE} bytes", line)
            return None
        star = frame.rfind(b"*")
        if star < 0 or len(frame) - star - 1 != 4:
            self._reject("no '*' and 4-digit CRC", line)
            return None
        raw, crc_text = frame[:star], frame[star + 1:]
        try:
            body = raw.decode("ascii")
            crc = int(crc_text.decode("ascii"), 16)
        except (UnicodeDecodeError, ValueError):
            self._reject("not ASCII / CRC not hex", line)
            return None
        if not re.fullmatch(rb"[0-9A-Fa-f]{4}", crc_text):
            self._reject("CRC not hex", line)
            return None
        if not _BODY_RE.match(body):
            self._reject("characters outside A-Z a-z 0-9 space . _ -", line)
            return None
        if crc16(raw) != crc:
            self._reject(f"CRC {crc:04X} != {crc16(raw):04X}", line)
            return None
        return body


@dataclass(frozen=True)
class DeviceMessage:
    """One checked device-to-host message. Fields not used by ``verb`` are None."""

    seq: int
    up_ms: int
    verb: str
    hand: ClockHand | None = None
    left_ms: int | None = None
    right_ms: int | None = None
    version: int | None = None
    boot: str | None = None
    name: str | None = None
    ref: int | None = None
    code: str | None = None
    tc: TimeControl | None = None


@dataclass(frozen=True)
class HostCommand:
    seq: int
    verb: str
    args: tuple[str, ...] = ()


class _Bad(ValueError):
    pass


def _int(text: str, what: str, hi: int) -> int:
    if not _INT_RE.match(text):
        raise _Bad(f"{what} {text!r} is not a number")
    v = int(text)
    if v > hi:
        raise _Bad(f"{what} {v} is out of range (0..{hi})")
    return v


def _ms(text: str, what: str) -> int:
    return _int(text, what, MAX_CLOCK_MS)


def _hand(text: str) -> ClockHand:
    if text not in HAND_CODES:
        raise _Bad(f"side {text!r} is not L or R")
    return HAND_CODES[text]


def parse_device(body: str) -> DeviceMessage | None:
    """A device message from a checked body; None (reason logged) when it is malformed, out of range
    or of an unknown verb (unknown verbs are for later protocol versions: ignored, not an error)."""
    parts = body.split(" ")
    try:
        if len(parts) < 3:
            raise _Bad("fewer than 3 fields")
        seq = _int(parts[0], "seq", SEQ_MOD - 1)
        up = _int(parts[1], "uptime", MAX_UPTIME_MS)
        verb, args = parts[2], parts[3:]

        def need(n: int) -> None:
            if len(args) < n:
                raise _Bad(f"{verb} needs {n} arguments, got {len(args)}")

        if verb == "HELLO":
            need(3)
            major = args[0].split(".")[0]
            return DeviceMessage(seq, up, verb, version=_int(major, "version", 999), boot=args[1], name=args[2])
        if verb == "TIME":
            need(3)
            run = None if args[2] == "-" else _hand(args[2])
            return DeviceMessage(seq, up, verb, hand=run, left_ms=_ms(args[0], "left"), right_ms=_ms(args[1], "right"))
        if verb == "PRESS":
            need(3)
            return DeviceMessage(seq, up, verb, hand=_hand(args[0]), left_ms=_ms(args[1], "left"),
                                 right_ms=_ms(args[2], "right"))
        if verb == "FLAG":
            need(1)
            return DeviceMessage(seq, up, verb, hand=_hand(args[0]))
        if verb == "PAUSE":
            need(2)
            return DeviceMessage(seq, up, verb, left_ms=_ms(args[0], "left"), right_ms=_ms(args[1], "right"))
        if verb == "RESUME":
            need(1)
            return DeviceMessage(seq, up, verb, hand=_hand(args[0]))
        if verb == "TC":
            need(3)
            if args[2] not in MODE_CODES:
                raise _Bad(f"mode {args[2]!r} is not none/fischer/delay/bronstein")
            try:
                tc = TimeControl(_ms(args[0], "base"), _int(args[1], "increment", 3600_000), MODE_CODES[args[2]])
            except TimeControlError as exc:
                raise _Bad(str(exc)) from None
            return DeviceMessage(seq, up, verb, tc=tc)
        if verb == "OK":
            need(1)
            return DeviceMessage(seq, up, verb, ref=_int(args[0], "ref", SEQ_MOD - 1))
        if verb == "ERR":
            need(2)
            return DeviceMessage(seq, up, verb, ref=_int(args[0], "ref", SEQ_MOD - 1), code=args[1])
        log.info("line: unknown verb %r ignored (newer protocol?)", verb)
        return None
    except _Bad as exc:
        log.warning("line: message %r rejected: %s", body, exc)
        return None


def parse_host(body: str) -> HostCommand | None:
    parts = body.split(" ")
    if len(parts) < 2 or not _INT_RE.match(parts[0]) or int(parts[0]) >= SEQ_MOD:
        log.warning("line: command %r rejected", body)
        return None
    return HostCommand(int(parts[0]), parts[1], tuple(parts[2:]))


def device_line(seq: int, up_ms: int, verb: str, *args: object) -> bytes:
    return encode_frame(" ".join(str(x) for x in (seq % SEQ_MOD, up_ms % (MAX_UPTIME_MS + 1), verb, *args)))


def host_line(seq: int, verb: str, *args: object) -> bytes:
    return encode_frame(" ".join(str(x) for x in (seq % SEQ_MOD, verb, *args)))


def seq_newer(a: int, b: int) -> bool:
    """Sequence ``a`` comes after ``b`` (modulo 65536, within half the range)."""
    return 0 < (a - b) % SEQ_MOD < SEQ_MOD // 2


# --------------------------------------------------------------------------- driver


class LineClock(ClockDevice):
    """A clock speaking the open line protocol (``port``: path or ``usb:VID:PID[:SERIAL]``).

    After a reconnection the driver sends ``HELLO``; when the clock answers with the same boot id it asks
    ``REPLAY`` of the events after the last one it saw, so presses made while the cable was out are not
    lost (they come with ``replayed=True`` and ``at``, their time on the clock). A changed boot id means
    the clock restarted: :class:`Reconnected` says ``state_lost=True``.
    """

    source = "line"

    def __init__(self, port: str | UsbId, *, white_side: ClockHand = "left", reconnect: bool = True,
                 backoff: Backoff = Backoff(), baudrate: int = 115200, now: Callable[[], float] = time.monotonic,
                 on_signal: Callable[[ClockSignal], None] | None = None, **link_options: object):
        super().__init__(white_side=white_side, now=now, on_signal=on_signal)
        self._framer = LineFramer("line")
        self._lock = threading.RLock()
        self._host_seq = 0
        self._boot: str | None = None
        self._last_seq: int | None = None        # last message seq seen (live)
        self._last_event: int | None = None      # newest event seq processed
        self._done: deque[int] = deque(maxlen=256)
        self._offset: float | None = None        # host monotonic - device uptime, smallest seen
        self._pending_reconnect: float | None = None  # gap length while waiting for HELLO
        self._lost_at: float | None = None
        self.time_control: TimeControl | None = None
        self.device_name: str | None = None
        self.errors: list[DeviceMessage] = []
        self._link = SerialLink(port, baudrate=baudrate, on_data=self._on_data, on_connect=self._on_connect,
                                on_disconnect=self._on_disconnect, on_end=self._end, reconnect=reconnect,
                                backoff=backoff, name="line", **link_options)  # type: ignore[arg-type]

    def open(self) -> "LineClock":
        self._link.open()
        return self

    def close(self) -> None:
        self._link.close()
        self._end()

    # -- commands
    def _send(self, verb: str, *args: object) -> bool:
        with self._lock:
            self._host_seq = (self._host_seq + 1) % SEQ_MOD
            seq = self._host_seq
        return self._link.write(host_line(seq, verb, *args))

    def set_time_control(self, tc: TimeControl) -> bool:
        """Set the time control; the clock resets both dials to the base time."""
        return self._send("TC", tc.base_ms, tc.increment_ms, tc.mode.value)

    def set_times(self, white_ms: int, black_ms: int) -> bool:
        left, right = (white_ms, black_ms) if self.sides.white == "left" else (black_ms, white_ms)
        return self._send("SET", left, right)

    def start(self, side: str = "white") -> bool:
        return self._send("START", CODE_OF[self.sides.hand(side)])  # type: ignore[arg-type]

    def pause(self) -> bool:
        return self._send("PAUSE")

    def resume(self) -> bool:
        return self._send("RESUME")

    # -- link callbacks (reader thread)
    def _on_connect(self, reconnect: bool, gap_s: float) -> None:
        self._framer = LineFramer("line")
        self._set_connected(True)
        if reconnect:
            self._pending_reconnect = self._now() - self._lost_at if self._lost_at is not None else gap_s
        self._send("HELLO", PROTOCOL_VERSION)

    def _on_disconnect(self, reason: str) -> None:
        self._lost_at = self._now()
        self._emit(Disconnected(self._now(), reason=reason))

    def _on_data(self, data: bytes) -> None:
        for body in self._framer.feed(data):
            msg = parse_device(body)
            if msg is not None:
                for sig in self.interpret(msg):
                    self._emit(sig)

    # -- protocol -> signals
    def _flush_reconnect(self, state_lost: bool | None) -> list[ClockSignal]:
        if self._pending_reconnect is None:
            return []
        gap, self._pending_reconnect = self._pending_reconnect, None
        return [Reconnected(self._now(), gap_s=gap, state_lost=state_lost)]

    def interpret(self, msg: DeviceMessage) -> list[ClockSignal]:
        """The signals one checked message means (deduplicating replays, asking for missed events)."""
        now = self._now()
        out: list[ClockSignal] = []
        if msg.verb == "HELLO":
            if msg.version != PROTOCOL_VERSION:
                log.error("line: clock speaks protocol version %s, this rig speaks %d; messages may be misread",
                          msg.version, PROTOCOL_VERSION)
            self.device_name = msg.name
            lost = self._boot is not None and msg.boot != self._boot
            if lost or self._boot is None:
                if lost:
                    log.warning("line: clock restarted (boot id %s -> %s): its events in the gap are lost",
                                self._boot, msg.boot)
                self._boot, self._last_seq, self._last_event, self._offset = msg.boot, None, None, None
                self._done.clear()
            out += self._flush_reconnect(lost)
            ref = self._last_event if self._last_event is not None else self._last_seq
            self._last_seq = msg.seq
            if ref is not None:
                self._send("REPLAY", ref)
            return out
        out += self._flush_reconnect(None)
        # a message from a clock whose uptime went backwards (restart without HELLO) resets the timing base
        offset = now - msg.up_ms / 1000
        if self._offset is None or offset < self._offset:
            self._offset = offset
        at = msg.up_ms / 1000 + self._offset
        is_event = msg.verb in EVENT_VERBS
        live = self._last_seq is None or seq_newer(msg.seq, self._last_seq)
        if live:
            if self._last_seq is not None and (msg.seq - self._last_seq) % SEQ_MOD > 1:
                missed = (msg.seq - self._last_seq) % SEQ_MOD - 1
                log.info("line: %d message(s) missed before seq %d; asking for a replay", missed, msg.seq)
                self._send("REPLAY", self._last_event if self._last_event is not None else self._last_seq)
            self._last_seq = msg.seq
        if is_event:
            if msg.seq in self._done:
                return out
            self._done.append(msg.seq)
            if self._last_event is None or seq_newer(msg.seq, self._last_event):
                self._last_event = msg.seq
        elif not live:
            return out  # a stale TIME/OK: nothing new
        replayed = is_event and not live  # came back through REPLAY (or late after a seq gap)
        side = self.sides.side

        def wb(left: int | None, right: int | None) -> tuple[int | None, int | None]:
            return (left, right) if self.sides.white == "left" else (right, left)

        if msg.verb == "TIME":
            w, b = wb(msg.left_ms, msg.right_ms)
            out.append(Times(now, w, b, side(msg.hand) if msg.hand else None))  # type: ignore[arg-type]
        elif msg.verb == "PRESS":
            w, b = wb(msg.left_ms, msg.right_ms)
            out.append(Press(now, side(msg.hand), w, b, at=at if replayed else None,  # type: ignore[arg-type]
                             replayed=replayed))
        elif msg.verb == "FLAG":
            out.append(Flag(now, side(msg.hand), at=at if replayed else None, replayed=replayed))  # type: ignore[arg-type]
        elif msg.verb == "PAUSE":
            w, b = wb(msg.left_ms, msg.right_ms)
            out.append(Pause(now, w, b, at=at if replayed else None, replayed=replayed))
        elif msg.verb == "RESUME":
            out.append(Resume(now, side(msg.hand), at=at if replayed else None, replayed=replayed))  # type: ignore[arg-type]
        elif msg.verb == "TC":
            self.time_control = msg.tc
            log.info("line: clock time control %s", msg.tc)
        elif msg.verb == "ERR":
            self.errors.append(msg)
            log.warning("line: clock refused command %s: %s", msg.ref, msg.code)
        return out

    def __repr__(self) -> str:
        return super().__repr__()[:-1] + f" port={self._link.spec}>"
