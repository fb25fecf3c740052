"""Gradient descent on least squares, for any learning rate, number of steps, start and
blend of the inputs (chapters 1, 7 and 9), and what the other descent widgets share.

Python computes the quadratic form and the browser only draws and iterates.
A least-squares cost is ``g(w) = wᵀ M w − 2 cᵀ w + m`` with the moments
``M = X̃ᵀX̃ / P``, ``c = X̃ᵀy / P`` and ``m = yᵀy / P``. The blended input
``(1 − t) X_i + t X_{i+1}`` between two stages has
``M(t) = (1 − t)² M_ii + t (1 − t) (M_ij + M_ji) + t² M_jj`` and
``c(t) = (1 − t) c_i + t c_j``, so a few 2×2 matrices per stage are all the
page needs, however many points there are. The browser runs
``w ← w − α (H w + b)`` with ``H = 2 M`` and ``b = −2 c``, the same steps as
:func:`mlrefined_lib.optimizers.gradient_descent`; the path it draws is exposed as the
``data-path`` attribute (JSON) of the widget's root element.

:class:`DescentWidget` is the base of the three widgets drawn by the front end
``quadratic_descent.js``: this one, :class:`~mlrefined_lib.live.SoftmaxDescent`
and :class:`~mlrefined_lib.live.MinibatchDescent`.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import traitlets

from .._esm import STATIC, module_text
from .._validation import check_scalar
from ._base import (
    LiveWidget,
    as_stage,
    check_levels,
    check_point,
    check_range,
    level_colors,
)

#: The front end of the three descent widgets.
ESM_PATH = STATIC / "quadratic_descent.js"
#: The ``_anywidget_id`` of the widget (the static book knows it by this name).
ANYWIDGET_ID = "mlrefined_lib.live.QuadraticDescent"


# ------------------------------------------------------------------ math
def blend_moments(inputs, y, *, bias: bool = True) -> dict:
    """The moments that fix a least-squares cost of blended inputs (chapters 7 and 9).

    Parameters
    ----------
    inputs : array of shape (P, N), or a sequence of them (the stages)
        ``N = 1`` with ``bias=True`` (weights: bias, slope) or ``N = 2`` with
        ``bias=False`` (weights: the two feature weights, no bias term).
    y : array of shape (P,)
    bias : bool
        Whether the model has a bias (a column of ones is prepended).

    Returns
    -------
    dict
        ``"diagonal"``: list of ``M_ii`` (2×2), ``"cross"``: list of
        ``(M_ij + M_ji) / 2`` for consecutive stages, ``"linear"``: list of
        ``c_i``, and ``"constant"``: ``m``, all as nested lists of floats.
    """
    stages = as_stages(inputs)
    if len(stages) == 0:
        raise ValueError("inputs must be an array of shape (P, N) or a non-empty list of them; found an empty list.")
    num_features = 1 if bias else 2
    y_arr = np.asarray(y, dtype=float)
    if y_arr.ndim != 1:
        raise ValueError(f"y must be 1-D with shape (P,); found shape {y_arr.shape}.")
    if not np.all(np.isfinite(y_arr)):
        raise ValueError("y holds NaN or inf.")
    arrays = [as_stage(s, y_arr.shape[0], num_features, i) for i, s in enumerate(stages)]
    if bias:
        arrays = [np.column_stack([np.ones(len(a)), a]) for a in arrays]
    num_points = len(y_arr)
    diagonal = [a.T @ a / num_points for a in arrays]
    cross = [(a.T @ b + b.T @ a) / (2 * num_points) for a, b in zip(arrays[:-1], arrays[1:])]
    linear = [a.T @ y_arr / num_points for a in arrays]
    return {
        "diagonal": [d.tolist() for d in diagonal],
        "cross": [c.tolist() for c in cross],
        "linear": [c.tolist() for c in linear],
        "constant": float(y_arr @ y_arr) / num_points,
    }


def _moments_at(moments: dict, blend: float) -> tuple[np.ndarray, np.ndarray, float]:
    """``(M, c, m)`` at a blend value in ``[0, stages − 1]`` (the formula the browser uses)."""
    last = len(moments["diagonal"]) - 1
    i = min(int(np.floor(blend)), max(last - 1, 0))
    t = blend - i
    if last == 0:
        return np.array(moments["diagonal"][0]), np.array(moments["linear"][0]), moments["constant"]
    a, b = np.array(moments["diagonal"][i]), np.array(moments["diagonal"][i + 1])
    s = np.array(moments["cross"][i])
    m = (1 - t) * (1 - t) * a + 2 * t * (1 - t) * s + t * t * b
    c = (1 - t) * np.array(moments["linear"][i]) + t * np.array(moments["linear"][i + 1])
    return m, c, moments["constant"]


def _quadratic_cost(h: np.ndarray, b: np.ndarray, c: float):
    """``g(w) = ½ wᵀHw + bᵀw + c``, with the vectorized form ``g.batch`` that the contour grids use."""

    def g(w):
        return 0.5 * w @ h @ w + b @ w + c

    g.batch = lambda ws: 0.5 * np.einsum("mi,ij,mj->m", ws, h, ws) + ws @ b + c
    return g


# ------------------------------------------------------- shared by the three descent widgets
def as_stages(inputs) -> list:
    """One array, or a sequence of them, as a list of stages."""
    return [inputs] if isinstance(inputs, np.ndarray) or not isinstance(inputs, Sequence) else list(inputs)


def tex_label(label: str) -> str:
    """``"w0 (bias)"`` → ``"$w_0$ (bias)"``: the axis label of the PNG."""
    head, _, rest = label.partition(" ")
    if len(head) == 2 and head[0] == "w" and head[1].isdigit():
        return f"$w_{head[1]}$ {rest}".strip()
    return label


def check_controls(alpha, alpha_range, steps, max_steps, start, *, steps_name: str = "steps",
                   max_steps_name: str = "max_steps", max_steps_limit: int = 1000):
    """The checked ``(alpha, alpha_range, steps, max_steps, start)`` of a descent widget's controls."""
    alpha_range = check_range(alpha_range, "alpha_range", positive=True)
    alpha = check_scalar(alpha, "alpha", numbers.Real, min_val=alpha_range[0], max_val=alpha_range[1])
    max_steps = check_scalar(max_steps, max_steps_name, numbers.Integral, min_val=1, max_val=max_steps_limit)
    steps = check_scalar(steps, steps_name, numbers.Integral, min_val=0, max_val=max_steps)
    return alpha, alpha_range, int(steps), int(max_steps), check_point(start, "start")


