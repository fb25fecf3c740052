"""A two-class decision threshold, moved along the precision–recall curve (chapter 13).

The reader moves the threshold θ: a row is called positive when its score is at
least θ. The page gets the scores (out-of-fold probabilities, say) and the true
labels, and computes for any θ the confusion matrix, the precision, recall and F1
of each class, and the point on the precision–recall curve; it also computes
the curve itself (one point per distinct score, as scikit-learn's
``precision_recall_curve``) and the threshold with the largest F1 of the
positive class. The methods below compute the same numbers in Python.
"""

from __future__ import annotations

import numbers

import numpy as np
import traitlets

from .._esm import STATIC, module_text
from .._validation import check_scalar
from ._base import LiveWidget

#: The decision-threshold widget of chapter 13.
THRESHOLD_ESM_PATH = STATIC / "threshold_curve.js"
THRESHOLD_ANYWIDGET_ID = "mlrefined_lib.live.ThresholdCurve"


def _ratio(num: float, den: float) -> float:
    return num / den if den > 0 else 0.0  # scikit-learn's zero_division=0


class ThresholdCurve(LiveWidget):
    """A decision threshold on a two-class score: the confusion matrix, per-class precision,
    recall and F1, and the point on the precision–recall curve; build it with
    :func:`threshold_curve` (chapter 13). Synced value: ``threshold``."""

    anywidget_id = THRESHOLD_ANYWIDGET_ID
    _esm = module_text("threshold_curve.js")
    config = traitlets.Dict().tag(sync=True)
    threshold = traitlets.Float(0.5).tag(sync=True)

    def confusion(self, threshold: float | None = None) -> np.ndarray:
        """``[[TN, FP], [FN, TP]]``: rows the true class (negative, positive), columns the call,
        a row called positive when its score is at least ``threshold``."""
        t = self.threshold if threshold is None else threshold
        scores, labels = np.array(self.config["scores"]), np.array(self.config["labels"], dtype=bool)
        called = scores >= t
        return np.array([[np.sum(~labels & ~called), np.sum(~labels & called)],
                         [np.sum(labels & ~called), np.sum(labels & called)]])

    def class_scores(self, threshold: float | None = None) -> np.ndarray:
        """Rows negative and positive class; columns precision, recall, F1 (0 where undefined)."""
        (tn, fp), (fn, tp) = self.confusion(threshold).tolist()
        rows = []
        for hit, called, actual in ((tn, tn + fn, tn + fp), (tp, tp + fp, tp + fn)):
            p, r = _ratio(hit, called), _ratio(hit, actual)
            rows.append([p, r, _ratio(2 * hit, called + actual)])
        return np.array(rows)

    def best_threshold(self) -> tuple[float, float]:
        """The distinct score with the largest F1 of the positive class (the lowest such score on
        a tie), and that F1."""
        scores, labels = np.array(self.config["scores"]), np.array(self.config["labels"], dtype=bool)
        best = (-1.0, 0.0)
        for t in np.unique(scores)[::-1]:
            called = scores >= t
            f1 = _ratio(2 * np.sum(called & labels), called.sum() + labels.sum())
            if f1 >= best[0]:
                best = (f1, float(t))
        return best[1], best[0]

    def description(self) -> str:
        cfg, t = self.config, self.threshold
        (tn, fp), (fn, tp) = self.confusion().tolist()
        (pn, rn, fn1), (pp, rp, fp1) = self.class_scores().tolist()
        best, best_f1 = self.best_threshold()
        pos, neg, unit = cfg["positive"], cfg["negative"], cfg["unit"]
        return (f"{cfg['title']}: {unit} are called {pos} when {cfg['score_label']} ≥ {t:.3f}. "
                f"{tp} of the {tp + fn} {pos} {unit} are found and {fp} of the {tn + fp} {neg} {unit} are "
                f"called {pos}: {pos} precision {pp:.3f}, recall {rp:.3f}, F1 {fp1:.3f}; {neg} precision "
                f"{pn:.3f}, recall {rn:.3f}, F1 {fn1:.3f}. The plot shows the precision–recall curve of "
                f"{pos} with this threshold's point on it; the largest F1 of {pos}, {best_f1:.3f}, is at "
                f"threshold {best:.3f}. Beside it, the confusion matrix.")

    def curve(self) -> np.ndarray:
        """Rows ``[threshold, precision, recall]`` of the positive class at each distinct score,
        from the highest to the lowest."""
        scores, labels = np.array(self.config["scores"]), np.array(self.config["labels"], dtype=bool)
        rows = []
        for t in np.unique(scores)[::-1]:
            called = scores >= t
            hits = np.sum(called & labels)
            rows.append([t, hits / called.sum(), hits / labels.sum()])
        return np.array(rows)

    def to_png(self) -> bytes:
        import matplotlib.pyplot as plt

        from .. import plotting

        cfg, t = self.config, self.threshold
        curve = self.curve()
        confusion = self.confusion()
        table = self.class_scores()
        pos, neg = cfg["positive"], cfg["negative"]
        fig, (ax, mat) = plt.subplots(1, 2, figsize=(8.8, 3.7), gridspec_kw={"width_ratios": [1.3, 1]})
        ax.plot(np.r_[0.0, curve[:, 2]], np.r_[1.0, curve[:, 1]], color="#2c7bb6", label="every threshold")
        for name, (p, r) in cfg["marks"].items():
            ax.plot(r, p, "s", color="#d7191c", ms=8, label=name)
        ax.plot(table[1, 1], table[1, 0], "o", color="#1a9641", ms=9, markeredgecolor="k",
                label=f"{cfg['score_label']} ≥ {t:.3f}")
        ax.set(xlabel=f"{pos} recall", ylabel=f"{pos} precision", xlim=(0, 1.02), ylim=(0, 1.05))
        ax.legend(fontsize=9, loc="lower left")
        ax.set_title(f"precision and recall of {pos}", fontsize=10)
        mat.imshow(confusion / confusion.sum(axis=1, keepdims=True), cmap="Blues", vmin=0, vmax=1.6)
        for i in range(2):
            for j in range(2):
                mat.text(j, i, str(confusion[i, j]), ha="center", va="center", fontsize=12)
        mat.set_xticks([0, 1], [f"called {neg}", f"called {pos}"])
        mat.set_yticks([0, 1], [f"{neg}\nP {table[0, 0]:.2f} R {table[0, 1]:.2f}",
                                f"{pos}\nP {table[1, 0]:.2f} R {table[1, 1]:.2f}"])
        mat.set_title(f"confusion matrix\nF1: {neg} {table[0, 2]:.2f}, {pos} {table[1, 2]:.2f}", fontsize=10)
        fig.tight_layout()
        return plotting.figure_to_png(fig, dpi=72)


