"""Unit tests of mlrefined_lib.optimizers: gradient descent and Newton's method.

References are independent: np.linalg.lstsq for least squares, scikit-learn's
unpenalized LogisticRegression for the softmax cost, and plain autograd.numpy
re-implementations of the costs.
"""

import warnings

import autograd.numpy as anp
import numpy as np
import pytest

from mlrefined_lib.costs import least_squares, multiclass_softmax, softmax
from mlrefined_lib.optimizers import DivergenceWarning, History, gradient_descent, newtons_method

P = 60


@pytest.fixture
def problem():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(P, 2))
    y = 1.0 + x @ np.array([2.0, -3.0]) + 0.3 * rng.normal(size=P)
    x_tilde = np.column_stack([np.ones(P), x])
    w_star = np.linalg.lstsq(x_tilde, y, rcond=None)[0]
    return x, y, w_star


@pytest.fixture
def classification():
    """A non-separable two-class set with ±1 labels."""
    rng = np.random.default_rng(8)
    x = rng.normal(size=(80, 2))
    y = np.where(0.5 + x[:, 0] - 2.0 * x[:, 1] + 1.0 * rng.normal(size=80) > 0, 1.0, -1.0)
    return x, y


# ---------------------------------------------------------------- gradient descent


def test_gradient_descent_converges_to_lstsq(problem):
    x, y, w_star = problem
    history = gradient_descent(least_squares(x, y), np.zeros(3), 0.1, 500)
    np.testing.assert_allclose(history.final_weights, w_star, rtol=1e-8, atol=1e-10)
    assert history.stop_reason == "max_its"
    # The cost never goes up with a small enough fixed step on a quadratic.
    assert np.all(np.diff(history.costs) <= 1e-15)
    np.testing.assert_allclose(history.best_weights, w_star, rtol=1e-8, atol=1e-10)


def test_history_shapes_and_costs(problem):
    x, y, _ = problem
    g = least_squares(x, y)
    max_its = 17
    history = gradient_descent(g, np.array([0.5, -1.0, 2.0]), 0.05, max_its)
    assert isinstance(history, History)
    assert history.weights.shape == (max_its + 1, 3)
    assert history.costs.shape == (max_its + 1,)
    assert history.gradient_norms.shape == (max_its + 1,)
    assert history.alphas.shape == (max_its,)
    assert history.steps == max_its
    np.testing.assert_array_equal(history.weights[0], [0.5, -1.0, 2.0])
    x_tilde = np.column_stack([np.ones(P), x])
    expected_costs = [np.mean((x_tilde @ w - y) ** 2) for w in history.weights]
    np.testing.assert_allclose(history.costs, expected_costs, rtol=1e-12)
    expected_norms = [np.linalg.norm(2 / P * x_tilde.T @ (x_tilde @ w - y)) for w in history.weights]
    np.testing.assert_allclose(history.gradient_norms, expected_norms, rtol=1e-10)
    # Each step is w - alpha * gradient, with the gradient written out here.
    for k in range(max_its):
        w = history.weights[k]
        np.testing.assert_allclose(history.weights[k + 1], w - 0.05 * 2 / P * x_tilde.T @ (x_tilde @ w - y), rtol=1e-12)
    assert "steps=17" in repr(history) and "stop_reason='max_its'" in repr(history)


def test_history_shapes_with_matrix_weights():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(30, 2))
    y = np.arange(30) % 3
    w0 = np.zeros((3, 3))
    history = gradient_descent(multiclass_softmax(x, y), w0, 0.5, 6)
    assert history.weights.shape == (7, 3, 3)
    assert history.costs.shape == (7,)
    assert history.costs[0] == pytest.approx(np.log(3.0), rel=1e-12)


def test_zero_steps(problem):
    x, y, _ = problem
    history = gradient_descent(least_squares(x, y), np.ones(3), 0.1, 0)
    assert history.weights.shape == (1, 3)
    assert history.alphas.shape == (0,)


def test_w0_is_not_modified(problem):
    x, y, _ = problem
    w0 = np.array([3.0, -2.0, 1.0])
    saved = w0.copy()
    history = gradient_descent(least_squares(x, y), w0, 0.1, 20)
    np.testing.assert_array_equal(w0, saved)
    history.weights[0][:] = 99.0  # the history owns its arrays
    np.testing.assert_array_equal(w0, saved)
    newtons_method(least_squares(x, y), w0, 2)
    np.testing.assert_array_equal(w0, saved)


