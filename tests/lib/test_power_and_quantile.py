"""Tests of the Yeo-Johnson and quantile transforms against scikit-learn and SciPy."""

import numpy as np
import pytest
from scipy import stats
from sklearn.preprocessing import PowerTransformer, QuantileTransformer

import mlrefined_lib as ml


def skewed_with_negatives(points=300, seed=0):
    rng = np.random.default_rng(seed)
    return np.column_stack([rng.lognormal(0.0, 1.0, points) - 1.0,        # right tail, some negatives
                            -rng.exponential(2.0, points),                 # left tail, all <= 0
                            rng.normal(3.0, 1.0, points),                  # roughly normal
                            np.round(rng.exponential(1.0, points))])       # zeros and ties


def test_yeo_johnson_fits_the_same_power_as_scikit_learn_and_scipy():
    x = skewed_with_negatives()
    transform, inverse = ml.yeo_johnson(x)
    reference = PowerTransformer(method="yeo-johnson", standardize=False).fit(x)
    np.testing.assert_allclose(transform.powers, reference.lambdas_, rtol=1e-4, atol=1e-5)
    for n in range(x.shape[1]):
        assert transform.powers[n] == pytest.approx(stats.yeojohnson_normmax(x[:, n]), rel=1e-4, abs=1e-5)
    fixed, fixed_inverse = ml.yeo_johnson(x, power=reference.lambdas_)
    np.testing.assert_allclose(fixed(x), reference.transform(x), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(fixed_inverse(fixed(x)), x, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(inverse(transform(x)), x, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("power", [0.0, 2.0, -1.5, 0.5, 3.0])
def test_yeo_johnson_special_powers_and_order(power):
    x = np.linspace(-3, 3, 61).reshape(-1, 1)
    transform, inverse = ml.yeo_johnson(x, power=power)
    z = transform(x)[:, 0]
    np.testing.assert_allclose(z, stats.yeojohnson(x[:, 0], lmbda=power), rtol=1e-10, atol=1e-12)
    assert np.all(np.diff(z) > 0)                                   # order kept
    np.testing.assert_allclose(inverse(transform(x)), x, rtol=1e-9, atol=1e-12)


def test_yeo_johnson_bad_input():
    with pytest.raises(ValueError, match=r"power must be None, one finite number or 2 finite numbers"):
        ml.yeo_johnson(np.ones((5, 2)), power=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"yeo_johnson"):
        ml.yeo_johnson(np.ones((5, 2)))                               # constant columns: no power to fit
    _, inverse = ml.yeo_johnson(np.linspace(0, 1, 5).reshape(-1, 1), power=-1.0)
    with pytest.raises(ValueError, match=r"column 0 holds 2, which no x maps to"):
        inverse(np.array([[2.0]]))


@pytest.mark.filterwarnings("ignore:n_quantiles .* is greater than the total number of samples")
@pytest.mark.parametrize("output", ["uniform", "normal"])
@pytest.mark.parametrize("n_quantiles", [10, 100, 1000])
def test_quantile_transform_matches_scikit_learn(output, n_quantiles):
    x = skewed_with_negatives(points=400, seed=1)
    rng = np.random.default_rng(2)
    new = np.vstack([skewed_with_negatives(points=50, seed=3), x.min(axis=0) - 1, x.max(axis=0) + 1])
    transform, inverse = ml.quantile_transform(x, n_quantiles, output)
    reference = QuantileTransformer(n_quantiles=n_quantiles, output_distribution=output, subsample=None).fit(x)
    np.testing.assert_allclose(transform(x), reference.transform(x), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(transform(new), reference.transform(new), rtol=1e-10, atol=1e-12)
    inside = rng.uniform(0.01, 0.99, size=(20, 4)) if output == "uniform" else rng.normal(size=(20, 4))
    np.testing.assert_allclose(inverse(inside), reference.inverse_transform(inside), rtol=1e-9, atol=1e-12)


def test_quantile_transform_keeps_order_and_squashes_extremes():
    x = np.array([[1.0], [2.0], [3.0], [4.0], [1000.0]])
    transform, _ = ml.quantile_transform(x)
    z = transform(x)[:, 0]
    np.testing.assert_allclose(z, [0, 0.25, 0.5, 0.75, 1.0])          # the outlier is one rank away, no more
    assert transform(np.array([[5000.0]]))[0, 0] == 1.0                # beyond the training range: the edge


def test_quantile_transform_bad_input():
    with pytest.raises(ValueError, match=r"n_quantiles must be an integer >= 2"):
        ml.quantile_transform(np.ones((5, 1)), 1)
    with pytest.raises(ValueError, match=r"unknown output 'gaussian'"):
        ml.quantile_transform(np.ones((5, 1)), output="gaussian")
    transform, inverse = ml.quantile_transform(np.arange(5.0).reshape(-1, 1))
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]"):
        inverse(np.array([[1.5]]))
