"""The exact lasso and ridge minimizers over the contours of a least-squares cost, for any λ (chapter 11)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import traitlets

from .._esm import STATIC, module_text
from .._validation import check_scalar
from ._base import (
    LiveWidget,
    check_levels,
    check_data,
    check_point,
    check_range,
    level_colors,
)

#: The lasso and ridge geometry of chapter 11 has a front end of its own.
PENALTY_ESM_PATH = STATIC / "penalty_geometry.js"
PENALTY_ANYWIDGET_ID = "mlrefined_lib.live.PenaltyGeometry"


def penalized_minimizers(moments, linear, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """The exact lasso and ridge minimizers of a cost of two weights (chapter 11).

    The cost is ``g(w) = wᵀMw − 2cᵀw + m`` (least squares on centred data:
    ``M = XᵀX / P``, ``c = Xᵀy / P``, no bias). Ridge minimizes ``g + λ‖w‖²``:
    ``(M + λI) w = c``. The lasso minimizes ``g + λ(|w1| + |w2|)``; in two
    dimensions its minimizer follows from its active set: for each support and
    sign pattern ``s`` the stationary point solves ``M_SS w_S = c_S − λ s_S / 2``,
    and the minimizer is the first candidate (both weights, then ``w1`` alone,
    then ``w2`` alone, then none) whose signs agree with ``s`` and whose zero
    weights satisfy ``|2 (Mw − c)_n| ≤ λ`` (the optimality conditions). The page
    runs the same arithmetic in the same order.

    Parameters
    ----------
    moments : array of shape (2, 2)
        ``M``, symmetric positive definite.
    linear : array of shape (2,)
        ``c``.
    lam : float >= 0

    Returns
    -------
    (lasso, ridge) : two arrays of shape (2,)
    """
    m = np.asarray(moments, dtype=float)
    c = np.asarray(linear, dtype=float)
    lam = check_scalar(lam, "lam", numbers.Real, min_val=0)
    a, b, d = m[0, 0], m[0, 1], m[1, 1]
    det_r = (a + lam) * (d + lam) - b * b
    ridge = np.array([((d + lam) * c[0] - b * c[1]) / det_r, ((a + lam) * c[1] - b * c[0]) / det_r])
    return _lasso_2d(a, b, d, c[0], c[1], lam), ridge


def _lasso_2d(a, b, d, c0, c1, lam) -> np.ndarray:
    slack = 1e-12 * max(1.0, lam, abs(c0), abs(c1))
    det = a * d - b * b
    for s0 in (1.0, -1.0):
        for s1 in (1.0, -1.0):
            r0, r1 = c0 - lam * s0 / 2, c1 - lam * s1 / 2
            w0, w1 = (d * r0 - b * r1) / det, (a * r1 - b * r0) / det
            if w0 * s0 > 0 and w1 * s1 > 0:
                return np.array([w0, w1])
    for s0 in (1.0, -1.0):  # w1 alone (w2 = 0)
        w0 = (c0 - lam * s0 / 2) / a
        if w0 * s0 > 0 and abs(2 * (b * w0 - c1)) <= lam + slack:
            return np.array([w0, 0.0])
    for s1 in (1.0, -1.0):  # w2 alone (w1 = 0)
        w1 = (c1 - lam * s1 / 2) / d
        if w1 * s1 > 0 and abs(2 * (b * w1 - c0)) <= lam + slack:
            return np.array([0.0, w1])
    return np.array([0.0, 0.0])


class PenaltyGeometry(LiveWidget):
    """The lasso and ridge minimizers over the contours of a least-squares cost of two
    weights, for any λ; build it with :func:`penalty_geometry` (chapter 11).

    Python sends ``M`` and ``c`` (``config["moments"]``, ``config["linear"]``);
    the page computes both minimizers exactly (:func:`penalized_minimizers`),
    the contours of ``g`` pixel by pixel, and the paths of minimizers. The
    minimizers drawn are kept in the root element's ``data-lasso`` and
    ``data-ridge`` attributes (JSON), the exact λ in ``data-lam``.
    Synced value: ``lam``.
    """

    anywidget_id = PENALTY_ANYWIDGET_ID
    _esm = module_text("penalty_geometry.js")
    config = traitlets.Dict().tag(sync=True)
    lam = traitlets.Float(0.0).tag(sync=True)

    def minimizers(self, lam: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(lasso, ridge)`` at ``lam`` (default: the current value)."""
        cfg = self.config
        return penalized_minimizers(cfg["moments"], cfg["linear"], self.lam if lam is None else lam)

    def cost(self, w) -> float:
        """``g(w) = wᵀMw − 2cᵀw + m``."""
        cfg = self.config
        w = np.asarray(check_point(w, "w"))
        return float(w @ np.array(cfg["moments"]) @ w - 2 * np.array(cfg["linear"]) @ w + cfg["constant"])

    def description(self) -> str:
        lasso, ridge = self.minimizers()
        zeros = int(np.sum(lasso == 0))
        return (
            f"{self.config['title']} at lambda = {self.lam:.3g}: over the contours of the least-squares cost of "
            f"w1 and w2, the lasso (l1) minimizer is ({lasso[0]:.3f}, {lasso[1]:.3f}), with "
            f"{zeros} weight{'s' if zeros != 1 else ''} exactly zero, on the diamond |w1| + |w2| = "
            f"{np.abs(lasso).sum():.3f}; the ridge (squared l2) minimizer is ({ridge[0]:.3f}, {ridge[1]:.3f}), "
            f"on the circle of radius {np.linalg.norm(ridge):.3f}, with no weight zero."
        )

    def to_png(self) -> bytes:
        import matplotlib.pyplot as plt

        from .. import plotting

        cfg = self.config
        w1, w2, values = plotting.cost_grid(lambda w: self.cost(w), cfg["xrange"], cfg["yrange"], num=120)
        lams = np.linspace(0.0, cfg["lam_range"][1], 121)
        paths = np.array([self.minimizers(v) for v in lams])
        fig, axes = plt.subplots(1, 2, figsize=(9.2, 4.5))
        for ax, norm, k, label in [(axes[0], "l1", 0, "l1 (lasso)"), (axes[1], "l2", 1, "squared l2 (ridge)")]:
            w = self.minimizers()[k] + 0.0
            plotting.penalty_ball_panel(ax, w1, w2, values, np.array(cfg["levels"]), w, norm=norm,
                                        unregularized=np.array(cfg["unregularized"]), path=paths[:, k],
                                        title=f"{label}, lambda = {self.lam:.2f}\nw = ({w[0]:.3f}, {w[1]:.3f})")
        fig.subplots_adjust(left=0.07, right=0.98, bottom=0.11, top=0.88, wspace=0.22)
        return plotting.figure_to_png(fig)


