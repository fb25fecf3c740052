"""Tests of bins, splines and interactions against scikit-learn."""

import warnings

import numpy as np
import pytest
from sklearn.preprocessing import KBinsDiscretizer, PolynomialFeatures, SplineTransformer

import mlrefined_lib as ml


def data(points=200, seed=0):
    rng = np.random.default_rng(seed)
    return np.column_stack([rng.uniform(-2, 3, points), rng.exponential(1.0, points), rng.normal(size=points)])


def beyond(x, seed=1):
    rng = np.random.default_rng(seed)
    low, high = x.min(axis=0), x.max(axis=0)
    return np.vstack([rng.uniform(low - 1, high + 1, size=(40, x.shape[1])), low, high, low - 5, high + 5])


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("bins", [2, 5, 12])
def test_bins_match_kbins_discretizer(strategy, bins):
    x = data()
    transform = ml.bin_features(x, bins, strategy)
    options = dict(n_bins=bins, encode="onehot-dense", strategy=strategy)
    if strategy == "quantile":
        options["quantile_method"] = "linear"
    reference = KBinsDiscretizer(**options).fit(x)
    for n in range(3):
        np.testing.assert_allclose(transform.edges[n], reference.bin_edges_[n], rtol=1e-12)
    np.testing.assert_array_equal(transform(x), reference.transform(x))
    np.testing.assert_array_equal(transform(beyond(x)), reference.transform(beyond(x)))
    assert np.all(transform(x).sum(axis=1) == 3)                      # one bin per feature


def test_quantile_bins_merge_tied_edges_with_a_warning():
    x = np.array([[0.0]] * 8 + [[1.0], [2.0]])
    with pytest.warns(UserWarning, match=r"feature 0 has tied values.*gets 2 bins, not 5"):
        transform = ml.bin_features(x, 5, "quantile")
    assert transform(x).shape == (10, 2)


@pytest.mark.parametrize("knots, degree", [(2, 1), (4, 2), (5, 3), (9, 3)])
def test_splines_match_spline_transformer(knots, degree):
    x = data(seed=2)
    transform = ml.spline_features(x, knots, degree)
    reference = SplineTransformer(n_knots=knots, degree=degree, knots="uniform", extrapolation="constant").fit(x)
    np.testing.assert_allclose(transform(x), reference.transform(x), rtol=1e-9, atol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = reference.transform(beyond(x))
    np.testing.assert_allclose(transform(beyond(x)), expected, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(transform(x).reshape(len(x), 3, -1).sum(axis=2), 1.0, rtol=1e-12)


def test_interactions_match_polynomial_features_and_count():
    x = data(points=30)
    reference = PolynomialFeatures(degree=2, interaction_only=True, include_bias=False).fit_transform(x)
    np.testing.assert_allclose(ml.interaction_features(x), reference, rtol=1e-12)
    np.testing.assert_allclose(ml.interaction_features(x, include_inputs=False), reference[:, 3:], rtol=1e-12)
    for n in range(1, 12):
        pairs = PolynomialFeatures(2, interaction_only=True, include_bias=False).fit(np.zeros((1, n)))
        assert ml.num_interactions(n) == pairs.n_output_features_ - n
    assert ml.num_polynomial_features(10, 2, include_bias=False) == 10 + 10 + ml.num_interactions(10)


@pytest.mark.parametrize("call, message", [
    (lambda: ml.bin_features(data(), 1), r"bins must be an integer >= 2"),
    (lambda: ml.bin_features(data(), 4, "kmeans"), r"unknown strategy 'kmeans'"),
    (lambda: ml.bin_features(np.ones((5, 1)), 3), r"feature 0 is constant"),
    (lambda: ml.bin_features(data(), 3)(np.zeros((2, 2))), r"fitted on 3 feature\(s\) but got x_new of shape"),
    (lambda: ml.spline_features(data(), 1), r"knots must be an integer >= 2"),
    (lambda: ml.spline_features(data(), 3, 0), r"degree must be an integer >= 1; found degree = 0"),
    (lambda: ml.spline_features(np.ones((5, 1))), r"feature 0 is constant"),
    (lambda: ml.interaction_features(np.ones((5, 1))), r"at least 2 inputs"),
    (lambda: ml.num_interactions(0), r"num_inputs must be an integer >= 1"),
])
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
