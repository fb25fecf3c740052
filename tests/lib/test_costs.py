"""Unit tests of mlrefined_lib.costs against independent plain-NumPy formulas.

Every expected value here is computed without the code under test: costs by
direct formulas, gradients by central finite differences and by autograd.
"""

import autograd
import numpy as np
import pytest

from mlrefined_lib import costs
from mlrefined_lib.costs import (cross_entropy, least_absolute_deviations, least_squares, misclassifications, model,
                                 multiclass_softmax, softmax)
from regression_data import noisy_linear

P, N, K = 37, 3, 4


# ---------------------------------------------------------------- data and references


@pytest.fixture
def rng():
    return np.random.default_rng(20240601)


def regression_data(rng):
    return noisy_linear(rng, P, [1.5, -2.0, 0.3], bias=0.7, noise=0.4)


def pm_labels(rng, x):
    """Noisy (non-separable) ±1 labels."""
    return np.where(x[:, 0] - 0.5 * x[:, 1] + 0.8 * rng.normal(size=len(x)) > 0, 1.0, -1.0)


def multiclass_labels(rng, x):
    scores = x @ rng.normal(size=(x.shape[1], K)) + rng.normal(size=(len(x), K))
    labels = scores.argmax(axis=1).astype(float)
    labels[:K] = np.arange(K)  # every class present
    return labels


def ref_model(x, w):
    return w[0] + x @ w[1:]


def ref_class_scores(x, w, p):
    """The K scores of point p, one linear model per class (column of w), written as a loop."""
    return [w[0, k] + x[p] @ w[1:, k] for k in range(w.shape[1])]


def multiclass_problem(rng):
    """Inputs, their classes, a random weight of shape (N + 1, K), and each point's K scores under it."""
    x, _ = regression_data(rng)
    y = multiclass_labels(rng, x)
    w = rng.normal(size=(N + 1, K))
    return x, y, w, [ref_class_scores(x, w, p) for p in range(P)]


def central_differences(f, w, h=1e-6):
    w = np.asarray(w, dtype=float)
    out = np.zeros_like(w)
    for index in np.ndindex(w.shape):
        step = np.zeros_like(w)
        step[index] = h
        out[index] = (f(w + step) - f(w - step)) / (2 * h)
    return out


def all_costs(rng):
    """(name, cost, a weight) for every differentiable cost, on random data."""
    x, y = regression_data(rng)
    y_pm = pm_labels(rng, x)
    y_mc = multiclass_labels(rng, x)
    return [
        ("least_squares", least_squares(x, y), rng.normal(size=N + 1)),
        ("least_absolute_deviations", least_absolute_deviations(x, y), rng.normal(size=N + 1)),
        ("softmax", softmax(x, y_pm), rng.normal(size=N + 1)),
        ("cross_entropy", cross_entropy(x, (y_pm + 1) / 2), rng.normal(size=N + 1)),
        ("multiclass_softmax", multiclass_softmax(x, y_mc), rng.normal(size=(N + 1, K))),
    ]


COST_NAMES = ["least_squares", "least_absolute_deviations", "softmax", "cross_entropy", "multiclass_softmax"]


def pick(rng, name):
    return next(item for item in all_costs(rng) if item[0] == name)[1:]


# ---------------------------------------------------------------- values


def test_model_is_bias_plus_linear(rng):
    x, w = rng.normal(size=(P, N)), rng.normal(size=N + 1)
    expected = np.array([w[0] + sum(w[n + 1] * x[p, n] for n in range(N)) for p in range(P)])
    np.testing.assert_allclose(model(x, w), expected, rtol=1e-12)


def test_least_squares_is_mean_squared_residual(rng):
    x, y = regression_data(rng)
    w = rng.normal(size=N + 1)
    expected = np.mean((ref_model(x, w) - y) ** 2)
    assert least_squares(x, y)(w) == pytest.approx(expected, rel=1e-12)


def test_least_absolute_deviations_is_mean_absolute_residual(rng):
    x, y = regression_data(rng)
    w = rng.normal(size=N + 1)
    expected = np.mean(np.abs(ref_model(x, w) - y))
    assert least_absolute_deviations(x, y)(w) == pytest.approx(expected, rel=1e-12)


