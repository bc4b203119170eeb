"""Clock emulators over pseudo-terminal pairs: a DGT board with its clock, and a line-protocol clock.

Each emulator owns the master side of a pty pair and publishes the slave under a
stable symlink (like ``/dev/serial/by-id/...``), so a driver opens ``emu.path``
exactly as it would open a real port. :meth:`unplug` closes the pair and removes
the link (the driver's reads fail, as when a USB cable is pulled);
:meth:`replug` makes a new pair behind the same link. The clock keeps running
meanwhile (a real clock has its own battery). Time comes from the injectable
``now`` of the :class:`~sensors.clock.model.ClockModel` (use :class:`FakeTime` in
tests to make it deterministic).

Run ``python -m sensors.clock.emulator --protocol line`` for an interactive clock on a
pty (keys: ``l``/``r`` press, ``p`` pause, ``g`` resume, ``u`` unplug/replug, ``q`` quit).
"""

from __future__ import annotations

import abc
import argparse
import logging
import secrets
import sys
import threading
import time
from collections import deque
from typing import Callable

from sensors.clock.dgt import (DGT_CLOCK_MESSAGE, DGT_CMD_CLOCK_SETNRUN, DGT_CMD_CLOCK_VERSION, DGT_MSG_BOARD_DUMP,
                           DGT_MSG_SERIALNR, DGT_MSG_VERSION, DGT_RETURN_SERIALNR, DGT_SEND_BRD, DGT_SEND_CLK,
                           DGT_SEND_RESET, DGT_SEND_UPDATE, DGT_SEND_UPDATE_BRD, DGT_SEND_UPDATE_NICE,
                           DGT_SEND_VERSION, BwTime, encode_ack, encode_bwtime, encode_message)
from sensors.clock.line import (CODE_OF, HAND_CODES, MODE_CODES, PROTOCOL_VERSION, SEQ_MOD, LineFramer, seq_newer,
                            device_line, parse_host)
from sensors.clock import ClockHand
from sensors.clock.model import ClockModel
from sensors.clock.ptyport import FakeTime, PtyPort
from sensors.clock.timecontrol import MAX_CLOCK_MS, IncrementMode, TimeControl, TimeControlError

__all__ = ["FakeTime", "PtyPort", "ClockEmulator", "DgtBoardEmulator", "LineClockEmulator", "make_emulator"]

log = logging.getLogger(__name__)


class ClockEmulator(abc.ABC):
    """A scriptable clock behind a :class:`PtyPort`: a background thread answers the host and sends
    what the clock shows; the methods below act as the players and the arbiter would."""

    protocol = ""

    def __init__(self, tc: TimeControl | str = "5+3", *, now: Callable[[], float] = time.monotonic,
                 path: str | None = None, poll_s: float = 0.005):
        self.tc = TimeControl.parse(tc) if isinstance(tc, str) else tc
        self.now = now
        self.model = ClockModel(self.tc, now=now)
        self.port = PtyPort(path)
        self.poll_s = poll_s
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.received = bytearray()

    @property
    def path(self) -> str:
        return self.port.path

    # -- life cycle
    def start(self) -> "ClockEmulator":
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"{self.protocol}-emulator", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        self.port.close()

    def __enter__(self) -> "ClockEmulator":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        while not self._stop.is_set():
            data = self.port.read(self.poll_s)
            with self._lock:
                if data:
                    self.received.extend(data)
                    self._on_host(data)
                self._tick()

    # -- the players and the arbiter
    def press(self, hand: ClockHand) -> str:
        with self._lock:
            outcome = self.model.press(hand)
            self._after_press(hand, outcome)
            return outcome

    def start_game(self, hand: ClockHand = "left") -> None:
        """The arbiter starts ``hand``'s clock (White's, 000 6.3c)."""
        with self._lock:
            self.model.start(hand)
            self._after_resume(hand)

    def pause(self) -> bool:
        with self._lock:
            ok = self.model.pause()
            if ok:
                self._after_pause()
            return ok

    def resume(self) -> bool:
        with self._lock:
            ok = self.model.resume()
            if ok and self.model.running:
                self._after_resume(self.model.running)
            return ok

    def unplug(self) -> None:
        with self._lock:
            self.port.unplug()
            self._on_unplug()

    def replug(self) -> None:
        with self._lock:
            self.port.replug()

    def inject(self, data: bytes) -> bool:
        """Send raw bytes as if they came from the clock (noise, bad frames)."""
        with self._lock:
            return self.port.write(data)

    def tick(self) -> None:
        """Let the clock look at the time now (flags, periodic times), without waiting for the thread."""
        with self._lock:
            self._tick()

    # -- protocol hooks
    @abc.abstractmethod
    def _on_host(self, data: bytes) -> None:
        """Protocol hook: each emulator says what its clock does here."""

    @abc.abstractmethod
    def _tick(self) -> None:
        """Protocol hook: each emulator says what its clock does here."""

    @abc.abstractmethod
    def _after_press(self, hand: ClockHand, outcome: str) -> None:
        """Protocol hook: each emulator says what its clock does here."""

    @abc.abstractmethod
    def _after_pause(self) -> None:
        """Protocol hook: each emulator says what its clock does here."""

    @abc.abstractmethod
    def _after_resume(self, hand: ClockHand) -> None:
        """Protocol hook: each emulator says what its clock does here."""

    def _on_unplug(self) -> None:
        """Nothing by default: the clock keeps its state."""

    def __repr__(self) -> str:
        left, right = self.model.times()
        state = "paused" if self.model.paused else (f"{self.model.running} running" if self.model.running
                                                    else "stopped")
        plug = "plugged" if self.port.plugged else "unplugged"
        return (f"<{type(self).__name__} {self.path} {plug} {self.tc} left={left}ms right={right}ms "
                f"{state} moves={self.model.moves}>")


