"""The calibration wizard on a scripted user closing cells on the simulated matrix."""

import pytest

from calibration.matrix import calibration_squares, run_wizard
from rig.cli import main
from rig.variants import INTERNATIONAL, PORTUGUESE, get_variant
from sensors.cellmap import structured_map
from sensors.config import load_matrix_config
from sensors.errors import CalibrationError
from sensors.matrix import MatrixScanner
from sensors.pinmap import default_pinmap
from sensors.prompts import CellWaiter, ScriptedHands
from sensors.simmatrix import SimClock, SimulatedMatrix


def calibrate(variant, wiring=None, faults=(), skip=frozenset()):
    v = get_variant(variant)
    clock = SimClock()
    m = SimulatedMatrix(v, wiring=wiring, faults=faults, clock=clock)
    hands = ScriptedHands(m, skip=skip)
    with MatrixScanner(v, pin_factory=m.pin_factory(), clock=clock, sleep=clock.sleep) as s:
        return run_wizard(v, CellWaiter(s, timeout=2.0), hands, default_pinmap(v.size)), hands


CASES = [
    ("portuguese", "ranks", None, None, "standard"),
    ("brazilian", "ranks", list(range(7, -1, -1)), [3, 2, 1, 0], "rotated-180"),
    ("portuguese", "ranks", None, [3, 2, 1, 0], "mirrored"),
    ("international", "files", None, [4, 3, 2, 1, 0], "rotated-90cw"),
    ("brazilian", "files", list(range(7, -1, -1)), None, "rotated-90ccw"),
]


@pytest.mark.parametrize("variant,axis,rows,cols,orientation", CASES)
def test_learns_map_and_orientation(variant, axis, rows, cols, orientation):
    wiring = structured_map(get_variant(variant), axis, rows, cols)
    result, hands = calibrate(variant, wiring)
    assert result.cellmap == wiring and result.axis == axis and result.orientation == orientation
    assert not result.crossed
    asked = [s.square for s in hands.steps if s.kind == "place"]
    assert asked == calibration_squares(get_variant(variant))
    assert len(asked) == get_variant(variant).size + 1


def test_crossed_rows_and_columns_are_found_and_compensated():
    wiring = structured_map(PORTUGUESE, "ranks", [0, 1, 3, 2, 4, 5, 6, 7], [1, 0, 2, 3])
    result, _ = calibrate("portuguese", wiring)
    assert result.cellmap == wiring and result.orientation == "standard"
    assert len(result.crossed) == 2
    assert "rows 2 and 3 are crossed (GPIO12 pin 32 <-> GPIO13 pin 33)" in result.crossed[0]
    assert "columns 0 and 1 are crossed (GPIO17 pin 11 <-> GPIO27 pin 13)" in result.crossed[1]


@pytest.mark.parametrize("fault,message", [("broken-row:3", "row wire 3 (GPIO13, header pin 33) is missing"),
                                            ("broken-col:2", "column wire 2 (GPIO22, header pin 15) is missing"),
                                            ("dead:14", "dead switch on square(s) 14")])
def test_missing_wires_and_dead_switches_fail_with_their_name(fault, message):
    with pytest.raises(CalibrationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        calibrate("portuguese", faults=[fault])


def test_cli_writes_the_config_rig_run_reads(tmp_path, capsys):
    out = tmp_path / "matrix.toml"
    assert main(["calibrate", "matrix", "--simulate", "--variant", "international",
                 "--sim-orientation", "rotated-180", "-o", str(out)]) == 0
    cfg = load_matrix_config(out)
    assert cfg.variant.name == "international" and cfg.orientation == "rotated-180"
    assert cfg.cellmap == structured_map(INTERNATIONAL, "ranks", range(9, -1, -1), range(4, -1, -1))
    assert main(["calibrate", "matrix", "--simulate", "--fault", "broken-col:1", "-o", str(tmp_path / "x")]) == 1
    assert "column wire 1" in capsys.readouterr().err