def test_softmax_is_mean_log_one_plus_exp(rng):
    x, _ = regression_data(rng)
    y = pm_labels(rng, x)
    w = rng.normal(size=N + 1)
    expected = np.mean(np.log(1.0 + np.exp(-y * ref_model(x, w))))
    assert softmax(x, y)(w) == pytest.approx(expected, rel=1e-12)


def test_cross_entropy_is_log_loss_and_equals_softmax_on_pm_labels(rng):
    x, _ = regression_data(rng)
    y01 = (pm_labels(rng, x) + 1) / 2
    w = rng.normal(size=N + 1)
    s = 1.0 / (1.0 + np.exp(-ref_model(x, w)))
    log_loss = -np.mean(y01 * np.log(s) + (1 - y01) * np.log(1 - s))
    value = cross_entropy(x, y01)(w)
    assert value == pytest.approx(log_loss, rel=1e-10)
    assert value == pytest.approx(softmax(x, 2 * y01 - 1)(w), rel=1e-12)


def test_multiclass_softmax_direct_formula(rng):
    x, y, w, scores = multiclass_problem(rng)
    total = sum(np.log(np.sum(np.exp(s))) - s[int(label)] for s, label in zip(scores, y))
    assert multiclass_softmax(x, y)(w) == pytest.approx(total / P, rel=1e-12)


def test_multiclass_softmax_num_classes(rng):
    x, _ = regression_data(rng)
    y = np.arange(P) % 3
    g = multiclass_softmax(x, y, num_classes=5)
    assert g.weight_shape == (N + 1, 5)
    w = np.zeros((N + 1, 5))
    assert g(w) == pytest.approx(np.log(5.0), rel=1e-12)  # uniform scores
    with pytest.raises(ValueError, match="num_classes=2 but y holds the label 2"):
        multiclass_softmax(x, y, num_classes=2)


def test_softmax_and_cross_entropy_finite_for_huge_margins():
    x = np.linspace(-1.0, 1.0, 21)[:, None]
    y = np.where(x[:, 0] > 0.3, 1.0, -1.0)  # some points misclassified by w = [0, 1e4]
    w = np.array([0.0, 1e4])
    m = y * (w[0] + w[1] * x[:, 0])
    # log(1 + e^{-m}) = max(0, -m) + log1p(e^{-|m|}): written independently of logaddexp.
    expected = np.mean(np.maximum(0.0, -m) + np.log1p(np.exp(-np.abs(m))))
    for g in (softmax(x, y), cross_entropy(x, (y + 1) / 2)):
        value = g(w)
        assert np.isfinite(value)
        assert value == pytest.approx(expected, rel=1e-12)
        grad = g.gradient(w)
        assert np.all(np.isfinite(grad))
        assert np.all(np.isfinite(autograd.grad(g)(w)))
        np.testing.assert_allclose(g.batch(np.array([w, -w])), [g(w), g(-w)], rtol=1e-12)
    # Correctly classified with a huge margin: the cost is tiny but not lost to rounding.
    y_sep = np.where(x[:, 0] > 0, 1.0, -1.0)
    x_sep = x[x[:, 0] != 0]
    y_sep = y_sep[x[:, 0] != 0]
    assert 0.0 <= softmax(x_sep, y_sep)(np.array([0.0, 1e4])) < 1e-300


def test_multiclass_softmax_finite_for_huge_scores(rng):
    x, _ = regression_data(rng)
    y = multiclass_labels(rng, x)
    w = 1e4 * rng.normal(size=(N + 1, K))
    g = multiclass_softmax(x, y)
    assert np.isfinite(g(w))
    assert np.all(np.isfinite(g.gradient(w)))


def test_least_squares_hessian_is_two_over_p_xtx(rng):
    x, y = regression_data(rng)
    x_tilde = np.column_stack([np.ones(P), x])
    expected = 2.0 / P * x_tilde.T @ x_tilde
    g = least_squares(x, y)
    np.testing.assert_allclose(g.hessian(), expected, rtol=1e-12)
    np.testing.assert_allclose(autograd.hessian(g)(rng.normal(size=N + 1)), expected, rtol=1e-10)


