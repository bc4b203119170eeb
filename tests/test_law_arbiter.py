"""The arbiter's decisions under each book, through ``rig transcribe`` of a journal carrying the arbiter line:
``rectify`` of an FPD irregularity restores the position before it (FPD 000 7.5a, 001 5.1.3) and the record
goes on from the board as it then stands; ``dismiss`` sets an irregularity aside with a reason (what the
sensors cannot know: an adjustment announced, FPD 4.2 "ajusto", FMJD 3.13 "AJEITO")."""

from __future__ import annotations

import json

from rig.board import Board
from rig.cli import main
from rig.pdn import read_game
from rig.session import read_session, write_session
from tests.reconstruct_helpers import line_to_quiet, man_two_squares
from tests.session_builder import SessionBuilder, play_line


def transcribe(b: SessionBuilder, tmp_path, capsys) -> tuple[str, dict]:
    """``rig transcribe GAME.jsonl --report R.json`` of the builder's journal: (PDN, report)."""
    path, report = tmp_path / "game.jsonl", tmp_path / "report.json"
    with open(path, "w") as fh:
        write_session(fh, *b.session())
    capsys.readouterr()
    assert main(["transcribe", str(path), "--report", str(report)]) == 0
    return capsys.readouterr().out, json.loads(report.read_text())


def statuses(report: dict) -> list[tuple[str, str, str]]:
    return [(i["type"], i["rule"], i["status"]) for i in report["irregularities"]]


def illegal_man_move(b: SessionBuilder) -> tuple[int, int]:
    """White's man goes two squares forward (FPD 4.12): the hands and the builder's board both move it."""
    origin, dest = man_two_squares(b.board)
    b.lift(origin).place(dest).press("white")
    pieces = b.board.pieces()
    pieces[dest] = pieces.pop(origin)
    b.board.set_pieces(pieces, False)
    return origin, dest


def test_fpd_000_7_5a_arbiter_rectify_restores_the_position_before(tmp_path, capsys):
    b = play_line(SessionBuilder("portuguese"), line_to_quiet("portuguese"))
    before = b.board.copy()
    origin, dest = illegal_man_move(b)
    answer = b.board.legal_moves[0]
    b.play(answer).press("black")                 # black plays on: under the FPD that accepts nothing
    b.arbiter("rectify", ref=0, note="illegal move found")
    # the hands put the position back: black's reply, then white's man
    b.lift(answer.destination, 1.0).place(answer.origin).lift(dest).place(origin)
    b.board = Board("portuguese", before.fen())
    again = [b.board.move_text(b.board.legal_moves[0])]
    b.move(again[0]).press("white")
    again.append(b.board.move_text(b.board.legal_moves[0]))
    b.move(again[1]).press("black")
    pdn, report = transcribe(b, tmp_path, capsys)
    assert statuses(report) == [("illegal-move", "FPD 4.12, 7.5a", "corrected")]
    assert "{played from an irregular position (illegal-move FPD 4.12, 7.5a)}" in pdn
    # the record goes back to the position before the illegal move (a setup) and on from there
    fen_before = before.fen()
    assert f'/FEN "{fen_before}"/' in pdn
    assert "restored by the arbiter (FPD 4.12, 7.5a)" in pdn
    game = read_game(pdn, "portuguese")
    assert game.replay().ok
    assert [m.text for m in game.moves[-2:]] == again
    assert [m["move"] for m in report["moves"][-2:]] == again


def test_fpd_000_7_5a_rectify_before_the_opponent_moved(tmp_path, capsys):
    b = play_line(SessionBuilder("portuguese"), line_to_quiet("portuguese"))
    before = b.board.copy()
    origin, dest = illegal_man_move(b)
    b.arbiter("rectify", ref=0, dt=0.5)
    b.lift(dest, 0.5).place(origin)
    b.board = Board("portuguese", before.fen())
    text = b.board.move_text(b.board.legal_moves[0])
    b.move(text).press("white")
    pdn, report = transcribe(b, tmp_path, capsys)
    assert statuses(report) == [("illegal-move", "FPD 4.12, 7.5a", "corrected")]
    assert f'/FEN "{before.fen()}"/' in pdn and read_game(pdn, "portuguese").replay().ok
    assert report["moves"][-1]["move"] == text


