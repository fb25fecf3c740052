"""Figures of chapter 7, standard normalization.

Each function draws one figure of the chapter and returns the matplotlib
``Figure``; the notebook computes the runs and the data, and calls one function
to draw them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np

from mlrefined_lib import plotting

__all__ = [
    "descent_panels",
    "fitted_lines",
    "softmax_comparison",
    "blend_frame",
    "raw_and_standardized_histograms",
    "transformed_histograms",
]

_LINE_STYLES = ["--", "-", "-.", ":"]
_LINE_COLORS = ["#d7191c", "#1a9641", "#2c7bb6", "#fdae61"]
_MARKER_STYLES = ["-o", "--s", "-.^", ":v"]


def descent_panels(
    panels: Sequence[tuple],
    w0_range: tuple[float, float],
    w1_range: tuple[float, float],
):
    """Contour plots of several costs side by side, each with its descent path
    (chapter 7, Example A).

    Parameters
    ----------
    panels : sequence of (cost, run, minimum, title)
        One panel per entry: the cost of two weights, the gradient-descent
        ``History`` drawn on it, the minimizer (marked with a star) and the
        panel's title.
    w0_range, w1_range : (low, high)
        The same axis limits for every panel.

    Returns
    -------
    matplotlib Figure
    """
    fig, axes = plt.subplots(1, len(panels), figsize=(4.6 * len(panels), 3.8), squeeze=False)
    for ax, (cost, run, minimum, title) in zip(axes[0], panels):
        plotting.contour_with_path(
            cost, w0_range, w1_range, path=run, minimum=minimum, ax=ax, equal_aspect=True, title=title
        )
    fig.tight_layout()
    return fig


def fitted_lines(
    x,
    y,
    lines: Mapping[str, tuple],
    *,
    title: str = "Fitted lines after gradient descent",
):
    """The data of a one-input regression as points, and fitted lines over them
    (chapter 7, Example A).

    Parameters
    ----------
    x : array of shape (P, 1) or (P,)
        Inputs.
    y : array of shape (P,)
        Outputs.
    lines : mapping of label -> (inputs, outputs)
        Each line's inputs (1-D, in the original units) and its predictions.
    title : str

    Returns
    -------
    matplotlib Figure
    """
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    ax.scatter(np.ravel(x), y, s=16, color="#4575b4", edgecolors="k", linewidths=0.3, label="data")
    for i, (label, (inputs, outputs)) in enumerate(lines.items()):
        ax.plot(
            np.ravel(inputs),
            outputs,
            _LINE_STYLES[i % len(_LINE_STYLES)],
            lw=2,
            color=_LINE_COLORS[i % len(_LINE_COLORS)],
            label=label,
        )
    ax.set(xlabel="input $x$", ylabel="output $y$", title=title)
    ax.legend(fontsize=9)
    return fig


def softmax_comparison(
    histories: Mapping[str, object],
    misclassified: Mapping[str, Sequence[int]],
    x,
    y,
    curves: Mapping[str, tuple],
    *,
    shown_steps: int = 30,
):
    """Three panels comparing two-class softmax runs (chapter 7, Example B).

    Top left: the cost of each run against the step, on a log scale. Top right:
    the number of misclassified points over the first ``shown_steps`` steps.
    Bottom left: the labelled points and the fitted curves
    ``tanh(model / 2)``.

    Parameters
    ----------
    histories : mapping of label -> History
        The runs, for the cost panel.
    misclassified : mapping of label -> sequence of int
        Misclassification count after each step of each run.
    x : array of shape (P, 1)
        Inputs; ``y`` of shape (P,) holds the labels -1 and +1.
    curves : mapping of label -> (inputs, values)
        Fitted curves over a grid of inputs.
    shown_steps : int
        Steps shown in the misclassification panel.

    Returns
    -------
    matplotlib Figure
    """
    fig, axes = plt.subplots(2, 2, figsize=(9.2, 7.2))
    cost_ax, error_ax, curve_ax, spare = axes.ravel()
    spare.set_visible(False)
    plotting.cost_histories(
        histories, ax=cost_ax, log=True, title="Softmax cost, from w = (0, 0)", ylabel="cost (log scale)"
    )
    for i, (label, counts) in enumerate(misclassified.items()):
        error_ax.plot(
            list(counts)[: shown_steps + 1], _MARKER_STYLES[i % len(_MARKER_STYLES)], lw=2, ms=5, markevery=3, label=label
        )
    error_ax.set(
        xlabel="step $k$", ylabel="misclassified points", title=f"Misclassifications (first {shown_steps} steps)"
    )
    error_ax.legend(fontsize=9, title="the standardized runs coincide", title_fontsize=9)
    x, y = np.ravel(x), np.asarray(y)
    for sign, marker, color in [(1, "o", "#d7191c"), (-1, "s", "#2c7bb6")]:
        chosen = y == sign
        curve_ax.scatter(
            x[chosen], y[chosen], marker=marker, color=color, edgecolors="k", s=30, zorder=3, label=f"label {sign:+d}"
        )
    for i, (label, (inputs, values)) in enumerate(curves.items()):
        curve_ax.plot(np.ravel(inputs), values, ["-", "--"][i % 2], lw=2, label=label)
    curve_ax.set(xlabel="input $x$", ylabel="label / tanh(model / 2)", title="Fitted curves")
    curve_ax.legend(fontsize=9, loc="upper left")
    fig.tight_layout()
    return fig


def blend_frame(
    cost,
    run,
    w0_range: tuple[float, float],
    w1_range: tuple[float, float],
    levels,
    title: str,
):
    """One frame of a slider: the contours of a cost and a descent path on them
    (chapter 7, Example B).

    Parameters
    ----------
    cost : callable
        Cost of two weights.
    run : History
        The path drawn.
    w0_range, w1_range : (low, high)
        Axis limits, fixed across frames.
    levels : array
        Contour levels, fixed across frames.
    title : str

    Returns
    -------
    matplotlib Figure
    """
    fig, ax = plt.subplots(figsize=(5.2, 4.6))
    plotting.contour_with_path(
        cost, w0_range, w1_range, path=run, levels=levels, ax=ax, legend=False, equal_aspect=True, title=title
    )
    fig.tight_layout()
    return fig


def raw_and_standardized_histograms(x, z, names: Sequence[str]):
    """One histogram per feature, the raw features in the top row and the
    standardized ones below (chapter 7, Example C).

    Parameters
    ----------
    x, z : arrays of shape (P, N)
        Raw and standardized inputs.
    names : sequence of N str
        Feature names; the bottom row adds "standardized".

    Returns
    -------
    matplotlib Figure
    """
    count = np.shape(x)[1]
    fig, axes = plt.subplots(2, count, figsize=(1.84 * count, 4), squeeze=False)
    plotting.feature_histograms(x, names, axes=axes[0])
    plotting.feature_histograms(z, [f"{name} standardized" for name in names], axes=axes[1])
    axes[0, 0].set_title("raw features", loc="left")
    axes[1, 0].set_title("standardized features", loc="left")
    fig.tight_layout()
    return fig


def transformed_histograms(
    values: Mapping[str, np.ndarray],
    *,
    xlabel: str,
    ylabel: str,
    title: str,
    bins: int = 60,
):
    """Histograms of one feature after several preprocessings, one row each
    (chapter 7, skewed features).

    Parameters
    ----------
    values : mapping of panel title -> 1-D array
        The transformed values of each panel.
    xlabel, ylabel, title : str
        Axis labels of every panel, and the figure's title.
    bins : int

    Returns
    -------
    matplotlib Figure
    """
    fig, axes = plt.subplots(len(values), 1, figsize=(7, 2.55 * len(values)), squeeze=False)
    for ax, (panel_title, column) in zip(axes[:, 0], values.items()):
        ax.hist(np.ravel(column), bins=bins, color="#4575b4", edgecolor="white", linewidth=0.3)
        ax.set(xlabel=xlabel, ylabel=ylabel, title=panel_title)
    fig.suptitle(title)
    fig.tight_layout()
    return fig
