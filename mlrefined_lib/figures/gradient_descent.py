"""Figures of chapter 1, "Least squares, the normal equation and gradient descent".

Each function draws one figure and returns the matplotlib ``Figure``; the
notebook shows it.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..costs import model

__all__ = ["data_and_lines", "gap_and_bound"]

#: Line style, width and colour of the first, second, ... fitted line.
LINE_STYLES = [("-", 3.0, "#fdae61"), ("--", 1.5, "k"), (":", 2.0, "#d7191c")]


def data_and_lines(x, y, lines: Sequence = (), *, title: str):
    """Draw one-input data as points, with the lines of fitted models (chapter 1).

    Parameters
    ----------
    x : array of shape (P, 1)
        One input per point; the lines are drawn over ``[0, 1]``.
    y : array of shape (P,)
    lines : sequence of (label, weights)
        Up to three linear models ``w`` of shape (2,), drawn in turn with a
        thick, a dashed and a dotted line; each gets a legend entry.
    title : str

    Returns
    -------
    matplotlib Figure
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(lines) > len(LINE_STYLES):
        raise ValueError(f"at most {len(LINE_STYLES)} lines; found {len(lines)}.")
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.scatter(x[:, 0], y, s=18, color="#4575b4", edgecolors="k",
               linewidths=0.3, label="data")
    grid = np.linspace(0, 1, 2)[:, None]
    for (label, weights), (style, width, color) in zip(lines, LINE_STYLES):
        ax.plot(grid[:, 0], model(grid, np.asarray(weights, float)), style,
                lw=width, color=color, label=label)
    ax.set(xlabel="input $x$", ylabel="output $y$", title=title)
    if lines:
        ax.legend(fontsize=9)
    return fig


def gap_and_bound(gap, bound, *, title: str = r"Gradient descent with $\alpha = 1/L$"):
    """Draw the cost gap of a run beside its O(1/t) bound, on log-log axes (chapter 1).

    Parameters
    ----------
    gap : array of shape (K,)
        ``g(w^t) - g(w*)`` for steps ``t = 1 .. K``.
    bound : array of shape (K,)
        The guaranteed upper bound at the same steps.
    title : str

    Returns
    -------
    matplotlib Figure
    """
    gap, bound = np.asarray(gap, float), np.asarray(bound, float)
    if gap.shape != bound.shape or gap.ndim != 1:
        raise ValueError(f"gap and bound must be 1-D of one shape; found {gap.shape} and {bound.shape}.")
    t = np.arange(1, len(gap) + 1)
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    ax.loglog(t, gap, "-", lw=2, label=r"actual gap $g(w^t) - g(w^\star)$")
    ax.loglog(t, bound, "--", lw=2, label=r"bound $L\,\|w^0 - w^\star\|^2 / (2t)$")
    ax.set(xlabel="step $t$ (log scale)", ylabel="cost gap (log scale)", title=title)
    ax.legend(fontsize=9)
    return fig
