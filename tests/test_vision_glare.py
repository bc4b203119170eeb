"""A black man under glare on a dim board (bench_vision, issue 12): the light's gain is a factor, glare adds
white it does not take off, and the man's top turned a grey nearer a white piece's than a black one's. The
bench's own pictures that were read wrong, a white man under the same glare, and the fit that measures glare."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from test_vision_hands_missed import _bench_game

from vision.colour import AddedWhite
from vision.render import render


def _read_right(seed: int, g: int, pictures: dict[int, int], square: int):
    """The pictures of game ``g`` of ``seed`` (index -> light level, as rendered) read with every piece's colour
    right, ``square`` a black man under glare; the same pictures with a white man there read white."""
    _, clf, pics = _bench_game(seed, g, set(pictures))
    for i, level in pictures.items():
        pic = pics[i]
        assert pic.scene.light.glare is not None and abs(pic.scene.light.level - level) < 0.01
        assert not pic.occluded and pic.pieces[square] == "b"
        clf.edge.forget()  # pictures a dozen apart, not a sequence: the edge watch compares pictures in order
        reading = clf.read(render(pic.scene))
        assert reading.squares.get(square) == "b", f"picture {i}: square {square} read {reading.squares.get(square)}"
        assert not reading.occluded
        assert {s: c.lower() for s, c in reading.squares.items()} == {s: c.lower() for s, c in pic.pieces.items()}
        rc = {sq: rc for rc, sq in clf.square_at.items()}[square]
        assert clf._glare[rc] > 0, "no glare measured next to the man"
        clf.edge.forget()
        white = clf.read(render(replace(pic.scene, pieces={**pic.scene.pieces, square: "w"})))
        assert white.squares.get(square) == "w", f"picture {i}: a white man under glare read {white.squares.get(square)}"


def test_black_man_under_glare_dim_board_brazilian_white_at_the_top():
    """Seed 5, game 2 (Brazilian, white at the top of the picture): square 2 was read white in 14 hand-free
    pictures at light level 0.6-0.67, glare of 53 grey levels beside it."""
    _read_right(5, 2, {82: 0.633, 94: 0.6}, 2)


def test_black_man_under_glare_dim_board_portuguese_white_at_the_bottom():
    """Seed 4, game 0 (Portuguese, white at the bottom): square 22 read white in picture 20 (level 0.68)."""
    _read_right(4, 0, {20: 0.684}, 22)


def test_added_white_separates_glare_from_light():
    ref = np.array([[114.0, 139.0, 155.0], [60.0, 90.0, 140.0]], np.float32)
    obs = ref * np.array([[0.6], [1.3]], np.float32) + np.array([[40.0], [0.0]], np.float32)
    assert np.allclose(AddedWhite(ref)(obs), [40.0, 0.0], atol=1e-3)
    grey = np.full((1, 3), 120.0, np.float32)
    assert AddedWhite(grey)(grey * 0.5 + 30)[0] == 0.0  # a grey reference: factor and white cannot be told apart
