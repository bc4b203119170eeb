"""DGT board protocol: a DGT electronic board (chess, or the 10x10 draughts board used at FMJD
events) relays its DGT 3000 / XL clock over the board's USB serial port.

Facts from DGT's public header ``dgtbrd.h`` (DGT Projects, rev. 2015-07-20 with
Marius' fix; copy read in jromang/picochess ``dgt/dgtbrd-marius.h``):

- 9600 baud, 8N1, no handshake. Commands to the board are single bytes
  (``DGT_SEND_CLK`` 0x41, ``DGT_SEND_UPDATE_NICE`` 0x4b, ...), clock commands are
  wrapped in ``DGT_CLOCK_MESSAGE`` 0x2b: ``2b size 03 cmd content... 00``.
- Every board message: id byte ``0x80 | code``, then the total size (header
  included) in two 7-bit bytes, MSB first; data bytes never have bit 7 set.
- ``DGT_MSG_BWTIME`` = 0x8d, size 10 (7 data bytes). Data byte 0: right player
  hours (D0-D3), D4 flag fallen and clock blocked at zero, D5 time-per-move
  indicator, D6 flag fallen shown on display; bytes 1-2: minutes, seconds in
  BCD; bytes 3-5 the same for the left player; byte 6 status: D0 running, D1
  lever high on the right, D2 battery low, D3 right player's turn, D4 left
  player's turn, D5 no clock connected. If (byte 0 & 0x0f) or (byte 3 & 0x0f)
  is 0x0a the message is a clock ACK instead of times.

A press is read from the lever: when the lever goes down on one side while the
clock runs, that side's player ended his move (000 6.2a).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable

from sensors.clock import (ClockDevice, ClockHand, ClockSignal, Disconnected, Flag, Pause, Press, Reconnected, Resume,
                       Times)
from sensors.clock.serial_link import Backoff, SerialLink, UsbId

__all__ = [
    "MESSAGE_BIT", "DGT_SEND_RESET", "DGT_SEND_CLK", "DGT_SEND_BRD", "DGT_SEND_UPDATE", "DGT_SEND_UPDATE_BRD",
    "DGT_SEND_UPDATE_NICE", "DGT_SEND_VERSION", "DGT_CLOCK_MESSAGE", "DGT_MSG_BWTIME", "DGT_MSG_VERSION",
    "DGT_SIZE_BWTIME", "DGT_CMD_CLOCK_START_MESSAGE", "DGT_CMD_CLOCK_END_MESSAGE", "DGT_CMD_CLOCK_SETNRUN",
    "DGT_CMD_CLOCK_VERSION", "BwTime", "ClockAck", "BoardMessage", "DgtDecoder", "encode_message",
    "encode_bwtime", "encode_ack", "setnrun_command", "DgtClock",
]

log = logging.getLogger(__name__)

# -- commands, PC to board (dgtbrd.h)
DGT_SEND_RESET = 0x40
DGT_SEND_CLK = 0x41
DGT_SEND_BRD = 0x42
DGT_SEND_UPDATE = 0x43
DGT_SEND_UPDATE_BRD = 0x44
DGT_RETURN_SERIALNR = 0x45
DGT_SEND_UPDATE_NICE = 0x4b
DGT_SEND_VERSION = 0x4d
DGT_CLOCK_MESSAGE = 0x2b
DGT_CMD_CLOCK_START_MESSAGE = 0x03
DGT_CMD_CLOCK_END_MESSAGE = 0x00
DGT_CMD_CLOCK_DISPLAY = 0x01
DGT_CMD_CLOCK_END = 0x03
DGT_CMD_CLOCK_BUTTON = 0x08
DGT_CMD_CLOCK_VERSION = 0x09
DGT_CMD_CLOCK_SETNRUN = 0x0a
DGT_CMD_CLOCK_BEEP = 0x0b

# -- messages, board to PC
MESSAGE_BIT = 0x80
DGT_MSG_BOARD_DUMP = MESSAGE_BIT | 0x06
DGT_MSG_BWTIME = MESSAGE_BIT | 0x0d
DGT_MSG_FIELD_UPDATE = MESSAGE_BIT | 0x0e
DGT_MSG_EE_MOVES = MESSAGE_BIT | 0x0f
DGT_MSG_BUSADRES = MESSAGE_BIT | 0x10
DGT_MSG_SERIALNR = MESSAGE_BIT | 0x11
DGT_MSG_TRADEMARK = MESSAGE_BIT | 0x12
DGT_MSG_VERSION = MESSAGE_BIT | 0x13
DGT_MSG_BOARD_DUMP_50B = MESSAGE_BIT | 0x14
DGT_MSG_BOARD_DUMP_50W = MESSAGE_BIT | 0x15
DGT_MSG_BATTERY_STATUS = MESSAGE_BIT | 0x20
DGT_MSG_LONG_SERIALNR = MESSAGE_BIT | 0x22
DGT_SIZE_BWTIME = 10

#: Message id -> (smallest, largest) total size accepted (header included). Fixed sizes from dgtbrd.h;
#: variable ones bounded (trade mark up to 256 characters, EEPROM dump 0x2000-0x100+3).
_SIZES: dict[int, tuple[int, int]] = {
    DGT_MSG_BOARD_DUMP: (67, 103),  # 67 chess, 103 draughts (DGT_SIZE_BOARD_DUMP_DRAUGHTS)
    DGT_MSG_BWTIME: (DGT_SIZE_BWTIME, DGT_SIZE_BWTIME),
    DGT_MSG_FIELD_UPDATE: (5, 5),
    DGT_MSG_EE_MOVES: (3, 0x2000 - 0x100 + 3),
    DGT_MSG_BUSADRES: (5, 5),
    DGT_MSG_SERIALNR: (8, 8),
    DGT_MSG_TRADEMARK: (3, 259),
    DGT_MSG_VERSION: (5, 5),
    DGT_MSG_BOARD_DUMP_50B: (53, 53),
    DGT_MSG_BOARD_DUMP_50W: (53, 53),
    DGT_MSG_BATTERY_STATUS: (7, 14),  # the header says 7 but lists 9 data bytes: accept both
    DGT_MSG_LONG_SERIALNR: (13, 13),
}


# --------------------------------------------------------------------------- messages


@dataclass(frozen=True)
class BwTime:
    """A decoded ``DGT_MSG_BWTIME`` clock-times message (seconds resolution)."""

    right_ms: int
    left_ms: int
    right_flag: bool
    left_flag: bool
    right_per_move: bool
    left_per_move: bool
    running: bool
    lever_right_high: bool
    battery_low: bool
    right_turn: bool
    left_turn: bool
    no_clock: bool


@dataclass(frozen=True)
class ClockAck:
    """A clock acknowledgement carried in a BWTIME frame (ack0 0x10 = fine, 0x40 = error; ack1 = command)."""

    ack0: int
    ack1: int
    ack2: int
    ack3: int


@dataclass(frozen=True)
class BoardMessage:
    """Any other well-framed board message (version, field update, board dump, ...)."""

    msg_id: int
    data: bytes


def _bcd(b: int) -> int | None:
    hi, lo = b >> 4, b & 0x0f
    return None if hi > 9 or lo > 9 else hi * 10 + lo


def _side_ms(hours_byte: int, min_byte: int, sec_byte: int) -> tuple[int | None, str]:
    hours = hours_byte & 0x0f
    minutes, seconds = _bcd(min_byte), _bcd(sec_byte)
    if hours > 9:
        return None, f"hours nibble {hours:#x} is not a BCD digit"
    if minutes is None or minutes > 59:
        return None, f"minutes byte {min_byte:#04x} is not BCD 00-59"
    if seconds is None or seconds > 59:
        return None, f"seconds byte {sec_byte:#04x} is not BCD 00-59"
    return ((hours * 60 + minutes) * 60 + seconds) * 1000, ""


def decode_bwtime(data: bytes) -> BwTime | ClockAck | None:
    """Decode the 7 data bytes of a BWTIME frame; None (reason logged) when the times are not valid BCD,
    the frame is all zeroes (dgtbrd.h: "an empty bwtime message ... is to be ignored"), or no clock."""
    if len(data) != DGT_SIZE_BWTIME - 3:
        log.warning("dgt: BWTIME with %d data bytes rejected (expected 7)", len(data))
        return None
    if (data[0] & 0x0f) == 0x0a or (data[3] & 0x0f) == 0x0a:
        return ClockAck(ack0=(data[1] & 0x7f) | ((data[3] << 3) & 0x80),
                        ack1=(data[2] & 0x7f) | ((data[3] << 2) & 0x80),
                        ack2=(data[4] & 0x7f) | ((data[0] << 3) & 0x80),
                        ack3=(data[5] & 0x7f) | ((data[0] << 2) & 0x80))
    if not any(data):
        log.debug("dgt: empty BWTIME ignored")
        return None
    right, why_r = _side_ms(data[0], data[1], data[2])
    left, why_l = _side_ms(data[3], data[4], data[5])
    if right is None or left is None:
        log.warning("dgt: BWTIME %s rejected: %s", data.hex(" "), why_r or why_l)
        return None
    status = data[6]
    return BwTime(right_ms=right, left_ms=left,
                  right_flag=bool(data[0] & 0x50), left_flag=bool(data[3] & 0x50),
                  right_per_move=bool(data[0] & 0x20), left_per_move=bool(data[3] & 0x20),
                  running=bool(status & 0x01), lever_right_high=bool(status & 0x02),
                  battery_low=bool(status & 0x04), right_turn=bool(status & 0x08),
                  left_turn=bool(status & 0x10), no_clock=bool(status & 0x20))


class DgtDecoder:
    """Splits the board's byte stream into messages. Garbage is skipped with a logged reason; a byte with
    bit 7 set inside a message aborts it and starts a new one there (data bytes never have bit 7 set),
    so a good message after garbage is never lost."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self.rejected = 0

    def _reject(self, why: str, *args: object) -> None:
        self.rejected += 1
        log.warning("dgt: " + why, *args)

    def feed(self, chunk: bytes) -> list[BwTime | ClockAck | BoardMessage]:
        out: list[BwTime | ClockAck | BoardMessage] = []
        buf = self._buf
        buf.extend(chunk)
        while buf:
            start = next((i for i, b in enumerate(buf) if b & 0x80), None)
            if start is None:
                self._reject("%d stray data bytes skipped", len(buf))
                buf.clear()
                break
            if start:
                self._reject("%d stray data bytes skipped", start)
                del buf[:start]
            msg_id = buf[0]
            if msg_id not in _SIZES:
                self._reject("unknown message id %#04x skipped", msg_id)
                del buf[:1]
                continue
            if len(buf) < 3:
                break
            if buf[1] & 0x80 or buf[2] & 0x80:
                self._reject("message %#04x: size byte with bit 7 set", msg_id)
                del buf[:1]
                continue
            size = (buf[1] << 7) | buf[2]
            lo, hi = _SIZES[msg_id]
            if not lo <= size <= hi:
                self._reject("message %#04x: size %d outside %d..%d", msg_id, size, lo, hi)
                del buf[:1]
                continue
            body = buf[3:size]
            bad = next((i for i, b in enumerate(body) if b & 0x80), None)
            if bad is not None:
                self._reject("message %#04x cut short by a new message after %d data bytes", msg_id, bad)
                del buf[:3 + bad]
                continue
            if len(buf) < size:
                break
            data = bytes(body)
            del buf[:size]
            if msg_id == DGT_MSG_BWTIME:
                decoded = decode_bwtime(data)
                if decoded is None:
                    self.rejected += 1
                else:
                    out.append(decoded)
            else:
                out.append(BoardMessage(msg_id, data))
        return out