def test_fpd_000_7_5b_rectify_of_a_press_without_a_move_gives_the_turn_back(tmp_path, capsys):
    b = play_line(SessionBuilder("portuguese"), line_to_quiet("portuguese"))
    before = b.board.copy()
    b.press("white")                              # no move: treated as an illegal move (7.5b)
    b.board.turn = False
    answer = b.board.legal_moves[0]
    b.play(answer).press("black")
    b.arbiter("rectify", ref=0)
    b.lift(answer.destination, 1.0).place(answer.origin)
    b.board = Board("portuguese", before.fen())
    text = b.board.move_text(b.board.legal_moves[0])
    b.move(text).press("white")
    pdn, report = transcribe(b, tmp_path, capsys)
    assert statuses(report) == [("clock-without-move", "FPD 7.5b", "corrected")]
    assert f'/FEN "{before.fen()}"/' in pdn and report["moves"][-1] == {**report["moves"][-1], "move": text,
                                                                         "side": "white"}


def test_codex_50_a_move_ends_the_right_to_rectify_nothing_restored(tmp_path, capsys):
    b = play_line(SessionBuilder("brazilian"), line_to_quiet("brazilian"))
    illegal_man_move(b)
    m = b.board.legal_moves[0]
    b.play(m).press("black")                      # CODEX 50: this accepts the irregular move
    b.arbiter("rectify", ref=0)
    pdn, report = transcribe(b, tmp_path, capsys)
    assert statuses(report) == [("illegal-move", "CODEX art. 42.B", "corrected")]
    assert pdn.count("/FEN") == 1 and "restored by the arbiter" not in pdn


def test_fpd_000_4_2_announced_adjustment_dismissed_by_the_arbiter(tmp_path, capsys):
    """FPD 4.2: a player may adjust pieces after saying "ajusto"; the reeds cannot hear it, so the touch
    is flagged (4.3) and the arbiter dismisses it with the reason."""
    b = play_line(SessionBuilder("portuguese"), line_to_quiet("portuguese"))
    moves = b.board.legal_moves
    touched = moves[0].origin
    played = next(m for m in moves if m.origin != touched)
    b.touch(touched, hold=0.5).play(played).press("white")
    b.arbiter("dismiss", ref=0, note="adjustment announced")
    b.move(b.board.move_text(b.board.legal_moves[0])).press("black")
    b.arbiter("dismiss", ref=7, note="no such irregularity")
    pdn, report = transcribe(b, tmp_path, capsys)
    assert statuses(report) == [("touched-piece-not-moved", "FPD 4.3-4.5", "dismissed")]
    assert "irregular position" not in pdn        # dismissed: black's reply is not from an irregular position
    # the journal line reads back as written
    _header, events = read_session(str(tmp_path / "game.jsonl"))
    dismiss = [ev for ev in events if getattr(ev, "action", None) == "dismiss"]
    assert [(d.ref, d.note) for d in dismiss] == [(0, "adjustment announced"), (7, "no such irregularity")]
    # the update carries the reason, and a ref with no irregularity is a note, not an error
    assert main(["transcribe", "--explain", str(tmp_path / "game.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "adjustment announced" in out and "no irregularity 7" in out


def test_fmjd_002_3_13_dismiss_under_a_book_that_accepts(tmp_path, capsys):
    """FMJD 3.13 "AJEITO": the same dismissal under a book whose next move accepts: it stays dismissed."""
    b = play_line(SessionBuilder("international"), line_to_quiet("international"))
    moves = b.board.legal_moves
    touched = moves[0].origin
    b.touch(touched, hold=0.5).play(next(m for m in moves if m.origin != touched)).press("white")
    b.arbiter("dismiss", ref=0, note="adjustment announced")
    b.move(b.board.move_text(b.board.legal_moves[0])).press("black")
    _pdn, report = transcribe(b, tmp_path, capsys)
    assert statuses(report) == [("touched-piece-not-moved", "FMJD 3.11, 5.4.0.3", "dismissed")]


def test_fpd_000_7_5b_rectify_of_an_unanswered_press_restores_nothing(tmp_path, capsys):
    """A press without a move that the opponent has not answered left the position as it was: rectifying it
    puts nothing back, and the presser's move then stands."""
    b = play_line(SessionBuilder("portuguese"), line_to_quiet("portuguese"))
    b.press("white")
    b.arbiter("rectify", ref=0, note="pressed by mistake")
    text = b.board.move_text(b.board.legal_moves[0])
    b.move(text).press("white")
    pdn, report = transcribe(b, tmp_path, capsys)
    assert statuses(report) == [("clock-without-move", "FPD 7.5b", "corrected")]
    assert "restored by the arbiter" not in pdn and "/FEN" not in pdn
    assert report["moves"][-1]["move"] == text
