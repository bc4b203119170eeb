"""Failing switches: real games read through a simulated reed-switch matrix with one faulty switch.

For each variant, fault kind and square (a stuck-closed switch on an empty central square, a dead switch
under a starting piece, a missing diode on a central square), clock and no clock, the real games of
tests/data are simulated (``rig simulate --matrix --fault KIND:SQ``: the hands, the matrix, the project's
scanner and its health monitor) and transcribed twice:

- *frames*: the session as ``rig simulate --matrix`` writes it (frames only: the engine finds the fault
  from the frames themselves);
- *health*: with the scanner's health findings as session lines, as ``rig run`` writes them.

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
from rig.session import Frame, HealthLine
from rig.simulate import HumanModel, simulate_game
from rig.simulate.games import load_pdn_games
from rig.simulate.matrix import occupancy_timeline
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


def transcribe(session, with_health: bool, health) -> Reconstructor:
    events = list(session.events)
    if with_health:
        lines = [HealthLine(h.t, h.kind, h.square, h.masked, h.message) for h in health]
        events = sorted(events + lines, key=lambda e: (e.t, 0 if isinstance(e, Frame) else 1))
    r = Reconstructor(session.header)
    for ev in events:
        r.feed(ev)
    r.finish()
    return r


def main(argv: list[str] | None = None) -> int:
    from dataclasses import replace

    from sensors.simulation import run_matrix_session

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
                            timeline = occupancy_timeline(s)
                            run = run_matrix_session(variant, timeline, [f"{kind}:{square}"],
                                                     zlib.crc32(seed.encode()), expected_start=timeline[0][1])
                            others = [e for e in s.events if not isinstance(e, Frame)]
                            events = sorted(run.frames + others, key=lambda e: (e.t, 0 if isinstance(e, Frame) else 1))
                            s = replace(s, events=events)
                            r = transcribe(s, mode == "health", run.health)
                            stats["games"] += 1
                            got = [m.move_text for m in r.moves if not m.withdrawn]
                            stats["exact"] += got == s.expected_moves
                            if args.show and (got != s.expected_moves or r.irregularities):
                                i = next((i for i, (a, b) in enumerate(zip(got, s.expected_moves)) if a != b),
                                         min(len(got), len(s.expected_moves)))
                                print(f"  {seed} {kind}:{square} {mode}: move {i}: {got[i:i + 2]} for "
                                      f"{s.expected_moves[i:i + 2]}; {[(x.type, x.number, x.t) for x in r.irregularities][:3]}"
                                      f"; faults {[(f.square, f.kind, f.since) for f in r.sensor_faults]}")
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
