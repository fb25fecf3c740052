"""Figures used throughout the book: contour plots with descent paths, cost
histories and per-feature histograms (chapter 1 onwards).

The math lives in :mod:`mlrefined_lib.costs` and :mod:`mlrefined_lib.optimizers`; this module only draws.
Conventions: filled contours run light to dark Blues (dark = high cost); a
descent path runs green (first step) to red (last step) and its start and end
are also marked by shape (circle, cross) and named in the legend, so colour is
never the only carrier of meaning.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.colors import LinearSegmentedColormap

from ._validation import as_inputs

__all__ = [
    "PATH_COLORS",
    "cost_grid",
    "contour_levels",
    "contour_with_path",
    "add_path",
    "cost_histories",
    "feature_histograms",
]

#: Green (first step) to red (last step).
PATH_COLORS = LinearSegmentedColormap.from_list("path", ["#1a9641", "#fdae61", "#d7191c"])
_LINE_STYLES = ["-", "--", "-.", ":"]


def cost_grid(
    g: Callable,
    w0_range: tuple[float, float],
    w1_range: tuple[float, float],
    num: int = 200,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Evaluate a cost of two weights on a ``num × num`` grid.

    Uses ``g.batch`` (vectorized; O(grid) for least squares) when the cost has
    it, and a plain loop over grid points otherwise.

    Returns
    -------
    w0, w1, values : arrays of shape (num, num)
    """
    if num < 2:
        raise ValueError(f"num must be at least 2; found {num}.")
    w0, w1 = np.meshgrid(np.linspace(*w0_range, num), np.linspace(*w1_range, num))
    points = np.column_stack([w0.ravel(), w1.ravel()])
    batch = getattr(g, "batch", None)
    if callable(batch):
        values = np.asarray(batch(points), dtype=float)
    else:
        values = np.array([float(g(point)) for point in points])
    values = values.reshape(w0.shape)
    if not np.all(np.isfinite(values)):
        raise ValueError("the cost is not finite everywhere on the grid; narrow the ranges.")
    return w0, w1, values


def contour_levels(values: np.ndarray, num: int = 20, low: float | None = None, high: float | None = None) -> np.ndarray:
    """Contour levels spaced evenly in the square root of ``cost − min``.

    For a quadratic cost this draws ellipses at evenly spaced "radii", so the
    bottom of a long narrow valley is still visible. Pass the same levels to
    every frame of a slider so the shapes can be compared.
    """
    low = float(np.min(values)) if low is None else low
    high = float(np.max(values)) if high is None else high
    return low + (high - low) * np.linspace(0.0, 1.0, num) ** 2


def _draw_path(
    ax,
    weights: np.ndarray,
    label_prefix: str = "",
    *,
    linestyle: str = "-",
    points: bool = True,
    start: bool = True,
    end_marker: str = "X",
    linewidth: float = 1.8,
) -> None:
    weights = np.asarray(weights, dtype=float)
    if weights.ndim != 2 or weights.shape[1] != 2:
        raise ValueError(f"a path must have shape (K+1, 2); found {weights.shape}.")
    if not np.all(np.isfinite(weights)):
        raise ValueError("the path holds NaN or inf; plot only the finite part of a run.")
    shades = np.linspace(0.0, 1.0, max(len(weights) - 1, 1))
    segments = np.stack([weights[:-1], weights[1:]], axis=1)
    ax.add_collection(
        LineCollection(segments, colors=PATH_COLORS(shades), linewidths=linewidth, linestyles=linestyle, zorder=3)
    )
    if points:
        ax.scatter(weights[1:-1, 0], weights[1:-1, 1], c=PATH_COLORS(shades[:-1]), s=14, zorder=4, edgecolors="k", linewidths=0.3)
    if start:
        ax.plot(*weights[0], "o", ms=9, mfc=PATH_COLORS(0.0), mec="k", zorder=5, label=f"{label_prefix}start")
    ax.plot(*weights[-1], end_marker, ms=10, mfc=PATH_COLORS(1.0), mec="k", zorder=5, label=f"{label_prefix}end (step {len(weights) - 1})")


