"""Digests of everything the reconstruction engine writes for a fixed corpus: a refactor's proof (the same
digests before and after it mean byte-identical outputs).

For each corpus, a SHA-256 over every output's JSON in order, then each session's report, result reason and PDN:

- ``data``: the sessions under tests/data as ``rig transcribe`` reads them (trace on: the ``--explain`` timeline
  is digested too);
- ``bench``: the corpus of bench/bench_transcribe.py (simulated games, three variants, clock and no clock);
- ``soak-hard``, ``soak-mix``: the cases of ``bench/soak_transcribe.py --preset hard --seed 1`` and ``--preset mix
  --seed 2`` (their human models, injections and engine settings), ``--sessions`` of each, and the soak's table.

Usage: python bench/transcribe_digest.py [--sessions N] [--out DIR]   (``--out``: each corpus's text as well,
for ``diff -r`` when two digests differ)
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import hashlib
import io
import json
import os
import sys
import time

from rig.commands.transcribe import transcribe
from rig.reconstruct import Reconstructor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import bench_transcribe  # noqa: E402
import soak_transcribe  # noqa: E402


class Sink:
    """A digest of what is written, and the text itself when kept."""

    def __init__(self, keep: bool):
        self.sha = hashlib.sha256()
        self.parts: list[str] | None = [] if keep else None
        self.sessions = 0

    def write(self, text: str) -> None:
        self.sha.update(text.encode())
        if self.parts is not None:
            self.parts.append(text)

    def outputs(self, outs) -> None:
        for o in outs:
            self.write(json.dumps(o.to_json(), sort_keys=True) + "\n")

    def end(self, engine: Reconstructor) -> None:
        self.sessions += 1
        self.write(json.dumps({"report": engine.report(), "reason": engine.result_reason}, sort_keys=True) + "\n")
        self.write(engine.pdn() + "\n")


def replay(sink: Sink, engine: Reconstructor, events) -> None:
    for ev in events:
        sink.outputs(engine.feed(ev))
    sink.outputs(engine.finish())
    sink.end(engine)


def data(sink: Sink) -> None:
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "data", "**", "*.jsonl"), recursive=True)):
        explain = io.StringIO()
        with open(path, encoding="utf-8") as f:
            engine = transcribe(f, explain=explain, name=os.path.basename(path))
        sink.write(explain.getvalue())
        sink.end(engine)


def bench(sink: Sink) -> None:
    for s in bench_transcribe.corpus(60, 80, 0):
        replay(sink, Reconstructor(s.header), s.events)


def soak(sink: Sink, preset: str, seed: int, sessions: int) -> None:
    """The soak's own cases: its ``check`` is wrapped to replay each session into ``sink`` first."""
    check = soak_transcribe.check

    def recorded(case, session, found=None):
        _, settings = soak_transcribe.model_of(case["preset"], case.get("settings", 0))
        replay(sink, Reconstructor(session.header, settings), session.events)
        return check(case, session, found)

    soak_transcribe.check = recorded
    table = io.StringIO()
    try:
        with contextlib.redirect_stdout(table), contextlib.redirect_stderr(io.StringIO()):
            soak_transcribe.run(0.0, seed, None, [preset], 3, False, sessions)
    finally:
        soak_transcribe.check = check
    sink.write(table.getvalue())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=200, help="soak sessions per preset (default 200)")
    ap.add_argument("--out", help="also write each corpus's text into this folder")
    args = ap.parse_args(argv)
    if args.sessions < 1:
        ap.error("--sessions must be at least 1")
    corpora = {"data": data, "bench": bench,
               "soak-hard": lambda s: soak(s, "hard", 1, args.sessions),
               "soak-mix": lambda s: soak(s, "mix", 2, args.sessions)}
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    for name, fill in corpora.items():
        t0 = time.perf_counter()
        sink = Sink(args.out is not None)
        fill(sink)
        print(f"{name:10s} {sink.sessions:4d} sessions  sha256 {sink.sha.hexdigest()}  "
              f"({time.perf_counter() - t0:.1f} s)")
        if args.out and sink.parts is not None:
            with open(os.path.join(args.out, f"{name}.txt"), "w", encoding="utf-8") as f:
                f.write("".join(sink.parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
