"""Unit tests of knn_imputer (chapter 8) and of pca / explained_variance (chapter 9),
cross-checked against scikit-learn's KNNImputer and PCA."""

import numpy as np
import pytest
from sklearn.decomposition import PCA
from sklearn.impute import KNNImputer

import mlrefined_lib as ml
from mlrefined_lib.imputation import knn_imputer
from mlrefined_lib.normalizers import explained_variance, pca


def gappy(rng, rows, columns, fraction, scales=None):
    x = rng.normal(size=(rows, columns)) * (np.ones(columns) if scales is None else np.asarray(scales))
    x[rng.random(x.shape) < fraction] = np.nan
    for n in range(columns):                     # every training column keeps an observed entry
        if np.isnan(x[:, n]).all():
            x[0, n] = 1.0
    return x


# ---------------------------------------------------------------- knn_imputer

@pytest.mark.parametrize("seed", range(12))
def test_knn_matches_scikit_learn_without_scaling(seed):
    rng = np.random.default_rng(seed)
    columns = int(rng.integers(1, 6))
    x_train = gappy(rng, int(rng.integers(10, 50)), columns, 0.25, rng.uniform(0.1, 20, columns))
    x_new = gappy(rng, int(rng.integers(3, 25)), columns, 0.35)
    k = int(rng.integers(1, 8))
    ours = knn_imputer(x_train, k, scale=False)(x_new)
    reference = KNNImputer(n_neighbors=k, metric="nan_euclidean", weights="uniform").fit(x_train).transform(x_new)
    np.testing.assert_allclose(ours, reference, rtol=1e-12, atol=1e-12)


