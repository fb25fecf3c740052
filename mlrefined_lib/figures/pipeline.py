"""Figures of chapter 12: a preprocessing pipeline for real data.

Every function takes the numbers it draws as arguments (nothing is read from
a notebook's globals) and returns the matplotlib ``Figure``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
          "Oct", "Nov", "Dec")


def month_encodings(months, mean_temps, integer_fit, cyclic_fit,
                    unit="°C"):
    """Draw the month as one integer and as a point on a circle
    (chapter 12).

    Left: the mean temperature of each month against the integer month
    (1-12), with the least-squares fits on the integer month (a straight
    line) and on its sine and cosine (a closed wave), and the gap between
    December and January. Right: the twelve months at
    ``(cos 2πm/12, sin 2πm/12)``, where December sits next to January.

    Parameters
    ----------
    months : array of shape (12,)
        The months 1 ... 12.
    mean_temps, integer_fit, cyclic_fit : arrays of shape (12,)
        Mean temperature of each month, and the two fits' predictions.
    unit : str
        Unit of the temperatures, for the y label.

    Returns
    -------
    matplotlib Figure
        Two axes. The left has three lines (means, integer fit, cyclic fit);
        the right has the circle and the twelve months as one line of
        markers, equal aspect, limits (-1.35, 1.35) both ways.
    """
    months = np.asarray(months, dtype=float)
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(9.2, 3.6), gridspec_kw={"width_ratios": [1.7, 1]})
    left.plot(months, mean_temps, "o", color="k", label="monthly mean")
    left.plot(months, integer_fit, "--", color="#d95f02", lw=2,
              label="fit on the integer month")
    left.plot(months, cyclic_fit, "-", color="#1b9e77", lw=2,
              label="fit on (sin, cos) of the month")
    low = float(np.min([mean_temps, integer_fit, cyclic_fit]))
    left.annotate("", xy=(12, low - 1), xytext=(1, low - 1),
                  arrowprops={"arrowstyle": "<->", "color": "#7f7f7f"})
    left.text(6.5, low - 0.6, "Dec to Jan: 11 apart", ha="center",
              va="bottom", fontsize=9, color="#4d4d4d")
    left.set(xlabel="month (integer)", ylabel=f"daily maximum ({unit})",
             title="As an integer, the year is a line", xticks=months,
             xticklabels=[MONTHS[int(m) - 1][0] for m in months])
    left.set_ylim(low - 2.5, None)
    left.legend(fontsize=9, loc="upper left")
    angle = np.linspace(0, 2 * np.pi, 200)
    right.plot(np.cos(angle), np.sin(angle), color="#bdbdbd", lw=1)
    at = 2 * np.pi * months / 12
    right.plot(np.cos(at), np.sin(at), "o", color="#1b9e77")
    for m, a in zip(months, at):
        right.text(1.2 * np.cos(a), 1.2 * np.sin(a), MONTHS[int(m) - 1],
                   ha="center", va="center", fontsize=9)
    right.set(xlim=(-1.35, 1.35), ylim=(-1.35, 1.35), aspect="equal",
              xlabel="cos(2π month / 12)", ylabel="sin(2π month / 12)",
              title="On a circle, Dec meets Jan")
    fig.tight_layout()
    return fig


def smote_points(x, y, new_x, new_y, classes, xlabel="maximum temperature "
                 "(standardized)", ylabel="precipitation (standardized)"):
    """Draw SMOTE's synthetic points of some classes over the training
    points (chapter 12).

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
    """Draw reliability diagrams, one panel per title (chapter 12).

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
