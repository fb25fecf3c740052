"""Unit tests of mlrefined_lib.imputation against scikit-learn's SimpleImputer and plain NumPy."""

import numpy as np
import pandas as pd
import pytest
from sklearn.impute import SimpleImputer

from mlrefined_lib.imputation import STRATEGIES, mean_imputer, missing_mask, missingness
from mlrefined_lib.normalizers import standard_normalizer


@pytest.fixture
def gappy():
    """Integer-valued features (so modes and medians are well defined) with about 20% gaps."""
    rng = np.random.default_rng(7)
    x = rng.integers(0, 6, size=(60, 4)).astype(float) * np.array([1.0, 10.0, 0.5, 100.0])
    x[rng.random(x.shape) < 0.2] = np.nan
    return x


@pytest.fixture
def gappy_new():
    rng = np.random.default_rng(8)
    x = rng.normal(size=(15, 4)) * 50
    x[rng.random(x.shape) < 0.3] = np.nan
    return x


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_matches_sklearn_simple_imputer(gappy, gappy_new, strategy):
    impute = mean_imputer(gappy, strategy)
    reference = SimpleImputer(strategy=strategy).fit(gappy)
    np.testing.assert_allclose(impute.statistics, reference.statistics_, rtol=1e-12)
    np.testing.assert_allclose(impute(gappy), reference.transform(gappy), rtol=1e-12)
    np.testing.assert_allclose(impute(gappy_new), reference.transform(gappy_new), rtol=1e-12)


def test_most_frequent_on_categories_matches_sklearn():
    column = np.array([["b"], [None], ["a"], ["c"], ["a"], [np.nan], ["b"], ["a"]], dtype=object)
    impute = mean_imputer(column, "most_frequent")
    assert impute.statistics.tolist() == ["a"]
    filled = impute(column)
    assert filled.dtype == object
    assert filled[:, 0].tolist() == ["b", "a", "a", "c", "a", "a", "b", "a"]
    as_nan = np.where(missing_mask(column), np.nan, column).astype(object)
    reference = SimpleImputer(strategy="most_frequent", missing_values=np.nan).fit(as_nan)
    assert reference.statistics_.tolist() == impute.statistics.tolist()


def test_most_frequent_tie_goes_to_smallest():
    x = np.array([[3.0, "y"], [1.0, "x"], [3.0, "y"], [1.0, "x"], [np.nan, None]], dtype=object)
    impute = mean_imputer(x, "most_frequent")
    assert impute.statistics.tolist() == [1.0, "x"]


def test_pandas_na_counts_as_missing():
    frame = pd.DataFrame({"sex": pd.array(["f", pd.NA, "m", "f"], dtype="string")})
    assert missing_mask(frame).ravel().tolist() == [False, True, False, False]
    assert mean_imputer(frame, "most_frequent")(frame).ravel().tolist() == ["f", "f", "m", "f"]


def test_mean_of_imputed_column_equals_mean_of_observed(gappy):
    filled = mean_imputer(gappy)(gappy)
    for n in range(gappy.shape[1]):
        observed = gappy[~np.isnan(gappy[:, n]), n]
        assert abs(filled[:, n].mean() - observed.mean()) < 1e-12 * max(1.0, abs(observed.mean()))
    assert not np.isnan(filled).any()


def test_observed_entries_are_kept(gappy, gappy_new):
    for data in (gappy, gappy_new):
        filled = mean_imputer(gappy, "median")(data)
        observed = ~np.isnan(data)
        np.testing.assert_array_equal(filled[observed], data[observed])


def test_imputed_entries_are_zero_after_standard_normalization(gappy):
    filled = mean_imputer(gappy)(gappy)
    normalized = standard_normalizer(filled)[0](filled)
    gaps = np.isnan(gappy)
    assert gaps.sum() > 10
    np.testing.assert_allclose(normalized[gaps], 0.0, atol=1e-12)
    assert np.abs(normalized[~gaps]).min() > 1e-6


