"""A simulated reed-switch matrix plays a real game: the hands' occupancy drives the simulated matrix, the
project's scanner reads it on mock pins, and the reconstruction engine gives the game's exact moves."""

from __future__ import annotations

import pytest

from rig.simulate import HumanModel, simulate_game
from sensors.simulation import through_matrix
from simulate_helpers import VARIANTS, engine_irregularities, real_games, run_engine, texts_of


@pytest.mark.parametrize("variant", VARIANTS)
def test_real_game_through_matrix_and_scanner(variant):
    game = real_games(variant)[0]
    moves = game.moves[:40]
    for clock in (True, False):
        direct = simulate_game(variant, moves, fen=game.fen, seed=7, clock=clock,
                               model=HumanModel(bounce_p=0.0), tags=game.tags)
        session = through_matrix(direct, seed=3)
        assert session.header.extra["simulator"]["matrix"] is True
        assert session.frames[-1].occupied == direct.frames[-1].occupied
        engine = run_engine(session)
        assert [m.move_text for m in engine.moves] == texts_of(variant, moves, game.fen)
        assert engine_irregularities(engine) == []


def test_fault_is_passed_to_the_simulated_matrix():
    game = real_games("portuguese")[0]
    direct = simulate_game("portuguese", game.moves[:6], seed=1, model=HumanModel(bounce_p=0.0))
    clean = through_matrix(direct)
    faulty = through_matrix(direct, faults=["dead:13"])
    assert faulty.header.extra["simulator"]["faults"] == ["dead:13"]
    # 10-13 is the first move: a dead switch on 13 never sees the piece arrive
    assert any(13 in f.occupied for f in clean.frames)
    assert not any(13 in f.occupied for f in faulty.frames)
