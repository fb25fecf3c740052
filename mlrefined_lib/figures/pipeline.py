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
