"""vision.stats gives np.median's values exactly, for the dtypes and sizes the cues use."""

import numpy as np
import pytest

from vision.stats import median, median_rows, median_runs


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


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_median_runs_equals_median_rows_of_each_run(dtype):
    """Runs of every length from 1 to 30, odd and even, scattered or in one stretch, values repeated: the
    medians of one partition are those of each run taken alone (vision22)."""
    rng = np.random.default_rng(9)
    x = np.round(rng.normal(1.0, 0.2, (3, 200)), 2).astype(dtype)  # rounded: ties
    for lengths in ([1, 2, 3], [30, 7, 12, 29], [5, 5, 6, 6], [4]):
        runs = [np.sort(rng.choice(200, k, replace=False)) for k in lengths]
        got = median_runs(x, runs)
        want = np.stack([median_rows(x[:, r]) for r in runs], axis=1)
        assert got.dtype == want.dtype and np.array_equal(got, want), lengths
        single = median_runs(x[:1], runs)[0]
        assert np.array_equal(single, [median(x[0, r]) for r in runs]), lengths


def test_median_runs_of_no_run_or_an_empty_one_is_an_error():
    x = np.ones((1, 5), np.float32)
    with pytest.raises(ValueError):
        median_runs(x, [])
    with pytest.raises(ValueError):
        median_runs(x, [np.arange(2), np.arange(0)])
