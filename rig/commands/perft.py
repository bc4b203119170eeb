"""``rig perft VARIANT DEPTH [--fen FEN] [--divide]``: count leaf positions, time the move generator.

Captures with the same origin, destination and captured set count once
(docs/rules.md "Reference perft counts"). Prints ``perft(DEPTH) = N`` and the speed;
``--divide`` first prints the count below each legal move.
"""

from __future__ import annotations

import argparse
import sys
import time

from rig.board import Board
from rig.errors import RigError
from rig.commands.names import variant_arg
from rig.variants import VARIANTS


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"depth must be a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"depth must be 0 or more, not {value}")
    return value


def register(subparsers) -> None:
    p = subparsers.add_parser("perft", help="count leaf positions to a depth and print nodes per second",
                              description=__doc__.split("\n")[0].split(": ", 1)[1])
    p.add_argument("variant", type=variant_arg, metavar="VARIANT",
                   help=f"one of {', '.join(sorted(VARIANTS))}")
    p.add_argument("depth", type=_depth, metavar="DEPTH", help="plies to search (0 or more)")
    p.add_argument("--fen", help="start position (PDN FEN, e.g. W:W31-50:B1-20); default: the initial position")
    p.add_argument("--divide", action="store_true", help="first print the count below each legal move")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        board = Board(args.variant, args.fen)
    except RigError as exc:
        print(f"rig perft: {exc}", file=sys.stderr)
        return 2
    depth = args.depth
    start = time.perf_counter()
    if args.divide and depth >= 1:
        legal = board.legal_moves
        nodes = 0
        for move in legal:
            text = board.move_text(move, legal)
            board.push(move)
            n = board.perft(depth - 1)
            board.pop()
            nodes += n
            print(f"{text}: {n}")
        print()
    else:
        nodes = board.perft(depth)
    seconds = time.perf_counter() - start
    print(f"perft({depth}) = {nodes}")
    rate = f"{nodes / seconds:,.0f} nodes/s" if seconds > 0 else "too fast to time"
    print(f"{nodes} nodes in {seconds:.3f} s: {rate}")
    return 0
