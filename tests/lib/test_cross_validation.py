"""Tests of cross-validation: folds, scores, grid search and nested CV (chapter 5; comparisons: test_comparison.py)."""

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression
from sklearn.metrics import make_scorer, mean_squared_error
from sklearn.model_selection import KFold, TimeSeriesSplit, cross_val_score

import mlrefined_lib as ml


def fit_lstsq(x, y):
    x_ext = np.column_stack([np.ones(len(x)), x])
    return np.linalg.lstsq(x_ext, y, rcond=None)[0]


def mse(w, x, y):
    return float(np.mean((w[0] + x @ w[1:] - y) ** 2))


def ridge_fit_for(lam):
    """Closed-form ridge with an unpenalized bias, written independently of the library."""
    def fit(x, y):
        x_ext = np.column_stack([np.ones(len(x)), x])
        penalty = lam * np.eye(x_ext.shape[1])
        penalty[0, 0] = 0.0
        return np.linalg.solve(x_ext.T @ x_ext + penalty, x_ext.T @ y)
    return fit


def regression_data(seed=0, points=60, features=3):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(points, features))
    y = 1.0 + x @ rng.normal(size=features) + 0.5 * rng.normal(size=points)
    return x, y


def check_partition(folds, num_points, k):
    assert len(folds) == k
    validation = np.concatenate([v for _, v in folds])
    np.testing.assert_array_equal(np.sort(validation), np.arange(num_points))   # partition: each row once
    for train, val in folds:
        assert np.issubdtype(train.dtype, np.integer) and np.issubdtype(val.dtype, np.integer)
        np.testing.assert_array_equal(train, np.setdiff1d(np.arange(num_points), val))  # sorted complement
        assert np.all(np.diff(val) > 0)


# ---------------------------------------------------------------- k_fold


@pytest.mark.parametrize("num_points, k", [(10, 2), (10, 3), (17, 5), (5, 5), (101, 10)])
@pytest.mark.parametrize("seed", [None, 0, 7])
def test_k_fold_partitions_with_sizes_within_one(num_points, k, seed):
    folds = ml.k_fold(num_points, k, seed=seed)
    check_partition(folds, num_points, k)
    sizes = [len(v) for _, v in folds]
    assert max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)       # the first folds are the larger ones


@pytest.mark.parametrize("num_points, k", [(10, 2), (10, 3), (17, 5), (23, 4), (6, 6)])
def test_k_fold_without_seed_matches_scikit_learn_kfold(num_points, k):
    ours = ml.k_fold(num_points, k, seed=None)
    theirs = list(KFold(n_splits=k, shuffle=False).split(np.zeros((num_points, 1))))
    assert len(ours) == len(theirs)
    for (our_train, our_val), (their_train, their_val) in zip(ours, theirs):
        np.testing.assert_array_equal(our_train, their_train)
        np.testing.assert_array_equal(our_val, their_val)


def test_k_fold_seed_shuffles_reproducibly():
    first, again = ml.k_fold(30, 3, seed=4), ml.k_fold(30, 3, seed=4)
    other, ordered = ml.k_fold(30, 3, seed=5), ml.k_fold(30, 3, seed=None)
    for (_, v1), (_, v2) in zip(first, again):
        np.testing.assert_array_equal(v1, v2)
    assert any(not np.array_equal(v1, v2) for (_, v1), (_, v2) in zip(first, other))
    assert any(not np.array_equal(v1, v2) for (_, v1), (_, v2) in zip(first, ordered))


@pytest.mark.parametrize("seed", [None, 0, 3])
@pytest.mark.parametrize("counts, k", [((12, 7, 5), 5), ((3, 3, 3, 20), 3), ((50, 6), 4)])
def test_stratified_k_fold_keeps_each_class_within_one_of_its_share(counts, k, seed):
    rng = np.random.default_rng(1)
    labels = rng.permutation(np.repeat(np.array(["a", "b", "c", "d"][: len(counts)]), counts))
    folds = ml.k_fold(labels.size, k, seed=seed, labels=labels)
    check_partition(folds, labels.size, k)
    sizes = [len(v) for _, v in folds]
    assert max(sizes) - min(sizes) <= 1
    for cls, count in zip("abcd", counts):
        in_fold = np.array([np.sum(labels[v] == cls) for _, v in folds])
        assert np.all(np.abs(in_fold - count / k) < 1), (cls, in_fold)


