"""Tests of mlrefined_lib.figures.standard_normalization (chapter 7), Agg backend."""

import matplotlib
import numpy as np
import pytest
from matplotlib.collections import LineCollection

from mlrefined_lib.costs import least_squares, softmax
from mlrefined_lib.figures import standard_normalization as figures
from mlrefined_lib.optimizers import gradient_descent


def drawn_path(ax, weights):
    """True when ax holds the descent path: its segments join the weights."""
    segments = np.stack([weights[:-1], weights[1:]], axis=1)
    lines = [c for c in ax.collections if type(c) is LineCollection]
    return any(
        len(c.get_segments()) == len(segments) and np.allclose(np.asarray(c.get_segments()), segments)
        for c in lines
    )


@pytest.fixture
def line_data():
    rng = np.random.default_rng(7)
    x = rng.uniform(0, 1, size=(30, 1))
    y = 1.0 + 3.0 * x[:, 0] + 0.1 * rng.normal(size=30)
    return x, y


@pytest.fixture
def two_classes():
    x = np.array([[0.0], [0.4], [0.8], [3.9], [4.3], [4.6]])
    y = np.array([-1.0, -1.0, -1.0, 1.0, 1.0, 1.0])
    return x, y


def test_descent_panels(line_data):
    x, y = line_data
    g = least_squares(x, y)
    run = gradient_descent(g, np.zeros(2), 0.1, 5)
    fig = figures.descent_panels(
        [(g, run, np.array([1.0, 3.0]), "first"), (g, run, np.array([1.0, 3.0]), "second")],
        (-3.0, 9.0),
        (-2.0, 12.0),
    )
    axes = fig.axes
    assert [ax.get_title() for ax in axes] == ["first", "second"]
    for ax in axes:
        assert ax.get_xlim() == (-3.0, 9.0)
        assert ax.get_ylim() == (-2.0, 12.0)
        assert ax.get_xlabel() == "$w_0$ (bias)"
        assert ax.get_ylabel() == "$w_1$ (slope)"
        assert drawn_path(ax, run.weights)
        # the minimum is marked
        assert any(line.get_label() == "minimum" for line in ax.get_lines())
    # One legend, under the last panel: on a phone it must not cover the contours.
    assert axes[0].get_legend() is None
    legend = axes[1].get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["minimum", "start", "end of the path"]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legend_box, panel_box = legend.get_window_extent(renderer), axes[1].get_window_extent(renderer)
    assert legend_box.y1 < panel_box.y0


def test_fitted_lines(line_data):
    x, y = line_data
    grid = np.array([0.0, 1.0])
    fig = figures.fitted_lines(x, y, {"a": (grid, [1.0, 4.0]), "b": (grid[:, None], [0.5, 3.5])}, title="T")
    (ax,) = fig.axes
    assert ax.get_title() == "T"
    assert ax.get_xlabel() == "input $x$" and ax.get_ylabel() == "output $y$"
    points = ax.collections[0].get_offsets()
    np.testing.assert_allclose(points, np.column_stack([x[:, 0], y]))
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == ["a", "b"]
    np.testing.assert_allclose(lines[0].get_ydata(), [1.0, 4.0])
    np.testing.assert_allclose(lines[1].get_xdata(), grid)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["data", "a", "b"]
    labelled = figures.fitted_lines(x, y, {"a": (grid, [1.0, 4.0])}, title="T", xlabel="year", ylabel="price",
                                    point_size=3)
    (ax,) = labelled.axes
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("year", "price")
    np.testing.assert_allclose(ax.collections[0].get_sizes(), [3])


def test_blend_frame(two_classes):
    x, y = two_classes
    g = softmax(x, y)
    run = gradient_descent(g, np.zeros(2), 1.0, 10)
    levels = np.geomspace(0.005, 40.0, 20)
    fig = figures.blend_frame(g, run, (-8.0, 4.0), (-2.0, 8.0), levels, "frame")
    (ax,) = fig.axes[:1]
    assert ax.get_title() == "frame"
    assert ax.get_xlim() == (-8.0, 4.0) and ax.get_ylim() == (-2.0, 8.0)
    assert ax.get_legend() is None
    assert drawn_path(ax, run.weights)


def test_raw_and_standardized_histograms():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(50, 3)) * [1, 10, 100]
    z = (x - x.mean(axis=0)) / x.std(axis=0)
    fig = figures.raw_and_standardized_histograms(x, z, ["a", "b", "c"])
    axes = np.array(fig.axes).reshape(2, 3)
    assert [ax.get_xlabel() for ax in axes[0]] == ["a", "b", "c"]
    assert [ax.get_xlabel() for ax in axes[1]] == ["a standardized", "b standardized", "c standardized"]
    assert axes[0, 0].get_title(loc="left") == "raw features"
    assert axes[1, 0].get_title(loc="left") == "standardized features"
    for ax, column in zip(axes.ravel(), np.column_stack([x, z]).T):
        heights = [patch.get_height() for patch in ax.patches]
        np.testing.assert_allclose(heights, np.histogram(column, bins=20)[0])


def test_transformed_histograms():
    rng = np.random.default_rng(2)
    values = {"one": rng.normal(size=100), "two": rng.exponential(size=100)}
    fig = figures.transformed_histograms(values, xlabel="X", ylabel="Y", title="T", bins=10)
    assert fig.get_suptitle() == "T"
    assert [ax.get_title() for ax in fig.axes] == ["one", "two"]
    for ax, column in zip(fig.axes, values.values()):
        assert ax.get_xlabel() == "X" and ax.get_ylabel() == "Y"
        heights = [patch.get_height() for patch in ax.patches]
        np.testing.assert_allclose(heights, np.histogram(column, bins=10)[0])
