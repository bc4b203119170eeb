"""The project's own test set: rendered picture sequences of games, made at test or benchmark time from a
seed (never stored).

:func:`game_pictures` plays a game's moves with hands: the hand reaches for the piece, lifts it, carries
it along its path, puts it down (a promoted man is put down crowned, two stacked), leaves, then removes
the captured pieces one by one (now and then with a hand-free picture between two removals); between moves
the board is seen hand-free a few times while the light drifts. A pause inside a move stays under the
reconstruction engine's ``stable_s`` (2 s) at the slowest rate the tests play pictures at (2 a second): a
player removing captured pieces does not leave the board still that long (the simulator's human model,
``rig.simulate.model``, takes 0.15-0.6 s between removals), else the engine rightly takes the move as
finished with a captured piece standing (``capture-not-removed``). Every picture comes with the truth:
the pieces on the board, and how much of the playable board a hand hides in it (from the renderer's
geometry: a hand over the frame or the light squares only hides nothing playable).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Iterator

from rig.board import Board
from rig.move import Move
from rig.variants import Variant
from vision.render import Hand, Scene, SKINS, SLEEVES, drift, hidden_area, random_scene

__all__ = ["Picture", "calibration_pictures", "game_pictures", "position_scene", "write_pictures"]


@dataclass(frozen=True)
class Picture:
    scene: Scene
    pieces: dict[int, str]     # what stands on the board
    ply: int                   # moves made so far (complete or not)

    @cached_property
    def hidden(self) -> float:
        """Squares of the playable board (dark squares and the pieces on them, as the camera sees them) that
        a hand, its arm or a carried piece hides in the picture (:func:`vision.render.hidden_area`)."""
        return hidden_area(self.scene)

    @property
    def occluded(self) -> bool:
        """A hand hides part of the playable board (a piece's edge is enough): the camera must flag it."""
        return self.hidden > 0

    @property
    def hand_in_view(self) -> bool:
        """A hand is in the picture, over the board or not (over the frame or light squares only)."""
        return bool(self.scene.hands)


def _centre(variant, square: int) -> tuple[float, float]:
    f, r = variant.coords(square)
    return f + 0.5, r + 0.5


def calibration_pictures(variant: Variant, seed: int, *, markers: bool | None = None, side: str | None = None,
                         fen: str | None = None) -> tuple[Scene, Scene]:
    """The empty board and the start position, seen by the same camera in even light."""
    base = random_scene(variant, {}, seed, markers=markers, side=side, hard=False)
    start = Board(variant, fen).piece_codes()
    return base, replace(base, pieces=start, seed=seed + 1)


def position_scene(base: Scene, pieces: dict[int, str], seed: int, *, hard: bool = True) -> Scene:
    """``base``'s camera and board with these pieces, placed off-centre, in fresh (hard) light."""
    other = random_scene(base.variant, pieces, seed, markers=base.markers, side=base.camera.side, hard=hard)
    return replace(base, pieces=dict(pieces), offsets=other.offsets, light=other.light, seed=seed)


def game_pictures(base: Scene, moves: list[Move], *, fen: str | None = None, seed: int = 0, still: int = 2,
                  hard: bool = True, tail: int = 0, pause: int | None = None) -> Iterator[Picture]:
    """Pictures of the game ``moves`` played on ``base``'s board, hands included; ``tail`` hand-free
    pictures after the last move; ``pause`` hand-free pictures between two removals of captured pieces
    (None: now and then one)."""
    v = base.variant
    rng = random.Random(seed)
    board = Board(v, fen)
    light = random_scene(base.variant, {}, seed, hard=hard).light if hard else base.light
    pieces = board.piece_codes()
    offsets = {s: (rng.uniform(-0.12, 0.12), rng.uniform(-0.12, 0.12)) for s in pieces}
    skin = {True: rng.choice(SKINS), False: rng.choice(SKINS)}
    sleeve = {True: rng.choice(SLEEVES), False: rng.choice(SLEEVES)}
    n = [0]

    def picture(hands: tuple[Hand, ...], ply: int) -> Picture:
        nonlocal light
        light = drift(light, rng)
        n[0] += 1
        scene = replace(base, pieces=dict(pieces), offsets=dict(offsets), light=light, hands=hands,
                        seed=seed * 100003 + n[0])
        return Picture(scene, dict(pieces), ply)

    def hand(at, z, white, carrying=None) -> Hand:
        return Hand(at=(at[0] + rng.uniform(-0.2, 0.2), at[1] + rng.uniform(-0.2, 0.2)), z=z,
                    side_y=-1 if white else 1, skin=skin[white], carrying=carrying, angle=rng.uniform(-0.4, 0.4),
                    sleeve=sleeve[white])

    for _ in range(still):
        yield picture((), 0)
    for ply, move in enumerate(moves, start=1):
        white = board.turn
        code = pieces[move.origin]
        o, d = _centre(v, move.origin), _centre(v, move.destination)
        yield picture((hand(((o[0] + d[0]) / 2, o[1] - (2 if white else -2)), 2.5, white),), ply)
        yield picture((hand(o, 0.8, white),), ply)
        del pieces[move.origin]
        offsets.pop(move.origin, None)
        for s in move.path[1:-1]:
            yield picture((hand(_centre(v, s), 1.0, white, code),), ply)
        landed = code.upper() if move.promotes else code
        yield picture((hand(d, 0.7, white, landed),), ply)
        pieces[move.destination] = landed
        offsets[move.destination] = (rng.uniform(-0.12, 0.12), rng.uniform(-0.12, 0.12))
        yield picture((hand(d, 2.2, white),), ply)
        board.push(move)
        for _ in range(still):
            yield picture((), ply)
        for s in rng.sample(move.captured, len(move.captured)):
            yield picture((hand(_centre(v, s), 0.8, white),), ply)
            taken = pieces.pop(s)
            offsets.pop(s, None)
            yield picture((hand(_centre(v, s), 1.8, white, taken),), ply)
            gap = (1 if rng.random() < 0.4 else 0) if pause is None else pause
            for _ in range(gap):  # a pause between two removals (see the module's docstring)
                yield picture((), ply)
        if move.captured:
            for _ in range(still):
                yield picture((), ply)
    for _ in range(tail):
        yield picture((), len(moves))


def write_pictures(directory: str, pictures, *, start: int = 0) -> list[str]:
    """Render pictures to ``directory`` as ``000123.jpg`` (the order an image sequence reads them in)."""
    import os

    import cv2

    from vision.render import render

    os.makedirs(directory, exist_ok=True)
    paths = []
    for i, pic in enumerate(pictures, start=start):
        scene = pic.scene if isinstance(pic, Picture) else pic
        path = os.path.join(directory, f"{i:06d}.jpg")
        cv2.imwrite(path, render(replace(scene, light=replace(scene.light, jpeg=0))),
                    [cv2.IMWRITE_JPEG_QUALITY, scene.light.jpeg or 95])
        paths.append(path)
    return paths
