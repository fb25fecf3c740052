"""Missing values and what an imputer makes of them, computed by the page (chapter 8).

The reader moves the share of one feature's values that go missing, chooses why
they go missing (MCAR, MAR, MNAR) and the imputer that fills them (the mean, the
median, a least-squares line on the other feature, or the mean of the k nearest
neighbours in the other feature). The page draws which rows go missing, fills
them, and shows them at their filled values among the true points, with the
feature's mean and standard deviation and its correlation with the other
feature, after imputation against the truth.

Which rows go missing follows the chapter's definitions
(:func:`mlrefined_lib.imputation.make_missing`): every row alike (MCAR), rows
more likely the larger the other feature (MAR, the other feature drives it) or
the larger the hidden value itself (MNAR), with weights
``1 / (1 + exp(-strength z))``, ``z`` the standardized driving values, and rows
drawn one after another, each with probability proportional to its weight among
the rows not drawn yet. ``make_missing`` draws with NumPy's generator, which a
browser cannot reproduce; this widget draws with the seeded generator of chapter
5's widget (``mulberry32``, :mod:`mlrefined_lib.live.degree_folds`), which the
page runs too, so that for a seed Python gets the very rows the page hides
(:func:`missing_order`, :func:`missing_rows`). The weights are computed here
and handed to the page, so that the page's draws use the same numbers; the rows
that go missing at a larger share include those of a smaller one.

The filling is the library's: :func:`mlrefined_lib.imputation.mean_imputer`
(mean, median), :func:`mlrefined_lib.imputation.iterative_imputer` with one
round (with one other feature, the least-squares line on it) and
:func:`mlrefined_lib.imputation.knn_imputer` on the two-column table
(:func:`impute_feature`).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import traitlets

from .._esm import STATIC, module_text
from .._validation import check_choice, check_scalar
from ._base import LiveWidget, check_range
from .degree_folds import _MASK, _mulberry32

#: The missing-values widget of chapter 8.
MISSING_VALUES_ESM_PATH = STATIC / "missing_values.js"
MISSING_VALUES_ANYWIDGET_ID = "mlrefined_lib.live.MissingValues"

#: Why values go missing (as :data:`mlrefined_lib.imputation.MECHANISMS`).
MECHANISMS = ("MCAR", "MAR", "MNAR")
#: The imputers the widget offers.
IMPUTERS = ("mean", "median", "regression", "knn")


def _as_feature(values, name: str) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one feature, of shape (P,) or (P, 1); found shape {np.shape(values)}.")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be complete and finite (it is the truth); found "
                         f"{int(np.sum(~np.isfinite(arr)))} NaN or infinite value(s).")
    return arr


def missingness_weights(feature, other, mechanism: str, strength: float = 2.0) -> np.ndarray:
    """The weight of each row in the draw of the rows whose ``feature`` goes missing (chapter 8).

    ``"MCAR"``: 1 for every row; ``"MAR"``: ``1 / (1 + exp(-strength z))`` with
    ``z`` the standardized ``other`` (mean and ``np.std``); ``"MNAR"``: the same
    with ``z`` the standardized ``feature`` itself. These are the weights of
    :func:`mlrefined_lib.imputation.make_missing` (``other`` as its ``driver``).

    Returns
    -------
    array of shape (P,), positive
    """
    feature, other = _as_feature(feature, "feature"), _as_feature(other, "other")
    if feature.shape != other.shape:
        raise ValueError(f"feature and other must have the same number of rows; found {len(feature)} and {len(other)}.")
    check_choice(mechanism, MECHANISMS, "mechanism")
    strength = check_scalar(strength, "strength", numbers.Real, min_val=0)
    if mechanism == "MCAR":
        return np.ones(len(feature))
    values = other if mechanism == "MAR" else feature
    spread = values.std()
    z = (values - values.mean()) / spread if spread > 0 else np.zeros(len(values))
    return 1 / (1 + np.exp(-strength * z))


def missing_order(weights, seed: int) -> np.ndarray:
    """The order in which the rows go missing: successive draws without replacement, driven by
    mulberry32(seed).

    Each draw takes the next integer ``r`` of the generator and ``u = r / 2**32``
    (in [0, 1)); with ``total`` the sum of the weights of the rows not drawn yet,
    added in row order, it draws the first of those rows whose running sum (in
    row order) exceeds ``u · total`` (the last of them if rounding leaves none).
    So each row is drawn with probability proportional to its weight among the
    rows left, as in :func:`mlrefined_lib.imputation.make_missing`. Every step is
    an IEEE operation in a fixed order, so the page's JavaScript gets the same
    order.

    Parameters
    ----------
    weights : array of shape (P,), positive and finite
    seed : int in [0, 2**32)

    Returns
    -------
    array of shape (P,): a permutation of ``range(P)``
    """
    w = np.asarray(weights, dtype=float)
    if w.ndim != 1 or len(w) == 0 or not np.all(np.isfinite(w)) or not np.all(w > 0):
        raise ValueError(f"weights must be a non-empty 1-D array of positive finite numbers; found shape {w.shape} "
                         f"with {int(np.sum(~(np.isfinite(w) & (w > 0))))} value(s) that are not.")
    seed = check_scalar(seed, "seed", numbers.Integral, min_val=0, max_val=_MASK)
    values = [float(v) for v in w]
    remaining = list(range(len(values)))
    draws = _mulberry32(int(seed))
    order = []
    while len(remaining) > 1:
        total = 0.0
        for p in remaining:
            total += values[p]
        threshold = next(draws) / 4294967296 * total
        running, i = 0.0, 0
        while i < len(remaining) - 1:
            running += values[remaining[i]]
            if running > threshold:
                break
            i += 1
        order.append(remaining.pop(i))
    order.append(remaining[0])
    return np.array(order, dtype=int)


def missing_count(percent: int, num_points: int) -> int:
    """How many of ``num_points`` rows ``percent`` percent is: ``floor((percent · P + 50) / 100)``
    (``percent · P / 100`` rounded half up, in integers, as the page computes it)."""
    percent = check_scalar(percent, "percent", numbers.Integral, min_val=0, max_val=100)
    num_points = check_scalar(num_points, "num_points", numbers.Integral, min_val=1)
    return (percent * num_points + 50) // 100


def missing_rows(feature, other, mechanism: str, percent: int, seed: int, strength: float = 2.0) -> np.ndarray:
    """The rows whose ``feature`` goes missing (sorted), as the page draws them (chapter 8).

    The first ``missing_count(percent, P)`` rows (``percent · P / 100``
    rounded half up) of :func:`mlrefined_lib.live.missing_order` of the weights of
    ``missingness_weights(feature, other, mechanism, strength)``: 1 for MCAR,
    the logistic of ``strength`` times the standardized ``other`` (MAR) or
    ``feature`` (MNAR), as in :func:`mlrefined_lib.imputation.make_missing`.
    """
    weights = missingness_weights(feature, other, mechanism, strength)
    return np.sort(missing_order(weights, seed)[: missing_count(percent, len(weights))])


def impute_feature(feature, other, hidden, imputer: str, k: int = 5) -> np.ndarray:
    """``feature`` with its rows ``hidden`` filled by the library's imputer, fitted on the
    two-column table ``[feature with gaps, other]`` (chapter 8).

    ``"mean"`` and ``"median"``: :func:`mlrefined_lib.imputation.mean_imputer`;
    ``"regression"``: :func:`mlrefined_lib.imputation.iterative_imputer` with one
    round, the least-squares line on ``other`` fitted on the observed rows;
    ``"knn"``: :func:`mlrefined_lib.imputation.knn_imputer` with ``k`` neighbours
    (scaled, so the nearest in ``other``).

    Returns
    -------
    array of shape (P,): a new array, the observed rows unchanged
    """
    from ..imputation import iterative_imputer, knn_imputer, mean_imputer

    feature, other = _as_feature(feature, "feature"), _as_feature(other, "other")
    check_choice(imputer, IMPUTERS, "imputer")
    hidden = np.asarray(hidden, dtype=int)
    table = np.column_stack([feature, other])
    table[hidden, 0] = np.nan
    if imputer in ("mean", "median"):
        filled = mean_imputer(table, imputer)(table)
    elif imputer == "regression":
        filled = iterative_imputer(table, rounds=1)(table)
    else:
        filled = knn_imputer(table, k)(table)
    return filled[:, 0]


def summary(feature, other) -> np.ndarray:
    """``[mean, standard deviation (np.std), correlation with other]`` of ``feature``."""
    feature, other = np.asarray(feature, dtype=float), np.asarray(other, dtype=float)
    return np.array([feature.mean(), feature.std(), np.corrcoef(feature, other)[0, 1]])


class MissingValues(LiveWidget):
    """One feature with a share of its values missing, filled by an imputer, against the truth; build it
    with :func:`mlrefined_lib.live.missing_values` (chapter 8). Synced values: ``percent``, ``mechanism``, ``imputer``, ``seed``."""

    anywidget_id = MISSING_VALUES_ANYWIDGET_ID
    _esm = module_text("missing_values.js")
    config = traitlets.Dict().tag(sync=True)
    percent = traitlets.Int(30).tag(sync=True)
    mechanism = traitlets.Unicode("MCAR").tag(sync=True)
    imputer = traitlets.Unicode("mean").tag(sync=True)
    seed = traitlets.Int(0).tag(sync=True)

    def _state(self, percent, mechanism, imputer, seed):
        return (self.percent if percent is None else percent, self.mechanism if mechanism is None else mechanism,
                self.imputer if imputer is None else imputer, self.seed if seed is None else seed)

    def hidden(self, percent=None, mechanism=None, seed=None) -> np.ndarray:
        """The rows the page hides (sorted) for the given values (default: the current ones)."""
        percent, mechanism, _, seed = self._state(percent, mechanism, None, seed)
        cfg = self.config
        order = missing_order(cfg["weights"][mechanism], seed)
        return np.sort(order[: missing_count(percent, len(cfg["feature"]))])

    def filled(self, percent=None, mechanism=None, imputer=None, seed=None) -> np.ndarray:
        """The feature after imputation, all P rows (the library's imputers on :meth:`hidden`)."""
        percent, mechanism, imputer, seed = self._state(percent, mechanism, imputer, seed)
        cfg = self.config
        return impute_feature(cfg["feature"], cfg["other"], self.hidden(percent, mechanism, seed), imputer, cfg["k"])

    def _imputer_name(self, imputer: str) -> str:
        cfg = self.config
        return {"mean": "the mean", "median": "the median", "regression": f"a line on {cfg['other_name']}",
                "knn": f"the {cfg['k']} nearest neighbours in {cfg['other_name']}"}[imputer]

    def description(self) -> str:
        cfg = self.config
        truth = summary(cfg["feature"], cfg["other"])
        after = summary(self.filled(), cfg["other"])
        count, total = missing_count(self.percent, len(cfg["feature"])), len(cfg["feature"])
        return (f"{cfg['title']}: {self.percent}% of the {cfg['feature_name']} missing ({count} of {total} rows, "
                f"{self.mechanism}, draw {self.seed}), filled with {self._imputer_name(self.imputer)}. The mean is "
                f"{after[0]:.4g} against the true {truth[0]:.4g}, the standard deviation {after[1]:.3g} against "
                f"{truth[1]:.3g}, and the correlation with {cfg['other_name']} {after[2]:.3f} against {truth[2]:.3f}. "
                f"The plot shows every row's true values in grey and the missing rows at their filled values in "
                f"colour.")

    def to_png(self) -> bytes:
        import matplotlib.pyplot as plt

        from .. import plotting

        cfg = self.config
        feature, other = np.array(cfg["feature"]), np.array(cfg["other"])
        hidden, filled = self.hidden(), self.filled()
        truth, after = summary(feature, other), summary(filled, other)
        fig, ax = plt.subplots(figsize=(8.0, 4.4))
        ax.scatter(other, feature, s=12, color="0.72", label="the truth (every row)")
        gaps = np.full(len(hidden), np.nan)  # one line, broken between the rows
        ax.plot(np.column_stack([other[hidden], other[hidden], gaps]).ravel(),
                np.column_stack([feature[hidden], filled[hidden], gaps]).ravel(), color="#e6550d", lw=0.5, alpha=0.5)
        ax.scatter(other[hidden], filled[hidden], s=16, color="#e6550d", edgecolors="k", linewidths=0.3,
                   label="missing rows, at their filled values")
        ax.axhline(truth[0], color="0.45", ls="--", lw=1)
        ax.axhline(after[0], color="#e6550d", ls="--", lw=1)
        ax.set(xlim=cfg["xlim"], ylim=cfg["ylim"], xlabel=cfg["other_name"], ylabel=cfg["feature_name"])
        ax.set_title(f"{self.percent}% missing ({self.mechanism}), filled with {self._imputer_name(self.imputer)}\n"
                     f"mean {after[0]:.4g} (truth {truth[0]:.4g}), sd {after[1]:.3g} ({truth[1]:.3g}), "
                     f"correlation {after[2]:.3f} ({truth[2]:.3f})", fontsize=10)
        ax.legend(fontsize=8, loc="upper left")
        fig.tight_layout()
        return plotting.figure_to_png(fig, dpi=80)


def missing_values(
    feature,
    other,
    *,
    percent: int = 30,
    mechanism: str = "MCAR",
    imputer: str = "mean",
    seed: int = 0,
    strength: float = 2.0,
    k: int = 5,
    percent_range: Sequence[int] = (5, 80),
    feature_name: str = "feature",
    other_name: str = "other feature",
    xlim: Sequence[float] | None = None,
    ylim: Sequence[float] | None = None,
    title: str = "Missing values, filled, against the truth",
) -> MissingValues:
    """Build the missing-values widget (chapter 8): the page hides and fills the values itself.

    Parameters
    ----------
    feature : array of shape (P,) or (P, 1)
        The complete feature whose values go missing (the truth).
    other : array of shape (P,) or (P, 1)
        The other feature, always observed: it drives MAR and is what the
        regression and k-NN imputers read.
    percent : int
        Initial share of ``feature`` that goes missing, in percent, within ``percent_range``.
    mechanism : {"MCAR", "MAR", "MNAR"}
    imputer : {"mean", "median", "regression", "knn"}
    seed : int in [0, 2**32)
        Initial seed of the draw (:func:`mlrefined_lib.live.missing_order`); "new draw" adds one.
    strength : float >= 0
        How strongly the driving value decides under MAR and MNAR (as in ``make_missing``).
    k : int >= 1
        Neighbours of the k-NN imputer.
    percent_range : (low, high), integers
        The slider's range; at ``low`` at least one row goes missing, and at
        ``high`` at least ``max(k, 2)`` rows stay observed.
    xlim, ylim : (low, high), optional
        The axes (``other`` across, ``feature`` up); default the data's range with a margin.

    Returns
    -------
    MissingValues

    Raises
    ------
    ValueError
        Shapes that differ or are not one feature, NaN or inf, a constant
        feature, an unknown mechanism or imputer, a percent or range that
        hides no row or leaves too few observed, a bad seed, strength or k.
    """
    from ..imputation import knn_imputer

    feature, other = _as_feature(feature, "feature"), _as_feature(other, "other")
    if feature.shape != other.shape:
        raise ValueError(f"feature and other must have the same number of rows; found {len(feature)} and {len(other)}.")
    num_points = len(feature)
    for name, values in (("feature", feature), ("other", other)):
        if not np.ptp(values) > 0:
            raise ValueError(f"{name} is constant (every value {values[0]!r}): it has no spread and no correlation.")
    check_choice(mechanism, MECHANISMS, "mechanism")
    check_choice(imputer, IMPUTERS, "imputer")
    k = check_scalar(k, "k", numbers.Integral, min_val=1)
    strength = check_scalar(strength, "strength", numbers.Real, min_val=0)
    seed = check_scalar(seed, "seed", numbers.Integral, min_val=0, max_val=_MASK)
    try:
        low, high = (check_scalar(v, "percent_range", numbers.Integral, min_val=1, max_val=99) for v in percent_range)
    except TypeError:
        raise ValueError(f"percent_range must be a pair (low, high) of integers; found {percent_range!r}.") from None
    if not low < high:
        raise ValueError(f"percent_range must have low < high; found {percent_range!r}.")
    if missing_count(low, num_points) < 1:
        raise ValueError(f"percent_range starts at {low}% of {num_points} rows, which hides no row; start higher.")
    keep = max(k, 2)
    if num_points - missing_count(high, num_points) < keep:
        raise ValueError(f"percent_range ends at {high}% of {num_points} rows, which leaves "
                         f"{num_points - missing_count(high, num_points)} observed; the imputers need at least {keep}.")
    percent = check_scalar(percent, "percent", numbers.Integral, min_val=low, max_val=high)

    def margin(values):
        a, b = float(values.min()), float(values.max())
        pad = 0.06 * (b - a)
        return [a - pad, b + pad]

    widget = MissingValues()
    widget.config = {
        "feature": feature.tolist(), "other": other.tolist(),
        "weights": {m: missingness_weights(feature, other, m, strength).tolist() for m in MECHANISMS},
        "strength": float(strength), "k": int(k),
        # knn_imputer's scale of the other feature, as it computes it (whatever is missing, the other
        # feature is complete): the page measures the very distances knn_imputer does.
        "other_scale": float(knn_imputer(np.column_stack([np.where(np.arange(num_points) == 0, np.nan, feature),
                                                          other]), k).scales[1]),
        "percent_range": [int(low), int(high)],
        "xlim": check_range(xlim, "xlim") if xlim is not None else margin(other),
        "ylim": check_range(ylim, "ylim") if ylim is not None else margin(feature),
        "feature_name": str(feature_name), "other_name": str(other_name), "title": str(title),
    }
    widget.percent, widget.mechanism, widget.imputer, widget.seed = int(percent), mechanism, imputer, int(seed)
    return widget
