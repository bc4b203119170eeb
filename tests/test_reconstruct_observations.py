"""Certain or not (issue 9 part 2): what the frames prove is an irregularity, what a reed switch cannot
settle is an observation (never an alarm, never a change to the game), per rule, variant and clock mode."""

from __future__ import annotations

import pytest

from reconstruct_helpers import VARIANTS
from rig.law import status_after_reply
from rig.rulesets import default_ruleset_for
from rig.reconstruct import Settings
from rig.variants import get_variant
from session_builder import SessionBuilder, run

CLOCKS = [pytest.param(True, id="clock"), pytest.param(False, id="no-clock")]


def _detour(board):
    """A piece of the side to move with two destinations: (move played, other square it can reach)."""
    for m in board.legal_moves:
        others = [x for x in board.legal_moves if x.origin == m.origin and x.destination != m.destination]
        if others and not m.captured:
            return m, others[0].destination
    raise AssertionError("no piece with two moves")


def _set_down_then_played(variant: str, clock: bool, dwell: float):
    b = SessionBuilder(variant, clock_header=clock)
    move, detour = _detour(b.board)
    b.lift(move.origin).place(detour, 0.3).lift(detour, dwell).place(move.destination, 0.3)
    b.board.push(move)
    if clock:
        b.press("white")
    reply = b.board.legal_moves[0]
    b.wait(2.5).play(reply)
    if clock:
        b.press("black")
    return b, move, detour


@pytest.mark.parametrize("clock", CLOCKS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_brief_set_down_off_the_path_is_an_observation(variant, clock):
    b, move, detour = _set_down_then_played(variant, clock, 0.25)
    e = run(b)
    assert e.irregularities == []
    assert [(o.type, o.squares, o.side) for o in e.observations] == [("piece-moved-after-release", (detour,), "white")]
    assert "release" in e.observations[0].why
    assert e.moves[0].move == move and e.moves[0].legal


@pytest.mark.parametrize("clock", CLOCKS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_set_down_of_release_s_or_longer_is_piece_moved_after_release(variant, clock):
    b, move, detour = _set_down_then_played(variant, clock, 0.6)
    e = run(b)
    assert [(i.type, i.squares, i.status) for i in e.irregularities] == [
        ("piece-moved-after-release", (detour,),
         status_after_reply(default_ruleset_for(get_variant(variant)), "piece-moved-after-release"))]
    assert e.observations == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_release_threshold_is_a_setting(variant):
    b, move, detour = _set_down_then_played(variant, True, 0.25)
    e = run(b, Settings(release_s=0.2))
    assert [i.type for i in e.irregularities] == ["piece-moved-after-release"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_without_clock_a_piece_held_off_then_put_back_and_played_is_no_observation(variant):
    """The opponent lifts a piece after the move and holds it 3 s, puts it back, then plays it (a long hold,
    regular): without a clock the still board cannot tell his hand from a removal by the mover, but his move
    played with that piece leaves nothing for the arbiter (a removal put right before he moved)."""
    b = SessionBuilder(variant)
    first = b.board.legal_moves[0]
    b.play(first)
    reply = next(m for m in b.board.legal_moves if not m.captured)
    b.lift(reply.origin, 0.8).wait(3.0).place(reply.origin).wait(1.0)
    b.play(reply)
    b.wait(2.5)
    e = run(b)
    assert e.irregularities == []
    assert [m.move for m in e.moves] == [first, reply]
    assert e.observations == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_without_clock_a_piece_held_off_on_a_still_board_not_played_is_an_observation(variant):
    """The same hold, then another piece played with the first still off: whose hand took it off, the
    sensors never told (the mover's removal, or the owner's touch)."""
    b = SessionBuilder(variant)
    first = b.board.legal_moves[0]
    b.play(first)
    held = next(m for m in b.board.legal_moves if not m.captured)
    other = next(m for m in b.board.legal_moves if m.origin != held.origin and not m.captured
                 and held.origin not in m.path)
    b.lift(held.origin, 0.8).wait(3.0)
    b.play(other)
    b.wait(2.5)
    e = run(b)
    assert [(o.type, o.squares, o.side) for o in e.observations] == [("wrong-piece-removed", (held.origin,), "white")]
    assert "hand" in e.observations[0].why


@pytest.mark.parametrize("variant", VARIANTS)
def test_with_clock_a_piece_off_at_the_press_is_wrong_piece_removed(variant):
    b = SessionBuilder(variant, clock_header=True)
    first = b.board.legal_moves[0]
    b.play(first)
    theirs = max(s for s, p in b.board.pieces().items() if not p[0])
    b.remove(theirs).press("white")
    reply = next(m for m in b.board.legal_moves if theirs not in (m.origin, *m.captured))
    b.wait(1.0).play(reply).press("black")
    e = run(b)
    assert [(i.type, i.squares) for i in e.irregularities] == [("wrong-piece-removed", (theirs,))]
    assert e.observations == []


def _capture_with_removal_before_landing(variant: str, clock: bool, gap: float):
    from reconstruct_helpers import line_to_capture
    from session_builder import play_line

    b = play_line(SessionBuilder(variant, clock_header=clock), line_to_capture(variant), clock)
    cap = next(m for m in b.board.legal_moves if len(m.captured) == 1)
    side = "white" if b.board.turn else "black"
    piece = b.pieces[cap.origin]
    b.lift(cap.origin).remove(cap.captured[0], 0.4).place(cap.destination, gap, piece)
    b.board.push(cap)
    if clock:
        b.press(side)
    reply = b.board.legal_moves[0]
    b.wait(2.5).play(reply)
    if clock:
        b.press("black" if side == "white" else "white")
    return b, cap


@pytest.mark.parametrize("clock", CLOCKS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_removal_just_before_the_landing_is_read_is_an_observation(variant, clock):
    b, cap = _capture_with_removal_before_landing(variant, clock, 0.01)
    e = run(b)
    assert e.irregularities == []
    assert [(o.type, o.squares) for o in e.observations] == [("capture-removed-early", cap.captured)]
    assert "closed late" in e.observations[0].why


@pytest.mark.parametrize("clock", CLOCKS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_removal_well_before_the_landing_is_capture_removed_early(variant, clock):
    b, cap = _capture_with_removal_before_landing(variant, clock, 0.3)
    e = run(b)
    assert [(i.type, i.squares) for i in e.irregularities] == [("capture-removed-early", cap.captured)]
    assert e.observations == []
