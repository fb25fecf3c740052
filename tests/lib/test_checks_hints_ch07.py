"""The hints of chapter 7's robust-scaling check: each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import numpy as np
import pytest
from sklearn.preprocessing import RobustScaler

import mlrefined_lib as ml
from mlrefined_lib import checks
from mlrefined_lib.checks import CheckFailed


def by_hand(x_train, x_new):
    median = np.median(x_train, axis=0)
    iqr = np.percentile(x_train, 75, axis=0) - np.percentile(x_train, 25, axis=0)
    return (x_new - median) / iqr


@pytest.mark.parametrize("answer", [
    by_hand,
    lambda x_train, x_new: RobustScaler().fit(x_train).transform(x_new),
])
def test_passes_right_answers(answer, capsys):
    checks.check_robust_scale(answer)
    assert "Correct" in capsys.readouterr().out


def test_refuses_the_librarys_robust_normalizer():
    """The exercise says NumPy only: the library's own scaler is refused, with the rule."""
    with pytest.raises(CheckFailed, match="`robust_normalizer`.*NumPy only"):
        checks.check_robust_scale(lambda x_train, x_new: ml.robust_normalizer(x_train)[0](x_new))


@pytest.mark.parametrize("wrong, message", [
    (lambda x_train, x_new: by_hand(x_new, x_new), "training split"),
    (lambda x_train, x_new: (x_new - x_train.mean(axis=0)) / x_train.std(axis=0), "that is standardization"),
    (lambda x_train, x_new: (x_new - x_train.mean(axis=0)) / np.subtract(*np.percentile(x_train, [75, 25], axis=0)),
     "centre is the mean"),
    (lambda x_train, x_new: (x_new - np.median(x_train, axis=0)) / x_train.std(axis=0), "standard deviation"),
    (lambda x_train, x_new: (x_new - x_train.min(axis=0)) / np.ptp(x_train, axis=0), "min-max"),
    (lambda x_train, x_new: (x_new - np.median(x_train, axis=0)) / np.ptp(x_train, axis=0), "full range"),
    (lambda x_train, x_new: 2 * by_hand(x_train, x_new), "half the interquartile"),
    (lambda x_train, x_new: by_hand(x_train, x_new) + 0.1, r"entry \(\d+, \d+\) is .* but should be"),
])
def test_catches_typical_mistakes(wrong, message):
    with pytest.raises(CheckFailed, match=message):
        checks.check_robust_scale(wrong)


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