def test_diminishing_step_is_one_over_k(classification):
    x, y = classification
    history = gradient_descent(softmax(x, y), np.zeros(3), "diminishing", 12)
    np.testing.assert_allclose(history.alphas, [1.0 / k for k in range(1, 13)], rtol=0, atol=0)
    x_tilde = np.column_stack([np.ones(len(x)), x])
    for k in range(1, 13):
        w = history.weights[k - 1]
        gradient = -x_tilde.T @ (y / (1.0 + np.exp(y * (x_tilde @ w)))) / len(x)
        np.testing.assert_allclose(history.weights[k], w - gradient / k, rtol=1e-10, atol=1e-14)


def test_fixed_alpha_is_recorded(problem):
    x, y, _ = problem
    history = gradient_descent(least_squares(x, y), np.zeros(3), 0.01, 5)
    np.testing.assert_array_equal(history.alphas, np.full(5, 0.01))


def test_unknown_alpha_name_lists_valid_names(problem):
    x, y, _ = problem
    with pytest.raises(ValueError, match="unknown step-length rule 'constant'.*'diminishing'"):
        gradient_descent(least_squares(x, y), np.zeros(3), "constant", 10)


@pytest.mark.parametrize("alpha", [-0.1, 0.0, float("nan"), float("inf")])
def test_nonpositive_or_nonfinite_alpha_raises(problem, alpha):
    x, y, _ = problem
    with pytest.raises(ValueError, match="alpha must be a positive number or one of \\['diminishing'\\]"):
        gradient_descent(least_squares(x, y), np.zeros(3), alpha, 10)


@pytest.mark.parametrize("max_its", [-1, 2.5, "10"])
def test_bad_max_its_raises(problem, max_its):
    x, y, _ = problem
    with pytest.raises(ValueError, match="max_its must be a non-negative integer"):
        gradient_descent(least_squares(x, y), np.zeros(3), 0.1, max_its)


def test_nonfinite_start_raises(problem):
    x, y, _ = problem
    with pytest.raises(ValueError, match="w0 must be finite"):
        gradient_descent(least_squares(x, y), np.array([0.0, np.nan, 1.0]), 0.1, 10)


def test_divergence_warns_names_step_and_keeps_finite_history(problem):
    x, y, _ = problem
    with pytest.warns(DivergenceWarning) as record:
        history = gradient_descent(least_squares(x, y), np.zeros(3), 10.0, 2000)
    assert len(record) == 1
    message = str(record[0].message)
    assert f"diverged at step {history.steps + 1}" in message
    assert "smaller alpha" in message
    assert history.stop_reason == "diverged"
    assert 10 < history.steps < 2000  # it really ran until overflow
    assert np.all(np.isfinite(history.costs))
    assert np.all(np.isfinite(history.weights))
    assert history.weights.shape == (history.steps + 1, 3)
    assert len(history.alphas) == history.steps
    # The costs were growing: it diverged, it did not just stop.
    assert history.costs[-1] > 1e200 * history.costs[0]
    # The warning points at the caller, not into the library.
    assert record[0].filename == __file__


def test_divergence_emits_no_numpy_warnings(problem):
    x, y, _ = problem
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gradient_descent(least_squares(x, y), np.zeros(3), 10.0, 2000)
    assert [type(w.message) for w in caught] == [DivergenceWarning]


def test_warn_false_stops_the_same_run_silently(problem):
    x, y, _ = problem
    with pytest.warns(DivergenceWarning):
        loud = gradient_descent(least_squares(x, y), np.zeros(3), 10.0, 2000)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = gradient_descent(least_squares(x, y), np.zeros(3), 10.0, 2000, warn=False)
    assert quiet.stop_reason == "diverged"
    np.testing.assert_array_equal(quiet.weights, loud.weights)
    np.testing.assert_array_equal(quiet.costs, loud.costs)


@pytest.mark.parametrize("warn", [0, 1, "no", None])
def test_warn_must_be_a_bool(problem, warn):
    x, y, _ = problem
    with pytest.raises(TypeError, match=f"warn must be True or False; found {warn!r}"):
        gradient_descent(least_squares(x, y), np.zeros(3), 0.1, 5, warn=warn)


def test_tolerance_stops_early(problem):
    x, y, w_star = problem
    tol = 1e-6
    history = gradient_descent(least_squares(x, y), np.zeros(3), 0.1, 10_000, tol=tol)
    assert history.stop_reason == "tolerance"
    assert history.steps < 10_000
    assert history.gradient_norms[-1] <= tol
    assert np.all(history.gradient_norms[:-1] > tol)  # it stopped at the first chance
    x_tilde = np.column_stack([np.ones(P), x])
    w = history.final_weights
    assert np.linalg.norm(2 / P * x_tilde.T @ (x_tilde @ w - y)) <= tol
    np.testing.assert_allclose(w, w_star, atol=1e-5)


def test_tolerance_already_met_at_start(problem):
    x, y, w_star = problem
    history = gradient_descent(least_squares(x, y), w_star, 0.1, 100, tol=1e-8)
    assert history.steps == 0
    assert history.stop_reason == "tolerance"


