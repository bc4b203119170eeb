"""Benchmark: perft(6) from the initial position, the rig against py-draughts.

Not a test: it prints figures and asserts nothing. For international and
brazilian it times, in this one run:

- ``rig Board.perft``: the rig's perft (bulk count at depth 1, the same move
  generator as ``Board.legal_moves``);
- ``rig Board API``: perft through ``legal_moves``/``push``/``pop`` with Move objects;
- ``py-draughts Board API``: the same perft algorithm through py-draughts' public
  Board API (bulk count at depth 1 = ``len(legal_moves)``, push/pop), run as a
  subprocess in its own virtualenv (GPL: never imported here);
- for international, py-draughts' own turbo-engine perft, reported as a second
  peer line.

Each figure is the best of ``--repeat`` rounds (default 3); a round runs the
rig and the peer one after the other, so a busy machine slows both alike.
The ratio is the rig's ``Board.perft`` against the py-draughts Board API.

    .venv/bin/python bench/bench_perft.py [--depth 6] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from rig.board import Board, api_perft

ROOT = Path(__file__).resolve().parent.parent
PEER_PYTHON = ROOT / ".venv-py-draughts" / "bin" / "python"
DRIVER = ROOT / "tests" / "peer_py_draughts.py"
VARIANTS = ("international", "brazilian")
RIG = "rig Board.perft"
RIG_API = "rig Board API (legal_moves, push, pop)"
PEER_API = "py-draughts Board API"


def timed(run) -> tuple[int, float]:
    t = time.perf_counter()
    nodes = run()
    return nodes, time.perf_counter() - t


def peer(variant: str, depth: int) -> list[tuple[str, int, float]]:
    """[(peer name, nodes, seconds)] of one py-draughts subprocess run (it times itself)."""
    proc = subprocess.run([str(PEER_PYTHON), str(DRIVER), "perft", variant, str(depth)],
                          capture_output=True, text=True, check=True)
    return [(r["peer"], r["nodes"], r["seconds"]) for r in map(json.loads, proc.stdout.splitlines())]


def keep_best(best: dict[str, tuple[int, float]], name: str, nodes: int, seconds: float) -> None:
    if name not in best or seconds < best[name][1]:
        best[name] = (nodes, seconds)


def line(name: str, nodes: int, seconds: float) -> str:
    return f"  {name:<44} {nodes:>9} nodes {seconds:7.3f} s {nodes / seconds:>11,.0f} nodes/s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    args, _ = parser.parse_known_args(argv)
    print(f"perft({args.depth}) from the initial position, best of {args.repeat}; "
          f"Python {sys.version.split()[0]}")
    if not PEER_PYTHON.exists():
        print(f"py-draughts missing: {PEER_PYTHON} (create it with ./dev setup); timing the rig only")
    for variant in VARIANTS:
        print(f"{variant}:")
        best: dict[str, tuple[int, float]] = {}
        for _ in range(args.repeat):
            keep_best(best, RIG, *timed(lambda: Board(variant).perft(args.depth)))
            keep_best(best, RIG_API, *timed(lambda: api_perft(Board(variant), args.depth)))
            if PEER_PYTHON.exists():
                for name, nodes, seconds in peer(variant, args.depth):
                    keep_best(best, name, nodes, seconds)
        rig_nodes = best[RIG][0]
        for name, (nodes, seconds) in best.items():
            print(line(name, nodes, seconds))
            if nodes != rig_nodes:
                print(f"  WARNING: {name} counts {nodes}, the rig {rig_nodes}")
        rate = {name: nodes / seconds for name, (nodes, seconds) in best.items()}
        if PEER_API in rate:
            print(f"  ratio rig Board.perft / py-draughts Board API: {rate[RIG] / rate[PEER_API]:.2f}x"
                  f"   (rig Board API / py-draughts Board API: {rate[RIG_API] / rate[PEER_API]:.2f}x)")
        for name in rate:
            if name not in (RIG, RIG_API, PEER_API):
                print(f"  ratio rig Board.perft / {name}: {rate[RIG] / rate[name]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
