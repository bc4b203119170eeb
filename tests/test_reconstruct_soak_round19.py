"""Soak regressions of the soak19 round (bench/soak_transcribe.py, issue 9): the misses listed after the
2026-12-07 merge (docs/reconstruction.md, "Real-board soak"), each the soak's failing session rebuilt, with the
case where the other reading must stand."""

from __future__ import annotations

import random

import pytest

from rig.board import Board
from rig.reconstruct import Settings
from rig.simulate import HumanModel, random_game, simulate_game
from rig.simulate.irregular import incomplete_stops
from rig.simulate.simulation import Simulation
from rig.variants import get_variant
from tests.test_reconstruct_soak_phantoms import _phantom_kept, _soak_case
from tests.test_reconstruct_soak_regressions import assert_reads, read

# -- 21005955: a king's capture broken off on the destination of the whole capture -----------------------------

#: white's king on 4 before 4x18 (over 13, 37, 43, 29: 4-31-48-34-18) in the soak's session 21005955
KING_CIRCUIT_FEN = "W:W14,16,K4:B6-8,11-13,17,29,37,43"


def _king_circuit_sim() -> Simulation:
    v = get_variant("international")
    return Simulation(v, Board(v, KING_CIRCUIT_FEN), random.Random(0), HumanModel(), False)


def test_capture_incomplete_never_stops_on_the_destination_of_a_longer_capture_international():
    """CODEX 004 art. 42.I: 4x18 over 13 alone leaves the board of the due 4x18 (over 13, 37, 43, 29) with three
    pieces standing (``capture-not-removed``): the hands never break the chain off there; the other stops of the
    same path stay."""
    sim = _king_circuit_sim()
    paths = sim.board.legal_moves_all_paths()
    assert {m.path[1] for m in paths} == {18, 31} and {m.destination for m in paths} == {18, 23, 26, 31}
    for path in paths:                  # the first landing (18 or 31) is the end of a legal 4x18 or 4x31
        assert incomplete_stops(sim, path) == [2, 3], path.path

def test_capture_incomplete_of_a_king_is_read_as_stopped_short_international_no_clock():
    """The soak's 21005955 (hard, no clock): the injected stop is now one no longer capture explains, and the
    engine reads ``capture-incomplete``, not ``capture-not-removed``."""
    moves = random_game("international", 115, "soak:21005955")
    s = simulate_game("international", moves, seed=21005955, clock=False, inject=["capture-incomplete@88"],
                      model=HumanModel.hard())
    turn = s.turns[88]
    assert turn.injected == "capture-incomplete@88" and turn.texts != ("4x18",)
    assert [d["type"] for d in s.expected_irregularities] == ["capture-incomplete"]
    assert_reads(s)
    assert read(s).irregularities[0].type == "capture-incomplete"


# -- 31002103: a take-back's piece put back on its square for less than a neighbour phantom can last --------------

def _transitions(s, square: int, after: float) -> list[tuple[float, bool]]:
    """The raw closings (True) and openings (False) of ``square`` after ``after``."""
    out, was = [], None
    for f in s.frames:
        now = square in f.occupied
        if was is not None and now != was and f.t > after:
            out.append((f.t, now))
        was = now
    return out


def test_take_back_put_back_outlasts_a_neighbour_phantom_brazilian_with_clock():
    """The soak's 31002103 (for_settings, touch_s 0.25, clock): black's f6-g5 pressed, taken back and played again
    (CODEX 004 art. 42.D, corrected). Put back on f6 for 0.29 s from the end of its bounce, the closing was under
    the engine's phantom bound (``touch_s + bounce_s``) and the turn read as white touching g5: a deliberate
    put-back now stays clear of that bound, and the take-back is read."""
    settings = Settings(touch_s=0.25)
    model = HumanModel.for_settings(settings)
    assert model.put_back_floor_s() > settings.touch_s + settings.bounce_s > HumanModel().put_back_floor_s()
    assert HumanModel().put_back_floor_s() < HumanModel().settle_s[0]     # (the default models draw as before)
    moves = random_game("brazilian", 38, "soak:31002103")
    s = simulate_game("brazilian", moves, seed=31002103, clock=True, inject=["move-taken-back@1:corrected"],
                      model=model)
    press = next(e.t for e in s.events if getattr(e, "event", None) == "press" and e.side == "black")
    f6 = _transitions(s, 11, press)
    stretches = [b - a for (a, closed), (b, _) in zip(f6, f6[1:]) if closed]
    assert max(stretches) >= settings.touch_s + settings.bounce_s     # (the steady closing, after its bounce)
    assert [m for m in s.expected_report_moves[:3]] == ["e3-f4", "f6-g5", "f6-g5"]
    assert_reads(s, settings)
    assert [i.type for i in read(s, settings).irregularities] == ["move-taken-back"]