def add_path(
    ax,
    weights,
    *,
    label: str = "",
    linestyle: str = "-",
    points: bool = True,
    start: bool = True,
    end_marker: str = "X",
    linewidth: float = 1.8,
):
    """Draw one more descent path on existing axes, for comparing runs on one contour plot (chapter 2).

    The path runs green (first step) to red (last step), like every path in
    the book; to tell several paths apart without colour give each its own
    ``linestyle`` and ``end_marker``, and a ``label`` that prefixes its legend
    entries ("SGD: end (step 1000)").

    Parameters
    ----------
    ax : matplotlib Axes
    weights : History or array of shape (K+1, 2)
        The weights visited (a History's ``weights``).
    label : str
        Name of the run, used in the legend.
    linestyle : str
        Matplotlib line style of the path ("-", "--", ":", "-.").
    points : bool
        Mark every intermediate weight with a dot (turn off for long runs).
    start : bool
        Mark the start with a circle (turn off when runs share their start).
    end_marker : str
        Matplotlib marker for the last weight.
    linewidth : float

    Returns
    -------
    matplotlib Axes
    """
    prefix = f"{label}: " if label else ""
    _draw_path(ax, getattr(weights, "weights", weights), prefix, linestyle=linestyle, points=points, start=start,
               end_marker=end_marker, linewidth=linewidth)
    return ax


def contour_with_path(
    g: Callable,
    w0_range: tuple[float, float],
    w1_range: tuple[float, float],
    path=None,
    *,
    ax=None,
    num: int = 200,
    levels=None,
    minimum=None,
    equal_aspect: bool = False,
    title: str | None = None,
    xlabel: str = "$w_0$ (bias)",
    ylabel: str = "$w_1$ (slope)",
    legend: bool = True,
):
    """Filled contour plot of a cost of two weights, with an optional descent path.

    Parameters
    ----------
    g : callable
        Cost of ``w`` of shape (2,).
    w0_range, w1_range : (low, high)
        Axis limits; kept exactly, so frames of a slider line up.
    path : History or array of shape (K+1, 2), optional
        Weights visited, drawn green → red with marked start and end.
    levels : array, optional
        Contour levels; by default :func:`contour_levels` of the grid.
    minimum : array of shape (2,), optional
        Marked with a star and labelled "minimum".
    equal_aspect : bool
        Same scale on both axes, so a gradient step is drawn perpendicular to
        the contour it leaves.

    Returns
    -------
    matplotlib Axes
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 4.5))
    w0, w1, values = cost_grid(g, w0_range, w1_range, num)
    if levels is None:
        levels = contour_levels(values)
    ax.contourf(w0, w1, values, levels=levels, cmap="Blues", extend="max")
    ax.contour(w0, w1, values, levels=levels, colors="k", linewidths=0.4, alpha=0.35)
    if minimum is not None:
        ax.plot(*np.asarray(minimum, dtype=float), "*", ms=14, mfc="white", mec="k", zorder=6, label="minimum")
    if path is not None:
        _draw_path(ax, getattr(path, "weights", path))
    ax.set_xlim(*w0_range)
    ax.set_ylim(*w1_range)
    if equal_aspect:
        ax.set_aspect("equal")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if legend and (path is not None or minimum is not None):
        ax.legend(loc="upper right", fontsize=9, framealpha=0.9)
    return ax


def cost_histories(
    histories: Mapping[str, object],
    *,
    ax=None,
    log: bool = False,
    title: str | None = None,
    ylabel: str = "cost $g(w^t)$",
    values: Callable | None = None,
):
    """Plot the cost against the step number for several runs on one axes.

    Parameters
    ----------
    histories : mapping of label -> History or sequence of costs
    log : bool
        Logarithmic cost axis.
    values : callable, optional
        Plot ``values(w)`` for each weight of a History instead of its cost
        (for example a misclassification count).

    Returns
    -------
    matplotlib Axes
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.8))
    if not histories:
        raise ValueError("histories is empty: pass at least one run.")
    for i, (label, run) in enumerate(histories.items()):
        if values is not None:
            curve = np.array([values(w) for w in run.weights], dtype=float)
        else:
            curve = np.asarray(getattr(run, "costs", run), dtype=float)
        if not np.all(np.isfinite(curve)):
            raise ValueError(f"the run {label!r} holds NaN or inf values; plot its finite part only.")
        ax.plot(np.arange(len(curve)), curve, _LINE_STYLES[i % len(_LINE_STYLES)], lw=2, label=label)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("step $t$")
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.legend(fontsize=9)
    ax.grid(alpha=0.3)
    return ax


