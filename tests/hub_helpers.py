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


def final_entries(game) -> int:
    """How many of the hub's standing move entries of ``game`` are final (docs/hub.md, "The relay feed"):
    all once the game has ended or the board's run closed, else all but a last one that left the board
    irregular (not a legal move whose board is its legal result: it may still be put right)."""
    from rig.board import Board
    from rig.errors import RigError

    standing = [m for m in game.standing() if m.get("fen_after")]
    if game.result != "*" or game.closed or not standing:
        return len(standing)
    last = standing[-1]
    before = standing[-2]["fen_after"] if len(standing) > 1 else game.start_fen
    setups = [before] + [fen for after, fen in game.restored if after == len(standing) - 1]
    for fen in setups:
        board = Board(game.variant, fen)
        try:
            board.push(board.parse_move(str(last.get("move"))))
        except (RigError, ValueError):
            continue
        if last.get("legal") and board.key() == Board(game.variant, last["fen_after"]).key():
            return len(standing)
    return len(standing) - 1


def feed_lag_errors(hub, rnd: int, snap) -> list[str]:
    """At one poll: every relayed game has reached the position after the board's last final move entry
    (the feed is never more than the non-final entries behind the hall), and holds nothing beyond it."""
    errors = []
    for game_snap, board in zip(snap.games, hub.feeds.get(rnd, {})):
        game = hub.games.get((rnd, board))
        if game is not None and game.variant == hub.feeds[rnd][board].variant:
            errors += game_lag_errors(game, game_snap)
    return errors


def game_lag_errors(game, game_snap) -> list[str]:
    """:func:`feed_lag_errors` for one game and its game in the feed (a relay checker's SnapshotGame)."""
    from rig.board import Board

    if game_snap.fen is None:
        return []
    standing = [m for m in game.standing() if m.get("fen_after")]
    n = final_entries(game)
    want = standing[n - 1]["fen_after"] if n else (game.start_fen or Board(game.variant).fen())
    if Board(game.variant, game_snap.fen).key() != Board(game.variant, want).key():
        return [f"{game.board}: the feed is at {game_snap.fen}, the hall's last final entry "
                f"({n} of {len(standing)}) at {want}"]
    return []
