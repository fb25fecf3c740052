"""Figures of chapter 12: a preprocessing pipeline for real data.

Every function takes the numbers it draws as arguments (nothing is read from
a notebook's globals) and returns the matplotlib ``Figure``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
          "Oct", "Nov", "Dec")
#: Fill colours and hatches of the bars, one per way of handling imbalance.
BAR_STYLES = (("#bdbdbd", ""), ("#fdae61", "//"), ("#2c7bb6", ".."),
              ("#abd9e9", "xx"))


def hourly_cycles(by_hour, by_day, title="Seattle, hourly temperatures of "
                  "2010", unit="°F"):
    """Draw the mean temperature by hour of the day and by day of the week
    (chapter 12).

    Parameters
    ----------
    by_hour : pandas Series
        Mean temperature indexed by hour (0-23).
    by_day : pandas Series
        Mean temperature indexed by day of the week (Monday = 0).
    title : str
        The figure's title.
    unit : str
        Unit of the temperatures, for the y label.

    Returns
    -------
    matplotlib Figure
        Two axes sharing the y axis: the hours (circles) and the weekdays
        (squares, labelled Mon ... Sun).
    """
    fig, axes = plt.subplots(1, 2, figsize=(9.2, 3.1), sharey=True)
    axes[0].plot(by_hour.index, by_hour.to_numpy(), "o-", color="#d95f02")
    axes[0].set(xlabel="hour of the day",
                ylabel=f"mean temperature ({unit})",
                title="By hour: a daily cycle", xticks=range(0, 24, 3))
    axes[1].plot(by_day.index, by_day.to_numpy(), "s-", color="#1b9e77")
    axes[1].set(xlabel="day of the week", title="By weekday: nothing",
                xticks=range(7),
                xticklabels=[WEEKDAYS[int(d)] for d in range(7)])
    fig.suptitle(title)
    fig.tight_layout()
    return fig


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


def f1_per_class(f1_by_name, classes, counts, ylabel="F1 on the validation "
                 "split", title="Seattle weather: F1 per class for four ways "
                 "of handling the imbalance"):
    """Draw grouped bars of the F1 of every class, one bar per way of
    handling the class imbalance (chapter 12).

    Parameters
    ----------
    f1_by_name : dict from str to array of shape (K,)
        F1 per class for each way (at most four).
    classes : list of K str
    counts : array of shape (K,)
        Days of each class, shown under its name.
    ylabel, title : str

    Returns
    -------
    matplotlib Figure
        One axes, y limits (0, 1.15), one bar container per way, in order.
    """
    fig, ax = plt.subplots(figsize=(8.5, 3.4))
    width, ways = 0.2, len(f1_by_name)
    for i, (name, f1) in enumerate(f1_by_name.items()):
        color, hatch = BAR_STYLES[i % len(BAR_STYLES)]
        positions = np.arange(len(classes)) + (i - (ways - 1) / 2) * width
        ax.bar(positions, np.asarray(f1), width, label=name, hatch=hatch,
               edgecolor="k", color=color)
    ax.set(xticks=range(len(classes)),
           xticklabels=[f"{c}\n({n} days)" for c, n in zip(classes, counts)],
           ylabel=ylabel, ylim=(0, 1.15), title=title)
    ax.legend(ncol=ways, fontsize=9, loc="upper center")
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