def test_stratified_k_fold_carries_the_fold_pointer_across_classes():
    # class 0 goes to folds 0, 1, 0; class 1 carries on at fold 1: 1, 0, 1 (so both folds hold 3 rows)
    folds = ml.k_fold(6, 2, seed=None, labels=[0, 0, 0, 1, 1, 1])
    np.testing.assert_array_equal(folds[0][1], [0, 2, 4])
    np.testing.assert_array_equal(folds[1][1], [1, 3, 5])


def test_grouped_k_fold_assigns_largest_groups_first_to_the_smallest_fold():
    groups = np.array(["A"] * 2 + ["B"] * 5 + ["C"] * 2 + ["D"] * 3)
    folds = ml.k_fold(groups.size, 2, seed=None, groups=groups)
    # by size: B -> fold 0 (5), D -> fold 1 (3), A -> fold 1 (5), C -> fold 0 on the 5-5 tie (lower index)
    assert sorted(set(groups[folds[0][1]])) == ["B", "C"]
    assert sorted(set(groups[folds[1][1]])) == ["A", "D"]


@pytest.mark.parametrize("seed", [None, 0, 11])
def test_grouped_k_fold_never_splits_a_group(seed):
    rng = np.random.default_rng(2)
    groups = rng.integers(0, 15, size=80)
    folds = ml.k_fold(groups.size, 4, seed=seed, groups=groups)
    check_partition(folds, groups.size, 4)
    for i, (train, val) in enumerate(folds):
        assert not set(groups[train]) & set(groups[val])
        for j, (_, other) in enumerate(folds):
            if i != j:
                assert not set(groups[val]) & set(groups[other])


def test_grouped_k_fold_seed_spreads_equal_groups_reproducibly():
    groups = np.repeat(np.arange(12), 3)                   # twelve groups of equal size
    by_seed = {seed: [tuple(v) for _, v in ml.k_fold(groups.size, 3, seed=seed, groups=groups)] for seed in (0, 1)}
    assert by_seed[0] == [tuple(v) for _, v in ml.k_fold(groups.size, 3, seed=0, groups=groups)]
    assert by_seed[0] != by_seed[1]
    assert all(len(v) == 12 for v in by_seed[0])          # equal groups still give equal folds


# ---------------------------------------------------------------- time_folds


@pytest.mark.parametrize("num_points, k", [(10, 3), (3, 2), (20, 4), (23, 5), (100, 9)])
def test_time_folds_match_time_series_split_and_run_forward(num_points, k):
    ours = ml.time_folds(num_points, k)
    theirs = list(TimeSeriesSplit(n_splits=k).split(np.zeros((num_points, 1))))
    assert len(ours) == len(theirs) == k
    for (our_train, our_val), (their_train, their_val) in zip(ours, theirs):
        np.testing.assert_array_equal(our_train, their_train)
        np.testing.assert_array_equal(our_val, their_val)
    for train, val in ours:
        assert train.max() < val.min()                                # validation after all training rows
        np.testing.assert_array_equal(train, np.arange(val.min()))   # trains on every earlier row
        np.testing.assert_array_equal(val, np.arange(val.min(), val.max() + 1))
    stacked = np.concatenate([v for _, v in ours])
    np.testing.assert_array_equal(stacked, np.arange(num_points - stacked.size, num_points))


# ---------------------------------------------------------------- cross_validate


def test_cross_validate_matches_cross_val_score_given_the_same_folds():
    x, y = regression_data(3, points=47)
    folds = ml.k_fold(47, 5, seed=2)

    def fit_sklearn(xs, ys):
        return LinearRegression().fit(xs, ys)

    def error_sklearn(model, xs, ys):
        return float(np.mean((model.predict(xs) - ys) ** 2))

    theirs = -cross_val_score(LinearRegression(), x, y, cv=folds, scoring="neg_mean_squared_error")
    ours_sklearn = ml.cross_validate(fit_sklearn, error_sklearn, x, y, folds)
    ours_lstsq = ml.cross_validate(fit_lstsq, mse, x, y, folds)
    np.testing.assert_allclose(ours_sklearn.scores, theirs, rtol=1e-10)
    np.testing.assert_allclose(ours_lstsq.scores, theirs, rtol=1e-8)
    assert ours_lstsq.mean == pytest.approx(theirs.mean(), rel=1e-8)


def test_cross_validate_matches_cross_val_score_on_time_folds():
    x, y = regression_data(4, points=40)
    folds = ml.time_folds(40, 4)
    scorer = make_scorer(mean_squared_error, greater_is_better=False)
    theirs = -cross_val_score(LinearRegression(), x, y, cv=folds, scoring=scorer)
    np.testing.assert_allclose(ml.cross_validate(fit_lstsq, mse, x, y, folds).scores, theirs, rtol=1e-8)