def test_knn_with_scaling_equals_knnimputer_on_scaled_columns():
    rng = np.random.default_rng(3)
    x_train = gappy(rng, 40, 3, 0.2, [1.0, 100.0, 0.01])
    x_new = gappy(rng, 15, 3, 0.3, [1.0, 100.0, 0.01])
    scales = np.nanstd(x_train, axis=0)
    reference = KNNImputer(n_neighbors=4).fit(x_train / scales).transform(x_new / scales) * scales
    impute = knn_imputer(x_train, 4)
    np.testing.assert_allclose(impute(x_new), reference, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(impute.scales, scales)
    # and the scaling matters here: without it the large column decides the neighbours
    assert not np.allclose(knn_imputer(x_train, 4, scale=False)(x_new), reference)


def test_knn_fills_by_hand_example():
    x_train = np.array([[0.0, 10.0], [1.0, 20.0], [5.0, 30.0], [6.0, np.nan], [7.0, 40.0]])
    x_new = np.array([[0.4, np.nan], [6.5, np.nan], [np.nan, 25.0]])
    filled = knn_imputer(x_train, 2, scale=False)(x_new)
    # row 0: nearest donors with column 1 observed are rows 0 and 1 -> (10 + 20) / 2
    # row 1: rows 3 (no column 1) skipped; nearest are 4 and 2 -> (40 + 30) / 2
    # row 2: distance on column 1 only; rows 1 and 2 tie at 5, row 0 and 4 at 15 -> rows 1, 2 -> (1 + 5) / 2
    np.testing.assert_allclose(filled, [[0.4, 15.0], [6.5, 35.0], [3.0, 25.0]])


def test_knn_leaves_input_alone_and_uses_only_training_rows():
    rng = np.random.default_rng(5)
    x_train = gappy(rng, 30, 3, 0.2)
    x_new = gappy(rng, 10, 3, 0.3) + 100.0          # far away: its own rows would be better "neighbours"
    saved_train, saved_new = x_train.copy(), x_new.copy()
    impute = knn_imputer(x_train, 3)
    filled = impute(x_new)
    assert np.array_equal(x_train, saved_train, equal_nan=True)
    assert np.array_equal(x_new, saved_new, equal_nan=True)
    gaps = np.isnan(x_new)
    assert not np.isnan(filled).any()
    assert np.array_equal(filled[~gaps], x_new[~gaps])
    assert np.all(np.abs(filled[gaps]) < 10)            # training values, not the shifted new ones
    x_train[0, 0] = 1e6                                  # changing the caller's array later changes nothing
    np.testing.assert_allclose(impute(saved_new), filled)


def test_knn_row_without_common_coordinates_gets_the_training_mean():
    x_train = np.array([[1.0, np.nan], [3.0, np.nan], [np.nan, 8.0], [np.nan, 10.0]])
    filled = knn_imputer(x_train, 1, scale=False)(np.array([[np.nan, np.nan], [2.0, np.nan]]))
    # row 0 shares nothing: training means; row 1: donors for column 1 share no coordinate with it
    np.testing.assert_allclose(filled, [[2.0, 9.0], [2.0, 9.0]])
    reference = KNNImputer(n_neighbors=1).fit(x_train).transform(np.array([[np.nan, np.nan], [2.0, np.nan]]))
    np.testing.assert_allclose(filled, reference)


def test_knn_complete_rows_come_back_unchanged():
    x = np.arange(12.0).reshape(4, 3)
    np.testing.assert_array_equal(knn_imputer(x, 2)(x), x)


@pytest.mark.parametrize("args, phrase", [
    ((np.ones(5), 2), "2-D"),
    ((np.ones((5, 2)), 0), "between 1 and"),
    ((np.ones((5, 2)), 6), "between 1 and"),
    ((np.ones((5, 2)), 2.5), "k must be an integer; found 2.5 of type float"),
    ((np.ones((5, 2)), True), "k must be an integer; found True of type bool"),
    ((np.array([[1.0, np.nan], [2.0, np.nan]]), 1), "no observed value"),
    ((np.array([[1.0, np.inf], [2.0, 3.0]]), 1), "infinite"),
    ((np.array([["a", "b"], ["c", "d"]], dtype=object), 1), "numeric"),
])
def test_knn_bad_input(args, phrase):
    with pytest.raises(ValueError, match=phrase):
        knn_imputer(*args)


def test_knn_transform_checks_columns():
    impute = knn_imputer(np.ones((4, 2)) + np.arange(4)[:, None], 2)
    with pytest.raises(ValueError, match="fitted on 2 feature"):
        impute(np.ones((3, 3)))


def test_knn_is_exported():
    assert ml.knn_imputer is knn_imputer and "knn_imputer" in ml.__all__


# ---------------------------------------------------------------- pca and explained_variance

@pytest.fixture
def digits():
    from sklearn.datasets import load_digits
    return load_digits().data[:600]


def test_explained_variance_matches_scikit_learn(digits):
    ratios = explained_variance(digits)
    np.testing.assert_allclose(ratios, PCA(svd_solver="full").fit(digits).explained_variance_ratio_, atol=1e-12)
    assert np.isclose(ratios.sum(), 1.0) and np.all(np.diff(ratios) <= 1e-15) and np.all(ratios >= 0)


@pytest.mark.parametrize("k", [1, 7, 30, 64])
def test_pca_matches_scikit_learn(digits, k):
    transform, inverse = pca(digits, k)
    reference = PCA(n_components=k, svd_solver="full").fit(digits)
    scores, ours_reference = transform(digits), reference.transform(digits)
    signs = np.sign(np.sum(scores * ours_reference, axis=0))
    np.testing.assert_allclose(scores, ours_reference * signs, atol=1e-8)
    np.testing.assert_allclose(inverse(scores), reference.inverse_transform(ours_reference), atol=1e-8)
    np.testing.assert_allclose(transform.explained_variance_ratio, reference.explained_variance_ratio_, atol=1e-12)


def test_pca_reconstruction_error_is_the_discarded_variance(digits):
    eigenvalues = np.sort(np.linalg.eigvalsh(np.cov(digits, rowvar=False, bias=True)))[::-1]
    for k in (3, 20):
        transform, inverse = pca(digits, k)
        error = np.mean(np.sum((digits - inverse(transform(digits))) ** 2, axis=1))
        assert np.isclose(error, eigenvalues[k:].sum())
    full_transform, full_inverse = pca(digits, digits.shape[1])
    np.testing.assert_allclose(full_inverse(full_transform(digits)), digits, atol=1e-9)


def test_pca_components_are_orthonormal_with_fixed_signs(digits):
    transform, _ = pca(digits, 10)
    v = transform.components
    np.testing.assert_allclose(v.T @ v, np.eye(10), atol=1e-10)
    largest = v[np.argmax(np.abs(v), axis=0), np.arange(10)]
    assert np.all(largest > 0)


def test_pca_uses_training_statistics_and_leaves_input_alone():
    rng = np.random.default_rng(2)
    x_train, x_new = rng.normal(size=(50, 4)), rng.normal(size=(10, 4)) + 5
    saved = x_train.copy()
    transform, _ = pca(x_train, 2)
    assert np.array_equal(x_train, saved)
    np.testing.assert_allclose(transform(x_new), (x_new - x_train.mean(axis=0)) @ transform.components)


@pytest.mark.parametrize("x, k, phrase", [
    (np.ones(5), 1, "2-D"),
    (np.ones((5, 3)), 0, "between 1 and"),
    (np.ones((5, 3)), 4, "between 1 and"),
    (np.ones((5, 3)), 1.0, "k must be an integer; found 1.0 of type float"),
    (np.array([[1.0, np.nan], [2.0, 3.0]]), 1, "NaN"),
])
def test_pca_bad_input(x, k, phrase):
    with pytest.raises(ValueError, match=phrase):
        pca(x, k)


def test_pca_inverse_checks_columns(digits):
    _, inverse = pca(digits, 5)
    with pytest.raises(ValueError, match="expects 5 column"):
        inverse(np.ones((2, 4)))


def test_explained_variance_bad_input():
    with pytest.raises(ValueError, match="no variance"):
        explained_variance(np.ones((4, 3)))
    with pytest.raises(ValueError, match="2-D"):
        explained_variance(np.ones(4))