# --------------------------------------------------------------------------- encoding (emulator, commands)


def encode_message(msg_id: int, data: bytes) -> bytes:
    size = len(data) + 3
    return bytes([msg_id, (size >> 7) & 0x7f, size & 0x7f]) + data


def _bcd_byte(n: int) -> int:
    return ((n // 10) << 4) | (n % 10)


def _side_bytes(ms: int, flag: bool, per_move: bool) -> bytes:
    secs = max(0, min(ms, 9 * 3600_000 + 3599_999)) // 1000
    h, m, s = secs // 3600, secs // 60 % 60, secs % 60
    return bytes([h | (0x50 if flag else 0) | (0x20 if per_move else 0), _bcd_byte(m), _bcd_byte(s)])


def encode_bwtime(t: BwTime) -> bytes:
    status = ((0x01 if t.running else 0) | (0x02 if t.lever_right_high else 0) | (0x04 if t.battery_low else 0)
              | (0x08 if t.right_turn else 0) | (0x10 if t.left_turn else 0) | (0x20 if t.no_clock else 0))
    data = _side_bytes(t.right_ms, t.right_flag, t.right_per_move) + _side_bytes(t.left_ms, t.left_flag,
                                                                                   t.left_per_move)
    return encode_message(DGT_MSG_BWTIME, data + bytes([status]))


def encode_ack(ack0: int, ack1: int, ack2: int = 0, ack3: int = 0) -> bytes:
    """The inverse of the ack construction in dgtbrd.h (both low nibbles 0x0a mark an ack)."""
    b3 = 0x0a | ((ack2 >> 3) & 0x10) | ((ack3 >> 2) & 0x20)
    b6 = 0x0a | ((ack0 >> 3) & 0x10) | ((ack1 >> 2) & 0x20)
    data = bytes([b3, ack0 & 0x7f, ack1 & 0x7f, b6, ack2 & 0x7f, ack3 & 0x7f, 0])
    return encode_message(DGT_MSG_BWTIME, data)


def setnrun_command(left_ms: int, right_ms: int, run: ClockHand | None) -> bytes:
    """``DGT_CMD_CLOCK_SETNRUN`` (clock in mode 23): set both times (whole seconds) and which side counts
    down (None: paused)."""
    def hms(ms: int) -> list[int]:
        s = max(0, ms) // 1000
        return [min(9, s // 3600), s // 60 % 60, s % 60]
    mode = 0x04 if run is None else (0x01 if run == "left" else 0x02)
    body = [DGT_CMD_CLOCK_START_MESSAGE, DGT_CMD_CLOCK_SETNRUN, *hms(left_ms), *hms(right_ms), mode,
            DGT_CMD_CLOCK_END_MESSAGE]
    return bytes([DGT_CLOCK_MESSAGE, len(body)] + body)


# --------------------------------------------------------------------------- driver


class DgtClock(ClockDevice):
    """A DGT clock read through a DGT board (``port``: path or ``usb:VID:PID[:SERIAL]``).

    Signals: :class:`Times` on every changed reading, :class:`Press` on a lever change while running,
    :class:`Flag` when a flag bit sets, :class:`Pause`/:class:`Resume` on the running bit,
    :class:`Disconnected`/:class:`Reconnected` around a lost link. After a reconnection, a lever found on
    the other side means a press happened in the gap: it is reported with ``inferred=True`` (two presses
    in the gap cancel out and cannot be seen; the line protocol replays them instead).
    """

    source = "dgt"

    def __init__(self, port: str | UsbId, *, white_side: ClockHand = "left", reconnect: bool = True,
                 backoff: Backoff = Backoff(), now: Callable[[], float] = time.monotonic,
                 on_signal: Callable[[ClockSignal], None] | None = None, **link_options: object):
        super().__init__(white_side=white_side, now=now, on_signal=on_signal)
        self._decoder = DgtDecoder()
        self._last: BwTime | None = None
        self._gap_from: BwTime | None = None
        self._lost_at: float | None = None
        self._link = SerialLink(port, baudrate=9600, on_data=self._on_data, on_connect=self._on_connect,
                                on_disconnect=self._on_disconnect, on_end=self._end, reconnect=reconnect,
                                backoff=backoff, name="dgt", **link_options)  # type: ignore[arg-type]
        self.acks: list[ClockAck] = []

    def open(self) -> "DgtClock":
        self._link.open()
        return self

    def close(self) -> None:
        self._link.close()
        self._end()

    # -- commands
    def request_times(self) -> bool:
        return self._link.write(bytes([DGT_SEND_CLK]))

    def set_and_run(self, white_ms: int, black_ms: int, run: str | None) -> bool:
        """Set the clock (DGT clock in mode 23) and start ``run``'s dial (a side or None to keep it paused)."""
        left, right = ((white_ms, black_ms) if self.sides.white == "left" else (black_ms, white_ms))
        hand = self.sides.hand(run) if run in ("white", "black") else None  # type: ignore[arg-type]
        return self._link.write(setnrun_command(left, right, hand))

    # -- link callbacks (reader thread)
    def _on_connect(self, reconnect: bool, gap_s: float) -> None:
        self._decoder = DgtDecoder()
        self._link.write(bytes([DGT_SEND_UPDATE_NICE, DGT_SEND_CLK]))
        self._set_connected(True)
        if reconnect:
            gap = self._now() - self._lost_at if self._lost_at is not None else gap_s
            self._emit(Reconnected(self._now(), gap_s=gap, state_lost=None))

    def _on_disconnect(self, reason: str) -> None:
        self._lost_at = self._now()
        self._gap_from, self._last = self._last, None
        self._emit(Disconnected(self._now(), reason=reason))

    def _on_data(self, data: bytes) -> None:
        for msg in self._decoder.feed(data):
            for sig in self.interpret(msg):
                self._emit(sig)

    # -- protocol -> signals (pure enough to test without a port)
    def interpret(self, msg: BwTime | ClockAck | BoardMessage) -> list[ClockSignal]:
        """The signals one decoded message means, given the previous reading."""
        if isinstance(msg, ClockAck):
            self.acks.append(msg)
            if msg.ack0 != 0x10:
                log.warning("dgt: clock reports an error for command %#04x (ack %s)", msg.ack1,
                            (msg.ack0, msg.ack1, msg.ack2, msg.ack3))
            return []
        if isinstance(msg, BoardMessage):
            log.debug("dgt: board message %#04x (%d bytes) not used by the clock driver", msg.msg_id, len(msg.data))
            return []
        if msg.no_clock:
            log.warning("dgt: board reports no clock connected; reading ignored")
            return []
        now = self._now()
        side = self.sides.side
        white_ms, black_ms = ((msg.left_ms, msg.right_ms) if self.sides.white == "left"
                              else (msg.right_ms, msg.left_ms))
        running_hand: ClockHand | None = None
        if msg.running:
            running_hand = "right" if msg.lever_right_high else "left"
        running = side(running_hand) if running_hand else None
        out: list[ClockSignal] = []
        prev = self._last
        if prev is None and self._gap_from is not None:
            prev = self._gap_from  # first reading after a reconnection: compare with the last one before
            inferred = True
        else:
            inferred = False
        self._gap_from = None
        if prev is not None:
            if msg.lever_right_high != prev.lever_right_high and (msg.running or inferred) and (
                    prev.running or inferred):
                pressed: ClockHand = "left" if msg.lever_right_high else "right"
                out.append(Press(now, side(pressed), white_ms, black_ms, inferred=inferred))
            if prev.running and not msg.running:
                out.append(Pause(now, white_ms, black_ms))
            elif msg.running and not prev.running:
                out.append(Resume(now, running))
            for hand, flag, was in (("left", msg.left_flag, prev.left_flag), ("right", msg.right_flag,
                                                                                prev.right_flag)):
                if flag and not was:
                    out.append(Flag(now, side(hand)))  # type: ignore[arg-type]
        else:
            for hand, flag in (("left", msg.left_flag), ("right", msg.right_flag)):
                if flag:
                    out.append(Flag(now, side(hand)))  # type: ignore[arg-type]
        changed = prev is None or inferred or (msg.left_ms, msg.right_ms, msg.running, msg.lever_right_high) != (
            prev.left_ms, prev.right_ms, prev.running, prev.lever_right_high)
        if changed and not any(isinstance(s, Press) for s in out):
            n_flags = sum(isinstance(s, Flag) for s in out)
            out.insert(len(out) - n_flags, Times(now, white_ms, black_ms, running))
        if msg.battery_low and (prev is None or not prev.battery_low):
            log.warning("dgt: clock battery low")
        self._last = msg
        return out

    def __repr__(self) -> str:
        return super().__repr__()[:-1] + f" port={self._link.spec}>"
