"""Soak regressions of the soak19 round (bench/soak_transcribe.py, issue 9): the misses listed after the
2026-12-07 merge (docs/reconstruction.md, "Real-board soak"), each the soak's failing session rebuilt, with the
case where the other reading must stand."""

from __future__ import annotations

import random

from rig.board import Board
from rig.reconstruct import Settings
from rig.simulate import HumanModel, random_game, simulate_game
from rig.simulate.irregular import incomplete_stops
from rig.simulate.simulation import Simulation
from rig.variants import get_variant
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
