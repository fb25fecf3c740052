"""Tests of the checks of chapter 8's k-NN imputation exercise and chapter 9's
PCA-compression exercise: they pass a right answer, explain typical mistakes,
and treat an unwritten stub helpfully."""

import numpy as np
import pytest
from sklearn.impute import KNNImputer

from mlrefined_lib import checks
from mlrefined_lib.checks import CheckFailed


def stub(*args, **kwargs):
    raise NotImplementedError


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
    (stub, "NotImplementedError"),
])
def test_knn_check_catches_mistakes(wrong, phrase):
    with pytest.raises(CheckFailed, match=phrase):
        checks.check_knn_fill(wrong)


# ---------------------------------------------------------------- chapter 9: components_for_variance

def components_right(x, fraction):
    centred = x - x.mean(axis=0)
    eigenvalues = np.sort(np.linalg.eigvalsh(centred.T @ centred / len(x)))[::-1]
    cumulative = np.cumsum(eigenvalues / eigenvalues.sum())
    return int(np.argmax(cumulative >= fraction)) + 1


def components_with_numpy_cov(x, fraction):      # P - 1 instead of P changes nothing: must pass
    eigenvalues = np.sort(np.linalg.eigvalsh(np.cov(x, rowvar=False)))[::-1]
    return np.int64(np.searchsorted(np.cumsum(eigenvalues) / eigenvalues.sum(), fraction) + 1)


def test_components_check_passes_right_answers(capsys):
    checks.check_components_for_variance(components_right)
    assert "Correct" in capsys.readouterr().out
    checks.check_components_for_variance(components_with_numpy_cov)


def not_normalized(x, fraction):
    centred = x - x.mean(axis=0)
    eigenvalues = np.sort(np.linalg.eigvalsh(centred.T @ centred / len(x)))[::-1]
    return int(np.argmax(np.cumsum(eigenvalues) >= fraction)) + 1


def zero_based(x, fraction):
    return components_right(x, fraction) - 1


def ascending(x, fraction):
    centred = x - x.mean(axis=0)
    eigenvalues = np.linalg.eigvalsh(centred.T @ centred / len(x))          # ascending order
    return int(np.argmax(np.cumsum(eigenvalues / eigenvalues.sum()) >= fraction)) + 1


def uncentred(x, fraction):
    eigenvalues = np.sort(np.linalg.eigvalsh(x.T @ x / len(x)))[::-1]
    return int(np.argmax(np.cumsum(eigenvalues / eigenvalues.sum()) >= fraction)) + 1


def modifies(x, fraction):
    x -= x.mean(axis=0)
    return components_right(x, fraction)


@pytest.mark.parametrize("wrong, phrase", [
    (not_normalized, "not normalized"),
    (zero_based, "one too few"),
    (ascending, "smallest eigenvalues first"),
    (uncentred, "without centring"),
    (modifies, "changed the array"),
    (lambda x, fraction: 3, "right numbers of components are 1, 3, 5, 6"),
    (lambda x, fraction: "three", "one whole number"),
    (lambda x, fraction: [1, 2], "one whole number"),
    (stub, "NotImplementedError"),
])
def test_components_check_catches_mistakes(wrong, phrase):
    with pytest.raises(CheckFailed, match=phrase):
        checks.check_components_for_variance(wrong)
