"""Tests of permutation importance and of calibration (reliability table, prior shift) against scikit-learn."""

import numpy as np
import pytest
from sklearn.calibration import calibration_curve
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge

import mlrefined_lib as ml


def mse(model, x, y):
    return float(np.mean((model.predict(x) - y) ** 2))


def linear_data(points=4000, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(points, 3)) * np.array([1.0, 2.0, 0.5])
    y = x @ np.array([1.5, 0.0, -2.0]) + 0.3 * rng.normal(size=points)
    return x, y


def test_permutation_importance_agrees_with_theory_and_scikit_learn():
    x, y = linear_data()
    model = LinearRegression().fit(x, y)
    result = ml.permutation_importance(model, mse, x, y, repeats=20, seed=1, names=["a", "unused", "c"])
    assert result.baseline == pytest.approx(mse(model, x, y))
    # Shuffling column n of a linear model adds w_n² · 2·var(x_n) to the mean squared error, on average.
    theory = 2 * model.coef_ ** 2 * x.var(axis=0)
    np.testing.assert_allclose(result.mean, theory, rtol=0.05, atol=1e-3)
    reference = sklearn_permutation_importance(model, x, y, scoring="neg_mean_squared_error", n_repeats=20,
                                               random_state=1)
    np.testing.assert_allclose(result.mean, reference.importances_mean, rtol=0.05, atol=1e-3)
    assert abs(result.mean[1]) < 1e-3
    text = repr(result)
    assert text.splitlines()[1].strip().startswith("a ") and text.splitlines()[-1].strip().startswith("unused")


def test_twins_share_their_importance():
    rng = np.random.default_rng(2)
    signal = rng.normal(size=3000)
    x = np.column_stack([signal, signal + 0.01 * rng.normal(size=3000), rng.normal(size=3000)])
    y = 2 * signal + 0.1 * rng.normal(size=3000)
    alone = Ridge(alpha=1.0).fit(x[:, [0, 2]], y)
    twins = Ridge(alpha=1.0).fit(x, y)                  # a small penalty splits the weight between the twins
    one = ml.permutation_importance(alone, mse, x[:, [0, 2]], y, repeats=5).mean[0]
    both = ml.permutation_importance(twins, mse, x, y, repeats=5).mean[:2]
    assert one > 0 and np.all(both < one)


def test_permutation_importance_changes_nothing_and_refuses_bad_input():
    x, y = linear_data(points=50)
    model = LinearRegression().fit(x, y)
    before = x.copy()
    ml.permutation_importance(model, mse, x, y, repeats=2)
    np.testing.assert_array_equal(x, before)
    with pytest.raises(ValueError, match=r"repeats must be an integer >= 1"):
        ml.permutation_importance(model, mse, x, y, repeats=0)
    with pytest.raises(ValueError, match=r"error must be a function"):
        ml.permutation_importance(model, "mse", x, y)
    with pytest.raises(ValueError, match=r"x has 3 but 2 were given"):
        ml.permutation_importance(model, mse, x, y, names=["a", "b"])
    with pytest.raises(ValueError, match=r"error returned nan on the rows as they are"):
        ml.permutation_importance(model, lambda m, a, b: float("nan"), x, y)


@pytest.mark.parametrize("bins", [1, 5, 10])
def test_reliability_table_matches_calibration_curve(bins):
    rng = np.random.default_rng(3)
    p = np.concatenate([rng.uniform(size=500), [0.0, 1.0, 0.5, 0.2, 0.8]])
    y = (rng.uniform(size=p.size) < p ** 1.5).astype(int)
    table = ml.reliability_table(y, p, bins)
    observed, predicted = calibration_curve(y, p, n_bins=bins, strategy="uniform")
    used = table.counts > 0
    np.testing.assert_allclose(table.predicted[used], predicted, rtol=1e-12)
    np.testing.assert_allclose(table.observed[used], observed, rtol=1e-12)
    assert table.counts.sum() == p.size
    assert 0 <= table.calibration_error <= 1


def test_prior_shift_undoes_oversampling():
    rng = np.random.default_rng(4)
    x = rng.normal(size=(20000, 2))
    truth = 1 / (1 + np.exp(-(-3.0 + x @ np.array([1.0, -1.0]))))
    y = (rng.uniform(size=20000) < truth).astype(int)
    positives = np.flatnonzero(y == 1)
    copies = np.concatenate([np.arange(20000)] + [positives] * 4)        # every positive five times
    oversampled = LogisticRegression(C=1e6).fit(x[copies], y[copies])
    honest = LogisticRegression(C=1e6).fit(x, y)
    trained, true = y[copies].mean(), y.mean()
    raw = oversampled.predict_proba(x)[:, 1]
    fixed = ml.prior_shift(raw, trained, true)
    assert np.mean(raw) > 2 * np.mean(honest.predict_proba(x)[:, 1])
    np.testing.assert_allclose(fixed, honest.predict_proba(x)[:, 1], atol=0.01)


def test_prior_shift_formula_and_bad_input():
    assert ml.prior_shift([0.5], 0.5, 0.1)[0] == pytest.approx(0.1)
    p = np.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]])
    shifted = ml.prior_shift(p, [0.2, 0.3, 0.5], [0.5, 0.3, 0.2])
    np.testing.assert_allclose(shifted.sum(axis=1), 1.0)
    np.testing.assert_allclose(ml.prior_shift(shifted, [0.5, 0.3, 0.2], [0.2, 0.3, 0.5]), p)
    expected = p * np.array([2.5, 1.0, 0.4])
    np.testing.assert_allclose(shifted, expected / expected.sum(axis=1, keepdims=True))
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]"):
        ml.prior_shift([1.5], 0.5, 0.1)
    with pytest.raises(ValueError, match=r"must sum to 1"):
        ml.prior_shift([[0.5, 0.6]], [0.5, 0.5], [0.5, 0.5])
    with pytest.raises(ValueError, match=r"true_prior must be the share of class 1"):
        ml.prior_shift([0.5], 0.5, 1.0)
    with pytest.raises(ValueError, match=r"y must hold 0/1 labels"):
        ml.reliability_table([0, 2], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"found shapes \(3,\) and \(2,\)"):
        ml.reliability_table([0, 1, 1], [0.1, 0.2])
