"""Choosing the polynomial degree by k-fold cross-validation, computed by the page (chapter 5).

The reader moves the number of folds k (2 to leave-one-out) and draws new folds;
the page assigns the rows to the folds, fits the least-squares polynomial of
every degree on each training part and scores it on the validation part, and
draws each fold's score, the mean with one standard error each way, the
one-standard-error line and the degree that rule chooses.

The folds come from a seeded shuffle that the page and Python both implement,
:func:`shuffled_folds` (the same fold sizes as :func:`mlrefined_lib.cross_validation.k_fold`,
but its own generator, so that a browser can reproduce it exactly): for a
seed, Python gets the very folds the page shows, and
``DegreeFolds.search()`` is :func:`mlrefined_lib.cross_validation.grid_search` on them.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import traitlets

from .._esm import STATIC, module_text
from .._validation import check_scalar
from ._base import LiveWidget, check_outputs, check_range

#: The degree-by-cross-validation widget of chapter 5.
DEGREE_FOLDS_ESM_PATH = STATIC / "degree_folds.js"
DEGREE_FOLDS_ANYWIDGET_ID = "mlrefined_lib.live.DegreeFolds"

_MASK = 0xFFFFFFFF


def _mulberry32(seed: int):
    """The 32-bit generator "mulberry32": an integer state advanced by 0x6D2B79F5 and
    mixed by two multiply-xorshift rounds; yields integers in ``[0, 2**32)``. The page
    runs the same arithmetic (``Math.imul`` and unsigned shifts)."""
    state = seed & _MASK
    while True:
        state = (state + 0x6D2B79F5) & _MASK
        t = state
        t = ((t ^ (t >> 15)) * (t | 1)) & _MASK
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & _MASK)) & _MASK
        yield (t ^ (t >> 14)) & _MASK


def shuffled_order(num_points: int, seed: int) -> np.ndarray:
    """A permutation of ``range(num_points)``: a Fisher-Yates shuffle driven by mulberry32(seed).

    For ``i = P-1, ..., 1`` it swaps position ``i`` with position
    ``j = floor(r (i + 1) / 2**32)``, ``r`` the generator's next integer. Every
    step is integer arithmetic below ``2**53``, so the page's JavaScript gets the same
    permutation.
    """
    num_points = check_scalar(num_points, "num_points", numbers.Integral, min_val=1)
    seed = check_scalar(seed, "seed", numbers.Integral, min_val=0, max_val=_MASK)
    order = list(range(num_points))
    draws = _mulberry32(int(seed))
    for i in range(num_points - 1, 0, -1):
        j = (next(draws) * (i + 1)) >> 32
        order[i], order[j] = order[j], order[i]
    return np.array(order, dtype=int)


def shuffled_folds(num_points: int, k: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """k folds of ``range(num_points)`` from :func:`shuffled_order` (the widget's "new folds").

    As :func:`mlrefined_lib.cross_validation.k_fold` with an integer seed, but shuffled by
    :func:`shuffled_order`: the rows in shuffled order are dealt in blocks to
    folds 0, 1, ..., k-1, the first ``num_points % k`` folds one row larger.

    Returns
    -------
    list of k pairs ``(train_indices, validation_indices)``, sorted integer arrays
    """
    num_points = check_scalar(num_points, "num_points", numbers.Integral, min_val=2)
    k = check_scalar(k, "k", numbers.Integral, min_val=2)
    if k > num_points:
        raise ValueError(f"k = {k} folds is larger than num_points = {num_points}: every fold needs a row.")
    order = shuffled_order(num_points, seed)
    sizes = np.full(k, num_points // k)
    sizes[: num_points % k] += 1
    fold_of = np.empty(num_points, dtype=int)
    fold_of[order] = np.repeat(np.arange(k), sizes)
    return [(np.flatnonzero(fold_of != i), np.flatnonzero(fold_of == i)) for i in range(k)]


def _fit_degree(degree: int):
    """fit(x, y) -> least-squares weights (bias first) on the first ``degree`` powers."""
    def fit(x, y):
        design = np.column_stack([np.ones(len(x)), x[:, :degree]])
        return np.linalg.lstsq(design, y, rcond=None)[0]
    return fit


def _mean_squared_error(w, x, y) -> float:
    return float(np.mean((w[0] + x[:, : len(w) - 1] @ w[1:] - y) ** 2))


class DegreeFolds(LiveWidget):
    """The polynomial degree chosen by k-fold cross-validation, for any k and any seed of the
    folds; build it with :func:`degree_folds` (chapter 5). Synced values: ``k`` and ``seed``."""

    anywidget_id = DEGREE_FOLDS_ANYWIDGET_ID
    _esm = module_text("degree_folds.js")
    config = traitlets.Dict().tag(sync=True)
    k = traitlets.Int(10).tag(sync=True)
    seed = traitlets.Int(0).tag(sync=True)

    def powers(self) -> np.ndarray:
        """The columns t, t², ..., t^D of the scaled input t = x / scale."""
        from ..polynomials import polynomial_features

        cfg = self.config
        return polynomial_features(np.array(cfg["x"])[:, None] / cfg["scale"], cfg["max_degree"])

    def folds(self, k: int | None = None, seed: int | None = None):
        """The folds the page shows for ``k`` and ``seed`` (default: the current ones)."""
        return shuffled_folds(len(self.config["x"]), self.k if k is None else k, self.seed if seed is None else seed)

    def search(self, k: int | None = None, seed: int | None = None):
        """:func:`mlrefined_lib.cross_validation.grid_search` of the degrees 1 to D on ``folds()`` (mean squared error)."""
        from ..cross_validation import grid_search

        degrees = list(range(1, self.config["max_degree"] + 1))
        return grid_search(_fit_degree, _mean_squared_error, self.powers(), np.array(self.config["y"]),
                           degrees, self.folds(k, seed))

    def _k_name(self) -> str:
        return f"k = {self.k} (leave-one-out)" if self.k == len(self.config["x"]) else f"k = {self.k}"

    def description(self) -> str:
        s = self.search()
        best, chosen = s.best_index, s.one_standard_error_index
        return (f"{self.config['title']}, {self._k_name()}, folds of seed {self.seed}: the cross-validated mean "
                f"squared error of each degree 1 to {self.config['max_degree']} with one standard error each way "
                f"and every fold's score; the lowest mean is at degree {s.best_param} ({s.means[best]:.3g} "
                f"± {s.standard_errors[best]:.2g}), and the one-standard-error rule chooses degree "
                f"{s.one_standard_error_param} ({s.means[chosen]:.3g}). Left, the data and the chosen "
                f"degree's fit on all {len(self.config['x'])} points.")

    def to_png(self) -> bytes:
        import matplotlib.pyplot as plt

        from .. import plotting

        cfg = self.config
        s = self.search()
        degrees = np.arange(1, cfg["max_degree"] + 1)
        x, y = np.array(cfg["x"]), np.array(cfg["y"])
        fig, (left, right) = plt.subplots(1, 2, figsize=(8.8, 3.7))
        left.scatter(x, y, s=18, color="#2c7bb6", edgecolors="k", linewidths=0.4)
        d = s.one_standard_error_param
        w = _fit_degree(d)(self.powers(), y)
        xs = np.linspace(*cfg["xlim"], 301)
        t = xs / cfg["scale"]
        left.plot(xs, w[0] + np.column_stack([t**j for j in range(1, d + 1)]) @ w[1:], color="#d7191c", lw=2)
        left.set(xlim=cfg["xlim"], ylim=cfg["ylim"], xlabel=cfg["xlabel"], ylabel=cfg["ylabel"])
        left.set_title(f"the chosen degree, {d}, fitted on all {len(x)} points", fontsize=10)
        top = cfg["error_limits"][1]
        for i, result in enumerate(s.results):
            right.scatter(np.full(len(result.scores), degrees[i]) + np.linspace(-0.25, 0.25, len(result.scores)),
                          np.minimum(result.scores, top), s=5, color="0.6")
        right.errorbar(degrees, s.means, yerr=s.standard_errors, fmt="o", color="k", capsize=3)
        right.axhline(s.means[s.best_index] + s.standard_errors[s.best_index], color="#d7191c", ls="--", lw=1)
        right.axvline(d, color="#d7191c", lw=1)
        right.set(ylim=cfg["error_limits"], xlabel="degree", ylabel="validation MSE")
        right.set_title(f"{self._k_name()}, seed {self.seed}: the rule chooses degree {d}", fontsize=10)
        fig.tight_layout()
        return plotting.figure_to_png(fig, dpi=72)


def degree_folds(
    x,
    y,
    *,
    max_degree: int = 8,
    k: int = 10,
    seed: int = 0,
    scale: float | None = None,
    error_limits: Sequence[float] | None = None,
    xlim: Sequence[float] | None = None,
    ylim: Sequence[float] | None = None,
    xlabel: str = "input x",
    ylabel: str = "output y",
    title: str = "Choosing the degree by k-fold cross-validation",
) -> DegreeFolds:
    """Build the k-fold degree widget (chapter 5): the page cross-validates every degree itself.

    Parameters
    ----------
    x : array of shape (P,) or (P, 1)
        One input; the page fits polynomials in ``t = x / scale``.
    y : array of shape (P,)
    max_degree : int >= 1
        D: the degrees 1 to D are cross-validated (the simplest first, for the
        one-standard-error rule).
    k : int, 2 to P
        Initial number of folds (P is leave-one-out).
    seed : int >= 0
        Initial seed of :func:`shuffled_folds`; "new folds" adds one.
    scale : float > 0, optional
        Default ``max |x|``, so that ``t`` lies in [-1, 1] and the fits are well conditioned.
    error_limits : (low, high), optional
        The axis of the scores; default from 0 to three times the lowest mean at the initial folds,
        or more if the degree-1 mean plus its standard error needs it.
    xlim, ylim : (low, high), optional
        The axes of the data; default the data's range with a margin.

    Returns
    -------
    DegreeFolds

    Raises
    ------
    ValueError
        Wrong shapes, NaN or inf, k outside 2..P, or too few points for
        degree D on the training part of 2 folds (P // 2 must exceed D).
    """
    y = check_outputs(y)
    x = np.asarray(x, dtype=float)
    if x.ndim == 2 and x.shape[1] == 1:
        x = x[:, 0]
    if x.shape != y.shape or not np.all(np.isfinite(x)):
        raise ValueError(f"x must be finite with shape (P,) or (P, 1) and y shape (P,); found {x.shape} and {y.shape}.")
    num_points = len(y)
    max_degree = check_scalar(max_degree, "max_degree", numbers.Integral, min_val=1)
    if num_points // 2 <= max_degree or len(np.unique(x)) <= max_degree:
        raise ValueError(f"degree {max_degree} needs more than {max_degree} distinct points in the training part of "
                         f"each of 2 folds; found P = {num_points} points ({len(np.unique(x))} distinct).")
    k = check_scalar(k, "k", numbers.Integral, min_val=2, max_val=num_points)
    seed = check_scalar(seed, "seed", numbers.Integral, min_val=0, max_val=_MASK)
    if scale is None:
        scale = float(np.abs(x).max()) or 1.0
    scale = check_scalar(scale, "scale", numbers.Real, min_val=0, include_boundaries="neither")

    def margin(values):
        low, high = float(np.min(values)), float(np.max(values))
        pad = 0.08 * (high - low or 1.0)
        return [low - pad, high + pad]

    widget = DegreeFolds()
    widget.config = {
        "x": x.tolist(), "y": y.tolist(), "max_degree": int(max_degree), "scale": float(scale),
        "xlim": check_range(xlim, "xlim") if xlim is not None else margin(x),
        "ylim": check_range(ylim, "ylim") if ylim is not None else margin(y),
        "error_limits": [0.0, 1.0],
        "xlabel": str(xlabel), "ylabel": str(ylabel), "title": str(title),
    }
    widget.k, widget.seed = int(k), int(seed)
    if error_limits is None:
        first = widget.search()
        error_limits = [0.0, max(3.0 * float(np.min(first.means)), 1.3 * (first.means[0] + first.standard_errors[0]))]
    widget.config = {**widget.config, "error_limits": check_range(error_limits, "error_limits")}
    return widget
