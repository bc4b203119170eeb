"""Benchmark of rig.rulesets.GameTracker: microseconds per push, per push + counters(), per pop.

For every rule set it plays random legal games (a fixed seed) from the initial position and from a
few endings (where the ending counters run), records the moves, then replays them through a fresh
GameTracker per game, timing only the calls measured:

- ``push``: ``GameTracker.push`` alone;
- ``push+counters``: ``push`` then ``counters()`` (what the reconstruction engine does per commit);
- ``pop``: ``pop`` back to the start after the game was pushed.

Each figure is the best of ``--repeat`` runs (the machine is shared), in microseconds per call.

Usage: python bench/bench_rulesets.py [--games N] [--plies N] [--seed S] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import time

from rig.board import Board
from rig.move import Move
from rig.rulesets import RULESETS, GameTracker

#: Endings per rule set (FEN), so that the material and ending counters are exercised too.
ENDINGS = {
    "fpd-2026": ("W:WK4,9:BK29,24", "W:WK2,K3,K4:BK29", "W:WK4,10,11:BK29,23,22"),
    "fpd-classic": ("W:W9,10,K4:B24,23,K29", "W:WK2,K3,K4:BK29"),
    "fmjd": ("W:WK46,K47,7:BK35", "W:WK46,35,36:BK1", "W:WK46,K47:BK5,10"),
    "codex-64": ("W:WKd2:BKh8,a7,b6", "W:WKc1,Ke1,Kg1:BKh8", "W:WKc1,e3:BKf6,b6"),
    "codex-100": ("W:WK46,35,36:BK1", "W:WK46,K47:BK5", "W:WK46,30:BK5,20"),
}


def random_games(ruleset: str, games: int, plies: int, seed: int) -> list[tuple[str | None, list[Move]]]:
    """``games`` random legal games from the initial position and as many from each ending."""
    variant = RULESETS[ruleset].variant
    rng = random.Random(f"{seed}:{ruleset}")
    out = []
    for fen in (None,) + ENDINGS[ruleset]:
        for _ in range(games):
            board = Board(variant, fen)
            moves = []
            for _ in range(plies):
                legal = board.legal_moves
                if not legal:
                    break
                m = rng.choice(legal)
                board.push(m)
                moves.append(m)
            out.append((fen, moves))
    return out


def time_games(ruleset: str, games: list[tuple[str | None, list[Move]]], counters: bool) -> tuple[float, float, int]:
    """(seconds in push [+ counters], seconds in pop, plies) over every game."""
    variant = RULESETS[ruleset].variant
    t_push = t_pop = 0.0
    n = 0
    clock = time.perf_counter
    for fen, moves in games:
        tracker = GameTracker(ruleset, Board(variant, fen))
        push = tracker.push
        if counters:
            tracker.counters()
            t0 = clock()
            for m in moves:
                push(m)
                tracker.counters()
            t1 = clock()
        else:
            t0 = clock()
            for m in moves:
                push(m)
            t1 = clock()
        pop = tracker.pop
        t2 = clock()
        for _ in moves:
            pop()
        t3 = clock()
        t_push += t1 - t0
        t_pop += t3 - t2
        n += len(moves)
    return t_push, t_pop, n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per start position (default 20)")
    ap.add_argument("--plies", type=int, default=120, help="at most this many plies a game (default 120)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5, help="runs; each figure is the best (default 5)")
    args = ap.parse_args(argv)
    print(f"{'rule set':<12} {'plies':>6} {'push':>8} {'push+counters':>14} {'pop':>6}   (us per call, "
          f"best of {args.repeat})")
    totals = [0.0, 0.0, 0.0, 0]
    for ruleset in RULESETS:
        games = random_games(ruleset, args.games, args.plies, args.seed)
        push = both = pop = float("inf")
        plies = 0
        for _ in range(args.repeat):
            tp, tpop, plies = time_games(ruleset, games, counters=False)
            tb, _, _ = time_games(ruleset, games, counters=True)
            push, both, pop = min(push, tp), min(both, tb), min(pop, tpop)
        totals[0] += push
        totals[1] += both
        totals[2] += pop
        totals[3] += plies
        print(f"{ruleset:<12} {plies:>6} {push / plies * 1e6:>8.2f} {both / plies * 1e6:>14.2f} "
              f"{pop / plies * 1e6:>6.2f}")
    n = totals[3]
    print(f"{'all':<12} {n:>6} {totals[0] / n * 1e6:>8.2f} {totals[1] / n * 1e6:>14.2f} "
          f"{totals[2] / n * 1e6:>6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
