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