def feature_histograms(
    x,
    names: Sequence[str] | None = None,
    *,
    bins: int = 20,
    axes=None,
    title: str | None = None,
    sharex: bool = False,
):
    """One histogram per feature (column of ``x``), side by side (chapter 7).

    Returns
    -------
    array of matplotlib Axes
    """
    x = as_inputs(x)
    count = x.shape[1]
    names = list(names) if names is not None else [f"$x_{n + 1}$" for n in range(count)]
    if len(names) != count:
        raise ValueError(f"x has {count} feature(s) but {len(names)} name(s) were given.")
    if axes is None:
        # At most three panels a row, so that the figure stays narrow enough to be
        # shown near its full size (its text readable) in the book's text column.
        columns = min(count, 3)
        rows = -(-count // columns)
        fig, grid = plt.subplots(rows, columns, figsize=(2.9 * columns, 2.5 * rows), sharex=sharex, squeeze=False)
        for spare in grid.ravel()[count:]:
            spare.set_visible(False)
        axes = grid.ravel()[:count]
        for row in grid:
            row[0].set_ylabel("number of points")
        if title:
            fig.suptitle(title)
    else:
        axes[0].set_ylabel("number of points")
    for ax, column, name in zip(axes, x.T, names):
        ax.hist(column, bins=bins, color="#4575b4", edgecolor="white")
        ax.set_xlabel(name)
    return axes


# ---------------------------------------------------------------- chapter 11: regularization paths

__all__ += ["regularization_path"]

_PATH_MARKERS = ["o", "s", "^", "v", "D", "P", "X", "<", ">", "*"]


def regularization_path(
    path,
    names: Sequence[str] | None = None,
    *,
    ax=None,
    highlight: int | None = None,
    title: str | None = None,
    xlabel: str = "penalty strength $\\lambda$ (log scale)",
    ylabel: str = "feature weight $w_n$",
    legend: bool = True,
):
    """Plot each feature weight of a regularization path against λ on a log axis (chapter 11).

    Every feature gets its own colour *and* line style and marker, and its
    name is written next to the line at the smallest λ, so the plot reads
    without colour. λ decreases to the right, the direction in which features
    enter the model.

    Parameters
    ----------
    path : RegularizationPath
        From :func:`mlrefined_lib.regularization.l1_path` (anything with
        ``.lams`` of shape (L,) and ``.weights`` of shape (L, N+1)).
    names : sequence of N str, optional
        Feature names; default ``x1, x2, ...``.
    highlight : int, optional
        Draw only the first ``highlight`` features to enter in colour, with
        names; the rest as thin grey lines (for paths with many features).
    legend : bool
        Add a legend of the named lines.

    Returns
    -------
    matplotlib Axes
    """
    lams = np.asarray(path.lams, dtype=float)
    weights = np.asarray(path.weights, dtype=float)
    if lams.ndim != 1 or weights.ndim != 2 or weights.shape[0] != lams.size or weights.shape[1] < 2:
        raise ValueError(f"path needs lams of shape (L,) and weights of shape (L, N+1); found {lams.shape} and {weights.shape}.")
    if np.any(lams <= 0):
        raise ValueError("a log axis needs every λ > 0; drop λ = 0 from the path before plotting.")
    count = weights.shape[1] - 1
    names = [f"x{n + 1}" for n in range(count)] if names is None else list(names)
    if len(names) != count:
        raise ValueError(f"the path has {count} feature(s) but {len(names)} name(s) were given.")
    order = np.argsort(-lams, kind="stable")
    lams, weights = lams[order], weights[order, 1:]
    entered = []
    for row in weights:
        entered += sorted((n for n in np.flatnonzero(row) if n not in entered), key=lambda n: -abs(row[n]))
    # Features that never enter come last, so every line still has a name.
    shown = entered + [n for n in range(count) if n not in entered] if highlight is None else entered[:highlight]
    if ax is None:
        _, ax = plt.subplots(figsize=(7.5, 4.6))
    colours = plt.get_cmap("tab10")
    marker_every = max(1, lams.size // 8)
    for n in range(count):
        if n not in shown:
            ax.plot(lams, weights[:, n], "-", color="0.7", lw=0.8, zorder=1)
    for rank, n in enumerate(shown):
        ax.plot(lams, weights[:, n], _LINE_STYLES[rank % len(_LINE_STYLES)], color=colours(rank % 10), lw=1.8,
                marker=_PATH_MARKERS[rank % len(_PATH_MARKERS)], ms=5, markevery=marker_every, zorder=2,
                label=f"{rank + 1}. {names[n]}")
    ax.axhline(0.0, color="k", lw=0.6)
    # Names at the right end (smallest λ), nudged apart so that close lines stay readable.
    low, high = float(weights.min()), float(weights.max())
    gap = 0.045 * max(high - low, 1e-12)
    ends = sorted(((weights[-1, n], rank, n) for rank, n in enumerate(shown)), key=lambda item: item[0])
    placed = []
    for value, rank, n in ends:
        position = value if not placed else max(value, placed[-1] + gap)
        placed.append(position)
        # λ decreases to the right, so a slightly smaller λ is just right of the axes' edge.
        ax.text(lams[-1] * 0.93, position, names[n], fontsize=9, va="center", ha="left", color=colours(rank % 10),
                clip_on=False)
    ax.set_xscale("log")
    ax.set_xlim(lams[0], lams[-1])  # decreasing λ: features enter from left to right
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if legend and shown:
        ax.legend(title="order of entry", fontsize=9, title_fontsize=9, loc="best", ncol=2 if len(shown) > 6 else 1)
    ax.grid(alpha=0.3)
    return ax


# ---------------------------------------------------------------- chapter 10: boosting

__all__ += ["boosting_costs", "weight_bars", "boosting_weights"]

_POSITIVE = {"color": "#2166ac", "hatch": "", "label": "positive (+)"}
_NEGATIVE = {"color": "#d6604d", "hatch": "///", "label": "negative (−)"}


def _boost_names(result, names) -> list[str]:
    count = int(result.num_features)
    names = [f"x{n + 1}" for n in range(count)] if names is None else list(names)
    if len(names) != count:
        raise ValueError(f"the result was fitted on {count} feature(s) but {len(names)} name(s) were given.")
    return names


def boosting_costs(
    result,
    names: Sequence[str] | None = None,
    *,
    ax=None,
    title: str | None = None,
    ylabel: str | None = None,
    label: str | None = None,
    annotate: bool = True,
):
    """Cost after each boosting round, each point labelled with the feature it added (chapter 10).

    Parameters
    ----------
    result : BoostResult
        From :func:`mlrefined_lib.selection.boost` (anything with ``.costs``
        of shape (R+1,), ``.order`` of shape (R,), ``.cost`` and
        ``.num_features``).
    names : sequence of N str, optional
        Feature names; default ``x1, x2, ...``.
    label : str, optional
        Legend entry for the curve (a legend is drawn when given).
    annotate : bool
        Write "+ name" next to each point (round 0 is "bias only").

    Returns
    -------
    matplotlib Axes
    """
    names = _boost_names(result, names)
    costs = np.asarray(result.costs, dtype=float)
    order = np.asarray(result.order, dtype=int)
    if costs.ndim != 1 or costs.size != order.size + 1:
        raise ValueError(f"a boosting result needs R+1 costs for R chosen features; found {costs.size} and {order.size}.")
    if not np.all(np.isfinite(costs)):
        raise ValueError("the costs hold NaN or inf values.")
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    rounds = np.arange(costs.size)
    ax.plot(rounds, costs, "-o", lw=2, ms=6, mec="k", mew=0.5, label=label)
    if annotate:
        texts = ["bias only"] + [f"+ {names[n]}" for n in order]
        for m, (value, text) in enumerate(zip(costs, texts)):
            ax.annotate(text, (m, value), xytext=(5, 6), textcoords="offset points", fontsize=9, rotation=25,
                        ha="left", va="bottom")
    ax.set_xticks(rounds)
    ax.set_xlim(-0.3, costs.size - 0.3 + (0.8 if annotate else 0.0))
    low, high = costs.min(), costs.max()
    ax.set_ylim(low - 0.05 * (high - low + 1e-12), high + (0.25 if annotate else 0.05) * (high - low + 1e-12))
    ax.set_xlabel("round $m$ (number of features in the model)")
    cost_name = {"least_squares": "least-squares", "softmax": "softmax"}.get(getattr(result, "cost", ""), "")
    ax.set_ylabel(ylabel or f"mean {cost_name} cost".replace("  ", " "))
    if title:
        ax.set_title(title)
    if label:
        ax.legend(fontsize=9)
    ax.grid(alpha=0.3)
    return ax


def weight_bars(
    weights,
    names: Sequence[str],
    *,
    ax=None,
    title: str | None = None,
    xlabel: str = "weight",
    value_format: str = "{:+.2f}",
    legend: bool = True,
):
    """Horizontal bars of signed weights, first name at the top (chapter 10).

    The sign is carried three ways, never by colour alone: positive bars are
    solid blue, negative bars hatched orange-red, and every bar is labelled
    with its signed value.

    Parameters
    ----------
    weights : array of shape (K,)
    names : sequence of K str

    Returns
    -------
    matplotlib Axes
    """
    weights = np.asarray(weights, dtype=float)
    names = list(names)
    if weights.ndim != 1 or weights.size != len(names) or weights.size == 0:
        raise ValueError(f"weight_bars needs K weights and K names; found shape {weights.shape} and {len(names)} name(s).")
    if not np.all(np.isfinite(weights)):
        raise ValueError("the weights hold NaN or inf values.")
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 0.45 * weights.size + 1.4))
    positions = np.arange(weights.size)[::-1]
    seen = set()
    for position, value in zip(positions, weights):
        style = _POSITIVE if value >= 0 else _NEGATIVE
        label = style["label"] if style["label"] not in seen else None
        seen.add(style["label"])
        ax.barh(position, value, color=style["color"], hatch=style["hatch"], edgecolor="k", linewidth=0.6,
                label=label)
    span = np.abs(weights).max() or 1.0
    for position, value in zip(positions, weights):
        ax.text(value + (0.02 if value >= 0 else -0.02) * span, position, value_format.format(value),
                va="center", ha="left" if value >= 0 else "right", fontsize=9)
    ax.set_yticks(positions)
    ax.set_yticklabels(names)
    ax.axvline(0.0, color="k", lw=0.8)
    low, high = min(weights.min(), 0.0), max(weights.max(), 0.0)
    ax.set_xlim(low - 0.3 * span if low < 0 else -0.05 * span, high + 0.3 * span if high > 0 else 0.05 * span)
    ax.set_xlabel(xlabel)
    if title:
        ax.set_title(title)
    if legend:
        ax.legend(fontsize=9, loc="best")
    ax.grid(axis="x", alpha=0.3)
    return ax