# -- 21006696: a phantom on the mover's origin just before the opponent's lift -----------------------------------

def _phantom_on_the_origin_case(plies: int):
    """Brazilian, hard hands, no clock (soak 21006696, cut to ``plies``): black's d6xf4, then his own c7 taken off
    (own-piece-removed); a neighbour phantom closes d6 1 ms before white's lift of g3 is confirmed (in that lift's
    bounce) and opens 84 ms later; then white's g3xe5 and black's e7-d6."""
    return _soak_case("brazilian", 34, plies, 21006696, False, ["own-piece-removed@5"], 6)


def test_phantom_on_the_origin_of_a_capture_waits_for_its_opening_brazilian_no_clock():
    """At white's lift the board (-c7 -e5 +f4, d6 closed again) reads as c7xf4, an illegal move, and d6's opening as
    white's wrong removal with his capture stopped short. An illegal reading with the mover's origin closed less
    than ``touch_s`` before the lift waits for the next change when the board without that square shows a legal
    move: d6 opening within ``touch_s`` was a phantom, and d6xf4 with c7 off (own-piece-removed) is read."""
    s, phantom = _phantom_on_the_origin_case(8)
    assert s.expected_moves[4:] == ["c3xe5", "d6xf4", "g3xe5", "e7-d6"] and phantom.squares == (10,)
    assert phantom.until - phantom.t < Settings().touch_s
    assert_reads(s)
    assert [(i.type, i.number, i.side) for i in read(s).irregularities] == [("own-piece-removed", 3, "black")]


@pytest.mark.parametrize("delay", [0.0, 3.0])
def test_origin_closed_again_before_the_reply_that_stays_is_read_as_at_the_lift_brazilian_no_clock(delay):
    """The same frames, cut after white's capture, with d6 staying closed (a piece on d6 after all; with ``delay``,
    white holding g3 3 s on a still board): the turn is read as at the lift, as before the wait was added: black's
    c7xf4, an illegal move, then white's g3xe5 stopped short (the piece on d6 left for e5xc7)."""
    s, phantom = _phantom_on_the_origin_case(7)
    engine = _phantom_kept(s, phantom, delay)
    assert [m.move_text for m in engine.moves][4:] == ["c3xe5", "c7xf4", "g3xe5"]
    assert [(i.type, i.number, i.side) for i in engine.irregularities] == [
        ("illegal-move", 3, "black"), ("capture-incomplete", 4, "white")]


# -- 20002383: a switch freeing after a capture over its square (judged: the sensors cannot tell) -----------------

def test_switch_freeing_under_a_piece_jumped_keeps_the_turn_as_an_observation_brazilian_no_clock():
    """The soak's 20002383 (hard, no clock): black's king c1xg5 leaves f4 standing (CODEX 004 art. 42.K), white's
    g1-f2, then black's king g5 to e3 over f4 and f4 opening 332 ms after that landing. The simulator counts a
    capture stopped short (g5xe3, g5xg1 due); recovery.py reads a switch stuck under f4 since c1xg5 freeing, g5-e3
    legal: the frames do not exclude it, so neither irregularity stands; both are kept as observations (the current
    turn's too, which that path dropped)."""
    moves = random_game("brazilian", 71, "soak:20002383")
    s = simulate_game("brazilian", moves, seed=20002383, clock=False,
                      inject=["capture-not-removed@27", "capture-incomplete@29"], model=HumanModel.hard())
    assert [(d["type"], d["number"]) for d in s.expected_irregularities] == [
        ("capture-not-removed", 14), ("capture-incomplete", 15)]
    engine = read(s)
    assert [(i.type, i.number, i.status) for i in engine.irregularities] == [("capture-not-removed", 14, "dismissed")]
    assert [m.move_text for m in engine.moves if not m.withdrawn][27:30] == ["c1xg5", "g1-f2", "g5-e3"]
    assert [(f.square, f.kind) for f in engine.sensor_faults] == [(19, "stuck-closed")]
    seen = {(o.type, o.number, o.side) for o in engine.observations}
    assert {("capture-not-removed", 14, "black"), ("capture-incomplete", 15, "black")} <= seen
