"""Unit tests of mlrefined_lib.plotting and mlrefined_lib.widgets (Agg backend)."""

import io

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
import pytest
from PIL import Image as PILImage

from mlrefined_lib import plotting
from mlrefined_lib.costs import least_squares, softmax
from mlrefined_lib.optimizers import gradient_descent
from mlrefined_lib.plotting import contour_with_path, cost_grid, cost_histories, feature_histograms
from mlrefined_lib.plotting import figure_to_png

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def line_data():
    rng = np.random.default_rng(5)
    x = rng.uniform(0, 1, size=(40, 1))
    y = 1.0 + 3.0 * x[:, 0] + 0.2 * rng.normal(size=40)
    return x, y


# ---------------------------------------------------------------- cost_grid


def test_cost_grid_uses_batch_and_equals_loop(line_data, monkeypatch):
    x, y = line_data
    g = least_squares(x, y)
    batch_calls, value_calls = [], []
    real_batch, real_value = g.batch, g._value

    def spy_batch(ws):
        batch_calls.append(np.shape(ws))
        return real_batch(ws)

    def spy_value(w):
        value_calls.append(1)
        return real_value(w)

    monkeypatch.setattr(g, "batch", spy_batch)
    monkeypatch.setattr(g, "_value", spy_value)
    w0, w1, values = cost_grid(g, (-2.0, 4.0), (-1.0, 6.0), num=30)
    assert batch_calls == [(900, 2)]
    assert value_calls == []  # no per-point evaluation
    assert w0.shape == w1.shape == values.shape == (30, 30)
    np.testing.assert_allclose(w0[0], np.linspace(-2.0, 4.0, 30))
    np.testing.assert_allclose(w1[:, 0], np.linspace(-1.0, 6.0, 30))
    monkeypatch.undo()
    # Independent reference: the mean squared residual at every grid point.
    expected = np.array(
        [[np.mean((a + b * x[:, 0] - y) ** 2) for a, b in zip(row0, row1)] for row0, row1 in zip(w0, w1)]
    )
    np.testing.assert_allclose(values, expected, rtol=1e-9)
    loop = np.array([[g(np.array([a, b])) for a, b in zip(row0, row1)] for row0, row1 in zip(w0, w1)])
    np.testing.assert_allclose(values, loop, rtol=1e-9)


def test_cost_grid_without_batch_loops(line_data):
    x, y = line_data

    def plain(w):
        return float(np.mean((w[0] + w[1] * x[:, 0] - y) ** 2))

    _, _, values = cost_grid(plain, (-1.0, 1.0), (0.0, 2.0), num=5)
    _, _, vectorized = cost_grid(least_squares(x, y), (-1.0, 1.0), (0.0, 2.0), num=5)
    np.testing.assert_allclose(values, vectorized, rtol=1e-9)


def test_cost_grid_refuses_non_finite_and_tiny_grid(line_data):
    with pytest.raises(ValueError, match="not finite everywhere on the grid"):
        cost_grid(lambda w: np.inf if w[0] > 0 else 0.0, (-1, 1), (-1, 1), num=4)
    with pytest.raises(ValueError, match="num must be at least 2"):
        cost_grid(least_squares(*line_data), (-1, 1), (-1, 1), num=1)


# ---------------------------------------------------------------- contour_with_path


def test_contour_with_path_keeps_axis_limits(line_data):
    x, y = line_data
    g = least_squares(x, y)
    # The path starts, and the minimum lies, outside the window: the limits
    # given must still be kept exactly (frames of a slider line up).
    history = gradient_descent(g, np.array([-6.0, 9.0]), 0.3, 15)
    ax = contour_with_path(g, (-2.0, 4.0), (-1.0, 6.0), history, num=40, minimum=[5.0, 7.5])
    assert ax.get_xlim() == (-2.0, 4.0)
    assert ax.get_ylim() == (-1.0, 6.0)
    labels = ax.get_legend_handles_labels()[1]
    assert "start" in labels and "minimum" in labels and "end (step 15)" in labels


def test_contour_with_path_accepts_array_and_given_axes(line_data):
    g = least_squares(*line_data)
    fig, ax = plt.subplots()
    path = np.array([[0.0, 0.0], [0.5, 1.0], [1.0, 2.5]])
    out = contour_with_path(g, (-1.0, 3.0), (-1.0, 5.0), path, ax=ax, num=20, equal_aspect=True, title="t")
    assert out is ax
    assert ax.get_title() == "t"
    assert ax.get_xlim() == (-1.0, 3.0)


