"""Tests of polynomial features (chapter 4), cross-checked against scikit-learn."""

from math import comb

import numpy as np
import pytest
from sklearn.preprocessing import PolynomialFeatures

import mlrefined_lib as ml


@pytest.mark.parametrize("num_inputs", [1, 2, 3, 5])
@pytest.mark.parametrize("degree", [1, 2, 3, 4])
@pytest.mark.parametrize("include_bias", [False, True])
def test_same_columns_in_the_same_order_as_scikit_learn(num_inputs, degree, include_bias):
    x = np.random.default_rng(num_inputs * 10 + degree).normal(size=(7, num_inputs))
    reference = PolynomialFeatures(degree, include_bias=include_bias).fit(x)
    ours = ml.polynomial_features(x, degree, include_bias=include_bias)
    assert ours.shape == (7, reference.n_output_features_)
    np.testing.assert_allclose(ours, reference.transform(x), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(ml.polynomial_powers(num_inputs, degree, include_bias), reference.powers_)


@pytest.mark.parametrize("num_inputs, degree", [(1, 1), (1, 9), (2, 2), (3, 4), (6, 3), (10, 2)])
def test_the_count_is_the_binomial_coefficient(num_inputs, degree):
    expected = comb(num_inputs + degree, degree)   # (n+d)! / (d! n!)
    assert ml.num_polynomial_features(num_inputs, degree) == expected
    assert ml.num_polynomial_features(num_inputs, degree, include_bias=False) == expected - 1
    x = np.ones((2, num_inputs))
    assert ml.polynomial_features(x, degree, include_bias=True).shape[1] == expected


def test_one_input_gives_the_powers():
    x = np.array([[2.0], [-1.0], [0.5]])
    np.testing.assert_allclose(ml.polynomial_features(x, 4), x ** np.arange(1, 5))


def test_two_inputs_degree_two_by_hand():
    x = np.array([[2.0, 3.0]])
    np.testing.assert_allclose(ml.polynomial_features(x, 2), [[2.0, 3.0, 4.0, 6.0, 9.0]])


def test_the_caller_array_is_not_modified():
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    saved = x.copy()
    out = ml.polynomial_features(x, 3)
    out[:] = 0.0
    np.testing.assert_array_equal(x, saved)


@pytest.mark.parametrize("degree", [0, -2, 2.0, 1.5, True, "2", None])
def test_a_degree_below_one_or_not_an_integer_is_refused(degree):
    with pytest.raises(ValueError, match=r"degree must be an integer >= 1.*found"):
        ml.polynomial_features(np.ones((3, 1)), degree)
    with pytest.raises(ValueError, match="degree"):
        ml.num_polynomial_features(2, degree)


def test_bad_inputs_are_refused_before_any_work():
    with pytest.raises(ValueError, match=r"2-D.*found shape \(4,\)"):
        ml.polynomial_features(np.ones(4), 2)
    with pytest.raises(ValueError, match="NaN"):
        ml.polynomial_features(np.array([[1.0], [np.nan]]), 2)
    with pytest.raises(ValueError, match="num_inputs"):
        ml.num_polynomial_features(0, 2)