def threshold_curve(
    scores,
    labels,
    *,
    threshold: float = 0.5,
    positive: str = "positive",
    negative: str = "negative",
    score_label: str = "score",
    unit: str = "rows",
    marks: dict | None = None,
    title: str = "Moving the decision threshold",
) -> ThresholdCurve:
    """Build the decision-threshold widget (chapter 13).

    Parameters
    ----------
    scores : array of shape (P,)
        Each row's score for the positive class (a predicted probability, say), from a model
        that did not train on that row (out-of-fold or held-out).
    labels : array of shape (P,)
        The true classes, 1 (or True) for the positive class and 0 (or False) for the other;
        both must occur.
    threshold : float
        Initial threshold θ: a row is called positive when its score is at least θ. The
        slider runs over [0, 1], widened to the scores' range if they leave it.
    positive, negative : str
        The names of the two classes.
    score_label : str
        What the score is, e.g. "Pr(snow)".
    unit : str
        What a row is, in the plural ("days").
    marks : dict of str to (precision, recall), optional
        Other rules to mark on the curve (say, the most probable class).
    title : str

    Returns
    -------
    ThresholdCurve

    Raises
    ------
    ValueError
        If the scores are not finite and 1-D, the labels not 0/1 of the same length with both
        classes present, the threshold not a finite number, or a mark not two numbers in [0, 1].
    """
    score_arr = np.asarray(scores, dtype=float) if not isinstance(scores, str) else np.zeros((0, 0))
    if score_arr.ndim != 1 or len(score_arr) < 2 or not np.all(np.isfinite(score_arr)):
        raise ValueError(f"scores must be a 1-D array of at least 2 finite numbers; found shape {score_arr.shape}"
                         f"{' with NaN or inf' if score_arr.ndim == 1 and len(score_arr) >= 2 else ''}.")
    label_arr = np.asarray(labels)
    if label_arr.shape != score_arr.shape:
        raise ValueError(f"labels must have the shape of scores {score_arr.shape}; found {label_arr.shape}.")
    if label_arr.dtype != bool and not (np.issubdtype(label_arr.dtype, np.number)
                                        and np.all(np.isin(label_arr, (0, 1)))):
        found = np.unique(label_arr)[:5].tolist()
        raise ValueError(f"labels must be 0 or 1 (or False and True); found values such as {found!r}.")
    label_arr = label_arr.astype(bool)
    if label_arr.all() or not label_arr.any():
        raise ValueError(f"labels must hold both classes; found only {int(label_arr[0])}.")
    low, high = min(0.0, float(score_arr.min())), max(1.0, float(score_arr.max()))
    threshold = check_scalar(threshold, "threshold", numbers.Real, min_val=low, max_val=high)
    marks = {} if marks is None else dict(marks)
    checked = {}
    for name, value in marks.items():
        pair = np.asarray(value, dtype=float) if not isinstance(value, str) else np.zeros(0)
        if pair.shape != (2,) or not np.all((pair >= 0) & (pair <= 1)):
            raise ValueError(f"marks[{name!r}] must be (precision, recall), two numbers in [0, 1]; found {value!r}.")
        checked[str(name)] = pair.tolist()
    widget = ThresholdCurve()
    widget.config = {
        "scores": score_arr.tolist(), "labels": label_arr.astype(int).tolist(), "range": [low, high],
        "positive": str(positive), "negative": str(negative), "score_label": str(score_label),
        "unit": str(unit), "marks": checked, "title": str(title),
    }
    widget.threshold = float(threshold)
    return widget