def boosting_weights(
    result,
    names: Sequence[str] | None = None,
    *,
    ax=None,
    title: str | None = None,
    xlabel: str = "weight (standardized input)",
    legend: bool = True,
):
    """Bar chart of the weights a boosting run chose, in the order chosen (chapter 10).

    The bias is left out (it is not a feature weight); bars are labelled
    "1. name", "2. name", ... from the top, and signs are shown as in
    :func:`weight_bars`.

    Returns
    -------
    matplotlib Axes
    """
    names = _boost_names(result, names)
    order = np.asarray(result.order, dtype=int)
    if order.size == 0:
        raise ValueError("the boosting result has no chosen features (rounds = 0): nothing to draw.")
    labels = [f"{m}. {names[n]}" for m, n in enumerate(order, start=1)]
    return weight_bars(np.asarray(result.weights, dtype=float)[1:], labels, ax=ax, title=title, xlabel=xlabel,
                       legend=legend)


__all__ += ["penalty_ball_panel"]


def penalty_ball_panel(
    ax,
    w1,
    w2,
    values,
    levels,
    minimizer,
    *,
    norm: str = "l1",
    unregularized=None,
    path=None,
    title: str | None = None,
    legend: bool = True,
):
    """One panel of the chapter 11 geometry: contours of g, the ball of a norm through the regularized minimizer.

    At the minimizer ``w_λ`` of ``g + λh`` a contour of ``g`` touches the ball
    ``{h(w) <= h(w_λ)}``: the ℓ1 ball is a diamond with corners on the axes,
    the ℓ2 ball a circle. Draws, with fixed axes and levels so slider frames
    line up: filled contours of ``g`` (light to dark Blues), the ball (hatched
    for ℓ1, dotted edge for ℓ2), the contour of ``g`` through ``w_λ`` (dashed),
    the path of minimizers (thin line), the unregularized minimizer (star) and
    ``w_λ`` (circle for ℓ1, square for ℓ2).

    Parameters
    ----------
    ax : matplotlib Axes
    w1, w2, values : arrays of shape (M, M)
        A grid of the two weights and ``g`` on it (e.g. from :func:`cost_grid`).
    levels : array
        Contour levels (the same for every frame).
    minimizer : array of shape (2,)
    norm : ``"l1"`` or ``"l2"``
    unregularized : array of shape (2,), optional
    path : array of shape (K, 2), optional
        Minimizers for a range of λ.

    Returns
    -------
    matplotlib Axes
    """
    if norm not in ("l1", "l2"):
        raise ValueError(f"unknown norm {norm!r}; valid names are: 'l1', 'l2'.")
    minimizer = np.asarray(minimizer, dtype=float)
    if minimizer.shape != (2,) or not np.all(np.isfinite(minimizer)):
        raise ValueError(f"minimizer must be 2 finite numbers; found shape {minimizer.shape}.")
    ax.contourf(w1, w2, values, levels=levels, cmap="Blues", extend="max")
    ax.contour(w1, w2, values, levels=levels, colors="k", linewidths=0.4, alpha=0.3)
    if norm == "l1":
        size = float(np.abs(minimizer).sum())
        ball = np.array([[size, 0.0], [0.0, size], [-size, 0.0], [0.0, -size], [size, 0.0]])
        ax.fill(ball[:, 0], ball[:, 1], facecolor="#fdae61", alpha=0.35, hatch="//", edgecolor="#b35806",
                lw=1.8, label=f"l1 ball |w1| + |w2| = {size:.2f}")
        marker, name = "o", "l1"
    else:
        size = float(np.linalg.norm(minimizer))
        angles = np.linspace(0.0, 2.0 * np.pi, 200)
        ax.fill(size * np.cos(angles), size * np.sin(angles), facecolor="#fdae61", alpha=0.35, edgecolor="#b35806",
                lw=1.8, ls=":", label=f"l2 ball sqrt(w1² + w2²) = {size:.2f}")
        marker, name = "s", "l2"
    touching = _grid_value(w1, w2, values, minimizer)
    if np.isfinite(touching) and touching > values.min():
        ax.contour(w1, w2, values, levels=[touching], colors="#d7191c", linewidths=1.4, linestyles="--")
    if path is not None:
        path = np.asarray(path, dtype=float)
        ax.plot(path[:, 0], path[:, 1], "-", color="k", lw=1.0, alpha=0.7, label="minimizers as λ grows")
    if unregularized is not None:
        ax.plot(*np.asarray(unregularized, dtype=float), "*", ms=14, mfc="white", mec="k", zorder=6,
                label="minimizer of g (λ = 0)")
    ax.plot(*minimizer, marker, ms=9, mfc="#d7191c", mec="k", zorder=7, label=f"minimizer with {name} penalty")
    ax.axhline(0.0, color="k", lw=0.6)
    ax.axvline(0.0, color="k", lw=0.6)
    ax.set_xlim(w1.min(), w1.max())
    ax.set_ylim(w2.min(), w2.max())
    ax.set_aspect("equal")
    ax.set_xlabel("$w_1$")
    ax.set_ylabel("$w_2$")
    if title:
        ax.set_title(title, fontsize=10)
    if legend:
        ax.legend(loc="lower right", fontsize=9, framealpha=0.9)
    return ax


