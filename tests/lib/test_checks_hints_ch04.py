"""The hints of chapter 4's checks (polynomial features, early stopping): each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

from math import comb

import numpy as np
import pytest

import mlrefined_lib as ml
from mlrefined_lib import checks
from mlrefined_lib.checks import CheckFailed


# ---------------------------------------------------------------- counting polynomial features


def test_count_check_passes_right_answers(capsys):
    checks.check_polynomial_feature_count(lambda n, d: comb(n + d, d))
    checks.check_polynomial_feature_count(lambda n, d: ml.num_polynomial_features(n, d))
    assert capsys.readouterr().out.count("Correct") == 2


@pytest.mark.parametrize("wrong, message", [
    (lambda n, d: comb(n + d, d) - 1, "constant"),
    (lambda n, d: n ** d, "ordered products"),
    (lambda n, d: comb(n + d - 1, d), "degree exactly d"),
    (lambda n, d: n * d + 1, "products of different inputs"),
    (lambda n, d: 2 ** n, "binomial coefficient"),
    (lambda n, d: comb(n + d, d) / 1.5, "whole number"),
    (lambda n, d: "many", "whole number"),
])
def test_count_check_explains_the_usual_mistakes(wrong, message):
    with pytest.raises(CheckFailed, match=message):
        checks.check_polynomial_feature_count(wrong)


# ---------------------------------------------------------------- softmax with early stopping


def softmax_early_stopping(x_train, y_train, x_val, y_val, alpha, epochs):
    """A right answer written with the library (independent of the check's plain-NumPy reference)."""
    classes = int(max(y_train.max(), y_val.max())) + 1
    g_train = ml.multiclass_softmax(x_train, y_train, classes)
    g_val = ml.multiclass_softmax(x_val, y_val, classes)
    result = ml.early_stopping(g_train, g_val, np.zeros((x_train.shape[1] + 1, classes)), alpha, epochs,
                               len(x_train))
    return result.best_weights, result.best_epoch


def variant(keep="best", shift=0, step_scale=1.0, choose_by="validation", epoch_shift=0, modify=False):
    """A wrong answer of a given kind, built from a hand-written loop."""
    def answer(x_train, y_train, x_val, y_val, alpha, epochs):
        if modify:
            x_train -= x_train.mean(axis=0)
        classes = int(max(y_train.max(), y_val.max())) + 1
        g_train = ml.multiclass_softmax(x_train, y_train, classes)
        g_val = ml.multiclass_softmax(x_val, y_val, classes)
        w = np.zeros((x_train.shape[1] + 1, classes))
        ws, train, val = [w], [g_train(w)], [g_val(w)]
        for _ in range(epochs):
            w = w - alpha * step_scale * g_train.gradient(w)
            ws.append(w)
            train.append(g_train(w))
            val.append(g_val(w))
        if keep == "last":
            return ws[-1], epochs
        best = int(np.argmin(val if choose_by == "validation" else train))
        return ws[min(best + shift, epochs)], best + epoch_shift
    return answer


@pytest.mark.parametrize("wrong, message", [
    (variant(keep="last"), "weights after the last epoch"),
    (variant(epoch_shift=1), "one more than it should"),
    (variant(epoch_shift=5), "count epoch 0"),
    (variant(shift=1), "one after the best epoch"),
    (variant(step_scale=24.0), "times too long"),
    (variant(modify=True), "changed an array"),
    (variant(step_scale=0.5), "differ from the reference"),
])
def test_early_stopping_check_explains_the_usual_mistakes(wrong, message):
    with pytest.raises(CheckFailed, match=message):
        checks.check_softmax_early_stopping(wrong)


def test_early_stopping_check_spots_choosing_by_the_training_cost():
    # The training cost keeps falling, so choosing by it picks the last epoch: the check names that mistake.
    with pytest.raises(CheckFailed, match="last epoch|training cost"):
        checks.check_softmax_early_stopping(variant(choose_by="training"))


def test_early_stopping_check_wants_a_weight_matrix():
    with pytest.raises(CheckFailed, match="shape"):
        checks.check_softmax_early_stopping(lambda *args: (np.zeros(13), 0))