# ---------------------------------------------------------------- gradients


@pytest.mark.parametrize("name", COST_NAMES)
def test_gradient_matches_finite_differences(rng, name):
    g, w = pick(rng, name)
    numeric = central_differences(lambda v: float(g(v)), w)
    analytic = g.gradient(w)
    assert analytic.shape == w.shape
    np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("name", COST_NAMES)
def test_gradient_matches_autograd(rng, name):
    g, w = pick(rng, name)
    np.testing.assert_allclose(g.gradient(w), autograd.grad(g)(w), rtol=1e-10, atol=1e-12)


def test_least_squares_gradient_zero_at_lstsq_solution(rng):
    x, y = regression_data(rng)
    w_star = np.linalg.lstsq(np.column_stack([np.ones(P), x]), y, rcond=None)[0]
    np.testing.assert_allclose(least_squares(x, y).gradient(w_star), 0.0, atol=1e-12)


def test_misclassifications_has_no_gradient(rng):
    x, _ = regression_data(rng)
    with pytest.raises(TypeError, match="no useful gradient"):
        misclassifications(x, pm_labels(rng, x)).gradient(np.zeros(N + 1))


# ---------------------------------------------------------------- batch


@pytest.mark.parametrize("name", COST_NAMES)
def test_batch_equals_loop(rng, name):
    g, w = pick(rng, name)
    ws = w + rng.normal(size=(9, *w.shape))
    values = g.batch(ws)
    assert values.shape == (9,)
    np.testing.assert_allclose(values, [g(v) for v in ws], rtol=1e-10)


@pytest.mark.parametrize("name", COST_NAMES)
def test_batch_in_chunks(rng, name, monkeypatch):
    # Force many small chunks: the result must not depend on the chunking.
    monkeypatch.setattr(costs, "_BATCH_ELEMENTS", 3 * P)
    g, w = pick(rng, name)
    ws = w + rng.normal(size=(10, *w.shape))
    np.testing.assert_allclose(g.batch(ws), [g(v) for v in ws], rtol=1e-10)


def test_batch_of_no_weights_is_empty(rng):
    g, w = pick(rng, "least_squares")
    assert g.batch(np.zeros((0, N + 1))).shape == (0,)


def test_least_squares_batch_far_from_data_and_near_optimum(rng):
    x, y = regression_data(rng)
    x_tilde = np.column_stack([np.ones(P), x])
    w_star = np.linalg.lstsq(x_tilde, y, rcond=None)[0]
    g = least_squares(x, y)
    far = np.array([1e4, -3e4, 2e4, 5e3])
    near = w_star + 1e-4 * rng.normal(size=N + 1)
    ws = np.array([far, near, w_star])
    expected = [np.mean((x_tilde @ v - y) ** 2) for v in ws]
    values = g.batch(ws)
    np.testing.assert_allclose(values, expected, rtol=1e-9)
    np.testing.assert_allclose(values, [g(v) for v in ws], rtol=1e-9)
    assert values[2] <= values[1] < values[0]


def test_least_squares_batch_on_book_dataset_near_noiseless_optimum():
    # The five-input hyperplane is noiseless: the minimum cost is 0, where the
    # moment formula suffers most from cancellation. The error must stay tiny.
    from mlrefined_lib.datasets import load_five_input_hyperplane

    x, y = load_five_input_hyperplane()
    x_tilde = np.column_stack([np.ones(len(x)), x])
    w_star = np.linalg.lstsq(x_tilde, y, rcond=None)[0]
    ws = np.array([w_star, w_star + 1e-3, w_star - np.array([0, 0, 0, 0, 0, 1e-4])])
    expected = np.array([np.mean((x_tilde @ v - y) ** 2) for v in ws])
    values = least_squares(x, y).batch(ws)
    assert np.all(values >= 0)
    np.testing.assert_allclose(values, expected, rtol=1e-6, atol=1e-9 * np.mean(y**2))


