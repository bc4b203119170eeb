"""The faster routines of a picture's slow path give the answers of what they replaced (issue 12, vision22): a
pixel's greatest channel by OpenCV, a side's tint from its cells as one run, and the edge watch with each side's
cells kept together. Synthetic pictures; the bench's own pictures were compared in the same process (the
report)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from vision.occlusion import EdgeWatch, channel_max, piece_reach, side_tint

N, PX, MARGIN = 8, 32, 16


def _frame_picture(rng: np.random.Generator, level: float, hand: bool) -> np.ndarray:
    """A top-down view with its margin: a brown frame with noise, a light drift, a few clipped cells and, with
    ``hand``, a skin-coloured blob reaching in over the far edge."""
    size = N * PX + 2 * MARGIN
    img = np.empty((size, size, 3), np.float32)
    img[:] = (60.0, 95.0, 140.0)
    img *= np.float32(level)
    img += rng.normal(0, 3, img.shape).astype(np.float32)
    img[2:6, 40:60] = 255.0  # glare clipped on the frame
    if hand:
        img[0:24, 100:130] = (120.0, 150.0, 205.0)
    return np.clip(img, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("shape", [(7, 9, 3), (160, 160, 3), (352, 352, 3)])
def test_channel_max_equals_numpy_max_over_the_channels(shape):
    rng = np.random.default_rng(11)
    image = rng.integers(0, 256, shape, dtype=np.uint8)
    got = channel_max(image)
    assert got.dtype == np.uint8 and np.array_equal(got, image.max(-1))
    view = image[1:-1, 2:-2]  # a view inside a larger picture (as the board inside its margin)
    assert np.array_equal(channel_max(view), view.max(-1))


def test_side_tint_with_runs_equals_side_tint_with_indices():
    """Each side's cells as one run (a slice) or as scattered indices, in any order within a side: the same tint."""
    rng = np.random.default_rng(12)
    cells = 400
    obs = rng.uniform(20, 240, (3, cells)).astype(np.float32)
    ref = rng.uniform(20, 240, (3, cells)).astype(np.float32)
    use = rng.uniform(size=cells) > 0.2
    use[300:] = False  # the last side has too few cells to measure its tint (fewer than TINT_CELLS)
    use[300:305] = True
    runs = [slice(0, 100), slice(100, 250), slice(250, 300), slice(300, 400)]
    want = side_tint(obs, ref, use, [np.arange(s.start, s.stop) for s in runs])
    assert np.array_equal(side_tint(obs, ref, use, runs), want)
    perm = rng.permutation(cells)  # the same cells in another order, each side's indices scattered
    inv = np.argsort(perm)
    scattered = [np.sort(inv[np.arange(s.start, s.stop)]) for s in runs]
    got = side_tint(obs[:, perm], ref[:, perm], use[perm], scattered)[:, inv]
    assert np.array_equal(got, want)


def _raster(watch: EdgeWatch) -> EdgeWatch:
    """The same watch with its cells in the cell grid's raster order, each side's as scattered indices (how it kept
    them before vision22)."""
    other = copy.copy(watch)
    order = np.argsort(watch._idx, kind="stable")
    inv = np.argsort(order)
    other._idx = watch._idx[order]
    other._sides = [np.sort(inv[np.arange(s.start, s.stop)]) for s in watch._sides]
    other._reach = {sq: m[order] for sq, m in watch._reach.items()}
    return other


def test_edge_watch_answers_do_not_depend_on_the_order_of_its_cells():
    """A hand-free sequence with the light drifting, then a hand over the far edge, a piece moved and a shadow that
    stands: every area the watch gives and every reference it keeps are the same with the cells side by side or in
    raster order."""
    squares = {(r, c): 1 + r * N // 2 + c // 2 for r in range(N) for c in range(N) if (r + c) % 2}
    watch = EdgeWatch(N, PX, MARGIN, piece_reach(squares, N, PX, MARGIN))
    assert all(isinstance(s, slice) for s in watch._sides)
    other = _raster(watch)
    rng = np.random.default_rng(13)
    start = frozenset((sq, sq % 2 == 0) for sq in list(squares.values())[:12])
    moved = (start - {next(iter(start))}) | {(99, True)}
    light = rng.normal(0, 0.02, 32).astype(np.float32)
    areas = []
    for i, (level, hand, occupied, flagged) in enumerate(
            [(1.0, False, start, False), (1.02, False, start, False), (0.98, False, start, False),
             (1.0, True, start, False), (1.01, True, start, True), (1.0, False, moved, False),
             (1.03, False, moved, False), (1.0, True, moved, False), (1.0, True, moved, False),
             (1.0, True, moved, False), (1.0, True, moved, False)]):
        pic = _frame_picture(np.random.default_rng(100 + i), level, hand)
        a = watch.watch(pic, pic, occupied, light, flagged)
        b = other.watch(pic, pic, occupied, light, flagged)
        assert a == b, i
        areas.append(a)
        order = np.argsort(watch._idx, kind="stable")
        assert (watch._ref is None) == (other._ref is None)
        if watch._ref is not None:
            assert np.array_equal(watch._ref[0][:, order], other._ref[0]) and watch._ref[1] == other._ref[1]
        assert watch._held == other._held
    assert max(areas) > 0  # the hand over the far edge was seen: the comparison is not of zeros alone
