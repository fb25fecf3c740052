"""The hints of chapter 12's checks (a preprocessing pipeline): each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import numpy as np
import pandas as pd
import pytest

from mlrefined_lib import checks
from mlrefined_lib.checks import CheckFailed


# ---------------------------------------------------------------- date features


def dates_right(stamps):
    return np.column_stack([stamps.dt.year, stamps.dt.month, stamps.dt.hour, stamps.dt.day_of_week])


@pytest.mark.parametrize("wrong, words", [
    (lambda s: np.column_stack([s.dt.year, s.dt.month, s.dt.hour, (s.dt.day_of_week + 1) % 7]), "Sunday = 0"),
    (lambda s: np.column_stack([s.dt.year, s.dt.month, s.dt.hour, s.dt.day_of_week + 1]), "1-7"),
    (lambda s: np.column_stack([s.dt.year, s.dt.month, s.dt.hour, s.dt.day]), "day of the month"),
    (lambda s: np.column_stack([s.dt.year, s.dt.month - 1, s.dt.hour, s.dt.day_of_week]), "0-11"),
    (lambda s: np.column_stack([s.dt.year, s.dt.month, s.dt.normalize().dt.hour, s.dt.day_of_week]), "all zeros"),
    (lambda s: np.column_stack([s.dt.year, s.dt.month, s.dt.day_of_week, s.dt.hour]), "hour, day of the week"),
    (lambda s: np.column_stack([s.dt.year, s.dt.month, s.dt.hour]), r"shape \(60, 4\)"),
])
def test_date_check_catches_typical_mistakes(wrong, words):
    with pytest.raises(CheckFailed, match=words):
        checks.check_date_features(wrong)


def test_date_check_catches_changing_the_input():
    def in_place(stamps):
        out = dates_right(stamps)
        stamps.iloc[0] = pd.Timestamp("2000-01-01")
        return out

    with pytest.raises(CheckFailed, match="changed"):
        checks.check_date_features(in_place)


# ---------------------------------------------------------------- one-hot with training categories


def encode_right(train_values, new_values):
    categories = sorted(set(train_values))
    encoded = np.array([[1.0 if v == c else 0.0 for c in categories] for v in new_values])
    return encoded, categories


def test_encode_check_catches_categories_from_the_wrong_split():
    with pytest.raises(CheckFailed, match="from the new split"):
        checks.check_encode_with_train_categories(lambda t, n: encode_right(n, n))
    with pytest.raises(CheckFailed, match="only the new split has"):
        checks.check_encode_with_train_categories(lambda t, n: encode_right(list(t) + list(n), n))
    with pytest.raises(CheckFailed, match="sorted distinct"):
        checks.check_encode_with_train_categories(lambda t, n: (encode_right(t, n)[0], list(dict.fromkeys(t))))


def test_encode_check_catches_wrong_rows_for_unseen_values():
    def ones_for_unseen(train_values, new_values):
        encoded, categories = encode_right(train_values, new_values)
        encoded[encoded.sum(axis=1) == 0] = 1.0 / len(categories)
        return encoded, categories

    with pytest.raises(CheckFailed, match="row of zeros"):
        checks.check_encode_with_train_categories(ones_for_unseen)

    def shifted(train_values, new_values):
        encoded, categories = encode_right(train_values, new_values)
        return np.roll(encoded, 1, axis=1), categories

    with pytest.raises(CheckFailed, match="not one-hot rows"):
        checks.check_encode_with_train_categories(shifted)


# ---------------------------------------------------------------- SMOTE for one class


def _smote_one(members, count, k, seed, *, self_included=False, neighbours_from_all=False, step=(0.0, 1.0)):
    rng = np.random.default_rng(seed)
    distances = ((members[:, None] - members[None]) ** 2).sum(axis=2)
    order = np.argsort(distances, axis=1, kind="stable")
    if neighbours_from_all:
        near = order[:, 1:]
    else:
        near = order[:, :k] if self_included else order[:, 1:k + 1]
    start = rng.integers(len(members), size=count)
    chosen = near[start, rng.integers(near.shape[1], size=count)]
    t = rng.uniform(*step, size=count)[:, None]
    return members[start] + t * (members[chosen] - members[start])


def test_smote_check_passes_a_right_answer_and_the_library(capsys):
    checks.check_smote_one_class(_smote_one)
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
        checks.check_smote_one_class(lambda m, c, k, s: _smote_one(m, c, k, s, **kwargs))


def test_smote_check_catches_other_wrong_points_and_changed_input():
    with pytest.raises(CheckFailed, match="copies"):
        checks.check_smote_one_class(lambda m, c, k, s: m[np.arange(c) % len(m)])
    with pytest.raises(CheckFailed, match="not all of the form"):
        checks.check_smote_one_class(lambda m, c, k, s: np.random.default_rng(0).normal(size=(c, 2)))

    def in_place(members, count, k, seed):
        out = _smote_one(members, count, k, seed)
        members *= 2
        return out

    with pytest.raises(CheckFailed, match="changed"):
        checks.check_smote_one_class(in_place)
