"""A capture of three pieces whose captured pieces are taken off slowly, seen by the camera at two pictures a
second without a clock: ``rig record --camera --images`` writes a ``hand`` frame for every picture with a
hand over the board, so ``rig transcribe`` does not take the board as still while the hand is at work (the
captured pieces standing for seconds under it are not the opponent's turn begun). 8x8 and 10x10."""

from __future__ import annotations

import json
import subprocess

import pytest

from rig.board import Board
from rig.variants import get_variant
from vision.testset import calibration_pictures, game_pictures, write_pictures
from rig_cli import RIG, transcribe_report

# a position where white's only move takes three men, then a quiet reply and a quiet white move
GAMES = {"portuguese": ("W:W2,8,22,24:B5,6,15,18,23", ("2x27", "5-1", "8-12"), "bottom"),
         "international": ("W:W27,28,40,41:B4,9,24,32,33", ("27x20", "4-10", "20-14"), "left")}


def _record(tmp_path, variant: str, *, pause: int, seed: int):
    fen, texts, side = GAMES[variant]
    v = get_variant(variant)
    board = Board(v, fen)
    moves = []
    for text in texts:
        moves.append(board.parse_move(text))
        board.push(moves[-1])
    empty, start = calibration_pictures(v, seed, markers=True, side=side)
    write_pictures(str(tmp_path / "cal"), [empty, start])
    pictures = list(game_pictures(empty, moves, fen=fen, seed=seed, pause=pause, tail=6))
    write_pictures(str(tmp_path / "game"), pictures)
    done = subprocess.run(RIG + ["calibrate", "camera", "--variant", variant, "--empty", str(tmp_path / "cal/000000.jpg"),
                                 "--start", str(tmp_path / "cal/000001.jpg"), "-o", str(tmp_path / "cam.toml")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    session = tmp_path / "s.jsonl"
    done = subprocess.run(RIG + ["record", "--camera", str(tmp_path / "cam.toml"), "--images", str(tmp_path / "game"),
                                 "--fps", "2", "--fen", fen, "-o", str(session)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return session, list(texts), pictures


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_slow_removal_of_three_captured_pieces_at_two_pictures_a_second(tmp_path, variant):
    session, texts, pictures = _record(tmp_path, variant, pause=2, seed=61)
    lines = [json.loads(x) for x in session.read_text().splitlines()]
    frames = [x for x in lines[1:] if x["type"] == "frame"]
    hands = [x for x in frames if x.get("hand")]
    assert hands and all(x["hand"] is True for x in hands)
    # every hand frame repeats the position before it (a version-1 reader sees a repeat)
    for before, after in zip(frames, frames[1:]):
        if after.get("hand"):
            assert after["occupied"] == before["occupied"] and after["pieces"] == before["pieces"]
    # two pictures a second: between two hand-free positions of the removals the hand works 2 s and more, as
    # long as the engine's still board (stable_s): without the hand frames the capture was committed with two
    # captured pieces standing and the next removal read as the opponent's turn begun (capture-not-removed)
    still = [x["t"] for x in frames if not x.get("hand")]
    assert sum(len(x["occupied"]) == 9 - k for x in frames if not x.get("hand") for k in (1, 2)) == 2  # each removal
    assert max(b - a for a, b in zip(still, still[1:])) >= 2.0
    report = transcribe_report(session, tmp_path)
    assert [m["move"] for m in report["moves"]] == texts
    assert report["irregularities"] == []
    # the order the hand took the captured pieces off in: under the FMJD's law an order other than the
    # jumps' (or its reverse) is an observation for the arbiter (FMJD 002 art. 4.11), never an irregularity
    gone: list[int] = []
    for a, b in zip(pictures, pictures[1:]):
        gone += [s for s in a.pieces if s not in b.pieces and a.ply == b.ply == 1 and s not in gone]
    jumped = Board(get_variant(variant), GAMES[variant][0]).parse_move(texts[0]).captured
    gone = [s for s in gone if s in jumped]
    assert len(gone) == 3
    expected = [] if variant == "portuguese" or gone in (list(jumped), list(jumped)[::-1]) else [gone]
    assert [o["squares"] for o in report.get("observations", [])] == expected


def test_hand_frames_in_the_session_format():
    from rig.errors import SessionFormatError
    from rig.session import Frame, parse_event

    frame = Frame(3.5, frozenset({1, 5}), {1: "w", 5: "b"}, hand=True)
    line = frame.to_json()
    assert line["hand"] is True and parse_event(line, 2, 32) == frame
    assert "hand" not in Frame(3.5, frozenset({1})).to_json() and not parse_event({**line, "hand": False}, 2, 32).hand
    with pytest.raises(SessionFormatError, match="'hand' must be true or false"):
        parse_event({**line, "hand": "yes"}, 2, 32)


@pytest.mark.parametrize("hands", [True, False])
def test_engine_reads_hand_frames_as_a_board_not_still(hands):
    """The frames a camera writes for the Portuguese game above, captured pieces taken off 2 s apart: with its
    hand frames between the removals the capture is read whole; without them the board stood still 2 s with
    two captured pieces on it, and the next removal was read as the opponent's turn begun."""
    from rig.reconstruct import Reconstructor
    from rig.rulesets import FPD_2026
    from rig.session import Frame, Header

    fen, texts, _ = GAMES["portuguese"]
    board = Board(get_variant("portuguese"), fen)
    positions = [board.piece_codes()]
    capture = board.parse_move(texts[0])
    board.push(capture)
    standing = board.piece_codes() | {s: positions[0][s] for s in capture.captured}
    order = list(capture.captured)
    positions += [{s: c for s, c in standing.items() if s not in order[:k]} for k in range(4)]
    for text in texts[1:]:
        board.push(board.parse_move(text))
        positions.append(board.piece_codes())
    engine = Reconstructor(Header(FPD_2026.variant, FPD_2026, fen))
    out = []
    for k, pieces in enumerate(positions + [positions[-1]]):
        t = 2.0 * k
        out += engine.feed(Frame(t, frozenset(pieces), dict(pieces)))
        for h in (0.5, 1.0, 1.5):  # the hand over the board before the next position
            if hands and k < len(positions):
                out += engine.feed(Frame(t + h, frozenset(pieces), dict(pieces), hand=True))
    out += engine.finish()
    report = engine.report()
    assert [m["move"] for m in report["moves"]] == list(texts)
    if hands:
        assert report["irregularities"] == []
    else:
        assert [i["type"] for i in report["irregularities"]] == ["capture-not-removed"]
