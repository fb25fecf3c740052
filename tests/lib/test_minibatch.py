"""Tests of Cost.rows and minibatch_gradient_descent (chapter 2's optimizer, used in chapter 6).

The reference for each step is written out here with NumPy: the same shuffles
(``default_rng(seed).permutation`` once per epoch) and the gradient of the
cost on the batch, computed from its formula, not by the library.
"""

import warnings

import numpy as np
import pytest
from regression_data import noisy_linear

from mlrefined_lib.costs import least_squares, misclassifications, multiclass_softmax, softmax
from mlrefined_lib.optimizers import DivergenceWarning, gradient_descent, minibatch_gradient_descent


@pytest.fixture
def regression():
    return noisy_linear(3, 50, [1.0, -2.0, 0.5], bias=0.5, noise=0.1)


@pytest.fixture
def digits_like():
    rng = np.random.default_rng(4)
    centres = rng.normal(scale=3.0, size=(4, 5))
    labels = np.repeat(np.arange(4), 30)
    x = centres[labels] + rng.normal(size=(120, 5))
    return x, labels.astype(float)


# ---------------------------------------------------------------- Cost.rows


def test_rows_gives_the_cost_of_the_subset(regression):
    x, y = regression
    index = np.array([4, 0, 17, 17, 33])
    w = np.array([0.3, -1.0, 2.0, 0.1])
    sub = least_squares(x, y).rows(index)
    assert sub.num_points == 5
    expected = np.mean((w[0] + x[index] @ w[1:] - y[index]) ** 2)
    assert sub(w) == pytest.approx(expected)
    expected_gradient = 2 / 5 * np.column_stack([np.ones(5), x[index]]).T @ (w[0] + x[index] @ w[1:] - y[index])
    np.testing.assert_allclose(sub.gradient(w), expected_gradient)


def test_rows_keeps_the_kind_and_the_number_of_classes(digits_like):
    x, y = digits_like
    g = multiclass_softmax(x, y)
    sub = g.rows(np.array([0, 1, 2]))  # only class 0 in the batch
    assert sub.weight_shape == g.weight_shape == (6, 4)
    assert type(sub) is type(g)
    labels = np.where(np.arange(40) % 2 == 0, 1.0, -1.0)
    assert type(softmax(x[:40], labels).rows(np.arange(3))) is type(softmax(x[:40], labels))


def test_rows_does_not_change_the_original(regression):
    x, y = regression
    g = least_squares(x, y)
    w = np.zeros(4)
    before = g(w)
    g.rows(np.arange(5))
    assert g.num_points == 50 and g(w) == before


def _kinds(x, labels):
    from mlrefined_lib.costs import cross_entropy, least_absolute_deviations

    return {
        "least_squares": least_squares(x, x[:, 0] * 2.0 - 1.0),
        "least_absolute_deviations": least_absolute_deviations(x, x[:, 1]),
        "softmax": softmax(x, np.where(labels % 2 == 0, 1.0, -1.0)),
        "cross_entropy": cross_entropy(x, (labels % 2 == 0).astype(float)),
        "multiclass_softmax": multiclass_softmax(x, labels, 5),
        "misclassifications": misclassifications(x, labels),
    }


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("kind", ["least_squares", "least_absolute_deviations", "softmax", "cross_entropy",
                                  "multiclass_softmax", "misclassifications"])
