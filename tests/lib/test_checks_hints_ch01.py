"""The hints of chapter 1's checks (gradient descent): each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import numpy as np
import pytest

from mlrefined_lib.checks import CheckFailed, check_descend_until_flat, check_least_squares_gradient


# ---------------------------------------------------------------- check_least_squares_gradient


def correct_gradient(x, y, w):
    x_tilde = np.column_stack([np.ones(len(x)), x])
    return 2.0 / len(x) * x_tilde.T @ (x_tilde @ w - y)


def test_least_squares_gradient_check_catches_missing_factor_two():
    def missing_two(x, y, w):
        return correct_gradient(x, y, w) / 2.0

    with pytest.raises(CheckFailed, match="factor 2"):
        check_least_squares_gradient(missing_two)


def test_least_squares_gradient_check_catches_sum_instead_of_mean():
    def summed(x, y, w):
        return correct_gradient(x, y, w) * len(x)

    with pytest.raises(CheckFailed, match="P times too large"):
        check_least_squares_gradient(summed)


def test_least_squares_gradient_check_catches_wrong_sign():
    with pytest.raises(CheckFailed, match="wrong sign"):
        check_least_squares_gradient(lambda x, y, w: -correct_gradient(x, y, w))


def test_least_squares_gradient_check_catches_wrong_bias():
    def no_bias(x, y, w):
        out = correct_gradient(x, y, w)
        out[0] = 0.0
        return out

    with pytest.raises(CheckFailed, match="bias w\\[0\\]"):
        check_least_squares_gradient(no_bias)


# ---------------------------------------------------------------- check_descend_until_flat


def descend_until_flat(gradient, w0, alpha, tol, max_its):
    w = np.array(w0, dtype=float)
    steps = 0
    while steps < max_its:
        direction = gradient(w)
        if np.linalg.norm(direction) <= tol:
            break
        w = w - alpha * direction
        steps += 1
    return w, steps


def test_descend_check_catches_ignored_tolerance():
    def ignores_tol(gradient, w0, alpha, tol, max_its):
        w = np.array(w0, dtype=float)
        for _ in range(max_its):
            w = w - alpha * gradient(w)
        return w, max_its

    with pytest.raises(CheckFailed, match="stop as soon as the gradient norm is at most tol"):
        check_descend_until_flat(ignores_tol)


def test_descend_check_catches_ignored_max_its():
    def ignores_max_its(gradient, w0, alpha, tol, max_its):
        return descend_until_flat(gradient, w0, alpha, tol, 10**9 if tol > 1e-6 else 40)

    with pytest.raises(CheckFailed, match="stop after max_its = 25 steps"):
        check_descend_until_flat(ignores_max_its)


def test_descend_check_catches_wrong_step():
    def plus(gradient, w0, alpha, tol, max_its):
        w, steps = descend_until_flat(gradient, w0, alpha, tol, max_its)
        return w + 1e-3, steps

    with pytest.raises(CheckFailed, match="weights are not"):
        check_descend_until_flat(plus)
