"""The hints of chapter 2's checks (stochastic and mini-batch gradient descent): each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import numpy as np
import pytest

from mlrefined_lib import checks
from mlrefined_lib.checks import CheckFailed


# ---------------------------------------------------------------- check_sgd_epoch


def sgd_epoch_right(x, y, w, alpha, order):
    w = np.array(w, dtype=float)
    for p in order:
        residual = w[0] + x[p] @ w[1:] - y[p]
        w = w - alpha * 2 * residual * np.concatenate([[1.0], x[p]])
    return w


def sgd_epoch_no_two(x, y, w, alpha, order):
    return sgd_epoch_right(x, y, w, alpha / 2, order)


def sgd_epoch_ignores_order(x, y, w, alpha, order):
    return sgd_epoch_right(x, y, w, alpha, range(len(x)))


def sgd_epoch_full_batch(x, y, w, alpha, order):
    x_ext = np.column_stack([np.ones(len(x)), x])
    return w - alpha * 2 / len(x) * x_ext.T @ (x_ext @ w - y)


def sgd_epoch_no_bias(x, y, w, alpha, order):
    w = np.array(w, dtype=float)
    for p in order:
        residual = w[0] + x[p] @ w[1:] - y[p]
        w[1:] = w[1:] - alpha * 2 * residual * x[p]
    return w


def sgd_epoch_in_place(x, y, w, alpha, order):
    for p in order:
        residual = w[0] + x[p] @ w[1:] - y[p]
        w -= alpha * 2 * residual * np.concatenate([[1.0], x[p]])
    return w


def sgd_epoch_stale_gradient(x, y, w, alpha, order):
    """Every step uses the residuals of the starting weights: not stochastic gradient descent."""
    w0 = np.array(w, dtype=float)
    w = w0.copy()
    for p in order:
        residual = w0[0] + x[p] @ w0[1:] - y[p]
        w = w - alpha * 2 * residual * np.concatenate([[1.0], x[p]])
    return w


@pytest.mark.parametrize(
    "wrong, message",
    [
        (sgd_epoch_no_two, "half as long"),
        (sgd_epoch_ignores_order, "given by `order`"),
        (sgd_epoch_full_batch, "one full-batch gradient step"),
        (sgd_epoch_no_bias, "bias w\\[0\\] did not move"),
        (sgd_epoch_in_place, "changed the weights w"),
        (sgd_epoch_stale_gradient, "Update w after every single point"),
    ],
)
def test_sgd_epoch_catches_typical_mistakes(wrong, message):
    with pytest.raises(CheckFailed, match=message):
        checks.check_sgd_epoch(wrong)


# ---------------------------------------------------------------- check_minibatches


def minibatches_right(num_points, batch_size, rng):
    order = rng.permutation(num_points)
    return [order[start : start + batch_size] for start in range(0, num_points, batch_size)]


def minibatches_drop_last(num_points, batch_size, rng):
    order = rng.permutation(num_points)
    return [order[start : start + batch_size] for start in range(0, num_points - batch_size + 1, batch_size)]


def minibatches_no_shuffle(num_points, batch_size, rng):
    order = np.arange(num_points)
    return [order[start : start + batch_size] for start in range(0, num_points, batch_size)]


def minibatches_with_replacement(num_points, batch_size, rng):
    order = rng.integers(0, num_points, size=num_points)
    return [order[start : start + batch_size] for start in range(0, num_points, batch_size)]


def minibatches_other_shuffle(num_points, batch_size, rng):
    order = np.random.default_rng(99).permutation(num_points)
    return [order[start : start + batch_size] for start in range(0, num_points, batch_size)]


def minibatches_even_split(num_points, batch_size, rng):
    return np.array_split(rng.permutation(num_points), -(-num_points // batch_size))


@pytest.mark.parametrize(
    "wrong, message",
    [
        (minibatches_drop_last, "keep the last, smaller batch"),
        (minibatches_no_shuffle, "stored order"),
        (minibatches_with_replacement, "appear twice"),
        (minibatches_other_shuffle, "rng.permutation"),
        (minibatches_even_split, "batch sizes are"),
    ],
)
def test_minibatches_catches_typical_mistakes(wrong, message):
    with pytest.raises(CheckFailed, match=message):
        checks.check_minibatches(wrong)


def test_minibatches_wants_row_numbers():
    with pytest.raises(CheckFailed, match="integer row numbers"):
        checks.check_minibatches(lambda n, b, rng: [np.linspace(0, 1, n)])
