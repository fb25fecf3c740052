"""Unit tests of mlrefined_lib.normalizers against scikit-learn and plain NumPy."""

import warnings

import numpy as np
import pytest
from sklearn.decomposition import PCA
from sklearn.preprocessing import MinMaxScaler, StandardScaler

from mlrefined_lib.normalizers import minmax_normalizer, pca_sphere, standard_normalizer

NORMALIZERS = [standard_normalizer, minmax_normalizer, pca_sphere]


@pytest.fixture
def data():
    """Correlated features of very different scales and offsets."""
    rng = np.random.default_rng(42)
    z = rng.normal(size=(150, 4))
    mixing = np.array([[1.0, 0.5, 0.0, 0.2], [0.0, 1.0, 0.3, 0.0], [0.0, 0.0, 1.0, 0.7], [0.0, 0.0, 0.0, 1.0]])
    return z @ mixing * np.array([0.01, 1.0, 30.0, 500.0]) + np.array([5.0, -2.0, 100.0, 1e4])


@pytest.fixture
def new_data():
    rng = np.random.default_rng(43)
    return rng.normal(size=(20, 4)) * np.array([0.02, 3.0, 10.0, 900.0]) + np.array([4.0, 1.0, 80.0, 9e3])


def covariance(z):
    centred = z - z.mean(axis=0)
    return centred.T @ centred / len(z)


# ---------------------------------------------------------------- standard


