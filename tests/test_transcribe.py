"""``rig transcribe``: PDN on stdout, the JSON report, --explain, and malformed sessions (exit 2 naming
the line, never a traceback)."""

from __future__ import annotations

import json

import pytest

from rig.cli import main
from rig.session import write_session
from tests.session_builder import SessionBuilder


@pytest.fixture
def session_file(tmp_path):
    b = SessionBuilder("portuguese", tags={"White": "Ana", "Black": "Rui"})
    b.move("11-15").press("white", white_ms=599_000, black_ms=600_000)
    b.move("22-18").bounce(5).press("black", white_ms=599_000, black_ms=598_000)
    b.move("15-19").press("white")
    path = tmp_path / "game.jsonl"
    with open(path, "w") as fh:
        write_session(fh, *b.session())
    return path


def test_pdn_and_report(session_file, tmp_path, capsys):
    report = tmp_path / "r.json"
    assert main(["transcribe", str(session_file), "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert '[White "Ana"]' in out and '[GameType "28,W,8,8,N1,1"]' in out
    assert "1. 11-15 {[%clock w0:09:59 B0:10:00]} 22-18" in out and out.rstrip().endswith("*")
    data = json.loads(report.read_text())
    assert set(data) == {"moves", "irregularities", "observations", "sensor_faults", "draw_rules", "result"}
    assert data["moves"][0] == {"number": 1, "side": "white", "move": "11-15", "t": data["moves"][0]["t"],
                                "clock_ms": 599_000}
    assert [m["move"] for m in data["moves"]] == ["11-15", "22-18", "15-19"]
    assert data["result"] == "*"


def test_explain_prints_a_timeline(session_file, capsys):
    assert main(["transcribe", "--explain", str(session_file)]) == 0
    out = capsys.readouterr().out
    assert "clock press white" in out and "MOVE 1. white 11-15" in out and "lift 11" in out
    assert "[Event" not in out
    # each frame names the switches that changed: the piece leaves 11, lands on 15
    assert "occupied: -11" in out and "occupied: +15" in out


def test_irregular_game_exits_zero(tmp_path, capsys):
    b = SessionBuilder("portuguese")
    b.move("11-15").press("white").press("black")
    path = tmp_path / "irr.jsonl"
    with open(path, "w") as fh:
        write_session(fh, *b.session())
    report = tmp_path / "r.json"
    assert main(["transcribe", str(path), "--report", str(report)]) == 0
    assert json.loads(report.read_text())["irregularities"][0]["type"] == "clock-without-move"


HEADER = '{"type": "header", "version": 1, "variant": "portuguese", "ruleset": "fpd-2026", "fen": null, "tags": {}}'
FRAME0 = '{"type": "frame", "t": 0.0, "occupied": [1,2,3,4,5,6,7,8,9,10,11,12,21,22,23,24,25,26,27,28,29,30,31,32]}'


@pytest.mark.parametrize("lines, line, what", [
    ([HEADER, "{not json"], 2, "not valid JSON"),
    ([HEADER, '{"type": "frame", "t": 1.0, "occupied": [1, 33]}'], 2, "unknown square"),
    ([HEADER, FRAME0, '{"type": "frame", "t": -1.0, "occupied": []}'], 3, "time goes backwards"),
    ([FRAME0], 1, "header"),
    ([], 1, "header is missing"),
    ([HEADER.replace("portuguese", "chess")], 1, "unknown variant"),
    ([HEADER, '{"type": "clock", "t": 1.0, "event": "press"}'], 2, "side"),
])
def test_malformed_sessions(tmp_path, capsys, lines, line, what):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert main(["transcribe", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rig transcribe: {path} line {line}: ")
    assert what in err
    assert "Traceback" not in err


def test_missing_file_and_bad_settings(tmp_path, capsys):
    assert main(["transcribe", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["transcribe", str(tmp_path / "nope.jsonl"), "--bounce", "0.5", "--touch", "0.1"]) == 2
    assert "touch_s" in capsys.readouterr().err


def test_not_utf8(tmp_path, capsys):
    path = tmp_path / "bin.jsonl"
    path.write_bytes(b"\xff\xfe\x00garbage\n")
    assert main(["transcribe", str(path)]) == 2
    assert "rig transcribe:" in capsys.readouterr().err
