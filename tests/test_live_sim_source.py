"""The simulated matrix's source (rig/live/sources.py ``SimMatrixSource``): it scans busy stretches on the scan
grid and jumps over quiet ones to the matrix's next change, so it gives exactly the frames of a scanner that
reads every grid point, with a fraction of the scans, and its horizon never runs ahead of the session clock."""

from __future__ import annotations

import threading
import time

from rig.live.sources import Inbox, SessionClock, SimMatrixSource
from rig.session import Frame
from sensors.matrix import MatrixScanner
from sensors.simmatrix import SimClock, SimulatedMatrix
from rig.variants import INTERNATIONAL

START = frozenset(range(1, 21)) | frozenset(range(31, 51))
#: (session time, the squares occupied from then on): a man lifted and put down, then a second move
PLAN = [(0.30, START - {32}), (0.55, (START - {32}) | {28}), (1.10, (START - {32, 19}) | {28}),
        (1.40, (START - {32, 19}) | {28, 23})]


def world(seed: int = 3):
    sim_clock = SimClock(0.0)
    matrix = SimulatedMatrix(INTERNATIONAL, clock=sim_clock, seed=seed)
    matrix.set_occupied(START, -1.0, bounce=False)
    for t, squares in PLAN:
        matrix.set_occupied(squares, t)
    scanner = MatrixScanner(INTERNATIONAL, pin_factory=matrix.pin_factory(), clock=sim_clock,
                            sleep=sim_clock.sleep, t0=0.0, expected_start=START)
    return matrix, sim_clock, scanner


def every_grid_point(until: float) -> list[tuple[float, frozenset[int]]]:
    """The reference: the same scanner reading every point of the scan grid."""
    _, sim_clock, scanner = world()
    frames, k, period = [], 0, 1.0 / scanner.scan_hz
    while k * period <= until:
        sim_clock.now = k * period
        frames += [(round(e.t, 6), e.occupied) for e in scanner.scan() if isinstance(e, Frame)]
        k += 1
    return frames


def test_quiet_stretches_are_skipped_and_the_frames_are_those_of_every_grid_point():
    matrix, sim_clock, scanner = world()
    clock = SessionClock(0.0, speed=1.0)
    source = SimMatrixSource(scanner, clock, matrix, sim_clock, 0.0)
    inbox = Inbox()
    ahead: list[float] = []
    stop = threading.Event()

    def watch() -> None:                     # the loop's view: the horizon never passes the session clock
        while not stop.is_set():
            h, now = source.horizon(), clock()
            if h > now + 1e-9:
                ahead.append(h - now)
            time.sleep(0.001)

    watcher = threading.Thread(target=watch, daemon=True)
    source.start(inbox)
    watcher.start()
    while clock() < 1.6:
        time.sleep(0.01)
    stop.set()
    source.close()
    watcher.join()
    until = sim_clock.now
    got = [(round(i.payload.t, 6), i.payload.occupied) for i in inbox.get(0.0) if isinstance(i.payload, Frame)]
    assert got == every_grid_point(until)
    assert [occ for _, occ in got][-1] == PLAN[-1][1]
    grid_points = until * scanner.scan_hz
    assert source.scans < grid_points / 3, (source.scans, grid_points)     # quiet stretches skipped
    assert ahead == []
    assert source.horizon() == float("inf")                              # closed: it has said everything
