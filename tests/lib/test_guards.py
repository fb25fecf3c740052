"""The library's MethodWarning: each guard fires in its faulty case and stays silent in the fine one."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import mlrefined_lib as ml
from mlrefined_lib.guards import nested_training, validation_repeats


def _data(points=60, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(points, 3))
    y = x @ np.array([1.0, -2.0, 0.5]) + rng.normal(size=points)
    return x, y


def _ridge_for(lam):
    return lambda x, y: ml.ridge(x, y, len(y) * lam)


def _shrunk_for(factor):
    """Least squares with its weights scaled by factor: the lowest validation error is near factor 1."""
    return lambda x, y: factor * ml.ridge(x, y, 0.0)


def _error(w, x, y):
    return float(np.mean((w[0] + x @ w[1:] - y) ** 2))


def _method_warnings(function):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = function()
    return value, [str(w.message) for w in caught if issubclass(w.category, ml.MethodWarning)]


def test_method_warning_is_a_user_warning_exported_by_the_package():
    assert issubclass(ml.MethodWarning, UserWarning)
    assert "MethodWarning" in ml.__all__


# ---------------------------------------------------------------- a choice on the edge of its grid


def test_grid_search_warns_when_the_lowest_mean_is_the_last_value_and_names_value_and_grid():
    x, y = _data()
    # signal is strong: the least regularized λ of a grid of large λ wins
    search, found = _method_warnings(lambda: ml.grid_search(_ridge_for, _error, x, y, [10.0, 3.0, 1.0],
                                                            ml.k_fold(60, 5)))
    assert search.best_index == 2
    assert len(found) == 1
    assert "the lowest mean is 1, the last value of the grid [10, 3, 1]" in found[0]
    assert "Extend the grid past 1" in found[0]


def test_grid_search_is_silent_when_both_choices_lie_inside_the_grid():
    x, y = _data()
    lams = [10.0, 1.0, 0.1, 0.01, 1e-3, 1e-4]
    search, found = _method_warnings(lambda: ml.grid_search(_ridge_for, _error, x, y, lams, ml.k_fold(60, 5)))
    assert 0 < search.one_standard_error_index and search.best_index < len(lams) - 1
    assert found == []


def test_grid_search_warns_when_the_one_standard_error_choice_is_the_first_value():
    x, y = _data()
    factors = [0.8, 0.9, 1.0, 1.1, 1.5]   # the smallest shrinks least squares the most: simplest first
    search, found = _method_warnings(lambda: ml.grid_search(_shrunk_for, _error, x, y, factors, ml.k_fold(60, 5)))
    assert search.one_standard_error_index == 0 and search.best_index == 2
    assert len(found) == 1
    assert found[0].startswith("the one-standard-error choice is 0.8, the first value of the grid")


def test_a_natural_end_is_not_warned_about():
    x, y = _data()
    _, found = _method_warnings(lambda: ml.grid_search(_ridge_for, _error, x, y, [10.0, 3.0, 1.0],
                                                       ml.k_fold(60, 5), natural_ends="last"))
    assert found == []
    with pytest.raises(ValueError, match="natural_ends must be one of"):
        ml.grid_search(_ridge_for, _error, x, y, [1.0, 0.1], ml.k_fold(60, 5), natural_ends="right")


def test_grids_of_things_other_than_numbers_are_not_checked():
    x, y = _data()

    def subset_for(columns):
        return lambda x, y: (columns, ml.ridge(x[:, columns], y, 0.0))

    def subset_error(model, x, y):
        return _error(model[1], x[:, model[0]], y)

    search, found = _method_warnings(lambda: ml.grid_search(subset_for, subset_error, x, y, [[0], [0, 1], [0, 1, 2]],
                                                            ml.k_fold(60, 5)))
    assert search.best_index == 2 and found == []


def test_tuned_fit_warns_at_a_call_whose_rule_lands_on_an_edge_and_not_with_natural_ends():
    x, y = _data()
    edge = ml.tuned_fit(_ridge_for, _error, [10.0, 3.0, 1.0], rule="best")
    _, found = _method_warnings(lambda: edge(x, y))
    assert edge.chosen == [1.0] and len(found) == 1
    assert "tuned on 60 rows, the lowest-mean choice is 1, the last value" in found[0]
    declared = ml.tuned_fit(_ridge_for, _error, [10.0, 3.0, 1.0], rule="best", natural_ends="both")
    _, found = _method_warnings(lambda: declared(x, y))
    assert found == []


def test_nested_cross_validate_warns_once_naming_the_outer_folds_on_the_edge():
    x, y = _data()
    _, found = _method_warnings(lambda: ml.nested_cross_validate(_ridge_for, _error, x, y, [10.0, 3.0, 1.0],
                                                                 ml.k_fold(60, 4), 3))
    assert len(found) == 1 and found[0].startswith("in 4 of the 4 outer folds (first: outer fold 0)")
    _, found = _method_warnings(lambda: ml.nested_cross_validate(_shrunk_for, _error, x, y, [0.0, 0.5, 1.0, 2.0, 3.0],
                                                                 ml.k_fold(60, 4), 3))
    assert found == []


# ---------------------------------------------------------------- nested training sets


def test_nested_training_sees_forward_chaining_and_not_k_fold():
    assert nested_training(ml.time_folds(50, 4))
    assert not nested_training(ml.k_fold(50, 4))
    assert not nested_training(ml.k_fold(50, 4, seed=None))


def test_corrected_t_on_forward_folds_warns_and_points_to_blocks():
    x, y = _data(80)
    folds = ml.time_folds(80, 5)
    _, found = _method_warnings(lambda: ml.paired_comparison(_ridge_for(0.0), _ridge_for(1.0), _error, x, y, folds))
    assert len(found) == 1 and "nested" in found[0] and 'test="blocks"' in found[0]
    _, found = _method_warnings(lambda: ml.paired_comparison(_ridge_for(0.0), _ridge_for(1.0), _error, x, y,
                                                             ml.k_fold(80, 5)))
    assert found == []


def test_blocks_test_is_the_plain_t_interval_over_the_fold_differences_and_does_not_warn():
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(4)
    a, b = rng.normal(5, 1, 6), rng.normal(5.5, 1, 6)
    folds = ml.time_folds(70, 6)
    result, found = _method_warnings(lambda: ml.compare_fold_scores(a, b, folds, test="blocks"))
    assert found == []
    d = a - b
    half = scipy_stats.t.ppf(0.975, 5) * d.std(ddof=1) / np.sqrt(6)
    assert result.interval == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-9)
    assert result.p_value == pytest.approx(scipy_stats.ttest_1samp(d, 0).pvalue, rel=1e-7)
    assert result.test == "blocks" and "interval over the validation blocks" in repr(result)
    corrected, _ = _method_warnings(lambda: ml.compare_fold_scores(a, b, folds))
    assert corrected.interval != result.interval


def test_blocks_test_refuses_rows_validated_twice_and_unknown_tests():
    folds = [fold for seed in range(2) for fold in ml.k_fold(30, 3, seed=seed)]
    with pytest.raises(ValueError, match="no row may be validated twice"):
        ml.compare_fold_scores(np.arange(6.0), np.arange(6.0)[::-1], folds, test="blocks")
    with pytest.raises(ValueError, match="unknown test"):
        ml.compare_fold_scores(np.arange(3.0), np.ones(3), ml.k_fold(30, 3), test="plain")


# ---------------------------------------------------------------- standard errors over repeats


def test_validation_repeats_counts_how_often_a_row_is_validated():
    assert validation_repeats(ml.k_fold(40, 5)) == 1
    assert validation_repeats([f for s in range(3) for f in ml.k_fold(40, 5, seed=s)]) == 3


def test_standard_error_over_repeated_folds_warns_and_over_one_run_does_not():
    x, y = _data()
    repeated = [fold for seed in range(3) for fold in ml.k_fold(60, 5, seed=seed)]
    result = ml.cross_validate(_ridge_for(0.1), _error, x, y, repeated)
    assert result.repeats == 3
    _, found = _method_warnings(lambda: result.standard_error)
    assert len(found) == 1 and "sd/√15" in found[0] and "up to 3 times" in found[0]
    once = ml.cross_validate(_ridge_for(0.1), _error, x, y, ml.k_fold(60, 5))
    _, found = _method_warnings(lambda: (once.standard_error, repr(once)))
    assert once.repeats == 1 and found == []


def test_one_standard_error_rule_on_repeated_folds_warns():
    x, y = _data()
    repeated = [fold for seed in range(2) for fold in ml.k_fold(60, 5, seed=seed)]
    _, found = _method_warnings(lambda: ml.grid_search(_ridge_for, _error, x, y, [10.0, 1.0, 0.1, 1e-3, 1e-5],
                                                       repeated))
    assert any("repeated folds" in message for message in found)


def test_the_corrected_t_on_repeated_folds_is_fine():
    rng = np.random.default_rng(2)
    repeated = [fold for seed in range(3) for fold in ml.k_fold(40, 5, seed=seed)]
    _, found = _method_warnings(lambda: ml.compare_fold_scores(rng.normal(size=15), rng.normal(size=15), repeated))
    assert found == []


# ---------------------------------------------------------------- bootstrap replicates


def test_bootstrap_replicates_resample_rows_with_the_seed_and_keep_their_type():
    values = np.arange(30.0)
    means = ml.bootstrap_replicates(lambda rows: values[rows].mean(), 30, 200, seed=5)
    rng = np.random.default_rng(5)
    by_hand = [values[rng.integers(0, 30, 30)].mean() for _ in range(200)]
    assert isinstance(means, ml.Replicates) and np.allclose(means, by_hand)
    assert isinstance(means - 1.0, ml.Replicates)
    low, high = means.percentile_interval()
    assert (low, high) == pytest.approx(tuple(np.percentile(by_hand, [2.5, 97.5])))


def test_paired_test_on_replicates_warns_and_on_plain_rows_does_not():
    values = np.arange(30.0)
    a = ml.bootstrap_replicates(lambda rows: values[rows].mean(), 30, 50)
    b = ml.bootstrap_replicates(lambda rows: np.median(values[rows]), 30, 50)
    _, found = _method_warnings(lambda: ml.paired_test_set(a, b))
    assert len(found) == 1 and "50 bootstrap replicates" in found[0]
    assert "not whether the two models differ" in found[0]
    _, found = _method_warnings(lambda: ml.paired_test_set(np.asarray(a), np.asarray(b)))
    assert found == []


def test_fold_comparison_of_replicates_warns():
    values = np.arange(20.0)
    a = ml.bootstrap_replicates(lambda rows: values[rows].mean(), 20, 4)
    _, found = _method_warnings(lambda: ml.compare_fold_scores(a, a + 1, ml.k_fold(20, 4)))
    assert len(found) == 1 and "bootstrap replicates" in found[0]


def test_warnings_point_at_the_callers_line():
    folds = ml.time_folds(40, 4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ml.compare_fold_scores(np.arange(4.0), np.ones(4), folds)
    assert caught and caught[0].filename == __file__
