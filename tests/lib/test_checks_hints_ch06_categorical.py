"""The hints of chapter 6's check of one-hot encoding by hand: each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import numpy as np
import pytest

from mlrefined_lib import checks
from mlrefined_lib.checks import CheckFailed


def right(values, categories):
    encoded = np.zeros((len(values), len(categories)))
    for p, value in enumerate(values):
        if value not in categories:
            raise ValueError(f"unknown category {value!r}")
        encoded[p, categories.index(value)] = 1.0
    return encoded


def occurring_only(values, categories):
    seen = sorted(set(values))
    return np.eye(len(seen))[[seen.index(v) for v in values]]


def sorted_columns(values, categories):
    order = sorted(categories)
    return np.eye(len(order))[[order.index(v) for v in values]]


def zeros_for_unknown(values, categories):
    return np.array([[1.0 if v == c else 0.0 for c in categories] for v in values])


def transposed(values, categories):
    return right(values, categories).T


def silent_error(values, categories):
    if any(v not in categories for v in values):
        raise ValueError("bad input")
    return right(values, categories)


def in_place(values, categories):
    result = right(values, categories)
    categories.append("extra")
    return result


@pytest.mark.parametrize(
    "wrong, message",
    [
        (occurring_only, "violet"),
        (sorted_columns, "wrong column"),
        (zeros_for_unknown, "magenta"),
        (transposed, "one row per point"),
        (silent_error, "name"),
        (in_place, "changed"),
    ],
)
def test_typical_mistakes_fail_with_a_hint(wrong, message):
    with pytest.raises(CheckFailed, match=message):
        checks.check_one_hot_by_hand(wrong)