def test_batch_rejects_wrong_shape(rng):
    g, _ = pick(rng, "softmax")
    with pytest.raises(ValueError, match=r"batch expects weights of shape \(M, 4\); found \(4,\)"):
        g.batch(np.zeros(N + 1))


# ---------------------------------------------------------------- misclassifications


def test_misclassifications_pm_labels(rng):
    x, _ = regression_data(rng)
    y = pm_labels(rng, x)
    w = rng.normal(size=N + 1)
    m = ref_model(x, w)
    expected = sum(1 for p in range(P) if (1.0 if m[p] > 0 else -1.0) != y[p])
    value = misclassifications(x, y)(w)
    assert isinstance(value, int)
    assert value == expected
    assert misclassifications(x, y).batch(np.array([w, -w])).tolist() == [expected, P - expected]


def test_misclassifications_zero_one_labels(rng):
    x, _ = regression_data(rng)
    y = (pm_labels(rng, x) + 1) / 2
    w = rng.normal(size=N + 1)
    m = ref_model(x, w)
    expected = sum(1 for p in range(P) if (1.0 if m[p] > 0 else 0.0) != y[p])
    assert misclassifications(x, y)(w) == expected


def test_misclassifications_multiclass(rng):
    x, y, w, scores = multiclass_problem(rng)
    expected = sum(int(max(range(K), key=lambda k: s[k]) != label) for s, label in zip(scores, y))
    assert misclassifications(x, y)(w) == expected


def test_misclassifications_multiclass_needs_one_column_per_class(rng):
    # Integer classes 0..K-1 with a 1-D weight vector would silently count
    # against sign predictions of ±1: the shape must be refused.
    x, _ = regression_data(rng)
    y = multiclass_labels(rng, x)
    with pytest.raises(ValueError, match=r"w has shape \(4,\)"):
        misclassifications(x, y)(np.zeros(N + 1))


def test_misclassifications_rejects_fractional_labels(rng):
    x, _ = regression_data(rng)
    with pytest.raises(ValueError, match="misclassifications expects -1/\\+1 labels"):
        misclassifications(x, np.full(P, 0.5))


# ---------------------------------------------------------------- bad input

CONSTRUCTORS = [least_squares, least_absolute_deviations, softmax, cross_entropy, multiclass_softmax, misclassifications]


def labels_for(constructor, p=P):
    if constructor is cross_entropy:
        return np.arange(p) % 2 * 1.0
    if constructor is multiclass_softmax:
        return np.arange(p) % 3 * 1.0
    return np.where(np.arange(p) % 2 == 0, 1.0, -1.0)


@pytest.mark.parametrize("constructor", CONSTRUCTORS)
def test_one_dimensional_x_is_refused_with_reshape_hint(constructor):
    x = np.linspace(0, 1, P)
    with pytest.raises(ValueError, match=r"x must be 2-D.*found shape \(37,\).*x\.reshape\(-1, 1\)"):
        constructor(x, labels_for(constructor))


@pytest.mark.parametrize("constructor", CONSTRUCTORS)
def test_length_mismatch_names_both_shapes(constructor, rng):
    x = rng.normal(size=(P, N))
    with pytest.raises(ValueError, match=r"x has shape \(37, 3\).*y has shape \(36,\)"):
        constructor(x, labels_for(constructor, P - 1))


@pytest.mark.parametrize("constructor", CONSTRUCTORS)
def test_wrong_weight_length_names_both_shapes(constructor, rng):
    x = rng.normal(size=(P, N))
    g = constructor(x, labels_for(constructor))
    w = np.zeros((N, K)) if constructor is multiclass_softmax else np.zeros(N)
    expected_shape = r"\(4, 3\)" if constructor is multiclass_softmax else r"\(4,\)"
    found = r"\(3, 4\)" if constructor is multiclass_softmax else r"\(3,\)"
    with pytest.raises(ValueError, match=rf"w has shape {found} but x has shape \(37, 3\).*must have shape {expected_shape}"):
        g(w)
    if constructor is not misclassifications:
        with pytest.raises(ValueError, match=rf"w has shape {found}"):
            g.gradient(w)


