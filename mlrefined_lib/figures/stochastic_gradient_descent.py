"""Figures of chapter 2, "Stochastic and mini-batch gradient descent".

Each function draws one figure and returns the matplotlib ``Figure``; the
notebook shows it. Runs are the ``MinibatchHistory`` results of
:func:`mlrefined_lib.minibatch_gradient_descent` on a cost of two weights.
"""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np

from .. import plotting
from ..optimizers import minibatch_gradient_descent

__all__ = ["paths_by_batch_size", "batch_cost_histories", "batch_size_frame"]

#: Line style, end marker and whether to dot every step, for up to three runs.
PATH_STYLES = [("-", "X", True), ("--", "s", False), (":", "D", False)]


def paths_by_batch_size(g, runs: Mapping, *, minimum, w0_range, w1_range,
                        levels, title):
    """Draw the step-by-step paths of several runs on one contour plot (chapter 2).

    Each run's ``step_weights`` (recorded with ``record_steps=True``) is drawn
    green to red with its own line style and end marker; the shared start is
    marked once, the minimum with a star, and the legend sits right of the plot.

    Parameters
    ----------
    g : callable
        The cost of two weights.
    runs : mapping of str to MinibatchHistory
        Up to three runs, by legend name, all started at the same weights.
    minimum : array of shape (2,)
    w0_range, w1_range : (low, high)
        Axis limits.
    levels : array
        Contour levels.
    title : str

    Returns
    -------
    matplotlib Figure
    """
    if len(runs) > len(PATH_STYLES):
        raise ValueError(f"at most {len(PATH_STYLES)} runs; found {len(runs)}.")
    fig, ax = plt.subplots(figsize=(8.2, 5))
    plotting.contour_with_path(
        g, w0_range, w1_range, levels=levels, minimum=minimum, ax=ax,
        equal_aspect=True, legend=False, title=title,
    )
    for (name, run), (style, marker, dots) in zip(runs.items(), PATH_STYLES):
        plotting.add_path(
            ax, run.step_weights, label=name, linestyle=style,
            end_marker=marker, points=dots, start=False,
            linewidth=1.6 if dots else 1.2,
        )
    start = next(iter(runs.values())).step_weights[0]
    ax.plot(*start, "o", ms=9, mfc=plotting.PATH_COLORS(0.0), mec="k",
            zorder=5, label=f"start (all {len(runs)} runs)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=9,
              framealpha=0.95)
    fig.tight_layout()
    return fig


def batch_cost_histories(runs: Mapping, *, minimum_cost, epochs):
    """Draw what each run sees (batch costs) beside the cost on all points (chapter 2).

    Left: every step's ``step_costs`` against the epoch (step number divided by
    the steps per epoch). Right: ``costs`` on all the points once per epoch.
    Both on log scales, with the minimum cost as a dash-dotted line.

    Parameters
    ----------
    runs : mapping of str to MinibatchHistory
        Up to three runs, by legend name.
    minimum_cost : float
    epochs : int
        Number of epochs of every run (the horizontal limit).

    Returns
    -------
    matplotlib Figure
    """
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.2, 3.2))
    for i, (name, run) in enumerate(runs.items()):
        style = ["-", "--", ":"][i]
        when = np.arange(len(run.step_costs)) / run.steps_per_epoch
        left.semilogy(when, run.step_costs, style, lw=1.0 if i == 2 else 1.6,
                      label=name)
        right.semilogy(np.arange(len(run.costs)), run.costs, style,
                       marker="osD"[i], ms=5, lw=1.6, label=name)
    for ax, title in [(left, "cost of the batch, at every step"),
                      (right, "cost on all points, once per epoch")]:
        ax.axhline(minimum_cost, color="k", lw=1, ls="-.", label="minimum cost")
        ax.set_xlabel("epoch")
        ax.set_title(title)
        ax.set_xlim(0, epochs)
    left.set_ylim(1e-4, 1e3)
    left.set_ylabel("cost (log scale)")
    right.legend(loc="upper right", fontsize=9)
    fig.tight_layout()
    return fig


def batch_size_frame(g, batch_size, *, alpha, epochs, minimum, w0_range,
                     w1_range, levels, cost_limits=(0.2, 100.0)):
    """Draw one frame of the batch-size slider (chapter 2).

    Runs ``minibatch_gradient_descent`` from zero weights with the given batch
    size, then draws its path on the contour plot (left) and the cost on all
    points after every step (right, fixed limits in every frame).

    Parameters
    ----------
    g : Cost
        The cost of two weights (a library cost, with ``.batch``).
    batch_size : int
    alpha : float
        Fixed learning rate.
    epochs : int
    minimum : array of shape (2,)
    w0_range, w1_range : (low, high)
    levels : array
        Contour levels, the same in every frame.
    cost_limits : (low, high)
        Vertical limits of the cost panel.

    Returns
    -------
    matplotlib Figure
    """
    run = minibatch_gradient_descent(g, np.zeros(2), alpha, epochs,
                                     int(batch_size), record_steps=True)
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(9, 3.8), gridspec_kw={"width_ratios": [1.1, 1]})
    distance = np.linalg.norm(run.final_weights - np.asarray(minimum, float))
    plotting.contour_with_path(
        g, w0_range, w1_range, levels=levels, minimum=minimum, ax=left,
        equal_aspect=True, legend=False, num=120,
        title=(f"b = {batch_size}: {len(run.step_costs)} steps, ends "
               f"{distance:.2f} from w*"),
    )
    # dots only on short paths
    plotting.add_path(left, run.step_weights, points=len(run.step_costs) <= 60)
    steps = np.arange(len(run.step_weights)) / run.steps_per_epoch
    right.semilogy(steps, g.batch(run.step_weights), "-", color="#d7191c",
                   lw=1.2, label="cost on all points")
    right.axhline(g(minimum), color="k", ls="--", lw=1, label="minimum cost")
    right.set_ylim(*cost_limits)
    right.set_xlim(0, epochs)
    right.set(xlabel="epoch", ylabel="cost $g(w)$ (log scale)", title=f"{run.steps_per_epoch} steps per epoch")
    right.legend(loc="upper right", fontsize=9)
    fig.subplots_adjust(left=0.07, right=0.98, bottom=0.14, top=0.9,
                        wspace=0.28)
    return fig
