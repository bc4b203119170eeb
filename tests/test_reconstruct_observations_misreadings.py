"""Issue 9 part 4: two engine misreadings, per variant and clock mode.

- two moves by one side, the second onto the square the first left (e.g. 10-14 then 6-10), are
  ``two-moves`` (CODEX 004 art. 42.A), not an illegal move plus a touched piece;
- a capture whose piece is not removed (``capture-not-removed``, CODEX 004 art. 42.K), after which the
  opponent plays that very piece: the irregularity and the opponent's move, not ``position-lost``.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from reconstruct_helpers import VARIANTS, _search
from rig.board import Board
from rig.law import status_after_reply
from rig.rulesets import default_ruleset_for
from rig.variants import get_variant
from session_builder import SessionBuilder, play_line, run


def _reuse_pair(board: Board):
    """A legal move a-b of the side to move and a second legal move c-a of the same side from there."""
    for first in board.legal_moves:
        if first.captured:
            continue
        mid = board.copy()
        mid.push(first)
        mid.turn = board.turn
        for second in mid.legal_moves:
            if second.destination == first.origin and not second.captured:
                return first, second
    return None


@lru_cache(maxsize=None)
def _standing_reply_line(variant: str) -> tuple[str, ...]:
    return _search(variant, lambda b: _standing_reply(b) is not None, seeds=600, plies=80)


def _with_standing(board: Board, cap):
    after = board.copy()
    after.push(cap)
    pieces = after.pieces()
    for s in cap.captured:
        pieces[s] = (not board.turn, False)
    after.set_pieces(pieces, not board.turn)
    return after


def _standing_reply(board: Board):
    """A single capture of the side to move after which, its piece left standing, the opponent can play
    that very piece (a plain move)."""
    for cap in board.legal_moves:
        if len(cap.captured) != 1:
            continue
        after = _with_standing(board, cap)
        for reply in after.legal_moves:
            if reply.origin in cap.captured and not reply.captured:
                return cap, reply
    return None


@pytest.mark.parametrize("clock", [True, False], ids=["clock", "no-clock"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_two_moves_onto_the_square_the_first_left(variant, clock):
    b = SessionBuilder(variant, clock_header=clock)
    pair = _reuse_pair(b.board)
    assert pair is not None
    first, second = pair
    name = b.board.move_text
    mid = b.board.copy()
    mid.push(first)
    mid.turn = b.board.turn
    b.lift(first.origin).place(first.destination).lift(second.origin).place(second.destination, 0.4)
    if clock:
        b.press("white")
    after = mid.copy()
    after.push(second)
    reply = after.legal_moves[0]
    b.wait(0.8).lift(reply.origin, 0.4).place(reply.destination)
    for s in reply.captured:
        b.remove(s)
    if clock:
        b.press("black")
    engine = run(b)
    texts = [m.move_text for m in engine.moves]
    assert texts[:2] == [name(first), mid.move_text(second)]
    assert [(i.type, i.number, i.side) for i in engine.irregularities] == [("two-moves", 1, "white")]


@pytest.mark.parametrize("clock", [True, False], ids=["clock", "no-clock"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_capture_not_removed_then_the_opponent_plays_that_piece(variant, clock):
    line = _standing_reply_line(variant)
    b = play_line(SessionBuilder(variant, clock_header=clock), line, clock)
    board = b.board.copy()
    cap, reply = _standing_reply(board)
    side = "white" if board.turn else "black"
    other = "black" if side == "white" else "white"
    b.play(cap, remove=False)
    if clock:
        b.press(side)
    b.wait(2.5)
    b.lift(reply.origin, 0.6).place(reply.destination)
    if clock:
        b.press(other)
    b.wait(2.5)
    engine = run(b)
    texts = [m.move_text for m in engine.moves]
    after = _with_standing(board, cap)
    assert texts[-2:] == [board.move_text(cap), after.move_text(reply)]
    types = [(i.type, i.side, i.status) for i in engine.irregularities]
    # the opponent played on: accepted where the book says so (CODEX 004 art. 50), open for the arbiter under the FPD
    assert types == [("capture-not-removed", side,
                      status_after_reply(default_ruleset_for(get_variant(variant)), "capture-not-removed"))]
