"""Cost of one full matrix scan: backend calls counted, Pi scan rates estimated, mock timings measured.

Prints, per board (no assertion):

1. backend calls per full scan (and per diode check): lgpio group calls (``sensors.lines.LgpioLines``,
   counted on the simulated lgpio module) against gpiozero pins through gpiozero's lgpio pin factory
   (operations counted on ``GpiozeroLines`` and converted with ``LGPIO_CALLS_PER_OP``, read off
   gpiozero 2.0's ``pins/lgpio.py``);
2. the scanner's own Python time per scan on this machine (a null lgpio that answers at once);
3. an estimate of a Pi Zero 2 W's and a Pi 4's scan time and rate:
   calls x per-call cost + rows x the real settle wait + Python time x CPU factor.

Assumptions (change them with the options; the figures are estimates, not measurements on a Pi):

- per-call cost of one lgpio call (Python -> C -> ioctl on /dev/gpiochip): Pi Zero 2 W 8 us, Pi 4 3 us.
  Source: the Go gpiod library's published benchmarks (github.com/warthog618/gpiod README) measured one
  ioctl line read at 5.7-7.2 us and a line set at 6.6-6.8 us on a Pi Zero W (ARM1176, 1 GHz); the
  Zero 2 W's Cortex-A53 and the Pi 4's Cortex-A72 at 1.5 GHz are faster per call, and Python's call
  into lgpio's C module adds a few microseconds: 8 us and 3 us are kept on the safe side.
- the settle wait: ``time.sleep(50 us)`` sleeps about 50 us plus Linux's default timer slack of 50 us
  for ordinary threads (prctl(2), PR_SET_TIMERSLACK): 100 us counted per row (and per column in a check).
- Python speed: the scanner's bookkeeping measured here, times 10 (Zero 2 W) or 4 (Pi 4) for a
  typical x86-64 desktop core.

    python bench/bench_matrix_scan.py [--n 2000] [--zero2w-call-us 8] [--pi4-call-us 3]
"""

from __future__ import annotations

import argparse
import time

from gpiozero.pins.mock import MockFactory

from rig.variants import get_variant
from sensors.lines import GpiozeroLines, LgpioLines
from sensors.matrix import MatrixScanner
from sensors.simmatrix import SimClock, SimulatedMatrix
from sensors.simulation import run_matrix_session

PIS = {"Pi Zero 2 W": ("zero2w", 10.0), "Pi 4": ("pi4", 4.0)}


class NullLgpio:
    """An lgpio that answers at once: every column high (nothing closed)."""

    SET_OPEN_DRAIN, SET_PULL_UP = 8, 32

    def gpiochip_open(self, chip):
        return 1

    def gpiochip_close(self, h):
        return 0

    def group_claim_output(self, h, gpios, levels, flags):
        return 0

    def group_claim_input(self, h, gpios, flags):
        return 0

    def group_free(self, h, gpio):
        return 0

    def group_write(self, h, gpio, bits, mask):
        return 0

    def group_read(self, h, gpio):
        return 8, 0xFF


def calls_per_scan(v, start):
    """(lgpio group calls, gpiozero-through-lgpio calls) per scan and per diode check."""
    out = {}
    for backend in ("lgpio", "gpiozero"):
        clock = SimClock()
        m = SimulatedMatrix(v, clock=clock)
        m.set_occupied(start, 0.0, bounce=False)
        lines = LgpioLines(m.pinmap, lg=m.lgpio()) if backend == "lgpio" else GpiozeroLines(m.pinmap, m.pin_factory())
        with MatrixScanner(v, lines=lines, clock=clock, sleep=clock.sleep) as s:
            def count(lines=lines, backend=backend):
                return lines.calls if backend == "lgpio" else lines.lgpio_calls
            c0 = count()
            s.read_raw()
            c1 = count()
            s.diode_readings()
            out[backend] = (c1 - c0, count() - c1)
    return out


def python_us_per_scan(v, n):
    with MatrixScanner(v, lines=LgpioLines(get_default_pinmap(v), lg=NullLgpio(), chip=0), settle_s=0.0,
                       diode_check=False) as s:
        t = time.perf_counter()
        for _ in range(n):
            s.scan()
        return (time.perf_counter() - t) / n * 1e6


def get_default_pinmap(v):
    from sensors.pinmap import default_pinmap

    return default_pinmap(v.size)


def mock_timing(v, start, n):
    with MatrixScanner(v, pin_factory=MockFactory(), settle_s=0.0) as s:
        t = time.perf_counter()
        for _ in range(n):
            s.scan()
        plain = (time.perf_counter() - t) / n * 1e6
    clock = SimClock()
    m = SimulatedMatrix(v, clock=clock)
    m.set_occupied(start, 0.0, bounce=False)
    with MatrixScanner(v, pin_factory=m.pin_factory(), clock=clock, sleep=clock.sleep, expected_start=start) as s:
        t = time.perf_counter()
        for _ in range(n):
            s.scan()
            clock.sleep(1 / s.scan_hz)
        sim = (time.perf_counter() - t) / n * 1e6
    return plain, sim


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000, help="scans per timing")
    ap.add_argument("--zero2w-call-us", type=float, default=8.0)
    ap.add_argument("--pi4-call-us", type=float, default=3.0)
    ap.add_argument("--settle-us", type=float, default=50.0)
    ap.add_argument("--slack-us", type=float, default=50.0, help="timer slack added to every sleep")
    args = ap.parse_args(argv)
    call_us = {"zero2w": args.zero2w_call_us, "pi4": args.pi4_call_us}
    wait_us = args.settle_us + args.slack_us
    for name in ("portuguese", "international"):
        v = get_variant(name)
        start = frozenset(v.white_start) | frozenset(v.black_start)
        calls = calls_per_scan(v, start)
        py = python_us_per_scan(v, args.n)
        print(f"{v.size}x{v.size} ({v.squares} squares, {v.size} rows x {v.half} columns)")
        for backend, (scan, check) in calls.items():
            label = "lgpio group calls" if backend == "lgpio" else "gpiozero pins over lgpio"
            print(f"  {label:26s}: {scan:4d} backend calls per scan, {check:3d} per diode check")
        print(f"  scanner Python time here  : {py:7.1f} us/scan (null lgpio)")
        for pi, (key, factor) in PIS.items():
            for backend, (scan, _) in calls.items():
                us = scan * call_us[key] + v.size * wait_us + py * factor
                print(f"  {pi:12s} {backend:8s}: ~{us:7.0f} us/scan = ~{1e6 / us:6.0f} scans/s "
                      f"({scan} calls x {call_us[key]:g} us + {v.size} x {wait_us:g} us settle "
                      f"+ {py:.0f} us x {factor:g})")
        plain, sim = mock_timing(v, start, args.n // 4)
        print(f"  mock pins here: plain MockFactory {plain:7.1f} us/scan, simulated matrix with RC lines "
              f"{sim:7.1f} us/scan (the simulation's cost)")
        timeline, occ, t = [(0.0, start)], set(start), 1.0
        for sq in sorted(start)[:20]:
            occ.discard(sq)
            timeline.append((t, frozenset(occ)))
            t += 0.5
        t0 = time.perf_counter()
        run = run_matrix_session(v, timeline)
        print(f"  matrix_session: {t:.1f} s of board time, {run.scans} scans, "
              f"{(time.perf_counter() - t0) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
