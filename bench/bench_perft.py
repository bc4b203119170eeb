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

Each figure is the best of ``--repeat`` runs (default 3). The ratio is the
rig's ``Board.perft`` against the py-draughts Board API.

    .venv/bin/python bench/bench_perft.py [--depth 6] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from rig.board import Board

ROOT = Path(__file__).resolve().parent.parent
PEER_PYTHON = ROOT / ".venv-py-draughts" / "bin" / "python"
DRIVER = ROOT / "tests" / "peer_py_draughts.py"
VARIANTS = ("international", "brazilian")


def api_perft(board: Board, depth: int) -> int:
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += api_perft(board, depth - 1)
        board.pop()
    return total


def best_of(repeat: int, run) -> tuple[int, float]:
    best = None
    nodes = 0
    for _ in range(repeat):
        t = time.perf_counter()
        nodes = run()
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return nodes, best


def peer(variant: str, depth: int, repeat: int) -> dict[str, tuple[int, float]]:
    """{peer name: (nodes, best seconds)} from the py-draughts subprocess, or {} if it is missing."""
    if not PEER_PYTHON.exists():
        print(f"  py-draughts: missing {PEER_PYTHON} (create it with ./dev setup)")
        return {}
    proc = subprocess.run([str(PEER_PYTHON), str(DRIVER), "perft", variant, str(depth), str(repeat)],
                          capture_output=True, text=True, check=True)
    out: dict[str, tuple[int, float]] = {}
    for line in proc.stdout.splitlines():
        r = json.loads(line)
        prev = out.get(r["peer"])
        if prev is None or r["seconds"] < prev[1]:
            out[r["peer"]] = (r["nodes"], r["seconds"])
    return out


def line(name: str, nodes: int, seconds: float) -> str:
    return f"  {name:<44} {nodes:>9} nodes {seconds:7.3f} s {nodes / seconds:>11,.0f} nodes/s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    args, _ = parser.parse_known_args(argv)
    print(f"perft({args.depth}) from the initial position, best of {args.repeat}; "
          f"Python {sys.version.split()[0]}")
    for variant in VARIANTS:
        print(f"{variant}:")
        rig_nodes, rig_s = best_of(args.repeat, lambda: Board(variant).perft(args.depth))
        print(line("rig Board.perft", rig_nodes, rig_s))
        api_nodes, api_s = best_of(args.repeat, lambda: api_perft(Board(variant), args.depth))
        print(line("rig Board API (legal_moves, push, pop)", api_nodes, api_s))
        peers = peer(variant, args.depth, args.repeat)
        for name, (nodes, seconds) in peers.items():
            print(line(name, nodes, seconds))
            if nodes != rig_nodes:
                print(f"  WARNING: {name} counts {nodes}, the rig {rig_nodes}")
        ref = peers.get("py-draughts Board API")
        if ref:
            rig_rate = rig_nodes / rig_s
            print(f"  ratio rig Board.perft / py-draughts Board API: {rig_rate / (ref[0] / ref[1]):.2f}x"
                  f"   (rig Board API / py-draughts Board API: {api_nodes / api_s / (ref[0] / ref[1]):.2f}x)")
            for name, (nodes, seconds) in peers.items():
                if name != "py-draughts Board API":
                    print(f"  ratio rig Board.perft / {name}: {rig_rate / (nodes / seconds):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
