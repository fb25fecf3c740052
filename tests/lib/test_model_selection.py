"""Tests of learning curves and early stopping (chapter 4)."""

import warnings

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import learning_curve as sklearn_learning_curve

import mlrefined_lib as ml


def fit_lstsq(x, y):
    x_ext = np.column_stack([np.ones(len(x)), x])
    return np.linalg.lstsq(x_ext, y, rcond=None)[0]


def mse(w, x, y):
    return float(np.mean((w[0] + x @ w[1:] - y) ** 2))


def regression_data(seed=0, points=60, features=3):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(points, features))
    y = 1.0 + x @ rng.normal(size=features) + 0.5 * rng.normal(size=points)
    return x, y


# ---------------------------------------------------------------- learning curves


def test_learning_curve_matches_scikit_learn_on_a_predefined_split():
    x, y = regression_data()
    train, val = np.arange(40), np.arange(40, 60)
    sizes = [5, 10, 20, 40]
    ours = ml.learning_curve(fit_lstsq, mse, x[train], y[train], x[val], y[val], sizes)
    got_sizes, train_scores, val_scores = sklearn_learning_curve(
        LinearRegression(), x, y, train_sizes=sizes, cv=[(train, val)], scoring="neg_mean_squared_error",
        shuffle=False)
    np.testing.assert_array_equal(ours.sizes, got_sizes)
    np.testing.assert_allclose(ours.train_errors, -train_scores[:, 0], rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(ours.validation_errors, -val_scores[:, 0], rtol=1e-8)
    np.testing.assert_allclose(ours.gaps, ours.validation_errors - ours.train_errors)


def test_learning_curve_uses_the_first_m_points_and_any_error():
    x, y = regression_data(1)
    seen = []

    def fit(xm, ym):
        seen.append(len(xm))
        return ym.mean()

    def error(model, xs, ys):
        return float(np.mean(np.abs(ys - model)))

    curve = ml.learning_curve(fit, error, x[:30], y[:30], x[30:], y[30:], [3, 30])
    assert seen == [3, 30]
    assert curve.train_errors[0] == pytest.approx(np.mean(np.abs(y[:3] - y[:3].mean())))
    assert curve.validation_errors[1] == pytest.approx(np.mean(np.abs(y[30:] - y[:30].mean())))


def test_learning_curve_does_not_let_fit_change_the_callers_data():
    x, y = regression_data(2)
    saved = x.copy(), y.copy()

    def vandal(xm, ym):
        xm[:] = 0.0
        ym[:] = 0.0
        return np.zeros(4)

    ml.learning_curve(vandal, mse, x[:40], y[:40], x[40:], y[40:], [10, 40])
    np.testing.assert_array_equal(x, saved[0])
    np.testing.assert_array_equal(y, saved[1])


def test_learning_curve_bad_input():
    x, y = regression_data()
    with pytest.raises(ValueError, match=r"N = 3 feature column\(s\); x_val has shape \(20, 2\)"):
        ml.learning_curve(fit_lstsq, mse, x[:40], y[:40], x[40:, :2], y[40:], [10])
    with pytest.raises(ValueError, match="between 1 and the P = 40"):
        ml.learning_curve(fit_lstsq, mse, x[:40], y[:40], x[40:], y[40:], [10, 41])
    with pytest.raises(ValueError, match="increasing"):
        ml.learning_curve(fit_lstsq, mse, x[:40], y[:40], x[40:], y[40:], [20, 10])
    with pytest.raises(ValueError, match="integers"):
        ml.learning_curve(fit_lstsq, mse, x[:40], y[:40], x[40:], y[40:], [2.5])
    with pytest.raises(ValueError, match="functions"):
        ml.learning_curve("lstsq", mse, x[:40], y[:40], x[40:], y[40:], [10])
    with pytest.raises(ValueError, match="disagree on the number of points"):
        ml.learning_curve(fit_lstsq, mse, x[:40], y[:40], x[40:], y[41:], [10])


# ---------------------------------------------------------------- early stopping


def overfitting_problem(seed=3):
    """Few noisy points, many polynomial features: the validation cost falls, then rises."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, size=(80, 1))
    y = 0.5 * x[:, 0] ** 2 + x[:, 0] + rng.normal(scale=0.3, size=80)
    features = ml.polynomial_features(x, 12)
    features = (features - features[:15].mean(axis=0)) / features[:15].std(axis=0)
    return ml.least_squares(features[:15], y[:15]), ml.least_squares(features[15:], y[15:])


def hand_written(g_train, g_val, w0, alpha, epochs, batch_size, seed):
    rng = np.random.default_rng(seed)
    w = np.array(w0, dtype=float)
    ws, vals = [w.copy()], [g_val(w)]
    for _ in range(epochs):
        order = rng.permutation(g_train.num_points)
        for start in range(0, len(order), batch_size):
            rows = order[start:start + batch_size]
            x_ext, y = g_train.x_ext[rows], g_train.y[rows]
            w = w - alpha * 2 / len(rows) * x_ext.T @ (x_ext @ w - y)
        ws.append(w.copy())
        vals.append(g_val(w))
    return np.array(ws), np.array(vals)


def test_early_stopping_follows_a_hand_written_loop_and_keeps_the_best_epoch():
    g_train, g_val = overfitting_problem()
    result = ml.early_stopping(g_train, g_val, np.zeros(13), 0.02, 300, 4, seed=5)
    ws, vals = hand_written(g_train, g_val, np.zeros(13), 0.02, 300, 4, seed=5)
    np.testing.assert_allclose(result.weights, ws, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(result.validation_costs, vals, rtol=1e-9)
    np.testing.assert_allclose(result.train_costs, [g_train(w) for w in ws], rtol=1e-9)
    assert result.best_epoch == int(np.argmin(vals))
    # The problem overfits: the best epoch is neither the start nor the end, and it is not the last weights.
    assert 0 < result.best_epoch < result.epochs
    assert not np.allclose(result.best_weights, result.final_weights)
    assert result.validation_costs[-1] > result.validation_costs[result.best_epoch]
    assert result.stop_reason == "max_epochs"


def test_full_batch_equals_gradient_descent():
    g_train, g_val = overfitting_problem()
    result = ml.early_stopping(g_train, g_val, np.zeros(13), 0.02, 50, g_train.num_points)
    history = ml.gradient_descent(g_train, np.zeros(13), 0.02, 50)
    np.testing.assert_allclose(result.weights, history.weights, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(result.train_costs, history.costs, rtol=1e-9)


def test_patience_stops_the_run_and_still_returns_the_best():
    g_train, g_val = overfitting_problem()
    full = ml.early_stopping(g_train, g_val, np.zeros(13), 0.02, 300, 4, seed=5)
    for patience in [0, 3, 20]:
        run = ml.early_stopping(g_train, g_val, np.zeros(13), 0.02, 300, 4, seed=5, patience=patience)
        vals = run.validation_costs
        # the epochs run agree with the full run
        np.testing.assert_allclose(vals, full.validation_costs[:len(vals)])
        assert run.stop_reason == "patience"
        assert run.epochs - run.best_epoch == patience + 1
        assert np.all(vals[run.best_epoch + 1:] >= vals[run.best_epoch])
        np.testing.assert_array_equal(run.best_weights, run.weights[int(np.argmin(vals))])
    first = ml.early_stopping(g_train, g_val, np.zeros(13), 0.02, 300, 4, seed=5, patience=0)
    assert first.epochs == full.first_rise or full.validation_costs[full.first_rise] == full.validation_costs[
        full.first_rise - 1]


def test_first_rise():
    result = ml.EarlyStoppingResult(np.zeros((5, 1)), np.zeros(5), np.array([3.0, 2.0, 2.5, 1.0, 1.5]), 3,
                                    "max_epochs")
    assert result.first_rise == 2
    assert result.best_weights.shape == (1,)
    flat = ml.EarlyStoppingResult(np.zeros((3, 1)), np.zeros(3), np.array([3.0, 2.0, 1.0]), 2, "max_epochs")
    assert flat.first_rise is None


def test_early_stopping_does_not_modify_w0():
    g_train, g_val = overfitting_problem()
    w0 = np.zeros(13)
    ml.early_stopping(g_train, g_val, w0, 0.02, 5, 4)
    np.testing.assert_array_equal(w0, np.zeros(13))


def test_early_stopping_works_for_the_multiclass_softmax():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, 4))
    y = (x[:, 0] > 0).astype(int) + (x[:, 1] > 0).astype(int)
    g_train, g_val = ml.multiclass_softmax(x[:40], y[:40], 3), ml.multiclass_softmax(x[40:], y[40:], 3)
    result = ml.early_stopping(g_train, g_val, np.zeros((5, 3)), 0.5, 20, 40)
    history = ml.gradient_descent(g_train, np.zeros((5, 3)), 0.5, 20)
    np.testing.assert_allclose(result.weights, history.weights, rtol=1e-9, atol=1e-12)
    assert result.best_weights.shape == (5, 3)


def test_early_stopping_bad_input():
    g_train, g_val = overfitting_problem()
    x_val = g_val.x[:, :5]
    with pytest.raises(ValueError, match=r"g_train has N = 12 feature\(s\).*g_val has N = 5"):
        ml.early_stopping(g_train, ml.least_squares(x_val, g_val.y), np.zeros(13), 0.02, 5, 4)
    with pytest.raises(ValueError, match="batch_size must be an integer >= 1; found batch_size = 0"):
        ml.early_stopping(g_train, g_val, np.zeros(13), 0.02, 5, 0)
    with pytest.raises(ValueError, match="at most the number of training points P = 15; found 16"):
        ml.early_stopping(g_train, g_val, np.zeros(13), 0.02, 5, 16)
    with pytest.raises(ValueError, match="patience"):
        ml.early_stopping(g_train, g_val, np.zeros(13), 0.02, 5, 4, patience=-1)
    with pytest.raises(ValueError, match="alpha"):
        ml.early_stopping(g_train, g_val, np.zeros(13), 0.0, 5, 4)
    with pytest.raises(ValueError, match="max_epochs"):
        ml.early_stopping(g_train, g_val, np.zeros(13), 0.02, 0, 4)
    with pytest.raises(ValueError, match="cost object"):
        ml.early_stopping(lambda w: 0.0, g_val, np.zeros(13), 0.02, 5, 4)
    with pytest.raises(ValueError, match="w has shape"):
        ml.early_stopping(g_train, g_val, np.zeros(12), 0.02, 5, 4)


def test_divergence_warns_and_keeps_the_finite_epochs():
    g_train, g_val = overfitting_problem()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = ml.early_stopping(g_train, g_val, np.zeros(13), 50.0, 200, 15)
    assert result.stop_reason == "diverged"
    assert any(issubclass(w.category, ml.DivergenceWarning) for w in caught)
    assert np.all(np.isfinite(result.validation_costs))
