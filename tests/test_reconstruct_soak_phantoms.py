"""Soak regressions (bench/soak_transcribe.py): a neighbour phantom's closing just before the opponent's lift or
press, read as the mover's landing (a stuck origin's, a second move's) or as a move of the side not to move. Each
case is the soak's failing session, cut, with hand-made variants where the closing stays (a real landing)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rig.reconstruct import Reconstructor, Settings
from rig.session import Frame
from rig.simulate import HumanModel, random_game, simulate_game
from tests.test_reconstruct_soak_regressions import assert_reads, read


def _read_events(s, events) -> Reconstructor:
    engine = Reconstructor(s.header, None)
    for ev in events:
        engine.feed(ev)
    engine.finish()
    return engine


def _soak_case(variant: str, total: int, plies: int, seed: int, clock: bool, inject: list[str], ply: int):
    """The soak's session ``seed`` on the hard model, its game cut to ``plies`` of ``total``, and the neighbour
    phantom of ply ``ply``."""
    moves = random_game(variant, total, f"soak:{seed}")
    s = simulate_game(variant, moves[:plies], seed=seed, clock=clock, inject=inject, model=HumanModel.hard())
    phantom = next(q for q in s.behaviours if q.kind == "neighbour-phantom" and q.ply == ply)
    return s, phantom


def _phantom_pass_case():
    """Portuguese, hard hands, clock (soak H14-1, cut): white presses without a move, then black's 18-14; a
    neighbour phantom closes 13 3 ms before 18's lift and opens 85 ms later."""
    return _soak_case("portuguese", 15, 14, 14003090, True, ["clock-without-move@1", "clock-without-move@12"], 13)


def test_phantom_before_the_reply_after_a_pass_names_no_stuck_origin_portuguese_with_clock():
    """The phantom's closing, confirmed before black's lift, read as a piece come to 13 with nothing lifted: white's
    9-13 from a switch stuck under 9 (a second move of the side that passed, then capture-not-taken and
    wrong-piece-removed for black). A stuck-origin reading whose closing is younger than ``touch_s`` at the lift
    waits for the next change: 13 opening within ``touch_s`` was a phantom, and 18-14 is read alone."""
    s, phantom = _phantom_pass_case()
    assert s.expected_moves[-1] == "18-14" and phantom.squares == (13,)
    assert_reads(s)
    assert read(s).sensor_faults == []


def test_closing_before_the_reply_that_stays_is_read_from_a_stuck_origin_portuguese_with_clock():
    """The same frames with the phantom's square staying closed (a piece set down there, its origin's switch
    stuck): the next change finds it still closed, and the turn is read as at the lift, as before the wait was
    added: a move to that square from the origin named stuck closed, then black's reply."""
    s, phantom = _phantom_pass_case()
    square = phantom.squares[0]
    events = [replace(ev, occupied=ev.occupied | {square}) if isinstance(ev, Frame) and ev.t >= phantom.t else ev
              for ev in s.events]
    engine = _read_events(s, events)
    stuck = [f for f in engine.sensor_faults if f.kind == "stuck-closed"]
    assert len(stuck) == 1
    read_to = [m for m in engine.moves if m.move.destination == square and m.move.origin == stuck[0].square]
    assert len(read_to) == 1 and read_to[0].side == "white"
    assert [m.move_text for m in engine.moves][-1] == "18-14"


def _phantom_move_after_pass_case():
    """Brazilian, hard hands, clock (soak 15000724, cut): black presses without a move, then white's b2-a3; a
    neighbour phantom closes c3 58 ms before white's press and opens 8 ms after it, and a3 closes under a slow
    magnet 127 ms after the press."""
    return _soak_case("brazilian", 35, 25, 15000724, True, ["clock-without-move@23", "touched-piece-not-moved@14"], 24)


