"""Soak regressions of the soak19 round (bench/soak_transcribe.py, issue 9): the misses listed after the
2026-12-07 merge (docs/reconstruction.md, "Real-board soak"), each the soak's failing session rebuilt, with the
case where the other reading must stand."""

from __future__ import annotations

import random

from rig.board import Board
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
