"""Gradient descent on a two-class softmax cost of blended inputs (chapter 7, Example B)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import traitlets

from .._validation import check_scalar
from ._base import as_stage, check_levels, check_outputs, check_point, check_range
from .descent import DescentWidget, as_stages, check_controls, check_stage_names, descent_config

#: The same front end as QuadraticDescent draws the softmax widget.
SOFTMAX_ANYWIDGET_ID = "mlrefined_lib.live.SoftmaxDescent"

#: Contour grid of the softmax widget: enough points that the contours of the
#: book's examples look smooth, few enough that a phone-class CPU (Chromium at 4×
#: CPU throttling) redraws a new blend within one frame (measured in
#: tests/book/test_live_widget.py).
SOFTMAX_GRID = (81, 68)


class SoftmaxDescent(DescentWidget):
    """Gradient descent on a two-class softmax cost of blended inputs; build it with
    :func:`softmax_descent` (chapter 7, Example B).

    The same front end as :class:`~mlrefined_lib.live.QuadraticDescent`
    (``config["kind"] == "softmax"``): Python sends the points of each stage
    and the labels; the page evaluates the cost on a grid of ``config["grid"]``
    points for the contours (log of the cost interpolated between grid points)
    and runs the library's gradient step ``w ← w − α ∇g(w)`` for the path.
    Synced values as for :class:`~mlrefined_lib.live.QuadraticDescent`.
    """

    anywidget_id = SOFTMAX_ANYWIDGET_ID
    alpha = traitlets.Float(1.0).tag(sync=True)
    steps = traitlets.Int(100).tag(sync=True)

    def inputs(self, blend: float | None = None) -> np.ndarray:
        """The blended inputs, shape ``(P, 1)``, at a blend value (default: the current one)."""
        stages = self.config["stages"]
        blend = float(self.blend) if blend is None else check_scalar(
            blend, "blend", numbers.Real, min_val=0, max_val=len(stages) - 1)
        if len(stages) == 1:
            return np.array(stages[0], dtype=float)[:, None]
        i = min(int(np.floor(blend)), len(stages) - 2)
        t = blend - i
        return ((1 - t) * np.array(stages[i]) + t * np.array(stages[i + 1]))[:, None]

    def cost_function(self, blend: float | None = None):
        """:func:`mlrefined_lib.costs.softmax` of the blended inputs."""
        from ..costs import softmax

        return softmax(self.inputs(blend), np.array(self.config["labels"], dtype=float))

    def cost(self, w, blend: float | None = None) -> float:
        return float(self.cost_function(blend)(np.asarray(check_point(w, "w"))))

    def path(self, alpha: float | None = None, steps: int | None = None, start=None,
             blend: float | None = None) -> np.ndarray:
        """The weights visited, shape ``(steps + 1, 2)``: :func:`mlrefined_lib.optimizers.gradient_descent`."""
        from ..optimizers import gradient_descent

        alpha, steps, w = self._path_settings(alpha, steps, start)
        # A diverging run is one of the things the widget shows: it stops, drawn as far as it stayed finite.
        return gradient_descent(self.cost_function(blend), w, alpha, steps, warn=False).weights

    def description(self) -> str:
        """A text description of the current view (the alt text of the PNG)."""
        from ..costs import misclassifications

        cfg = self.config
        path = self.path()
        final = path[-1]
        errors = misclassifications(self.inputs(), np.array(cfg["labels"], dtype=float))(final)
        return (
            f"{cfg['title']}: contour plot of the softmax cost (levels on a log scale) over "
            f"{cfg['xlabel']} and {cfg['ylabel']} at {cfg['blend_label']} = {self.blend:.3g}, with "
            f"{len(path) - 1} gradient-descent steps (learning rate {self.alpha:.4g}) from "
            f"({path[0][0]:.3g}, {path[0][1]:.3g}) to ({final[0]:.3g}, {final[1]:.3g}); cost "
            f"{self.cost(path[0]):.4g} at the start, {self.cost(final):.4g} after {len(path) - 1} steps, "
            f"{errors} of {len(cfg['labels'])} points misclassified."
        )

    def to_png(self) -> bytes:
        """A palette PNG of the current view, drawn by :mod:`mlrefined_lib.plotting`."""
        return self._contour_png(self.cost_function())


def softmax_descent(
    inputs,
    y,
    *,
    xrange: Sequence[float],
    yrange: Sequence[float],
    levels,
    alpha: float = 1.0,
    steps: int = 100,
    start=(0.0, 0.0),
    blend: float = 0.0,
    stage_names: Sequence[str] | None = None,
    blend_label: str = "blend",
    alpha_range: Sequence[float] = (1e-2, 20.0),
    max_steps: int = 200,
    grid: Sequence[int] = SOFTMAX_GRID,
    title: str = "Gradient descent on the softmax cost",
    xlabel: str = "w0 (bias)",
    ylabel: str = "w1 (slope)",
    equal_aspect: bool = True,
) -> SoftmaxDescent:
    """Build the continuous gradient-descent widget for a two-class softmax cost (chapter 7, Example B).

    Parameters
    ----------
    inputs : array of shape (P, 1), or a list of them
        The same points in several representations (e.g. raw and standardized);
        the reader blends them continuously, stage ``i`` at ``blend = i``.
    y : array of shape (P,)
        Labels −1 and +1.
    xrange, yrange : (low, high)
        Fixed axes of the contour plot: the bias ``w0`` and the slope ``w1``.
    levels : array
        Increasing, positive contour levels (e.g. ``np.geomspace``); the page
        interpolates the log of the cost between grid points.
    alpha, steps, start, blend, stage_names, blend_label, alpha_range, max_steps
        As for :func:`~mlrefined_lib.live.quadratic_descent`.
    grid : (nx, ny)
        Points of the contour grid along each axis (corners included).
    title, xlabel, ylabel : str
        Plain text (``w0`` … ``w9`` at the start of a label are typeset in the PNG).
    equal_aspect : bool
        Same scale on both axes.

    Returns
    -------
    SoftmaxDescent

    Raises
    ------
    ValueError
        For inputs of the wrong shape, labels other than ±1, non-finite data, or
        a setting out of range.
    """
    from ..costs import softmax

    stages = as_stages(inputs)
    if len(stages) == 0:
        raise ValueError("inputs must be an array of shape (P, 1) or a non-empty list of them; found an empty list.")
    y_arr = check_outputs(y)
    arrays = [as_stage(s, len(y_arr), 1, i) for i, s in enumerate(stages)]
    softmax(arrays[0], y_arr)  # checks the labels
    xrange, yrange = check_range(xrange, "xrange"), check_range(yrange, "yrange")
    alpha, alpha_range, steps, max_steps, start = check_controls(alpha, alpha_range, steps, max_steps, start)
    blend = check_scalar(blend, "blend", numbers.Real, min_val=0, max_val=len(stages) - 1)
    stage_names = check_stage_names(stage_names, len(stages))
    if len(grid) != 2:
        raise ValueError(f"grid must be a pair (nx, ny); found {grid!r}.")
    grid = [int(check_scalar(g, "grid", numbers.Integral, min_val=2, max_val=400)) for g in grid]
    levels = check_levels(levels, positive=True)
    widget = SoftmaxDescent()
    widget.config = {
        "kind": "softmax",
        "stages": [a[:, 0].tolist() for a in arrays],
        "labels": y_arr.tolist(),
        "grid": grid,
        **descent_config(xrange=xrange, yrange=yrange, levels=levels, alpha_range=alpha_range, max_steps=max_steps,
                         stage_names=stage_names, blend_label=blend_label, title=title, xlabel=xlabel,
                         ylabel=ylabel, equal_aspect=equal_aspect),
    }
    widget.alpha, widget.steps, widget.start, widget.blend = alpha, steps, start, blend
    return widget
