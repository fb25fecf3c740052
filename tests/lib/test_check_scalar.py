"""The library's one check for numeric arguments, ``_validation.check_scalar``, and its rules.

Rules: booleans are refused everywhere; NumPy numbers are accepted; numbers
must be finite; bounds are inclusive unless said otherwise; the message names
the argument, says what was expected and shows what was found. A wrong type
raises an error that is both a TypeError and a ValueError.
"""

from __future__ import annotations

import numbers

import numpy as np
import pytest

import mlrefined_lib as ml
from mlrefined_lib._validation import ScalarTypeError, check_scalar


@pytest.mark.parametrize("value, kind, expected", [
    (3, numbers.Integral, 3),
    (np.int64(3), numbers.Integral, 3),
    (2, numbers.Real, 2.0),
    (np.float32(0.5), numbers.Real, 0.5),
])
def test_accepts_and_converts(value, kind, expected):
    found = check_scalar(value, "v", kind, min_val=0)
    assert found == expected and type(found) is type(expected)


@pytest.mark.parametrize("value", [True, False, np.bool_(True), "3", 2.5, None, [1]])
def test_an_integer_refuses_other_types(value):
    with pytest.raises(ScalarTypeError, match=r"^max_its must be a non-negative integer; found .* of type "):
        check_scalar(value, "max_its", numbers.Integral, min_val=0)
    with pytest.raises(TypeError):
        check_scalar(value, "max_its", numbers.Integral, min_val=0)
    with pytest.raises(ValueError):  # the book's promise: bad input raises ValueError
        check_scalar(value, "max_its", numbers.Integral, min_val=0)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_a_number_must_be_finite(value):
    with pytest.raises(ValueError, match=r"alpha must be a positive number; found alpha = "):
        check_scalar(value, "alpha", numbers.Real, min_val=0, include_boundaries="neither")


@pytest.mark.parametrize("kwargs, ok, bad, words", [
    (dict(min_val=0), 0, -1, "a non-negative integer"),
    (dict(min_val=0, include_boundaries="neither"), 1, 0, "a positive integer"),
    (dict(min_val=2), 2, 1, "an integer >= 2"),
    (dict(min_val=1, max_val=5), 5, 6, "an integer from 1 to 5"),
    (dict(max_val=5, include_boundaries="left"), 4, 5, "an integer < 5"),
])
def test_integer_bounds(kwargs, ok, bad, words):
    assert check_scalar(ok, "k", numbers.Integral, **kwargs) == ok
    with pytest.raises(ValueError, match=f"^k must be {words}; found k = {bad}\\.$"):
        check_scalar(bad, "k", numbers.Integral, **kwargs)


def test_number_bounds_and_extras():
    ratio = dict(min_val=0, max_val=1, include_boundaries="right")
    assert check_scalar(1, "l1_ratio", numbers.Real, **ratio) == 1.0
    with pytest.raises(ValueError, match=r"l1_ratio must be a number in \(0, 1\]; found l1_ratio = 0"):
        check_scalar(0, "l1_ratio", numbers.Real, **ratio)
    assert check_scalar(None, "seed", numbers.Integral, allow_none=True) is None
    with pytest.raises(ValueError, match=r"seed must be an integer or None; found 1\.5 of type float"):
        check_scalar(1.5, "seed", numbers.Integral, allow_none=True)
    with pytest.raises(ValueError, match=r"alpha must be a positive number or one of \['diminishing'\]"):
        check_scalar(-1, "alpha", numbers.Real, min_val=0, include_boundaries="neither", also="one of ['diminishing']")
    with pytest.raises(ValueError, match="include_boundaries"):
        check_scalar(1, "k", numbers.Integral, include_boundaries="inner")


def _regression():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20, 2))
    return x, x @ np.array([1.0, -2.0]) + 0.5


@pytest.mark.parametrize("call, name", [
    (lambda x, y: ml.gradient_descent(ml.least_squares(x, y), np.zeros(3), 0.1, True), "max_its"),
    (lambda x, y: ml.newtons_method(ml.least_squares(x, y), np.zeros(3), True), "max_its"),
    (lambda x, y: ml.l1_path(x, y, [0.1], max_its=True), "max_its"),
    (lambda x, y: ml.k_fold(20, True), "k"),
    (lambda x, y: ml.boost(x, y, True), "rounds"),
    (lambda x, y: ml.polynomial_features(x, True), "degree"),
])
def test_booleans_are_refused_everywhere(call, name):
    x, y = _regression()
    with pytest.raises(ValueError, match=f"{name} must be .*; found True of type bool"):
        call(x, y)


def test_iteration_counts_decided_per_function():
    """Zero steps is a valid gradient-descent run (the start alone); a solver's cap must allow a step."""
    x, y = _regression()
    history = ml.gradient_descent(ml.least_squares(x, y), np.zeros(3), 0.1, 0)
    assert len(history.costs) == 1
    with pytest.raises(ValueError, match="max_its must be an integer >= 1; found max_its = 0"):
        ml.l1_path(x, y, [0.1], max_its=0)
