"""The hints of every exercise check: each typical mistake gets its own message, and other right answers pass.

``HINTS`` is one table, filled chapter by chapter: each known-wrong answer with (a regular expression
of) the hint its check must give. ``OTHER_RIGHT`` lists right answers written another way than in
check_answers.py, which must pass too. The tests of the two tables are at the end of this file; the
tests in between are the cases that need more than one call. The stub, non-function, wrong-shape,
one wrong and one right answer of every check are in test_checks_contract.py.
"""

from __future__ import annotations

import re
import warnings
from math import comb

import check_answers as right

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_diabetes
from sklearn.impute import KNNImputer
from sklearn.preprocessing import KBinsDiscretizer, RobustScaler

import mlrefined_lib as ml
from mlrefined_lib import checks
from mlrefined_lib.checks import (CheckFailed, ch06_histogram_features, check_bag_of_words_by_hand,
                                  check_boost_by_residual, check_descend_until_flat, check_least_squares_gradient,
                                  check_one_weight_newton, check_spam_feature_groups, check_tfidf_by_hand)
from mlrefined_lib.datasets import load_handwritten_digits
from mlrefined_lib.histograms import hann_window, tfidf
from mlrefined_lib.imputation import mean_imputer
from mlrefined_lib.normalizers import standard_normalizer
from mlrefined_lib.regularization import l1_path, ridge

HINTS: list = []         # pytest.param(check name, wrong answer, what the failure says)
OTHER_RIGHT: list = []   # pytest.param(check name, right answer)


def hints(check: str, table: list, prefix: str = "") -> list:
    """Rows of HINTS for one check, from its (wrong answer, what the failure says) pairs."""
    rows = []
    for number, (answer, says) in enumerate(table):
        name = getattr(answer, "__name__", "<lambda>")
        label = name if name != "<lambda>" else f"{prefix or 'case'}-{number}"
        rows.append(pytest.param(check, answer, says, id=f"{check}-{label}"))
    return rows


# ================================================================================================ chapter 1's checks (gradient descent)

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


def test_least_squares_gradient_check_catches_wrong_bias():
    def no_bias(x, y, w):
        out = correct_gradient(x, y, w)
        out[0] = 0.0
        return out

    with pytest.raises(CheckFailed, match="bias w\\[0\\]"):
        check_least_squares_gradient(no_bias)


# ---------------------------------------------------------------- check_descend_until_flat


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
        return right.descend_until_flat(gradient, w0, alpha, tol, 10**9 if tol > 1e-6 else 40)

    with pytest.raises(CheckFailed, match="stop after max_its = 25 steps"):
        check_descend_until_flat(ignores_max_its)


def test_descend_check_catches_wrong_step():
    def plus(gradient, w0, alpha, tol, max_its):
        w, steps = right.descend_until_flat(gradient, w0, alpha, tol, max_its)
        return w + 1e-3, steps

    with pytest.raises(CheckFailed, match="weights are not"):
        check_descend_until_flat(plus)


HINTS += hints("check_least_squares_gradient", [
    (lambda x, y, w: -correct_gradient(x, y, w), "wrong sign"),
])


# ================================================================================================ chapter 2's checks (stochastic and mini-batch gradient descent)

# ---------------------------------------------------------------- check_sgd_epoch


def sgd_epoch_no_two(x, y, w, alpha, order):
    return right.sgd_epoch(x, y, w, alpha / 2, order)


def sgd_epoch_ignores_order(x, y, w, alpha, order):
    return right.sgd_epoch(x, y, w, alpha, range(len(x)))


def sgd_epoch_full_batch(x, y, w, alpha, order):
    x_ext = np.column_stack([np.ones(len(x)), x])
    return w - alpha * 2 / len(x) * x_ext.T @ (x_ext @ w - y)


def sgd_epoch_no_bias(x, y, w, alpha, order):
    w = np.array(w, dtype=float)
    for p in order:
        w[1:] = right.sgd_step(x, y, w, alpha, p)[1:]
    return w


def sgd_epoch_in_place(x, y, w, alpha, order):
    w[:] = right.sgd_epoch(x, y, w, alpha, order)
    return w


def sgd_epoch_stale_gradient(x, y, w, alpha, order):
    """Every step uses the residuals of the starting weights: not stochastic gradient descent."""
    w0 = np.array(w, dtype=float)
    return w0 + sum(right.sgd_step(x, y, w0, alpha, p) - w0 for p in order)


# ---------------------------------------------------------------- check_minibatches


def minibatches_drop_last(num_points, batch_size, rng):
    return [batch for batch in right.minibatches(num_points, batch_size, rng) if len(batch) == batch_size]


def minibatches_no_shuffle(num_points, batch_size, rng):
    return right.batches(np.arange(num_points), batch_size)


def minibatches_with_replacement(num_points, batch_size, rng):
    return right.batches(rng.integers(0, num_points, size=num_points), batch_size)


def minibatches_other_shuffle(num_points, batch_size, rng):
    return right.minibatches(num_points, batch_size, np.random.default_rng(99))


