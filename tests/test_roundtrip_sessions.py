"""Hundreds of simulated sessions per variant through the reconstruction engine: with noise on (bounce, king
slides, landing touch-downs, random removal orders, quick and slow replies, clock and no clock), the engine's
moves equal the game exactly, nothing irregular is reported, and the PDN it writes replays to the same moves.

Material: real games of tests/data (tests/data/SOURCES.md), each with several seeds, and random legal games of
random length. Counts per variant: ``RANDOM_SESSIONS`` random, and at least ``REAL_SESSIONS`` from real games
(every game, with as many seeds as it takes; at least ``REAL_SEEDS`` each).
"""

from __future__ import annotations

import random
import time

import pytest

from rig.pdn import read_games
from rig.simulate import HumanModel, random_game, simulate_game
from simulate_helpers import VARIANTS, engine_irregularities, real_games, run_engine, texts_of

RANDOM_SESSIONS = 200
REAL_SEEDS = 4
REAL_SESSIONS = 40
PRESETS = (HumanModel(), HumanModel.noisy(), HumanModel.calm(), HumanModel(quick_reply_p=0.8))


def check(session, label: str) -> None:
    engine = run_engine(session)
    got = [m.move_text for m in engine.moves]
    assert got == session.expected_moves, f"{label}: first difference at move {_first_diff(got, session)}"
    assert engine_irregularities(engine) == [], label
    parsed = read_games(engine.pdn(), session.header.variant)
    assert parsed.ok and len(parsed.games) == 1, (label, parsed.errors)
    replay = parsed.games[0].replay()
    assert replay.ok, (label, replay.error)
    assert texts_of(session.header.variant, replay.moves, session.header.fen) == session.expected_moves, label


def _first_diff(got, session) -> str:
    exp = session.expected_moves
    k = next((i for i, (a, b) in enumerate(zip(got, exp)) if a != b), min(len(got), len(exp)))
    return f"{k}: engine {got[k:k + 2]} vs game {exp[k:k + 2]}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_round_trip(variant):
    rng = random.Random(f"roundtrip:{variant}")
    started = time.perf_counter()
    for i in range(RANDOM_SESSIONS):
        moves = random_game(variant, rng.randint(2, 36), f"{variant}:{i}")
        model = PRESETS[i % len(PRESETS)]
        clock = rng.random() < 0.5
        session = simulate_game(variant, moves, seed=i, clock=clock, model=model)
        check(session, f"{variant} random session {i} (clock={clock}, preset {i % len(PRESETS)})")
    assert time.perf_counter() - started < 60


@pytest.mark.parametrize("variant", VARIANTS)
def test_real_games_round_trip(variant):
    games = real_games(variant)
    assert games, f"no real {variant} games in tests/data"
    seeds = max(REAL_SEEDS, -(-REAL_SESSIONS // len(games)))
    for game in games:
        for seed in range(seeds):
            session = simulate_game(game.variant, game.moves, fen=game.fen, seed=seed, clock=seed % 2 == 0,
                                    model=PRESETS[seed % len(PRESETS)], tags=game.tags)
            assert session.expected_moves == texts_of(variant, game.moves, game.fen)
            check(session, f"{game.origin} seed {seed}")
