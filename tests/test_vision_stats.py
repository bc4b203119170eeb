"""vision.stats gives np.median's values exactly, for the dtypes and sizes the cues use."""

import numpy as np
import pytest

from vision.stats import median, median_rows


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8, np.int64])
def test_median_equals_numpy_for_every_size(dtype):
    rng = np.random.default_rng(7)
    for n in range(1, 60):
        x = (rng.normal(0, 40, n) + 100).astype(dtype)
        got, want = median(x), np.median(x)
        assert got == want and np.asarray(got).dtype == np.asarray(want).dtype, (n, got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_median_rows_equals_numpy_axis_one(dtype):
    rng = np.random.default_rng(8)
    for n in range(1, 40):
        x = rng.normal(1.0, 0.2, (3, n)).astype(dtype)
        got, want = median_rows(x), np.median(x, axis=1)
        assert got.dtype == want.dtype and np.array_equal(got, want), n


def test_median_ties_and_a_two_dimensional_input():
    x = np.array([[3.0, 1.0], [1.0, 3.0]], np.float32)
    assert median(x) == np.median(x) == 2.0
    assert median(np.array([5.0, 5.0, 5.0])) == 5.0


def test_median_of_nothing_is_an_error_not_nan():
    with pytest.raises(ValueError):
        median(np.array([], np.float32))
    with pytest.raises(ValueError):
        median_rows(np.zeros((3, 0), np.float32))
