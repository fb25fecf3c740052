"""Tests of mlrefined_lib.figures.regularization (chapter 11, Agg backend)."""

import numpy as np
import pytest
from search_results import grid_search_result

from mlrefined_lib import plotting
from mlrefined_lib.figures import regularization as figures


def test_three_penalties_draws_l0_l1_and_l2():
    w = np.linspace(-2, 2, 9)
    fig = figures.three_penalties(w)
    (ax,) = fig.axes
    np.testing.assert_array_equal(ax.lines[0].get_xdata(), w[w < 0])
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), np.ones(4))
    np.testing.assert_array_equal(ax.lines[4].get_ydata(), np.abs(w))
    np.testing.assert_array_equal(ax.lines[5].get_ydata(), w**2)
    assert ax.get_ylim() == (-0.1, 2.1)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("weight $w$",
                                                  "penalty $h(w)$")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "l0: 1 if w is not 0", "l1: |w|", "squared l2: w²"]


def test_penalty_geometry_draws_one_panel_per_penalty():
    w1, w2, values = plotting.cost_grid(
        lambda w: (w[0] - 1) ** 2 + 2 * (w[1] - 0.5) ** 2, (-1, 2), (-1, 2),
        num=30)
    levels = plotting.contour_levels(values, num=6)
    lasso = np.array([[1.0, 0.5], [0.6, 0.0], [0.0, 0.0]])
    ridge = np.array([[1.0, 0.5], [0.7, 0.3], [0.4, 0.2]])
    fig = figures.penalty_geometry(w1, w2, values, levels, lasso, ridge,
                                   np.array([1.0, 0.5]), 0.8, 1)
    left, right = fig.axes[:2]
    assert left.get_title() == "l1 (lasso), lambda = 0.80\nw = (0.600, 0.000)"
    assert right.get_title() == ("squared l2 (ridge), lambda = 0.80\n"
                                 "w = (0.700, 0.300)")
    for ax, path in ((left, lasso), (right, ridge)):
        assert any(np.array_equal(line.get_xdata(), path[:, 0])
                   and np.array_equal(line.get_ydata(), path[:, 1])
                   for line in ax.lines)


def test_lasso_convergence_draws_gaps_and_weights():
    gaps = {"subgradient": np.array([1.0, 0.5, 0.4]),
            "proximal gradient": np.array([1.0, 0.1, 1e-10])}
    weights = {"subgradient": np.array([0.0, 0.2, -0.1]),
               "proximal gradient": np.array([0.0, 0.1, 0.0])}
    fig = figures.lasso_convergence(gaps, weights, "age")
    left, right = fig.axes
    assert left.get_yscale() == "log"
    assert left.get_title() == "Distance to the minimum of the lasso cost"
    np.testing.assert_array_equal(right.lines[0].get_ydata(),
                                  weights["subgradient"])
    np.testing.assert_array_equal(right.lines[1].get_ydata(),
                                  weights["proximal gradient"])
    assert right.lines[1].get_linewidth() == 2.6
    assert right.get_ylim() == (-0.6, 0.6)
    assert right.get_ylabel() == "weight of age"
    assert right.get_title() == "A weight whose optimal value is 0 (age)"


def test_lambda_choice_draws_errors_and_both_choices():
    lams = np.array([10.0, 1.0, 0.1])
    search = grid_search_result([3900.0, 3000.0, 2990.0], [100.0, 90.0, 95.0], 2, 1)
    fig = figures.lambda_choice(lams, [3800.0, 2900.0, 2800.0], search)
    (ax,) = fig.axes
    np.testing.assert_array_equal(ax.lines[0].get_ydata(),
                                  [3800.0, 2900.0, 2800.0])
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), search.means)
    assert ax.get_xscale() == "log"
    assert ax.get_xlim() == pytest.approx((10.0, 0.1))
    assert ax.get_ylim() == (2700, 4200)
    labels = [line.get_label() for line in ax.lines]
    assert "lowest CV mean, λ = 0.10" in labels
    assert "one-s.e. choice, λ = 1.00" in labels
    assert ax.get_ylabel() == "mean squared error"