def minibatches_even_split(num_points, batch_size, rng):
    return np.array_split(rng.permutation(num_points), -(-num_points // batch_size))


HINTS += hints("check_sgd_epoch", [
    (sgd_epoch_no_two, "half as long"),
    (sgd_epoch_ignores_order, "given by `order`"),
    (sgd_epoch_full_batch, "one full-batch gradient step"),
    (sgd_epoch_no_bias, "bias w\\[0\\] did not move"),
    (sgd_epoch_in_place, "changed the weights w"),
    (sgd_epoch_stale_gradient, "Update w after every single point"),
])


HINTS += hints("check_minibatches", [
    (minibatches_drop_last, "keep the last, smaller batch"),
    (minibatches_no_shuffle, "stored order"),
    (minibatches_with_replacement, "appear twice"),
    (minibatches_other_shuffle, "rng.permutation"),
    (minibatches_even_split, "batch sizes are"),
    (lambda n, b, rng: [np.linspace(0, 1, n)], "integer row numbers"),
])


# ================================================================================================ chapter 3's checks (costs for classification)


def gradient_right(x, y, w):
    x_ext = right.x_ext(x)
    return x_ext.T @ (right.sigmoid(x_ext @ w) - y) / len(x)


def test_gradient_check_refuses_the_librarys_cost():
    """The exercise says NumPy only: calling the library's cost is refused, with the rule."""
    with pytest.raises(CheckFailed, match="`cross_entropy`.*NumPy only"):
        checks.check_cross_entropy_gradient(lambda x, y, w: ml.cross_entropy(x, y).gradient(w))


def test_gradient_check_refuses_a_function_that_edits_its_input():
    def editing(x, y, w):
        y[:] = 2 * y - 1
        return gradient_right(x, (y + 1) / 2, w)

    with pytest.raises(CheckFailed, match="changed an array"):
        checks.check_cross_entropy_gradient(editing)


HINTS += hints("check_cross_entropy_gradient", [
    (lambda x, y, w: -gradient_right(x, y, w), "wrong sign"),
    (lambda x, y, w: gradient_right(x, y, w) * len(x), "P times too large"),
    (lambda x, y, w: -gradient_right(x, y, w) * len(x), "wrong sign and is P times"),
    (lambda x, y, w: -right.x_ext(x).T @ (y * right.sigmoid(-y * (right.x_ext(x) @ w))) / len(x), "labels ±1"),
    (lambda x, y, w: right.x_ext(x).T @ (right.sigmoid(right.x_ext(x) @ w) - (2 * y - 1)) / len(x), "labels must be 0 and 1"),
    (lambda x, y, w: right.x_ext(x).T @ (right.x_ext(x) @ w - y) / len(x), "instead of the probability"),
    (lambda x, y, w: 2 * gradient_right(x, y, w), "no factor 2"),
    (lambda x, y, w: gradient_right(x, y, w)[1:], "add the entry for the bias"),
    (lambda x, y, w: gradient_right(x, y, w) + np.eye(len(w))[0], "not for the bias"),
    (lambda x, y, w: np.ones(len(w)), "X̃ᵀ"),
    (lambda x, y, w: "gradient", "array of numbers"),
])


HINTS += hints("check_input_at_probability", [
    (lambda w, p: w[0] / w[1], "sign is flipped"),
    (lambda w, p: -w[1] / w[0], "swapped"),
    (lambda w, p: (p - w[0]) / w[1], "set the model equal to p"),
    (lambda w, p: -w[0] / w[1], "that is the p = 0.5 boundary"),
    (lambda w, p: (np.log((1 - p) / p) - w[0]) / w[1], "log-odds have the wrong sign"),
    (lambda w, p: (np.log(p / (1 - p)) + w[0]) / w[1], "sign is flipped"),
    (lambda w, p: 1.0, "Solve w0"),
    (lambda w, p: [1.0, 2.0], "one number"),
])


def _softmax_over_labels(x, labels, weights):
    scores = right.x_ext(x) @ weights
    log_shares = scores - np.log(np.exp(scores).sum(axis=1, keepdims=True))
    return -(labels * log_shares).sum(axis=1).mean()


HINTS += hints("check_multilabel_log_loss", [
    (lambda x, labels, w: right.multilabel_log_loss(x, labels, w) / labels.shape[1], "average the labels"),
    (lambda x, labels, w: right.multilabel_log_loss(x, labels, w) * len(x), "sum over the points"),
    (_softmax_over_labels, "softmax"),
    (lambda x, labels, w: right.multilabel_log_loss(x, 1 - labels, w), "wrong way round"),
    (lambda x, labels, w: right.multilabel_log_loss(x[:, 1:], labels, w[1:]) + 1.0, "not the sum over labels"),
    (lambda x, labels, w: np.zeros(labels.shape[1]), "one number"),
])


# ================================================================================================ chapter 4's checks (polynomial features, early stopping)

# ---------------------------------------------------------------- counting polynomial features


def test_count_check_passes_right_answers(capsys):
    checks.check_polynomial_feature_count(lambda n, q: comb(n + q, q))
    checks.check_polynomial_feature_count(lambda n, q: ml.num_polynomial_features(n, q))
    assert capsys.readouterr().out.count("Correct") == 2


# ---------------------------------------------------------------- softmax with early stopping


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


HINTS += hints("check_polynomial_feature_count", [
    (lambda n, q: comb(n + q, q) - 1, "constant"),
    (lambda n, q: n ** q, "ordered products"),
    (lambda n, q: comb(n + q - 1, q), "degree exactly q"),
    (lambda n, q: n * q + 1, "products of different inputs"),
    (lambda n, q: 2 ** n, "binomial coefficient"),
    (lambda n, q: comb(n + q, q) / 1.5, "whole number"),
    (lambda n, q: "many", "whole number"),
])


def products_where(keep):
    """The products x_i·x_j of the pairs (i, j) that ``keep`` accepts, i before j."""
    def answer(x):
        n = x.shape[1]
        return np.column_stack([x[:, i] * x[:, j] for i in range(n) for j in range(n) if keep(i, j)])
    return answer


def products_in_place(x):
    x *= 2
    return right.pair_products(x / 2)


HINTS += hints("check_pair_products", [
    (lambda x: np.column_stack([x, right.pair_products(x)]), "inputs themselves"),
    (products_where(lambda i, j: i <= j), "squares"),
    (products_where(lambda i, j: i != j), "twice"),
    (products_where(lambda i, j: True), "every ordered pair"),
    (lambda x: right.pair_products(x).T, "one row per point"),
    (products_where(lambda i, j: i > j), "another order"),
    (lambda x: right.pair_products(x) + 1, "values are wrong"),
    (lambda x: right.pair_products(x)[:, :-1], "shape"),
    (products_in_place, "changed the array"),
    (lambda x: ml.interaction_features(x, include_inputs=False), "NumPy only"),
    (lambda x: "products", "shape|array of numbers"),
])


HINTS += hints("check_softmax_early_stopping", [
    (variant(keep="last"), "weights after the last epoch"),
    (variant(epoch_shift=1), "one more than it should"),
    (variant(epoch_shift=5), "count epoch 0"),
    (variant(shift=1), "one after the best epoch"),
    (variant(step_scale=24.0), "times too long"),
    (variant(modify=True), "changed an array"),
    (variant(step_scale=0.5), "differ from the reference"),
    (variant(choose_by="training"), "last epoch|training cost"),
    (lambda *args: (np.zeros(13), 0), "shape"),
])


# ================================================================================================ chapter 5's checks (validation)


@pytest.mark.parametrize(
    "wrong, message",
    [
        # the longer blocks last instead of first
        (lambda n, k: right.contiguous_folds(n, k)[::-1], "order"),
        # np.array_split of a reversed range: rows out of order
        (lambda n, k: [(np.setdiff1d(np.arange(n), v), v) for v in np.array_split(np.arange(n)[::-1], k)],
         "consecutive rows"),
        # the training part holds its own validation rows too
        (lambda n, k: [(np.arange(n), v) for _, v in right.contiguous_folds(n, k)], "every row not in"),
        # one fold too few
        (lambda n, k: right.contiguous_folds(n, k)[:-1], "it should return k"),
        # a row lost
        (lambda n, k: [(t, v[1:]) if i == 0 else (t, v) for i, (t, v) in enumerate(right.contiguous_folds(n, k))],
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


# ================================================================================================ chapter 6's audio check


def chord_peaks_with_scipy(signal, rate, count):
    from scipy.signal import find_peaks

    spectrum = np.abs(np.fft.rfft(signal))  # no window: also right for these chords
    peaks, _ = find_peaks(spectrum)
    strongest = peaks[np.argsort(spectrum[peaks])[-count:]]
    return np.sort(strongest * rate / signal.size)


def top_bins(signal, rate, count):  # the strongest bins, not the strongest peaks
    spectrum = right.magnitudes(signal)
    return np.sort(np.argsort(spectrum)[::-1][:count] * rate / signal.size)


def bin_numbers(signal, rate, count):
    return right.chord_peaks(signal, rate, count) * signal.size / rate


def cycles_per_sample(signal, rate, count):
    return right.chord_peaks(signal, rate, count) / rate


def unsorted(signal, rate, count):
    return right.chord_peaks(signal, rate, count)[::-1]


def wrong_count(signal, rate, count):
    return right.chord_peaks(signal, rate, 3)


def chord_peaks_in_place(signal, rate, count):
    signal *= hann_window(signal.size)
    return right.chord_peaks(signal, rate, count)


HINTS += hints("check_chord_peaks", [
    (top_bins, "neighbouring bins of one peak"),
    (bin_numbers, "bin numbers"),
    (cycles_per_sample, "cycles per sample"),
    (unsorted, "increasing order"),
    (wrong_count, "frequencies for count="),
    (chord_peaks_in_place, "changed the signal"),
])


OTHER_RIGHT += [
    pytest.param("check_chord_peaks", right.chord_peaks, id="check_chord_peaks-chord_peaks"),
    pytest.param("check_chord_peaks", chord_peaks_with_scipy, id="check_chord_peaks-chord_peaks_with_scipy"),
]


# ================================================================================================ chapter 6's check of one-hot encoding by hand


def occurring_only(values, categories):
    seen = sorted(set(values))
    return np.eye(len(seen))[[seen.index(v) for v in values]]


def sorted_columns(values, categories):
    order = sorted(categories)
    return np.eye(len(order))[[order.index(v) for v in values]]


def zeros_for_unknown(values, categories):
    return np.array([[1.0 if v == c else 0.0 for c in categories] for v in values])


def transposed(values, categories):
    return right.one_hot_by_hand(values, categories).T


def silent_error(values, categories):
    if any(v not in categories for v in values):
        raise ValueError("bad input")
    return right.one_hot_by_hand(values, categories)


def one_hot_in_place(values, categories):
    result = right.one_hot_by_hand(values, categories)
    categories.append("extra")
    return result


HINTS += hints("check_one_hot_by_hand", [
    (occurring_only, "violet"),
    (sorted_columns, "wrong column"),
    (zeros_for_unknown, "magenta"),
    (transposed, "one row per point"),
    (silent_error, "name"),
    (one_hot_in_place, "changed"),
])


# ================================================================================================ chapter 6's image checks

# ---------------------------------------------------------------- rotation shift


def test_rotation_check_accepts_the_dot_product_form_and_numpy_integers():
    def by_correlation(before, after):
        return np.argmax([np.roll(before, k) @ after for k in range(len(before))])

    checks.check_rotation_shift(by_correlation)


# ---------------------------------------------------------------- train and test


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
    expected = right.train_and_test(x[:400], y[:400], x[400:], y[400:], 0.1, 2, 50)
    got = ch06_histogram_features._reference_softmax_accuracy(x[:400], y[:400], x[400:], y[400:], 0.1, 2, 50)
    assert got == pytest.approx(expected, abs=1e-12)
    assert got > 0.7


HINTS += hints("check_rotation_shift", [
    (lambda b, a: (-right.shift_for_rotation(b, a)) % len(b), "takes histogram_after back"),
    (lambda b, a: right.shift_for_rotation(b, a) * 180 / len(b), "in degrees"),
    (lambda b, a: right.shift_for_rotation(b, a) - len(b), "modulo"),
    (lambda b, a: int(np.argmax([np.linalg.norm(np.roll(b, k) - a) for k in range(len(b))])), "largest distance"),
    (lambda b, a: 1, "best-matching"),
    (lambda b, a: [right.shift_for_rotation(b, a)] * 2, "one integer"),
    (lambda b, a: right.shift_for_rotation(b, a) + 0.5, "whole number"),
])


# ---------------------------------------------------------------- collision share


def test_the_collision_share_reference_matches_a_simulation():
    """The check's formula against strings thrown into columns at random, and against MurmurHash's columns."""
    rng = np.random.default_rng(3)
    for distinct, columns in [(3, 4), (50, 100), (400, 256)]:
        shares = []
        for _ in range(4000 if distinct < 100 else 400):
            column = rng.integers(columns, size=distinct)
            shares.append(np.mean(np.bincount(column, minlength=columns)[column] > 1))
        assert abs(np.mean(shares) - right.expected_collision_share(distinct, columns)) < 0.01
    names = [f"name {i}" for i in range(8000)]
    column, _ = ml.hash_columns(names, 16384)
    measured = np.mean(np.bincount(column, minlength=16384)[column] > 1)
    assert abs(measured - right.expected_collision_share(8000, 16384)) < 0.02


def test_the_collision_check_prints_no_expected_value(capsys):
    with pytest.raises(CheckFailed) as failure:
        checks.check_collision_share(lambda k, m: 0.3)
    assert "0.4375" not in str(failure.value) and "0.437" not in str(failure.value)


HINTS += hints("check_collision_share", [
    (lambda k, m: (1.0 - 1.0 / m) ** (k - 1), "alone in their column"),
    (lambda k, m: 1.0 - (1.0 - 1.0 / m) ** k, "collide with itself"),
    (lambda k, m: 1.0 - np.exp(-(k - 1) / m), "exponential approximation"),
    (lambda k, m: (k - 1) / m, "not a share"),
    (lambda k, m: 0.3, "not the expected share"),
])


# ================================================================================================ chapter 6's text checks

# ---------------------------------------------------------------- bag of words by hand


def bow_right(documents, vocabulary, stop_words):
    return right.unit_rows(right.word_counts(documents, vocabulary, stop_words))


def bow_split_and_strip(documents, vocabulary, stop_words):
    """Split on spaces and strip punctuation from each word: "isn't" and "dog's" stay whole, which the
    instructions (runs of letters and digits) do not allow."""
    import string

    rows = []
    for document in documents:
        words = [w.strip(string.punctuation) for w in document.lower().split()]
        words = [w for w in words if w and w not in stop_words]
        row = np.array([float(words.count(v)) for v in vocabulary])
        length = np.sqrt(row @ row)
        rows.append(row / length if length > 0 else row)
    return np.array(rows)


def bow_runs_of_letters(documents, vocabulary, stop_words):
    """Another correct way: a regular expression for the runs of letters and digits, a Counter per document."""
    from collections import Counter

    rows = []
    for document in documents:
        found = Counter(w for w in re.findall(r"[a-z0-9]+", document.lower()) if w not in stop_words)
        row = np.array([float(found[v]) for v in vocabulary])
        length = np.sqrt(row @ row)
        rows.append(row / length if length > 0 else row)
    return np.array(rows)


def bow_raw_counts(documents, vocabulary, stop_words):
    return right.word_counts(documents, vocabulary, stop_words)


def bow_l1(documents, vocabulary, stop_words):
    counts = right.word_counts(documents, vocabulary, stop_words)
    sums = counts.sum(axis=1, keepdims=True)
    return np.divide(counts, sums, out=np.zeros_like(counts), where=sums > 0)


def bow_keeps_stop_words(documents, vocabulary, stop_words):
    return right.unit_rows(right.word_counts(documents, vocabulary, stop_words, drop=False))


def bow_no_lowercase(documents, vocabulary, stop_words):
    return right.unit_rows(right.word_counts(documents, vocabulary, stop_words, lower=False))


def bow_nan_for_empty(documents, vocabulary, stop_words):
    counts = right.word_counts(documents, vocabulary, stop_words)
    with np.errstate(invalid="ignore"):
        return counts / np.sqrt((counts**2).sum(axis=1, keepdims=True))


def bow_presence(documents, vocabulary, stop_words):
    return right.unit_rows((right.word_counts(documents, vocabulary, stop_words) > 0).astype(float))


def bow_transposed(documents, vocabulary, stop_words):
    return bow_right(documents, vocabulary, stop_words).T


# ---------------------------------------------------------------- spam feature groups


def spam_no_log(x_train, y_train, x_test, y_test, alpha, steps):
    return right.spam_train(x_train, y_train, x_test, y_test, alpha, steps, log=False)


def spam_not_normalized(x_train, y_train, x_test, y_test, alpha, steps):
    return right.spam_train(x_train, y_train, x_test, y_test, alpha, steps, stats="none")


def spam_test_statistics(x_train, y_train, x_test, y_test, alpha, steps):
    return right.spam_train(x_train, y_train, x_test, y_test, alpha, steps, stats="own")


def spam_training_errors(x_train, y_train, x_test, y_test, alpha, steps):
    return right.spam_train(x_train, y_train, x_test, y_test, alpha, steps, count_on="train")


def spam_one_step_short(x_train, y_train, x_test, y_test, alpha, steps):
    return right.spam_train(x_train, y_train, x_test, y_test, alpha, steps - 1)


def spam_in_place(x_train, y_train, x_test, y_test, alpha, steps):
    np.log1p(x_train, out=x_train)
    np.log1p(x_test, out=x_test)
    transform = ml.standard_normalizer(x_train)[0]
    train, test = transform(x_train), transform(x_test)
    w = ml.gradient_descent(ml.softmax(train, y_train), np.zeros(train.shape[1] + 1), alpha, steps).final_weights
    return w, ml.misclassifications(test, y_test)(w)


def spam_errors_only(x_train, y_train, x_test, y_test, alpha, steps):
    return right.train_and_count_errors(x_train, y_train, x_test, y_test, alpha, steps)[1]


def test_spam_check_passes_the_library_route(capsys):
    check_spam_feature_groups(right.train_and_count_errors)
    assert "Correct" in capsys.readouterr().out


HINTS += hints("check_bag_of_words_by_hand", [
    (bow_raw_counts, "raw counts"),
    (bow_l1, "Euclidean length"),
    (bow_keeps_stop_words, "stop words are still counted"),
    (bow_no_lowercase, "Lower-case"),
    (bow_nan_for_empty, "NaN"),
    (bow_presence, "every occurrence"),
    (bow_transposed, "shape"),
    (bow_split_and_strip, "apostrophe"),
])


HINTS += hints("check_spam_feature_groups", [
    (spam_no_log, "log"),
    (spam_not_normalized, "not standard-normalized"),
    (spam_test_statistics, "its own mean"),
    (spam_training_errors, r"\*training\*"),
    (spam_one_step_short, "exactly `steps` steps"),
    (spam_in_place, "changed an array"),
    (spam_errors_only, "pair"),
])


OTHER_RIGHT += [
    pytest.param("check_bag_of_words_by_hand", bow_right, id="check_bag_of_words_by_hand-bow_right"),
    pytest.param("check_bag_of_words_by_hand", bow_runs_of_letters, id="check_bag_of_words_by_hand-bow_runs_of_letters"),
]


# ================================================================================================ chapter 6's TF-IDF check

sklearn_text = pytest.importorskip("sklearn.feature_extraction.text")


def _weights(train_counts, source, *, smooth=True, outer_one=True, log=np.log, df=True):
    documents = source.shape[0]
    frequency = (np.count_nonzero(source, axis=0) if df else source.sum(axis=0)).astype(float)
    with np.errstate(divide="ignore"):
        ratio = (1.0 + documents) / (1.0 + frequency) if smooth else documents / frequency
    return log(ratio) + (1.0 if outer_one else 0.0)


def _unit(rows):
    lengths = np.sqrt((rows**2).sum(axis=1, keepdims=True))
    return np.divide(rows, lengths, out=np.zeros_like(rows), where=lengths > 0)


def tfidf_right(train_counts, test_counts):
    idf = _weights(train_counts, train_counts)
    return _unit(train_counts * idf), _unit(test_counts * idf)


def tfidf_sklearn(train_counts, test_counts):
    """Another correct answer: scikit-learn's transformer with the matching settings."""
    transformer = sklearn_text.TfidfTransformer(smooth_idf=True, norm="l2", sublinear_tf=False).fit(train_counts)
    return transformer.transform(train_counts).toarray(), transformer.transform(test_counts).toarray()


def tfidf_library(train_counts, test_counts):
    train_features, idf = tfidf(train_counts)
    return train_features, tfidf(test_counts, idf)[0]


def tfidf_idf_from_test(train_counts, test_counts):
    return _unit(train_counts * _weights(train_counts, train_counts)), _unit(
        test_counts * _weights(test_counts, test_counts))


def tfidf_idf_from_both(train_counts, test_counts):
    idf = _weights(train_counts, np.vstack([train_counts, test_counts]))
    return _unit(train_counts * idf), _unit(test_counts * idf)


def tfidf_unsmoothed(train_counts, test_counts):
    idf = _weights(train_counts, train_counts, smooth=False)
    return _unit(train_counts * idf), _unit(test_counts * idf)


def tfidf_no_outer_one(train_counts, test_counts):
    idf = _weights(train_counts, train_counts, outer_one=False)
    return _unit(train_counts * idf), _unit(test_counts * idf)


def tfidf_log10(train_counts, test_counts):
    idf = _weights(train_counts, train_counts, log=np.log10)
    return _unit(train_counts * idf), _unit(test_counts * idf)


def tfidf_total_counts(train_counts, test_counts):
    idf = _weights(train_counts, train_counts, df=False)
    return _unit(train_counts * idf), _unit(test_counts * idf)


def tfidf_not_scaled(train_counts, test_counts):
    idf = _weights(train_counts, train_counts)
    return train_counts * idf, test_counts * idf


def tfidf_plain_counts(train_counts, test_counts):
    return _unit(train_counts), _unit(test_counts)


def tfidf_in_place(train_counts, test_counts):
    idf = _weights(train_counts, train_counts)
    train_counts *= idf
    test_counts *= idf
    return _unit(train_counts), _unit(test_counts)


def tfidf_one_array(train_counts, test_counts):
    return tfidf_right(train_counts, test_counts)[1]


def test_refuses_the_librarys_tfidf():
    """The exercise rules out the library's `tfidf`: calling it fails the check, with the rule."""
    with pytest.raises(CheckFailed, match="`tfidf`.*no tfidf"):
        check_tfidf_by_hand(tfidf_library)


HINTS += hints("check_tfidf_by_hand", [
    (tfidf_idf_from_test, "training counts only"),
    (tfidf_idf_from_both, "training and test counts together"),
    (tfidf_unsmoothed, "not smoothed"),
    (tfidf_no_outer_one, "the \\+1 after the logarithm"),
    (tfidf_log10, "base 10"),
    (tfidf_total_counts, "count the training documents that contain"),
    (tfidf_not_scaled, "not scaled"),
    (tfidf_plain_counts, "should be"),
    (tfidf_in_place, "changed an array"),
    (tfidf_one_array, "pair"),
])


OTHER_RIGHT += [
    pytest.param("check_tfidf_by_hand", tfidf_right, id="check_tfidf_by_hand-tfidf_right"),
    pytest.param("check_tfidf_by_hand", tfidf_sklearn, id="check_tfidf_by_hand-tfidf_sklearn"),
]


# ================================================================================================ chapter 7's robust-scaling check


def test_refuses_the_librarys_robust_normalizer():
    """The exercise says NumPy only: the library's own scaler is refused, with the rule."""
    with pytest.raises(CheckFailed, match="`robust_normalizer`.*NumPy only"):
        checks.check_robust_scale(lambda x_train, x_new: ml.robust_normalizer(x_train)[0](x_new))


def test_statistics_over_the_wrong_axis():
    def flattened(x_train, x_new):
        return (x_new - np.median(x_train)) / np.subtract(*np.percentile(x_train, [75, 25]))
    with pytest.raises(CheckFailed, match="not right"):
        checks.check_robust_scale(flattened)


def test_mutation_and_nan():
    def in_place(x_train, x_new):
        x_new -= np.median(x_train, axis=0)
        x_new /= np.subtract(*np.percentile(x_train, [75, 25], axis=0))
        return x_new
    with pytest.raises(CheckFailed, match="changed an array"):
        checks.check_robust_scale(in_place)
    with pytest.raises(CheckFailed, match="NaN or inf"):
        checks.check_robust_scale(lambda x_train, x_new: np.full(x_new.shape, np.nan))


def _grid_below(limit, gammas):
    below = [10.0**-gamma for gamma in sorted(gammas) if 10.0**-gamma < limit]
    return below[0] if below else None


def _hessian_eigenvalues(x, bias=True):
    x_ext = np.column_stack([np.ones(len(x)), x]) if bias else x
    return np.linalg.eigvalsh(2 / len(x) * x_ext.T @ x_ext)


HINTS += hints("check_largest_convergent_alpha", [
    (lambda x, gammas: _grid_below(1 / _hessian_eigenvalues(x).max(), gammas), "not 1 / d_max"),
    (lambda x, gammas: _grid_below(2 / _hessian_eigenvalues(x).min(), gammas), "smallest eigenvalue"),
    (lambda x, gammas: _grid_below(2 / _hessian_eigenvalues(x, bias=False).max(), gammas), "column of ones"),
    (lambda x, gammas: 2 / _hessian_eigenvalues(x).max(), "2 / d_max itself"),
])

HINTS += hints("check_robust_scale", [
    (lambda x_train, x_new: right.robust_scale(x_new, x_new), "training split"),
    (lambda x_train, x_new: (x_new - x_train.mean(axis=0)) / x_train.std(axis=0), "that is standardization"),
    (lambda x_train, x_new: (x_new - x_train.mean(axis=0)) / np.subtract(*np.percentile(x_train, [75, 25], axis=0)), "centre is the mean"),
    (lambda x_train, x_new: (x_new - np.median(x_train, axis=0)) / x_train.std(axis=0), "standard deviation"),
    (lambda x_train, x_new: (x_new - x_train.min(axis=0)) / np.ptp(x_train, axis=0), "min-max"),
    (lambda x_train, x_new: (x_new - np.median(x_train, axis=0)) / np.ptp(x_train, axis=0), "full range"),
    (lambda x_train, x_new: 2 * right.robust_scale(x_train, x_new), "half the interquartile"),
    (lambda x_train, x_new: right.robust_scale(x_train, x_new) + 0.1, r"entry \(\d+, \d+\) is .* but should be"),
])


OTHER_RIGHT += [
    pytest.param("check_robust_scale", right.robust_scale, id="check_robust_scale-robust_scale"),
    pytest.param("check_robust_scale", lambda x_train, x_new: RobustScaler().fit(x_train).transform(x_new), id="check_robust_scale-lambda x_train, x_new: RobustScaler().fit(x_train).transform(x_new)"),
]


def _strict_ranks(x_train, x_new):
    return np.column_stack([(x_train[:, n][None, :] < x_new[:, n][:, None]).mean(axis=1)
                            for n in range(x_train.shape[1])])


def _unclipped_bins(x_train, x_new, bins):
    which = np.floor((x_new - x_train.min()) / np.ptp(x_train) * bins).astype(int)
    return (which[:, None] == np.arange(bins)[None, :]).astype(float)


HINTS += hints("check_training_ranks", [
    (_strict_ranks, "use <="),
    (lambda x_train, x_new: len(x_train) * right.training_ranks(x_train, x_new), "counts"),
    (lambda x_train, x_new: right.training_ranks(x_new, x_new), "ranked x_new among itself"),
    (lambda x_train, x_new: right.training_ranks(x_train, x_new) + 0.01, r"entry \(\d+, \d+\) .* is .* but should be"),
])

HINTS += hints("check_equal_width_bins", [
    (_unclipped_bins, "falls in no bin"),
    (lambda x_train, x_new, bins: right.equal_width_bins(x_new, x_new, bins), "x_new's range"),
    (lambda x_train, x_new, bins: right.equal_width_bins(x_train, x_new, bins)[:, ::-1], "should fall in bin"),
])

HINTS += hints("check_stump", [
    (lambda x_train, y_train, x_new: np.full(len(x_new), y_train.mean()), "overall mean"),
    (lambda x_train, y_train, x_new: np.where(x_new <= 0.5, y_train[x_train <= 0.5].mean(),
                                              y_train[x_train > 0.5].mean()), "a one-split tree predicts"),
])

OTHER_RIGHT += [
    pytest.param("check_equal_width_bins",
                 lambda x_train, x_new, bins: KBinsDiscretizer(bins, encode="onehot-dense", strategy="uniform")
                 .fit(x_train[:, None]).transform(x_new[:, None]), id="check_equal_width_bins-KBinsDiscretizer"),
]

# ================================================================================================ chapter 8's checks (imputation)

# ---------------------------------------------------------------- medians and softmax


def test_check_train_median_impute_catches_in_place_changes():
    def in_place(x_train, x_new):
        medians = np.nanmedian(x_train, axis=0)
        for m in (x_train, x_new):
            rows, columns = np.nonzero(np.isnan(m))
            m[rows, columns] = medians[columns]
        return x_train, x_new

    with pytest.raises(CheckFailed, match="changed"):
        checks.check_train_median_impute(in_place)


def _softmax_solution(x_train, y_train, normalize, alpha, steps):
    from mlrefined_lib.costs import softmax
    from mlrefined_lib.optimizers import gradient_descent

    filled = mean_imputer(x_train)(x_train)
    if normalize:
        filled = standard_normalizer(filled)[0](filled)
    return gradient_descent(softmax(filled, y_train), np.zeros(x_train.shape[1] + 1), alpha, steps).costs


def test_check_gappy_softmax_explains_missing_normalization():
    def never_normalizes(x_train, y_train, normalize, alpha, steps):
        return _softmax_solution(x_train, y_train, False, alpha, steps)

    with pytest.raises(CheckFailed, match="normalize=True"):
        checks.check_gappy_softmax(never_normalizes)


def test_check_gappy_softmax_explains_zero_filling():
    def zero_fill(x_train, y_train, normalize, alpha, steps):
        return _softmax_solution(np.nan_to_num(x_train), y_train, normalize, alpha, steps)

    with pytest.raises(CheckFailed, match="mean"):
        checks.check_gappy_softmax(zero_fill)


# ---------------------------------------------------------------- chapter 8: knn_fill


def knn_fill_from(donor_choice, *, k_shift=0, statistic=np.mean, zero_gaps=False, in_place=False):
    def fill(x_train, x_new, k):
        donors = donor_choice(x_train, x_new)
        filled = x_new if in_place else x_new.copy()
        original = x_new.copy()
        for row in range(len(original)):
            gaps = np.isnan(original[row])
            if not gaps.any():
                continue
            usable = donors[~np.isnan(donors[:, gaps]).any(axis=1)]
            if zero_gaps:
                distances = np.sum((usable - np.where(gaps, 0.0, original[row])) ** 2, axis=1)
            else:
                both = ~np.isnan(usable[:, ~gaps])
                distances = np.sum(np.where(both, (usable[:, ~gaps] - original[row, ~gaps]) ** 2, 0.0), axis=1)
                distances = distances * gaps.size / np.maximum(both.sum(axis=1), 1)
            nearest = np.argsort(distances, kind="stable")[:k + k_shift]
            filled[row, gaps] = statistic(usable[nearest][:, gaps], axis=0)
        return filled
    return fill


training_only = knn_fill_from(lambda x_train, x_new: x_train)


def test_knn_check_passes_right_answers(capsys):
    checks.check_knn_fill(right.knn_fill)
    assert "Correct" in capsys.readouterr().out
    checks.check_knn_fill(training_only)
    # scikit-learn's KNNImputer fitted on the training rows is a right answer too
    checks.check_knn_fill(lambda x_train, x_new, k: KNNImputer(n_neighbors=k).fit(x_train).transform(x_new))


HINTS += hints("check_train_median_impute", [
    (lambda a, b: (np.nan_to_num(a), np.nan_to_num(b)), "median"),
    (lambda a, b: (right.fill_with_training_medians(a, b)[0],
                       np.where(np.isnan(b), np.nanmedian(b, axis=0), b)), "test split's own"),
    (lambda a, b: tuple(np.where(np.isnan(m), np.nanmean(a, axis=0), m) for m in (a, b)), "mean"),
    (lambda a, b: right.fill_with_training_medians(a, b)[0], "pair"),
])


HINTS += hints("check_knn_fill", [
    (lambda x_train, x_new, k: KNNImputer(n_neighbors=k).fit(x_new).transform(x_new), "rows of x_new"),
    (lambda x_train, x_new, k: KNNImputer(n_neighbors=k).fit(np.vstack([x_train, x_new])).transform(x_new), "training and the new rows together"),
    (knn_fill_from(lambda x_train, x_new: x_train, k_shift=1), "k \\+ 1"),
    (knn_fill_from(lambda x_train, x_new: x_train, k_shift=-1), "off-by-one"),
    (knn_fill_from(lambda x_train, x_new: x_train, statistic=np.median), "median"),
    (knn_fill_from(lambda x_train, x_new: x_train, zero_gaps=True), "missing coordinates as 0"),
    (knn_fill_from(lambda x_train, x_new: x_train, in_place=True), "in place"),
    (lambda x_train, x_new, k: np.where(np.isnan(x_new), x_train.mean(axis=0), x_new), "mean imputation"),
    (lambda x_train, x_new, k: right.knn_fill(x_train, x_new, 3), "not for k = 1"),
    (lambda x_train, x_new, k: np.nan_to_num(x_new) + 1, "observed"),
    (lambda x_train, x_new, k: np.where(np.isnan(x_new), 0.123, x_new), "np.argsort"),
    (lambda x_train, x_new, k: x_new[:3], "shape"),
    (lambda x_train, x_new, k: x_new, "NaN"),
])


def _gap_shift_parts(x, column, other):
    gone = np.isnan(x[:, column])
    return x[:, other], gone


HINTS += hints("check_gap_shift", [
    (lambda x, c, o: -right.gap_shift(x, c, o), "sign is reversed"),
    (lambda x, c, o: right.gap_shift(x, c, o) * x[:, o].std(), "not standardized"),
    (lambda x, c, o: right.gap_shift(x, c, o) * x[:, o].std() / x[:, o].std(ddof=1), "ddof = 1"),
    (lambda x, c, o: (lambda v, g: (v[g].mean() - v.mean()) / v.std())(*_gap_shift_parts(x, c, o)), "not with all"),
    (lambda x, c, o: np.nan, "NaN or inf"),
    (lambda x, c, o: [1.0, 2.0], "one number"),
])


def _chained_without_bias(x, rounds):
    mask = np.isnan(x)
    filled = np.where(mask, np.nanmean(x, axis=0), x)
    for _ in range(rounds):
        for n in np.argsort(mask.sum(axis=0), kind="stable"):
            others = np.delete(filled, n, axis=1)
            w = np.linalg.lstsq(others[~mask[:, n]], x[~mask[:, n], n], rcond=None)[0]
            filled[mask[:, n], n] = others[mask[:, n]] @ w
    return filled


def test_chained_equations_check_passes_a_numpy_answer(capsys):
    def chained(x, rounds):
        mask = np.isnan(x)
        filled = np.where(mask, np.nanmean(x, axis=0), x)
        for _ in range(rounds):
            for n in np.argsort(mask.sum(axis=0), kind="stable"):
                design = np.column_stack([np.ones(len(x)), np.delete(filled, n, axis=1)])
                w = np.linalg.lstsq(design[~mask[:, n]], x[~mask[:, n], n], rcond=None)[0]
                filled[mask[:, n], n] = design[mask[:, n]] @ w
        return filled

    checks.check_chained_equations(chained)
    assert "Correct" in capsys.readouterr().out


HINTS += hints("check_chained_equations", [
    (lambda x, rounds: np.where(np.isnan(x), np.nanmean(x, axis=0), x), "only the start"),
    (_chained_without_bias, "no bias"),
    (lambda x, rounds: right.chained_equations(x, rounds + 1), "one round more"),
    (lambda x, rounds: np.nan_to_num(x) + 1, "observed"),
    (lambda x, rounds: x[:, :2], "shape"),
])


# ================================================================================================ chapter 9's checks (PCA-sphering, PCA compression)

# ---------------------------------------------------------------- diagonal Newton step


def diagonal_newton_step(x, y, w):
    x_ext = np.column_stack([np.ones(len(x)), x])
    gradient = 2 / len(x) * x_ext.T @ (x_ext @ w - y)
    return w - gradient / (2 / len(x) * np.sum(x_ext**2, axis=0))


def full_newton(x, y, w):
    x_ext = np.column_stack([np.ones(len(x)), x])
    return np.linalg.lstsq(x_ext, y, rcond=None)[0]


def gradient_step(x, y, w):
    x_ext = np.column_stack([np.ones(len(x)), x])
    return w - 2 / len(x) * x_ext.T @ (x_ext @ w - y)


def uphill(x, y, w):
    return 2 * w - diagonal_newton_step(x, y, w)


def test_diagonal_newton_step_solves_sphered_least_squares():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(50, 3)) @ np.array([[1.0, 0.8, 0.1], [0.0, 0.5, 0.3], [0.0, 0.0, 2.0]])
    y = rng.normal(size=50)
    z = ml.pca_sphere(x)[0](x)
    best = np.linalg.lstsq(np.column_stack([np.ones(50), z]), y, rcond=None)[0]
    np.testing.assert_allclose(diagonal_newton_step(z, y, rng.normal(size=4)), best, atol=1e-10)
    np.testing.assert_allclose(ml.least_squares(z, y).hessian(), 2 * np.eye(4), atol=1e-12)


# ---------------------------------------------------------------- condition numbers


def condition_numbers(x):
    def kappa(inputs):
        x_ext = np.column_stack([np.ones(len(inputs)), inputs])
        eigenvalues = np.linalg.eigvalsh(2 / len(inputs) * x_ext.T @ x_ext)
        return eigenvalues.max() / eigenvalues.min()

    standardized = ml.standard_normalizer(x)[0](x)
    return kappa(x), kappa(standardized), kappa(ml.pca_sphere(standardized)[0](standardized))


def test_condition_numbers_pass_and_report_breast_cancer(capsys):
    checks.check_hessian_condition_numbers(condition_numbers)
    out = capsys.readouterr().out
    assert out.startswith("Correct")
    assert "Breast cancer data (569 points, 30 features)" in out and "sphered 1.000" in out


def no_bias(x):
    def kappa(inputs):
        eigenvalues = np.linalg.eigvalsh(inputs.T @ inputs)
        return eigenvalues.max() / eigenvalues.min()

    standardized = ml.standard_normalizer(x)[0](x)
    return kappa(x), kappa(standardized), 1.0


# ---------------------------------------------------------------- ZCA


def test_zca_output_has_identity_covariance():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(300, 4)) @ rng.normal(size=(4, 4)) + 3.0
    z = ml.pca_sphere(x, zca=True)[0](x)
    np.testing.assert_allclose(np.cov(z, rowvar=False, bias=True), np.eye(4), atol=1e-10)


# ---------------------------------------------------------------- chapter 9: components_for_variance


def components_with_numpy_cov(x, fraction):      # P - 1 instead of P changes nothing: must pass
    eigenvalues = np.sort(np.linalg.eigvalsh(np.cov(x, rowvar=False)))[::-1]
    return np.int64(np.searchsorted(np.cumsum(eigenvalues) / eigenvalues.sum(), fraction) + 1)


def test_components_check_passes_right_answers(capsys):
    checks.check_components_for_variance(right.components_for_variance)
    assert "Correct" in capsys.readouterr().out
    checks.check_components_for_variance(components_with_numpy_cov)


def not_normalized(x, fraction):
    centred = x - x.mean(axis=0)
    eigenvalues = np.sort(np.linalg.eigvalsh(centred.T @ centred / len(x)))[::-1]
    return int(np.argmax(np.cumsum(eigenvalues) >= fraction)) + 1


def zero_based(x, fraction):
    return right.components_for_variance(x, fraction) - 1


def ascending(x, fraction):
    centred = x - x.mean(axis=0)
    eigenvalues = np.linalg.eigvalsh(centred.T @ centred / len(x))          # ascending order
    return int(np.argmax(np.cumsum(eigenvalues / eigenvalues.sum()) >= fraction)) + 1


def uncentred(x, fraction):
    eigenvalues = np.sort(np.linalg.eigvalsh(x.T @ x / len(x)))[::-1]
    return int(np.argmax(np.cumsum(eigenvalues / eigenvalues.sum()) >= fraction)) + 1


def modifies(x, fraction):
    x -= x.mean(axis=0)
    return right.components_for_variance(x, fraction)


HINTS += hints("check_diagonal_newton_step", [
    (full_newton, "full Hessian"),
    (gradient_step, "plain gradient step"),
    (uphill, "uphill"),
    (lambda x, y, w: np.zeros(3), re.escape("shape (4,)")),
])


HINTS += hints("check_hessian_condition_numbers", [
    (no_bias, "leaves out the bias"),
    (lambda x: tuple(np.sqrt(condition_numbers(x))), "square root"),
    (lambda x: condition_numbers(x)[:2], "tuple of three"),
])


HINTS += hints("check_zca_whiten", [
    (lambda a, b: right.zca_whiten(a, b, stats_from_new=True), "its own statistics"),
    (lambda a, b: right.zca_whiten(a, b, rotate_back=False), "PCA-sphering"),
    (lambda a, b: right.zca_whiten(a, b, ddof=1), "P − 1"),
    (lambda a, b: right.zca_whiten(a, b, divide_by=lambda d: d), "square roots"),
    (lambda a, b: right.zca_whiten(a, b, centre=False), "forgot to centre"),
])


HINTS += hints("check_components_for_variance", [
    (not_normalized, "not normalized"),
    (zero_based, "one too few"),
    (ascending, "smallest eigenvalues first"),
    (uncentred, "without centring"),
    (modifies, "changed the array"),
    (lambda x, fraction: 3, "right numbers of components are 1, 3, 5, 6"),
    (lambda x, fraction: "three", "one whole number"),
    (lambda x, fraction: [1, 2], "one whole number"),
])


# ================================================================================================ chapter 10's checks (boosting)


def centred_boost_by_residual(x, y, rounds):
    return right.boost_by_residual(x - x.mean(axis=0), y, rounds)


def test_check_boost_by_residual():
    with pytest.raises(CheckFailed, match="not centred|chooses"):
        check_boost_by_residual(centred_boost_by_residual)
    with pytest.raises(CheckFailed, match="mean of y"):
        check_boost_by_residual(lambda x, y, r: (right.boost_by_residual(x, y, r)[0], np.zeros(r + 1)))
    with pytest.raises(CheckFailed, match="weights are not"):
        check_boost_by_residual(lambda x, y, r: (lambda o, w: (o, np.r_[w[0], 2 * w[1:]]))(*right.boost_by_residual(x, y, r)))


def test_check_one_weight_newton():
    with pytest.raises(CheckFailed, match="ignores the offset"):
        check_one_weight_newton(lambda offset, column, y: right.one_weight_newton(np.zeros_like(offset), column, y))
    with pytest.raises(CheckFailed, match="best weight is"):
        check_one_weight_newton(lambda offset, column, y: right.one_weight_newton(offset, column, y) + 0.1)


# ================================================================================================ chapter 11's checks (regularization)


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


def test_l1_proximal_step_in_place():
    def in_place(w, t):
        w[1:] = np.sign(w[1:]) * np.maximum(np.abs(w[1:]) - t, 0.0)
        return w

    with pytest.raises(CheckFailed, match="changed the array"):
        checks.check_l1_proximal_step(in_place)


def test_pick_lambda_by_training_error():
    def by_training(x_train, y_train, x_val, y_val, lams):
        path = l1_path(x_train, y_train, lams)
        errors = [np.mean((w[0] + x_train @ w[1:] - y_train) ** 2) for w in path.weights]
        return lams[int(np.argmin(errors))], path.weights[int(np.argmin(errors))]

    with pytest.raises(CheckFailed, match="training error"):
        checks.check_pick_lambda(by_training)


HINTS += hints("check_l1_proximal_step", [
    (lambda w, t: np.sign(w) * np.maximum(np.abs(w) - t, 0.0), "bias"),
    (lambda w, t: np.r_[w[0], np.where(np.abs(w[1:]) > t, w[1:], 0.0)], "hard thresholding"),
    (lambda w, t: np.r_[w[0], w[1:] - t * np.sign(w[1:])], "subgradient"),
])


def _mse(w, x, y):
    return np.mean((w[0] + x @ w[1:] - y) ** 2)


def _reordered(x, columns, order):
    copy = x.copy()
    copy[:, columns] = x[order][:, columns]
    return copy


HINTS += hints("check_group_rise", [
    (lambda w, x, y, c, o: _mse(w, _reordered(x, c, o), y), "return its rise"),
    (lambda w, x, y, c, o: _mse(w, _reordered(x, c, o), y) / _mse(w, x, y), "ratio"),
    (lambda w, x, y, c, o: _mse(w, _reordered(x, list(range(x.shape[1])), o), y) - _mse(w, x, y),
     "every column was shuffled"),
    (lambda w, x, y, c, o: _mse(w, x, y[o]) - _mse(w, x, y), "outputs were shuffled"),
])


HINTS += hints("check_ridge_mean_form", [
    (lambda x, y, lam: _ridge_by_hand(x, y, lam), "summed cost"),
    (lambda x, y, lam: _ridge_by_hand(x, y, len(x) * lam / 2), "half as strong"),
])


# ================================================================================================ chapter 12's checks (a preprocessing pipeline)

# ---------------------------------------------------------------- date features


def test_date_check_catches_changing_the_input():
    def in_place(stamps):
        out = right.date_features(stamps)
        stamps.iloc[0] = pd.Timestamp("2000-01-01")
        return out

    with pytest.raises(CheckFailed, match="changed"):
        checks.check_date_features(in_place)


# ---------------------------------------------------------------- one-hot with training categories


def test_encode_check_catches_categories_from_the_wrong_split():
    with pytest.raises(CheckFailed, match="from the new split"):
        checks.check_encode_with_train_categories(lambda t, n: right.encode_with_train_categories(n, n))
    with pytest.raises(CheckFailed, match="only the new split has"):
        checks.check_encode_with_train_categories(lambda t, n: right.encode_with_train_categories(list(t) + list(n), n))
    with pytest.raises(CheckFailed, match="sorted distinct"):
        checks.check_encode_with_train_categories(lambda t, n: (right.encode_with_train_categories(t, n)[0], list(dict.fromkeys(t))))


def test_encode_check_catches_wrong_rows_for_unseen_values():
    def ones_for_unseen(train_values, new_values):
        encoded, categories = right.encode_with_train_categories(train_values, new_values)
        encoded[encoded.sum(axis=1) == 0] = 1.0 / len(categories)
        return encoded, categories

    with pytest.raises(CheckFailed, match="row of zeros"):
        checks.check_encode_with_train_categories(ones_for_unseen)

    def shifted(train_values, new_values):
        encoded, categories = right.encode_with_train_categories(train_values, new_values)
        return np.roll(encoded, 1, axis=1), categories

    with pytest.raises(CheckFailed, match="not one-hot rows"):
        checks.check_encode_with_train_categories(shifted)


# ---------------------------------------------------------------- SMOTE for one class


def test_smote_check_passes_a_right_answer_and_the_library(capsys):
    checks.check_smote_one_class(right.smote_one_class)
    from mlrefined_lib import smote

    def with_library(members, count, k, seed):
        majority = np.zeros((len(members) + count, members.shape[1]))
        x = np.vstack([members, majority])
        y = np.r_[np.ones(len(members)), np.zeros(len(majority))]
        xs, ys = smote(x, y, k=k, seed=seed)
        return xs[len(x):]

    checks.check_smote_one_class(with_library)
    assert capsys.readouterr().out.count("Correct") == 2


@pytest.mark.parametrize("kwargs, words", [
    (dict(self_included=True), "copies"),
    (dict(neighbours_from_all=True), "NEAREST"),
    (dict(step=(-0.5, 1.5)), "outside the segment"),
])
def test_smote_check_catches_typical_mistakes(kwargs, words):
    with pytest.raises(CheckFailed, match=words):
        checks.check_smote_one_class(lambda m, c, k, s: right.smote_one_class(m, c, k, s, **kwargs))


def test_smote_check_catches_other_wrong_points_and_changed_input():
    with pytest.raises(CheckFailed, match="copies"):
        checks.check_smote_one_class(lambda m, c, k, s: m[np.arange(c) % len(m)])
    with pytest.raises(CheckFailed, match="not all of the form"):
        checks.check_smote_one_class(lambda m, c, k, s: np.random.default_rng(0).normal(size=(c, 2)))

    def in_place(members, count, k, seed):
        out = right.smote_one_class(members, count, k, seed)
        members *= 2
        return out

    with pytest.raises(CheckFailed, match="changed"):
        checks.check_smote_one_class(in_place)


HINTS += hints("check_date_features", [
    (lambda s: np.column_stack([s.dt.year, s.dt.month, s.dt.hour, (s.dt.day_of_week + 1) % 7]), "Sunday = 0"),
    (lambda s: np.column_stack([s.dt.year, s.dt.month, s.dt.hour, s.dt.day_of_week + 1]), "1-7"),
    (lambda s: np.column_stack([s.dt.year, s.dt.month, s.dt.hour, s.dt.day]), "day of the month"),
    (lambda s: np.column_stack([s.dt.year, s.dt.month - 1, s.dt.hour, s.dt.day_of_week]), "0-11"),
    (lambda s: np.column_stack([s.dt.year, s.dt.month, s.dt.normalize().dt.hour, s.dt.day_of_week]), "all zeros"),
    (lambda s: np.column_stack([s.dt.year, s.dt.month, s.dt.day_of_week, s.dt.hour]), "hour, day of the week"),
    (lambda s: np.column_stack([s.dt.year, s.dt.month, s.dt.hour]), r"shape \(60, 4\)"),
])



def _forward_shift(theta, trained, true):
    up = theta * true / trained
    return up / (up + (1 - theta) * (1 - true) / (1 - trained))


HINTS += hints("check_matching_threshold", [
    (_forward_shift, "applied the shift to theta"),
    (lambda theta, trained, true: theta * trained / true, "scales the odds"),
    (lambda theta, trained, true: right.matching_threshold(theta, true, trained), "applied the shift to theta"),
    (lambda theta, trained, true: right.matching_threshold(theta, trained, true) + 0.01, "solve for t"),
])


def test_matching_threshold_rules_out_prior_shift():
    import mlrefined_lib as ml

    with pytest.raises(CheckFailed, match="not ml.prior_shift"):
        checks.check_matching_threshold(lambda theta, trained, true: float(ml.prior_shift([theta], true, trained)[0]))


def test_matching_threshold_calls_the_same_rows():
    # the right answer, checked by its meaning: the same rows called on raw and on shifted probabilities
    import mlrefined_lib as ml

    raw = np.random.default_rng(5).random(2000)
    for theta, trained, true in [(0.5, 0.2, 0.037), (0.3, 0.5, 0.7)]:
        shifted = ml.prior_shift(raw, trained, true)
        np.testing.assert_array_equal(raw >= right.matching_threshold(theta, trained, true), shifted >= theta)

# ================================================================================================ the two tables


@pytest.mark.parametrize("check, answer, says", HINTS)
def test_typical_mistake_gets_its_hint(check, answer, says):
    with pytest.raises(CheckFailed, match=says):
        getattr(checks, check)(answer)


@pytest.mark.parametrize("check, answer", OTHER_RIGHT)
def test_other_right_answer_passes(check, answer, capsys):
    getattr(checks, check)(answer)
    assert "Correct" in capsys.readouterr().out
