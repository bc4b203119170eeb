"""One hand-built session per irregularity type and variant: type, move number, side, status, and the
game going on correctly afterwards (docs/session-format.md "Irregularity types")."""

from __future__ import annotations

import pytest

from rig.board import Board
from rig.law import status_after_reply
from rig.rulesets import default_ruleset_for
from rig.pdn import read_game
from rig.reconstruct import Settings
from rig.reconstruct.matcher import capture_sequences, plain_moves
from rig.variants import get_variant
from tests.reconstruct_helpers import (VARIANTS, board_after, line_to_capture, line_to_multi, line_to_quiet,
                                       line_to_short_capture, man_two_squares, promotion_ahead)
from tests.session_builder import SessionBuilder, play_line, run


def played_on(variant: str, kind: str) -> str:
    """The status once the opponent played on, by the variant's default rule set's book (rig.law): accepted
    under the CODEX (art. 50) and FMJD (5.7), open under the FPD (000 7.5a), where it is restored when found."""
    return status_after_reply(default_ruleset_for(get_variant(variant)), kind)


def found(engine):
    return [(i.type, i.number, i.side, i.status) for i in engine.irregularities]


def number_of(b: SessionBuilder) -> int:
    """PDN move number of the move about to be played on the builder's board."""
    return len(b.board.move_stack) // 2 + 1


def reply(b: SessionBuilder, clock: bool = True) -> str:
    """Black answers with his first legal move (the opponent's move that accepts)."""
    m = b.board.legal_moves[0]
    text = b.board.move_text(m)
    b.play(m)
    if clock:
        b.press("black")
    return text


def start(variant, line, clock=True, **kw) -> SessionBuilder:
    return play_line(SessionBuilder(variant, **kw), line, clock)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("clock", [True, False])
def test_capture_not_removed_accepted_and_play_goes_on(variant, clock):
    b = start(variant, line_to_capture(variant), clock)
    n = number_of(b)
    cap = b.board.legal_moves[0]
    text = b.board.move_text(cap)
    b.play(cap, remove=False)
    if clock:
        b.press("white")
    # the captured piece is still there: black plays on from the board as it stands (it accepts)
    standing = cap.captured[0]
    board = Board(variant)
    board.set_pieces({**b.board.pieces(), standing: (False, False)}, False)
    b.board = board
    answer = reply(b, clock)
    e = run(b)
    assert ("capture-not-removed", n, "white", played_on(variant, "capture-not-removed")) in found(e)
    assert [m.move_text for m in e.moves][-2:] == [text, answer]
    assert e.irregularities[0].squares == (standing,)
    assert '/FEN "' in e.pdn()
    assert e.record.position().fen() == e.board.fen()


@pytest.mark.parametrize("variant", VARIANTS)
def test_capture_not_removed_corrected(variant):
    b = start(variant, line_to_capture(variant))
    n = number_of(b)
    cap = b.board.legal_moves[0]
    b.play(cap, remove=False).press("white")
    b.remove(cap.captured[0], 0.8)         # put right before black moves
    reply(b)
    e = run(b)
    assert found(e) == [("capture-not-removed", n, "white", "corrected")]
    assert "/FEN" not in e.pdn()


@pytest.mark.parametrize("variant", VARIANTS)
def test_capture_removed_early(variant):
    b = start(variant, line_to_capture(variant))
    n = number_of(b)
    cap = b.board.legal_moves[0]
    b.lift(cap.origin).remove(cap.captured[0]).place(cap.destination, piece="w")
    b.board.push(cap)
    b.press("white")
    reply(b)
    e = run(b)
    assert found(e) == [("capture-removed-early", n, "white", played_on(variant, "capture-removed-early"))]
    assert e.moves[-2].move_text == board_after(variant, line_to_capture(variant)).move_text(cap)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("kind", ["wrong-piece-removed", "own-piece-removed"])
def test_piece_removed(variant, kind):
    b = start(variant, line_to_quiet(variant))
    n = number_of(b)
    m = b.board.legal_moves[0]
    b.play(m)
    white = kind == "own-piece-removed"
    victim = next(s for s, (w, _k) in sorted(b.board.pieces().items()) if w == white and s != m.destination)
    b.remove(victim).press("white")
    pieces = b.board.pieces()
    del pieces[victim]
    b.board.set_pieces(pieces, False)
    reply(b)
    e = run(b)
    assert found(e) == [(kind, n, "white", played_on(variant, kind))]
    assert e.irregularities[0].squares == (victim,)
    assert e.record.position().fen() == e.board.fen()


