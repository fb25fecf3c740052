"""Tests of learning-rate schedules and the per-step history of minibatch_gradient_descent (chapter 2).

References: plain gradient descent (``batch_size = P``), a stochastic loop
written out here with NumPy, and scikit-learn's ``SGDRegressor`` with
``learning_rate="invscaling"``.

Where scikit-learn's definitions differ from the library's:

* its step counter ``t`` counts *samples* and starts at 1, ours counts *steps*
  from 0, so with one point per step its ``eta0 / t**power_t`` is our
  ``alpha / (t + 1)**power``;
* its squared loss is ``(1/2)(prediction − y)²``, ours ``(prediction − y)²``,
  so its gradient is half of ours and its ``eta0`` equals our ``2 · alpha``;
* it adds an L2 penalty by default (``penalty="l2"``, ``alpha=1e-4``, which is
  *not* a step length): we switch it off with ``penalty=None``;
* it has no mini-batches: the comparison uses ``batch_size = 1``.
"""

import warnings

import numpy as np
import pytest
from regression_data import noisy_linear
from sklearn.linear_model import SGDRegressor

from mlrefined_lib import SCHEDULES, MinibatchHistory, learning_schedule
from mlrefined_lib.costs import least_squares
from mlrefined_lib.optimizers import DivergenceWarning, gradient_descent, minibatch_gradient_descent


@pytest.fixture
def regression():
    return noisy_linear(7, 40, [2.0, -1.0, 0.5], bias=1.5, noise=0.2)


def _hand_sgd(x, y, w0, epochs, seed, step_length):
    """Stochastic gradient descent on the mean squared error, one point per step, written out by hand."""
    rng = np.random.default_rng(seed)
    w = np.array(w0, dtype=float)
    path, alphas, costs = [w.copy()], [], []
    t = 0
    for _ in range(epochs):
        for p in rng.permutation(len(x)):
            prediction = w[0] + x[p] @ w[1:]
            costs.append((prediction - y[p]) ** 2)
            alpha = step_length(t)
            alphas.append(alpha)
            w = w - alpha * 2 * (prediction - y[p]) * np.concatenate([[1.0], x[p]])
            path.append(w.copy())
            t += 1
    return np.array(path), np.array(alphas), np.array(costs)


# ---------------------------------------------------------------- reference runs


