"""``rig run``'s side of failing switches: the scanner's health findings go into the session journal as
``health`` lines fed to the engine (so ``rig transcribe`` of the journal reads the same), and the live screen
names the square the arbiter should check."""

from __future__ import annotations

import io

import pytest

from rig.live.journal import Journal, RunPaths, recover
from rig.live.loop import LiveLoop
from rig.live.screen import RunPlainLog, RunView
from rig.reconstruct import Reconstructor
from rig.rulesets import default_ruleset_for
from rig.session import Frame, HealthLine, Header
from rig.variants import get_variant
from sensors.health import HealthEvent


def _loop(tmp_path, variant: str, clock: bool):
    paths = RunPaths(str(tmp_path / "g.jsonl"))
    header = Header(get_variant(variant), default_ruleset_for(get_variant(variant)), extra={"clock": clock})
    engine = Reconstructor(header)
    journal = Journal.create(paths.session, header)
    stream = io.StringIO()
    view = RunView("t", engine.board)
    loop = LiveLoop(engine, journal, paths, [], lambda: 0.0, view=view, screen=RunPlainLog(stream))
    return loop, paths, stream


@pytest.mark.parametrize("clock", [True, False], ids=["clock", "no-clock"])
@pytest.mark.parametrize("variant", ["portuguese", "brazilian", "international"])
def test_health_finding_is_journaled_fed_and_shown(tmp_path, variant, clock):
    v = get_variant(variant)
    start = frozenset(v.white_start) | frozenset(v.black_start)
    empty = min(set(range(1, v.squares + 1)) - start)
    loop, paths, stream = _loop(tmp_path, variant, clock)
    loop.append(Frame(0.1, start))
    loop._health(HealthEvent(0.1, "stuck-closed", empty, (0, 0), f"square {empty}: closed at the start",
                             masked=True))
    loop.engine.finish()
    assert [(f.square, f.kind) for f in loop.engine.sensor_faults] == [(empty, "stuck-closed")]
    events = recover(paths.session).events
    lines = [e for e in events if isinstance(e, HealthLine)]
    assert [(h.kind, h.square, h.masked) for h in lines] == [("stuck-closed", empty, True)]
    assert lines[0].extra["cell"] == [0, 0]
    # the journal read back gives the same finding
    again = Reconstructor(recover(paths.session).header)
    for ev in events:
        again.feed(ev)
    again.finish()
    assert again.report()["sensor_faults"] == loop.engine.report()["sensor_faults"]
    name = v.square_name(empty)
    assert any(w.startswith(f"check square {name}: switch stuck-closed") for w in loop.view.warnings())
    assert f"check square {name}" in stream.getvalue()


@pytest.mark.parametrize("clock", [True, False], ids=["clock", "no-clock"])
@pytest.mark.parametrize("variant", ["portuguese", "international"])
def test_missing_diode_finding_is_journaled_with_its_wiring_and_shown(tmp_path, variant, clock):
    from sensors.cellmap import default_cellmap
    from sensors.health import HealthMonitor

    v = get_variant(variant)
    start = frozenset(v.white_start) | frozenset(v.black_start)
    loop, paths, stream = _loop(tmp_path, variant, clock)
    loop.append(Frame(0.1, start))
    cmap = default_cellmap(v)
    square = min(start)
    (ev,) = HealthMonitor(cmap).add_backward(0.2, {cmap.cell(square): "missing-diode"})
    loop._health(ev)
    loop.engine.finish()
    assert [(f.square, f.kind) for f in loop.engine.sensor_faults] == [(square, "ghost")]
    lines = [e for e in recover(paths.session).events if isinstance(e, HealthLine)]
    assert lines[0].extra["wiring"] == cmap.to_lists()          # the engine's rectangles come from it
    assert loop.engine._wiring is not None and loop.engine._wiring.cells == cmap.cells
    name = v.square_name(square)
    assert any(w.startswith(f"check square {name}: its diode is missing") for w in loop.view.warnings())
