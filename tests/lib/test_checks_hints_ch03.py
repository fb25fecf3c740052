"""The hints of chapter 3's checks (costs for classification): each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import numpy as np
import pytest

import mlrefined_lib as ml
from mlrefined_lib import checks
from mlrefined_lib.checks import CheckFailed


def _x_ext(x):
    return np.column_stack([np.ones(len(x)), x])


def sigmoid(t):
    return 1 / (1 + np.exp(-t))


def gradient_right(x, y, w):
    x_ext = _x_ext(x)
    return x_ext.T @ (sigmoid(x_ext @ w) - y) / len(x)


def test_gradient_check_refuses_the_librarys_cost():
    """The exercise says NumPy only: calling the library's cost is refused, with the rule."""
    with pytest.raises(CheckFailed, match="`cross_entropy`.*NumPy only"):
        checks.check_cross_entropy_gradient(lambda x, y, w: ml.cross_entropy(x, y).gradient(w))


@pytest.mark.parametrize(
    "wrong, message",
    [
        (lambda x, y, w: -gradient_right(x, y, w), "wrong sign"),
        (lambda x, y, w: gradient_right(x, y, w) * len(x), "P times too large"),
        (lambda x, y, w: -gradient_right(x, y, w) * len(x), "wrong sign and is P times"),
        (lambda x, y, w: -_x_ext(x).T @ (y * sigmoid(-y * (_x_ext(x) @ w))) / len(x), "labels ±1"),
        (lambda x, y, w: _x_ext(x).T @ (sigmoid(_x_ext(x) @ w) - (2 * y - 1)) / len(x), "labels must be 0 and 1"),
        (lambda x, y, w: _x_ext(x).T @ (_x_ext(x) @ w - y) / len(x), "instead of the probability"),
        (lambda x, y, w: 2 * gradient_right(x, y, w), "no factor 2"),
        (lambda x, y, w: gradient_right(x, y, w)[1:], "add the entry for the bias"),
        (lambda x, y, w: gradient_right(x, y, w) + np.eye(len(w))[0], "not for the bias"),
        (lambda x, y, w: np.ones(len(w)), "X̃ᵀ"),
        (lambda x, y, w: "gradient", "array of numbers"),
    ],
)
def test_gradient_check_names_typical_mistakes(wrong, message):
    with pytest.raises(CheckFailed, match=message):
        checks.check_cross_entropy_gradient(wrong)


def test_gradient_check_refuses_a_function_that_edits_its_input():
    def editing(x, y, w):
        y[:] = 2 * y - 1
        return gradient_right(x, (y + 1) / 2, w)

    with pytest.raises(CheckFailed, match="changed an array"):
        checks.check_cross_entropy_gradient(editing)


def input_at_probability_right(w, p):
    return (np.log(p / (1 - p)) - w[0]) / w[1]


@pytest.mark.parametrize(
    "wrong, message",
    [
        (lambda w, p: w[0] / w[1], "sign is flipped"),
        (lambda w, p: -w[1] / w[0], "swapped"),
        (lambda w, p: (p - w[0]) / w[1], "set the model equal to p"),
        (lambda w, p: -w[0] / w[1], "that is the p = 0.5 boundary"),
        (lambda w, p: (np.log((1 - p) / p) - w[0]) / w[1], "log-odds have the wrong sign"),
        (lambda w, p: (np.log(p / (1 - p)) + w[0]) / w[1], "sign is flipped"),
        (lambda w, p: 1.0, "Solve w0"),
        (lambda w, p: [1.0, 2.0], "one number"),
    ],
)
def test_probability_check_names_typical_mistakes(wrong, message):
    with pytest.raises(CheckFailed, match=message):
        checks.check_input_at_probability(wrong)
