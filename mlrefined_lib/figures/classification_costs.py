"""Figures of chapter 3, "Costs for classification".

Each function draws one figure and returns the matplotlib ``Figure``; the
notebook shows it. Labels are 0/1 and inputs have one feature, shape (P, 1).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..costs import class_probabilities, cross_entropy, misclassifications

__all__ = ["probability_curve", "weight_scale_frame"]

#: Marker and colour of class 0 and class 1 in every figure of the chapter.
CLASS_STYLES = [("o", "#4575b4"), ("s", "#d73027")]


def _labelled_points(ax, x, y, jitter, names, size):
    """Scatter one-feature points at height label + jitter, one series per class."""
    for k, (marker, color) in enumerate(CLASS_STYLES):
        mask = y == k
        ax.scatter(
            x[mask, 0], y[mask] + jitter[mask], s=size, marker=marker, c=color,
            edgecolors="k", linewidths=0.4 if size > 20 else 0.3,
            alpha=0.8 if size > 20 else 1.0, label=names[k],
        )


def probability_curve(x, y, w, *, jitter, x_range=(0.0, 2.7),
                      class_names=("not virginica", "virginica"),
                      xlabel="petal width (cm)",
                      title="Virginica or not, from the petal width alone"):
    """Draw labelled points, the fitted probability and the decision boundary (chapter 3).

    The points of each class are drawn at the height of their label (0 or 1)
    plus a small vertical ``jitter`` so that equal inputs stay visible; the
    curve is ``class_probabilities`` of the one-feature model ``w`` and the
    dashed vertical line is the boundary ``-w[0] / w[1]``.

    Parameters
    ----------
    x : array of shape (P, 1)
        One input feature.
    y : array of shape (P,)
        Labels 0/1.
    w : array of shape (2,)
        Bias and slope of the fitted model.
    jitter : array of shape (P,)
        Vertical offsets of the points (drawing only).
    x_range : (low, high)
        Horizontal limits; the curve is drawn over them.
    class_names : (str, str)
        Names of class 0 and class 1, for the legend.
    xlabel, title : str

    Returns
    -------
    matplotlib Figure
    """
    x, y, w = np.asarray(x, float), np.asarray(y, float), np.asarray(w, float)
    boundary = -w[0] / w[1]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    names = [f"{name} (label {k})" for k, name in enumerate(class_names)]
    _labelled_points(ax, x, y, np.asarray(jitter, float), names, size=22)
    grid = np.linspace(*x_range, 300)[:, None]
    ax.plot(grid[:, 0], class_probabilities(grid, w), lw=2.5, color="k",
            label=f"P({class_names[1]} | {xlabel.split(' (')[0]})")
    ax.axvline(boundary, ls="--", color="#1a9641", lw=2,
               label=f"boundary {boundary:.2f} cm")
    ax.axhline(0.5, ls=":", color="0.5", lw=1)
    ax.set(xlabel=xlabel, ylabel="label / probability", title=title)
    ax.legend(loc="center left", fontsize=9, framealpha=0.95)
    ax.set_xlim(*x_range)
    return fig


def weight_scale_frame(scale, separable, overlapping, *, scales, jitter,
                       minimizer_norm):
    """Draw one frame of the weight-scale slider: w = scale * u (chapter 3).

    Left and middle: the points of a separable and of an overlapping problem
    with the probability of the model ``scale * u``, its cost and its number
    of mistakes in the title. Right: both costs along their rays
    ``s * u`` for ``s`` in ``scales`` (log-log), with the current ``scale``
    marked and the overlapping problem's ``||w*||`` as a dotted line.

    Parameters
    ----------
    scale : float
        The weight norm ``||w||`` of this frame (``u`` has norm 1).
    separable, overlapping : tuple
        ``(x, y, u, xlabel, class_name, x_range)`` for each problem: inputs of
        shape (P, 1), labels 0/1 of shape (P,), the unit direction ``u`` of
        shape (2,), the x-axis label, the name of class 1 and the limits.
    scales : array
        The norms at which the cost curves of the right panel are drawn.
    jitter : array of shape (P,)
        Vertical offsets of the points (drawing only; both problems share P).
    minimizer_norm : float
        ``||w*||`` of the overlapping problem.

    Returns
    -------
    matplotlib Figure
    """
    scales = np.asarray(scales, float)
    fig, axes = plt.subplots(1, 3, figsize=(9.2, 2.7),
                             gridspec_kw={"width_ratios": [1, 1, 1.1]})
    kinds = ["separable", "overlapping"]
    curves = []
    for ax, kind, (x, y, u, xlabel, name, x_range) in zip(
            axes, kinds, [separable, overlapping]):
        x, y, u = np.asarray(x, float), np.asarray(y, float), np.asarray(u, float)
        g, w = cross_entropy(x, y), scale * u
        _labelled_points(ax, x, y, np.asarray(jitter, float),
                         [f"not {name}", name], size=14)
        grid = np.linspace(*x_range, 300)[:, None]
        ax.plot(grid[:, 0], class_probabilities(grid, w), color="k", lw=2,
                label="probability")
        ax.set_title(f"{kind}: cost {g(w):.2e}, misclassified "
                     f"{misclassifications(x, y)(w)}", fontsize=9)
        ax.set_xlim(*x_range)
        ax.set_ylim(-0.1, 1.35)
        ax.set_yticks([0, 0.5, 1])
        ax.set_xlabel(xlabel)
        ax.legend(loc="upper center", ncol=3, fontsize=9.5, handletextpad=0.2,
                  columnspacing=0.6)
        curves.append((g, u, name))
    axes[0].set_ylabel("label / probability")
    right = axes[2]
    for (g, u, name), kind, style, (marker, color) in zip(
            curves, kinds, ["-", "--"], CLASS_STYLES):
        right.loglog(scales, g.batch(scales[:, None] * u), style, lw=2,
                     color=color, label=f"{kind} ({name})")
        right.plot(scale, g(scale * u), marker, ms=8, color=color, mec="k")
    right.axvline(minimizer_norm, color="0.4", ls=":", lw=1.2,
                  label="||w*||, overlapping")
    right.set_ylim(3e-12, 30)
    ticks_x, ticks_y = [0.3, 1, 3, 10, 30, 100], [1e-10, 1e-8, 1e-6, 1e-4, 1e-2, 1.0]
    right.set_xticks(ticks_x, [f"{v:g}" for v in ticks_x])
    right.set_yticks(ticks_y, [f"{v:.0e}" for v in ticks_y])
    right.minorticks_off()
    right.set_xlabel("||w|| (log scale)")
    right.set_ylabel("cost (log scale)")
    right.set_title(f"||w|| = {scale:.3g}", fontsize=9)
    right.legend(loc="lower left", fontsize=9.5)
    fig.subplots_adjust(left=0.06, right=0.99, bottom=0.16, top=0.9, wspace=0.3)
    return fig