def penalty_geometry(
    x,
    y,
    *,
    xrange: Sequence[float],
    yrange: Sequence[float],
    levels,
    lam: float = 0.0,
    lam_range: Sequence[float] | None = None,
    title: str = "The l1 diamond and the l2 circle",
) -> PenaltyGeometry:
    """Build the lasso and ridge geometry widget for least squares with two centred inputs (chapter 11).

    Parameters
    ----------
    x : array of shape (P, 2)
        Centred inputs (each column has mean 0), so the best bias is 0 and the
        cost is a function of ``(w1, w2)``.
    y : array of shape (P,)
        Centred outputs.
    xrange, yrange : (low, high)
        Fixed axes (``w1``, ``w2``).
    levels : array
        Contour levels of the least-squares cost, increasing.
    lam : float
        Initial penalty.
    lam_range : (0, high), optional
        Range of the λ control; by default up to 1.25 λ_max, past the point
        where every lasso weight is 0.

    Returns
    -------
    PenaltyGeometry
    """
    x_arr, y_arr = check_data(x, y, 2)
    scale = max(1.0, float(np.abs(x_arr).max()), float(np.abs(y_arr).max()))
    if np.abs(x_arr.mean(axis=0)).max() > 1e-9 * scale or abs(y_arr.mean()) > 1e-9 * scale:
        raise ValueError("x and y must be centred (every column with mean 0): subtract their means first.")
    moments = x_arr.T @ x_arr / len(y_arr)
    linear = x_arr.T @ y_arr / len(y_arr)
    if np.linalg.eigvalsh(moments).min() <= 1e-12 * np.abs(moments).max():
        raise ValueError("the two inputs are collinear: the cost has no unique minimizer.")
    lam_max = float(np.abs(2 * linear).max())
    lam_range = [0.0, 1.25 * lam_max] if lam_range is None else check_range(lam_range, "lam_range")
    if lam_range[0] != 0:
        raise ValueError(f"lam_range must start at 0; found {lam_range!r}.")
    lam = check_scalar(lam, "lam", numbers.Real, min_val=0, max_val=lam_range[1])
    xrange, yrange = check_range(xrange, "xrange"), check_range(yrange, "yrange")
    levels = check_levels(levels)
    widget = PenaltyGeometry()
    widget.config = {
        "moments": moments.tolist(),
        "linear": linear.tolist(),
        "constant": float(y_arr @ y_arr) / len(y_arr),
        "unregularized": np.linalg.solve(moments, linear).tolist(),
        "lam_max": lam_max,
        "lam_range": lam_range,
        "xrange": xrange,
        "yrange": yrange,
        "levels": levels.tolist(),
        "colors": level_colors(levels),
        "title": title,
    }
    widget.lam = lam
    return widget
