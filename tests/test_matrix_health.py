"""Live health checks of the scanner and the matrix config file."""

import pytest

from rig.variants import BRAZILIAN, PORTUGUESE, get_variant
from sensors.cellmap import CellMap, default_cellmap
from sensors.config import default_matrix_config, load_matrix_config, save_matrix_config
from sensors.errors import MatrixConfigError
from sensors.health import HealthMonitor
from sensors.simulation import run_matrix_session

P = get_variant("portuguese")
PS = frozenset(P.white_start) | frozenset(P.black_start)


def test_masked_square_is_released_when_the_switch_opens():
    # a piece left on 16 before the start (not a stuck switch): masked, then recovered when lifted
    tl = [(0.0, PS | {16}), (1.0, PS), (2.0, PS | {16})]
    run = run_matrix_session(PORTUGUESE, tl, seed=0)
    assert [h.kind for h in run.health] == ["stuck-closed", "recovered"]
    assert [f.occupied for f in run.frames] == [PS, PS | {16}]


def test_switch_closed_after_every_other_piece_is_lifted():
    tl = [(0.0, PS)] + [(1.0 + 0.1 * k, PS - set(sorted(PS)[: k + 1])) for k in range(len(PS))]
    run = run_matrix_session(PORTUGUESE, tl, ["stuck-closed:7"], seed=0)
    stuck = [h for h in run.health if h.kind == "stuck-closed"]
    assert [h.square for h in stuck] == [7] and not stuck[0].masked


def test_chattering_switch_is_reported():
    cm = default_cellmap(P)
    mon = HealthMonitor(cm, chatter_limit=5, chatter_window=1.0)
    events = []
    for k in range(6):
        events += mon.glitch(0.1 * k, [(2, 1)])
    assert [(e.kind, e.square) for e in events] == [("chattering", cm.square((2, 1)))]


def test_config_round_trip_and_errors(tmp_path):
    cfg = default_matrix_config(BRAZILIAN)
    path = tmp_path / "m.toml"
    save_matrix_config(cfg, path)
    assert load_matrix_config(path) == cfg
    text = path.read_text().replace("rows = [\n    5,", "rows = [\n    6,")
    path.write_text(text)
    with pytest.raises(MatrixConfigError, match="GPIO used twice"):
        load_matrix_config(path)
    with pytest.raises(MatrixConfigError, match="no such matrix config"):
        load_matrix_config(tmp_path / "none.toml")
    cells = [list(r) for r in cfg.cellmap.cells]
    cells[0][0] = cells[0][1]
    with pytest.raises(MatrixConfigError, match="missing: \\[29\\]; twice: \\[30\\]"):
        CellMap(BRAZILIAN, cells)