def test_standard_matches_sklearn(data, new_data):
    transform, _ = standard_normalizer(data)
    scaler = StandardScaler().fit(data)
    np.testing.assert_allclose(transform(data), scaler.transform(data), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(transform(new_data), scaler.transform(new_data), rtol=1e-10, atol=1e-12)


def test_standard_result_has_zero_mean_unit_std(data):
    z = standard_normalizer(data)[0](data)
    np.testing.assert_allclose(z.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(z.std(axis=0), 1.0, rtol=1e-12)


def test_standard_uses_training_statistics(data, new_data):
    transform, _ = standard_normalizer(data)
    mean = data.sum(axis=0) / len(data)
    std = np.sqrt(((data - mean) ** 2).sum(axis=0) / len(data))
    np.testing.assert_allclose(transform(new_data), (new_data - mean) / std, rtol=1e-10, atol=1e-12)
    # Not refitted: the new data is not centred by its own mean.
    assert np.abs(transform(new_data).mean(axis=0)).max() > 0.1


# ---------------------------------------------------------------- min-max


@pytest.mark.parametrize("feature_range", [(0.0, 1.0), (-1.0, 2.0)])
def test_minmax_matches_sklearn(data, new_data, feature_range):
    transform, _ = minmax_normalizer(data, feature_range=feature_range)
    scaler = MinMaxScaler(feature_range=feature_range).fit(data)
    np.testing.assert_allclose(transform(data), scaler.transform(data), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(transform(new_data), scaler.transform(new_data), rtol=1e-10, atol=1e-12)
    z = transform(data)
    np.testing.assert_allclose(z.min(axis=0), feature_range[0], atol=1e-12)
    np.testing.assert_allclose(z.max(axis=0), feature_range[1], atol=1e-12)


def test_minmax_does_not_clip_new_data(data):
    transform, _ = minmax_normalizer(data)
    outside = data.max(axis=0, keepdims=True) + (data.max(axis=0) - data.min(axis=0))
    np.testing.assert_allclose(transform(outside), 2.0, rtol=1e-12)


@pytest.mark.parametrize("feature_range", [(1.0, 1.0), (2.0, -1.0)])
def test_minmax_bad_range(data, feature_range):
    with pytest.raises(ValueError, match="feature_range must be \\(a, b\\) with a < b"):
        minmax_normalizer(data, feature_range=feature_range)


# ---------------------------------------------------------------- shared properties


def fit(normalizer, x):
    return normalizer(x)


@pytest.mark.parametrize("normalizer", NORMALIZERS)
def test_inverse_of_transform_is_identity(normalizer, data, new_data):
    transform, inverse = fit(normalizer, data)
    np.testing.assert_allclose(inverse(transform(data)), data, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(inverse(transform(new_data)), new_data, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("normalizer", NORMALIZERS)
def test_input_not_modified_in_place(normalizer, data, new_data):
    saved, saved_new = data.copy(), new_data.copy()
    transform, inverse = fit(normalizer, data)
    z = transform(new_data)
    inverse(z)
    transform(data)
    np.testing.assert_array_equal(data, saved)
    np.testing.assert_array_equal(new_data, saved_new)
    assert z is not new_data


@pytest.mark.parametrize("normalizer", NORMALIZERS)
def test_fitted_statistics_are_frozen(normalizer, data, new_data):
    # Editing the training array after fitting must not change the transform.
    transform, _ = fit(normalizer, data)
    before = transform(new_data)
    data *= 7.0
    data += 3.0
    np.testing.assert_array_equal(transform(new_data), before)


@pytest.mark.parametrize("normalizer", NORMALIZERS)
def test_constant_column_names_column_and_says_remove(normalizer, data):
    data[:, 2] = 3.25
    with pytest.raises(ValueError, match=r"column\(s\) 2 \(value 3\.25\) are constant.*Remove them.*np\.delete\(x, \[2\], axis=1\)"):
        normalizer(data)


@pytest.mark.parametrize("normalizer", NORMALIZERS)
def test_constant_large_valued_column(normalizer, data):
    # Rounding of a large constant (std ~ 1e-12 of the value) is still constant.
    data[:, 1] = 0.1 * 1e6 / 3.0
    with pytest.raises(ValueError, match=r"column\(s\) 1 "):
        normalizer(data)


@pytest.mark.parametrize("normalizer", NORMALIZERS)
def test_nan_input_names_column(normalizer, data):
    data[[5, 9], 3] = np.nan
    with pytest.raises(ValueError, match=r"non-finite entries in column 3: 2 NaN and 0 inf"):
        normalizer(data)


@pytest.mark.parametrize("normalizer", NORMALIZERS)
def test_transform_with_wrong_number_of_features_raises(normalizer, data):
    transform, inverse = fit(normalizer, data)
    with pytest.raises(ValueError, match=r"fitted on 4 feature\(s\) but got x of shape \(3, 3\)"):
        transform(data[:3, :3])
    with pytest.raises(ValueError, match=r"x must be 2-D"):
        transform(data[0])


@pytest.mark.parametrize("normalizer", NORMALIZERS)
def test_transform_of_nan_raises(normalizer, data):
    transform, _ = fit(normalizer, data)
    bad = data[:4].copy()
    bad[1, 0] = np.inf
    with pytest.raises(ValueError, match=r"column 0: 0 NaN and 1 inf"):
        transform(bad)


@pytest.mark.parametrize("normalizer", NORMALIZERS)
def test_one_dimensional_input_raises(normalizer, data):
    with pytest.raises(ValueError, match=r"found shape \(150,\).*reshape\(-1, 1\)"):
        normalizer(data[:, 0])


# ---------------------------------------------------------------- PCA sphering


def test_pca_sphere_identity_covariance(data, new_data):
    transform, _ = pca_sphere(data)
    z = transform(data)
    assert z.shape == data.shape
    np.testing.assert_allclose(z.mean(axis=0), 0.0, atol=1e-10)
    np.testing.assert_allclose(covariance(z), np.eye(4), atol=1e-10)
    # Training statistics applied to new data: not identity there.
    assert np.abs(covariance(transform(new_data)) - np.eye(4)).max() > 0.05


def test_pca_sphere_matches_sklearn_whitening(data, new_data):
    transform, _ = pca_sphere(data)
    pca = PCA(whiten=True).fit(data)
    p = len(data)
    # sklearn divides by sqrt of the (P-1)-normalized variances, we by the
    # P-normalized ones: ours * sqrt((P-1)/P) equals sklearn's, up to the sign
    # of each component.
    for x in (data, new_data):
        ours = transform(x) * np.sqrt((p - 1) / p)
        theirs = pca.transform(x)
        signs = np.sign(np.sum(ours * theirs, axis=0))
        assert np.all(signs != 0)
        np.testing.assert_allclose(ours * signs, theirs, rtol=1e-8, atol=1e-9)


def test_pca_sphere_components_ordered_by_variance(data):
    transform, _ = pca_sphere(data)
    eigenvalues = np.linalg.eigvalsh(covariance(data))[::-1]
    np.testing.assert_allclose(transform.eigenvalues, eigenvalues, rtol=1e-10)


def test_zca_identity_covariance_and_round_trip(data, new_data):
    transform, inverse = pca_sphere(data, zca=True)
    z = transform(data)
    np.testing.assert_allclose(covariance(z), np.eye(4), atol=1e-10)
    np.testing.assert_allclose(inverse(transform(new_data)), new_data, rtol=1e-10, atol=1e-10)
    # ZCA is the symmetric whitening C^(-1/2) (x - mean), built here by hand.
    eigenvalues, vectors = np.linalg.eigh(covariance(data))
    c_inv_sqrt = vectors @ np.diag(eigenvalues**-0.5) @ vectors.T
    np.testing.assert_allclose(z, (data - data.mean(axis=0)) @ c_inv_sqrt, rtol=1e-8, atol=1e-9)


@pytest.mark.parametrize("jitter", [0.0, 1e-5])
def test_pca_sphere_drops_dependent_column_with_warning(data, jitter):
    # jitter = 0: exactly dependent (the eigenvalue is rounding noise, of
    # either sign); jitter = 1e-5: a tiny but positive eigenvalue, far below
    # the relative floor, that must not be divided by either.
    noise = jitter * np.random.default_rng(0).normal(size=len(data))
    dependent = np.column_stack([data[:, :3], data[:, 0] - 2.0 * data[:, 1] + noise])
    eigenvalues = np.linalg.eigvalsh(covariance(dependent))
    if jitter:
        assert 0 < eigenvalues[0] < 1e-10 * eigenvalues[-1]
    with pytest.warns(RuntimeWarning, match=r"dropped 1 component.*linearly dependent or nearly so, or their scales differ.*standardize first\); kept 3 of 4\."):
        transform, inverse = pca_sphere(dependent)
    z = transform(dependent)
    assert z.shape == (len(data), 3)
    assert np.all(np.isfinite(z))
    assert np.abs(z).max() < 100  # nothing was divided by ~0
    np.testing.assert_allclose(covariance(z), np.eye(3), atol=1e-8)
    # The data lie in the kept subspace (up to the jitter), so the projection returns them.
    np.testing.assert_allclose(inverse(z), dependent, rtol=1e-8, atol=1e-7 + 10 * jitter)


def test_pca_sphere_larger_floor_says_what_it_kept_without_claiming_dependence(data):
    eigenvalues = np.linalg.eigvalsh(covariance(data))
    floor = 1.01 * eigenvalues[0] / eigenvalues[-1]  # just above the smallest: drops exactly one
    with pytest.warns(RuntimeWarning) as record:
        transform, _ = pca_sphere(data, relative_floor=floor)
    message = str(record[0].message)
    assert f"dropped 1 component(s) whose covariance eigenvalue is below {floor:g} times the largest" in message
    assert "linearly dependent" not in message and message.endswith(f"kept {data.shape[1] - 1} of {data.shape[1]}.")
    assert transform(data).shape == (len(data), data.shape[1] - 1)


def test_pca_sphere_full_rank_does_not_warn(data):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pca_sphere(data)


def test_tiny_but_varying_feature_is_not_called_constant():
    x = np.array([[1e-13], [2e-13], [4e-13]])
    transform, inverse = standard_normalizer(x)
    z = transform(x)
    assert np.allclose(z.mean(), 0) and np.allclose(z.std(), 1)
    assert np.allclose(inverse(z), x, rtol=1e-12, atol=0)


def test_rounding_noise_on_a_large_constant_is_called_constant():
    x = np.full((5, 2), 1e6)
    x[:, 0] = [1.0, 2.0, 3.0, 4.0, 5.0]
    x[2, 1] += 1e-9  # far below 1e-12 of the value's size
    with pytest.raises(ValueError, match="column.*1"):
        standard_normalizer(x)


def test_pca_sphere_inverse_checks_its_input():
    x = np.random.default_rng(3).normal(size=(50, 3))
    _, inverse = pca_sphere(x)
    with pytest.raises(ValueError, match="3 column"):
        inverse(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="NaN"):
        inverse(np.full((4, 3), np.nan))