def test_move_after_a_pass_shown_by_a_phantom_waits_for_its_slow_landing_brazilian_with_clock():
    """At white's press the board (-b2 +c3, the phantom) shows a legal move of the side not to move, b2-c3, so the
    press read it at once (then a3 closing and c3 opening made black's turn position-lost). A press of the side not
    to move less than ``touch_s`` after a closing waits ``magnet_s`` as the mover's press does, even when the board
    shows a move of his: c3 opens, a3 closes, b2-a3 is read."""
    s, phantom = _phantom_move_after_pass_case()
    assert s.expected_moves[-1] == "b2-a3" and phantom.squares == (22,)
    assert_reads(s)


def test_move_after_a_pass_pressed_at_once_on_its_landing_stands_brazilian_with_clock():
    """The same frames played by a player: white's piece set down on c3 (the phantom's closing, kept) and a3 never
    closing, the press 58 ms later. The wait changes nothing: b2-c3 is read and black's clock-without-move stands,
    as when the press was read at once."""
    s, phantom = _phantom_move_after_pass_case()
    events = [replace(ev, occupied=(ev.occupied | {22}) - {21}) if isinstance(ev, Frame) and ev.t >= phantom.t
              else ev for ev in s.events]
    engine = _read_events(s, events)
    assert [m.move_text for m in engine.moves] == s.expected_moves[:-1] + ["b2-c3"]
    got = [{"type": i.type, "number": i.number, "side": i.side, "status": i.status} for i in engine.irregularities]
    assert got == [{k: d[k] for k in ("type", "number", "side", "status")} for d in s.expected_irregularities]


def _phantom_beside_an_own_removal_case():
    """Brazilian, hard hands, no clock (soak 17000644, cut): white's b2-a3, then white takes his own g1 off
    (own-piece-removed); a neighbour phantom closes h2 12 ms before black's lift of h4 is confirmed and opens 100 ms
    after closing; black's h4-g3 lands under a slow magnet, then white's a3xc5."""
    return _soak_case("brazilian", 35, 15, 17000644, False, ["own-piece-removed@12", "two-moves@4"], 13)


def test_phantom_on_the_square_a_second_move_lands_on_waits_for_its_opening_brazilian_no_clock():
    """At black's lift the board (-b2 +a3 -g1 +h2) shows white's b2-a3 and g1-h2: read at once as a second move
    (two-moves, capture-not-taken) and h2's opening as black's wrong removal. A reading whose move lands on a square
    closed less than ``touch_s`` before the lift waits for the next change when the board without that square
    shows the mover's move too: h2 opening within ``touch_s`` was a phantom, and b2-a3 with g1 off is read."""
    s, phantom = _phantom_beside_an_own_removal_case()
    assert s.expected_moves[13:] == ["b2-a3", "h4-g3", "a3xc5"] and phantom.squares == (28,)
    assert phantom.until - phantom.t < Settings().touch_s
    assert_reads(s)
    engine = read(s)
    assert engine.sensor_faults == [] and [(o.type, o.number) for o in engine.observations
                                           if o.type == "wrong-piece-removed"] == []


def _phantom_kept(s, phantom, delay: float = 0.0) -> Reconstructor:
    """A case's frames with the phantom's square staying closed from its closing (a piece set down there), and every
    event from the phantom's opening on ``delay`` later (the opponent holding the piece he lifted)."""
    square, = phantom.squares
    events = [replace(ev, occupied=ev.occupied | {square}) if isinstance(ev, Frame) and ev.t >= phantom.t else ev
              for ev in s.events]
    events = [replace(ev, t=round(ev.t + delay, 4)) if ev.t >= phantom.until else ev for ev in events]
    return _read_events(s, events)


@pytest.mark.parametrize("delay", [0.0, 3.0])
def test_closing_before_the_reply_that_stays_is_a_second_move_brazilian_no_clock(delay):
    """The same frames with h2 staying closed (white's g1-h2 set down just before black's lift): the next change,
    black's landing (or, with black holding h4 for 3 s, the board still for ``stable_s``), finds it closed, and the
    turn is read as at the lift, as before the wait was added: white's second move, a capture not taken."""
    s, phantom = _phantom_beside_an_own_removal_case()
    engine = _phantom_kept(s, phantom, delay)
    assert [m.move_text for m in engine.moves][13:] == ["b2-a3", "g1-h2", "h4-g3", "a3xc5"]
    assert [(i.type, i.number, i.side) for i in engine.irregularities if i.number == 7] == [
        ("two-moves", 7, "white"), ("capture-not-taken", 7, "white")]


