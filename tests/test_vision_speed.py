"""The reading's speed-ups give the very values of the plain computation they replace (docs/camera.md,
"Speed, 2026-11-26"): no output may change for speed."""

from __future__ import annotations

import numpy as np
import pytest

from rig.variants import INTERNATIONAL, PORTUGUESE
from vision.classify import Classifier


def _classifier(variant, px: int) -> Classifier:
    side = variant.size * px + px  # the margin, px // 2 a side
    maps = (np.zeros((side, side), np.float32), np.zeros((side, side), np.float32))
    return Classifier(variant, px, maps, None)


@pytest.mark.parametrize("variant,px", [(PORTUGUESE, 32), (INTERNATIONAL, 32), (PORTUGUESE, 29)],
                         ids=["portuguese-8x8-px32", "international-10x10-px32", "portuguese-8x8-px29-odd-block"])
def test_cells_median_and_mean_as_numpy(variant, px):
    clf = _classifier(variant, px)
    n = clf.n
    rng = np.random.default_rng(7)
    canon = rng.integers(0, 256, (n * px, n * px, 3), dtype=np.uint8)
    canon[: px * 2] //= 3  # a shadow: values repeated, the two middle ones often equal
    blocks = canon.reshape(n, px, n, px, 3)[:, clf.block, :, clf.block].transpose(0, 2, 1, 3, 4).reshape(n, n, -1, 3)
    median, means = clf.cells(canon, mean=True)
    assert np.array_equal(median, np.median(blocks, axis=2))
    assert np.array_equal(means, blocks.mean(axis=2, dtype=np.float32))
    light = ~clf.dark
    m_light, mean_light = clf.cells(canon, mean=True, where=light)
    assert np.array_equal(m_light[light], np.median(blocks, axis=2)[light])
    assert np.array_equal(mean_light[light], blocks.mean(axis=2, dtype=np.float32)[light])
    assert not m_light[~light].any() and not mean_light[~light].any()


def _plain_fits(reader, obs, top, idx, colour):
    """(man, king) fits by the plain correlation: each model's silhouette template against the window and its
    top-against-wall template, weighted by the colour's ``TOP_WEIGHT``, against the brightness, summed, at every
    shift of 0 .. 2 SEARCH pixels each way, the best shift kept (float64)."""
    from vision.kings import SEARCH, TOP_WEIGHT

    box, v = reader.box, 2 * SEARCH + 1
    out = np.zeros((len(idx), 2))
    for i, j in enumerate(idx):
        rc = reader.squares[j]
        t, u, _ = reader._templates(rc, reader.radius, reader.height)
        w = TOP_WEIGHT[colour[i]]
        for m in range(2):
            c = [[float((obs[i, dy:dy + box, dx:dx + box] * t[m]).sum(dtype=np.float64)
                        + w * (top[i, dy:dy + box, dx:dx + box] * u[m]).sum(dtype=np.float64))
                  for dx in range(v)] for dy in range(v)]
            out[i, m] = np.max(c)
    return out