@pytest.mark.parametrize("variant", VARIANTS)
def test_capture_not_taken(variant):
    b = start(variant, line_to_capture(variant))
    n = number_of(b)
    plain = plain_moves(b.board)[0]
    b.play(plain).press("white")
    reply(b)
    e = run(b)
    assert found(e) == [("capture-not-taken", n, "white", played_on(variant, "capture-not-taken"))]
    assert e.moves[-2].move_text == plain.text(name=b.variant.square_name)
    assert not e.moves[-2].legal
    assert e.record.position().fen() == e.board.fen()


@pytest.mark.parametrize("variant", VARIANTS)
def test_illegal_move_a_man_two_squares(variant):
    b = start(variant, line_to_quiet(variant))
    n = number_of(b)
    v = b.variant
    origin, dest = man_two_squares(b.board)
    b.lift(origin).place(dest).press("white")
    pieces = b.board.pieces()
    pieces[dest] = pieces.pop(origin)
    b.board.set_pieces(pieces, False)
    reply(b)
    e = run(b)
    assert found(e) == [("illegal-move", n, "white", played_on(variant, "illegal-move"))]
    assert e.moves[-2].move_text == f"{v.square_name(origin)}-{v.square_name(dest)}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_capture_rule_violated(variant):
    b = start(variant, line_to_short_capture(variant))
    n = number_of(b)
    legal = {m.key for m in b.board.legal_moves}
    short = next(m for m, done in capture_sequences(b.board) if done and m.key not in legal)
    pieces = b.board.pieces()
    b.play(short, land=True)
    b.board = Board(variant)
    for s in short.captured:
        pieces.pop(s)
    pieces[short.destination] = pieces.pop(short.origin)
    b.board.set_pieces(pieces, False)
    b.press("white")
    reply(b)
    e = run(b)
    assert ("capture-rule-violated", n, "white", played_on(variant, "capture-rule-violated")) in found(e)


@pytest.mark.parametrize("variant", VARIANTS)
def test_capture_incomplete_and_multi_capture_landings(variant):
    b = start(variant, line_to_multi(variant))
    n = number_of(b)
    full = b.board.legal_moves_all_paths()[0]
    from rig.move import Move
    part = Move(full.origin, full.path[1], full.path[:2], full.captured[:1], False)
    pieces = b.board.pieces()
    b.play(part)
    b.board = Board(variant)
    pieces.pop(part.captured[0])
    pieces[part.destination] = pieces.pop(part.origin)
    b.board.set_pieces(pieces, False)
    b.press("white")
    e = run(b)
    assert found(e) == [("capture-incomplete", n, "white", "open")]


@pytest.mark.parametrize("variant", VARIANTS)
def test_multi_capture_set_down_on_each_landing(variant):
    b = start(variant, line_to_multi(variant))
    full = b.board.legal_moves_all_paths()[-1]
    text = b.board.move_text(full)
    b.play(full, land=True, order=list(reversed(full.captured))).press("white")
    e = run(b)
    assert found(e) == []
    assert e.moves[-1].move_text == text
    assert e.moves[-1].move.path == full.path


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("clock", [True, False])
def test_two_moves(variant, clock):
    b = start(variant, line_to_quiet(variant), clock)
    n = number_of(b)
    first = b.board.legal_moves[0]
    b.play(first)
    if clock:
        b.press("white")
    else:
        b.wait(3)
    b.board.turn = True
    second = next(m for m in b.board.legal_moves if m.origin != first.destination)
    b.play(second)
    b.wait(1)
    answer = reply(b, clock)
    e = run(b)
    assert found(e) == [("two-moves", n, "white", played_on(variant, "two-moves"))]
    assert [(m.number, m.side) for m in e.moves[-3:]] == [(n, "white"), (n, "white"), (n, "black")]
    assert e.moves[-1].move_text == answer
    assert e.record.position().fen() == e.board.fen()


