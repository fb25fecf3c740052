"""Unit tests of mlrefined_lib.regularization (chapter 11) against scikit-learn and by properties."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.linear_model import ElasticNet, Lasso, LogisticRegression, Ridge, lars_path, lasso_path

from mlrefined_lib import plotting
from mlrefined_lib.normalizers import standard_normalizer
from mlrefined_lib.regularization import (
    ConvergenceWarning,
    RegularizationPath,
    elastic_net_path,
    entry_order,
    l1_path,
    lambda_max,
    proximal_gradient,
    ridge,
    soft_threshold,
)


@pytest.fixture(scope="module")
def diabetes():
    data = load_diabetes(scaled=False)
    return standard_normalizer(data.data)[0](data.data), data.target.astype(float), list(data.feature_names)


@pytest.fixture(scope="module")
def cancer():
    data = load_breast_cancer()
    rows = np.random.default_rng(10).choice(len(data.target), size=200, replace=False)
    x = data.data[rows][:, :10]
    return standard_normalizer(x)[0](x), 2.0 * data.target[rows] - 1.0


@pytest.fixture
def small():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(30, 4))
    y = 1.0 + x @ np.array([2.0, 0.0, -1.0, 0.5]) + 0.3 * rng.normal(size=30)
    return x, y


# ---------------------------------------------------------------- ridge


@pytest.mark.parametrize("alpha", [0.0, 0.5, 10.0, 1000.0])
def test_ridge_matches_sklearn(diabetes, alpha):
    x, y, _ = diabetes
    w = ridge(x, y, alpha)
    reference = Ridge(alpha=alpha, solver="cholesky").fit(x, y) if alpha else None
    if reference is None:
        x_ext = np.column_stack([np.ones(len(x)), x])
        np.testing.assert_allclose(w, np.linalg.lstsq(x_ext, y, rcond=None)[0], rtol=1e-9, atol=1e-9)
    else:
        np.testing.assert_allclose(w[1:], reference.coef_, rtol=1e-9, atol=1e-9)
        assert w[0] == pytest.approx(reference.intercept_, rel=1e-10)


def test_ridge_is_the_mean_cost_minimizer(small):
    # alpha = P λ: the gradient of (1/P)‖X̃w − y‖² + λ‖w[1:]‖² vanishes there.
    x, y = small
    lam = 0.7
    w = ridge(x, y, len(x) * lam)
    x_ext = np.column_stack([np.ones(len(x)), x])
    gradient = 2 / len(x) * x_ext.T @ (x_ext @ w - y) + 2 * lam * np.r_[0.0, w[1:]]
    np.testing.assert_allclose(gradient, 0.0, atol=1e-10)


def test_ridge_does_not_modify_inputs(small):
    x, y = small
    saved = x.copy(), y.copy()
    ridge(x, y, 1.0)
    assert np.array_equal(x, saved[0]) and np.array_equal(y, saved[1])


# ---------------------------------------------------------------- soft threshold and λ_max


def test_soft_threshold():
    np.testing.assert_array_equal(soft_threshold([-3.0, -1.0, 0.0, 0.5, 2.0], 1.0), [-2.0, 0.0, 0.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="t must be"):
        soft_threshold([1.0], -1.0)


@pytest.mark.parametrize("cost", ["least_squares", "softmax"])
def test_lambda_max_is_where_the_first_feature_enters(diabetes, cancer, cost):
    x, y = (diabetes[:2] if cost == "least_squares" else cancer)
    top = lambda_max(x, y, cost)
    path = l1_path(x, y, [1.001 * top, 0.99 * top], cost)
    assert path.nonzero_counts.tolist() == [0, 1]


# ---------------------------------------------------------------- the lasso path


def test_l1_path_matches_sklearn_lasso(diabetes):
    x, y, _ = diabetes
    lams = np.geomspace(lambda_max(x, y), 1e-3 * lambda_max(x, y), 50)
    path = l1_path(x, y, lams)
    assert path.weights.shape == (50, 11) and path.converged.all()
    for i in [0, 7, 20, 35, 49]:
        reference = Lasso(alpha=lams[i] / 2, tol=1e-12, max_iter=200_000).fit(x, y)
        np.testing.assert_allclose(path.weights[i, 1:], reference.coef_, atol=1e-4)
        assert path.weights[i, 0] == pytest.approx(reference.intercept_, abs=1e-4)
    # and the whole grid against lasso_path (centred data: the intercept is then 0)
    _, coefs, _ = lasso_path(x - x.mean(0), y - y.mean(), alphas=lams / 2, tol=1e-12, max_iter=200_000)
    np.testing.assert_allclose(path.weights[:, 1:], coefs.T, atol=1e-4)


def test_l1_path_has_exact_zeros_and_returns_the_given_order(diabetes):
    x, y, _ = diabetes
    top = lambda_max(x, y)
    lams = np.array([0.01, 1.0, 0.1, 2.0]) * top  # not sorted on purpose
    path = l1_path(x, y, lams)
    np.testing.assert_array_equal(path.lams, lams)
    for lam, row in zip(lams, path.weights):
        single = l1_path(x, y, [lam])
        np.testing.assert_allclose(row, single.weights[0], atol=1e-6)
    assert np.all(path.weights[[1, 3], 1:] == 0.0)  # λ >= λ_max: every feature weight exactly 0
    assert path.weights[1, 0] == pytest.approx(y.mean())
    assert 0 < path.nonzero_counts[2] < 10  # exact zeros in between
    assert np.sum(path.weights[2, 1:] == 0.0) >= 1


def test_entry_order_matches_lars(diabetes):
    x, y, names = diabetes
    top = lambda_max(x, y)
    path = l1_path(x, y, np.geomspace(top, 1e-3 * top, 200))
    _, _, coefs = lars_path(x, y, method="lasso")
    first_step = np.argmax(coefs != 0, axis=1)  # the LARS step at which each feature becomes non-zero
    lars_order = sorted(range(10), key=lambda n: first_step[n])
    assert entry_order(path, names)[:4] == ["bmi", "s5", "bp", "s3"]
    assert entry_order(path) == lars_order


def test_l1_path_matches_logistic_regression(cancer):
    x, y = cancer
    top = lambda_max(x, y, "softmax")
    lams = np.geomspace(0.9 * top, 0.02 * top, 8)
    path = l1_path(x, y, lams, "softmax")
    for i in [0, 4, 7]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # scikit-learn's deprecation notes about `penalty`
            reference = LogisticRegression(penalty="l1", C=1 / (len(y) * lams[i]), solver="saga", tol=1e-12,
                                           max_iter=1_000_000).fit(x, y)
        # saga is itself iterative: agreement to 1e-4 is what its tolerance allows.
        np.testing.assert_allclose(path.weights[i, 1:], reference.coef_[0], atol=1e-4)
        assert path.weights[i, 0] == pytest.approx(reference.intercept_[0], abs=1e-4)
        assert np.array_equal(path.weights[i, 1:] == 0, np.abs(reference.coef_[0]) < 1e-8)


def test_elastic_net_matches_sklearn(diabetes):
    x, y, _ = diabetes
    a, rho = 0.5, 0.3
    path = elastic_net_path(x, y, [a * (1 + rho)], 2 * rho / (1 + rho))
    reference = ElasticNet(alpha=a, l1_ratio=rho, tol=1e-12, max_iter=200_000).fit(x, y)
    np.testing.assert_allclose(path.weights[0, 1:], reference.coef_, atol=1e-4)


def test_proximal_gradient_history(diabetes):
    x, y, _ = diabetes
    lam = 0.1 * lambda_max(x, y)
    run = proximal_gradient(x, y, lam)
    assert run.stop_reason == "tolerance"
    np.testing.assert_allclose(run.final_weights, l1_path(x, y, [lam]).weights[0], atol=1e-6)
    assert run.costs[-1] <= run.costs[0]
    # the recorded cost is the regularized objective
    w = run.final_weights
    assert run.costs[-1] == pytest.approx(np.mean((w[0] + x @ w[1:] - y) ** 2) + lam * np.abs(w[1:]).sum())


def test_convergence_warning(diabetes):
    x, y, _ = diabetes
    with pytest.warns(ConvergenceWarning, match="max_its"):
        path = l1_path(x, y, [0.01], max_its=3)
    assert not path.converged[0]


def test_inputs_not_modified(small):
    x, y = small
    lams = np.array([1.0, 0.1])
    saved = x.copy(), y.copy(), lams.copy()
    l1_path(x, y, lams)
    assert np.array_equal(x, saved[0]) and np.array_equal(y, saved[1]) and np.array_equal(lams, saved[2])


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"cost": "hinge"}, "unknown cost 'hinge'"),
        ({"lams": [0.1, -1.0]}, r"lams\[1\]"),
        ({"lams": [[0.1]]}, "1-D"),
        ({"lams": []}, "non-empty"),
        ({"lams": [np.nan]}, "finite"),
        ({"tol": 0.0}, "tol must be"),
        ({"max_its": 0}, "max_its"),
    ],
)
def test_l1_path_bad_arguments(small, kwargs, message):
    x, y = small
    arguments = {"lams": [0.1], **kwargs}
    with pytest.raises(ValueError, match=message):
        l1_path(x, y, **arguments)


def test_bad_data(small):
    x, y = small
    with pytest.raises(ValueError, match="disagree on the number of points"):
        l1_path(x, y[:-1], [0.1])
    bad = x.copy()
    bad[3, 2] = np.nan
    with pytest.raises(ValueError, match="column 2"):
        l1_path(bad, y, [0.1])
    with pytest.raises(ValueError, match="softmax expects labels"):
        l1_path(x, y, [0.1], "softmax")
    with pytest.raises(ValueError, match="alpha must be"):
        ridge(x, y, -1.0)
    with pytest.raises(ValueError, match="l1_ratio"):
        elastic_net_path(x, y, [0.1], 0.0)
    with pytest.raises(ValueError, match="w0 must be"):
        proximal_gradient(x, y, 0.1, w0=np.zeros(3))


# ---------------------------------------------------------------- plot


def test_regularization_path_plot(diabetes):
    x, y, names = diabetes
    top = lambda_max(x, y)
    path = l1_path(x, y, np.geomspace(top, 1e-3 * top, 20))
    ax = plotting.regularization_path(path, names, title="diabetes")
    lines = [line for line in ax.get_lines() if line.get_label().split(". ")[-1] in names]
    assert len(lines) == 10
    assert lines[0].get_label() == "1. bmi"
    assert len({(line.get_linestyle(), line.get_marker()) for line in lines}) == 10  # not colour alone
    assert ax.get_xscale() == "log" and ax.get_title() == "diabetes"
    assert ax.get_xlim()[0] > ax.get_xlim()[1]  # λ decreases to the right
    np.testing.assert_allclose(lines[0].get_ydata(), path.weights[np.argsort(-path.lams), 3])
    ax = plotting.regularization_path(path, names, highlight=3)
    assert sum(line.get_label().startswith(("1.", "2.", "3.", "4.")) for line in ax.get_lines()) == 3
    few = l1_path(x, y, [0.5 * top, 0.3 * top])  # features that never enter are still drawn and named
    ax = plotting.regularization_path(few, names)
    assert len([line for line in ax.get_lines() if line.get_label().split(". ")[-1] in names]) == 10
    with pytest.raises(ValueError, match="name"):
        plotting.regularization_path(path, names[:3])
    zero = RegularizationPath(np.array([0.0, 1.0]), np.zeros((2, 3)), np.zeros(2), np.ones(2, bool), "least_squares", 1.0)
    with pytest.raises(ValueError, match="λ > 0"):
        plotting.regularization_path(zero)


def test_penalty_ball_panel():
    import matplotlib.pyplot as plt

    from mlrefined_lib.costs import least_squares

    rng = np.random.default_rng(4)
    x = rng.normal(size=(40, 2))
    x -= x.mean(0)
    y = x @ np.array([2.0, 0.5])
    g = least_squares(x, y)
    w1, w2, values = plotting.cost_grid(lambda w: g(np.r_[0.0, w]), (-1.0, 3.0), (-1.5, 2.5), num=60)
    levels = plotting.contour_levels(values, num=10)
    fig, axes = plt.subplots(1, 2)
    for ax, norm in zip(axes, ["l1", "l2"]):
        plotting.penalty_ball_panel(ax, w1, w2, values, levels, [1.2, 0.0], norm=norm, unregularized=[2.0, 0.5],
                                    path=np.array([[2.0, 0.5], [1.2, 0.0]]), title=norm)
        assert ax.get_title() == norm and ax.get_xlim() == (-1.0, 3.0)
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert any(label.startswith(f"{norm} ball") for label in labels)
        assert "minimizer of g (λ = 0)" in labels
    corners = axes[0].patches[0].get_xy()
    assert np.allclose(np.abs(corners).sum(axis=1), 1.2)  # the diamond |w1| + |w2| = 1.2
    assert plotting._grid_value(w1, w2, values, [2.0, 0.5]) == pytest.approx(0.0, abs=0.02)
    with pytest.raises(ValueError, match="unknown norm"):
        plotting.penalty_ball_panel(axes[0], w1, w2, values, levels, [1.0, 0.0], norm="l0")
