"""Settle time, released rows and the two line backends, on simulated lines with an RC model."""

import pytest

from rig.session import Frame
from rig.variants import PORTUGUESE, get_variant
from sensors.errors import MatrixConfigError
from sensors.lines import GpiozeroLines, LgpioLines
from sensors.matrix import DEFAULT_SETTLE_S, MatrixScanner
from sensors.rcmodel import LineModel
from sensors.simmatrix import SimClock, SimulatedMatrix

V = get_variant("portuguese")
START = frozenset(V.white_start) | frozenset(V.black_start)


def board(lines=LineModel(), **kw):
    clock = SimClock()
    return clock, SimulatedMatrix(V, clock=clock, lines=lines, **kw)


def scanner(clock, m, backend="gpiozero", **kw):
    lines = LgpioLines(m.pinmap, lg=m.lgpio()) if backend == "lgpio" else None
    factory = m.pin_factory() if lines is None else None
    return MatrixScanner(V, pin_factory=factory, lines=lines, clock=clock, sleep=clock.sleep, t0=0.0, **kw)


def cells(raw):
    return {(i, j) for i, m in enumerate(raw) for j in range(4) if m >> j & 1}


@pytest.mark.parametrize("backend,lines", [("lgpio", LineModel()),                   # 300 pF, group calls
                                           ("gpiozero", LineModel(c_line=1e-9))])   # slower calls, longer runs
def test_a_scanner_without_settle_time_misreads_the_row_just_released(backend, lines):
    clock, m = board(lines)
    m.set_occupied({1}, 0.0, bounce=False)  # square 1 is cell (0, 3): row 0 holds column 3 low
    with scanner(clock, m, backend, settle_s=0.0) as hasty:
        assert cells(hasty.read_raw()) >= {(0, 3), (1, 3)}  # row 1 read while column 3 still climbs
    with scanner(clock, m, backend) as patient:
        assert patient.settle_s == DEFAULT_SETTLE_S
        assert cells(patient.read_raw()) == {(0, 3)}


def test_the_misreading_reaches_the_frames_without_settle_time():
    def game(settle_s, lines=LineModel()):
        clock, m = board(lines)
        m.set_occupied(START, 0.0, bounce=False)
        m.set_occupied(START - {9}, 0.3)
        m.set_occupied(START - {9} | {13}, 0.6)
        with scanner(clock, m, "lgpio", settle_s=settle_s) as s:
            return [f.occupied for f in s.run(duration=1.0) if isinstance(f, Frame)]

    want = [START, START - {9}, START - {9} | {13}]
    assert game(DEFAULT_SETTLE_S) == want
    hasty = game(0.0)
    assert hasty != want and any(f - START for f in hasty)  # squares nobody put a piece on
    assert game(0.0, lines=None) == want                   # instant lines: the RC model is what matters


def test_settle_time_is_measured_in_virtual_time():
    clock, m = board()
    with scanner(clock, m, settle_s=200e-6) as s:
        t = clock()
        s.read_raw()
        assert clock() - t >= 8 * 200e-6  # one wait per row


def test_released_rows_are_pulled_up_never_floating():
    clock, m = board()
    with scanner(clock, m) as s:
        s.read_raw()
        rows, cols = s.lines.pins
        assert all(p.function == "input" and p.pull == "up" for p in rows + cols)
        s.diode_check()
        assert all(p.function == "input" and p.pull == "up" for p in rows + cols)
    clock, m = board()
    with scanner(clock, m, "lgpio") as s:
        s.read_raw()
        lg = s.lines.lg
        rows_group = lg._groups[m.pinmap.rows[0]]
        assert rows_group[1] == "out" and rows_group[2] & lg.SET_OPEN_DRAIN and rows_group[2] & lg.SET_PULL_UP
        assert lg._levels[m.pinmap.rows[0]] == 0xFF  # every row released after the scan


def test_group_calls_read_what_the_pins_read_with_fewer_calls():
    clock, m = board(faults=["missing-diode:1"])
    m.set_occupied(START - {9} | {13}, 0.0, bounce=False)
    with scanner(clock, m) as a, scanner(clock, m, "lgpio") as b:
        assert a.read_raw() == b.read_raw()
        for _ in range(3):
            a.scan(), b.scan()
        assert a.diode_check() == b.diode_check() == {(0, 3): "missing-diode"}
        for s in (a, b):
            s.lines.calls = 0
            s.read_raw()
        assert b.lines.calls == 2 * 8 + 1                    # a write and a read per row, one release
        assert isinstance(a.lines, GpiozeroLines) and a.lines.calls == 8 * (2 + 4) - 1 + 1
        assert a.lines.lgpio_calls > 4 * b.lines.calls


def test_lgpio_lines_release_every_gpio_on_close():
    clock, m = board()
    lg = m.lgpio()
    with MatrixScanner(V, lines=LgpioLines(m.pinmap, lg=lg), clock=clock, sleep=clock.sleep) as s:
        s.scan()
        s.diode_check()
        assert "lgpio" in repr(s) and "settle=50us" in repr(s)
    assert not lg._groups and not lg._open and "closed" in repr(s)
    with pytest.raises(MatrixConfigError, match="settle"):
        MatrixScanner(V, pin_factory=m.pin_factory(), settle_s=1.0)


def test_settle_time_is_in_the_config_file(tmp_path):
    from sensors.config import default_matrix_config, load_matrix_config, save_matrix_config

    cfg = default_matrix_config(PORTUGUESE)
    assert cfg.settle_us == 50.0
    path = tmp_path / "m.toml"
    save_matrix_config(cfg, path)
    text = path.read_text().replace("settle_us = 50.0", "settle_us = 120.0")
    path.write_text(text)
    assert load_matrix_config(path).settle_us == 120.0
    path.write_text(text.replace("settle_us = 120.0", "settle_us = -1"))
    with pytest.raises(MatrixConfigError, match="settle_us"):
        load_matrix_config(path)


def test_open_lines_prefers_lgpio_groups_on_a_pi(monkeypatch):
    import sys

    from sensors.lines import open_lines

    clock, m = board()
    fake = m.lgpio()
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setitem(sys.modules, "lgpio", fake)
    lines = open_lines(m.pinmap)
    assert isinstance(lines, LgpioLines) and lines.handle is not None
    lines.close()
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")              # asked for another pin factory
    assert isinstance(open_lines(m.pinmap, m.pin_factory()), GpiozeroLines)
    fake.label = "not-a-pi"
    with pytest.raises(MatrixConfigError, match="no Raspberry Pi GPIO chip"):
        open_lines(m.pinmap, backend="lgpio")
    with pytest.raises(MatrixConfigError, match="unknown pin backend"):
        open_lines(m.pinmap, backend="pigpio")
    monkeypatch.setitem(sys.modules, "lgpio", None)                  # no lgpio installed
    with pytest.raises(MatrixConfigError, match="needs lgpio"):
        open_lines(m.pinmap, backend="lgpio")


def test_lgpio_lines_work_on_a_kernel_without_bias_on_outputs():
    from sensors.simlgpio import SimLgpio

    clock, m = board()
    m.set_occupied({1, 6}, 0.0, bounce=False)
    lg = SimLgpio(m, output_bias=False)
    with MatrixScanner(V, lines=LgpioLines(m.pinmap, lg=lg), clock=clock, sleep=clock.sleep) as s:
        assert s.lines.output_bias is False
        assert cells(s.read_raw()) == m.wiring.cells_of({1, 6})
        assert not lg._groups[m.pinmap.rows[0]][2] & lg.SET_PULL_UP