@pytest.mark.parametrize("variant", VARIANTS)
def test_capture_not_taken_put_back_and_the_capture_played(variant):
    """Corrected before the opponent moved: the irregular move stays in the report's moves (withdrawn),
    the capture played instead follows with the same number and side; the PDN reads on as a legal game."""
    b = start(variant, line_to_capture(variant))
    n = number_of(b)
    plain = plain_moves(b.board)[0]
    b.lift(plain.origin).place(plain.destination).press("white")
    b.lift(plain.destination, 0.8).place(plain.origin)
    capture = b.board.legal_moves[0]
    text = b.board.move_text(capture)
    b.play(capture).press("white")
    answer = reply(b)
    e = run(b)
    assert found(e) == [("capture-not-taken", n, "white", "corrected")]
    plain_text = plain.text(name=b.variant.square_name)
    assert [(m.number, m.side, m.move_text, m.legal, m.withdrawn) for m in e.moves[-3:]] == [
        (n, "white", plain_text, False, True), (n, "white", text, True, False), (n, "black", answer, True, False)]
    game = read_game(e.pdn(), variant)
    assert game.replay().ok and not any(node.is_setup for node in game.nodes)
    assert [(m.text, m.comment) for m in game.moves[-2:]] == [(text, f"{plain_text} taken back"), (answer, None)]
    assert e.record.position().fen() == e.board.fen()


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("again", [False, True])
def test_move_taken_back(variant, again):
    b = start(variant, line_to_quiet(variant))
    n = number_of(b)
    first = b.board.legal_moves[0]
    first_text = b.board.move_text(first)
    b.play(first).press("white")
    b.lift(first.destination, 0.8).place(first.origin)
    b.board.pop()
    second = first if again else next(m for m in b.board.legal_moves if m.origin != first.origin)
    text = b.board.move_text(second)
    b.play(second).press("white")
    answer = reply(b)
    e = run(b)
    assert found(e) == [("move-taken-back", n, "white", "corrected" if again else played_on(variant, "move-taken-back"))]
    # the move taken back stays in the report's moves, marked, before the move played instead
    assert [(m.number, m.side, m.move_text, m.withdrawn) for m in e.moves[-3:]] == [
        (n, "white", first_text, True), (n, "white", text, False), (n, "black", answer, False)]
    assert [m.get("withdrawn", False) for m in e.report()["moves"][-3:]] == [True, False, False]
    # the PDN keeps the moves that stand, the one taken back as a comment on the move played instead
    game = read_game(e.pdn(), variant)
    assert game.replay().ok
    # under the FPD (000 4.8, 7.5a) the reply is played from an irregular position and the record says so
    mark = None if again or played_on(variant, "move-taken-back") == "accepted" else \
        f"played from an irregular position (move-taken-back {e.irregularities[0].rule})"
    assert [(m.text, m.comment) for m in game.moves[-2:]] == [(text, f"{first_text} taken back"), (answer, mark)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_clock_without_move_then_the_opponent_plays(variant):
    b = start(variant, line_to_quiet(variant))
    n = number_of(b)
    b.press("white")
    b.board.turn = False
    answer = reply(b)
    e = run(b)
    assert found(e) == [("clock-without-move", n, "white", played_on(variant, "clock-without-move"))]
    assert e.moves[-1].move_text == answer and e.moves[-1].side == "black"


@pytest.mark.parametrize("variant", VARIANTS)
def test_opponent_piece_touched(variant):
    b = start(variant, line_to_quiet(variant))
    n = number_of(b)
    theirs = next(s for s, (w, _k) in sorted(b.board.pieces().items()) if not w)
    b.touch(theirs)
    b.play(b.board.legal_moves[0]).press("white")
    reply(b)
    e = run(b)
    assert found(e) == [("opponent-piece-touched", n, "white", played_on(variant, "opponent-piece-touched"))]


@pytest.mark.parametrize("variant", VARIANTS)
def test_touched_piece_not_moved(variant):
    b = start(variant, line_to_quiet(variant))
    n = number_of(b)
    moves = b.board.legal_moves
    touched = moves[0].origin
    played = next(m for m in moves if m.origin != touched)
    b.touch(touched, hold=0.5).play(played).press("white")
    reply(b)
    e = run(b)
    assert found(e) == [("touched-piece-not-moved", n, "white", played_on(variant, "touched-piece-not-moved"))]
    assert e.irregularities[0].squares == (touched,)


@pytest.mark.parametrize("variant", VARIANTS)
def test_touches_that_are_not_irregular(variant):
    b = start(variant, line_to_quiet(variant))
    moves = b.board.legal_moves
    m = moves[0]
    other = next(x for x in moves if x.origin != m.origin).origin
    b.touch(m.origin, hold=0.5)               # touched, then played: fine (FPD 4.3)
    b.lift(other).place(other, 0.08)          # brushed for 80 ms: not a touch
    b.bounce(other)
    b.play(m).press("white")
    e = run(b)
    assert found(e) == []
    # a compulsory capture with another piece after a touch is allowed (FPD 4.5)
    b = start(variant, line_to_capture(variant))
    cap = b.board.legal_moves[0]
    quiet = next(s for s, (w, _k) in sorted(b.board.pieces().items()) if w and s != cap.origin)
    b.touch(quiet, hold=0.5).play(cap).press("white")
    e = run(b)
    assert found(e) == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_piece_moved_after_release(variant):
    b = start(variant, line_to_quiet(variant))
    n = number_of(b)
    m = b.board.legal_moves[0]
    stray = next(s for s in range(1, b.variant.squares + 1) if s not in b.board.occupied() and s != m.destination)
    b.lift(m.origin).place(stray).lift(stray, 0.6).place(m.destination)
    b.board.push(m)
    b.press("white")
    reply(b)
    e = run(b)
    assert found(e) == [("piece-moved-after-release", n, "white", played_on(variant, "piece-moved-after-release"))]
    assert e.moves[-2].move_text == m.text(name=b.variant.square_name)


@pytest.mark.parametrize("variant", VARIANTS)
def test_uncrowned_king_moved_camera(variant):
    v = Board(variant).variant
    b = SessionBuilder(variant, fen=promotion_ahead(variant), camera=True)
    n = number_of(b)
    b.play(b.board.legal_moves[0]).press("white")      # the man stays a man on the camera: nobody crowned it
    reply(b)
    king_move = next(m for m in b.board.legal_moves if v.coords(m.destination)[1] < v.coords(m.origin)[1])
    b.play(king_move).press("white")
    e = run(b)
    if variant == "portuguese":
        # FPD 000 3.1d-g: the piece is a king from the base; the crowning is the opponent's to do (3.1g): an
        # observation for the arbiter, not the mover's irregularity (rig.law)
        assert [(o.type, o.number, o.side) for o in e.observations] == [("uncrowned-king-moved", n + 1, "white")]
        assert found(e) == []
    else:
        assert ("uncrowned-king-moved", n + 1, "white", "open") in found(e)


@pytest.mark.parametrize("variant", VARIANTS)
def test_wrong_setup_then_corrected(variant):
    b = SessionBuilder(variant)
    missing = sorted(b.pieces)[0]
    code = b.pieces.pop(missing)
    b.events.clear()
    b.frame().wait(3).frame()
    b.put(missing, code, 0.5)
    b.play(b.board.legal_moves[0]).press("white")
    e = run(b)
    assert found(e) == [("wrong-setup", 1, "white", "corrected")]
    assert len(e.moves) == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_wrong_setup_quarter_turn(variant):
    b = SessionBuilder(variant)
    v = b.variant
    rows = len(v.white_start) // v.half
    b.pieces = {s: "w" for s in range(1, v.squares + 1) if v.coords(s)[0] < rows or v.coords(s)[0] >= v.size - rows}
    b.events.clear()
    b.frame().wait(3).frame()
    e = run(b)
    assert found(e) == [("wrong-setup", 1, "white", "open")]
    assert "quarter" in e.irregularities[0].detail


@pytest.mark.parametrize("variant", VARIANTS)
def test_wrong_setup_colours_swapped_camera(variant):
    b = SessionBuilder(variant, camera=True)
    b.pieces = {s: ("b" if c == "w" else "w") for s, c in b.pieces.items()}
    b.events.clear()
    b.frame().wait(3).frame()
    e = run(b)
    assert found(e) == [("wrong-setup", 1, "white", "open")]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("clock", [True, False])
def test_position_lost_and_restored(variant, clock):
    b = start(variant, line_to_quiet(variant), clock)
    n = number_of(b)
    pieces = sorted(b.board.pieces().items())
    knocked = [s for s, (w, _k) in pieces if w][:2] + [s for s, (w, _k) in pieces if not w][-2:]
    codes = {s: b.pieces[s] for s in knocked}
    for s in knocked:
        b.remove(s, 0.07)
    b.wait(4).frame()
    for s in knocked:
        b.put(s, codes[s])
    m = b.board.legal_moves[0]
    b.play(m)
    if clock:
        b.press("white")
    e = run(b)
    assert found(e) == [("position-lost", n, "white", "corrected")]
    assert e.moves[-1].move.key == m.key


@pytest.mark.parametrize("variant", VARIANTS)
def test_position_lost_until_the_arbiter_sets_a_position(variant):
    b = start(variant, line_to_quiet(variant))
    everything = sorted(b.pieces)
    for s in everything[::2][:8]:
        b.remove(s, 0.02)
    b.wait(3).frame()
    e = run(b)
    assert [i.type for i in e.irregularities] == ["position-lost"]
    assert e.irregularities[0].status == "open"
    # the arbiter sets the position as the board now stands
    board = Board(variant)
    pieces = {s: p for s, p in b.board.pieces().items() if s not in everything[::2][:8]}
    board.set_pieces(pieces, True)
    b.arbiter("set-position", fen=board.fen())
    b.board = board
    m = board.legal_moves[0]
    b.play(m).press("white")
    e = run(b)
    assert e.moves[-1].move.key == m.key
    assert '/FEN "' in e.pdn()


def test_settings_are_checked():
    with pytest.raises(ValueError):
        Settings(bounce_s=-1)
    with pytest.raises(ValueError):
        Settings(bounce_s=0.2, touch_s=0.1)