def test_standard_error_is_the_sample_standard_deviation_over_root_k():
    scores = np.array([0.3, 0.5, 0.2, 0.9, 0.4])
    mean = sum(scores) / 5
    by_hand = (sum((s - mean) ** 2 for s in scores) / 4) ** 0.5 / 5 ** 0.5
    result = ml.CrossValidationResult(scores)
    assert result.mean == pytest.approx(0.46)
    assert result.standard_error == pytest.approx(by_hand, rel=1e-12)
    assert repr(result) == f"CrossValidationResult(5 folds: mean 0.4600 ± {by_hand:.4f} (standard error))"


def test_cross_validate_scores_follow_fold_order_and_fits_see_only_training_rows():
    x = np.arange(12, dtype=float).reshape(-1, 1)          # row p holds the number p
    y = np.arange(12, dtype=float)
    folds = [(np.array([0, 1, 2, 3]), np.array([4, 5])), (np.array([6, 7, 8]), np.array([11])),
             (np.array([9]), np.array([0, 1]))]
    seen = []

    def fit(xs, ys):
        seen.append(xs[:, 0].tolist())
        return ys.mean()

    def error(model, xs, ys):
        return float(np.mean(ys) - model)

    result = ml.cross_validate(fit, error, x, y, folds)
    assert seen == [[0, 1, 2, 3], [6, 7, 8], [9]]
    np.testing.assert_allclose(result.scores, [4.5 - 1.5, 11 - 7, 0.5 - 9])


def test_cross_validate_never_modifies_the_callers_arrays():
    x, y = regression_data(5, points=20)
    x_before, y_before = x.copy(), y.copy()

    def fit(xs, ys):
        w = fit_lstsq(xs, ys)
        xs[:] = 0.0                                            # a careless fit that writes into its input
        ys[:] = 0.0
        return w

    def error(w, xs, ys):
        value = mse(w, xs, ys)
        xs[:] = np.nan
        ys[:] = np.nan
        return value

    for run in (lambda: ml.cross_validate(fit, error, x, y, ml.k_fold(20, 4)),
                lambda: ml.grid_search(lambda _: fit, error, x, y, [1, 2], ml.k_fold(20, 4)),
                lambda: ml.nested_cross_validate(lambda _: fit, error, x, y, [1, 2], ml.k_fold(20, 4), 2),
                lambda: ml.paired_comparison(fit, fit, error, x, y, ml.k_fold(20, 4))):
        run()
        np.testing.assert_array_equal(x, x_before)
        np.testing.assert_array_equal(y, y_before)


def test_a_nan_score_raises_and_names_the_fold():
    x, y = regression_data(6, points=20)

    def error(w, xs, ys):
        return float("nan") if xs.shape[0] == 4 and np.array_equal(xs, x[8:12]) else mse(w, xs, ys)

    with pytest.raises(ValueError, match=r"error returned nan on fold 2"):
        ml.cross_validate(fit_lstsq, error, x, y, ml.k_fold(20, 5, seed=None))


# ---------------------------------------------------------------- grid search