# --------------------------------------------------------------------------- DGT


class DgtBoardEmulator(ClockEmulator):
    """A DGT board (IDLE after power-up, as dgtbrd.h says) with a DGT 3000 in mode 23 on its clock port.
    The board is powered by USB: unplugging resets it to IDLE; the clock keeps counting on its battery."""

    protocol = "dgt"

    def __init__(self, tc: TimeControl | str = "5+3", **kw: object):
        super().__init__(tc, **kw)  # type: ignore[arg-type]
        self.mode = "idle"
        self.lever_right_high = False
        self.clock_connected = True
        self.battery_low = False
        self._cmd = bytearray()
        self._last_sent: bytes | None = None
        self._last_sent_at = float("-inf")

    def reading(self) -> BwTime:
        m = self.model
        left, right = m.times()
        if m.running is not None:
            self.lever_right_high = m.running == "right"
        per_move = m.tc.mode is not IncrementMode.NONE
        return BwTime(right_ms=_ceil_s(right), left_ms=_ceil_s(left), right_flag=m.flag("right"),
                      left_flag=m.flag("left"), right_per_move=per_move, left_per_move=per_move,
                      running=m.counting is not None, lever_right_high=self.lever_right_high,
                      battery_low=self.battery_low, right_turn=m.running == "right", left_turn=m.running == "left",
                      no_clock=not self.clock_connected)

    def _send_reading(self, force: bool = False) -> None:
        frame = encode_bwtime(self.reading())
        now = self.now()
        if self.mode in ("update", "update_nice") and (frame != self._last_sent or force or (
                self.mode == "update" and now - self._last_sent_at >= 1.0)):
            if self.port.write(frame):
                self._last_sent, self._last_sent_at = frame, now

    def _tick(self) -> None:
        self.model.settle()
        self._send_reading()

    def _after_press(self, hand: ClockHand, outcome: str) -> None:
        self._send_reading()

    def _after_pause(self) -> None:
        self._send_reading()

    def _after_resume(self, hand: ClockHand) -> None:
        self._send_reading()

    def _on_unplug(self) -> None:
        self.mode = "idle"
        self._cmd.clear()
        self._last_sent = None

    def _on_host(self, data: bytes) -> None:
        self._cmd.extend(data)
        while self._cmd:
            c = self._cmd[0]
            if c == DGT_CLOCK_MESSAGE:
                if len(self._cmd) < 2 or len(self._cmd) < 2 + self._cmd[1]:
                    return
                body = bytes(self._cmd[2:2 + self._cmd[1]])
                del self._cmd[:2 + self._cmd[1]]
                self._clock_message(body)
                continue
            del self._cmd[:1]
            if c == DGT_SEND_RESET:
                self.mode = "idle"
            elif c == DGT_SEND_CLK:
                self.port.write(encode_bwtime(self.reading()))
            elif c in (DGT_SEND_UPDATE, DGT_SEND_UPDATE_NICE, DGT_SEND_UPDATE_BRD):
                self.mode = {DGT_SEND_UPDATE: "update", DGT_SEND_UPDATE_NICE: "update_nice",
                             DGT_SEND_UPDATE_BRD: "update_brd"}[c]
                self._last_sent = None
            elif c == DGT_SEND_VERSION:
                self.port.write(encode_message(DGT_MSG_VERSION, bytes([1, 7])))
            elif c == DGT_RETURN_SERIALNR:
                self.port.write(encode_message(DGT_MSG_SERIALNR, b"00137"))
            elif c == DGT_SEND_BRD:
                self.port.write(encode_message(DGT_MSG_BOARD_DUMP, bytes(100)))
            else:
                log.info("dgt emulator: unknown command %#04x ignored", c)

    def _clock_message(self, body: bytes) -> None:
        if len(body) < 3 or body[0] != 0x03 or body[-1] != 0x00:
            log.warning("dgt emulator: malformed clock message %s", body.hex(" "))
            return
        cmd, content = body[1], body[2:-1]
        ok = True
        if cmd == DGT_CMD_CLOCK_SETNRUN and len(content) == 7:
            lh, lm, ls, rh, rm, rs, run = content
            self.model.set_times(((lh * 60 + lm) * 60 + ls) * 1000, ((rh * 60 + rm) * 60 + rs) * 1000)
            if run & 0x04 or not run & 0x03:
                if self.model.running is not None:
                    self.model.pause()
            else:
                self.model.start("left" if run & 0x01 else "right")
        elif cmd == DGT_CMD_CLOCK_SETNRUN:
            ok = False
        if self.mode in ("update", "update_nice"):
            ack2 = 0x23 if cmd == DGT_CMD_CLOCK_VERSION else 0
            self.port.write(encode_ack(0x10 if ok else 0x40, cmd, ack2, 0))
        self._send_reading()


