"""The shipped sessions of real games (tests/data/sessions/README.md) reconstruct to the games' exact moves."""

from __future__ import annotations

import os

import pytest

from rig.reconstruct import Reconstructor
from rig.session import read_session
from rig.simulate.games import load_pdn_game
from simulate_helpers import DATA, engine_irregularities, texts_of

SESSIONS = {
    "portuguese_deodato_carvalho.jsonl": ("portuguese/damasedamas_2008_deodato_carvalho.pdn", 1, None, []),
    "brazilian_santos_lailo_noclock.jsonl": ("brazilian/luizlailo_olinda.pdn", 1, None, []),
    "international_ndjofang_heusdens_30.jsonl": ("international/wk2003.pdn", 1, 30, [
        {"type": "capture-not-removed", "number": 6, "side": "black", "status": "corrected"},
        {"type": "touched-piece-not-moved", "number": 9, "side": "white", "status": "accepted"}]),
    "late_press_international.jsonl": ("international/wk2003.pdn", 1, None, []),
}


def test_every_shipped_session_is_listed():
    assert sorted(n for n in os.listdir(os.path.join(DATA, "sessions")) if n.endswith(".jsonl")) == sorted(SESSIONS)


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_shipped_session_reconstructs_to_the_real_game(name):
    pdn, index, plies, irregularities = SESSIONS[name]
    header, events = read_session(os.path.join(DATA, "sessions", name))
    game = load_pdn_game(os.path.join(DATA, pdn), index, header.variant)
    assert header.tags["White"] == game.tags["White"] and header.tags["Black"] == game.tags["Black"]
    engine = Reconstructor(header)
    for ev in events:
        engine.feed(ev)
    engine.finish()
    assert [m.move_text for m in engine.moves] == texts_of(header.variant, game.moves[:plies], game.fen)
    assert engine_irregularities(engine) == irregularities


#: the shipped sessions the simulator made (tests/data/sessions/README.md), with how they were made
MADE = {
    "portuguese_deodato_carvalho.jsonl": ("portuguese/damasedamas_2008_deodato_carvalho.pdn", None, True, []),
    "brazilian_santos_lailo_noclock.jsonl": ("brazilian/luizlailo_olinda.pdn", None, False, []),
    "international_ndjofang_heusdens_30.jsonl": ("international/wk2003.pdn", 30, True,
                                                 ["capture-not-removed@11:corrected", "touched-piece-not-moved@16"]),
}


@pytest.mark.parametrize("name", sorted(MADE))
def test_shipped_session_is_reproduced_byte_for_byte_by_the_simulator(name):
    """The default human model still makes exactly these sessions (the real-board behaviours are off)."""
    from rig.simulate import simulate_game

    pdn, plies, clock, inject = MADE[name]
    game = load_pdn_game(os.path.join(DATA, pdn), 1, pdn.split("/")[0])
    s = simulate_game(game.variant, game.moves[:plies], fen=game.fen, seed=1, clock=clock, inject=inject,
                      tags=game.tags)
    with open(os.path.join(DATA, "sessions", name), encoding="utf-8") as fh:
        assert s.to_jsonl() == fh.read()
