"""The hints of chapter 11's checks (regularization): each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import numpy as np
import pytest
from sklearn.datasets import load_diabetes

from mlrefined_lib import checks
from mlrefined_lib.checks import CheckFailed
from mlrefined_lib.regularization import l1_path, ridge


def prox_step(w, t):
    return np.r_[w[0], np.sign(w[1:]) * np.maximum(np.abs(w[1:]) - t, 0.0)]


def _ridge_by_hand(x, y, alpha):
    """Summed-cost ridge written out (the exercise rules out calling reg.ridge)."""
    x_tilde = np.column_stack([np.ones(len(x)), x])
    penalty = alpha * np.eye(x_tilde.shape[1])
    penalty[0, 0] = 0.0
    return np.linalg.lstsq(x_tilde.T @ x_tilde + penalty, x_tilde.T @ y, rcond=None)[0]


def ridge_mean(x, y, lam):
    return _ridge_by_hand(x, y, len(x) * lam)


def test_ridge_by_hand_matches_the_library():
    x, y = load_diabetes(return_X_y=True)
    for alpha in (0.0, 1.0, 50.0):
        np.testing.assert_allclose(_ridge_by_hand(x, y, alpha), ridge(x, y, alpha), rtol=1e-8, atol=1e-8)


def pick(x_train, y_train, x_val, y_val, lams):
    path = l1_path(x_train, y_train, lams)
    errors = [np.mean((w[0] + x_val @ w[1:] - y_val) ** 2) for w in path.weights]
    return lams[int(np.argmin(errors))], path.weights[int(np.argmin(errors))]


@pytest.mark.parametrize(
    "wrong, message",
    [
        (lambda w, t: np.sign(w) * np.maximum(np.abs(w) - t, 0.0), "bias"),
        (lambda w, t: np.r_[w[0], np.where(np.abs(w[1:]) > t, w[1:], 0.0)], "hard thresholding"),
        (lambda w, t: np.r_[w[0], w[1:] - t * np.sign(w[1:])], "subgradient"),
    ],
)
def test_l1_proximal_step_hints(wrong, message):
    with pytest.raises(CheckFailed, match=message):
        checks.check_l1_proximal_step(wrong)


def test_l1_proximal_step_in_place():
    def in_place(w, t):
        w[1:] = np.sign(w[1:]) * np.maximum(np.abs(w[1:]) - t, 0.0)
        return w

    with pytest.raises(CheckFailed, match="changed the array"):
        checks.check_l1_proximal_step(in_place)


@pytest.mark.parametrize(
    "wrong, message",
    [(lambda x, y, lam: _ridge_by_hand(x, y, lam), "summed cost"),
     (lambda x, y, lam: _ridge_by_hand(x, y, len(x) * lam / 2), "half as strong")],
)
def test_ridge_mean_form_hints(wrong, message):
    with pytest.raises(CheckFailed, match=message):
        checks.check_ridge_mean_form(wrong)


def test_pick_lambda_by_training_error():
    def by_training(x_train, y_train, x_val, y_val, lams):
        path = l1_path(x_train, y_train, lams)
        errors = [np.mean((w[0] + x_train @ w[1:] - y_train) ** 2) for w in path.weights]
        return lams[int(np.argmin(errors))], path.weights[int(np.argmin(errors))]

    with pytest.raises(CheckFailed, match="training error"):
        checks.check_pick_lambda(by_training)
