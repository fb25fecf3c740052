"""Tests of mlrefined_lib.figures.boosting (chapter 10, Agg backend)."""

from types import SimpleNamespace

import numpy as np

from mlrefined_lib.figures import boosting as figures


def test_residual_rounds_draws_residuals_and_best_lines():
    z = np.array([[-1.0, 1.0, 0.5], [0.0, -1.0, -1.0], [1.0, 0.0, 0.5]])
    residual = np.array([-2.0, 0.5, 1.5])
    order, weights = [0, 2], [3.0, 1.75, 0.1]
    fig = figures.residual_rounds(z, residual, order, weights,
                                  ["a", "b", "c"], rounds=2)
    axes = np.reshape(fig.axes, (2, 3))
    assert [ax.get_title() for ax in axes[0]] == [
        "round 1: a (chosen)", "round 1: b (not chosen)",
        "round 1: c (not chosen)"]
    assert axes[1, 0].get_title() == "round 2: a (already used)"
    assert axes[1, 2].get_title() == "round 2: c (chosen)"
    np.testing.assert_array_equal(
        axes[0, 1].collections[0].get_offsets(), np.column_stack([z[:, 1],
                                                                  residual]))
    slope = z[:, 0] @ residual / (z[:, 0] @ z[:, 0])
    np.testing.assert_allclose(axes[0, 0].lines[0].get_ydata(),
                               slope * np.array([-2.5, 2.5]))
    assert not axes[1, 0].lines  # a used feature gets no line
    after = residual - 1.75 * z[:, 0]
    np.testing.assert_allclose(axes[1, 2].collections[0].get_offsets()[:, 1],
                               after)
    assert axes[1, 0].get_ylabel() == "residual after round 1"
    assert axes[0, 2].get_xlabel() == "standardized c"


def test_rounds_choice_draws_both_curves_and_choices():
    search = SimpleNamespace(means=[5000.0, 3500.0, 3100.0, 3150.0],
                             standard_errors=[100.0, 90.0, 80.0, 85.0],
                             best_param=2, one_standard_error_param=2)
    costs = np.array([5900.0, 3400.0, 3000.0, 2990.0])
    fig = figures.rounds_choice(costs, search, 2, ["bias", "1", "2", "3"],
                                "title", "training")
    (ax,) = fig.axes
    assert ax.get_title() == "title"
    assert ax.get_ylim() == (3000, 4500)
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), costs)
    np.testing.assert_array_equal(ax.containers[0].lines[0].get_ydata(),
                                  search.means)
    labels = [line.get_label() for line in ax.lines]
    assert "lowest CV mean (round 2)" in labels
    assert "one-standard-error choice (round 2)" in labels
    assert [t.get_text() for t in ax.get_xticklabels()] == ["bias", "1", "2",
                                                            "3"]
    assert "CV 5000, training 5900" in ax.texts[0].get_text()
    assert ax.get_ylabel() == "mean squared error"
