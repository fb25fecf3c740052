"""Figures of chapter 5 (validation), and the map of the book's field (chapter 6).

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
    "13  class imbalance: how a classifier's scores are used",
]
COLUMN_COLORS = ("#c6dbef", "#fdd0a2", "#c7e9c0")


def field_map(columns=None, base=None):
    """Draw the map of the field: where the book's chapters sit (chapter 6).

    One panel per kind of feature work (by default features engineered by
    hand, features selected from many, features learned from the data), side
    by side, each a box listing its chapters, above a panel as wide as all of
    them: the band of the chapters that every kind relies on. The panels sit
    on one grid, so that a phone gets them stacked (:mod:`mlrefined_lib.narrow`).

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
        ``len(columns)`` axes for the columns, then one for the band, each
        with limits (0, 1) by (0, 1), its axis lines hidden and one box.
    """
    columns = FIELD_MAP if columns is None else columns
    base = FIELD_BASE if base is None else base
    count = len(columns)
    longest = max(len(lines) for lines in columns.values())
    fig = plt.figure(figsize=(8.8, 0.9 + 0.3 * (longest + 1) + 0.3 * len(base)))
    grid = fig.add_gridspec(2, count, height_ratios=[longest + 1, len(base) + 0.4])
    for n, (title, lines) in enumerate(columns.items()):
        ax = fig.add_subplot(grid[0, n])
        _box(ax, COLUMN_COLORS[n % len(COLUMN_COLORS)])
        rows = longest + 1  # the same spacing in every column
        ax.text(0.5, 1 - 0.5 / rows, title, ha="center", va="center",
                fontsize=11, fontweight="bold")
        for k, line in enumerate(lines):
            ax.text(0.5, 1 - (k + 1.5) / rows, line, ha="center",
                    va="center", fontsize=9.5,
                    style="italic" if line.startswith("beyond") else "normal")
    ax = fig.add_subplot(grid[1, :])
    _box(ax, "#f0f0f0")
    for k, line in enumerate(base):
        ax.text(0.5, 1 - (k + 0.7) / (len(base) + 0.4), line, ha="center",
                va="center", fontsize=9.5)
    fig.suptitle("where feature engineering sits: the chapters of this book",
                 fontsize=11)
    fig.tight_layout()
    return fig


def _box(ax, color):
    """A rounded box filling the axes, which show nothing else."""
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.axis("off")
    ax.add_patch(FancyBboxPatch((0.03, 0.03), 0.94, 0.94, boxstyle="round,pad=0.02",
                                facecolor=color, edgecolor="k", lw=0.8))


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
    fig, ax = plt.subplots(figsize=(5.2, 3.6))
    ax.errorbar(params, means, yerr=errors, fmt="o-", color="#08519c",
                capsize=4, label="10-fold mean ± 1 standard error")
    best = search.best_index
    ax.axhline(means[best] + errors[best], color="#d95f0e", ls="--",
               label="best mean + its standard error")
    ax.plot(search.one_standard_error_param,
            means[search.one_standard_error_index], "*", color="k", ms=15,
            label="one-standard-error choice")
    ax.set(xlabel=xlabel, ylabel=ylabel)
    ax.set_title(title, fontsize=10, wrap=True)
    ax.legend(fontsize=9)
    fig.tight_layout()
    return fig


def fold_counts(counts, share, ylabel, title):
    """Draw, per validation fold, how many rows of a rare class it holds (chapter 5).

    ``counts`` maps a name (a way of cutting the folds, "plain",
    "stratified") to one count per fold; the bars of the ways stand side by
    side at each fold (the first plain grey, the next blue and hatched), and
    a dotted line marks ``share``, the count a fold would hold if the class
    were spread evenly. The figure is narrow enough for a phone's column.

    Returns
    -------
    matplotlib Figure
    """
    ways = list(counts)
    folds = np.arange(1, len(counts[ways[0]]) + 1)
    width = 0.8 / len(ways)
    styles = [("#bdbdbd", None), ("#3182bd", "//"), ("#fdae6b", "..")]
    fig, ax = plt.subplots(figsize=(5.2, 3.3))
    for n, way in enumerate(ways):
        color, hatch = styles[n % len(styles)]
        ax.bar(folds + (n - (len(ways) - 1) / 2) * width, counts[way], width,
               color=color, hatch=hatch, label=way)
    ax.axhline(share, color="k", ls=":", label=f"even share: {share:g}")
    ax.set_xticks(folds)
    ax.set(xlabel="validation fold", ylabel=ylabel)
    ax.set_title(title, fontsize=10, wrap=True)
    ax.legend(loc="upper left", fontsize=9)
    fig.tight_layout()
    return fig


def paired_intervals(labels, comparisons, xlabel, title, ax=None):
    """Draw paired comparisons as their 95% intervals, with 0 marked (chapters 5 and 8).

    One row per label, the first at the top: the comparison's ``interval`` as
    a bar and its ``mean_difference`` as a diamond. An interval that crosses
    the line at 0 is within the noise. Draws on ``ax`` when given (and
    returns its figure); otherwise on a new figure narrow enough for a
    phone's column.

    Returns
    -------
    matplotlib Figure
    """
    if len(labels) != len(comparisons):
        raise ValueError(f"one label per comparison expected; found {len(labels)} labels "
                         f"and {len(comparisons)} comparisons.")
    if ax is None:
        _, ax = plt.subplots(figsize=(5.2, 1.2 + 0.5 * len(labels)))
    for row, comparison in enumerate(comparisons):
        ax.plot(comparison.interval, [row, row], color="#4575b4", lw=2.5,
                label="95% interval" if row == 0 else None)
        ax.plot(comparison.mean_difference, row, "D", color="#d7191c",
                label="mean difference" if row == 0 else None)
    ax.axvline(0, color="k", lw=0.8)
    ax.set_yticks(np.arange(len(labels)), labels, fontsize=9)
    ax.set_ylim(len(labels) - 0.5, -0.5)  # the first label on top
    ax.set_xlabel(xlabel, fontsize=9)
    ax.set_title(title, fontsize=10, wrap=True)
    ax.legend(fontsize=8, loc="best")
    ax.figure.tight_layout()
    return ax.figure


def forward_chaining(folds, scores, tick_days, tick_labels, xlabel, title):
    """Draw forward-chaining folds on a time line, with each fold's score (chapter 5).

    Fold i is a row: its training rows as a bar from day 0, its validation
    rows as a hatched bar where they start, and its score ("MSE ...")
    written after the last day. Rows are days counted from the first;
    ``tick_days`` and ``tick_labels`` place dates under the axis. The
    legend sits under the plot; the figure is narrow enough for a phone's
    column.

    Parameters
    ----------
    folds : list of (train_indices, validation_indices)
    scores : sequence of float, one per fold
    tick_days : sequence of int
    tick_labels : sequence of str

    Returns
    -------
    matplotlib Figure
    """
    days = max(int(np.max(val)) for _, val in folds) + 1
    fig, ax = plt.subplots(figsize=(5.3, 0.9 + 0.45 * len(folds)))
    for i, (train, val) in enumerate(folds):
        ax.barh(i, len(train), left=0, color="#9ecae1",
                label="training days" if i == 0 else None)
        ax.barh(i, len(val), left=val[0], color="#d95f0e", hatch="//",
                label="validation days" if i == 0 else None)
        ax.text(days + 15, i, f"MSE {scores[i]:.1f}", va="center", fontsize=9)
    ax.set_xticks(tick_days, tick_labels, fontsize=9)
    ax.set_xlim(0, days + 260)
    ax.set_yticks(range(len(folds)), [f"fold {i + 1}" for i in range(len(folds))])
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10, wrap=True)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=2, fontsize=9)
    fig.tight_layout()
    return fig
