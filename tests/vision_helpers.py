"""Shared helpers for the camera tests: the bench's own boards and games (bench/bench_vision.py), so that a test
replays exactly the pictures the bench reads."""

from __future__ import annotations

import os
from functools import lru_cache

from calibration.camera import calibrate_camera
from rig.simulate.games import load_pdn_game
from rig.variants import get_variant
from vision.config import CameraConfig
from vision.render import SIDES, render
from vision.testset import Picture, calibration_pictures, game_pictures

from tests.bench_helpers import load_bench

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)


@lru_cache(maxsize=None)
def _bench_vision():
    return load_bench("bench_vision")


def bench_game(seed: int, g: int, wanted: set[int], plies: int = 16
               ) -> tuple[CameraConfig, dict[int, Picture]]:
    """Game ``g`` of the bench's ``seed`` (its board ``g``'s camera, calibrated from that board's empty and start
    pictures): the camera's config and the pictures ``wanted`` of the game (index -> picture)."""
    bench = _bench_vision()
    variant = bench.VARIANTS[g % 3]
    v = get_variant(variant)
    empty, start = calibration_pictures(v, seed * 1000 + g, markers=g % 2 == 0, side=SIDES[g % 4])
    config = calibrate_camera(v, render(empty), render(start)).config
    path, index = bench.GAMES[variant]
    game = load_pdn_game(os.path.join(ROOT, path), index)
    pictures = {}
    for i, pic in enumerate(game_pictures(empty, game.moves[:plies], fen=game.fen, seed=seed + g)):
        if i in wanted:
            pictures[i] = pic
        if i >= max(wanted):
            break
    return config, pictures
