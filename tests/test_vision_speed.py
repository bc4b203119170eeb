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
