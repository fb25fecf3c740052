"""Unit tests of chapter 7's robust scaling, Box-Cox and log transforms,
cross-checked against scikit-learn's RobustScaler and PowerTransformer and
against scipy.stats.boxcox."""

import numpy as np
import pytest
from scipy import stats
from sklearn.preprocessing import PowerTransformer, RobustScaler

from mlrefined_lib import box_cox, log_transform, robust_normalizer


@pytest.fixture
def data():
    """Heavy-tailed features on different scales, with a few outliers."""
    rng = np.random.default_rng(60)
    x = rng.standard_t(df=2, size=(201, 3)) * np.array([0.5, 20.0, 3000.0]) + np.array([1.0, -40.0, 1e4])
    x[:3, 0] = [400.0, -300.0, 900.0]
    return x


@pytest.fixture
def positive():
    """Right-skewed positive features (log-normal and a power of a uniform)."""
    rng = np.random.default_rng(61)
    return np.column_stack([rng.lognormal(2.0, 1.0, size=250) * 1000, rng.uniform(1, 3, size=250) ** 4,
                            rng.gamma(2.0, 5.0, size=250)])


# ---------------------------------------------------------------- robust


def test_robust_matches_sklearn_default(data):
    transform, _ = robust_normalizer(data)
    scaler = RobustScaler().fit(data)  # quantile_range=(25.0, 75.0)
    new = data[::7] * 1.3 + 2.0
    np.testing.assert_allclose(transform(data), scaler.transform(data), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(transform(new), scaler.transform(new), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(transform.center, scaler.center_, rtol=1e-12)
    np.testing.assert_allclose(transform.scale, scaler.scale_, rtol=1e-12)


@pytest.mark.parametrize("quantile_range", [(10.0, 90.0), (0.0, 100.0), (5.0, 60.0)])
def test_robust_matches_sklearn_other_quantiles(data, quantile_range):
    transform, _ = robust_normalizer(data, quantile_range=quantile_range)
    expected = RobustScaler(quantile_range=quantile_range).fit_transform(data)
    np.testing.assert_allclose(transform(data), expected, rtol=1e-12, atol=1e-12)


def test_robust_by_hand_median_and_iqr():
    x = np.array([[1.0], [2.0], [3.0], [4.0], [1000.0]])
    transform, inverse = robust_normalizer(x)
    # median 3, 25th percentile 2, 75th percentile 4: IQR 2
    np.testing.assert_allclose(transform(x)[:, 0], [-1.0, -0.5, 0.0, 0.5, 498.5])
    np.testing.assert_allclose(inverse(transform(x)), x)


def test_robust_ignores_an_outlier_that_squeezes_standardization():
    rng = np.random.default_rng(3)
    ordinary = rng.normal(50.0, 10.0, size=199)
    feature = np.append(ordinary, 5000.0)[:, None]
    scaled = robust_normalizer(feature)[0](feature)[:-1, 0]
    iqr = np.subtract(*np.percentile(scaled, [75, 25]))
    assert 0.95 < iqr < 1.05
    standardized = (feature - feature.mean()) / feature.std()
    assert np.subtract(*np.percentile(standardized[:-1, 0], [75, 25])) < 0.1


def test_robust_inverse_and_no_mutation(data):
    saved = data.copy()
    transform, inverse = robust_normalizer(data)
    z = transform(data)
    np.testing.assert_allclose(inverse(z), data, rtol=1e-12, atol=1e-9)
    np.testing.assert_array_equal(data, saved)
    z_saved = z.copy()
    inverse(z)
    np.testing.assert_array_equal(z, z_saved)


def test_robust_zero_iqr_names_the_column(data):
    x = data.copy()
    x[:, 1] = 7.5
    with pytest.raises(ValueError, match=r"column\(s\) 1 \(median 7\.5\).*spread of 0"):
        robust_normalizer(x)
    # Mostly-constant but not constant: more than half the values equal.
    x = data.copy()
    x[:150, 2] = 0.0
    with pytest.raises(ValueError, match=r"column\(s\) 2 .*more than half"):
        robust_normalizer(x)


@pytest.mark.parametrize("bad", [(75.0, 25.0), (-5.0, 50.0), (25.0, 101.0), (50.0, 50.0), "iqr"])
def test_robust_bad_quantile_range(data, bad):
    with pytest.raises(ValueError, match="quantile_range"):
        robust_normalizer(data, quantile_range=bad)


def test_robust_shape_and_nan_errors(data):
    transform, _ = robust_normalizer(data)
    with pytest.raises(ValueError, match=r"fitted on 3 feature\(s\) but got x of shape \(2, 2\)"):
        transform(data[:2, :2])
    with pytest.raises(ValueError, match="must be 2-D"):
        robust_normalizer(data[:, 0])
    x = data.copy()
    x[4, 2] = np.nan
    with pytest.raises(ValueError, match="column 2"):
        robust_normalizer(x)


# ---------------------------------------------------------------- Box-Cox


def test_box_cox_fitted_power_matches_scipy(positive):
    transform, _ = box_cox(positive)
    for n in range(positive.shape[1]):
        transformed, beta = stats.boxcox(positive[:, n])
        assert abs(transform.powers[n] - beta) < 1e-5
        np.testing.assert_allclose(transform(positive)[:, n], transformed, rtol=1e-4)


def test_box_cox_matches_power_transformer(positive):
    transform, inverse = box_cox(positive)
    reference = PowerTransformer(method="box-cox", standardize=False).fit(positive)
    np.testing.assert_allclose(transform.powers, reference.lambdas_, atol=1e-5)
    new = positive[:40] * 1.7
    np.testing.assert_allclose(transform(new), reference.transform(new), rtol=1e-4)
    np.testing.assert_allclose(inverse(transform(new)), new, rtol=1e-10)


def test_box_cox_fixed_power_by_hand(positive):
    transform, inverse = box_cox(positive, power=[0.5, 0.0, -1.0])
    expected = np.column_stack([(positive[:, 0] ** 0.5 - 1) / 0.5, np.log(positive[:, 1]), 1 - 1 / positive[:, 2]])
    np.testing.assert_allclose(transform(positive), expected, rtol=1e-12)
    np.testing.assert_allclose(inverse(transform(positive)), positive, rtol=1e-10)
    np.testing.assert_allclose(box_cox(positive, power=1.0)[0](positive), positive - 1.0, rtol=1e-12)
    np.testing.assert_allclose(stats.boxcox(positive[:, 0], lmbda=0.5), transform(positive)[:, 0], rtol=1e-12)


def test_box_cox_earlier_names_still_work(positive):
    # lam= and transform.lambdas were the names before the book settled on β.
    by_power, by_lam = box_cox(positive, power=[0.5, 0.0, -1.0])[0], box_cox(positive, lam=[0.5, 0.0, -1.0])[0]
    np.testing.assert_array_equal(by_power(positive), by_lam(positive))
    np.testing.assert_array_equal(by_lam.lambdas, [0.5, 0.0, -1.0])
    fitted = box_cox(positive)[0]
    assert fitted.lambdas is fitted.powers


def test_box_cox_reduces_skew(positive):
    transform, _ = box_cox(positive)
    assert np.all(np.abs(stats.skew(transform(positive))) < np.abs(stats.skew(positive)))


def test_box_cox_log_likelihood_is_maximal_at_fitted_power(positive):
    transform, _ = box_cox(positive)
    for n, beta in enumerate(transform.powers):
        best = stats.boxcox_llf(beta, positive[:, n])
        assert best >= stats.boxcox_llf(beta + 0.01, positive[:, n])
        assert best >= stats.boxcox_llf(beta - 0.01, positive[:, n])


def test_box_cox_rejects_non_positive_and_names_the_column(positive):
    x = positive.copy()
    x[17, 2] = 0.0
    with pytest.raises(ValueError, match=r"column 2 holds 1 value\(s\) that are not, first 0 at row 17"):
        box_cox(x)
    transform, _ = box_cox(positive)
    with pytest.raises(ValueError, match="column 0"):
        transform(np.array([[-1.0, 2.0, 3.0]]))


def test_box_cox_bad_power_and_constant_column(positive):
    with pytest.raises(ValueError, match="power must be"):
        box_cox(positive, power=[0.5, 1.0])
    with pytest.raises(ValueError, match="power must be"):
        box_cox(positive, power=np.nan)
    with pytest.raises(ValueError, match="power must be"):
        box_cox(positive, lam=np.nan)
    with pytest.raises(ValueError, match="takes the power once"):
        box_cox(positive, power=0.5, lam=0.5)
    x = positive.copy()
    x[:, 1] = 4.0
    with pytest.raises(ValueError, match=r"column\(s\) 1 .*constant"):
        box_cox(x)


def test_box_cox_inverse_outside_the_range_raises(positive):
    _, inverse = box_cox(positive, power=0.5)
    with pytest.raises(ValueError, match="column 0"):
        inverse(np.array([[-3.0, 0.0, 0.0]]))


def test_box_cox_does_not_modify_input(positive):
    saved = positive.copy()
    box_cox(positive)[0](positive)
    np.testing.assert_array_equal(positive, saved)


# ---------------------------------------------------------------- log


def test_log_transform_is_box_cox_with_power_zero(positive):
    transform, inverse = log_transform(positive)
    np.testing.assert_allclose(transform(positive), np.log(positive), rtol=1e-14)
    np.testing.assert_allclose(transform(positive), box_cox(positive, power=0.0)[0](positive), rtol=1e-14)
    np.testing.assert_allclose(inverse(transform(positive)), positive, rtol=1e-12)


def test_log_transform_with_offset_is_log1p():
    counts = np.array([[0.0, 3.0], [5.0, 0.0], [120.0, 1.0]])
    transform, inverse = log_transform(counts, offset=1.0)
    np.testing.assert_allclose(transform(counts), np.log1p(counts), rtol=1e-14)
    np.testing.assert_allclose(inverse(transform(counts)), counts, atol=1e-12)


def test_log_transform_rejects_non_positive():
    counts = np.array([[0.0, 3.0], [5.0, 2.0]])
    with pytest.raises(ValueError, match=r"column 0 .*first 0 at row 0.*offset=1"):
        log_transform(counts)
    transform, _ = log_transform(counts + 1.0)
    with pytest.raises(ValueError, match="column 1"):
        transform(np.array([[1.0, -2.0]]))
    with pytest.raises(ValueError, match="offset"):
        log_transform(counts, offset=np.inf)
