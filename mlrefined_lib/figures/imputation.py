"""Figures of chapter 8: imputing missing values.

Every function takes the numbers it draws as arguments (nothing is read from
a notebook's globals) and returns the matplotlib ``Figure``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Patch

from .validation import paired_intervals

OBSERVED_COLOR, FILLED_COLOR, WARNING_COLOR = "#4575b4", "#fdae61", "#d7191c"


def mean_fill_histograms(observed, fill_value, filled_count, bins, xlabel):
    """Draw a column before and after mean imputation (chapter 8).

    Left: the histogram of the ``observed`` entries; right: the same, with
    ``filled_count`` entries equal to ``fill_value`` stacked on top
    (hatched). Both panels share the ``bins`` and the y axis.

    Returns
    -------
    matplotlib Figure
    """
    observed = np.asarray(observed, dtype=float)
    filled_label = f"filled with the mean ({filled_count})"
    fig, axes = plt.subplots(1, 2, figsize=(9.2, 3.1), sharey=True)
    axes[0].hist(observed, bins=bins, color=OBSERVED_COLOR, edgecolor="white")
    axes[0].set_title(f"Observed entries only ({observed.size} houses)")
    *_, bars = axes[1].hist(
        [observed, np.full(filled_count, fill_value)], bins=bins,
        stacked=True, color=[OBSERVED_COLOR, FILLED_COLOR],
        edgecolor="white", label=["observed", filled_label],
    )
    for bar in (b for b in bars[1] if b.get_height() > 0):
        bar.set(hatch="//", edgecolor="k")
    axes[1].set_title("After mean imputation")
    axes[1].legend(handles=[
        Patch(color=OBSERVED_COLOR, label="observed"),
        Patch(facecolor=FILLED_COLOR, edgecolor="k", hatch="//",
              label=filled_label),
    ], fontsize=9)
    for ax in axes:
        ax.set_xlabel(xlabel)
    axes[0].set_ylabel("number of houses")
    fig.tight_layout()
    return fig


def nan_kinds(labels, means_none, truly_missing, title):
    """Draw, per column, the NaNs that mean "none" and the truly missing
    ones, as stacked horizontal bars (chapter 8).

    The first column is drawn at the top; the x axis is symmetric-log. The
    figure is 5.2 inches wide (468 px at 90 dpi), so that a 390 px phone
    shows it whole, its text still at 8 px or more; the legend sits under
    the axes, where no bar runs.

    Returns
    -------
    matplotlib Figure
    """
    means_none = np.asarray(means_none)
    rows = np.arange(len(labels))[::-1]
    fig, ax = plt.subplots(figsize=(5.2, 7.0))
    ax.barh(rows, means_none, color="#abd9e9", edgecolor="k", linewidth=0.4,
            label='NaN means "none" (no pool, no garage, ...)')
    ax.barh(rows, truly_missing, left=means_none, color=WARNING_COLOR,
            edgecolor="k", linewidth=0.4, hatch="xx",
            label="truly missing (unknown)")
    ax.set_yticks(rows, labels, fontsize=9)
    ax.set_xscale("symlog", linthresh=10)
    ax.set_xlabel("houses with NaN (symmetric log scale)")
    ax.set_title(title, wrap=True)
    ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.4, -0.1),
              ncol=1, frameon=False)
    fig.tight_layout()
    return fig


def filled_on_the_mean(train, filled, test, fill_value):
    """Draw training cars, the ones whose input was filled, and test cars
    (chapter 8).

    ``train``, ``filled`` and ``test`` are pairs (horsepower, miles per
    gallon): the training cars with an observed input (circles), the
    training cars whose input was filled with ``fill_value`` (crosses, on a
    dotted line at that value) and the test cars (open triangles).

    Returns
    -------
    matplotlib Figure
    """
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.scatter(*train, s=14, color=OBSERVED_COLOR, alpha=0.6,
               label="training cars")
    ax.scatter(*test, s=18, marker="^", facecolors="none",
               edgecolors="#1a9641", label="test cars (horsepower observed)")
    ax.scatter(*filled, s=90, marker="X", color=WARNING_COLOR,
               edgecolors="k",
               label="training cars, horsepower filled with the mean")
    ax.axvline(fill_value, color=WARNING_COLOR, ls=":", lw=1)
    ax.set(xlabel="horsepower", ylabel="fuel economy (miles per gallon)",
           title="Auto MPG: the filled cars sit on the training mean")
    ax.legend(fontsize=9)
    fig.tight_layout()
    return fig


def imputer_comparison(scores, comparisons, pairs):
    """Draw each imputer's cross-validated error and the close paired
    comparisons (chapter 8).

    Left: ``scores``, a dict from imputer name to a result with ``mean`` and
    ``standard_error``; right: for each (a, b) in ``pairs``, the paired
    comparison ``comparisons[(a, b)]``: its 95% ``interval`` as a bar and
    its ``mean_difference`` as a diamond.

    Returns
    -------
    matplotlib Figure
    """
    names = list(scores)
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.2, 4.0))
    left.errorbar([scores[n].mean for n in names], np.arange(len(names)),
                  xerr=[scores[n].standard_error for n in names], fmt="o",
                  capsize=4)
    left.set_yticks(np.arange(len(names)), names, fontsize=9)
    left.set_xlabel("RMSE at hidden test entries (hp), ± 1 s.e.")
    left.set_title("Each imputer, 10 folds")
    paired_intervals([f"{a} − {b}" for a, b in pairs], [comparisons[pair] for pair in pairs],
                     "difference in RMSE (hp), a − b", "Close calls, paired by fold", ax=right)
    right.get_legend().remove()
    fig.legend(fontsize=9, loc="lower right", ncol=2)
    left.invert_yaxis()
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig
