"""Where simulated games come from: a PDN file (real games) or random legal play."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from rig.errors import RigError
from rig.move import Move
from rig.pdn import read_file
from rig.simulate.game import random_game
from rig.variants import Variant

__all__ = ["GameSource", "GameSourceError", "load_pdn_game", "load_pdn_games", "load_pdn_folder", "load_random_game",
           "CARRIED_TAGS"]

#: PDN tags carried into the session header (the result and set-up come from the board itself)
CARRIED_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "TimeControl")


class GameSourceError(RigError, ValueError):
    """A game that cannot be simulated: unreadable file, no such game, a move that does not replay."""


@dataclass
class GameSource:
    """A game to simulate: variant, start position, moves, tags, and where it came from."""

    variant: Variant
    moves: list[Move]
    fen: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    result: str = "*"
    origin: str = ""


def load_pdn_game(path: str, index: int = 1, default_variant: str | Variant = "international") -> GameSource:
    """Game number ``index`` (1-based) of a PDN file, replayed through the rules core. A game with a
    ``/FEN/`` setup in its moves is taken up to the setup."""
    return _game_source(path, _read(path, default_variant), index)


def load_pdn_games(path: str, default_variant: str | Variant = "international") -> list[GameSource]:
    """Every game of a PDN file, in order (each as :func:`load_pdn_game` gives it)."""
    result = _read(path, default_variant)
    return [_game_source(path, result, i) for i in range(1, result.game_count + 1)]


def load_pdn_folder(folder: str, default_variant: str | Variant = "international") -> list[GameSource]:
    """Every game of every ``*.pdn`` file of ``folder``, the files in name order (the corpus of real games the
    tests and the soak replay)."""
    try:
        names = sorted(os.listdir(folder))
    except OSError as exc:
        raise GameSourceError(f"{folder}: cannot list: {exc.strerror or exc}") from None
    return [game for name in names if name.endswith(".pdn")
            for game in load_pdn_games(os.path.join(folder, name), default_variant)]


def _read(path: str, default_variant: str | Variant):
    try:
        return read_file(path, default_variant)
    except OSError as exc:
        raise GameSourceError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _game_source(path: str, result, index: int) -> GameSource:
    games = {g.index: g for g in result.games}
    if not 1 <= index <= result.game_count:
        raise GameSourceError(f"{path}: no game {index} (the file has {result.game_count})")
    errors = result.errors_of(index - 1)
    if errors or index - 1 not in games:
        e = errors[0]
        raise GameSourceError(f"{path}: game {index}: line {e.line}, column {e.column}: {e.message}")
    game = games[index - 1]
    replay = game.replay()
    if replay.error is not None:
        raise GameSourceError(f"{path}: game {index}: {replay.error}")
    moves: list[Move] = []
    for m in replay.moves:
        if m is None:
            break
        moves.append(m)
    tags = {k: v for k, v in game.tags.items() if k in CARRIED_TAGS}
    return GameSource(game.variant, moves, game.initial_fen, tags, game.result,
                      f"{path} game {index}")


def load_random_game(variant: Variant, plies: int, seed: int | str = 0, fen: str | None = None) -> GameSource:
    """Random legal play of up to ``plies`` moves (seeded)."""
    moves = random_game(variant, plies, seed, fen)
    return GameSource(variant, moves, fen, {"Event": "Random legal play", "Round": str(seed)}, "*",
                      f"random {variant.name} game, {plies} plies, seed {seed}")
