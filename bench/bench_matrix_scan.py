"""Cost of one full matrix scan on gpiozero mock pins (no assertion: prints scans/s and µs per scan).

Three figures per board: plain MockFactory pins (the scanner's own cost: pin calls, debounce,
bookkeeping), the simulated matrix (pins computing the circuit), and matrix_session on a short
game (virtual time, quiet stretches skipped). The target on a Pi is a full 50-square scan at
>= 200 Hz, i.e. under 5000 µs per scan.
"""

from __future__ import annotations

import time

from gpiozero.pins.mock import MockFactory

from rig.variants import get_variant
from sensors.matrix import MatrixScanner
from sensors.simmatrix import SimClock, SimulatedMatrix
from sensors.simulation import run_matrix_session


def timed(scanner, clock, n):
    t = time.perf_counter()
    for _ in range(n):
        scanner.scan()
        if clock is not None:
            clock.sleep(1 / scanner.scan_hz)
    dt = time.perf_counter() - t
    return n / dt, dt / n * 1e6


def main(n: int = 3000) -> None:
    for name in ("portuguese", "international"):
        v = get_variant(name)
        start = frozenset(v.white_start) | frozenset(v.black_start)
        with MatrixScanner(v, pin_factory=MockFactory()) as s:
            rate, us = timed(s, None, n)
        print(f"matrix scan {v.size}x{v.size} ({v.squares} squares), plain MockFactory: {rate:8.0f} scans/s  {us:7.1f} µs/scan")
        clock = SimClock()
        m = SimulatedMatrix(v, clock=clock)
        m.set_occupied(start, 0.0, bounce=False)
        with MatrixScanner(v, pin_factory=m.pin_factory(), clock=clock, sleep=clock.sleep,
                           expected_start=start) as s:
            rate, us = timed(s, clock, n)
        print(f"matrix scan {v.size}x{v.size} ({v.squares} squares), simulated matrix:  {rate:8.0f} scans/s  {us:7.1f} µs/scan")
        timeline, occ, t = [(0.0, start)], set(start), 1.0
        for sq in sorted(start)[:20]:
            occ.discard(sq)
            timeline.append((t, frozenset(occ)))
            t += 0.5
        t0 = time.perf_counter()
        run = run_matrix_session(v, timeline)
        dt = time.perf_counter() - t0
        print(f"matrix_session {v.name}: {t:.1f} s of board time, {run.scans} scans, {dt * 1000:.0f} ms")


if __name__ == "__main__":
    main()
