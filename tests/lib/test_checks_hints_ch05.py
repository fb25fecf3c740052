"""The hints of chapter 5's checks (validation): each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import numpy as np
import pytest

import mlrefined_lib as ml
from mlrefined_lib import checks


def contiguous_folds_right(num_points, k):
    everything = np.arange(num_points)
    sizes = [num_points // k + (1 if i < num_points % k else 0) for i in range(k)]
    start, folds = 0, []
    for size in sizes:
        val = everything[start : start + size]
        folds.append((np.setdiff1d(everything, val), val))
        start += size
    return folds


def one_se_right(means, errors):
    means = np.asarray(means)
    best = int(np.argmin(means))
    return int(np.flatnonzero(means <= means[best] + errors[best])[0])


@pytest.mark.parametrize(
    "wrong, message",
    [
        # the longer blocks last instead of first
        (lambda n, k: contiguous_folds_right(n, k)[::-1], "order"),
        # np.array_split of a reversed range: rows out of order
        (lambda n, k: [(np.setdiff1d(np.arange(n), v), v) for v in np.array_split(np.arange(n)[::-1], k)],
         "consecutive rows"),
        # the training part holds its own validation rows too
        (lambda n, k: [(np.arange(n), v) for _, v in contiguous_folds_right(n, k)], "every row not in"),
        # one fold too few
        (lambda n, k: contiguous_folds_right(n, k)[:-1], "it should return k"),
        # a row lost
        (lambda n, k: [(t, v[1:]) if i == 0 else (t, v) for i, (t, v) in enumerate(contiguous_folds_right(n, k))],
         "missing or repeated"),
    ],
)
def test_contiguous_folds_fail(wrong, message):
    with pytest.raises(checks.CheckFailed, match=message):
        checks.check_contiguous_folds(wrong)


def test_contiguous_folds_refuse_the_library():
    with pytest.raises(checks.CheckFailed, match="k_fold"):
        checks.check_contiguous_folds(lambda n, k: ml.k_fold(n, k, seed=None))


@pytest.mark.parametrize(
    "wrong, message",
    [
        (lambda m, e: int(np.argmin(m)), "smallest mean"),
        (lambda m, e: int(np.flatnonzero(np.asarray(m) <= min(m) + np.asarray(e))[0]), "own standard error"),
        (lambda m, e: int(np.flatnonzero(np.asarray(m) <= min(m) + e[int(np.argmin(m))])[-1]), "first one"),
        (lambda m, e: "two", "index"),
    ],
)
def test_one_se_fail(wrong, message):
    with pytest.raises(checks.CheckFailed, match=message):
        checks.check_one_standard_error_rule(wrong)


def test_one_se_refuses_grid_search():
    def through_library(means, errors):
        result = ml.grid_search(lambda p: (lambda x, y: p), lambda m, x, y: 0.0,
                                np.zeros((4, 1)), np.zeros(4), [0, 1], ml.k_fold(4, 2))
        return result.one_standard_error_index

    with pytest.raises(checks.CheckFailed, match="grid_search"):
        checks.check_one_standard_error_rule(through_library)