def test_the_optimizers_unchecked_rows_equal_rows(digits_like, kind, order):
    """_take (the batches of minibatch_gradient_descent) gives what rows gives, bit for bit, for data in either order."""
    x, labels = digits_like
    x = np.asfortranarray(x[:, [4, 0, 2, 1]]) if order == "F" else np.ascontiguousarray(x[:, [4, 0, 2, 1]])
    g = _kinds(x, labels)[kind]
    index = np.array([7, 3, 3, 90, 0, 45])
    checked, unchecked = g.rows(index), g._take(index)
    assert type(unchecked) is type(checked) and unchecked.weight_shape == checked.weight_shape
    assert unchecked.num_points == checked.num_points == 6
    np.testing.assert_array_equal(unchecked.x_ext, checked.x_ext)
    np.testing.assert_array_equal(unchecked.y, checked.y)
    w = np.random.default_rng(0).normal(size=g.weight_shape if kind != "misclassifications" else (5, 4))
    assert unchecked(w) == checked(w)
    if kind != "misclassifications":
        np.testing.assert_array_equal(unchecked.gradient(w), checked.gradient(w))
        np.testing.assert_array_equal(unchecked.batch(np.stack([w, 2 * w])), checked.batch(np.stack([w, 2 * w])))
    assert g.num_points == 120  # the original is unchanged


@pytest.mark.parametrize("kind", ["least_squares", "least_absolute_deviations", "softmax", "cross_entropy",
                                  "multiclass_softmax"])
def test_a_cost_is_the_same_number_with_and_without_autograd_tracing(digits_like, kind):
    """Costs evaluate with plain NumPy unless autograd traces the weights: same value, and autograd still differentiates."""
    import autograd

    x, labels = digits_like
    g = _kinds(x, labels)[kind]
    w = np.random.default_rng(1).normal(size=g.weight_shape)
    traced = []
    value, slope = autograd.value_and_grad(lambda v: traced.append(g(v)) or g(v))(w)
    assert value == g(w) and type(traced[0]).__name__ == "ArrayBox"
    if kind != "least_absolute_deviations":
        np.testing.assert_allclose(slope, g.gradient(w), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(
    "index, message",
    [
        (np.array([], dtype=int), "non-empty"),
        (np.array([0.0, 1.0]), "integer"),
        (np.array([[0, 1]]), "1-D"),
        (np.array([0, 50]), r"0 … 49"),
        (np.array([-1, 2]), r"0 … 49"),
    ],
)
def test_rows_rejects_bad_index(regression, index, message):
    with pytest.raises(ValueError, match=message):
        least_squares(*regression).rows(index)


def test_misclassifications_rows(digits_like):
    x, y = digits_like
    w = np.random.default_rng(0).normal(size=(6, 4))
    full = misclassifications(x, y)
    index = np.arange(0, 120, 2)
    assert full.rows(index)(w) == int(np.sum((np.column_stack([np.ones(60), x[index]]) @ w).argmax(1) != y[index]))


# ---------------------------------------------------------------- minibatch_gradient_descent


def _reference_run(x, y, alpha, epochs, batch_size, seed):
    """Mini-batch least squares written out by hand."""
    rng = np.random.default_rng(seed)
    x_ext = np.column_stack([np.ones(len(x)), x])
    w = np.zeros(x_ext.shape[1])
    path = [w.copy()]
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(x), batch_size):
            rows = order[start : start + batch_size]
            residual = x_ext[rows] @ w - y[rows]
            w = w - alpha * 2 / len(rows) * x_ext[rows].T @ residual
        path.append(w.copy())
    return np.array(path)


@pytest.mark.parametrize("batch_size", [1, 7, 50])
def test_matches_hand_written_run(regression, batch_size):
    x, y = regression
    history = minibatch_gradient_descent(least_squares(x, y), np.zeros(4), 0.05, 6, batch_size, seed=11)
    np.testing.assert_allclose(history.weights, _reference_run(x, y, 0.05, 6, batch_size, 11), rtol=1e-10, atol=1e-12)
    g = least_squares(x, y)
    np.testing.assert_allclose(history.costs, [g(w) for w in history.weights])
    assert history.alphas.tolist() == [0.05] * 6
    assert history.gradient_norms.shape == (7,)
    assert history.stop_reason == "max_its"


