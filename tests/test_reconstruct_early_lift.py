"""The opponent lifts his piece while the capturer is still taking the captured piece off
(rig/reconstruct/earlylift.py).

Hand-built sessions on each board, no faulty switch: the capture is read as cleared, the lift begins the reply,
and no irregularity stands; a capturer who took off a piece his capture did not take, then the captured one, and
pressed, is still read as ``wrong-piece-removed`` (the reply lifts another piece)."""

from __future__ import annotations

import pytest

from tests.reconstruct_helpers import VARIANTS, line_to_capture
from tests.session_builder import SessionBuilder, play_line, run


def _capture_start(variant: str, clock: bool):
    """White to capture one piece; (builder, the capture, the position after it)."""
    b = play_line(SessionBuilder(variant), line_to_capture(variant), clock=clock)
    capture = b.board.legal_moves[0]
    after = b.board.copy(stack=False)
    after.push(capture)
    return b, capture, after


def _early_lift(variant: str, clock: bool, hold: float):
    """White lands his capture, black lifts the piece of his reply (on the Portuguese and Brazilian boards a
    recapture landing where the piece white took stood), white takes the captured piece off (and presses, with
    a clock), black holds his piece ``hold`` s, then plays it (and presses). (engine, [capture, reply] keys, the
    number of moves before the capture)."""
    b, capture, after = _capture_start(variant, clock)
    reply = after.legal_moves[0]
    b.play(capture, remove=False)
    b.lift(reply.origin, dt=0.3)
    for s in capture.captured:
        b.remove(s, dt=0.3)
    if clock:
        b.press("white", dt=0.2, white_ms=500_000, black_ms=520_000)
    b.board.push(reply)
    dt = hold
    for s in reply.path[1:-1]:
        b.place(s, dt=dt).lift(s, dt=0.25)
        dt = 0.25
    b.place(reply.destination, dt=dt)
    for s in reply.captured:
        b.remove(s, dt=0.3)
    if clock:
        b.press("black", dt=0.3, white_ms=500_000, black_ms=516_000)
    b.wait(3.0).frame()
    return run(b), [capture.key, reply.key], len(line_to_capture(variant))


def _keys(engine, played: int) -> list:
    return [m.move.key for m in engine.moves[played:] if not m.withdrawn]


@pytest.mark.parametrize("variant", VARIANTS)
def test_early_lift_with_clock_reads_the_capture_cleared_at_the_press(variant):
    """White lands, black lifts the piece he will play, white takes the captured piece off and presses, black
    puts his piece down and presses: white's capture and black's reply, no irregularity (before: the capture read
    as it stood at black's lift, capture-not-removed, then own-piece-removed on the reply)."""
    e, keys, played = _early_lift(variant, clock=True, hold=0.5)
    assert _keys(e, played) == keys
    assert [(i.type, i.status) for i in e.irregularities] == []
    assert [m.clock_ms for m in e.moves[played:]] == [500_000, 516_000]


@pytest.mark.parametrize("variant", VARIANTS)
def test_early_lift_without_clock_reads_the_capture_cleared_at_the_landing(variant):
    """The same without a clock: black's landing ends white's capture as it stood once the piece was off."""
    e, keys, played = _early_lift(variant, clock=False, hold=0.6)
    assert _keys(e, played) == keys
    assert [(i.type, i.status) for i in e.irregularities] == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_early_lift_without_clock_held_while_the_board_stays_still(variant):
    """Black lifts his piece, white clears the capture, and black thinks 3.5 s with it in his hand before he plays
    it: the capture is read cleared (not capture-not-removed), and the piece held off leaves no observation since
    black's move was played with it."""
    e, keys, played = _early_lift(variant, clock=False, hold=3.5)
    assert _keys(e, played) == keys
    assert [(i.type, i.status) for i in e.irregularities] == []
    assert [o.type for o in e.observations] == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_wrong_piece_taken_off_before_the_captured_one_still_reads_wrong_piece_removed(variant):
    """White takes off a piece of black's his capture did not take, then the captured one, and presses; black
    plays another piece: the removal stands (``wrong-piece-removed``), as before."""
    b, capture, after = _capture_start(variant, clock=True)
    played = len(line_to_capture(variant))
    victim = next(s for s in sorted(after.pieces()) if after.piece_at(s)[0] is False)
    pieces = after.pieces()
    del pieces[victim]
    b.play(capture, remove=False)
    b.remove(victim, dt=0.3)
    for s in capture.captured:
        b.remove(s, dt=0.3)
    b.press("white", dt=0.2)
    b.board.set_pieces(pieces, False)
    reply = b.board.legal_moves[0]
    b.play(reply).press("black")
    e = run(b)
    assert _keys(e, played) == [capture.key, reply.key]
    assert [(i.type, i.side) for i in e.irregularities] == [("wrong-piece-removed", "white")]
