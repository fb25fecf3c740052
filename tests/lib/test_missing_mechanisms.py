"""Tests of make_missing (MCAR, MAR, MNAR) and iterative_imputer (chained equations) against scikit-learn."""

import warnings

import numpy as np
import pytest
from sklearn.experimental import enable_iterative_imputer  # noqa: F401  (makes IterativeImputer importable)
from sklearn.impute import IterativeImputer
from sklearn.linear_model import LinearRegression

import mlrefined_lib as ml


def correlated_table(points=400, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=points)
    b = 0.8 * a + 0.6 * rng.normal(size=points)
    c = -0.5 * a + 0.3 * b + rng.normal(size=points)
    return np.column_stack([a, b, c])


# ---------------------------------------------------------------- make_missing


def test_each_mechanism_hides_exactly_the_share_in_a_copy():
    x = correlated_table()
    before = x.copy()
    for mechanism, driver in [("MCAR", None), ("MAR", 0), ("MNAR", None)]:
        gappy = ml.make_missing(x, 1, 0.3, mechanism, driver=driver, seed=3)
        assert np.isnan(gappy[:, 1]).sum() == 120
        assert not np.isnan(np.delete(gappy, 1, axis=1)).any()
        observed = ~np.isnan(gappy)
        np.testing.assert_array_equal(gappy[observed], x[observed])
    np.testing.assert_array_equal(x, before)


def test_the_mechanisms_differ_as_their_names_say():
    """Over many seeds: MCAR keeps the observed mean unbiased; MAR and MNAR pull it down (large values hide)."""
    x = correlated_table(points=1000, seed=1)
    gaps = {}
    for mechanism, driver in [("MCAR", None), ("MAR", 0), ("MNAR", None)]:
        shifts = []
        for seed in range(40):
            gappy = ml.make_missing(x, 1, 0.4, mechanism, driver=driver, seed=seed)
            shifts.append(np.nanmean(gappy[:, 1]) - x[:, 1].mean())
        gaps[mechanism] = np.mean(shifts)
    assert abs(gaps["MCAR"]) < 0.02
    assert gaps["MAR"] < -0.1 and gaps["MNAR"] < -0.1
    assert gaps["MNAR"] < gaps["MAR"]         # the hidden value itself decides more directly than a correlate


@pytest.mark.parametrize("kwargs, message", [
    (dict(column=3, share=0.2), r"column must be an integer from 0 to 2; found column = 3"),
    (dict(column=0, share=1.0), r"share must be a number in \(0, 1\)"),
    (dict(column=0, share=0.2, mechanism="random"), r"unknown mechanism 'random'"),
    (dict(column=0, share=0.2, mechanism="MAR"), r"give driver=<column>"),
    (dict(column=0, share=0.2, mechanism="MAR", driver=0), r"a value hidden because of itself is MNAR"),
    (dict(column=0, share=0.2, mechanism="MNAR", driver=1), r"driver is only used by MAR"),
    (dict(column=0, share=0.001), r"hides 0 values"),
])
def test_make_missing_refuses_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ml.make_missing(correlated_table(points=50), **kwargs)


def test_make_missing_needs_a_complete_table():
    x = correlated_table(points=20)
    x[3, 2] = np.nan
    with pytest.raises(ValueError, match=r"column 2 of x already holds 1 NaN"):
        ml.make_missing(x, 2, 0.2)
    with pytest.raises(ValueError, match=r"driver column 2 must be observed in every row"):
        ml.make_missing(x, 0, 0.2, "MAR", driver=2)
    assert np.isnan(ml.make_missing(x, 0, 0.2)).sum() == 5      # gaps elsewhere are allowed


# ---------------------------------------------------------------- iterative imputation


@pytest.mark.parametrize("rounds", [1, 3, 10])
def test_iterative_imputer_matches_scikit_learn(rounds):
    x = correlated_table(points=300, seed=2)
    train = ml.make_missing(ml.make_missing(x[:200], 1, 0.25, "MAR", driver=0, seed=1), 2, 0.1, seed=2)
    test = ml.make_missing(ml.make_missing(x[200:], 1, 0.3, seed=4), 0, 0.2, seed=5)
    impute = ml.iterative_imputer(train, rounds=rounds)
    reference = IterativeImputer(estimator=LinearRegression(), max_iter=rounds, tol=0.0, initial_strategy="mean",
                                 imputation_order="ascending", sample_posterior=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                       # its "did not converge" warning: tol=0 never stops early
        expected_train = reference.fit_transform(train)
    np.testing.assert_allclose(impute(train), expected_train, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(impute(test), reference.transform(test), rtol=1e-9, atol=1e-10)
    assert impute.weights.shape == (rounds, 3, 3)


def test_iterative_imputer_beats_the_mean_on_correlated_columns_and_changes_nothing_in_place():
    x = correlated_table(points=600, seed=3)
    gappy = ml.make_missing(x, 1, 0.3, seed=0)
    before = gappy.copy()
    filled = ml.iterative_imputer(gappy)(gappy)
    np.testing.assert_array_equal(np.isnan(gappy), np.isnan(before))
    gaps = np.isnan(gappy[:, 1])
    mean_error = np.sqrt(np.mean((np.nanmean(gappy[:, 1]) - x[gaps, 1]) ** 2))
    chained_error = np.sqrt(np.mean((filled[gaps, 1] - x[gaps, 1]) ** 2))
    assert chained_error < 0.75 * mean_error
    np.testing.assert_array_equal(filled[~gaps], x[~gaps])


def test_iterative_imputer_refuses_bad_input():
    with pytest.raises(ValueError, match=r"rounds must be an integer >= 1"):
        ml.iterative_imputer(correlated_table(points=10), rounds=0)
    x = correlated_table(points=10)
    x[:, 1] = np.nan
    with pytest.raises(ValueError, match=r"column\(s\) \[1\] of x_train have no observed value"):
        ml.iterative_imputer(x)
    impute = ml.iterative_imputer(correlated_table(points=10))
    with pytest.raises(ValueError, match=r"fitted on 3 feature\(s\) but got x of shape \(4, 2\)"):
        impute(np.zeros((4, 2)))