def _grid_value(w1, w2, values, point) -> float:
    """Bilinear interpolation of a grid of values at a point (nan outside the grid)."""
    xs, ys = w1[0], w2[:, 0]
    if not (xs[0] <= point[0] <= xs[-1] and ys[0] <= point[1] <= ys[-1]):
        return float("nan")
    i = min(int(np.searchsorted(xs, point[0]) - 1), len(xs) - 2)
    j = min(int(np.searchsorted(ys, point[1]) - 1), len(ys) - 2)
    i, j = max(i, 0), max(j, 0)
    tx = (point[0] - xs[i]) / (xs[i + 1] - xs[i])
    ty = (point[1] - ys[j]) / (ys[j + 1] - ys[j])
    return float((1 - tx) * (1 - ty) * values[j, i] + tx * (1 - ty) * values[j, i + 1]
                 + (1 - tx) * ty * values[j + 1, i] + tx * ty * values[j + 1, i + 1])


# ---------------------------------------------------------------- chapter 3: decision regions of a classifier

__all__ += ["CLASS_STYLES", "decision_regions"]

#: (face colour, region colour, marker) per class: a colour-blind-safe palette
#: with a different marker shape for every class.
CLASS_STYLES = [
    ("#4575b4", "#c6dbef", "o"),
    ("#d73027", "#fcbba1", "s"),
    ("#fdae61", "#fee8c8", "^"),
    ("#1a9641", "#c7e9c0", "D"),
    ("#7b3294", "#dadaeb", "v"),
]


