"""Figures of chapter 4: polynomial features, learning curves, early stopping.

Every function takes the numbers it draws as arguments (nothing is read from
a notebook's globals) and returns the matplotlib ``Figure``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FormatStrFormatter, NullFormatter

TRAIN_COLOR, VAL_COLOR, FIT_COLOR = "#2c7bb6", "#fdae61", "#d7191c"
TRUE_COLOR = "0.45"


def draw_fit(ax, grid_x, true_y, train, validation, fit_y, label, xlim, ylim):
    """Draw data, true curve and one fitted curve on ``ax`` (chapter 4).

    Parameters
    ----------
    ax : matplotlib Axes
    grid_x, true_y : arrays of shape (G,)
        The inputs of a fine grid and the true curve on it (dashed).
    train, validation : pairs (x, y) of arrays of shape (P,)
        Training points (circles) and validation points (triangles).
    fit_y : array of shape (G,)
        The fitted curve on the grid, drawn last (``ax.lines[-1]``).
    label : str
        Legend label of the fitted curve.
    xlim, ylim : pairs of floats

    Returns
    -------
    matplotlib Axes
    """
    ax.plot(grid_x, true_y, "--", color=TRUE_COLOR, lw=1.5, label="true curve")
    for (x, y), marker, size, color, name in (
        (train, "o", 22, TRAIN_COLOR, "training"),
        (validation, "^", 26, VAL_COLOR, "validation"),
    ):
        ax.scatter(x, y, s=size, marker=marker, color=color, edgecolors="k",
                   linewidths=0.4, label=name, zorder=3)
    ax.plot(grid_x, fit_y, "-", color=FIT_COLOR, lw=2, label=label)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_xlabel("input $x$")
    ax.set_ylabel("output $y$")
    return ax


def fits_by_degree(grid_x, true_y, train, validation, fits, titles, xlim,
                   ylim):
    """Draw one panel per fitted polynomial, side by side (chapter 4).

    ``fits`` maps a legend label to the fitted curve on ``grid_x``; ``titles``
    gives one title per panel. The other arguments are those of
    :func:`draw_fit`.

    Returns
    -------
    matplotlib Figure
    """
    fig, axes = plt.subplots(1, len(fits), figsize=(8.8, 3.1), sharey=True,
                             squeeze=False)
    for ax, (label, fit_y), title in zip(axes[0], fits.items(), titles):
        draw_fit(ax, grid_x, true_y, train, validation, fit_y, label, xlim,
                 ylim)
        ax.set_title(title, fontsize=9)
    axes[0, 0].legend(loc="upper left", fontsize=9)
    fig.tight_layout()
    return fig


def degree_slider_frames(grid_x, true_y, train, validation, fits,
                         train_errors, val_errors, noise_level, xlim, ylim,
                         error_limits):
    """Build the degree slider's figure and its frame function (chapter 4).

    Left: the fit of one degree, with its errors in the title; right: the
    training and validation errors against the degree (log scale), with the
    current degree marked. ``fits`` maps each degree 1, 2, ... to its fitted
    curve on ``grid_x``; ``train_errors[d - 1]`` and ``val_errors[d - 1]``
    are the errors of degree ``d``.

    Returns
    -------
    callable
        ``frame(degree)`` updates the figure and returns the matplotlib
        Figure; the figure itself is closed (only its frames are shown).
    """
    degrees = np.arange(1, len(train_errors) + 1)
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(8.8, 3.7), gridspec_kw={"width_ratios": [1.25, 1]}
    )
    plt.close(fig)
    first = min(fits)
    draw_fit(left, grid_x, true_y, train, validation, fits[first],
             f"degree {first} fit", xlim, ylim)
    fit_line = left.lines[-1]
    right.semilogy(degrees, train_errors, "o-", color=TRAIN_COLOR, ms=4,
                   label="training")
    right.semilogy(degrees, val_errors, "^--", color=VAL_COLOR, ms=5,
                   label="validation")
    right.axhline(noise_level, color=TRUE_COLOR, ls=":", lw=1.2,
                  label="noise level")
    right.legend(loc="upper left", fontsize=9)
    current = right.axvline(first, color="k", lw=1)
    (train_marker,) = right.plot([first], [train_errors[first - 1]], "o",
                                 color=TRAIN_COLOR, ms=9, mec="k")
    (val_marker,) = right.plot([first], [val_errors[first - 1]], "^",
                               color=VAL_COLOR, ms=10, mec="k")
    right.set_ylim(*error_limits)
    right.set_xlim(0, len(degrees) + 1)
    right.set_xlabel("degree")
    right.set_ylabel("mean squared error (log scale)")
    right.set_title("errors against the degree", fontsize=9)
    fig.subplots_adjust(left=0.07, right=0.98, bottom=0.13, top=0.91,
                        wspace=0.28)

    def frame(degree):
        fit_line.set_ydata(fits[degree])
        fit_line.set_label(f"degree {degree} fit")
        left.legend(loc="upper left", fontsize=9)
        left.set_title(
            f"degree {degree}: train MSE {train_errors[degree - 1]:.3f}, "
            f"validation MSE {val_errors[degree - 1]:.3g}",
            fontsize=9,
        )
        current.set_xdata([degree, degree])
        train_marker.set_data([degree], [train_errors[degree - 1]])
        val_marker.set_data([degree], [val_errors[degree - 1]])
        return fig

    frame.figure = fig
    return frame


def learning_curves(curves, titles, noise_level, ylim=(0.2, 1e4)):
    """Draw learning curves side by side, log scale (chapter 4).

    ``curves`` is a list of objects with ``sizes``, ``train_errors`` and
    ``validation_errors`` (as returned by ``ml.learning_curve``), one panel
    each, titled by ``titles``.

    Returns
    -------
    matplotlib Figure
    """
    fig, axes = plt.subplots(1, len(curves), figsize=(8.8, 3.3), sharey=True,
                             squeeze=False)
    for ax, curve, title in zip(axes[0], curves, titles):
        ax.semilogy(curve.sizes, curve.train_errors, "o-", color=TRAIN_COLOR,
                    label="training error")
        ax.semilogy(curve.sizes, curve.validation_errors, "^--",
                    color=VAL_COLOR, ms=7, label="validation error")
        ax.axhline(noise_level, color=TRUE_COLOR, ls=":", lw=1.2,
                   label=r"noise level $\sigma^2$")
        ax.set_ylim(*ylim)
        ax.set_xlabel("training points $P$")
        ax.set_title(title)
        ax.legend(loc="upper right", fontsize=9)
    axes[0, 0].set_ylabel("mean squared error (log scale)")
    fig.tight_layout()
    return fig


def bias_variance(grid_x, true_y, simple_fits, flexible_fits, labels,
                  degrees, decomposition, irreducible, xlim, ylim):
    """Draw simulated fits and the bias-variance decomposition (chapter 4).

    Left: the fits of a simple and a flexible model to many simulated
    training sets (one column of ``simple_fits`` / ``flexible_fits`` per set,
    rows on ``grid_x``), with the true curve; ``labels`` names the two
    models. Right: bias², variance, the irreducible error, their sum and the
    measured test error against the degree; ``decomposition`` has one row
    (bias², variance, measured) per degree.

    Returns
    -------
    matplotlib Figure
    """
    decomposition = np.asarray(decomposition)
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.8, 3.1))
    left.plot(grid_x, simple_fits, "-", color=TRAIN_COLOR, lw=0.8, alpha=0.6)
    left.plot(grid_x, flexible_fits, ":", color=FIT_COLOR, lw=0.9, alpha=0.7)
    left.plot(grid_x, true_y, "k--", lw=2)
    left.plot([], [], "-", color=TRAIN_COLOR, label=labels[0])
    left.plot([], [], ":", color=FIT_COLOR, label=labels[1])
    left.plot([], [], "k--", label="true curve")
    left.set_xlim(*xlim)
    left.set_ylim(*ylim)
    left.set_xlabel("input $x$")
    left.set_ylabel("fitted output")
    left.set_title(f"fits to {np.shape(simple_fits)[1]} simulated training "
                   "sets")
    left.legend(loc="upper center", fontsize=9)
    total = decomposition[:, 0] + decomposition[:, 1] + irreducible
    right.semilogy(degrees, decomposition[:, 0], "s-", color=TRAIN_COLOR,
                   label="bias$^2$")
    right.semilogy(degrees, decomposition[:, 1], "o-", color=FIT_COLOR,
                   label="variance")
    right.axhline(irreducible, color=TRUE_COLOR, ls=":",
                  label="irreducible error")
    right.semilogy(degrees, total, "-", color="k", lw=3, alpha=0.35,
                   label="sum of the three")
    right.semilogy(degrees, decomposition[:, 2], "x", color="k", ms=8,
                   label="measured test error")
    right.set(xlabel="degree", ylabel="error (log scale)", title="bias falls, variance grows")
    right.legend(loc="center right", fontsize=9)
    fig.tight_layout()
    return fig


def early_stopping_run(train_costs, validation_costs, best_epoch, title,
                       grid_x, true_y, points, fits, xlim, ylim):
    """Draw an early-stopping run and the fits it passes (chapter 4).

    Left: training and validation costs against the epoch (log-log, epoch 0
    left out), the best epoch starred, titled ``title``; right: the true
    curve, the training ``points`` (a pair x, y) and the fitted curves on
    ``grid_x``, given as ``fits``, a dict from legend label to curve (three
    curves: drawn solid black, dash-dot red and dotted purple).

    Returns
    -------
    matplotlib Figure
    """
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.8, 3.1))
    epochs = np.arange(len(train_costs))
    left.loglog(epochs[1:], train_costs[1:], "-", color=TRAIN_COLOR, lw=2,
                label="training")
    left.loglog(epochs[1:], validation_costs[1:], "--", color=VAL_COLOR,
                lw=2.5, label="validation")
    left.plot([best_epoch], [validation_costs[best_epoch]], "*", color="k",
              ms=14, label=f"best epoch ({best_epoch})")
    left.set(xlabel="epoch (log scale)", ylabel="mean squared error (log scale)", title=title)
    left.legend(loc="upper right", fontsize=9)
    right.plot(grid_x, true_y, "--", color=TRUE_COLOR, lw=1.5,
               label="true curve")
    right.scatter(*points, s=24, color=TRAIN_COLOR, edgecolors="k",
                  linewidths=0.4, label=f"{len(points[0])} training points",
                  zorder=3)
    styles = (("-", "k", 2), ("-.", FIT_COLOR, 1.8), (":", "#7b3294", 2))
    for (label, fit_y), (style, color, width) in zip(fits.items(), styles):
        right.plot(grid_x, fit_y, style, color=color, lw=width, label=label)
    right.set_xlim(*xlim)
    right.set_ylim(*ylim)
    right.set(xlabel="input $x$", ylabel="output $y$", title="the fits at three moments")
    right.legend(loc="upper left", fontsize=9)
    fig.tight_layout()
    return fig


def noisy_validation_curve(train_costs, validation_costs, first_rise,
                           best_epoch, ylim=(0.3, 20)):
    """Draw a mini-batch run's costs, the first rise and the best epoch
    (chapter 4).

    The epoch kept by stopping at the first rise (``first_rise - 1``) is
    marked by a triangle, the best epoch by a star.

    Returns
    -------
    matplotlib Figure
    """
    fig, ax = plt.subplots(figsize=(7.5, 3.9))
    epochs = np.arange(len(train_costs))
    ax.semilogy(epochs, train_costs, "-", color=TRAIN_COLOR, lw=1,
                label="training")
    ax.semilogy(epochs, validation_costs, "--", color=VAL_COLOR, lw=1.5,
                label="validation")
    kept = first_rise - 1
    ax.plot([kept], [validation_costs[kept]], "v", color=FIT_COLOR, ms=11,
            mec="k",
            label=f"kept when stopping at the first rise (epoch {kept})")
    ax.plot([best_epoch], [validation_costs[best_epoch]], "*", color="k",
            ms=15, label=f"best epoch ({best_epoch})")
    ax.set_ylim(*ylim)
    ax.set_xlabel("epoch")
    ax.set_ylabel("mean squared error (log scale)")
    ax.set_title(
        "mini-batch gradient descent (batches of 3): a noisy validation curve"
    )
    ax.legend(loc="upper right", fontsize=9)
    fig.tight_layout()
    return fig


def penalty_choice(lambdas, search, train_errors, validation_errors,
                   expected_errors, ylim=(0.2, 25)):
    """Draw the errors of ridge against the penalty (chapter 4).

    ``search`` is an ``ml.grid_search`` result over ``lambdas`` (its
    ``means``, ``standard_errors``, ``best_index`` and
    ``one_standard_error_index`` are drawn: a band of one standard error, and
    the two choices marked). The training, validation and expected errors
    are drawn against the same penalties (log-log).

    Returns
    -------
    matplotlib Figure
    """
    lambdas = np.asarray(lambdas)
    means, errors = np.asarray(search.means), np.asarray(search.standard_errors)
    fig, ax = plt.subplots(figsize=(7.2, 4.4))
    ax.fill_between(lambdas, np.maximum(means - errors, 0.05), means + errors,
                    color="#abd9e9", alpha=0.6,
                    label="5-fold mean ± 1 SE (15 points)")
    ax.loglog(lambdas, means, "s-", color=TRAIN_COLOR, ms=4)
    ax.loglog(lambdas, train_errors, "o-", color="0.35", ms=3,
              label="training (15 points)")
    ax.loglog(lambdas, validation_errors, "^--", color=VAL_COLOR, ms=5,
              label="validation (30 points)")
    ax.loglog(lambdas, expected_errors, "k:", lw=2,
              label="expected, new points")
    for index, marker, name in (
        (search.one_standard_error_index, "*", "one-SE choice"),
        (search.best_index, "X", "lowest 5-fold mean"),
    ):
        ax.plot([lambdas[index]], [means[index]], marker, color="k", ms=13,
                label=f"{name} ({lambdas[index]:.2g})", zorder=4)
    ax.set(xlabel=r"penalty $\lambda$ on the mean cost (log scale)", ylabel="mean squared error (log scale)",
           title="ridge on degree 8, 15 points: choosing the penalty")
    ax.set_ylim(*ylim)
    ax.set_yticks([0.2, 0.5, 1, 2, 5, 10])
    ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.legend(loc="upper center", fontsize=9, ncol=2)
    fig.tight_layout()
    return fig


def why_validation_rises(runs, titles):
    """Draw runs whose validation error rises for different reasons, one panel each (chapter 4).

    Each run (an ``ml.early_stopping`` result, or anything with
    ``train_costs``, ``validation_costs`` and ``best_epoch``) gets a panel
    titled by ``titles``: its training and validation errors against the
    epoch (log-log, epoch 0 left out) and its best epoch starred. The panels
    share their y axis, so that a rise in one reads against the other.

    Returns
    -------
    matplotlib Figure
    """
    fig, axes = plt.subplots(1, len(runs), figsize=(8.8, 3.2), squeeze=False)
    for ax, run, title in zip(axes[0], runs, titles):
        epochs = np.arange(len(run.train_costs))
        ax.loglog(epochs[1:], run.train_costs[1:], "-", color=TRAIN_COLOR,
                  lw=2, label="training")
        ax.loglog(epochs[1:], run.validation_costs[1:], "--",
                  color=VAL_COLOR, lw=2.5, label="validation")
        best = run.best_epoch
        if best > 0:
            ax.plot([best], [run.validation_costs[best]], "*", color="k",
                    ms=13, label=f"best epoch ({best})")
        ax.set_xlabel("epoch (log scale)")
        ax.set_title(title, fontsize=10)
        ax.legend(loc="upper center", fontsize=9)
    axes[0, 0].set_ylabel("mean squared error (log scale)")
    fig.tight_layout()
    return fig
