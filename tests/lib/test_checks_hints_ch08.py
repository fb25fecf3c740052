"""The hints of chapter 8's checks (imputation): each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import numpy as np
import pytest
from sklearn.impute import KNNImputer

from mlrefined_lib import checks
from mlrefined_lib.checks import CheckFailed
from mlrefined_lib.imputation import mean_imputer
from mlrefined_lib.normalizers import standard_normalizer


# ---------------------------------------------------------------- medians and softmax


def _median_solution(x_train, x_new):
    medians = np.nanmedian(x_train, axis=0)
    return np.where(np.isnan(x_train), medians, x_train), np.where(np.isnan(x_new), medians, x_new)


@pytest.mark.parametrize(
    "wrong, message",
    [
        (lambda a, b: (np.nan_to_num(a), np.nan_to_num(b)), "median"),
        (lambda a, b: (_median_solution(a, b)[0],
                       np.where(np.isnan(b), np.nanmedian(b, axis=0), b)), "test split's own"),
        (lambda a, b: tuple(np.where(np.isnan(m), np.nanmean(a, axis=0), m) for m in (a, b)), "mean"),
        (lambda a, b: _median_solution(a, b)[0], "pair"),
    ],
)
def test_check_train_median_impute_explains_mistakes(wrong, message):
    with pytest.raises(CheckFailed, match=message):
        checks.check_train_median_impute(wrong)


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

def knn_fill_right(x_train, x_new, k):
    filled = x_new.copy()
    for row in range(len(x_new)):
        gaps = np.isnan(x_new[row])
        if gaps.any():
            distances = np.sqrt(np.sum((x_train[:, ~gaps] - x_new[row, ~gaps]) ** 2, axis=1))
            nearest = np.argsort(distances)[:k]
            filled[row, gaps] = x_train[nearest][:, gaps].mean(axis=0)
    return filled


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
    checks.check_knn_fill(knn_fill_right)
    assert "Correct" in capsys.readouterr().out
    checks.check_knn_fill(training_only)
    # scikit-learn's KNNImputer fitted on the training rows is a right answer too
    checks.check_knn_fill(lambda x_train, x_new, k: KNNImputer(n_neighbors=k).fit(x_train).transform(x_new))


@pytest.mark.parametrize("wrong, phrase", [
    (lambda x_train, x_new, k: KNNImputer(n_neighbors=k).fit(x_new).transform(x_new), "rows of x_new"),
    (lambda x_train, x_new, k: KNNImputer(n_neighbors=k).fit(np.vstack([x_train, x_new])).transform(x_new),
     "training and the new rows together"),
    (knn_fill_from(lambda x_train, x_new: x_train, k_shift=1), "k \\+ 1"),
    (knn_fill_from(lambda x_train, x_new: x_train, k_shift=-1), "off-by-one"),
    (knn_fill_from(lambda x_train, x_new: x_train, statistic=np.median), "median"),
    (knn_fill_from(lambda x_train, x_new: x_train, zero_gaps=True), "missing coordinates as 0"),
    (knn_fill_from(lambda x_train, x_new: x_train, in_place=True), "in place"),
    (lambda x_train, x_new, k: np.where(np.isnan(x_new), x_train.mean(axis=0), x_new), "mean imputation"),
    (lambda x_train, x_new, k: knn_fill_right(x_train, x_new, 3), "not for k = 1"),
    (lambda x_train, x_new, k: np.nan_to_num(x_new) + 1, "observed"),
    (lambda x_train, x_new, k: np.where(np.isnan(x_new), 0.123, x_new), "np.argsort"),
    (lambda x_train, x_new, k: x_new[:3], "shape"),
    (lambda x_train, x_new, k: x_new, "NaN"),
])
def test_knn_check_catches_mistakes(wrong, phrase):
    with pytest.raises(CheckFailed, match=phrase):
        checks.check_knn_fill(wrong)
