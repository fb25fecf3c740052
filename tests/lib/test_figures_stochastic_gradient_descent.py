"""Tests of mlrefined_lib.figures.stochastic_gradient_descent (chapter 2's figures), Agg backend."""

import numpy as np
import pytest

from mlrefined_lib import least_squares, minibatch_gradient_descent
from mlrefined_lib.figures import stochastic_gradient_descent as figures

W0_RANGE, W1_RANGE = (-2.0, 4.0), (-1.0, 6.0)


@pytest.fixture
def problem():
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 1, size=(20, 1))
    y = 1.0 + 3.0 * x[:, 0] + 0.1 * rng.normal(size=20)
    g = least_squares(x, y)
    x_ext = np.column_stack([np.ones(20), x])
    w_star = np.linalg.lstsq(x_ext, y, rcond=None)[0]
    runs = {
        f"b = {b}": minibatch_gradient_descent(g, np.zeros(2), 0.1, 3, b, record_steps=True)
        for b in [20, 5, 1]
    }
    return g, w_star, runs


def test_paths_by_batch_size(problem):
    g, w_star, runs = problem
    levels = np.linspace(0, 20, 9)
    fig = figures.paths_by_batch_size(
        g, runs, minimum=w_star, w0_range=W0_RANGE, w1_range=W1_RANGE, levels=levels, title="three runs"
    )
    (ax,) = fig.axes
    assert ax.get_title() == "three runs"
    assert ax.get_xlim() == W0_RANGE and ax.get_ylim() == W1_RANGE
    assert ax.get_xlabel() == "$w_0$ (bias)" and ax.get_ylabel() == "$w_1$ (slope)"
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0] == "minimum" and labels[-1] == "start (all 3 runs)"
    for name, run in runs.items():
        assert f"{name}: end (step {len(run.step_weights) - 1})" in labels
        (end,) = [line for line in ax.lines if line.get_label().startswith(f"{name}: end")]
        np.testing.assert_allclose(np.r_[end.get_xdata(), end.get_ydata()], run.step_weights[-1])
    (star,) = [line for line in ax.lines if line.get_label() == "minimum"]
    np.testing.assert_allclose(np.r_[star.get_xdata(), star.get_ydata()], w_star)
    # every path is drawn as a line collection through its recorded steps
    segments = [c.get_segments() for c in ax.collections if hasattr(c, "get_segments") and len(c.get_segments())]
    for run in runs.values():
        steps = run.step_weights
        assert any(len(s) == len(steps) - 1 and np.allclose(np.array(s)[:, 0], steps[:-1]) for s in segments)


def test_paths_by_batch_size_refuses_four_runs(problem):
    g, w_star, runs = problem
    four = dict(runs, extra=runs["b = 1"])
    with pytest.raises(ValueError, match="at most 3 runs"):
        figures.paths_by_batch_size(g, four, minimum=w_star, w0_range=W0_RANGE, w1_range=W1_RANGE,
                                    levels=None, title="t")


def test_batch_cost_histories(problem):
    g, w_star, runs = problem
    fig = figures.batch_cost_histories(runs, minimum_cost=g(w_star), epochs=3)
    left, right = fig.axes
    assert left.get_title() == "cost of the batch, at every step"
    assert right.get_title() == "cost on all points, once per epoch"
    assert left.get_ylabel() == "cost (log scale)"
    for ax in (left, right):
        assert ax.get_xlabel() == "epoch" and ax.get_xlim() == (0, 3) and ax.get_yscale() == "log"
        assert ax.lines[-1].get_label() == "minimum cost"
        np.testing.assert_allclose(ax.lines[-1].get_ydata(), [g(w_star)] * 2)
    assert left.get_ylim() == (1e-4, 1e3)
    for i, run in enumerate(runs.values()):
        np.testing.assert_array_equal(left.lines[i].get_ydata(), run.step_costs)
        np.testing.assert_allclose(left.lines[i].get_xdata(),
                                   np.arange(len(run.step_costs)) / run.steps_per_epoch)
        np.testing.assert_array_equal(right.lines[i].get_ydata(), run.costs)
        np.testing.assert_array_equal(right.lines[i].get_xdata(), np.arange(4))
    labels = [t.get_text() for t in right.get_legend().get_texts()]
    assert labels == [*runs, "minimum cost"]


def test_batch_size_frame(problem):
    g, w_star, _ = problem
    levels = np.linspace(0, 20, 9)
    fig = figures.batch_size_frame(g, 5, alpha=0.1, epochs=3, minimum=w_star, w0_range=W0_RANGE,
                                   w1_range=W1_RANGE, levels=levels, cost_limits=(0.01, 50.0))
    left, right = fig.axes
    run = minibatch_gradient_descent(g, np.zeros(2), 0.1, 3, 5, record_steps=True)
    distance = np.linalg.norm(run.final_weights - w_star)
    assert left.get_title() == f"b = 5: 12 steps, ends {distance:.2f} from w*"
    assert left.get_xlim() == W0_RANGE and left.get_ylim() == W1_RANGE
    assert right.get_title() == "4 steps per epoch"
    assert right.get_xlabel() == "epoch" and right.get_ylabel() == "cost $g(w)$ (log scale)"
    assert right.get_ylim() == (0.01, 50.0) and right.get_xlim() == (0, 3)
    cost_line = right.lines[0]
    np.testing.assert_allclose(cost_line.get_ydata(), g.batch(run.step_weights))
    np.testing.assert_allclose(cost_line.get_xdata(), np.arange(13) / 4)
    (end,) = [line for line in left.lines if line.get_label().startswith("end")]
    np.testing.assert_allclose(np.r_[end.get_xdata(), end.get_ydata()], run.step_weights[-1])