def _phantom_on_a_captured_square_case():
    """Brazilian, hard hands, no clock (soak 19000402, cut): white's flown capture d4xb6 takes c7, e7 and e5; white
    takes c7 off, then e7 and e5 at once; a neighbour phantom closes c7 13 ms before black's lift of a7 is confirmed
    and opens 50 ms after closing; then black's a7xc5."""
    return _soak_case("brazilian", 76, 35, 19000402, False, [], 33)


def test_phantom_on_a_captured_piece_square_waits_for_its_opening_brazilian_no_clock():
    """White's lift of e7 (a captured piece, maybe black's start) stayed off, so black's lift of a7 commits white's
    capture at once, and with c7 closed again it read c7 standing (capture-not-removed, opponent-piece-touched) and
    its opening as black's own-piece-removed. A reading that leaves a captured piece standing on a square closed less
    than ``touch_s`` before the lift waits for the next change as a landing there does: c7 opening within ``touch_s``
    was a phantom, and d4xb6 is read complete."""
    s, phantom = _phantom_on_a_captured_square_case()
    assert s.expected_moves[32:34] == ["d4xb6", "a7xc5"] and phantom.squares == (6,)
    assert s.expected_irregularities == []
    assert_reads(s)
    assert read(s).sensor_faults == []


@pytest.mark.parametrize("delay", [0.0, 3.0])
def test_captured_piece_put_back_before_the_reply_stands_brazilian_no_clock(delay):
    """The same frames with c7 staying closed (white's hand put the captured piece back just before black's lift;
    with ``delay``, black holding a7 3 s on a still board): the turn is read as at the lift, as before the wait was
    added: white's capture with c7 standing."""
    s, phantom = _phantom_on_a_captured_square_case()
    engine = _phantom_kept(s, phantom, delay)
    assert [m.move_text for m in engine.moves][32:34] == ["d4xb6", "a7xc5"]
    assert [(i.type, i.number, i.side) for i in engine.irregularities if i.number == 17] == [
        ("capture-not-removed", 17, "white"), ("opponent-piece-touched", 17, "white")]


def _phantom_after_a_second_move_case():
    """Brazilian, hard hands, clock (soak 19000255, cut): black's c7-d6, his press, then his e3-f2 (two-moves); a
    neighbour phantom closes b6 5 ms before white's lift of b8 is confirmed and opens 114 ms after closing; then
    white's king b8xe5 (its landing under a slow magnet) and black's f4xd6."""
    return _soak_case("brazilian", 113, 46, 19000255, True, ["two-moves@43"], 44)


def test_phantom_before_the_lift_after_a_second_move_is_left_out_brazilian_with_clock():
    """White's lift of b8 finds the board showing a move of black after his press: read as black's second move only
    if it explains the board exactly, which b6's closing spoiled (then the position was lost). A square closed less
    than ``touch_s`` before that lift that no piece stood on is left out: e3-f2 is read, then b8xe5."""
    s, phantom = _phantom_after_a_second_move_case()
    assert s.expected_moves[42:] == ["a7-b8", "c7-d6", "e3-f2", "b8xe5", "f4xd6"] and phantom.squares == (9,)
    assert_reads(s)
    assert read(s).sensor_faults == []


def test_closing_before_the_lift_after_a_second_move_that_stays_is_a_stuck_switch_brazilian_with_clock():
    """The same frames with b6 staying closed (no piece can come there: a switch sticking closed): e3-f2 is read
    without it as before, the moves after it too, and b6 is named stuck closed (before: position-lost)."""
    s, phantom = _phantom_after_a_second_move_case()
    engine = _phantom_kept(s, phantom)
    assert [m.move_text for m in engine.moves] == s.expected_moves
    assert [(i.type, i.number, i.side) for i in engine.irregularities] == [("two-moves", 22, "black")]
    assert [(f.square, f.kind) for f in engine.sensor_faults] == [(9, "stuck-closed")]
