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
    (chapter 7, Example A). One legend for all panels sits under the last one,
    outside the contours.

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
    fig, axes = plt.subplots(1, len(panels), figsize=(4.6 * len(panels), 4.3), squeeze=False)
    for ax, (cost, run, minimum, title) in zip(axes[0], panels):
        plotting.contour_with_path(
            cost, w0_range, w1_range, path=run, minimum=minimum, ax=ax, equal_aspect=True, title=title
        )
    # One legend, under the last panel and off the contours: the markers mean
    # the same in every panel, and on a phone the panels stack above it.
    for ax in axes[0, :-1]:
        ax.get_legend().remove()
    handles, labels = axes[0, -1].get_legend_handles_labels()
    labels = ["end of the path" if label.startswith("end") else label for label in labels]
    axes[0, -1].legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, fontsize=9,
                       frameon=False)
    fig.tight_layout()
    return fig


def fitted_lines(
    x,
    y,
    lines: Mapping[str, tuple],
    *,
    title: str = "Fitted lines after gradient descent",
    xlabel: str = "input $x$",
    ylabel: str = "output $y$",
    point_size: float = 16,
):
    """The data of a one-input regression as points, and fitted lines or curves
    over them (chapter 7: Example A, and bins against a spline).

    Parameters
    ----------
    x : array of shape (P, 1) or (P,)
        Inputs.
    y : array of shape (P,)
        Outputs.
    lines : mapping of label -> (inputs, outputs)
        Each line's inputs (1-D, in the original units) and its predictions.
    title, xlabel, ylabel : str
    point_size : float
        Marker area of the data points (smaller for many points).

    Returns
    -------
    matplotlib Figure
    """
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    ax.scatter(np.ravel(x), y, s=point_size, color="#4575b4", edgecolors="k", linewidths=0.3, label="data")
    for i, (label, (inputs, outputs)) in enumerate(lines.items()):
        ax.plot(
            np.ravel(inputs),
            outputs,
            _LINE_STYLES[i % len(_LINE_STYLES)],
            lw=2,
            color=_LINE_COLORS[i % len(_LINE_COLORS)],
            label=label,
        )
    ax.set(xlabel=xlabel, ylabel=ylabel, title=title)
    ax.legend(fontsize=9)
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
