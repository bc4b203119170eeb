"""End to end: a real game (tests/data) seen by the camera, hands and all, as a picture sequence through
``rig calibrate camera``, ``rig record --camera --images`` and ``rig transcribe``: the game's exact moves.
Also ``rig run --camera`` with the same pictures (the CameraSource in the live loop)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from rig.board import Board
from rig.simulate.games import load_pdn_game
from vision.testset import calibration_pictures, game_pictures, write_pictures
from rig_cli import RIG, transcribe_report

ROOT = os.path.join(os.path.dirname(__file__), "..")
GAME = os.path.join(ROOT, "tests/data/portuguese/damasedamas_2008_deodato_carvalho.pdn")


@pytest.fixture(scope="module")
def game_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("camgame")
    src = load_pdn_game(GAME, 1)
    empty, start = calibration_pictures(src.variant, 21, markers=True, side="left")
    write_pictures(str(d / "cal"), [empty, start])
    write_pictures(str(d / "game"), list(game_pictures(empty, src.moves, fen=src.fen, seed=21, tail=6)))
    board = Board(src.variant, src.fen)
    texts = []
    for m in src.moves:
        texts.append(board.move_text(m))
        board.push(m)
    done = subprocess.run(RIG + ["calibrate", "camera", "--variant", src.variant.name, "--empty", str(d / "cal/000000.jpg"),
                                 "--start", str(d / "cal/000001.jpg"), "-o", str(d / "cam.toml")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return d, texts


def test_record_and_transcribe_a_real_game(game_dir):
    d, texts = game_dir
    session = d / "s.jsonl"
    done = subprocess.run(RIG + ["record", "--camera", str(d / "cam.toml"), "--images", str(d / "game"),
                                 "--fps", "2", "-o", str(session)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(x) for x in session.read_text().splitlines()]
    assert lines[0]["source"] == "camera"
    assert all("pieces" in x and sorted(map(int, x["pieces"])) == x["occupied"] for x in lines[1:])
    report = transcribe_report(session, d)
    assert [m["move"] for m in report["moves"]] == texts
    assert report["irregularities"] == []


def test_rig_run_with_the_camera(game_dir):
    d, texts = game_dir
    out = d / "run"
    done = subprocess.run(RIG + ["run", "--camera", str(d / "cam.toml"), "--camera-images", str(d / "game"),
                                 "--camera-fps", "2", "--speed", "10", "--no-clock", "--plain", "--grace", "0", "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (session,) = [p for p in out.iterdir() if p.suffix == ".jsonl" and not p.name.endswith(".health.jsonl")]
    done = subprocess.run(RIG + ["transcribe", str(session), "--report", str(d / "run.json")],
                          capture_output=True, text=True)
    report = json.loads((d / "run.json").read_text())
    assert [m["move"] for m in report["moves"]] == texts


def test_record_camera_bad_input(tmp_path, game_dir):
    d, _ = game_dir
    done = subprocess.run(RIG + ["record", "--camera", str(tmp_path / "none.toml"), "--images", str(d / "game"),
                                 "-o", str(tmp_path / "s.jsonl")], capture_output=True, text=True)
    assert done.returncode == 2 and "none.toml" in done.stderr
    done = subprocess.run(RIG + ["record", "--camera", str(d / "cam.toml"), "--images", str(tmp_path / "nodir"),
                                 "-o", str(tmp_path / "s.jsonl")], capture_output=True, text=True)
    assert done.returncode == 2 and "nodir" in done.stderr and "Traceback" not in done.stderr


def test_rig_run_camera_bad_input(tmp_path, game_dir):
    d, _ = game_dir
    done = subprocess.run(RIG + ["run", "--camera", str(d / "cam.toml"), "--camera-device", "63", "--no-clock",
                                 "--plain", "--out", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "/dev/video63" in done.stderr
    done = subprocess.run(RIG + ["run", "--camera", str(tmp_path / "none.toml"), "--no-clock", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "none.toml" in done.stderr
    done = subprocess.run(RIG + ["run", "--camera", str(d / "cam.toml"), "--variant", "international", "--no-clock",
                                 "--out", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "portuguese" in done.stderr


CROWNING = os.path.join(ROOT, "tests/data/international/wk2003.pdn")


@pytest.fixture(scope="module")
def crowning_dir(tmp_path_factory):
    """The end of a real international game (wk2003 game 6, from its 94th ply): white captures onto the
    back rank and is crowned (15x4), the new king captures (4x36), black is crowned capturing (20x49) and
    his king moves (49-44). Three pictures a second: the capturer's hand takes the three pieces of 20x49 off
    one by one, which at two a second stands long enough for a clockless board to read as the opponent's
    turn begun."""
    d = tmp_path_factory.mktemp("camcrown")
    src = load_pdn_game(CROWNING, 6)
    board = Board(src.variant, src.fen)
    for m in src.moves[:93]:
        board.push(m)
    fen, moves = board.fen(), src.moves[93:]
    texts = []
    for m in moves:
        texts.append(board.move_text(m))
        board.push(m)
    empty, start = calibration_pictures(src.variant, 23, markers=True, side="bottom")
    write_pictures(str(d / "cal"), [empty, start])
    write_pictures(str(d / "game"), list(game_pictures(empty, moves, fen=fen, seed=21, tail=6)))
    done = subprocess.run(RIG + ["calibrate", "camera", "--variant", src.variant.name, "--empty", str(d / "cal/000000.jpg"),
                                 "--start", str(d / "cal/000001.jpg"), "-o", str(d / "cam.toml")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return d, fen, texts, board.piece_codes()


def test_record_and_transcribe_crownings(crowning_dir):
    d, fen, texts, final = crowning_dir
    assert "15x4" in texts and "20x49" in texts and "49-44" in texts
    session = d / "s.jsonl"
    done = subprocess.run(RIG + ["record", "--camera", str(d / "cam.toml"), "--images", str(d / "game"),
                                 "--fps", "3", "--fen", fen, "-o", str(session)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(x) for x in session.read_text().splitlines()]
    assert lines[0]["fen"] == fen
    # the frames stay in the session format (w W b B), and the last one is the game's final position, kings
    # included (the camera's reading where it can tell, the rules' where it cannot)
    assert all(set(x["pieces"].values()) <= {"w", "W", "b", "B"} for x in lines[1:])
    assert {int(k): v for k, v in lines[-1]["pieces"].items()} == final
    assert final[36] == "W" and final[44] == "B"  # both crowned men, moved on as kings
    report = transcribe_report(session, d)
    assert [m["move"] for m in report["moves"]] == texts
    assert report["irregularities"] == []


def test_record_camera_bad_fen(tmp_path, crowning_dir):
    d = crowning_dir[0]
    done = subprocess.run(RIG + ["record", "--camera", str(d / "cam.toml"), "--images", str(d / "game"),
                                 "--fen", "W:W99:B1", "-o", str(tmp_path / "s.jsonl")], capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
