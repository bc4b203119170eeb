"""Shared helpers for the camera tests: the bench's own boards and games (bench/bench_vision.py), so that a test
replays exactly the pictures the bench reads."""

from __future__ import annotations

import os
import random
from contextlib import contextmanager
from dataclasses import replace
from functools import lru_cache

from calibration.camera import calibrate_camera
from rig.simulate.games import load_pdn_game
from rig.variants import get_variant
from vision.config import CameraConfig
from vision.render import SIDES, render
from vision.testset import Picture, calibration_pictures, game_pictures, position_scene

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


def bench_positions(seed: int, board: int, positions) -> tuple[object, object, CameraConfig, dict]:
    """Board ``board`` of the bench's ``seed`` (bench_vision.py), calibrated from its empty and start pictures, and
    its still positions ``positions`` drawn as the bench draws them: (variant, empty scene, config,
    {position: (pieces, picture)})."""
    bench = _bench_vision()
    variant = bench.VARIANTS[board % 3]
    v = get_variant(variant)
    bseed = seed * 1000 + board
    empty, start = calibration_pictures(v, bseed, markers=board % 2 == 0, side=SIDES[board % 4])
    config = calibrate_camera(v, render(empty), render(start)).config
    rng = random.Random(bseed)
    wanted = set(positions)
    pictures = {}
    for k in range(max(wanted) + 1):
        pieces = bench.random_position(variant, rng)
        if k in wanted:
            pictures[k] = (pieces, render(position_scene(empty, pieces, bseed * 100 + k)))
    return v, empty, config, pictures


def reads_without(clf, image, look: str):
    """(the reading with every look, the reading without the classifier's look ``look``, e.g. ``"fine_look"``) of
    one picture, the edge watch forgotten before each (no picture before it)."""
    kept = getattr(clf, look)
    clf.edge.forget()
    both = clf.read(image)
    setattr(clf, look, None)
    try:
        clf.edge.forget()
        before = clf.read(image)
    finally:
        setattr(clf, look, kept)
    return both, before


def white_near_doubt(clf, image, pieces: dict[int, str]) -> tuple[list[int], object]:
    """The white pieces on the near look's squares, clear of glare (where it is not asked), that the looks before
    it leave "king unknown" on ``image``; and that reading without the near look."""
    _, before = reads_without(clf, image, "near_look")
    at = {sq: rc for rc, sq in clf.square_at.items()}
    white = clf._glare_field.field(clf._glare)
    doubt = [s for s in before.unknown if pieces[s] in "wW" and clf.near_look.asks(at[s])
             and not clf._glare_field.reaches(white, clf.stacks.boxes([at[s]])[0])]
    return doubt, before


@contextmanager
def first_look_counting_the_frame(clf):
    """The classifier's first look counting the frame's pixels of a piece's colour as "no piece" on every square, as
    before vision25 (the frame look's squares then fitted by the first reader, not by the frame look's)."""
    read = clf.stacks.read
    clf.stacks.read = lambda *a, **k: read(*a, **{**k, "first": None})
    try:
        yield
    finally:
        del clf.stacks.read


def look_settled(both, before, pieces: dict[int, str], colours: str = "wWbB", scene: int = 0) -> list[int]:
    """The squares a look settled in one picture (``both`` read with it, ``before`` without it), checked: the same
    squares and hand flag, no reading the earlier looks gave changed, and each piece it settled one of ``colours``
    and read right (its claim the piece standing there)."""
    assert both.squares.keys() == before.squares.keys() and both.occluded == before.occluded
    assert both.unknown <= before.unknown
    settled = []
    for s in before.squares:
        if s not in before.unknown:
            assert both.squares[s] == before.squares[s] and both.stack[s] == before.stack[s]
        elif s not in both.unknown:
            assert pieces[s] in colours and both.squares[s] == pieces[s], (scene, s, pieces[s], both.stack[s])
            settled.append(s)
    return settled


