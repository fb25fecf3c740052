"""Figures of chapter 13: class imbalance, thresholds and calibration.

Every function takes the numbers it draws as arguments (nothing is read from
a notebook's globals) and returns the matplotlib ``Figure``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np


def smote_points(x, y, new_x, new_y, classes, xlabel="maximum temperature "
                 "(standardized)", ylabel="precipitation (standardized)"):
    """Draw SMOTE's synthetic points of some classes over the training
    points (chapter 13).

    One panel per class in ``classes``: the training points of the other
    classes (grey dots), the synthetic points of the class (red crosses) and
    its original points (blue rings).

    Parameters
    ----------
    x : array of shape (P, 2)
        The original training points.
    y : array of shape (P,)
        Their integer labels.
    new_x : array of shape (Q, 2)
        The synthetic points.
    new_y : array of shape (Q,)
        Their labels.
    classes : dict from str to int
        Panel title (class name) and its label, in panel order.
    xlabel, ylabel : str

    Returns
    -------
    matplotlib Figure
        One axes per class, sharing both axes, each with three scatter
        collections (others, synthetic, originals) in that order.
    """
    fig, axes = plt.subplots(1, len(classes), figsize=(9.2, 3.7),
                             sharex=True, sharey=True, squeeze=False)
    for ax, (name, label) in zip(axes[0], classes.items()):
        mine, made = y == label, new_y == label
        ax.scatter(*x[~mine].T, s=6, color="#bdbdbd",
                   label="other training days")
        ax.scatter(*new_x[made].T, s=14, marker="x", color="#d7191c",
                   label=f"SMOTE points ({np.sum(made)})")
        ax.scatter(*x[mine].T, s=40, marker="o", facecolor="none",
                   edgecolor="#2c7bb6", linewidth=1.5,
                   label=f"{name} days ({np.sum(mine)})")
        ax.set(title=name, xlabel=xlabel)
        ax.legend(fontsize=9, loc="upper right")
    axes[0, 0].set_ylabel(ylabel)
    fig.suptitle("Synthetic points lie on segments between neighbouring days "
                 "of the same class")
    fig.tight_layout()
    return fig


def reliability_diagram(panels, class_name):
    """Draw reliability diagrams, one panel per title (chapter 13).

    Each series is a :class:`~mlrefined_lib.calibration.ReliabilityTable`:
    the mean predicted probability of each non-empty bin against the share
    of rows of the class in it, with the diagonal of a calibrated model. A
    series keeps its colour and marker in every panel, and its legend entry
    gives its expected calibration error.

    Parameters
    ----------
    panels : dict from str to dict from str to ReliabilityTable
        Panel title, then series label and its table, in drawing order.
    class_name : str
        The class whose probability was binned, for the axis labels.

    Returns
    -------
    matplotlib Figure
        One square axes per panel, sharing both axes (0 to 1), each with
        the diagonal first and then one line per series.
    """
    if not panels or not all(panels.values()):
        raise ValueError("reliability_diagram: give at least one panel, each with at least one series; found "
                         f"{ {title: len(series) for title, series in panels.items()} }.")
    labels = list(dict.fromkeys(label for series in panels.values() for label in series))
    styles = dict(zip(labels, zip(["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#a6761d"],
                                  ["o", "s", "^", "D", "v", "P"])))
    if len(labels) > len(styles):
        raise ValueError(f"reliability_diagram: at most {len(styles)} distinct series; found {len(labels)}.")
    fig, axes = plt.subplots(1, len(panels), figsize=(4.6 * len(panels), 4.4), sharex=True, sharey=True,
                             squeeze=False)
    for ax, (title, series) in zip(axes[0], panels.items()):
        ax.plot([0, 1], [0, 1], ":", color="#7f7f7f", label="calibrated")
        for label, table in series.items():
            used = table.counts > 0
            color, marker = styles[label]
            ax.plot(table.predicted[used], table.observed[used], marker=marker, color=color, markersize=6,
                    label=f"{label} (ECE {table.calibration_error:.3f})")
        ax.set(title=title, xlabel=f"predicted Pr({class_name})", xlim=(0, 1), ylim=(0, 1), aspect="equal")
        ax.legend(fontsize=9, loc="upper left")
    axes[0, 0].set_ylabel(f"observed share of {class_name}")
    fig.tight_layout()
    return fig