def table_search():
    """Hand-made fold scores: error(model, x, y) looks the score up by param and by the fold's first row."""
    table = {"simple": [1.0, 1.2, 1.1, 1.3],      # mean 1.15: more than one standard error above the best
             "medium": [0.9, 1.0, 0.95, 1.05],    # mean 0.975: within one standard error of the best
             "complex": [0.8, 1.0, 0.9, 1.1]}     # mean 0.95 (the best), standard error 0.0645...
    x = np.arange(8, dtype=float).reshape(-1, 1)
    y = np.zeros(8)
    folds = ml.k_fold(8, 4, seed=None)             # validation rows [0, 1], [2, 3], [4, 5], [6, 7]

    def fit_for(param):
        return lambda xs, ys: param

    def error(param, xs, ys):
        return table[param][int(xs[0, 0]) // 2]

    return table, x, y, folds, fit_for, error


def test_grid_search_picks_the_best_and_the_one_standard_error_choice():
    table, x, y, folds, fit_for, error = table_search()
    result = ml.grid_search(fit_for, error, x, y, ["simple", "medium", "complex"], folds)
    assert result.params == ["simple", "medium", "complex"]
    np.testing.assert_allclose(result.means, [1.15, 0.975, 0.95])
    best_se = np.std(table["complex"], ddof=1) / 2
    assert 0.975 <= 0.95 + best_se < 1.15
    assert result.best_index == 2 and result.best_param == "complex"
    assert result.one_standard_error_index == 1 and result.one_standard_error_param == "medium"
    np.testing.assert_allclose(result.results[0].scores, table["simple"])
    np.testing.assert_allclose(result.standard_errors[2], best_se)
    assert "best 'complex'" in repr(result) and "one-standard-error choice 'medium'" in repr(result)
    # given from complex to simple, the "simplest" is the first listed: the best itself
    reordered = ml.grid_search(fit_for, error, x, y, ["complex", "medium", "simple"], folds)
    assert reordered.one_standard_error_param == "complex"


def test_grid_search_equals_cross_validate_per_param():
    x, y = regression_data(7, points=40)
    folds = ml.k_fold(40, 5, seed=1)
    lams = [10.0, 1.0, 0.1]
    result = ml.grid_search(ridge_fit_for, mse, x, y, lams, folds)
    for lam, cv in zip(lams, result.results):
        np.testing.assert_allclose(cv.scores, ml.cross_validate(ridge_fit_for(lam), mse, x, y, folds).scores)
    assert result.best_index == int(np.argmin([cv.mean for cv in result.results]))


# ---------------------------------------------------------------- nested cross-validation


@pytest.mark.parametrize("mode", ["plain", "labels", "groups"])
def test_nested_cross_validation_equals_an_independent_computation(mode):
    x, y = regression_data(8, points=48, features=6)
    lams = [30.0, 3.0, 0.3, 0.03]
    labels = np.tile([0, 1, 2], 16) if mode == "labels" else None
    groups = np.repeat(np.arange(16), 3) if mode == "groups" else None
    outer = ml.k_fold(48, 4, seed=1, labels=labels, groups=groups)
    result = ml.nested_cross_validate(ridge_fit_for, mse, x, y, lams, outer, 3, seed=5, labels=labels,
                                      groups=groups)
    assert len(result.chosen_params) == len(result.inner_scores) == len(result.outer_scores) == 4
    assert len(result.searches) == 4
    for i, (train, val) in enumerate(outer):
        inner = ml.k_fold(train.size, 3, seed=5, labels=None if labels is None else labels[train],
                          groups=None if groups is None else groups[train])
        means = []
        for lam in lams:
            scores = []
            for inner_train, inner_val in inner:
                w = ridge_fit_for(lam)(x[train][inner_train], y[train][inner_train])
                scores.append(mse(w, x[train][inner_val], y[train][inner_val]))
            means.append(np.mean(scores))
        chosen = lams[int(np.argmin(means))]
        assert result.chosen_params[i] == chosen
        assert result.inner_scores[i] == pytest.approx(min(means), rel=1e-10)
        w = ridge_fit_for(chosen)(x[train], y[train])
        assert result.outer_scores[i] == pytest.approx(mse(w, x[val], y[val]), rel=1e-10)
    assert result.outer_mean == pytest.approx(np.mean(result.outer_scores))
    assert result.inner_standard_error == pytest.approx(np.std(result.inner_scores, ddof=1) / 2)
    assert result.outer_standard_error == pytest.approx(np.std(result.outer_scores, ddof=1) / 2)
    text = repr(result)
    assert f"inner (tuned) mean {result.inner_mean:.4f}" in text and f"outer mean {result.outer_mean:.4f}" in text


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("call, message", [
    (lambda: ml.k_fold(10, 1), r"k must be an integer >= 2; found k = 1"),
    (lambda: ml.k_fold(10, 2.0), r"k must be an integer >= 2; found 2\.0"),
    (lambda: ml.k_fold(10, True), r"k must be an integer >= 2; found True"),
    (lambda: ml.k_fold(5, 6), r"k = 6 folds is larger than num_points = 5"),
    (lambda: ml.k_fold(0, 2), r"num_points must be an integer >= 1; found num_points = 0"),
    (lambda: ml.k_fold(10, 2, seed=1.5), r"seed must be an integer or None; found 1\.5"),
    (lambda: ml.k_fold(10, 4, groups=[0, 0, 1, 1, 1, 2, 2, 2, 2, 2]), r"3 distinct group\(s\), fewer than k = 4"),
    (lambda: ml.k_fold(10, 3, labels=list("aaaaaaaabb")), r"class 'b' has only 2 member\(s\), fewer than k = 3"),
    (lambda: ml.k_fold(10, 2, labels=np.zeros(9)), r"labels has length 9 but num_points is 10"),
    (lambda: ml.k_fold(10, 2, groups=np.zeros(11)), r"groups has length 11 but num_points is 10"),
    (lambda: ml.k_fold(10, 2, labels=np.zeros(10), groups=np.arange(10)), r"not supported; use one"),
    (lambda: ml.time_folds(3, 3), r"at least k \+ 1 = 4 rows.*num_points = 3"),
    (lambda: ml.time_folds(10, 1), r"k must be an integer >= 2; found k = 1"),
])
def test_fold_builders_name_the_number_in_their_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def bad_folds():
    good = (np.arange(5), np.arange(5, 10))
    return [
        ((x for x in [good, good]), r"must be a list of \(train_indices, validation_indices\) pairs.*generator"),
        ([good], r"at least 2 \(train, validation\) pairs.*found 1"),
        ([good, (np.arange(5),)], r"fold 1 must be a \(train_indices, validation_indices\) pair.*length 1"),
        ([good, (np.arange(5), np.array([5, 12]))], r"fold 1's validation indices must be in 0 … 9 .*found 12"),
        ([good, (np.array([-1, 2]), np.arange(5, 10))], r"fold 1's train indices .*found -1"),
        ([good, (np.arange(5.0), np.arange(5, 10))], r"fold 1's train indices must be integers.*float64"),
        ([good, (np.arange(5), np.array([], dtype=int))], r"fold 1's validation indices must be a non-empty"),
        ([good, (np.arange(5), np.arange(3, 10))], r"fold 1 has 2 row\(s\) both in train and in validation"),
    ]


@pytest.mark.parametrize("folds, message", bad_folds())
def test_bad_folds_are_refused_before_any_fit(folds, message):
    x, y = regression_data(10, points=10)
    calls = []

    def fit(xs, ys):
        calls.append(1)
        return fit_lstsq(xs, ys)

    with pytest.raises(ValueError, match=message):
        ml.cross_validate(fit, mse, x, y, folds)
    assert calls == []


def test_other_bad_inputs_name_what_came_in():
    x, y = regression_data(11, points=12)
    folds = ml.k_fold(12, 3)
    with pytest.raises(ValueError, match=r"fit must be a function; found int"):
        ml.cross_validate(3, mse, x, y, folds)
    with pytest.raises(ValueError, match=r"error must be a function; found str"):
        ml.cross_validate(fit_lstsq, "mse", x, y, folds)
    with pytest.raises(ValueError, match=r"P = 12.*\(11,\)"):
        ml.cross_validate(fit_lstsq, mse, x, y[:11], folds)
    with pytest.raises(ValueError, match=r"for param 0\.5 it returned float"):
        ml.grid_search(lambda lam: lam, mse, x, y, [0.5], folds)
    with pytest.raises(ValueError, match=r"at least one parameter value"):
        ml.grid_search(ridge_fit_for, mse, x, y, [], folds)
    with pytest.raises(ValueError, match=r"fit_b must be a function; found NoneType"):
        ml.paired_comparison(fit_lstsq, None, mse, x, y, folds)
    with pytest.raises(ValueError, match=r"inner_k must be an integer >= 2; found inner_k = 1"):
        ml.nested_cross_validate(ridge_fit_for, mse, x, y, [1.0], folds, 1)


def test_nested_inner_fold_problems_name_the_outer_fold_before_any_fit():
    x, y = regression_data(12, points=12)
    calls = []

    def fit_for(lam):
        def fit(xs, ys):
            calls.append(lam)
            return ridge_fit_for(lam)(xs, ys)
        return fit

    outer = ml.k_fold(12, 3, seed=None)                       # 8 training rows per outer fold
    with pytest.raises(ValueError, match=r"outer fold 0 \(its 8 training rows\): k = 9 folds is larger than "
                                         r"num_points = 8"):
        ml.nested_cross_validate(fit_for, mse, x, y, [1.0], outer, 9)
    labels = np.array([0] * 9 + [1] * 3)                     # only 3 rows of class 1, all in rows 9–11
    with pytest.raises(ValueError, match=r"outer fold 0 .*class 1 has only 3 member\(s\), fewer than k = 4"):
        ml.nested_cross_validate(fit_for, mse, x, y, [1.0], outer, 4, labels=labels)
    with pytest.raises(ValueError, match=r"not supported; use one"):
        ml.nested_cross_validate(fit_for, mse, x, y, [1.0], outer, 2, labels=labels, groups=np.arange(12))
    assert calls == []
