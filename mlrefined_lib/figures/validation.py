"""Figures of chapter 5: validation, and the map of the book's field.

Every function takes the numbers it draws as arguments (nothing is read from
a notebook's globals) and returns the matplotlib ``Figure``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyBboxPatch

#: The book's chapters on the map of the field: three kinds of features, and
#: what every kind relies on. Each entry is (title, lines of text).
FIELD_MAP = {
    "engineered by hand": [
        "4  polynomial features",
        "6  histogram features",
        "7  standard normalization",
        "8  imputing missing values",
    ],
    "selected": [
        "10  boosting",
        "11  regularization (lasso)",
    ],
    "learned": [
        "9  PCA and sphering",
        "beyond this book:",
        "clustering, neural networks",
    ],
}
FIELD_BASE = [
    "1-3  costs and optimizers: how every model is fitted",
    "5  validation: how every choice is judged",
    "12  the pipeline: how the choices fit together",
]
COLUMN_COLORS = ("#c6dbef", "#fdd0a2", "#c7e9c0")


def field_map(columns=None, base=None):
    """Draw the map of the field: where the book's chapters sit (chapter 5).

    Three columns of boxes, one per kind of feature work (by default
    features engineered by hand, features selected from many, features
    learned from the data), each listing its chapters, above a band of the
    chapters that all of them rely on.

    Parameters
    ----------
    columns : dict from str to list of str, optional
        Column titles and the lines in each column (default
        :data:`FIELD_MAP`).
    base : list of str, optional
        The lines of the band underneath (default :data:`FIELD_BASE`).

    Returns
    -------
    matplotlib Figure
        One axes, with limits (0, 3) by (0, 1) and its axis lines hidden.
    """
    columns = FIELD_MAP if columns is None else columns
    base = FIELD_BASE if base is None else base
    count = len(columns)
    fig, ax = plt.subplots(figsize=(8.8, 3.9))
    ax.set_xlim(0, count)
    ax.set_ylim(0, 1)
    ax.axis("off")
    for n, (title, lines) in enumerate(columns.items()):
        ax.add_patch(FancyBboxPatch(
            (n + 0.05, 0.36), 0.9, 0.52, boxstyle="round,pad=0.01",
            facecolor=COLUMN_COLORS[n % len(COLUMN_COLORS)], edgecolor="k",
            lw=0.8,
        ))
        ax.text(n + 0.5, 0.83, title, ha="center", va="center",
                fontsize=11, fontweight="bold")
        for k, line in enumerate(lines):
            ax.text(n + 0.5, 0.72 - 0.085 * k, line, ha="center",
                    va="center", fontsize=9.5,
                    style="italic" if line.startswith("beyond") else "normal")
    ax.add_patch(FancyBboxPatch(
        (0.05, 0.03), count - 0.1, 0.27, boxstyle="round,pad=0.01",
        facecolor="#f0f0f0", edgecolor="k", lw=0.8,
    ))
    for k, line in enumerate(base):
        ax.text(count / 2, 0.245 - 0.08 * k, line, ha="center", va="center",
                fontsize=9.5)
    ax.set_title("where feature engineering sits: the chapters of this book",
                 fontsize=11)
    fig.tight_layout()
    return fig


def one_standard_error_curve(params, search, xlabel, ylabel, title):
    """Draw a cross-validated curve and the one-standard-error rule
    (chapter 5).

    ``search`` is an ``ml.grid_search`` result over ``params``: its means
    with one standard error each way, the line at the best mean plus its
    standard error, and the one-standard-error choice (a star).

    Returns
    -------
    matplotlib Figure
    """
    means = np.asarray(search.means)
    errors = np.asarray(search.standard_errors)
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    ax.errorbar(params, means, yerr=errors, fmt="o-", color="#08519c",
                capsize=4, label="10-fold mean ± 1 standard error")
    best = search.best_index
    ax.axhline(means[best] + errors[best], color="#d95f0e", ls="--",
               label="best mean + its standard error")
    ax.plot(search.one_standard_error_param,
            means[search.one_standard_error_index], "*", color="k", ms=15,
            label="one-standard-error choice")
    ax.set(xlabel=xlabel, ylabel=ylabel, title=title)
    ax.legend()
    fig.tight_layout()
    return fig
