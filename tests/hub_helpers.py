"""Helpers of the hub tests: a board's messages made from a recorded game, a hub on an in-memory database."""

from __future__ import annotations

import os

from rig.hub.messages import Messages
from rig.hub.protocol import Topics, encode
from rig.hub.service import Hub
from rig.hub.store import Store
from rig.reconstruct import Reconstructor
from rig.simulate import simulate_game
from rig.simulate.games import load_pdn_game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = os.path.join(ROOT, "rig", "data", "demo")
GAMES = {"international": os.path.join(DEMO, "international.pdn"), "brazilian": os.path.join(DEMO, "brazilian.pdn"),
         "portuguese": os.path.join(DEMO, "portuguese.pdn")}


def board_messages(variant: str, board: str, *, rnd: int = 1, tournament: str = "t", session: str = "s1",
                   plies: int | None = None, inject=(), seed: int = 3, closed: bool = True):
    """(the engine after the game, the numbered ``msg`` payloads) of a simulated real game, as a board
    publishes them: a snapshot at the start, one message per output, a closing snapshot."""
    src = load_pdn_game(GAMES[variant], 1, variant)
    moves = src.moves[:plies] if plies else src.moves
    session_ = simulate_game(src.variant, moves, fen=src.fen, seed=seed, tags=src.tags, inject=inject)
    engine = Reconstructor(session_.header)
    m = Messages(board, tournament, rnd, session)
    msgs = [m.snapshot(engine, 0.0)]
    for ev in session_.events:
        msgs += m.from_outputs(engine, engine.feed(ev))
    msgs += m.from_outputs(engine, engine.finish())
    if closed:
        final = m.snapshot(engine, None)
        final["closed"] = True
        msgs.append(final)
    for i, msg in enumerate(msgs, 1):
        msg["seq"] = i
    return engine, msgs


def topic(tournament: str, board: str, leaf: str = "msg") -> str:
    return getattr(Topics(tournament, board), leaf)


def new_hub(tournament: str = "t", pairings=(), db: str = ":memory:") -> Hub:
    return Hub(tournament, Store(db), pairings=list(pairings))


def deliver(hub: Hub, tournament: str, board: str, msgs, leaf: str = "msg") -> None:
    hub.process([("mqtt", topic(tournament, board, leaf), encode(x)) for x in msgs])


def standing(engine) -> list[str]:
    return [mv.move_text for mv in engine.moves if not mv.withdrawn]
