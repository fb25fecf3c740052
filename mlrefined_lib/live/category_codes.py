"""What a false order does: a line over numeric codes against one-hot, computed by the page (chapter 6).

The reader drags the number given to each category. The page fits, by least
squares, the line ``w0 + w1 c`` over the code ``c`` of each row's category and
the one-hot model (bias plus one column per category), and draws both fits
over the codes with their training mean squared errors. The one-hot fit
predicts each category's mean whatever the codes; the line does not, and it
reaches the one-hot error only when the category means lie on a line over the
codes (for example when each code is its category's mean).

Python hands the page the category of each row and the outputs; the page
computes both fits itself. :meth:`CategoryCodes.ordinal_fit` and
:meth:`CategoryCodes.one_hot_fit` are the same fits by ``np.linalg.lstsq``.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import traitlets

from .._esm import STATIC, module_text
from .._validation import check_scalar
from ._base import LiveWidget, check_outputs, check_range

#: The category-codes widget of chapter 6.
CATEGORY_CODES_ESM_PATH = STATIC / "category_codes.js"
CATEGORY_CODES_ANYWIDGET_ID = "mlrefined_lib.live.CategoryCodes"

ORDINAL_COLOR, ONE_HOT_COLOR = "#d7191c", "#2c7bb6"


def _least_squares(design: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The least-squares weights (smallest norm when they are not unique) and fitted values."""
    weights = np.linalg.lstsq(design, y, rcond=None)[0]
    return weights, design @ weights


class CategoryCodes(LiveWidget):
    """A least-squares line over the categories' numeric codes against the one-hot fit, for any
    codes; build it with :func:`category_codes` (chapter 6). Synced value: ``codes`` (one number
    per category, in the order of ``config["levels"]``)."""

    anywidget_id = CATEGORY_CODES_ANYWIDGET_ID
    _esm = module_text("category_codes.js")
    config = traitlets.Dict().tag(sync=True)
    codes = traitlets.List(traitlets.Float()).tag(sync=True)

    @property
    def first_code(self) -> float:
        """The code of the first category (its slider is the widget's first)."""
        return self.codes[0]

    @first_code.setter
    def first_code(self, value: float) -> None:
        self.codes = [float(value), *self.codes[1:]]

    def _rows(self) -> tuple[np.ndarray, np.ndarray]:
        return np.array(self.config["index"], dtype=int), np.array(self.config["y"], dtype=float)

    def ordinal_fit(self, codes: Sequence[float] | None = None) -> tuple[np.ndarray, np.ndarray, float]:
        """The least-squares line over the codes: ``(weights [w0, w1], prediction per category, training MSE)``.

        When every row has the same code the line is not unique; ``np.linalg.lstsq`` returns the
        smallest weights, and the prediction is the mean of ``y`` all the same.
        """
        index, y = self._rows()
        c = np.asarray(self.codes if codes is None else codes, dtype=float)
        design = np.column_stack([np.ones(len(y)), c[index]])
        weights, fitted = _least_squares(design, y)
        return weights, weights[0] + weights[1] * c, float(np.mean((fitted - y) ** 2))

    def one_hot_fit(self) -> tuple[np.ndarray, float]:
        """The least-squares fit on the bias and the one-hot columns: ``(prediction per category, training MSE)``."""
        index, y = self._rows()
        levels = len(self.config["levels"])
        design = np.column_stack([np.ones(len(y)), np.eye(levels)[index]])
        weights, fitted = _least_squares(design, y)
        return weights[0] + weights[1:], float(np.mean((fitted - y) ** 2))

    def _codes_text(self) -> str:
        return ", ".join(f"{name} = {c:g}" for name, c in zip(self.config["levels"], self.codes))

    def description(self) -> str:
        levels = self.config["levels"]
        _, line, line_mse = self.ordinal_fit()
        means, one_hot_mse = self.one_hot_fit()
        predicted = ", ".join(f"{name} {v:.3g}" for name, v in zip(levels, line))
        group = ", ".join(f"{name} {v:.3g}" for name, v in zip(levels, means))
        return (f"{self.config['title']}: codes {self._codes_text()}. The least-squares line over the codes "
                f"predicts {predicted}, training mean squared error {line_mse:.3g}; one-hot predicts each "
                f"category's mean ({group}), error {one_hot_mse:.3g}, whatever the codes. The plot shows the "
                f"{len(self.config['y'])} points at their category's code (spread sideways), the line and the "
                f"category means; the bar chart, the two errors.")

    def to_png(self) -> bytes:
        import matplotlib.pyplot as plt

        from .. import plotting

        cfg = self.config
        index, y = self._rows()
        codes = np.array(self.codes)
        _, line, line_mse = self.ordinal_fit()
        means, one_hot_mse = self.one_hot_fit()
        low, high = cfg["code_range"]
        span = high - low
        fig, (left, right) = plt.subplots(1, 2, figsize=(8.8, 3.7), gridspec_kw={"width_ratios": [1.6, 1]})
        left.scatter(codes[index] + span * _jitter(len(y)), y, s=8, color="0.65")
        xs = np.array([low - 0.05 * span, high + 0.05 * span])
        w, _, _ = self.ordinal_fit()
        left.plot(xs, w[0] + w[1] * xs, color=ORDINAL_COLOR, lw=2, label="line over the codes")
        for k, name in enumerate(cfg["levels"]):
            left.plot([codes[k] - 0.05 * span, codes[k] + 0.05 * span], [means[k]] * 2, color=ONE_HOT_COLOR, lw=3,
                      label="one-hot (category mean)" if k == 0 else None)
            left.annotate(name, (codes[k], cfg["ylim"][1]), ha="center", va="top", fontsize=9,
                          xytext=(0, -3), textcoords="offset points")
        left.set(xlim=xs, ylim=cfg["ylim"], xlabel=cfg["xlabel"], ylabel=cfg["ylabel"])
        left.legend(fontsize=8, loc="lower right")
        left.set_title("the points at their category's code", fontsize=10)
        right.bar([0, 1], [line_mse, one_hot_mse], color=[ORDINAL_COLOR, ONE_HOT_COLOR], width=0.6)
        right.axhline(cfg["variance"], color="k", ls="--", lw=1)
        right.set_xticks([0, 1], ["line over\nthe codes", "one-hot"])
        right.set(ylim=(0, 1.08 * cfg["variance"]), ylabel="training MSE")
        right.set_title(f"errors: {line_mse:.3g} and {one_hot_mse:.3g}", fontsize=10)
        fig.tight_layout()
        return plotting.figure_to_png(fig, dpi=72)


def _jitter(num_points: int) -> np.ndarray:
    """A fixed spread of the points around their code, as a share of the code range (golden-ratio
    steps; the page spreads them the same way)."""
    return ((np.arange(num_points) * 0.6180339887498949) % 1.0 - 0.5) * 0.06


def category_codes(
    categories,
    y,
    *,
    levels: Sequence | None = None,
    codes: Sequence[float] | None = None,
    code_range: Sequence[float] | None = None,
    step: float = 0.05,
    ylim: Sequence[float] | None = None,
    xlabel: str = "numeric code of the category",
    ylabel: str = "output y",
    title: str = "What a false order does: a line over the codes against one-hot",
) -> CategoryCodes:
    """Build the category-codes widget (chapter 6): the page fits both models itself.

    Parameters
    ----------
    categories : 1-D array-like of length P
        The category of each row (strings, integers, ...).
    y : array of shape (P,)
        The output of each row.
    levels : sequence of K distinct categories, optional
        The categories in the order of their sliders; by default the sorted
        unique entries of ``categories``. Every row's category must be one of
        them, and each must occur at least once.
    codes : sequence of K numbers, optional
        The initial code of each category; default ``0, 1, ..., K-1``.
    code_range : (low, high), optional
        The range of every slider; default ``(0, K-1)``, widened to hold ``codes``.
    step : float > 0
        The sliders' step.
    ylim : (low, high), optional
        The axis of the outputs; default the range of ``y`` with a margin.

    Returns
    -------
    CategoryCodes

    Raises
    ------
    ValueError
        A length mismatch, NaN or inf in ``y``, fewer than 2 levels, a
        duplicated level, a row whose category is not a level, a level with no
        row, codes that are not K finite numbers inside ``code_range``, or a
        bad ``step``.
    """
    y = check_outputs(y)
    values = list(np.asarray(categories, dtype=object).ravel()) if not isinstance(categories, str) else None
    if values is None or np.ndim(np.asarray(categories, dtype=object)) != 1:
        raise ValueError(f"categories must be a 1-D sequence with one category per row; found {categories!r:.80}.")
    if len(values) != len(y):
        raise ValueError(f"categories has {len(values)} entries but y has {len(y)}: give one category per row.")
    if levels is None:
        try:
            levels = sorted(set(values))
        except TypeError:
            raise ValueError("the categories cannot be sorted: pass levels, the categories in the order "
                             "of their sliders.") from None
    levels = list(levels)
    if len(levels) < 2:
        raise ValueError(f"levels must hold at least 2 categories; found {levels!r}.")
    if len(set(levels)) != len(levels):
        raise ValueError(f"levels must not repeat a category; found {levels!r}.")
    position = {level: k for k, level in enumerate(levels)}
    unknown = [v for v in values if v not in position]
    if unknown:
        raise ValueError(f"category {unknown[0]!r} of the rows is not one of levels {levels!r}.")
    index = np.array([position[v] for v in values], dtype=int)
    counts = np.bincount(index, minlength=len(levels))
    if np.any(counts == 0):
        raise ValueError(f"every level needs at least one row; found none for {levels[int(np.argmin(counts))]!r}.")
    num_levels = len(levels)
    if codes is None:
        codes = np.arange(num_levels, dtype=float)
    else:
        codes = np.asarray(codes, dtype=float) if not isinstance(codes, str) else np.zeros(0)
        if codes.shape != (num_levels,) or not np.all(np.isfinite(codes)):
            raise ValueError(f"codes must be {num_levels} finite numbers, one per level; found {codes!r}.")
    if code_range is None:
        code_range = [min(0.0, float(codes.min())), max(float(num_levels - 1), float(codes.max()))]
    code_range = check_range(code_range, "code_range")
    if codes.min() < code_range[0] or codes.max() > code_range[1]:
        raise ValueError(f"codes must lie in code_range {code_range!r}; found {codes.tolist()!r}.")
    step = check_scalar(step, "step", numbers.Real, min_val=0, include_boundaries="neither")
    if step > code_range[1] - code_range[0]:
        raise ValueError(f"step must not exceed the width of code_range {code_range!r}; found {step}.")
    if ylim is None:
        pad = 0.08 * (float(y.max() - y.min()) or 1.0)
        ylim = [float(y.min()) - pad, float(y.max()) + pad]
    widget = CategoryCodes()
    widget.config = {
        "levels": [str(level) for level in levels], "index": index.tolist(), "y": y.tolist(),
        "code_range": code_range, "step": float(step), "ylim": check_range(ylim, "ylim"),
        "variance": float(np.mean((y - y.mean()) ** 2)),
        "xlabel": str(xlabel), "ylabel": str(ylabel), "title": str(title),
    }
    widget.codes = codes.tolist()
    return widget
