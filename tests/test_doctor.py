"""rig doctor (recordings and live) and rig record."""

import json
import os
import signal
import subprocess
import sys
import time

from rig.cli import main
from rig.rulesets import FPD_2026
from rig.session import Frame, Header, read_session
from rig.variants import PORTUGUESE, get_variant
from sensors.doctor import analyse_recording, check_live
from sensors.matrix import MatrixScanner
from sensors.prompts import CellWaiter, ScriptedHands
from sensors.simmatrix import SimClock, SimulatedMatrix, SwitchModel
from sensors.simulation import run_matrix_session

P = get_variant("portuguese")
PS = frozenset(P.white_start) | frozenset(P.black_start)
HDR = Header(PORTUGUESE, FPD_2026)
GAME = [(0.0, PS), (1.0, PS - {9}), (1.3, PS - {9} | {13}), (2.0, PS - {9, 22} | {13}),
        (2.3, PS - {9, 22} | {13, 18}), (3.0, PS - {9, 22} | {18}), (3.3, PS - {9} | {18}), (3.8, PS - {9}),
        (4.5, PS - {9, 10}), (4.8, PS - {9, 10} | {14}), (5.5, PS - {9, 10, 21} | {14}),
        (5.8, PS - {9, 10, 21} | {14, 17})]


def recording(faults, **kw):
    """What a scanner without masking would have recorded."""
    return run_matrix_session(PORTUGUESE, GAME, faults, seed=4, expected_start=None, diode_check=False, **kw).frames


def kinds(findings):
    return {(f.kind, f.square) for f in findings}


def test_clean_recording_has_no_findings():
    assert analyse_recording(HDR, recording([])) == []


def test_recording_stuck_closed_and_dead():
    assert ("stuck-closed", 16) in kinds(analyse_recording(HDR, recording(["stuck-closed:16"])))
    assert kinds(analyse_recording(HDR, recording(["dead:6"]))) == {("dead", 6)}


def test_recording_stuck_on_a_start_square_is_a_suspect():
    # 10-14 is played at 4.5 s: the lift from 10 never shows, 14 appears from nowhere
    found = [f for f in analyse_recording(HDR, recording(["stuck-closed:10"])) if f.kind == "stuck-closed"]
    assert {(f.square, f.severity) for f in found} == {(10, "suspect"), (11, "suspect")}  # 14's neighbours


def test_recording_ghosts_point_at_the_missing_diode():
    found = [f for f in analyse_recording(HDR, recording(["missing-diode:1"])) if f.kind == "missing-diode"]
    assert found and "squares" in found[0].message and " 1," in found[0].message + ","
    assert "14, 15" in found[0].message


def test_recording_chattering():
    frames = run_matrix_session(PORTUGUESE, GAME, seed=1, debounce=1, expected_start=None,
                                model=SwitchModel(slow=1.0, slow_s=0.08)).frames
    assert {k for k, _ in kinds(analyse_recording(HDR, frames))} == {"chattering"}


def test_live_walk_finds_dead_stuck_and_diode(capsys):
    clock = SimClock()
    m = SimulatedMatrix(P, faults=["dead:5", "stuck-closed:20", "missing-diode:30"], clock=clock)
    with MatrixScanner(P, pin_factory=m.pin_factory(), clock=clock, sleep=clock.sleep) as s:
        found = check_live(s, CellWaiter(s, timeout=1.0), ScriptedHands(m), [1, 5, 9, 30])
    assert {("dead", 5), ("stuck-closed", 20), ("missing-diode", 30)} <= kinds(found)
    assert ("dead", 1) not in kinds(found) and ("dead", 9) not in kinds(found)


def test_cli_record_simulated_then_doctor(tmp_path, capsys):
    session, health = tmp_path / "s.jsonl", tmp_path / "h.jsonl"
    assert main(["record", "--simulate", "--raw", "-o", str(session), "--health", str(health),
                 "--fault", "stuck-closed:16"]) == 0
    header, events = read_session(str(session))
    frames = [e for e in events if isinstance(e, Frame)]
    assert header.variant.name == "portuguese" and frames[0].occupied == PS and len(frames) == 5
    assert all(16 not in f.occupied and f.raw[3][0] == "1" for f in frames)
    (ev,) = [json.loads(line) for line in health.read_text().splitlines()]
    assert ev["kind"] == "stuck-closed" and ev["square"] == 16 and ev["masked"]
    assert main(["doctor", "--recording", str(session)]) == 1
    assert "stuck-closed on square 16" in capsys.readouterr().out


def test_record_ends_cleanly_on_sigterm(tmp_path):
    # a live recording (plain MockFactory pins, real time) stopped by SIGTERM leaves a complete file
    out = tmp_path / "live.jsonl"
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock")
    proc = subprocess.Popen([sys.executable, "-m", "rig.cli", "record", "-o", str(out), "--no-start-check"],
                            env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 2):
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0
    assert "1 frames" in proc.stderr.read()
    header, events = read_session(str(out))
    assert header.extra["source"] == "matrix" and events[0].occupied == frozenset()