def test_model_wrong_weight_length(rng):
    with pytest.raises(ValueError, match=r"w has shape \(2,\) but x has shape \(37, 3\)"):
        model(rng.normal(size=(P, N)), np.zeros(2))


@pytest.mark.parametrize("constructor", CONSTRUCTORS)
def test_nan_and_inf_in_x_name_column_and_counts(constructor, rng):
    x = rng.normal(size=(P, N))
    x[[3, 7], 1] = np.nan
    x[11, 1] = np.inf
    x[5, 2] = -np.inf
    with pytest.raises(ValueError, match=r"column 1: 2 NaN and 1 inf \(1 other column\(s\) also affected\)"):
        constructor(x, labels_for(constructor))


def test_nan_in_y_is_refused(rng):
    x, y = regression_data(rng)
    y[4] = np.nan
    with pytest.raises(ValueError, match="y contains 1 NaN or infinite value.*index 4"):
        least_squares(x, y)


def test_two_dimensional_y_is_refused(rng):
    x, y = regression_data(rng)
    with pytest.raises(ValueError, match=r"y must be 1-D.*found shape \(37, 1\)"):
        least_squares(x, y[:, None])


def test_softmax_wrong_labels(rng):
    x = rng.normal(size=(P, N))
    y01 = np.arange(P) % 2 * 1.0
    with pytest.raises(ValueError, match=r"softmax expects labels in \[-1.0, 1.0\]; found \[0.0, 1.0\].*2\*y - 1"):
        softmax(x, y01)


def test_cross_entropy_wrong_labels(rng):
    x = rng.normal(size=(P, N))
    y_pm = np.where(np.arange(P) % 2 == 0, 1.0, -1.0)
    with pytest.raises(ValueError, match=r"cross_entropy expects labels in \[0.0, 1.0\]; found \[-1.0, 1.0\].*\(y \+ 1\) / 2"):
        cross_entropy(x, y_pm)


@pytest.mark.parametrize("labels", [np.linspace(0, 2, P), np.arange(P) % 3 - 1.0])
def test_multiclass_softmax_needs_nonnegative_integer_labels(rng, labels):
    with pytest.raises(ValueError, match="multiclass_softmax expects integer class labels 0, 1, ..., K-1"):
        multiclass_softmax(rng.normal(size=(P, N)), labels)


@pytest.mark.parametrize("name", COST_NAMES)
def test_cost_is_not_changed_by_later_edits_of_callers_arrays(rng, name):
    # The data are captured when g is built: editing the caller's float64
    # arrays in place afterwards (e.g. y -= y.mean()) must change neither
    # g(w) nor g.batch, which would otherwise disagree with each other.
    x, y = regression_data(rng)
    if name in ("softmax", "cross_entropy"):
        y = pm_labels(rng, x) if name == "softmax" else (pm_labels(rng, x) + 1) / 2
    elif name == "multiclass_softmax":
        y = multiclass_labels(rng, x)
    g = getattr(costs, name)(x, y)
    w = rng.normal(size=g.weight_shape)
    before, batch_before = g(w), g.batch(w[None])[0]
    x *= 3.0
    y[:] = y[::-1].copy()
    assert g(w) == before
    assert g.batch(w[None])[0] == batch_before


@pytest.mark.parametrize("name", COST_NAMES)
@pytest.mark.parametrize("scale", [1.0, 40.0])  # 40: scores far from zero, where the exponentials' shifts matter
def test_value_and_gradient_together_equal_each_apart_bit_for_bit(rng, name, scale):
    """The optimizers take g(w) and ∇g(w) from one product with the data; a printed
    cost or weight must not move in its last digit because of it."""
    g, w = pick(rng, name)
    w = scale * np.asarray(w, dtype=float)
    value, gradient = g._value_and_gradient(w)
    assert isinstance(value, float)
    assert value == float(g(w))
    np.testing.assert_array_equal(gradient, g.gradient(w))
    # on a mini-batch, as minibatch_gradient_descent uses it
    batch = g._take(np.array([3, 1, 4, 1, 5]))
    value, gradient = batch._value_and_gradient(w)
    assert value == float(batch(w))
    np.testing.assert_array_equal(gradient, batch.gradient(w))