def check_stage_names(stage_names, num_stages: int) -> list[str]:
    if stage_names is not None and len(stage_names) != num_stages:
        raise ValueError(f"stage_names must name each of the {num_stages} stages; found {len(stage_names)} names.")
    return list(stage_names) if stage_names is not None else []


def descent_config(*, xrange, yrange, levels, alpha_range, max_steps, stage_names, blend_label, title,
                   xlabel, ylabel, equal_aspect) -> dict:
    """The part of ``config`` that ``quadratic_descent.js`` reads for every kind of descent."""
    return {
        "xrange": xrange,
        "yrange": yrange,
        "levels": levels.tolist(),
        "colors": level_colors(levels),
        "alpha_range": alpha_range,
        "max_steps": int(max_steps),
        "stage_names": stage_names,
        "blend_label": blend_label,
        "title": title,
        "xlabel": xlabel,
        "ylabel": ylabel,
        "xlabel_tex": tex_label(xlabel),
        "ylabel_tex": tex_label(ylabel),
        "equal_aspect": bool(equal_aspect),
    }


class DescentWidget(LiveWidget):
    """A descent path over the contours of a cost of two weights, drawn by ``quadratic_descent.js``.

    Synced values (set from Python or by the reader; the browser sends them
    when a control is released): ``alpha``, ``steps``, ``blend``, ``start``.
    ``config`` holds everything fixed.
    """

    _esm = module_text("quadratic_descent.js")
    config = traitlets.Dict().tag(sync=True)
    blend = traitlets.Float(0.0).tag(sync=True)
    start = traitlets.List(traitlets.Float(), default_value=[0.0, 0.0]).tag(sync=True)

    def _path_settings(self, alpha, steps, start) -> tuple[float, int, np.ndarray]:
        """``(alpha, steps, start)`` of a path: the arguments checked, or the current values."""
        alpha = self.alpha if alpha is None else check_scalar(alpha, "alpha", numbers.Real, min_val=0,
                                                              include_boundaries="neither")
        # steps >= 0: zero steps draws the start alone, as the slider's left end does
        steps = self.steps if steps is None else check_scalar(steps, "steps", numbers.Integral, min_val=0)
        w = np.array(self.start if start is None else check_point(start, "start"), dtype=float)
        return float(alpha), int(steps), w

    def _contour_png(self, cost, minimum=None) -> bytes:
        """A palette PNG of the contours of ``cost`` with the current path, drawn by :mod:`mlrefined_lib.plotting`."""
        import matplotlib.pyplot as plt

        from .. import plotting

        cfg = self.config
        fig, ax = plt.subplots(figsize=(5.2, 4.6))
        plotting.contour_with_path(cost, cfg["xrange"], cfg["yrange"], path=self.path(), levels=np.array(cfg["levels"]),
                                   minimum=minimum, ax=ax, num=120, equal_aspect=cfg["equal_aspect"],
                                   xlabel=cfg["xlabel_tex"], ylabel=cfg["ylabel_tex"],
                                   title=f"{cfg['title']} (static view)", legend=True)
        fig.tight_layout()
        return plotting.figure_to_png(fig)