@pytest.mark.parametrize("shuffle", [True, False])
def test_full_batch_equals_gradient_descent(regression, shuffle):
    x, y = regression
    g = least_squares(x, y)
    mini = minibatch_gradient_descent(g, np.zeros(4), 0.1, 8, batch_size=len(x), shuffle=shuffle, record_steps=True)
    full = gradient_descent(g, np.zeros(4), 0.1, 8)
    np.testing.assert_allclose(mini.weights, full.weights, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(mini.step_weights, full.weights, rtol=1e-12, atol=1e-14)
    # With one batch the batch cost is the full cost.
    np.testing.assert_allclose(mini.step_costs, full.costs[:-1], rtol=1e-12)
    assert mini.steps_per_epoch == 1


@pytest.mark.parametrize(
    "schedule, alpha, step_length",
    [
        (None, 0.05, lambda t: 0.05),
        (lambda t: 2.0 / (t + 20.0), None, lambda t: 2.0 / (t + 20.0)),
        ("invscaling", 0.08, lambda t: 0.08 / (t + 1.0) ** 0.25),
        ("inverse_time", 0.08, lambda t: 0.08 * 100.0 / (t + 100.0)),
    ],
)
def test_stochastic_equals_hand_written_loop(regression, schedule, alpha, step_length):
    x, y = regression
    history = minibatch_gradient_descent(least_squares(x, y), np.zeros(4), alpha, 3, 1, seed=5,
                                         schedule=schedule, record_steps=True)
    path, alphas, costs = _hand_sgd(x, y, np.zeros(4), 3, 5, step_length)
    np.testing.assert_allclose(history.step_weights, path, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(history.step_alphas, alphas, rtol=1e-15)
    np.testing.assert_allclose(history.step_costs, costs, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(history.weights, path[:: len(x)], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(history.alphas, alphas[:: len(x)], rtol=1e-15)


def test_a_different_seed_gives_a_different_path(regression):
    g = least_squares(*regression)
    a = minibatch_gradient_descent(g, np.zeros(4), 0.05, 1, 1, seed=5)
    b = minibatch_gradient_descent(g, np.zeros(4), 0.05, 1, 1, seed=6)
    assert not np.allclose(a.final_weights, b.final_weights)


def test_without_shuffling_points_are_visited_in_order(regression):
    x, y = regression
    history = minibatch_gradient_descent(least_squares(x, y), np.zeros(4), 0.05, 2, 1, shuffle=False)
    w = np.zeros(4)
    for _ in range(2):
        for p in range(len(x)):
            w = w - 0.05 * 2 * (w[0] + x[p] @ w[1:] - y[p]) * np.concatenate([[1.0], x[p]])
    np.testing.assert_allclose(history.final_weights, w, rtol=1e-10)


def test_sklearn_invscaling_step_lengths():
    eta0, power_t = 0.02, 0.3
    ours = learning_schedule("invscaling", eta0 / 2, power=power_t)
    # scikit-learn: eta = eta0 / t**power_t with t = 1, 2, ... counting samples; our t starts at 0
    # and our loss has no 1/2, so our step is half of its eta at the same sample.
    for t in range(200):
        assert ours(t) == pytest.approx(eta0 / (t + 1) ** power_t / 2, rel=1e-14)


def test_sklearn_sgdregressor_invscaling_run(regression):
    """Same data order, same schedule: the same weights as SGDRegressor, epoch after epoch."""
    x, y = regression
    eta0, power_t, epochs, seed = 0.02, 0.25, 4, 3
    history = minibatch_gradient_descent(least_squares(x, y), np.zeros(4), None, epochs, 1, seed=seed,
                                         schedule=learning_schedule("invscaling", eta0 / 2, power=power_t))
    sgd = SGDRegressor(learning_rate="invscaling", eta0=eta0, power_t=power_t, penalty=None, shuffle=False)
    rng = np.random.default_rng(seed)
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(x))  # the library's shuffle, fed to scikit-learn in that order
        sgd.partial_fit(x[order], y[order])
        sklearn_weights = np.concatenate([sgd.intercept_, sgd.coef_])
        np.testing.assert_allclose(history.weights[epoch], sklearn_weights, rtol=1e-9, atol=1e-12)
    assert sgd.t_ == epochs * len(x) + 1  # its counter: samples seen, plus 1


def test_sklearn_differs_without_the_conventions(regression):
    """The test above can fail: ignoring the factor 2 of the losses gives other weights."""
    x, y = regression
    history = minibatch_gradient_descent(least_squares(x, y), np.zeros(4), 0.02, 1, 1, seed=3, schedule="invscaling")
    sgd = SGDRegressor(learning_rate="invscaling", eta0=0.02, power_t=0.25, penalty=None, shuffle=False)
    order = np.random.default_rng(3).permutation(len(x))
    sgd.partial_fit(x[order], y[order])
    assert not np.allclose(history.final_weights, np.concatenate([sgd.intercept_, sgd.coef_]), rtol=1e-3)


# ---------------------------------------------------------------- the history


def test_history_shapes_and_step_counter_runs_across_epochs(regression):
    x, y = regression
    w0 = np.zeros(4)
    history = minibatch_gradient_descent(least_squares(x, y), w0, 0.05, 3, 7, schedule="invscaling",
                                         record_steps=True)
    assert isinstance(history, MinibatchHistory)
    assert np.all(w0 == 0)
    assert history.steps_per_epoch == 6  # ceil(40 / 7)
    assert history.epochs == 3 and history.weights.shape == (4, 4) and history.costs.shape == (4,)
    assert history.step_costs.shape == history.step_alphas.shape == (18,)
    assert history.step_weights.shape == (19, 4)
    np.testing.assert_array_equal(history.step_weights[::6], history.weights)
    np.testing.assert_allclose(history.step_alphas, 0.05 / np.arange(1, 19) ** 0.25)
    assert np.all(np.diff(history.step_alphas) < 0)  # t does not restart at an epoch
    g = least_squares(x, y)
    np.testing.assert_allclose(history.costs, [g(w) for w in history.weights])
    assert "epochs=3" in repr(history) and "steps=18" in repr(history)


def test_step_weights_are_off_by_default(regression):
    history = minibatch_gradient_descent(least_squares(*regression), np.zeros(4), 0.05, 2, 10)
    assert history.step_weights is None and history.step_costs.shape == (8,)


def test_constant_schedule_by_name_equals_fixed_alpha(regression):
    g = least_squares(*regression)
    fixed = minibatch_gradient_descent(g, np.zeros(4), 0.05, 2, 3)
    named = minibatch_gradient_descent(g, np.zeros(4), 0.05, 2, 3, schedule="constant")
    np.testing.assert_array_equal(fixed.weights, named.weights)


def test_divergence_keeps_whole_epochs_and_their_steps(regression):
    x, y = regression
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.warns(DivergenceWarning, match="epoch"):
            history = minibatch_gradient_descent(least_squares(x * 30, y), np.zeros(4), None, 50, 4,
                                                 schedule=lambda t: 0.002 * 1.05**t, record_steps=True)
    assert history.stop_reason == "diverged"
    kept = history.epochs
    assert history.step_costs.shape == (kept * 10,) and history.step_weights.shape == (kept * 10 + 1, 4)
    assert np.all(np.isfinite(history.step_weights)) and np.all(np.isfinite(history.step_costs))


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"batch_size": 0}, r"batch_size must be an integer >= 1; found batch_size = 0"),
        ({"batch_size": 41}, r"at most the number of points P = 40; found 41"),
        ({"batch_size": True}, "batch_size"),
        ({"schedule": "exponential"}, r"unknown learning-rate schedule 'exponential'.*'constant', 'invscaling'"),
        ({"schedule": lambda t: 0.1}, "alpha=None"),
        ({"alpha": None, "schedule": lambda t: -0.1}, r"schedule\(0\) returned -0.1"),
        ({"alpha": None, "schedule": lambda t: float("nan")}, "positive finite"),
        ({"alpha": None}, "alpha must be a positive number"),
        ({"schedule": 3}, "schedule must be None"),
        ({"alpha": -1.0, "schedule": "invscaling"}, "alpha must be a positive number"),
    ],
)
def test_bad_arguments_raise_before_any_work(regression, kwargs, message):
    calls = []

    class Spy:
        """A cost that records whether any gradient was taken."""

        def __init__(self, g):
            self.g, self.num_points = g, g.num_points

        def rows(self, index):
            calls.append("rows")
            return self.g.rows(index)

        def gradient(self, w):
            calls.append("gradient")
            return self.g.gradient(w)

        def _check(self, w):
            self.g._check(w)

        def __call__(self, w):
            return self.g(w)

    arguments = {"alpha": 0.1, "epochs": 2, "batch_size": 5} | kwargs
    with pytest.raises(ValueError, match=message):
        minibatch_gradient_descent(Spy(least_squares(*regression)), np.zeros(4), **arguments)
    assert calls == []


def test_schedule_failing_later_names_the_step(regression):
    with pytest.raises(ValueError, match=r"schedule\(3\)"):
        minibatch_gradient_descent(least_squares(*regression), np.zeros(4), None, 1, 5,
                                   schedule=lambda t: 0.1 if t < 3 else 0.0)


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (("linear", 0.1), {}, "valid names are: 'constant', 'invscaling', 'inverse_time'"),
        (("invscaling", 0.0), {}, "alpha"),
        (("invscaling", 0.1), {"power": -0.5}, "power"),
        (("inverse_time", 0.1), {"t1": 0}, "t1"),
    ],
)
def test_learning_schedule_bad_input(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        learning_schedule(*args, **kwargs)


def test_named_schedules():
    assert SCHEDULES == ("constant", "invscaling", "inverse_time")
    assert learning_schedule("constant", 0.3)(1000) == 0.3
    inverse = learning_schedule("inverse_time", 0.5, t1=50)
    assert inverse(0) == 0.5 and inverse(50) == pytest.approx(0.25)
    assert learning_schedule("invscaling", 1.0, power=0.5)(3) == pytest.approx(0.5)