def test_uses_training_statistics_only(gappy, gappy_new):
    impute = mean_imputer(gappy)
    filled = impute(gappy_new)
    gaps = np.isnan(gappy_new)
    rows, columns = np.nonzero(gaps)
    np.testing.assert_allclose(filled[rows, columns], np.nanmean(gappy, axis=0)[columns])
    assert not np.allclose(impute.statistics, np.nanmean(gappy_new, axis=0))


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_inputs_not_modified(gappy, gappy_new, strategy):
    saved_train, saved_new = gappy.copy(), gappy_new.copy()
    impute = mean_imputer(gappy, strategy)
    impute(gappy)
    impute(gappy_new)
    np.testing.assert_array_equal(gappy, saved_train)
    np.testing.assert_array_equal(gappy_new, saved_new)
    impute.statistics[:] = -1.0  # the exposed statistics are a copy
    assert not np.any(impute(gappy) == -1.0)


def test_object_input_not_modified():
    x = np.array([["a", None], ["a", "b"], [None, "b"]], dtype=object)
    saved = x.copy()
    mean_imputer(x, "most_frequent")(x)
    assert x.tolist() == saved.tolist()


def test_numeric_object_column_works_with_mean():
    x = np.array([[1, None], [3, 4.0], [None, 8.0]], dtype=object)
    np.testing.assert_allclose(mean_imputer(x)(x), [[1.0, 6.0], [3.0, 4.0], [2.0, 8.0]])


def test_missingness_table():
    x = np.array([[1.0, np.nan, 2.0], [np.nan, np.nan, 3.0], [4.0, 5.0, 6.0], [7.0, np.nan, 8.0]])
    table = missingness(x, names=["a", "b", "c"])
    assert list(table.index) == ["a", "b", "c"]
    assert table["missing"].tolist() == [1, 3, 0]
    np.testing.assert_allclose(table["fraction"], [0.25, 0.75, 0.0])
    assert table["observed"].tolist() == [3, 1, 4]


def test_missingness_takes_dataframe_names():
    frame = pd.DataFrame({"hp": [1.0, None, 3.0], "origin": ["US", None, None]})
    table = missingness(frame)
    assert list(table.index) == ["hp", "origin"]
    assert table["missing"].tolist() == [1, 2]


# ---------------------------------------------------------------- errors


def test_all_missing_column_is_named():
    x = np.array([[1.0, np.nan, 2.0], [3.0, np.nan, 4.0]])
    with pytest.raises(ValueError, match=r"column\(s\) 1 .*no observed value"):
        mean_imputer(x)
    with pytest.raises(ValueError, match=r"'horsepower'"):
        mean_imputer(x, names=["mpg", "horsepower", "weight"])


def test_unknown_strategy_lists_valid_ones(gappy):
    with pytest.raises(ValueError, match=r"'mode'.*'mean', 'median', 'most_frequent'"):
        mean_imputer(gappy, "mode")


def test_infinite_values_raise(gappy):
    bad = gappy.copy()
    bad[3, 2] = np.inf
    with pytest.raises(ValueError, match=r"infinite value\(s\) in column 2"):
        mean_imputer(bad)
    with pytest.raises(ValueError, match="infinite"):
        mean_imputer(gappy)(bad)


def test_shape_mismatch_at_transform_time(gappy):
    impute = mean_imputer(gappy)
    with pytest.raises(ValueError, match=r"fitted on 4 feature\(s\) but got x of shape \(5, 3\)"):
        impute(np.zeros((5, 3)))
    with pytest.raises(ValueError, match="must be 2-D"):
        impute(np.zeros(4))


def test_not_2d_raises():
    with pytest.raises(ValueError, match=r"must be 2-D.*found shape \(3,\)"):
        mean_imputer(np.array([1.0, np.nan, 2.0]))


def test_categories_with_mean_raise():
    x = np.array([["a"], ["b"], [None]], dtype=object)
    with pytest.raises(ValueError, match="most_frequent"):
        mean_imputer(x, "mean")


def test_wrong_number_of_names(gappy):
    with pytest.raises(ValueError, match="one name per column"):
        missingness(gappy, names=["a"])
