"""Chapter 8, imputation: the checks of its exercises."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from ..optimizers import gradient_descent
from ._grading import CheckFailed, graded
from ._reference import _as_array, _call

__all__ = ["check_train_median_impute", "check_gappy_softmax", "check_knn_fill", "check_gap_shift",
           "check_chained_equations"]


def _gappy_table(rng: np.random.Generator, shape: tuple[int, int], shift: float, fraction: float) -> np.ndarray:
    """Skewed (log-normal) columns, so that mean and median differ, with a fraction of NaN."""
    table = np.exp(rng.normal(size=shape)) * np.array([1.0, 10.0, 100.0])[: shape[1]] + shift
    table[rng.random(shape) < fraction] = np.nan
    return table


@graded(forbids=('mean_imputer', 'knn_imputer'), rule='NumPy only, not mean_imputer')
def check_train_median_impute(student: Callable) -> None:
    """Check ``student(x_train, x_new) -> (train_filled, new_filled)`` (chapter 8).

    Both arrays should have their NaN entries replaced by the median of the
    observed *training* entries of the same column, and neither input should
    be changed. The reference is plain NumPy (``np.nanmedian`` of x_train).
    """
    rng = np.random.default_rng(71)
    x_train = _gappy_table(rng, (41, 3), 0.0, 0.25)
    x_new = _gappy_table(rng, (17, 3), 50.0, 0.3)      # shifted: its own medians differ
    saved_train, saved_new = x_train.copy(), x_new.copy()
    result = _call(student, "your function", x_train, x_new)
    if not np.array_equal(x_train, saved_train, equal_nan=True) or not np.array_equal(x_new, saved_new, equal_nan=True):
        raise CheckFailed("your function changed the arrays it was given (it filled them in place). "
                          "Work on copies, e.g. filled = np.where(np.isnan(x), medians, x).")
    if not (isinstance(result, tuple) and len(result) == 2):
        raise CheckFailed("your function should return a pair (train_filled, new_filled): "
                          "both splits, imputed with the training medians.")
    train_filled = _as_array(result[0], "the imputed training split", x_train.shape)
    new_filled = _as_array(result[1], "the imputed new split", x_new.shape)

    def fill(m, values):
        return np.where(np.isnan(m), values, m)

    medians = np.nanmedian(x_train, axis=0)
    if np.allclose(train_filled, fill(x_train, medians)) and np.allclose(new_filled, fill(x_new, medians)):
        print("Correct: both splits are filled with the training medians, and the inputs are unchanged.")
        return
    observed_train, observed_new = ~np.isnan(x_train), ~np.isnan(x_new)
    if not (np.allclose(train_filled[observed_train], x_train[observed_train])
            and np.allclose(new_filled[observed_new], x_new[observed_new])):
        raise CheckFailed("your function changed entries that were not missing: only the NaN entries should change.")
    if np.allclose(train_filled, fill(x_train, medians)):
        if np.allclose(new_filled, fill(x_new, np.nanmedian(x_new, axis=0))):
            raise CheckFailed("the training split is right, but the new split is filled with the test split's own "
                              "medians. Use the training medians for both: that is all a model will know.")
        raise CheckFailed("the training split is right but the new split is not: fill its NaN entries with the "
                          "medians of the training columns.")
    for values, what in [(np.nanmean(x_train, axis=0), "the training means, not the medians"),
                         (np.zeros(3), "zeros; use the median of each training column"),
                         (np.nanmedian(np.vstack([x_train, x_new]), axis=0),
                          "medians of both splits together: that leaks the new data; use the training split only")]:
        if np.allclose(train_filled, fill(x_train, values)):
            raise CheckFailed(f"your function fills the gaps with {what}.")
    raise CheckFailed("the filled values are not the training medians. Compute np.nanmedian(x_train, axis=0) "
                      "and put column n's median into the NaN entries of column n.")


@graded
def check_gappy_softmax(student: Callable) -> None:
    """Check ``student(x_train, y_train, normalize, alpha, steps) -> costs`` (chapter 8).

    The function should mean-impute ``x_train`` with its own column means,
    standard-normalize the result when ``normalize`` is True, and return the
    ``steps + 1`` softmax costs of gradient descent from ``w = 0`` with step
    length ``alpha``. The reference uses the library's ``gradient_descent``
    on breast-cancer data (a subset) with injected gaps.
    """
    from sklearn.datasets import load_breast_cancer

    from ..costs import softmax
    from ..imputation import mean_imputer
    from ..normalizers import standard_normalizer

    data = load_breast_cancer()
    rng = np.random.default_rng(72)
    rows = rng.choice(len(data.target), size=150, replace=False)
    x = data.data[rows][:, [0, 3, 7, 21]]
    y = 2.0 * data.target[rows] - 1.0
    x[rng.random(x.shape) < 0.15] = np.nan
    alpha, steps = 0.5, 12

    def reference(inputs, normalize):
        filled = mean_imputer(inputs)(inputs)
        if normalize:
            filled = standard_normalizer(filled)[0](filled)
        return gradient_descent(softmax(filled, y), np.zeros(inputs.shape[1] + 1), alpha, steps).costs

    saved = x.copy()
    for normalize in (False, True):
        result = _call(student, "your function", x.copy(), y.copy(), normalize, alpha, steps)
        costs = _as_array(getattr(result, "costs", result), f"your function (normalize={normalize})", (steps + 1,))
        expected = reference(x, normalize)
        if np.allclose(costs, expected, rtol=1e-6, atol=1e-9):
            continue
        if abs(costs[0] - np.log(2)) > 1e-9:
            raise CheckFailed(f"the first cost should be log 2 = {np.log(2):.6f} (all weights zero); found "
                              f"{costs[0]:.6f}. Start gradient descent from np.zeros(N + 1).")
        if normalize and np.allclose(costs, reference(x, False), rtol=1e-6, atol=1e-9):
            raise CheckFailed("with normalize=True your costs equal the raw ones: standard-normalize the imputed "
                              "inputs when normalize=True.")
        if np.allclose(costs, reference(np.nan_to_num(saved), normalize), rtol=1e-6, atol=1e-9):
            raise CheckFailed("your costs match inputs whose gaps were filled with 0: fill them with each "
                              "column's mean (over its observed entries) instead.")
        worst = int(np.argmax(np.abs(costs - expected)))
        raise CheckFailed(f"with normalize={normalize} your cost after {worst} step(s) is {costs[worst]:.6f} but "
                          f"should be {expected[worst]:.6f}. Impute with the column means, normalize only when "
                          "asked, and run gradient descent on the softmax cost with labels ±1.")
    print("Correct: your cost histories match the reference, raw and normalized.")


def _knn_reference(donors: np.ndarray, x_new: np.ndarray, k: int, *, statistic=np.mean,
                   zero_gaps: bool = False) -> np.ndarray:
    """Fill the NaN of ``x_new`` from the ``k`` nearest complete ``donors`` (distance on observed coordinates)."""
    filled = x_new.copy()
    for row in range(len(x_new)):
        gaps = np.isnan(x_new[row])
        if not gaps.any():
            continue
        if zero_gaps:
            distances = np.sum((np.where(gaps, 0.0, x_new[row]) - donors) ** 2, axis=1)
        else:
            distances = np.sum((x_new[row, ~gaps] - donors[:, ~gaps]) ** 2, axis=1)
        nearest = np.argsort(distances, kind="stable")[:k]
        filled[row, gaps] = statistic(donors[nearest][:, gaps], axis=0)
    return filled


@graded(forbids=('knn_imputer',), rule='NumPy only')
def check_knn_fill(student: Callable) -> None:
    """Check ``student(x_train, x_new, k) -> filled x_new`` (chapter 8).

    ``x_train`` is complete; every NaN of ``x_new`` should become the mean of
    its column over the ``k`` training rows nearest to that row, distances
    measured on the coordinates the row has. The reference is
    ``knn_imputer(x_train, k, scale=False)``, itself tested against
    scikit-learn's ``KNNImputer``.
    """
    from ..imputation import knn_imputer

    rng = np.random.default_rng(77)
    x_train = rng.normal(size=(40, 3)) * np.array([1.0, 2.0, 0.5])
    x_new = rng.normal(size=(15, 3)) * np.array([1.0, 2.0, 0.5]) + np.array([1.5, -2.0, 0.5])
    gaps = rng.random(x_new.shape) < 0.3
    gaps[np.arange(15), rng.integers(0, 3, 15)] = False           # each row keeps at least one coordinate
    gaps[0] = [True, False, False]                                 # and some rows surely have a gap
    gaps[1] = [False, True, True]
    x_new[gaps] = np.nan
    saved_train, saved_new = x_train.copy(), x_new.copy()
    k = 3
    got = _call(student, "knn_fill", x_train, x_new, k)
    if not (np.array_equal(x_train, saved_train) and np.array_equal(x_new, saved_new, equal_nan=True)):
        raise CheckFailed("knn_fill changed the arrays it was given (it filled them in place). Work on a copy, "
                          "e.g. filled = x_new.copy().")
    got = _as_array(got, "knn_fill", x_new.shape)
    expected = knn_imputer(x_train, k, scale=False)(x_new)
    if np.allclose(got, expected, rtol=1e-9, atol=1e-12):
        expected_one = knn_imputer(x_train, 1, scale=False)(x_new)     # before the call, on copies passed to it
        again = _as_array(_call(student, "knn_fill", x_train.copy(), x_new.copy(), 1), "knn_fill", x_new.shape)
        if not np.allclose(again, expected_one, rtol=1e-9, atol=1e-12):
            raise CheckFailed("knn_fill is right for k = 3 but not for k = 1: use the k it is given, not a fixed "
                              "number of neighbours.")
        print("Correct: every gap gets the mean of its k nearest training rows, and the inputs are unchanged.")
        return
    if not np.allclose(got[~gaps], x_new[~gaps]):
        raise CheckFailed("knn_fill changed entries of x_new that were observed: only the NaN entries should change.")
    hints = [
        (_knn_reference(x_train, x_new, k, statistic=np.median), "you take the median of the neighbours; take "
         "their mean."),
        (_knn_reference(x_train, x_new, k, zero_gaps=True), "your distances treat the missing coordinates as 0; "
         "measure each distance only on the coordinates the row of x_new actually has."),
        (_knn_reference(x_train, x_new, k + 1), "you average k + 1 neighbours; take exactly k."),
        (_knn_reference(x_train, x_new, k - 1), "you average k − 1 neighbours (an off-by-one when slicing?); "
         "take exactly k."),
        (np.where(gaps, np.mean(x_train, axis=0), x_new), "you fill every gap with the training column mean: that "
         "is mean imputation; average the k nearest training rows instead."),
        (knn_imputer(np.vstack([x_train, x_new]), k, scale=False)(x_new),
         "your neighbours come from the training and the new rows together: take them from x_train only (the "
         "new rows are test data, so using them leaks)."),
        (knn_imputer(x_new, k, scale=False)(x_new), "your neighbours come from the rows of x_new (the test rows): "
         "take them from x_train only."),
    ]
    for reference, hint in hints:
        if np.allclose(got, reference, rtol=1e-9, atol=1e-12):
            raise CheckFailed(f"knn_fill is not right: {hint}")
    raise CheckFailed("knn_fill is not right. For each row of x_new with a gap, compute its distance to every "
                      "training row on the coordinates it has, pick the k smallest (np.argsort(distances)[:k]) and "
                      "fill each gap with the mean of that column over those k training rows.")


def _correlated_table(rng: np.random.Generator, num_points: int) -> np.ndarray:
    """Four correlated columns on different scales (a shared factor plus noise)."""
    factor = rng.normal(size=(num_points, 1))
    return (factor @ np.array([[1.0, 0.8, -0.6, 0.3]]) + 0.6 * rng.normal(size=(num_points, 4))) \
        * np.array([1.0, 20.0, 3.0, 0.5]) + np.array([0.0, 100.0, -5.0, 2.0])


@graded
def check_gap_shift(student: Callable) -> None:
    """Check ``student(x, column, other) -> float`` (chapter 8).

    The answer is the mean of column ``other`` over the rows where ``column``
    is missing, minus its mean over the rows where ``column`` is observed,
    divided by the standard deviation of ``other`` over all rows (NumPy's
    ``np.std``, ddof = 0). The reference is plain NumPy on fresh tables whose
    gaps depend on another column.
    """
    rng = np.random.default_rng(81)
    for trial in range(3):
        x = _correlated_table(rng, 60 + 7 * trial)
        gone = rng.random(len(x)) < 1 / (1 + np.exp(-2.0 * x[:, 1] / 20.0 + 2.0 * trial - 2.0))
        gone[:2], gone[2:4] = True, False                        # some rows of each kind, always
        x[gone, 2] = np.nan
        column, other = 2, (1, 3, 0)[trial]
        saved = x.copy()
        got = _call(student, "your function", x, column, other)
        if not np.array_equal(x, saved, equal_nan=True):
            raise CheckFailed("your function changed the table it was given: only read it.")
        try:
            value = float(np.asarray(got, dtype=float))
        except (TypeError, ValueError):
            raise CheckFailed(f"your function should return one number; found {type(got).__name__}.") from None
        if not np.isfinite(value):
            raise CheckFailed("your function returned NaN or inf: take the means of `other` over the two groups "
                              "of rows (np.isnan(x[:, column]) says which rows are missing).")
        values, missing = x[:, other], np.isnan(x[:, column])
        difference = values[missing].mean() - values[~missing].mean()
        expected = difference / values.std()
        if np.isclose(value, expected, rtol=1e-7, atol=1e-10):
            continue
        hints = [
            (-expected, "the sign is reversed: take the rows with a gap minus the rows without."),
            (difference, "the difference is right but not standardized: divide it by the standard deviation of "
                         "the `other` column over all rows."),
            (difference / values.std(ddof=1), "divide by np.std (ddof = 0), not by the sample standard deviation "
                                              "(ddof = 1)."),
            (difference / values[~missing].std(), "divide by the standard deviation of `other` over all rows, not "
                                                  "over the observed rows only."),
            (values[missing].mean() / values.std(), "subtract the mean of `other` over the rows where `column` is "
                                                    "observed."),
            ((values[missing].mean() - values.mean()) / values.std(), "compare the rows with a gap with the rows "
             "without one, not with all rows."),
        ]
        for wrong, hint in hints:
            if np.isclose(value, wrong, rtol=1e-7, atol=1e-10):
                raise CheckFailed(f"your function is not right: {hint}")
        raise CheckFailed("your function does not give the standardized difference of the means of `other` between "
                          "the rows where `column` is missing and the rows where it is observed.")
    print("Correct: your shift matches the reference on three tables, and the table is unchanged.")


def _chained_reference(x: np.ndarray, rounds: int, *, bias: bool = True, order: str = "fewest",
                       update: bool = True) -> np.ndarray:
    """Chained equations written out, with switches for the usual mistakes."""
    mask = np.isnan(x)
    filled = np.where(mask, np.nanmean(x, axis=0), x)
    start = filled.copy()
    columns = np.argsort(mask.sum(axis=0), kind="stable") if order == "fewest" else np.arange(x.shape[1])
    for _ in range(rounds):
        for n in columns:
            rows = ~mask[:, n]
            if not mask[:, n].any():
                continue
            source = filled if update else start
            others = np.delete(source, n, axis=1)
            design = np.column_stack([np.ones(len(x)), others]) if bias else others
            w = np.linalg.lstsq(design[rows], x[rows, n], rcond=None)[0]
            filled[~rows, n] = design[~rows] @ w
    return filled


@graded(forbids=("iterative_imputer",), rule="NumPy only, not iterative_imputer")
def check_chained_equations(student: Callable) -> None:
    """Check ``student(x, rounds) -> filled copy of x`` (chapter 8).

    Start from the column means; in each round visit the columns from the
    fewest gaps to the most (ties in column order), fit least squares with a
    bias that predicts the column from all the others on the rows where it is
    observed, and replace its gaps by the predictions. The reference is
    :func:`~mlrefined_lib.imputation.iterative_imputer` fitted on ``x`` and
    applied to ``x``, itself tested against scikit-learn's
    ``IterativeImputer``.
    """
    from ..imputation import iterative_imputer

    rng = np.random.default_rng(83)
    x = _correlated_table(rng, 50)
    for column, share in [(0, 0.1), (1, 0.3), (2, 0.2), (3, 0.0)]:
        x[rng.random(len(x)) < share, column] = np.nan
    x[0, :3] = np.nan                                            # a row with three gaps
    saved = x.copy()
    for rounds in (3, 1):
        got = _call(student, "chained_equations", x, rounds)
        if not np.array_equal(x, saved, equal_nan=True):
            raise CheckFailed("chained_equations changed the table it was given (it filled it in place). Work on a "
                              "copy, e.g. filled = np.where(np.isnan(x), column_means, x).")
        got = _as_array(got, "chained_equations", x.shape)
        expected = iterative_imputer(x, rounds)(x)
        if np.allclose(got, expected, rtol=1e-7, atol=1e-9):
            continue
        observed = ~np.isnan(x)
        if not np.allclose(got[observed], x[observed]):
            raise CheckFailed("chained_equations changed entries that were observed: only the NaN entries should "
                              "change.")
        hints = [
            (np.where(np.isnan(x), np.nanmean(x, axis=0), x), "every gap holds its column's mean: that is only the "
             "start; then predict each column from the others, round after round."),
            (_chained_reference(x, rounds, bias=False), "your lines have no bias: put a column of ones in front "
             "of the other columns."),
            (_chained_reference(x, rounds, order="columns"), "you visit the columns in their own order: visit "
             "them from the fewest gaps to the most (np.argsort of the gap counts, kind='stable')."),
            (_chained_reference(x, rounds, update=False), "each prediction uses the other columns as they were "
             "at the start (filled with the means): use their current filled values, updated as you go."),
            (_chained_reference(x, rounds + 1), "you run one round more than asked."),
            (_chained_reference(x, max(rounds - 1, 1)) if rounds > 1 else None, "you run one round fewer than "
             "asked."),
        ]
        for wrong, hint in hints:
            if wrong is not None and np.allclose(got, wrong, rtol=1e-7, atol=1e-9):
                raise CheckFailed(f"chained_equations is not right: {hint}")
        raise CheckFailed(f"with rounds = {rounds} your filled values differ from chained equations. Fit each line "
                          "on the rows where its column is observed only, with the current values of the other "
                          "columns, and replace that column's gaps before moving to the next column.")
    print("Correct: your chained equations match the reference for 3 rounds and for 1, and the table is "
          "unchanged.")