def decision_regions(
    predict: Callable,
    x,
    y,
    *,
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    ax=None,
    num: int = 300,
    class_names: Sequence[str] | None = None,
    feature_names: Sequence[str] = ("feature 1", "feature 2"),
    title: str | None = None,
    legend_loc: str = "upper left",
    jitter: float = 0.0,
    seed: int = 0,
):
    """Shade the region each class gets from a classifier of two inputs (chapter 3).

    The plane ``x_range × y_range`` is cut into a ``num × num`` grid, every
    grid point gets the label ``predict`` returns for it, and each class's
    region is shaded in a light tint of its colour, with the boundaries
    between regions drawn as black lines. The points are drawn on top, with a
    different marker *and* colour per class, named in the legend.

    Parameters
    ----------
    predict : callable
        ``predict(points)`` takes an array of shape (M, 2) (in the units of
        ``x``) and returns M integer labels ``0 … K−1``.
    x : array of shape (P, 2)
    y : array of shape (P,)
        Integer labels ``0 … K−1`` (K ≤ 5).
    x_range, y_range : (low, high)
        Axis limits, kept exactly (fix them across the frames of a slider).
    class_names : sequence of str, optional
        Legend names; ``"class k"`` by default.
    feature_names : (str, str)
        Axis labels. The default, ``"feature 1"`` and ``"feature 2"``, avoids
        ``x_1`` and ``x_2``, which in the book's notation are points 1 and 2
        (feature n of point p is ``x_{p,n}``).
    jitter : float
        Standard deviation of a small random shift (seeded by ``seed``) added
        to the *drawn* points only, so that points with equal values do not
        hide each other.

    Returns
    -------
    matplotlib Axes
    """
    x = as_inputs(x)
    if x.shape[1] != 2:
        raise ValueError(f"decision_regions draws two inputs: x must have shape (P, 2); found {x.shape}.")
    labels = np.asarray(y, dtype=float)
    if labels.shape != (x.shape[0],):
        raise ValueError(f"y must have shape ({x.shape[0]},) to match x of shape {x.shape}; found {labels.shape}.")
    if not np.all(labels == np.round(labels)) or labels.min() < 0 or labels.max() >= len(CLASS_STYLES):
        raise ValueError(f"y must hold integer labels 0 … {len(CLASS_STYLES) - 1}; found {np.unique(labels)[:10].tolist()}.")
    labels = labels.astype(int)
    count = max(int(labels.max()) + 1, 2)
    names = list(class_names) if class_names is not None else [f"class {k}" for k in range(count)]
    if len(names) < count:
        raise ValueError(f"y holds {count} classes but {len(names)} class name(s) were given.")
    count = len(names)
    if count > len(CLASS_STYLES):
        raise ValueError(f"decision_regions draws at most {len(CLASS_STYLES)} classes; found {count} class names.")
    if num < 2:
        raise ValueError(f"num must be at least 2; found {num}.")
    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 4.2))
    grid_x, grid_y = np.meshgrid(np.linspace(*x_range, num), np.linspace(*y_range, num))
    points = np.column_stack([grid_x.ravel(), grid_y.ravel()])
    predicted = np.asarray(predict(points))
    if predicted.shape != (len(points),):
        raise ValueError(f"predict must return one label per point, shape ({len(points)},); found {predicted.shape}.")
    if not np.all((predicted >= 0) & (predicted < count) & (predicted == np.round(predicted))):
        raise ValueError(f"predict must return integer labels 0 … {count - 1}; found {np.unique(predicted)[:10].tolist()}.")
    from matplotlib.colors import ListedColormap

    regions = predicted.astype(float).reshape(grid_x.shape)
    tints = ListedColormap([CLASS_STYLES[k][1] for k in range(count)])
    ax.contourf(grid_x, grid_y, regions, levels=np.arange(-0.5, count), cmap=tints)
    if np.unique(predicted).size > 1:
        ax.contour(grid_x, grid_y, regions, levels=np.arange(0.5, count - 1), colors="k", linewidths=1.2)
    shift = np.random.default_rng(seed).normal(scale=jitter, size=x.shape) if jitter else 0.0
    drawn = x + shift
    for k in range(count):
        face, _, marker = CLASS_STYLES[k]
        mask = labels == k
        if mask.any():
            ax.scatter(drawn[mask, 0], drawn[mask, 1], s=28, c=face, marker=marker, edgecolors="k",
                       linewidths=0.5, label=names[k], zorder=3)
    ax.set_xlim(*x_range)
    ax.set_ylim(*y_range)
    ax.set_xlabel(feature_names[0])
    ax.set_ylabel(feature_names[1])
    if title:
        ax.set_title(title)
    ax.legend(loc=legend_loc, fontsize=9, framealpha=0.9)
    return ax


__all__ += ["figure_to_png"]


def figure_to_png(fig, *, dpi: int = 80, colors: int = 64) -> bytes:
    """Render a matplotlib figure to palette PNG bytes and close the figure.

    A palette of ``colors`` colours keeps a 440×360 frame near 15–25 KB
    instead of ~60 KB, which matters when a page stores 25–50 frames.
    """
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    plt.close(fig)
    buffer.seek(0)
    from PIL import Image as PILImage

    image = PILImage.open(buffer).convert("RGB")
    if colors:
        image = image.quantize(colors=colors, method=PILImage.Quantize.MEDIANCUT, dither=PILImage.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