def test_contour_with_path_refuses_nan_path(line_data):
    g = least_squares(*line_data)
    path = np.array([[0.0, 0.0], [np.nan, 1.0], [1.0, 2.5]])
    with pytest.raises(ValueError, match="the path holds NaN or inf"):
        contour_with_path(g, (-1.0, 3.0), (-1.0, 5.0), path, num=10)


def test_contour_with_path_refuses_wrong_path_shape(line_data):
    g = least_squares(*line_data)
    with pytest.raises(ValueError, match=r"a path must have shape \(K\+1, 2\); found \(4,\)"):
        contour_with_path(g, (-1.0, 3.0), (-1.0, 5.0), np.zeros(4), num=10)


def test_contour_levels_spaced_in_square_root():
    levels = plotting.contour_levels(np.array([[1.0, 5.0], [3.0, 2.0]]), num=5)
    np.testing.assert_allclose(levels, 1.0 + 4.0 * np.array([0.0, 1 / 16, 1 / 4, 9 / 16, 1.0]))


# ---------------------------------------------------------------- cost_histories, feature_histograms


def test_cost_histories_plots_each_run(line_data):
    x, y = line_data
    g = least_squares(x, y)
    runs = {"alpha 0.1": gradient_descent(g, np.zeros(2), 0.1, 10), "list": [3.0, 2.0, 1.5]}
    ax = cost_histories(runs, log=True)
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == ["alpha 0.1", "list"]
    np.testing.assert_allclose(lines[0].get_ydata(), runs["alpha 0.1"].costs)
    np.testing.assert_allclose(lines[1].get_ydata(), [3.0, 2.0, 1.5])
    assert ax.get_yscale() == "log"
    # The book's notation: t counts the steps.
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("step $t$", "cost $g(w^t)$")


def test_cost_histories_values_callable(line_data):
    x, y = line_data
    labels = np.where(y > np.median(y), 1.0, -1.0)
    history = gradient_descent(softmax(x, labels), np.zeros(2), 1.0, 5)
    ax = cost_histories({"run": history}, values=lambda w: 7.0)
    np.testing.assert_array_equal(ax.get_lines()[0].get_ydata(), np.full(6, 7.0))


def test_cost_histories_refuses_nan():
    with pytest.raises(ValueError, match="the run 'bad' holds NaN or inf"):
        cost_histories({"good": [1.0, 0.5], "bad": [1.0, np.nan, 0.2]})


def test_cost_histories_refuses_empty():
    with pytest.raises(ValueError, match="histories is empty"):
        cost_histories({})


def test_feature_histograms_names_and_mismatch():
    x = np.random.default_rng(1).normal(size=(50, 3))
    axes = feature_histograms(x, ["a", "b", "c"], bins=7)
    assert [ax.get_xlabel() for ax in axes] == ["a", "b", "c"]
    assert sum(patch.get_height() for patch in axes[1].patches) == 50
    with pytest.raises(ValueError, match=r"x has 3 feature\(s\) but 2 name\(s\) were given"):
        feature_histograms(x, ["a", "b"])


def test_feature_histograms_wrap_at_three_panels_a_row():
    """Five features: two rows of at most three panels, narrow enough to read in the book."""
    x = np.random.default_rng(2).normal(size=(40, 5))
    axes = feature_histograms(x, list("abcde"))
    fig = axes[0].figure
    assert len(axes) == 5 and fig.get_figwidth() <= 9.2
    grid = fig.axes
    assert len(grid) == 6 and [ax.get_visible() for ax in grid] == [True] * 5 + [False]
    rows = sorted({round(ax.get_position().y0, 3) for ax in axes})
    assert len(rows) == 2, f"expected two rows of panels, found rows at {rows}"
    assert [ax.get_ylabel() for ax in grid[::3]] == ["number of points"] * 2
    plt.close(fig)


# ---------------------------------------------------------------- widgets


def line_figure(slope):
    fig, ax = plt.subplots(figsize=(2.0, 1.5))
    t = np.linspace(0, 1, 10)
    ax.plot(t, slope * t, lw=3)
    ax.set_xlim(0, 1)
    ax.set_ylim(-2, 2)
    return fig


def test_figure_to_png_closes_figure_and_uses_palette():
    fig = line_figure(1.0)
    png = figure_to_png(fig, dpi=40, colors=16)
    assert png.startswith(PNG_SIGNATURE)
    assert not plt.fignum_exists(fig.number)
    image = PILImage.open(io.BytesIO(png))
    assert image.mode == "P"
    assert image.size == (80, 60)
