"""The contract every exercise check keeps (like scikit-learn's check_estimator), one table for all.

For every ``check_*`` of :mod:`mlrefined_lib.checks`: a stub that raises NotImplementedError gets
the "not written yet" message; something that is not a function gets "should be a function"; an
answer of the wrong shape or type gets a message that says so; a known-wrong answer raises
CheckFailed with its hint; a right answer (tests/lib/check_answers.py) prints "Correct". A check
added without an entry in CONTRACT fails ``test_every_check_has_a_contract``. The hints for the
other typical mistakes are tested in test_checks_hints.py.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Callable

import check_answers as right
import numpy as np
import pytest

from mlrefined_lib import checks
from mlrefined_lib.checks import _grading


@dataclass(frozen=True)
class Contract:
    right: Callable
    wrong: Callable                  # a known-wrong answer ...
    wrong_says: str                  # ... and (a regular expression of) what the failure says
    bad: Callable                    # an answer of the wrong shape or type ...
    bad_says: str                    # ... and what the failure says
    call: Callable | None = None     # how to call the check with a student function (default: check(f))


def _predictions(check, student):
    return check(student, right.PREDICTION_INPUTS, right.PREDICTION_EXPECTED)


def _twice(f):
    """A (weights, epoch) answer whose epoch is one too many."""
    def answer(*args):
        weights, epoch = f(*args)
        return weights, epoch + 1
    return answer


def _double_weights(x, y, rounds):
    order, weights = right.boost_by_residual(x, y, rounds)
    return order, np.r_[weights[0], 2 * weights[1:]]


def _by_training_error(x_train, y_train, x_val, y_val, lams):
    return right.pick_lambda(x_train, y_train, x_train, y_train, lams)


CONTRACT: dict[str, Contract] = {
    # chapter 1
    "check_least_squares_gradient": Contract(
        right.least_squares_gradient, lambda x, y, w: right.least_squares_gradient(x, y, w) / 2, "half the right size",
        lambda x, y, w: right.least_squares_gradient(x, y, w)[1:], r"shape \(4,\); found shape \(3,\)"),
    "check_descend_until_flat": Contract(
        right.descend_until_flat,
        lambda *args: (lambda w, steps: (w + 1e-3, steps))(*right.descend_until_flat(*args)), "weights are not",
        lambda gradient, w0, alpha, tol, max_its: w0, r"return a pair \(w, steps\)"),
    # chapter 2
    "check_sgd_epoch": Contract(
        right.sgd_epoch, lambda x, y, w, alpha, order: right.sgd_epoch(x, y, w, alpha / 2, order), "half as long",
        lambda x, y, w, alpha, order: 0.0, "shape"),
    "check_minibatches": Contract(
        right.minibatches, lambda n, b, rng: right.batches(np.arange(n), b), "stored order",
        lambda n, b, rng: 3, "list of index arrays"),
    # chapter 3
    "check_cross_entropy_gradient": Contract(
        right.cross_entropy_gradient, lambda x, y, w: -right.cross_entropy_gradient(x, y, w), "wrong sign",
        lambda x, y, w: "gradient", "array of numbers"),
    "check_input_at_probability": Contract(
        right.input_at_probability, lambda w, p: w[0] / w[1], "sign is flipped",
        lambda w, p: [1.0, 2.0], "one number"),
    "check_multilabel_log_loss": Contract(
        right.multilabel_log_loss, lambda x, labels, w: right.multilabel_log_loss(x, labels, w) / labels.shape[1],
        "average the labels", lambda x, labels, w: np.zeros(labels.shape[1]), "one number"),
    # chapter 4
    "check_polynomial_feature_count": Contract(
        right.num_features, lambda n, q: right.num_features(n, q) - 1, "constant",
        lambda n, q: "many", "whole number"),
    "check_pair_products": Contract(
        right.pair_products, lambda x: right.pair_products(x[:, ::-1]), "another order",
        lambda x: right.pair_products(x)[:, :-1], "shape"),
    "check_softmax_early_stopping": Contract(
        right.softmax_early_stopping, _twice(right.softmax_early_stopping), "one more than it should",
        lambda *args: np.zeros((13, 3)), "pair"),
    # chapter 5
    "check_contiguous_folds": Contract(
        right.contiguous_folds, lambda n, k: right.contiguous_folds(n, k)[::-1], "order",
        lambda n, k: 3, r"list of \(train, validation\) pairs of index arrays; found int"),
    "check_one_standard_error_rule": Contract(
        right.one_standard_error_choice, lambda m, e: int(np.argmin(m)), "smallest mean",
        lambda m, e: "two", "should return an index"),
    # chapter 6
    "check_one_hot_by_hand": Contract(
        right.one_hot_by_hand,
        lambda values, categories: right.one_hot_by_hand(values, sorted(categories)), "wrong column",
        lambda values, categories: right.one_hot_by_hand(values, categories).T, "one row per point"),
    "check_collision_share": Contract(
        right.expected_collision_share, lambda k, m: 1.0 - (1.0 - 1.0 / m) ** k, "collide with itself",
        lambda k, m: "half", "one number, a share"),
    "check_chord_peaks": Contract(
        right.chord_peaks, lambda signal, rate, count: right.chord_peaks(signal, rate, count)[::-1],
        "increasing order", lambda signal, rate, count: "C major", "array of numbers"),
    "check_bag_of_words_by_hand": Contract(
        right.bag_of_words_by_hand, right.word_counts, "raw counts",
        lambda *args: right.bag_of_words_by_hand(*args).T, "shape"),
    "check_spam_feature_groups": Contract(
        right.train_and_count_errors, lambda *args: right.spam_train(*args, count_on="train"), r"\*training\*",
        lambda *args: right.train_and_count_errors(*args)[1], "pair"),
    "check_tfidf_by_hand": Contract(
        right.tfidf_by_hand, lambda train, test: tuple(right.unit_rows(c) for c in (train, test)), "should be",
        lambda train, test: right.tfidf_by_hand(train, test)[1], "pair"),
    "check_rotation_shift": Contract(
        right.shift_for_rotation, lambda before, after: 1, "best-matching",
        lambda before, after: [right.shift_for_rotation(before, after)] * 2, "one integer"),
    "check_train_and_test": Contract(
        right.train_and_test, lambda *args: 1 - right.train_and_test(*args), "error rate",
        lambda *args: "high", "one number, the test accuracy; found str"),
    # chapter 7
    "check_standardized_condition_number": Contract(
        right.standardized_condition_number, right.condition_number_of, "raw inputs",
        lambda x: "large", "one number"),
    "check_predictions": Contract(
        right.predict, lambda q: right.predict(q) + 1, "training mean",
        lambda q: 10 * q, "shape", call=_predictions),
    "check_largest_convergent_alpha": Contract(
        right.largest_grid_alpha, lambda x, gammas: 0.1, "largest convergent alpha",
        lambda x, gammas: "big", "one number, a learning rate alpha; found str"),
    "check_robust_scale": Contract(
        right.robust_scale, lambda x_train, x_new: 2 * right.robust_scale(x_train, x_new), "half the interquartile",
        lambda x_train, x_new: right.robust_scale(x_train, x_new)[:, 0], "shape"),
    "check_training_ranks": Contract(
        right.training_ranks, lambda x_train, x_new: len(x_train) * right.training_ranks(x_train, x_new), "counts",
        lambda x_train, x_new: right.training_ranks(x_train, x_new)[:, 0], "shape"),
    "check_equal_width_bins": Contract(
        right.equal_width_bins, lambda x_train, x_new, bins: right.equal_width_bins(x_new, x_new, bins), "x_new's range",
        lambda x_train, x_new, bins: right.equal_width_bins(x_train, x_new, bins)[:, 1:], "shape"),
    "check_stump": Contract(
        right.stump, lambda x_train, y_train, x_new: np.full(len(x_new), y_train.mean()), "overall mean",
        lambda x_train, y_train, x_new: right.stump(x_train, y_train, x_new)[:3], "shape"),
    # chapter 8
    "check_train_median_impute": Contract(
        right.fill_with_training_medians, lambda a, b: (np.nan_to_num(a), np.nan_to_num(b)), "median",
        lambda a, b: right.fill_with_training_medians(a, b)[0], "pair"),
    "check_gappy_softmax": Contract(
        right.train_softmax,
        lambda x_train, y_train, normalize, alpha, steps: right.train_softmax(x_train, y_train, False, alpha, steps),
        "normalize=True", lambda *args: "costs", "array of numbers; found str"),
    "check_knn_fill": Contract(
        right.knn_fill, lambda x_train, x_new, k: np.where(np.isnan(x_new), x_train.mean(axis=0), x_new),
        "mean imputation", lambda x_train, x_new, k: x_new[:3], "shape"),
    "check_gap_shift": Contract(
        right.gap_shift, lambda x, column, other: -right.gap_shift(x, column, other), "sign is reversed",
        lambda x, column, other: "large", "one number"),
    "check_chained_equations": Contract(
        right.chained_equations, lambda x, rounds: np.where(np.isnan(x), np.nanmean(x, axis=0), x), "only the start",
        lambda x, rounds: x[:, :2], "shape"),
    # chapter 9
    "check_diagonal_newton_step": Contract(
        right.diagonal_newton_step,
        lambda x, y, w: w - 2 / len(x) * right.x_ext(x).T @ (right.x_ext(x) @ w - y), "plain gradient step",
        lambda x, y, w: np.zeros(3), r"shape \(4,\)"),
    "check_hessian_condition_numbers": Contract(
        right.hessian_condition_numbers, lambda x: tuple(np.sqrt(right.hessian_condition_numbers(x))), "square root",
        lambda x: right.hessian_condition_numbers(x)[:2], "tuple of three"),
    "check_zca_whiten": Contract(
        right.zca_whiten, lambda a, b: right.zca_whiten(a, b, centre=False), "forgot to centre",
        lambda a, b: right.zca_whiten(a, b)[:, :1], r"shape \(25, 3\); found shape \(25, 1\)"),
    "check_components_for_variance": Contract(
        right.components_for_variance, lambda x, fraction: right.components_for_variance(x, fraction) - 1,
        "one too few", lambda x, fraction: "three", "one whole number"),
    # chapter 10
    "check_boost_by_residual": Contract(
        right.boost_by_residual, _double_weights, "weights are not",
        lambda x, y, rounds: right.boost_by_residual(x, y, rounds)[0], r"pair \(order, weights\)"),
    "check_one_weight_newton": Contract(
        right.one_weight_newton, lambda offset, column, y: right.one_weight_newton(offset, column, y) + 0.1,
        "best weight is", lambda offset, column, y: [1.0, 2.0], "one number; found list"),
    # chapter 11
    "check_l1_proximal_step": Contract(
        right.l1_proximal_step, lambda w, t: np.r_[w[0], np.where(np.abs(w[1:]) > t, w[1:], 0.0)],
        "hard thresholding", lambda w, t: right.l1_proximal_step(w, t)[1:], r"shape \(8,\); found shape \(7,\)"),
    "check_ridge_mean_form": Contract(
        right.ridge_mean_form, right.ridge_by_hand, "summed cost",
        lambda x, y, lam: right.ridge_mean_form(x, y, lam)[1:], r"shape \(4,\); found shape \(3,\)"),
    "check_pick_lambda": Contract(
        right.pick_lambda, _by_training_error, "training error",
        lambda *args: right.pick_lambda(*args)[0], r"pair \(lam, w\)"),
    "check_group_rise": Contract(
        right.group_rise, lambda w, x, y, c, o: right.group_rise(w, x, y, c[:1], o), "only the first listed",
        lambda w, x, y, c, o: "rise", "one number; found str"),
    # chapter 12
    "check_date_features": Contract(
        right.date_features,
        lambda s: np.column_stack([s.dt.year, s.dt.month, s.dt.hour, s.dt.day_of_week + 1]), "1-7",
        lambda s: right.date_features(s)[:, :3], r"shape \(60, 4\)"),
    "check_encode_with_train_categories": Contract(
        right.encode_with_train_categories, lambda t, n: right.encode_with_train_categories(n, n),
        "from the new split", lambda t, n: right.encode_with_train_categories(t, n)[0], "pair"),
    "check_smote_one_class": Contract(
        right.smote_one_class, lambda m, c, k, s: m[np.arange(c) % len(m)], "copies",
        lambda m, c, k, s: right.smote_one_class(m, c, k, s)[:-1], "shape"),
    "check_matching_threshold": Contract(
        right.matching_threshold, lambda theta, trained, true: theta, "unchanged",
        lambda theta, trained, true: [theta, theta], "one number"),
}

# check_close compares values, not a student's function: the same contract, on values.
VALUE_CHECKS = {"check_close"}


def invoke(name: str, student):
    check = getattr(checks, name)
    call = CONTRACT[name].call
    return call(check, student) if call else check(student)


def stub(*args, **kwargs):
    raise NotImplementedError("Exercise: replace this line with your code.")


def test_every_check_has_a_contract():
    public = {n for n in dir(checks) if n.startswith("check_") and callable(getattr(checks, n))}
    assert public == set(_grading.REGISTRY), "every public check is defined with @graded, and only those"
    missing = public - set(CONTRACT) - VALUE_CHECKS
    assert not missing, f"add an entry to CONTRACT for {sorted(missing)}"
    assert not set(CONTRACT) - public, f"CONTRACT names checks that do not exist: {sorted(set(CONTRACT) - public)}"


def test_all_is_complete_and_in_chapter_order():
    assert set(checks.__all__) == set(_grading.REGISTRY) | {"CheckFailed"}
    assert len(checks.__all__) == len(set(checks.__all__))
    modules = [getattr(checks, n).__wrapped__.__module__ for n in checks.__all__ if n.startswith("check_")]
    chapters = [m.rsplit(".", 1)[-1] for m in modules if ".ch" in m]
    assert chapters == sorted(chapters), "__all__ lists the checks in chapter order"


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_the_registry_holds_the_public_check(name):
    check = getattr(checks, name)
    assert _grading.REGISTRY[name] is check and check.__name__ == name
    assert inspect.signature(check) == inspect.signature(check.__wrapped__)
    assert check.__doc__ and "chapter" in check.__doc__.lower()


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_stub_is_not_written_yet(name, capsys):
    with pytest.raises(checks.CheckFailed, match=r"is not written yet: replace the line `raise NotImplementedError`"):
        invoke(name, stub)
    assert "Correct" not in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_not_a_function(name):
    with pytest.raises(checks.CheckFailed, match="should be a function; found int"):
        invoke(name, 3)


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_wrong_shape_or_type(name, capsys):
    with pytest.raises(checks.CheckFailed, match=CONTRACT[name].bad_says):
        invoke(name, CONTRACT[name].bad)
    assert "Correct" not in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_known_wrong_answer(name, capsys):
    with pytest.raises(checks.CheckFailed, match=CONTRACT[name].wrong_says):
        invoke(name, CONTRACT[name].wrong)
    assert "Correct" not in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_right_answer_passes(name, capsys):
    assert invoke(name, CONTRACT[name].right) is None
    out = capsys.readouterr().out
    assert out.startswith("Correct") and out.count("Correct") == 1, out


def test_check_close_keeps_the_contract_on_values(capsys):
    checks.check_close("z", [1.0, 2.0], np.array([1.0, 2.0]))
    assert capsys.readouterr().out.startswith("Correct")
    with pytest.raises(checks.CheckFailed, match="entry 1 is 2.5 but should be 2"):
        checks.check_close("z", [1.0, 2.5], [1.0, 2.0])
    with pytest.raises(checks.CheckFailed, match=r"shape \(2,\); found shape \(3,\)"):
        checks.check_close("z", [1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(checks.CheckFailed, match="array of numbers; found dict"):
        checks.check_close("z", {"a": 1}, [1.0, 2.0])
    with pytest.raises(checks.CheckFailed, match="NaN or inf"):
        checks.check_close("z", [1.0, np.nan], [1.0, 2.0])