# ------------------------------------------------------------------ the widget
class QuadraticDescent(DescentWidget):
    """The continuous descent widget; build it with :func:`quadratic_descent` (chapters 1, 7, 9).

    Synced values: ``alpha``, ``steps``, ``blend``, ``start``. ``config`` holds
    everything fixed: the moments, axes, contour levels and colours, labels.
    """

    anywidget_id = ANYWIDGET_ID
    alpha = traitlets.Float(0.1).tag(sync=True)
    steps = traitlets.Int(20).tag(sync=True)

    # ---- the math the browser repeats (used by the tests and the PNG)
    def quadratic(self, blend: float | None = None) -> tuple[np.ndarray, np.ndarray, float]:
        """``(H, b, c)`` with ``g(w) = ½ wᵀHw + bᵀw + c`` at a blend value (default: the current one)."""
        blend = self._blend_value(blend)
        m, lin, const = _moments_at(self.config["moments"], blend)
        return 2.0 * m, -2.0 * lin, float(const)

    def cost(self, w, blend: float | None = None) -> float:
        """The least-squares cost at weights ``w`` (shape (2,))."""
        w = np.asarray(check_point(w, "w"))
        return float(_quadratic_cost(*self.quadratic(blend))(w))

    def optimum(self, blend: float | None = None) -> np.ndarray:
        """The minimizer ``H⁻¹(−b)`` (least squares' normal equations)."""
        h, b, _ = self.quadratic(blend)
        return np.linalg.solve(h, -b)

    def path(self, alpha: float | None = None, steps: int | None = None, start=None,
             blend: float | None = None) -> np.ndarray:
        """The weights visited, shape ``(steps + 1, 2)``, by ``w ← w − α (H w + b)``; stops early if they overflow."""
        alpha, steps, w = self._path_settings(alpha, steps, start)
        h, b, _ = self.quadratic(blend)
        out = [w.copy()]
        with np.errstate(over="ignore", invalid="ignore"):
            for _ in range(steps):
                w = w - alpha * (h @ w + b)
                if not np.all(np.isfinite(w)) or np.abs(w).max() > 1e150:
                    break
                out.append(w.copy())
        return np.array(out)

    def _blend_value(self, blend) -> float:
        if blend is None:
            return float(self.blend)
        return check_scalar(blend, "blend", numbers.Real, min_val=0, max_val=len(self.config["moments"]["diagonal"]) - 1)

    # ---- static fallback
    def description(self) -> str:
        """A text description of the current view (the alt text of the PNG)."""
        cfg = self.config
        path = self.path()
        final = path[-1]
        return (
            f"{cfg['title']}: contour plot of the least-squares cost over "
            f"{cfg['xlabel']} and {cfg['ylabel']}, with {len(path) - 1} gradient-descent steps "
            f"(learning rate {self.alpha:.4g}) from ({path[0][0]:.3g}, {path[0][1]:.3g}) to "
            f"({final[0]:.3g}, {final[1]:.3g}); cost after {len(path) - 1} steps {self.cost(final):.4g}, "
            f"distance to the optimum {np.linalg.norm(final - self.optimum()):.3g}."
        )

    def to_png(self) -> bytes:
        """A palette PNG of the current view, drawn by :mod:`mlrefined_lib.plotting`."""
        return self._contour_png(_quadratic_cost(*self.quadratic()), minimum=self.optimum())


