"""``rig clock``: show what a connected game clock says, one event per line, until the port closes."""

from __future__ import annotations

import argparse
import json
import logging
import sys
import threading
import time

from sensors.clock import ClockDevice, ClockSignal, Press, format_ms, to_session_event


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "clock", help="show what a connected game clock says (DGT board or line-protocol clock)",
        description="Read a game clock over USB serial and print its events (press, time, flag, pause, "
                    "resume, disconnected, reconnected), one per line, until the port closes.")
    p.add_argument("--port", help="serial port: a path (/dev/ttyACM0, /dev/serial/by-id/...) or usb:VID:PID[:SERIAL]")
    p.add_argument("--protocol", choices=("dgt", "line"), required=True,
                   help="dgt: a DGT board relaying a DGT 3000/XL clock; line: the open line protocol")
    p.add_argument("--white-side", choices=("left", "right"), default="left",
                   help="the side of the clock (seen from the front) that is White's (default: left)")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--reconnect", action="store_true",
                   help="keep going when the port closes, reconnecting with backoff (stop with Ctrl-C)")
    p.add_argument("--demo", action="store_true",
                   help="start an emulated clock on a pseudo-terminal, play a short scripted game on it and "
                        "show what the driver reads (no --port needed)")
    p.add_argument("-v", "--verbose", action="store_true", help="log rejected input and link changes")
    p.set_defaults(func=run)


def describe(sig: ClockSignal, t0: float, as_json: bool, source: str | None = None) -> list[str]:
    """The printed line(s) for one signal: the session vocabulary without ``type``, ``t`` last."""
    events = to_session_event(sig, t0, source=None)
    if isinstance(sig, Press):
        events = events[:1]  # the time line repeats the press's times
    lines = []
    for ev in events:
        d = ev.to_json()
        d.pop("type", None)
        t = d.pop("t")
        if as_json:
            lines.append(json.dumps({"event": d.pop("event"), **d, "t": t}))
            continue
        words = [f"{t:9.3f}", d.pop("event")]
        if "side" in d:
            words.append(d.pop("side"))
        if "white_ms" in d or "black_ms" in d:
            words.append(f"(white {format_ms(d.pop('white_ms', None))}, black {format_ms(d.pop('black_ms', None))})")
        words += [f"{k}={v}" for k, v in d.items()]
        lines.append(" ".join(words))
    return lines


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO if args.verbose else logging.ERROR, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    from sensors.clock import ClockError
    from sensors.clock.dgt import DgtClock
    from sensors.clock.line import LineClock

    emulator = None
    port = args.port
    if args.demo:
        from sensors.clock.emulator import demo_game, make_emulator
        emulator = make_emulator(args.protocol, "5+3").start()
        port = emulator.path
        threading.Thread(target=demo_game, args=(emulator,), name="clock-demo", daemon=True).start()
    elif not port:
        print("rig clock: --port is required (or --demo)", file=sys.stderr)
        return 2
    cls = DgtClock if args.protocol == "dgt" else LineClock
    try:
        clock: ClockDevice = cls(port, white_side=args.white_side, reconnect=args.reconnect).open()
    except (ClockError, ValueError) as exc:
        print(f"rig clock: {exc}", file=sys.stderr)
        if emulator is not None:
            emulator.stop()
        return 1
    t0 = time.monotonic()
    try:
        for sig in clock:
            for line in describe(sig, t0, args.json, cls.source):
                print(line, flush=True)
    finally:
        clock.close()
        if emulator is not None:
            emulator.stop()
    return 0