@pytest.mark.parametrize("variant", [PORTUGUESE, INTERNATIONAL], ids=["portuguese-8x8", "international-10x10"])
def test_stack_fit_batched_as_the_plain_correlation(variant):
    """The stack fit's one complex transform a window (docs/camera.md, "Speed: the stack fit batched") gives
    the plain correlation's fits, to float32's rounding, white and black pieces, on a camera seen aslant."""
    from vision.kings import StackReader
    from vision.pose import CameraPose

    n, px = variant.size, 32
    squares = [(r, c) for r in range(n) for c in range(n) if (r + c) % 2 == 1]
    reader = StackReader(CameraPose((n / 2, -0.6 * n, 1.4 * n), 1000.0), n, px, px // 2, squares, 0.4, 0.1)
    rng = np.random.default_rng(11)
    idx = rng.choice(len(squares), 6, replace=False)
    colour = np.array([0, 1, 0, 1, 1, 0])
    s = reader.size
    obs = np.zeros((6, reader.fft, reader.fft), np.float32)
    top = np.zeros_like(obs)
    obs[:, :s, :s] = rng.choice(np.array([-1, 0, 1], np.float32), (6, s, s))
    top[:, :s, :s] = rng.uniform(-1, 1, (6, s, s)).astype(np.float32) * (obs[:, :s, :s] > 0)
    fast = reader._best(np.stack([obs, top], -1), idx, colour)
    plain = _plain_fits(reader, obs, top, idx, colour)
    assert np.abs(fast - plain).max() <= 1e-5 * np.abs(plain).max() + 1e-3
    alone = reader._best(np.stack([obs, np.zeros_like(top)], -1), idx, colour)
    plain_alone = _plain_fits(reader, obs, np.zeros_like(top), idx, colour)
    assert np.abs(alone - plain_alone).max() <= 1e-5 * np.abs(plain_alone).max() + 1e-3


def _plain_window(reader, padded, grey, static, rc, colour, colour_at, black):
    """One piece's window pixel by pixel (silhouette, brightness): its colour +1, elsewhere -1, 0 where a
    neighbour of its colour may reach or the frame is static; its brightness scaled between the colour's
    ``TOP_PERCENTILES`` of its own pixels (a cumulative histogram), clipped to -1 .. 1, 0 off the piece."""
    from vision.kings import TOP_CONTRAST, TOP_PERCENTILES

    s, f = reader.size, reader.fft
    y, x = reader.models[rc].window
    on = (padded[y:y + s, x:x + s] == colour) & ~static[y:y + s, x:x + s]
    sil = np.zeros((f, f), np.float32)
    sil[:s, :s] = np.where(on, 1.0, -1.0)
    for other, cover in reader._cover[rc]:
        if colour_at.get(other) == colour:
            sil.ravel()[cover] = 0
    on = sil[:s, :s] > 0
    g = grey[y:y + s, x:x + s]
    cum = np.cumsum(np.bincount(g[on], minlength=256))
    low, high = (p / np.float32(100) for p in np.array(TOP_PERCENTILES[int(colour == black)], np.float32))
    lo, hi = int((cum < cum[-1] * low).sum()), int((cum < cum[-1] * high).sum())
    mid, scale = np.float32((lo + hi) / 2), np.float32(max((hi - lo) / 2, TOP_CONTRAST))
    top = np.zeros((f, f), np.float32)
    top[:s, :s] = np.where(on, np.clip((g.astype(np.float32) - mid) / scale, -1, 1), 0)
    return sil, top


@pytest.mark.parametrize("variant", [PORTUGUESE, INTERNATIONAL], ids=["portuguese-8x8", "international-10x10"])
def test_stack_windows_as_cut_pixel_by_pixel(variant):
    """The windows cut by slices, their brightness scaled through one table a piece (docs/camera.md, "Speed:
    the stack fit batched"), are the pixel-by-pixel windows, exactly: white and black pieces side by side (a
    neighbour of the same colour left out), a static frame, every dark square occupied."""
    from vision.classify import BLACK, WHITE
    from vision.kings import StackReader
    from vision.pose import CameraPose

    n, px = variant.size, 32
    squares = [(r, c) for r in range(n) for c in range(n) if (r + c) % 2 == 1]
    reader = StackReader(CameraPose((n / 2, -0.6 * n, 1.4 * n), 1000.0), n, px, px // 2, squares, 0.4, 0.1)
    rng = np.random.default_rng(5)
    side = n * px + px
    padded = reader.padded(rng.choice(np.array([0, 1, WHITE, BLACK], np.uint8), (side, side)))
    grey = reader.padded(rng.integers(0, 256, (side, side), dtype=np.uint8), 0)
    static = reader.padded((rng.random((side, side)) < 0.05).astype(np.uint8), 0).astype(bool)
    pieces = [(rc, WHITE if i % 3 else BLACK) for i, rc in enumerate(squares)]
    win = reader.windows(padded, pieces, static, grey, BLACK)
    colour_at = dict(pieces)
    for i, (rc, colour) in enumerate(pieces):
        sil, top = _plain_window(reader, padded, grey, static, rc, colour, colour_at, BLACK)
        assert np.array_equal(win[i, ..., 0], sil), rc
        assert np.array_equal(win[i, ..., 1], top), rc
    alone = reader.windows(padded, pieces, static)
    assert np.array_equal(alone[..., 0], win[..., 0]) and not alone[..., 1].any()
