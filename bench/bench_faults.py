"""Failing switches: real games read through a simulated reed-switch matrix with one faulty switch.

For each variant, fault kind and square (a stuck-closed switch on an empty central square, a dead switch
under a starting piece, a missing diode on a central square), clock and no clock, the real games of
tests/data are simulated (``rig simulate --matrix --fault KIND:SQ``: the hands, the matrix, the project's
scanner and its health monitor) and transcribed twice:

- *frames*: the frames alone (the engine finds the fault from the frames themselves);
- *health*: with the scanner's health findings as session lines, as ``rig run`` and ``rig simulate --matrix``
  write them.

Per fault kind and variant it prints the games, how many were read exactly (the moves that stand), how
many named a sensor fault on the faulty square (and the kinds named), and the player irregularities
raised (a fault must cause none: the games are played without irregularity).

Usage: python bench/bench_faults.py [--games N] [--variant V]
"""

from __future__ import annotations

import argparse
import os
import sys
import zlib
from collections import Counter

from rig.reconstruct import Reconstructor
from rig.session import HealthLine
from rig.simulate import HumanModel, simulate_game
from rig.simulate.games import load_pdn_games
from sensors.simulation import through_matrix
from rig.variants import get_variant

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests", "data")
VARIANTS = ("portuguese", "brazilian", "international")


def fault_squares(variant: str) -> dict[str, list[int]]:
    """Per fault kind, the squares tried: central empty squares (stuck closed, missing diode) and the
    front row of each side (dead under a starting piece)."""
    v = get_variant(variant)
    start = set(v.white_start) | set(v.black_start)
    mid = (v.size - 1) / 2

    def centrality(s: int) -> float:
        r, c = v.coords(s)
        return abs(r - mid) + abs(c - mid)

    empty = sorted((s for s in range(1, v.squares + 1) if s not in start), key=lambda s: (centrality(s), s))
    front_w = max(v.white_start, key=lambda s: (v.coords(s)[0] if v.coords(v.white_start[0])[0] < mid
                                                else -v.coords(s)[0], -centrality(s)))
    front_b = min(v.black_start, key=lambda s: (v.coords(s)[0] if v.coords(v.black_start[0])[0] > mid
                                                else -v.coords(s)[0], centrality(s)))
    return {"stuck-closed": empty[:2], "dead": [front_w, front_b], "missing-diode": empty[2:4]}


def transcribe(session, with_health: bool) -> Reconstructor:
    r = Reconstructor(session.header)
    for ev in session.events:
        if with_health or not isinstance(ev, HealthLine):
            r.feed(ev)
    r.finish()
    return r


def show(seed: str, fault: str, mode: str, got: list[str], s, r) -> None:
    """One game read wrong: the first differing move, the irregularities and the faults."""
    i = next((i for i, (a, b) in enumerate(zip(got, s.expected_moves)) if a != b), min(len(got), len(s.expected_moves)))
    irregular = [(x.type, x.number, x.t) for x in r.irregularities][:3]
    faults = [(f.square, f.kind, f.since) for f in r.sensor_faults]
    print(f"  {seed} {fault} {mode}: move {i}: {got[i:i + 2]} for {s.expected_moves[i:i + 2]}; {irregular}; "
          f"faults {faults}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=3, help="real games per variant (default 3)")
    p.add_argument("--variant", choices=VARIANTS, action="append")
    p.add_argument("--kind", action="append", help="only these fault kinds")
    p.add_argument("--show", action="store_true", help="print each game read wrong (first differing move)")
    args = p.parse_args(argv)
    rows = []
    for variant in args.variant or VARIANTS:
        folder = os.path.join(DATA, variant)
        games = [g for name in sorted(os.listdir(folder)) if name.endswith(".pdn")
                 for g in load_pdn_games(os.path.join(folder, name), variant)][:args.games]
        for kind, squares in fault_squares(variant).items():
            if args.kind and kind not in args.kind:
                continue
            for mode in ("frames", "health"):
                stats: Counter = Counter()
                named: Counter = Counter()
                for gi, game in enumerate(games):
                    for square in squares:
                        for clock in (True, False):
                            seed = f"faults:{variant}:{gi}:{square}:{clock}"
                            s = simulate_game(variant, game.moves, fen=game.fen, seed=seed, clock=clock,
                                              model=HumanModel(bounce_p=0.0), tags=game.tags)
                            s = through_matrix(s, [f"{kind}:{square}"], seed=zlib.crc32(seed.encode()))
                            r = transcribe(s, mode == "health")
                            stats["games"] += 1
                            got = [m.move_text for m in r.moves if not m.withdrawn]
                            stats["exact"] += got == s.expected_moves
                            if args.show and (got != s.expected_moves or r.irregularities):
                                show(seed, f"{kind}:{square}", mode, got, s, r)
                            kinds = sorted({f.kind for f in r.sensor_faults if f.square == square})
                            stats["named"] += bool(kinds)
                            for k in kinds:
                                named[k] += 1
                            stats["irregularities"] += len(r.irregularities)
                            stats["observations"] += len(r.observations)
                            stats["other faults"] += sum(f.square != square for f in r.sensor_faults)
                rows.append((variant, kind, mode, stats, named))
                print(f"{variant:13} {kind:13} {mode:6} games {stats['games']:3}  exact {stats['exact']:3}  "
                      f"named {stats['named']:3} ({', '.join(f'{k} {n}' for k, n in sorted(named.items())) or '-'})  "
                      f"player irregularities {stats['irregularities']}  observations {stats['observations']}  "
                      f"faults elsewhere {stats['other faults']}", flush=True)
    total = Counter()
    for *_, stats, _n in rows:
        total.update(stats)
    print(f"total: games {total['games']}, exact {total['exact']}, fault named {total['named']}, "
          f"player irregularities {total['irregularities']}, faults elsewhere {total['other faults']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