def quadratic_descent(
    inputs,
    y,
    *,
    xrange: Sequence[float],
    yrange: Sequence[float],
    alpha: float = 0.1,
    steps: int = 20,
    start=(0.0, 0.0),
    blend: float = 0.0,
    bias: bool = True,
    stage_names: Sequence[str] | None = None,
    blend_label: str = "blend",
    alpha_range: Sequence[float] = (1e-3, 1.0),
    max_steps: int = 100,
    levels=None,
    title: str = "Gradient descent on least squares",
    xlabel: str | None = None,
    ylabel: str | None = None,
    equal_aspect: bool = True,
) -> QuadraticDescent:
    """Build the continuous gradient-descent widget for a least-squares cost (chapters 1, 7, 9).

    Parameters
    ----------
    inputs : array of shape (P, N), or a list of them
        One array: a fixed cost. Several arrays (the same points in several
        representations, e.g. raw and standardized): the reader blends them
        continuously, stage ``i`` at ``blend = i``.
    y : array of shape (P,)
    xrange, yrange : (low, high)
        Fixed axes of the contour plot (the weights plotted: (bias, slope)
        with ``bias=True``; (w1, w2) with ``bias=False``).
    alpha : float
        Initial learning rate, inside ``alpha_range``.
    steps : int
        Initial number of steps, ``0 ≤ steps ≤ max_steps``.
    start : pair of floats
        Initial starting point.
    blend : float
        Initial blend, in ``[0, len(inputs) − 1]``.
    bias : bool
        ``True``: ``N = 1`` and the model is ``w0 + w1 x``. ``False``: ``N = 2``
        and the model is ``w1 x1 + w2 x2`` (no bias, e.g. centred data).
    stage_names : list of str, optional
        Names of the stages, announced with the blend value.
    blend_label : str
        Label of the blend control.
    alpha_range : (low, high)
        Range of the log-scale learning-rate control.
    max_steps : int
        Largest number of steps the reader can choose.
    levels : array, optional
        Contour levels; by default :func:`mlrefined_lib.plotting.contour_levels`
        of the cost at the initial blend over the axes (as in the book's plots).
    title, xlabel, ylabel : str
        Plain text (the page cannot typeset LaTeX inside the widget).
    equal_aspect : bool
        Same scale on both axes.

    Returns
    -------
    QuadraticDescent

    Raises
    ------
    ValueError
        For inputs of the wrong shape, non-finite data, or a setting out of range,
        before anything is computed.
    """
    stages = as_stages(inputs)
    xrange, yrange = check_range(xrange, "xrange"), check_range(yrange, "yrange")
    alpha, alpha_range, steps, max_steps, start = check_controls(alpha, alpha_range, steps, max_steps, start)
    blend = check_scalar(blend, "blend", numbers.Real, min_val=0, max_val=max(len(stages) - 1, 0))
    stage_names = check_stage_names(stage_names, len(stages))
    moments = blend_moments(stages, y, bias=bias)
    if xlabel is None:
        xlabel = "w0 (bias)" if bias else "w1 (feature 1 weight)"
    if ylabel is None:
        ylabel = "w1 (slope)" if bias else "w2 (feature 2 weight)"
    widget = QuadraticDescent()
    widget.config = {"moments": moments}  # enough for quadratic()
    if levels is None:
        from .. import plotting

        cost = _quadratic_cost(*widget.quadratic(blend))
        levels = plotting.contour_levels(plotting.cost_grid(cost, xrange, yrange, 120)[2])
    levels = check_levels(levels)
    widget.config = {
        "moments": moments,
        **descent_config(xrange=xrange, yrange=yrange, levels=levels, alpha_range=alpha_range, max_steps=max_steps,
                         stage_names=stage_names, blend_label=blend_label, title=title, xlabel=xlabel,
                         ylabel=ylabel, equal_aspect=equal_aspect),
    }
    widget.alpha, widget.steps, widget.start, widget.blend = alpha, steps, start, blend
    return widget
