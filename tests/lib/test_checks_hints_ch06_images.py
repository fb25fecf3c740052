"""The hints of chapter 6's image checks: each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import warnings

import numpy as np
import pytest

import mlrefined_lib as ml
from mlrefined_lib import checks
from mlrefined_lib.checks import ch06_histogram_features
from mlrefined_lib.checks import CheckFailed
from mlrefined_lib.datasets import load_handwritten_digits


# ---------------------------------------------------------------- rotation shift


def shift_right(before, after):
    distances = [np.linalg.norm(np.roll(before, k) - after) for k in range(len(before))]
    return int(np.argmin(distances))


def test_rotation_check_accepts_the_dot_product_form_and_numpy_integers():
    def by_correlation(before, after):
        return np.argmax([np.roll(before, k) @ after for k in range(len(before))])

    checks.check_rotation_shift(by_correlation)


@pytest.mark.parametrize(
    "wrong, message",
    [
        (lambda b, a: (-shift_right(b, a)) % len(b), "takes histogram_after back"),
        (lambda b, a: shift_right(b, a) * 180 / len(b), "in degrees"),
        (lambda b, a: shift_right(b, a) - len(b), "modulo"),
        (lambda b, a: int(np.argmax([np.linalg.norm(np.roll(b, k) - a) for k in range(len(b))])), "largest distance"),
        (lambda b, a: 1, "best-matching"),
        (lambda b, a: [shift_right(b, a)] * 2, "one integer"),
        (lambda b, a: shift_right(b, a) + 0.5, "whole number"),
    ],
)
def test_rotation_check_explains_wrong_answers(wrong, message):
    with pytest.raises(CheckFailed, match=message):
        checks.check_rotation_shift(wrong)


# ---------------------------------------------------------------- train and test


def train_and_test_right(features_train, y_train, features_test, y_test, alpha, epochs, batch_size):
    keep = features_train.std(axis=0) > 0
    normalize, _ = ml.standard_normalizer(features_train[:, keep])
    inputs_train, inputs_test = normalize(features_train[:, keep]), normalize(features_test[:, keep])
    classes = int(y_train.max()) + 1
    g = ml.multiclass_softmax(inputs_train, y_train, classes)
    history = ml.minibatch_gradient_descent(g, np.zeros((inputs_train.shape[1] + 1, classes)), alpha, epochs,
                                            batch_size, seed=0)
    mistakes = ml.misclassifications(inputs_test, y_test)(history.weights[-1])
    return 1 - mistakes / len(y_test)


def with_change(**change):
    """A version of the right answer with one typical mistake."""

    def answer(features_train, y_train, features_test, y_test, alpha, epochs, batch_size):
        keep = features_train.std(axis=0) > 0
        normalize, _ = ml.standard_normalizer(features_train[:, keep])
        inputs_train, inputs_test = normalize(features_train[:, keep]), normalize(features_test[:, keep])
        if change.get("own_test_statistics"):
            inputs_test = ml.standard_normalizer(features_test[:, keep])[0](features_test[:, keep])
        classes = int(y_train.max()) + 1
        g = ml.multiclass_softmax(inputs_train, y_train, classes)
        history = ml.minibatch_gradient_descent(g, np.zeros((inputs_train.shape[1] + 1, classes)), alpha, epochs,
                                                batch_size, seed=change.get("seed", 0))
        if change.get("training_accuracy"):
            inputs_test, y_test = inputs_train, y_train
        mistakes = ml.misclassifications(inputs_test, y_test)(history.weights[-1])
        if change.get("count"):
            return len(y_test) - mistakes
        if change.get("error_rate"):
            return mistakes / len(y_test)
        return 1 - mistakes / len(y_test)

    return answer


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(own_test_statistics=True), "its own mean"),
        (dict(training_accuracy=True), "training split"),
        (dict(count=True), "number of correct test points"),
        (dict(error_rate=True), "error rate"),
        (dict(seed=1), "should be"),
    ],
)
def test_train_and_test_check_explains_wrong_answers(change, message):
    with pytest.raises(CheckFailed, match=message):
        checks.check_train_and_test(with_change(**change))


def test_train_and_test_check_spots_missing_normalization_and_constant_columns():
    def raw(features_train, y_train, features_test, y_test, alpha, epochs, batch_size):
        g = ml.multiclass_softmax(features_train, y_train)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", ml.DivergenceWarning)
            history = ml.minibatch_gradient_descent(g, np.zeros((features_train.shape[1] + 1, 4)), alpha, epochs,
                                                    batch_size, seed=0)
        return 1 - ml.misclassifications(features_test, y_test)(history.weights[-1]) / len(y_test)

    with pytest.raises(CheckFailed, match="not to be normalized"):
        checks.check_train_and_test(raw)

    def keeps_constant_column(features_train, y_train, features_test, y_test, alpha, epochs, batch_size):
        ml.standard_normalizer(features_train)
        return 0.5

    with pytest.raises(CheckFailed, match="std\\(axis=0\\) > 0"):
        checks.check_train_and_test(keeps_constant_column)


def test_train_and_test_check_spots_in_place_changes():
    def in_place(features_train, y_train, features_test, y_test, alpha, epochs, batch_size):
        features_train[:] = 0.0
        return 0.5

    with pytest.raises(CheckFailed, match="changed an array"):
        checks.check_train_and_test(in_place)


def test_reference_agrees_with_the_library_pipeline_on_real_digits():
    x, y = load_handwritten_digits()
    chosen = np.random.default_rng(9).permutation(len(x))[:500]
    x, y = x[chosen] / 255.0, y[chosen]
    expected = train_and_test_right(x[:400], y[:400], x[400:], y[400:], 0.1, 2, 50)
    got = ch06_histogram_features._reference_softmax_accuracy(x[:400], y[:400], x[400:], y[400:], 0.1, 2, 50)
    assert got == pytest.approx(expected, abs=1e-12)
    assert got > 0.7