def test_gradient_norms_are_the_full_gradients_at_each_epochs_weights(regression):
    """Read when first asked for, from the weights as the run left them."""
    x, y = regression
    x_ext = np.hstack([np.ones((len(x), 1)), x])
    history = minibatch_gradient_descent(least_squares(x, y), np.zeros(4), 0.05, 6, 7, seed=3)
    expected = [np.linalg.norm(2 / len(x) * x_ext.T @ (x_ext @ w - y)) for w in history.weights]
    history.weights[:] = 0.0  # a caller's edit does not change what the run found
    np.testing.assert_allclose(history.gradient_norms, expected, rtol=1e-12)
    assert history.gradient_norms is history.gradient_norms  # computed once


def test_full_batch_is_gradient_descent(regression):
    x, y = regression
    g = least_squares(x, y)
    mini = minibatch_gradient_descent(g, np.zeros(4), 0.1, 5, batch_size=50)
    full = gradient_descent(g, np.zeros(4), 0.1, 5)
    np.testing.assert_allclose(mini.weights, full.weights, rtol=1e-12)


def test_same_seed_same_run_other_seed_other_run(regression):
    g = least_squares(*regression)
    a = minibatch_gradient_descent(g, np.zeros(4), 0.05, 3, 5, seed=1)
    b = minibatch_gradient_descent(g, np.zeros(4), 0.05, 3, 5, seed=1)
    c = minibatch_gradient_descent(g, np.zeros(4), 0.05, 3, 5, seed=2)
    np.testing.assert_array_equal(a.weights, b.weights)
    assert not np.allclose(a.weights[1], c.weights[1])


def test_multiclass_cost_falls_and_w0_is_untouched(digits_like):
    x, y = digits_like
    w0 = np.zeros((6, 4))
    history = minibatch_gradient_descent(multiclass_softmax(x, y), w0, 0.1, 20, 10)
    assert np.all(w0 == 0)
    assert history.weights.shape == (21, 6, 4)
    assert history.costs[-1] < 0.2 * history.costs[0]
    assert misclassifications(x, y)(history.final_weights) <= 3


def test_divergence_warns_and_keeps_finite_epochs(regression):
    x, y = regression
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no NumPy overflow warnings may leak
        with pytest.warns(DivergenceWarning, match="epoch"):
            history = minibatch_gradient_descent(least_squares(x * 1e3, y), np.zeros(4), 10.0, 50, 5)
    assert history.stop_reason == "diverged"
    assert np.all(np.isfinite(history.costs)) and np.all(np.isfinite(history.weights))


def test_warn_false_stops_the_same_run_silently(regression):
    x, y = regression
    with pytest.warns(DivergenceWarning):
        loud = minibatch_gradient_descent(least_squares(x * 1e3, y), np.zeros(4), 10.0, 50, 5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = minibatch_gradient_descent(least_squares(x * 1e3, y), np.zeros(4), 10.0, 50, 5, warn=False)
    assert quiet.stop_reason == "diverged"
    np.testing.assert_array_equal(quiet.weights, loud.weights)
    with pytest.raises(TypeError, match="warn must be True or False; found 'yes'"):
        minibatch_gradient_descent(least_squares(x, y), np.zeros(4), 0.1, 1, 5, warn="yes")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"alpha": 0.0}, "alpha"),
        ({"alpha": "diminishing"}, "alpha"),
        ({"batch_size": 0}, "batch_size"),
        ({"batch_size": 2.5}, "batch_size"),
        ({"epochs": -1}, "epochs"),
    ],
)
def test_bad_arguments_raise(regression, kwargs, message):
    arguments = {"alpha": 0.1, "epochs": 2, "batch_size": 5} | kwargs
    with pytest.raises(ValueError, match=message):
        minibatch_gradient_descent(least_squares(*regression), np.zeros(4), **arguments)


def test_plain_function_is_rejected(regression):
    with pytest.raises(ValueError, match="cost object"):
        minibatch_gradient_descent(lambda w: float(np.sum(w**2)), np.zeros(4), 0.1, 2, 5)


def test_wrong_start_shape_is_rejected(regression):
    with pytest.raises(ValueError, match="shape"):
        minibatch_gradient_descent(least_squares(*regression), np.zeros(3), 0.1, 2, 5)