def _ceil_s(ms: int) -> int:
    """What a seconds display shows: whole seconds, rounded up (0 only when the time is over)."""
    return min(MAX_CLOCK_MS, -(-ms // 1000) * 1000)


# --------------------------------------------------------------------------- line protocol


class LineClockEmulator(ClockEmulator):
    """A microcontroller clock speaking the line protocol, version 1. Events (PRESS, FLAG, PAUSE, RESUME)
    are kept in a ring of 32 for ``REPLAY``; times are sent every second while a clock runs."""

    protocol = "line"

    def __init__(self, tc: TimeControl | str = "5+3", *, name: str = "rig-emulator", **kw: object):
        super().__init__(tc, **kw)  # type: ignore[arg-type]
        self.name = name
        self._framer = LineFramer("line-emulator")
        self.reboot()

    def reboot(self) -> None:
        """Power loss: new boot id, uptime and sequence from zero, dials reset."""
        with self._lock:
            self.boot = secrets.token_hex(4)
            self._boot_t = self.now()
            self.seq = 0
            self.ring: deque[tuple[int, bytes]] = deque(maxlen=32)
            self._flagged: set[str] = set()
            self._last_time_at = float("-inf")
            self.model.reset(self.tc)

    def _up_ms(self) -> int:
        return int((self.now() - self._boot_t) * 1000)

    def _send(self, verb: str, *args: object) -> None:
        self.seq = (self.seq + 1) % SEQ_MOD
        line = device_line(self.seq, self._up_ms(), verb, *args)
        if verb in ("PRESS", "FLAG", "PAUSE", "RESUME"):
            self.ring.append((self.seq, line))
        self.port.write(line)

    def _send_time(self) -> None:
        left, right = self.model.times()
        run = self.model.counting
        self._send("TIME", left, right, CODE_OF[run] if run else "-")
        self._last_time_at = self.now()

    def _tick(self) -> None:
        for hand in self.model.settle():
            self._send_time()
            self._send("FLAG", CODE_OF[hand])
        if self.model.counting is not None and self.now() - self._last_time_at >= 1.0:
            self._send_time()

    def _after_press(self, hand: ClockHand, outcome: str) -> None:
        if outcome == "press":
            left, right = self.model.times()
            self._send("PRESS", CODE_OF[hand], left, right)
        elif outcome == "start":
            self._send("RESUME", CODE_OF[self.model.running])  # type: ignore[index]
            self._send_time()

    def _after_pause(self) -> None:
        left, right = self.model.times()
        self._send("PAUSE", left, right)

    def _after_resume(self, hand: ClockHand) -> None:
        self._send("RESUME", CODE_OF[hand])
        self._send_time()

    def _on_host(self, data: bytes) -> None:
        for body in self._framer.feed(data):
            cmd = parse_host(body)
            if cmd is None:
                continue
            try:
                self._command(cmd.seq, cmd.verb, cmd.args)
            except (ValueError, KeyError, IndexError, TimeControlError) as exc:
                log.warning("line emulator: command %r refused: %s", body, exc)
                self._send("ERR", cmd.seq, "bad-argument")

    def _command(self, ref: int, verb: str, args: tuple[str, ...]) -> None:
        if verb == "HELLO":
            self._send("HELLO", f"{PROTOCOL_VERSION}.0", self.boot, self.name)
        elif verb == "REPLAY":
            after = int(args[0])
            for seq, line in list(self.ring):
                if seq_newer(seq, after):
                    self.port.write(line)
            self._send_time()
        elif verb == "TC":
            self.tc = TimeControl(int(args[0]), int(args[1]), MODE_CODES[args[2]])
            self.model.reset(self.tc)
            self._send("OK", ref)
            self._send("TC", self.tc.base_ms, self.tc.increment_ms, self.tc.mode.value)
            self._send_time()
        elif verb == "SET":
            self.model.set_times(int(args[0]), int(args[1]))
            self._send("OK", ref)
            self._send_time()
        elif verb == "START":
            self.model.start(HAND_CODES[args[0]])
            self._send("OK", ref)
            self._after_resume(HAND_CODES[args[0]])
        elif verb == "PAUSE":
            self._send("OK", ref)
            if self.model.pause():
                self._after_pause()
        elif verb == "RESUME":
            self._send("OK", ref)
            if self.model.resume() and self.model.running:
                self._after_resume(self.model.running)
        else:
            self._send("ERR", ref, "unknown-command")


def make_emulator(protocol: str, tc: TimeControl | str = "5+3", **kw: object) -> ClockEmulator:
    if protocol == "dgt":
        return DgtBoardEmulator(tc, **kw)
    if protocol == "line":
        return LineClockEmulator(tc, **kw)  # type: ignore[arg-type]
    raise ValueError(f"unknown clock protocol {protocol!r}; expected dgt or line")


def demo_game(emu: ClockEmulator, moves: int = 6, think_s: float = 0.3) -> None:
    """A short scripted game for ``rig clock --demo``: start, a few moves, a pause, an unplug, the end.
    The host (``rig clock``) is given time to connect and set the board in update mode first."""
    time.sleep(0.5)
    emu.start_game("left")
    hand: ClockHand = "left"
    for i in range(moves):
        time.sleep(think_s)
        emu.press(hand)
        hand = "right" if hand == "left" else "left"
        if i == 2:
            emu.pause()
            time.sleep(think_s)
            emu.resume()
    time.sleep(think_s)
    emu.unplug()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sensors.clock.emulator", description=__doc__.split("\n")[0])
    p.add_argument("--protocol", choices=("dgt", "line"), default="line")
    p.add_argument("--tc", default="5+3", help="time control, e.g. 5+3, 90+30, 15d5")
    p.add_argument("--link", help="path of the stable symlink to create (default: a temporary one)")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    with make_emulator(args.protocol, args.tc, path=args.link) as emu:
        print(f"{args.protocol} clock on {emu.path}: rig clock --port {emu.path} --protocol {args.protocol}")
        print("keys: l/r press, s start (left), p pause, g resume, u unplug/replug, q quit (then Enter)")
        for line in sys.stdin:
            for key in line.strip():
                if key in "lr":
                    print(emu.press("left" if key == "l" else "right"))
                elif key == "s":
                    emu.start_game("left")
                elif key == "p":
                    emu.pause()
                elif key == "g":
                    emu.resume()
                elif key == "u":
                    emu.replug() if not emu.port.plugged else emu.unplug()
                elif key == "q":
                    return 0
            print(repr(emu))
    return 0


if __name__ == "__main__":
    sys.exit(main())
