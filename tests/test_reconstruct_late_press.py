"""Late clock presses (issue 3: "the clock pressed late or not at all"): a mover who forgets to press while
his opponent starts (or completes) his reply, then presses late; the reply stays pending and is committed by
the opponent's own press. Each variant, hand-built sessions; and the session where it was found."""

from __future__ import annotations

import os

import pytest

from rig.reconstruct import Reconstructor
from rig.session import read_session
from tests.reconstruct_helpers import VARIANTS, line_to_quiet
from tests.session_builder import SessionBuilder, play_line, run

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sessions")


def _quiet_start(variant: str) -> SessionBuilder:
    return play_line(SessionBuilder(variant), line_to_quiet(variant))


def _moves(engine) -> list[tuple[str, str, int | None]]:
    return [(m.side, m.move_text, m.clock_ms) for m in engine.moves]


@pytest.mark.parametrize("variant", VARIANTS)
def test_late_press_after_the_reply_is_complete_stamps_the_mover_only(variant):
    b = _quiet_start(variant)
    first = b.board.legal_moves[0]
    first_text = b.board.move_text(first)
    b.play(first)                                        # white forgets to press
    second = b.board.legal_moves[-1]
    second_text = b.board.move_text(second)
    b.play(second)                                       # black lifts and places his piece
    b.press("white", dt=1.2, white_ms=500_000, black_ms=520_000)    # white's press arrives late
    b.press("black", dt=0.1, white_ms=500_000, black_ms=515_000)
    third = b.board.legal_moves[0]
    third_text = b.board.move_text(third)
    b.play(third).press("white", white_ms=490_000, black_ms=515_000)
    e = run(b)
    assert e.irregularities == []
    played = len(line_to_quiet(variant))
    assert _moves(e)[played:] == [("white", first_text, 500_000), ("black", second_text, 515_000),
                                  ("white", third_text, 490_000)]
    assert e.moves[played].t < e.moves[played + 1].t
    assert "?(" not in e.pdn() and "[%clock w0:08:20" in e.pdn()


@pytest.mark.parametrize("variant", VARIANTS)
def test_late_press_while_the_reply_piece_is_in_the_air(variant):
    b = _quiet_start(variant)
    first = b.board.legal_moves[0]
    b.play(first)                                        # white forgets to press
    second = b.board.legal_moves[-1]
    b.lift(second.origin, dt=0.8)                        # black takes his piece...
    b.press("white", dt=0.2, white_ms=500_000, black_ms=520_000)    # ...white presses late meanwhile
    b.place(second.destination, dt=0.4)                  # black puts it down
    b.board.push(second)
    b.press("black", dt=0.3, white_ms=500_000, black_ms=516_000)
    third = b.board.legal_moves[0]
    b.play(third).press("white", white_ms=491_000, black_ms=516_000)
    e = run(b)
    played = len(line_to_quiet(variant))
    assert e.irregularities == []
    assert [m.move.key for m in e.moves[played:]] == [first.key, second.key, third.key]
    assert [m.clock_ms for m in e.moves[played:]] == [500_000, 516_000, 491_000]
    assert [m.side for m in e.moves[played:]] == ["white", "black", "white"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_late_press_then_the_lifted_piece_put_back_reads_as_a_removal_put_right(variant):
    """A piece of black's lifted, white's press, the piece back on its square: the board cannot tell this
    from white taking the piece off, pressing, and putting it back (docs/reconstruction.md, Known limits):
    it reads as wrong-piece-removed, corrected, and the moves stay exact."""
    b = _quiet_start(variant)
    first = b.board.legal_moves[0]
    b.play(first)
    replies = b.board.legal_moves
    second = replies[-1]
    b.lift(second.origin, dt=0.8).press("white", dt=0.2).place(second.origin, dt=0.4)
    other = next(m for m in replies if m.origin != second.origin)
    b.play(other).press("black")
    e = run(b)
    played = len(line_to_quiet(variant))
    assert [m.move.key for m in e.moves[played:]] == [first.key, other.key]
    assert [(i.type, i.side, i.status) for i in e.irregularities] == [("wrong-piece-removed", "white", "corrected")]


def test_the_session_where_the_late_press_was_found():
    """`rig run --simulate tests/data/international/wk2003.pdn --game 1 --speed 200`: white played 34-30
    (move 31) without pressing, black lifted 17 and set it on 21, then white's press arrived."""
    header, events = read_session(os.path.join(DATA, "late_press_international.jsonl"))
    e = Reconstructor(header)
    for ev in events:
        e.feed(ev)
    e.finish()
    assert e.irregularities == []
    m31 = [m for m in e.moves if m.number == 31]
    assert [(m.side, m.move_text) for m in m31] == [("white", "34-30"), ("black", "17-21")]
    assert m31[0].clock_ms == 3446044 and m31[1].clock_ms == 3416199
    assert all(m.clock_ms is not None for m in e.moves)
