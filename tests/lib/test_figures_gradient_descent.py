"""Tests of mlrefined_lib.figures.gradient_descent (chapter 1's figures), Agg backend."""

import matplotlib
import numpy as np
import pytest

from mlrefined_lib.figures import gradient_descent as figures


@pytest.fixture
def line_data():
    rng = np.random.default_rng(1)
    x = rng.uniform(0, 1, size=(12, 1))
    y = 1.0 + 2.0 * x[:, 0] + 0.1 * rng.normal(size=12)
    return x, y


def test_data_and_lines_draws_the_points_and_each_line(line_data):
    x, y = line_data
    lines = [("first", np.array([1.0, 2.0])), ("second", np.array([0.5, 3.0]))]
    fig = figures.data_and_lines(x, y, lines, title="Two lines")
    assert isinstance(fig, matplotlib.figure.Figure)
    (ax,) = fig.axes
    assert ax.get_title() == "Two lines"
    assert ax.get_xlabel() == "input $x$" and ax.get_ylabel() == "output $y$"
    (points,) = ax.collections
    np.testing.assert_array_equal(points.get_offsets(), np.column_stack([x[:, 0], y]))
    assert [line.get_label() for line in ax.lines] == ["first", "second"]
    for line, (_, w) in zip(ax.lines, lines):
        np.testing.assert_array_equal(line.get_xdata(), [0.0, 1.0])
        np.testing.assert_allclose(line.get_ydata(), [w[0], w[0] + w[1]])
    assert ax.lines[0].get_linestyle() != ax.lines[1].get_linestyle()
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["data", "first", "second"]


def test_data_and_lines_without_lines_has_no_legend(line_data):
    x, y = line_data
    fig = figures.data_and_lines(x, y, title="Data")
    (ax,) = fig.axes
    assert len(ax.lines) == 0 and ax.get_legend() is None
    assert len(ax.collections[0].get_offsets()) == 12


def test_data_and_lines_refuses_too_many_lines(line_data):
    x, y = line_data
    with pytest.raises(ValueError, match="at most 3 lines"):
        figures.data_and_lines(x, y, [("w", np.zeros(2))] * 4, title="t")


def test_gap_and_bound_draws_both_curves_on_log_axes():
    gap = np.array([3.0, 1.0, 0.2, 0.01])
    bound = np.array([10.0, 5.0, 10 / 3, 2.5])
    fig = figures.gap_and_bound(gap, bound)
    (ax,) = fig.axes
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert ax.get_xlabel() == "step $t$ (log scale)"
    assert ax.get_ylabel() == "cost gap (log scale)"
    assert ax.get_title() == r"Gradient descent with $\alpha = 1/L$"
    actual, limit = ax.lines
    np.testing.assert_array_equal(actual.get_xdata(), [1, 2, 3, 4])
    np.testing.assert_array_equal(actual.get_ydata(), gap)
    np.testing.assert_array_equal(limit.get_ydata(), bound)
    assert len(ax.get_legend().get_texts()) == 2


def test_gap_and_bound_needs_matching_shapes():
    with pytest.raises(ValueError, match="one shape"):
        figures.gap_and_bound(np.ones(3), np.ones(4))