def read_with_fits(clf, image, look: str, values: tuple[float, ...]) -> tuple[frozenset, dict]:
    """The reading of ``image`` with ``look``'s fits forced to ``values`` in turn, again and again (their quality
    perfect): the squares left unknown and the squares read."""
    import itertools

    import numpy as np

    reader = getattr(clf, look).reader
    fits = reader.fits
    calls = itertools.cycle(values)
    reader.fits = lambda padded, grey, pcs, static=None, black=None: (np.full(len(pcs), next(calls)),
                                                                      np.ones(len(pcs)))
    try:
        both, _ = reads_without(clf, image, look)
    finally:
        reader.fits = fits
    return both.unknown, both.squares


def assert_look_settles_by_its_band(clf, look: str, image, before, square: int, black: bool) -> None:
    """A look (``look``, its ``reader`` a :class:`vision.kings.StackReader` with its own band) asked about the piece
    on ``square`` that the looks before it leave unknown (``before``: the reading without it), its fits forced:
    in the middle of its band, no claim; past the band on the side the first fit leaned to, the claim; past it on
    the other side, no claim (the looks disagree)."""
    from vision.kings import band

    reader = getattr(clf, look).reader
    rc = next(rc for rc, sq in clf.square_at.items() if sq == square)

    def told(z: float) -> tuple[frozenset, dict]:
        """The reading with every fit of the look set to ``z`` (its quality perfect)."""
        return read_with_fits(clf, image, look, (z,))

    lo, hi = reader.band_at(rc, black)
    unknown, _ = told((lo + hi) / 2)
    assert square in unknown
    first_king = before.stack[square] >= sum(band(clf.stacks.models[rc].shift, black)) / 2
    unknown, squares = told(hi + 0.1 if first_king else lo - 0.1)
    king, man = ("B", "b") if black else ("W", "w")
    assert square not in unknown and squares[square] == (king if first_king else man)
    unknown, _ = told(lo - 0.1 if first_king else hi + 0.1)
    assert square in unknown


def assert_own_lean_look_settles_by_its_band(clf, look: str, image, square: int, black: bool) -> None:
    """A look whose side is its own fit of the first view against its own band's middle (``Look.own_lean``:
    :mod:`vision.frame_look`, :mod:`vision.near_look`), asked about the piece on ``square``, its fits forced (it fits
    the second look's view first, then the first view): within its band, no claim; both fits on one side of its
    band's middle, the second look's clear of the band, the claim; its fit of the first view on the other side, no
    claim (the looks disagree)."""
    reader = getattr(clf, look).reader
    rc = next(rc for rc, sq in clf.square_at.items() if sq == square)

    def told(shaded: float, first: float) -> tuple[frozenset, dict]:
        """The reading with the look's fit of the second look's view set to ``shaded`` and of the first view to
        ``first`` (their quality perfect)."""
        return read_with_fits(clf, image, look, (shaded, first))

    lo, hi = reader.band_at(rc, black)
    mid = (lo + hi) / 2
    assert square in told(mid, mid)[0]  # within the band
    king, man = ("B", "b") if black else ("W", "w")
    for is_king, z in ((True, hi + 0.1), (False, lo - 0.1)):
        unknown, squares = told(z, z)
        assert square not in unknown and squares[square] == (king if is_king else man)
        assert square in told(z, mid + (-0.05 if is_king else 0.05))[0]  # the first view leaned the other way


def dim_black_scenes(v, empty, squares: list[int], seed: int, count: int, blacks: int, kinds: str, whites: int):
    """Scenes of ``blacks`` black pieces (drawn from ``kinds``) on ``squares`` and ``whites`` white pieces elsewhere,
    in dim light (0.65), JPEG 70, no glare (where the earlier looks leave black pieces "king unknown"): each scene's
    index, pieces and picture."""
    rng = random.Random(seed)
    for k in range(count):
        pieces = {s: rng.choice(kinds) for s in rng.sample(squares, min(len(squares), blacks))}
        rest = [s for s in range(1, v.squares + 1) if s not in pieces]
        pieces.update({s: rng.choice("wW") for s in rng.sample(rest, whites)})
        scene = position_scene(empty, pieces, seed * 100 + k)
        scene = replace(scene, light=replace(scene.light, level=0.65, noise=3.0, jpeg=70, glare=None))
        yield k, pieces, render(scene)
