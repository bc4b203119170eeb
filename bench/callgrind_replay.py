"""The stable speed figure of the reconstruction engine: callgrind's instruction count of one change-only replay.

Wall and CPU times swing by up to a third on a shared machine; the number of instructions one replay executes
does not. The corpus is written once as session files (docs/session-format.md), so two trees whose classes
differ (an engine before and after a change) replay the very same frames:

- ``write DIR``: the corpus of bench/bench_transcribe.py (``corpus(60, 80, 0)`` by default), one session file
  per session (``000.jsonl`` ...) and ``expected.json`` (each session's moves);
- ``replay DIR``: reads the sessions, freezes them out of the garbage collector, then replays each once through a
  fresh ``Reconstructor`` (feed every event, finish); ``--parse-only`` stops after reading;
- ``count DIR``: runs ``replay`` and ``replay --parse-only`` under ``valgrind --tool=callgrind``
  (``PYTHONHASHSEED=0``, the bytecode of ``rig`` compiled beforehand) and prints the difference, the
  instructions of the replay alone.

To measure another tree (e.g. a ``git worktree`` of an older commit) with this script, run it from that tree's
directory with ``PYTHONPATH=.``: the script prints the ``rig`` package it replays with.

Without a command (as ``./dev bench`` runs it) the corpus is written to a temporary directory and counted (timed
only, without valgrind).

Usage: python bench/callgrind_replay.py write DIR [--games N] [--plies N] [--seed S]
       python bench/callgrind_replay.py count DIR [--keep OUTDIR]
       python bench/callgrind_replay.py
"""

from __future__ import annotations

import argparse
import gc
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write(directory: str, games: int, plies: int, seed: int) -> int:
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import bench_transcribe

    from rig.session import write_session

    os.makedirs(directory, exist_ok=True)
    sessions = bench_transcribe.corpus(games, plies, seed)
    for i, s in enumerate(sessions):
        with open(os.path.join(directory, f"{i:03d}.jsonl"), "w", encoding="utf-8") as fh:
            write_session(fh, s.header, s.events)
    with open(os.path.join(directory, "expected.json"), "w", encoding="utf-8") as fh:
        json.dump([s.expected_moves for s in sessions], fh)
    frames = sum(1 for s in sessions for e in s.events if type(e).__name__ == "Frame")
    print(f"{len(sessions)} sessions, {frames} frames written to {directory}")
    return 0


def replay(directory: str, parse_only: bool) -> int:
    import rig
    from rig.reconstruct import Reconstructor
    from rig.session import read_session

    paths = sorted(glob.glob(os.path.join(directory, "*.jsonl")))
    expected_path = os.path.join(directory, "expected.json")
    if not paths or not os.path.isfile(expected_path):
        print(f"error: {directory} is not a corpus written by 'callgrind_replay.py write' (session files "
              f"*.jsonl and expected.json)", file=sys.stderr)
        return 2
    sessions = []
    for path in paths:
        try:
            sessions.append(read_session(path))
        except ValueError as exc:         # SessionFormatError is a ValueError
            print(f"error: {path}: {exc}", file=sys.stderr)
            return 2
    with open(expected_path, encoding="utf-8") as fh:
        expected = json.load(fh)
    gc.collect()
    gc.freeze()
    if parse_only:
        print(f"{len(sessions)} sessions read (rig from {os.path.dirname(rig.__file__)})")
        return 0
    t0, c0 = time.perf_counter(), time.thread_time()
    moves = mismatches = 0
    for (header, events), want in zip(sessions, expected):
        engine = Reconstructor(header)
        feed = engine.feed
        for ev in events:
            feed(ev)
        engine.finish()
        moves += len(engine.moves)
        mismatches += [m.move_text for m in engine.moves] != want
    wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
    print(f"{len(sessions)} sessions replayed, {moves} moves, {mismatches} transcripts differing from the game "
          f"(wall {wall:.3f} s, CPU {cpu:.3f} s; rig from {os.path.dirname(rig.__file__)})")
    return 0


def instructions(directory: str, parse_only: bool, outdir: str) -> int:
    """Callgrind's total of instructions executed by one ``replay`` run."""
    out = os.path.join(outdir, "callgrind.parse" if parse_only else "callgrind.replay")
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
           os.path.abspath(__file__), "replay", directory] + (["--parse-only"] if parse_only else [])
    env = dict(os.environ, PYTHONHASHSEED="0")
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"error: {' '.join(cmd)} failed (exit {done.returncode})")
    print("  " + done.stdout.strip())
    total = callgrind_total(out)
    if total is None:
        raise SystemExit(f"error: no instruction total in {out}")
    return total


def callgrind_total(path: str) -> int | None:
    """The instructions (``Ir``) a callgrind output file totals: its ``summary:`` (or ``totals:``) line."""
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            m = re.match(r"(?:summary|totals):\s*(\d+)", line)
            if m:
                return int(m.group(1))
    return None


def count(directory: str, keep: str | None) -> int:
    import rig

    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.dirname(rig.__file__)], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        outdir = keep or tmp
        os.makedirs(outdir, exist_ok=True)
        parse = instructions(directory, True, outdir)
        total = instructions(directory, False, outdir)
    print(f"instructions: replay run {total:,}, reading alone {parse:,}; "
          f"one change-only replay {(total - parse) / 1e6:,.1f}M")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command")
    w = sub.add_parser("write", help="write the bench corpus as session files")
    w.add_argument("dir")
    w.add_argument("--games", type=int, default=60)
    w.add_argument("--plies", type=int, default=80)
    w.add_argument("--seed", type=int, default=0)
    r = sub.add_parser("replay", help="read the session files and replay them once")
    r.add_argument("dir")
    r.add_argument("--parse-only", action="store_true", help="read the sessions, do not replay them")
    c = sub.add_parser("count", help="callgrind's instructions of one replay (needs valgrind)")
    c.add_argument("dir")
    c.add_argument("--keep", metavar="OUTDIR", help="keep the callgrind output files there (callgrind_annotate)")
    args = ap.parse_args(argv)
    if args.command is None:
        with tempfile.TemporaryDirectory() as tmp:
            write(tmp, 60, 80, 0)
            if shutil.which("valgrind") is None:
                print("valgrind is not installed: one replay timed instead of counted")
                return replay(tmp, False)
            return count(tmp, None)
    if args.command == "write":
        return write(args.dir, args.games, args.plies, args.seed)
    if not os.path.isdir(args.dir):
        print(f"error: {args.dir} is not a directory", file=sys.stderr)
        return 2
    if args.command == "replay":
        return replay(args.dir, args.parse_only)
    if not os.path.isfile(os.path.join(args.dir, "expected.json")):
        print(f"error: {args.dir} is not a corpus written by 'callgrind_replay.py write'", file=sys.stderr)
        return 2
    if shutil.which("valgrind") is None:
        print("error: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    return count(args.dir, args.keep)


if __name__ == "__main__":
    sys.exit(main())
