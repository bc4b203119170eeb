"""Benchmark of the reconstruction engine: frames per second and commit latency.

Builds a corpus of simulated sessions (rig.simulate: random legal games played by noisy simulated
hands, with and without a clock, all three variants), replays each through a fresh Reconstructor
single-threaded, and prints:

- events and frames processed per second (CPU time of the feed/finish calls only);
- commit latency: processing time of the feed() call whose event committed a move (a clock press,
  the opponent's first lift, or the frame after the stability window), i.e. from the committing event
  to the emitted MoveEntry: mean, p99, max.

Usage: python bench/bench_transcribe.py [--games N] [--plies N] [--seed S]
Targets (issue 3): >= 50,000 frames/s, commit latency < 2 ms on the development machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from rig.reconstruct import MoveEntry, Reconstructor
from rig.session import Frame


def corpus(games: int, plies: int, seed: int):
    from rig.simulate import PhysicalError, random_game, simulate_game

    out = []
    variants = ("portuguese", "brazilian", "international")
    i = 0
    while len(out) < games:
        variant = variants[i % 3]
        clock = (i // 3) % 2 == 0
        try:
            out.append(simulate_game(variant, random_game(variant, plies, seed + i), seed=seed + i, clock=clock))
        except PhysicalError:
            pass
        i += 1
    return out


def streamed(events, rate: float):
    """The session as a sensor scanning at ``rate`` Hz delivers it: the last frame repeated every
    1/rate seconds until the next event."""
    if rate <= 0:
        return list(events)
    step = 1.0 / rate
    out = []
    last = None
    for ev in events:
        if last is not None:
            t = last.t + step
            while t < ev.t:
                out.append(Frame(t, last.occupied))
                t += step
        out.append(ev)
        if isinstance(ev, Frame):
            last = ev
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--plies", type=int, default=80)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rate", type=float, default=100.0,
                    help="sensor scan rate in Hz: a frame every 1/RATE s between the changes, as a matrix "
                         "scanning at that rate emits them (0: only the frames where occupancy changes)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    sessions = corpus(args.games, args.plies, args.seed)
    streams = [streamed(s.events, args.rate) for s in sessions]
    build = time.perf_counter() - t0
    frames = sum(1 for st in streams for e in st if isinstance(e, Frame))
    events = sum(len(st) for st in streams)
    latencies: list[float] = []
    cpu_latencies: list[float] = []
    total = 0.0
    cpu_total = 0.0
    moves = 0
    mismatches = 0
    clock, cpu = time.perf_counter, time.thread_time
    for s, stream in zip(sessions, streams):
        engine = Reconstructor(s.header)
        for ev in stream:
            a, c = clock(), cpu()
            out = engine.feed(ev)
            d, dc = clock() - a, cpu() - c
            total += d
            cpu_total += dc
            if any(isinstance(o, MoveEntry) for o in out):
                latencies.append(d)
                cpu_latencies.append(dc)
        a, c = clock(), cpu()
        engine.finish()
        total += clock() - a
        cpu_total += cpu() - c
        moves += len(engine.moves)
        if [m.move_text for m in engine.moves] != s.expected_moves:
            mismatches += 1
    def stats(xs: list[float]) -> str:
        xs = sorted(xs)
        p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
        return f"mean {statistics.mean(xs) * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms, max {xs[-1] * 1e3:.3f} ms"

    print(f"corpus: {len(sessions)} simulated sessions (3 variants, clock and no clock), {moves} moves, "
          f"{events} events, {frames} frames at {args.rate:g} Hz (built in {build:.1f} s)")
    print(f"replay: wall {total:.3f} s -> {events / total:,.0f} events/s, {frames / total:,.0f} frames/s; "
          f"CPU {cpu_total:.3f} s -> {frames / cpu_total:,.0f} frames/s")
    print(f"commit latency (committing event -> MoveEntry), {len(latencies)} commits:")
    print(f"  wall: {stats(latencies)}")
    print(f"  CPU:  {stats(cpu_latencies)}")
    print(f"transcripts differing from the game: {mismatches}")
    return 0 if mismatches == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
