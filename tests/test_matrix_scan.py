"""The scanner on gpiozero MockFactory pins driven like a real matrix."""

import pytest
from gpiozero.pins.mock import MockFactory

from rig.session import Frame
from rig.variants import INTERNATIONAL, get_variant
from sensors.circuit import columns_low, indeterminate_cells, rows_low
from sensors.errors import MatrixConfigError
from sensors.matrix import MatrixScanner
from sensors.pinmap import DEFAULT_PINMAP_8x8, PinMap
from sensors.simmatrix import SimClock, SimulatedMatrix, SwitchModel

V = get_variant("portuguese")
START = frozenset(V.white_start) | frozenset(V.black_start)


def rig(faults=(), model=None, seed=0, **kw):
    clock = SimClock()
    m = SimulatedMatrix(V, faults=faults, model=model, seed=seed, clock=clock)
    s = MatrixScanner(V, pin_factory=m.pin_factory(), clock=clock, sleep=clock.sleep, t0=0.0, **kw)
    return clock, m, s


def frames(scanner, seconds):
    return [e for e in scanner.run(duration=seconds) if isinstance(e, Frame)]


def test_sneak_path_needs_the_opposite_corner_without_diode():
    closed = {(1, 1), (1, 2), (2, 1)}
    assert columns_low(closed, set(), 2) == {1}
    assert columns_low(closed, {(1, 1)}, 2) == {1, 2}          # ghost at (2, 2)
    for other in [(1, 2), (2, 1), (2, 2)]:
        assert columns_low(closed, {other}, 2) == {1}           # no ghost: those steps run forwards
    assert rows_low(closed, {(1, 1)}, 1) == {1} and rows_low(closed, set(), 1) == set()
    assert indeterminate_cells(closed | {(2, 2)}, {(1, 1)}) == {(2, 2)}


def test_mock_pins_read_the_matrix_one_row_at_a_time():
    clock, m, s = rig()
    m.set_occupied({1, 6, 32}, 0.0, bounce=False)
    with s:
        raw = s.read_raw()
        cm = s.cellmap
        assert {(i, j) for i, mask in enumerate(raw) for j in range(4) if mask >> j & 1} == cm.cells_of({1, 6, 32})
        # only the row being read is driven: every row pin is an input again after the scan
        assert all(p.function == "input" and p.pull == "up" for p in s.lines.pins[0])
        assert "portuguese 8x4" in repr(s)
    assert s.closed and "closed" in repr(s)


def test_frames_only_on_change_with_monotonic_times():
    clock, m, s = rig()
    m.set_occupied(START, 0.0, bounce=False)
    m.set_occupied(START - {9}, 0.5)
    m.set_occupied(START - {9} | {13}, 0.8)
    with s:
        out = frames(s, 1.5)
    assert [f.occupied for f in out] == [START, START - {9}, START - {9} | {13}]
    assert all(a.t < b.t for a, b in zip(out, out[1:]))
    assert 0.5 <= out[1].t < 0.5 + 0.03 and 0.8 <= out[2].t < 0.8 + 0.03


SEQ = [START - {10}, START - {10} | {14}, START - {10, 22} | {14}, START - {10, 22} | {14, 18}]


def play(model, seed, debounce):
    clock, m, s = rig(model=model, seed=seed, debounce=debounce)
    m.set_occupied(START, 0.0, bounce=False)
    for k, occ in enumerate(SEQ):
        m.set_occupied(occ, 0.5 + 0.4 * k)
    with s:
        return frames(s, 2.5)


@pytest.mark.parametrize("seed", range(8))
def test_contact_bounce_is_debounced(seed):
    out = play(SwitchModel(bounce_max=8), seed, debounce=3)
    assert [f.occupied for f in out] == [START] + SEQ


@pytest.mark.parametrize("seed", range(4))
def test_slow_magnet_needs_a_debounce_longer_than_its_chatter(seed):
    slow = SwitchModel(slow=1.0, slow_s=0.08)
    assert [f.occupied for f in play(slow, seed, debounce=18)] == [START] + SEQ   # 18 scans = 90 ms
    short = play(slow, seed, debounce=1)
    assert len(short) > len(SEQ) + 1                      # the chatter leaks through a 1-scan debounce
    assert short[-1].occupied == SEQ[-1]
    assert all(a.occupied ^ b.occupied <= {10, 14, 22, 18} for a, b in zip(short, short[1:]))


def test_ghost_from_missing_diode_is_held_out_of_frames():
    # square 1 (cell 0,3) has no diode; 9-13 closes (3,3): (3,0..2) = 16, 15, 14 read closed through 1
    clock, m, s = rig(faults=["missing-diode:1"], raw=True)
    m.set_occupied(START, 0.0, bounce=False)
    m.set_occupied(START - {9}, 0.5)
    m.set_occupied(START - {9} | {13}, 0.8)
    with s:
        out = frames(s, 1.2)
        kinds = [(h.kind, h.square) for h in s.health.events]
    assert [f.occupied for f in out] == [START, START - {9}, START - {9} | {13}]
    assert out[-1].raw[3] == "1111"                     # the switches say 13..16 ...
    assert ("missing-diode", 1) in kinds                  # ... the diode check found the culprit
    assert {sq for k, sq in kinds if k == "ghost-held"} == {14, 15, 16}


def test_ghost_without_the_diode_check_reaches_the_frames():
    clock, m, s = rig(faults=["missing-diode:1"], diode_check=False)
    m.set_occupied(START, 0.0, bounce=False)
    m.set_occupied(START - {9} | {13}, 0.5, bounce=False)
    with s:
        out = frames(s, 1.0)
    assert out[-1].occupied == START - {9} | {13, 14, 15, 16}


def test_plain_mockfactory_pins_work_too():
    factory = MockFactory()
    with MatrixScanner(V, pin_factory=factory, debounce=1) as s:
        assert s.read_raw() == [0] * 8                    # pull-ups high: nothing closed
        assert s.scan()[0].occupied == frozenset()


def test_bad_config_is_a_clear_error():
    with pytest.raises(MatrixConfigError, match="twice"):
        PinMap(rows=(5, 6, 5), cols=(17,))
    with pytest.raises(MatrixConfigError, match="not on the 40-pin header"):
        PinMap(rows=(40,), cols=(17,))
    with pytest.raises(MatrixConfigError, match="needs 10 row"):
        MatrixScanner(INTERNATIONAL, DEFAULT_PINMAP_8x8, pin_factory=MockFactory())
    with pytest.raises(MatrixConfigError, match="debounce"):
        MatrixScanner(V, pin_factory=MockFactory(), debounce=0)
