"""Figures of chapter 10: feature selection by boosting.

Every function takes the numbers it draws as arguments (nothing is read from
a notebook's globals) and returns the matplotlib ``Figure``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

CHOSEN_COLOR, CANDIDATE_COLOR = "#d6604d", "#2166ac"


def residual_rounds(z, residual, order, weights, names, rounds=2):
    """Draw the first boosting rounds in the residual view (chapter 10).

    One row per round, one panel per feature: the residual before the round
    against the standardized feature, with the best line through the origin,
    slope $c^\\top r / c^\\top c$, for every unused feature (solid red for the
    chosen one, dashed black for the others); features used in earlier
    rounds are drawn as grey crosses, without a line.

    Parameters
    ----------
    z : array of shape (P, N)
        Standardized features.
    residual : array of shape (P,)
        The residual after round 0 (the output minus the bias).
    order, weights : sequences
        The features in the order boosting added them, and the weights, the
        bias first (``weights[m]`` belongs to round ``m``).
    names : list of str
        Feature names.
    rounds : int
        How many rounds (rows) to draw.

    Returns
    -------
    matplotlib Figure
    """
    z = np.asarray(z, dtype=float)
    residual = np.asarray(residual, dtype=float)
    fig, axes = plt.subplots(rounds, z.shape[1], figsize=(8.8, 2.5 * rounds),
                             sharey="row", squeeze=False)
    line_x = np.array([-2.5, 2.5])
    for row in range(rounds):
        m = row + 1
        for n, ax in enumerate(axes[row]):
            chosen = order[m - 1] == n
            used_before = n in list(order[: m - 1])
            ax.scatter(z[:, n], residual, s=14,
                       color="0.6" if used_before else CANDIDATE_COLOR,
                       marker="x" if used_before else "o")
            if not used_before:
                v = z[:, n] @ residual / (z[:, n] @ z[:, n])
                ax.plot(line_x, v * line_x, "-" if chosen else "--",
                        color=CHOSEN_COLOR if chosen else "k", lw=2,
                        label=f"best line, slope {v:+.2f}")
                ax.legend(fontsize=9, loc="upper left")
            state = "chosen" if chosen else (
                "already used" if used_before else "not chosen")
            ax.set_title(f"round {m}: {names[n]} ({state})", fontsize=10)
            ax.set_xlabel(f"standardized {names[n]}")
            ax.grid(alpha=0.3)
        axes[row, 0].set_ylabel(f"residual after round {m - 1}")
        residual = residual - weights[m] * z[:, order[m - 1]]
    fig.suptitle("Each round fits every unused feature to the residual and "
                 "keeps the best line")
    fig.tight_layout()
    return fig


def rounds_choice(train_costs, search, plateau, tick_labels, title,
                  train_label, ylim=(3000, 4500)):
    """Draw the training and cross-validated costs against the rounds
    (chapter 10).

    ``train_costs[m]`` is the training cost after round ``m`` (round 0: the
    bias alone); ``search`` is an ``ml.grid_search`` result over the rounds
    0, 1, ...: its means with one standard error each way, the line at the
    lowest mean plus its standard error, the lowest mean (a star) and the
    one-standard-error choice (a diamond). A dotted line marks the
    ``plateau`` round; ``tick_labels`` names each round and ``train_label``
    the training curve. Round 0 lies above
    ``ylim`` and is written out instead.

    Returns
    -------
    matplotlib Figure
    """
    rounds = np.arange(len(train_costs))
    means = np.asarray(search.means)
    errors = np.asarray(search.standard_errors)
    best, one_se = search.best_param, search.one_standard_error_param
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    ax.plot(rounds, train_costs, "-o", lw=2, mec="k", mew=0.5,
            label=train_label)
    ax.errorbar(rounds, means, yerr=errors, fmt="--s", lw=2, mec="k",
                mew=0.5, capsize=3, label="10-fold CV mean ± one standard error")
    ax.axhline(means[best] + errors[best], color="0.3", ls="-.", lw=1,
               label="lowest CV mean + one standard error")
    ax.plot(best, means[best], "*", ms=16, mfc="white", mec="k",
            label=f"lowest CV mean (round {best})")
    ax.plot(one_se, means[one_se], "D", ms=10, mfc=CHOSEN_COLOR, mec="k",
            label=f"one-standard-error choice (round {one_se})")
    ax.axvline(plateau, color="0.4", ls=":", lw=1.5,
               label=f"training gain below 1% (after round {plateau})")
    ax.set_ylim(*ylim)
    ax.text(1.3, ylim[1] - 100, f"bias only (off the scale):\nCV "
            f"{means[0]:.0f}, training {train_costs[0]:.0f}", fontsize=9,
            va="top")
    ax.set_xticks(rounds)
    ax.set_xticklabels(tick_labels, fontsize=9)
    ax.set_xlabel("round $m$ and the feature it added (fitted on all "
                  "patients)")
    ax.set_ylabel("mean squared error")
    ax.set_title(title)
    ax.legend(fontsize=9)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig
