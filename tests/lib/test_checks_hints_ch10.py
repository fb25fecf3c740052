"""The hints of chapter 10's checks (boosting): each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import numpy as np
import pytest

from mlrefined_lib.checks import CheckFailed, check_boost_by_residual, check_one_weight_newton


def good_boost_by_residual(x, y, rounds):
    residual = y - y.mean()
    order, weights = [], [y.mean()]
    for _ in range(rounds):
        scores = (x.T @ residual) ** 2 / np.sum(x**2, axis=0)
        scores[order] = -np.inf
        best = int(np.argmax(scores))
        weight = x[:, best] @ residual / (x[:, best] @ x[:, best])
        residual = residual - weight * x[:, best]
        order.append(best)
        weights.append(weight)
    return np.array(order), np.array(weights)


def centred_boost_by_residual(x, y, rounds):
    return good_boost_by_residual(x - x.mean(axis=0), y, rounds)


def good_newton(offset, column, y):
    v = 0.0
    for _ in range(50):
        m = y * (offset + v * column)
        s = 1 / (1 + np.exp(m))
        step = -np.mean(y * column * s) / np.mean(column**2 * s * (1 - s))
        v -= step
    return v


def test_check_boost_by_residual():
    with pytest.raises(CheckFailed, match="not centred|chooses"):
        check_boost_by_residual(centred_boost_by_residual)
    with pytest.raises(CheckFailed, match="mean of y"):
        check_boost_by_residual(lambda x, y, r: (good_boost_by_residual(x, y, r)[0], np.zeros(r + 1)))
    with pytest.raises(CheckFailed, match="weights are not"):
        check_boost_by_residual(lambda x, y, r: (lambda o, w: (o, np.r_[w[0], 2 * w[1:]]))(*good_boost_by_residual(x, y, r)))


def test_check_one_weight_newton():
    with pytest.raises(CheckFailed, match="ignores the offset"):
        check_one_weight_newton(lambda offset, column, y: good_newton(np.zeros_like(offset), column, y))
    with pytest.raises(CheckFailed, match="best weight is"):
        check_one_weight_newton(lambda offset, column, y: good_newton(offset, column, y) + 0.1)
