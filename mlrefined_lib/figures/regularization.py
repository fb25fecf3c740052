"""Figures of chapter 11: feature selection by regularization.

Every function takes the numbers it draws as arguments (nothing is read from
a notebook's globals) and returns the matplotlib ``Figure``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from mlrefined_lib import plotting

L0_COLOR, L1_COLOR, L2_COLOR = "#7b3294", "#d7191c", "#2c7bb6"


def three_penalties(w_grid):
    """Draw the l0, l1 and squared l2 penalties of one weight (chapter 11).

    The l0 penalty is drawn as two flat pieces at height 1 with an open
    circle at (0, 1) and a filled one at (0, 0); then |w| (dashed) and w²
    (dotted), all over ``w_grid``.

    Returns
    -------
    matplotlib Figure
    """
    w_grid = np.asarray(w_grid, dtype=float)
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for side in (w_grid < 0, w_grid > 0):  # l0 jumps to 0 at w = 0
        ax.plot(w_grid[side], np.ones(side.sum()), "-", lw=2.2,
                color=L0_COLOR,
                label="l0: 1 if w is not 0" if side[0] else None)
    ax.plot([0], [1], "o", ms=7, mfc="white", mec=L0_COLOR, zorder=4)
    ax.plot([0], [0], "o", ms=7, color=L0_COLOR, zorder=4)
    ax.plot(w_grid, np.abs(w_grid), "--", lw=2.2, color=L1_COLOR,
            label="l1: |w|")
    ax.plot(w_grid, w_grid**2, ":", lw=2.6, color=L2_COLOR,
            label="squared l2: w²")
    ax.set_ylim(-0.1, 2.1)
    ax.set(xlabel="weight $w$", ylabel="penalty $h(w)$", title="Three penalties for one weight")
    ax.legend(fontsize=9)
    ax.grid(alpha=0.3)
    return fig


def penalty_geometry(grid_w1, grid_w2, grid_g, levels, lasso_path,
                     ridge_path, unregularized, lam, index):
    """Draw one frame of the lasso and ridge geometry (chapter 11).

    Left: the l1 ball through the lasso minimizer ``lasso_path[index]``;
    right: the l2 ball through the ridge minimizer ``ridge_path[index]``;
    both over the contours of the cost (``grid_g`` on the grid of the two
    weights, at ``levels``), with the paths of minimizers (one row of two
    weights per penalty) and the unregularized minimizer. ``lam`` is the
    penalty shown in the titles. The margins are fixed so that frames line
    up.

    Returns
    -------
    matplotlib Figure
    """
    fig, axes = plt.subplots(1, 2, figsize=(9.2, 4.5))
    for ax, norm, path, label in [
        (axes[0], "l1", lasso_path, "l1 (lasso)"),
        (axes[1], "l2", ridge_path, "squared l2 (ridge)"),
    ]:
        w = np.asarray(path[index]) + 0.0
        plotting.penalty_ball_panel(
            ax, grid_w1, grid_w2, grid_g, levels, w, norm=norm,
            unregularized=unregularized, path=path,
            title=f"{label}, lambda = {lam:.2f}\nw = ({w[0]:.3f}, {w[1]:.3f})",
        )
    fig.subplots_adjust(left=0.07, right=0.98, bottom=0.11, top=0.88,
                        wspace=0.22)
    return fig


def lasso_convergence(gaps, weight_runs, feature_name):
    """Draw how subgradient and proximal methods approach the lasso
    minimum (chapter 11).

    Left: ``gaps``, a dict from method to its cost minus the minimum per
    step (log scale); right: ``weight_runs``, a dict from method to the
    weight of one feature per step, a feature whose optimal weight is 0
    (named ``feature_name``). Proximal methods (their label contains
    "proximal") are drawn thick and on top.

    Returns
    -------
    matplotlib Figure
    """
    fig, axes = plt.subplots(1, 2, figsize=(9.2, 3.3))
    plotting.cost_histories(gaps, ax=axes[0], log=True,
                            ylabel="$f(w^t) - \\min f$",
                            title="Distance to the minimum of the lasso cost")
    axes[0].set_xlabel("step $t$")  # t counts the steps (the book's notation)
    for (label, weights), style in zip(weight_runs.items(),
                                       ["-", "--", "-."]):
        proximal = "proximal" in label
        axes[1].plot(weights, style, lw=2.6 if proximal else 1.2,
                     label=label, zorder=5 if proximal else 2)
    axes[1].set_ylim(-0.6, 0.6)
    axes[1].set_xlabel("step $t$")
    axes[1].set_ylabel(f"weight of {feature_name}")
    axes[1].set_title(
        f"A weight whose optimal value is 0 ({feature_name})")
    axes[1].legend(fontsize=9)
    axes[1].grid(alpha=0.3)
    fig.tight_layout()
    return fig


def lambda_choice(lams, train_errors, search, ylim=(2700, 4200),
                  train_label="training (442 points)",
                  title="Lasso on diabetes: error against λ"):
    """Draw the training and cross-validated errors against the penalty
    (chapter 11).

    ``search`` is an ``ml.grid_search`` result over ``lams`` (listed from the
    largest penalty down): the mean with a band of one standard error, the
    line at the lowest mean plus its standard error, the lowest mean (a
    star) and the one-standard-error choice (a diamond). The x axis is
    logarithmic and runs from ``lams[0]`` to ``lams[-1]``. The figure is
    5.2 inches wide, with the legend in the upper right, where the curves
    have flattened below it: shown at 72% on a 390 px phone it fits the
    column, legend included, without scrolling.

    Returns
    -------
    matplotlib Figure
    """
    lams = np.asarray(lams)
    means = np.asarray(search.means)
    errors = np.asarray(search.standard_errors)
    best, simplest = search.best_index, search.one_standard_error_index
    fig, ax = plt.subplots(figsize=(5.2, 4.2))
    ax.plot(lams, train_errors, "-", lw=2, color=L2_COLOR, label=train_label)
    ax.plot(lams, means, "--", lw=2, color=L1_COLOR, label="10-fold CV mean")
    ax.fill_between(lams, means - errors, means + errors, color=L1_COLOR,
                    alpha=0.15, label="± one standard error")
    ax.axhline(means[best] + errors[best], color="0.3", ls="-.", lw=1,
               label="lowest mean + one s.e.")
    ax.plot(lams[best], means[best], "*", ms=14, mfc="white", mec="k",
            label=f"lowest CV mean, λ = {lams[best]:.2f}")
    ax.plot(lams[simplest], means[simplest], "D", ms=9, mfc="#fdae61",
            mec="k", label=f"one-s.e. choice, λ = "
            f"{lams[simplest]:.2f}")
    ax.set_xscale("log")
    ax.set_xlim(lams[0], lams[-1])
    ax.set_ylim(*ylim)
    ax.set(xlabel="penalty weight $\\lambda$ (log scale, decreasing)", ylabel="mean squared error", title=title)
    ax.legend(fontsize=9, loc="upper right")
    ax.grid(alpha=0.3)
    return fig