def test_tolerance_met_on_last_step_reports_tolerance(problem):
    x, y, _ = problem
    full = gradient_descent(least_squares(x, y), np.zeros(3), 0.1, 10_000, tol=1e-6)
    exact = gradient_descent(least_squares(x, y), np.zeros(3), 0.1, full.steps, tol=1e-6)
    assert exact.stop_reason == "tolerance"
    short = gradient_descent(least_squares(x, y), np.zeros(3), 0.1, full.steps - 1, tol=1e-6)
    assert short.stop_reason == "max_its"


def test_negative_tol_raises(problem):
    x, y, _ = problem
    with pytest.raises(ValueError, match="tol must be a non-negative number"):
        gradient_descent(least_squares(x, y), np.zeros(3), 0.1, 10, tol=-1.0)


def test_plain_function_uses_autograd_and_gives_same_path(problem):
    x, y, _ = problem

    def plain_cost(w):  # no .gradient attribute: autograd must differentiate it
        return anp.mean((w[0] + anp.dot(x, w[1:]) - y) ** 2)

    assert not hasattr(plain_cost, "gradient")
    analytic = gradient_descent(least_squares(x, y), np.zeros(3), 0.1, 50)
    automatic = gradient_descent(plain_cost, np.zeros(3), 0.1, 50)
    np.testing.assert_allclose(automatic.weights, analytic.weights, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(automatic.costs, analytic.costs, rtol=1e-12)


def test_explicit_gradient_is_used(problem):
    x, y, _ = problem
    calls = []

    def zero_gradient(w):
        calls.append(1)
        return np.zeros_like(w)

    history = gradient_descent(least_squares(x, y), np.ones(3), 0.1, 5, gradient=zero_gradient)
    assert len(calls) == 6
    np.testing.assert_array_equal(history.weights, np.ones((6, 3)))


# ---------------------------------------------------------------- Newton's method


def test_newton_solves_least_squares_in_one_step(problem):
    x, y, w_star = problem
    history = newtons_method(least_squares(x, y), np.array([5.0, -5.0, 5.0]), 1)
    assert history.weights.shape == (2, 3)
    np.testing.assert_allclose(history.weights[1], w_star, rtol=1e-6, atol=1e-7)
    assert history.gradient_norms[-1] < 1e-5  # only the epsilon = 1e-7 regularizer is left
    assert history.alphas.shape == (0,)
    exact = newtons_method(least_squares(x, y), np.array([5.0, -5.0, 5.0]), 1, epsilon=0.0)
    np.testing.assert_allclose(exact.weights[1], w_star, rtol=1e-12, atol=1e-12)


def test_newton_converges_on_softmax_nonseparable(classification):
    x, y = classification
    from sklearn.linear_model import LogisticRegression

    history = newtons_method(softmax(x, y), np.zeros(3), 20, tol=1e-10)
    assert history.stop_reason == "tolerance"
    assert history.steps < 20
    # The softmax cost is the mean logistic loss: its minimizer is unpenalized
    # logistic regression.
    reference = LogisticRegression(C=np.inf, tol=1e-12, max_iter=10_000).fit(x, y)
    expected = np.concatenate([reference.intercept_, reference.coef_[0]])
    np.testing.assert_allclose(history.final_weights, expected, rtol=1e-4, atol=1e-6)
    # Gradient at the final weights, written out here.
    x_tilde = np.column_stack([np.ones(len(x)), x])
    w = history.final_weights
    gradient = -x_tilde.T @ (y / (1.0 + np.exp(y * (x_tilde @ w)))) / len(x)
    assert np.linalg.norm(gradient) <= 1e-10


def test_newton_rejects_matrix_weights():
    x = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(ValueError, match=r"1-D weights.*found shape \(3, 2\)"):
        newtons_method(multiclass_softmax(x, np.arange(10) % 2), np.zeros((3, 2)), 3)


def test_newton_rejects_negative_epsilon(problem):
    x, y, _ = problem
    with pytest.raises(ValueError, match="epsilon must be a non-negative number"):
        newtons_method(least_squares(x, y), np.zeros(3), 3, epsilon=-1.0)


def test_huge_but_finite_gradients_give_no_numpy_overflow_warning():
    import warnings as _warnings

    import mlrefined_lib as _ml

    def cost(w):
        return float(np.sum(w))

    with _warnings.catch_warnings():
        _warnings.simplefilter("error")
        run = _ml.gradient_descent(cost, np.zeros(2), 1e-300, 3, gradient=lambda w: np.full(2, 1e200))
    assert run.steps == 3
    assert np.isinf(run.gradient_norms).all()
