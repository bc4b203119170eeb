"""``rig transcribe SESSION.jsonl``: a board session in, the game as PDN out (docs/session-format.md).

``--report FILE.json`` also writes what the reconstruction found (moves,
irregularities, draw rules, result); ``--explain`` prints the event timeline
with what the engine decided at each step instead of the PDN. Malformed input
exits 2 naming the line; an irregular game is not an error (exit 0).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Iterator, TextIO, cast

from rig.errors import SessionFormatError
from rig.reconstruct import Reconstructor, Settings
from rig.session import ArbiterEvent, ClockEvent, Event, Frame, Header, HealthLine, iter_session

__all__ = ["register", "transcribe", "describe_event", "describe_output"]


def register(subparsers) -> None:
    p = subparsers.add_parser("transcribe", help="reconstruct the game of a board session as PDN",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("session", metavar="SESSION.jsonl", help="board session file (docs/session-format.md), - for stdin")
    p.add_argument("--report", metavar="FILE.json", help="also write the reconstruction report (JSON)")
    p.add_argument("--explain", action="store_true",
                   help="print the event timeline with the engine's decision at each step")
    p.add_argument("--bounce", type=float, default=Settings.bounce_s, metavar="S",
                   help=f"switch bounce window in seconds (default {Settings.bounce_s})")
    p.add_argument("--touch", type=float, default=Settings.touch_s, metavar="S",
                   help=f"shortest deliberate touch in seconds (default {Settings.touch_s})")
    p.add_argument("--stable", type=float, default=Settings.stable_s, metavar="S",
                   help=f"without a clock: seconds of a still board that commit a move (default {Settings.stable_s})")
    p.set_defaults(func=run)


def describe_event(ev: Any, variant, previous: frozenset[int] | None = None) -> str:
    """One event in words, for the timeline; a frame says what changed since ``previous``
    (``+sq`` a switch closed, ``-sq`` opened)."""
    if isinstance(ev, Frame):
        text = f"frame {len(ev.occupied)} occupied"
        if previous is None:
            if len(ev.occupied) <= 12:
                text += " [" + " ".join(variant.square_name(s) for s in sorted(ev.occupied)) + "]"
            return text
        changes = [f"+{variant.square_name(s)}" for s in sorted(ev.occupied - previous)]
        changes += [f"-{variant.square_name(s)}" for s in sorted(previous - ev.occupied)]
        return text + (": " + " ".join(changes) if changes else ": no change")
    if isinstance(ev, ClockEvent):
        bits = [f"clock {ev.event}"]
        if ev.side:
            bits.append(ev.side)
        if ev.white_ms is not None:
            bits.append(f"white {ev.white_ms} ms, black {ev.black_ms} ms")
        extra = ev.extra or {}
        late = [k for k in ("replayed", "inferred") if extra.get(k)]
        if isinstance(extra.get("clock_t"), (int, float)):
            late.append(f"made at {extra['clock_t']:.3f}")
        if late:
            bits.append(f"({', '.join(late)})")
        return " ".join(bits)
    if isinstance(ev, ArbiterEvent):
        what = ev.fen or ev.result or (f"#{ev.ref}" if ev.ref is not None else "")
        return f"arbiter {ev.action} {what}".rstrip()
    if isinstance(ev, HealthLine):
        return f"health {ev.kind} square {variant.square_name(ev.square)}{' (masked)' if ev.masked else ''}"
    return str(ev)


def describe_output(out: Any) -> str:
    """What the engine decided, in words."""
    d = out.to_json()
    kind = d.pop("kind")
    d.pop("t", None)
    if kind == "move":
        legal = "" if d["legal"] else " (irregular)"
        clock = f", clock {d['clock_ms']} ms" if d.get("clock_ms") is not None else ""
        return f"MOVE {d['number']}. {d['side']} {d['move']}{legal}{clock}"
    if kind == "irregularity":
        return (f"IRREGULARITY {d['type']} ({d['rule']}) move {d['number']} {d['side']} "
                f"squares {d['squares']}: {d.get('detail', '')} [{d['status']}]")
    if kind == "irregularity-update":
        return f"irregularity #{d['index']} -> {d['status']} ({d['reason']})"
    if kind == "note":
        return d["text"]
    if kind == "counters":
        return "counters " + ", ".join(f"{c['rule']} {c['count']}/{c['limit']}" for c in d["counters"])
    if kind == "game-end":
        return f"GAME END {d['result']}: {d['reason']}"
    return f"{kind} " + " ".join(f"{k}={v}" for k, v in d.items())


def transcribe(stream: TextIO, settings: Settings | None = None, explain: TextIO | None = None,
               name: str = "SESSION.jsonl") -> Reconstructor:
    """Run a session stream through the engine; with ``explain``, write the timeline there.
    Raises :class:`SessionFormatError` (with the line) on malformed input."""
    items = iter_session(stream)
    header = next(items)
    if not isinstance(header, Header):   # iter_session has already refused a session without one
        raise SessionFormatError("the first line must be the header", 1)
    events = cast(Iterator[Event], items)
    engine = Reconstructor(header, settings, trace=explain is not None)
    variant = engine.variant
    if explain is not None:
        explain.write(f"{name}: {header.variant.name}, rule set {header.ruleset.id}, "
                      f"start {header.fen or 'initial position'}\n")
    previous: frozenset[int] | None = None
    for ev in events:
        outs = engine.feed(ev)
        if explain is not None:
            explain.write(f"{ev.t:9.3f}  {describe_event(ev, variant, previous)}\n")
            if isinstance(ev, Frame):
                previous = ev.occupied
            for o in outs:
                explain.write(f"{o.t:9.3f}    -> {describe_output(o)}\n")
    outs = engine.finish()
    if explain is not None:
        explain.write("      end  end of the session\n")
        for o in outs:
            explain.write(f"{o.t:9.3f}    -> {describe_output(o)}\n")
        explain.write(f"result {engine.result}: {len(engine.moves)} moves, "
                      f"{len(engine.irregularities)} irregularities\n")
    return engine


def run(args) -> int:
    try:
        settings = Settings(bounce_s=args.bounce, touch_s=args.touch, stable_s=args.stable)
    except ValueError as exc:
        print(f"rig transcribe: {exc}", file=sys.stderr)
        return 2
    path = args.session
    try:
        stream = sys.stdin if path == "-" else open(path, encoding="utf-8")
    except OSError as exc:
        print(f"rig transcribe: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        with stream:
            engine = transcribe(stream, settings, sys.stdout if args.explain else None, path)
    except SessionFormatError as exc:
        where = f"line {exc.line}: " if exc.line is not None else ""
        msg = str(exc)
        if exc.line is not None and msg.startswith(f"line {exc.line}: "):
            msg = msg[len(f"line {exc.line}: "):]
        print(f"rig transcribe: {path} {where}{msg}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(f"rig transcribe: {path} is not UTF-8 text ({exc.reason})", file=sys.stderr)
        return 2
    if not args.explain:
        sys.stdout.write(engine.pdn())
    if args.report:
        try:
            with open(args.report, "w", encoding="utf-8") as fh:
                json.dump(engine.report(), fh, indent=2)
                fh.write("\n")
        except OSError as exc:
            print(f"rig transcribe: cannot write {args.report}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    return 0
