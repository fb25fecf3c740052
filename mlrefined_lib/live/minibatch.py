"""Mini-batch gradient descent on a least-squares cost of one input (chapter 2)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import traitlets

from .._validation import check_scalar
from ._base import check_data, check_levels, check_point, check_range
from .descent import DescentWidget, blend_moments, check_controls, descent_config

#: Mini-batch gradient descent shares the front end of QuadraticDescent.
MINIBATCH_ANYWIDGET_ID = "mlrefined_lib.live.MinibatchDescent"


class MinibatchDescent(DescentWidget):
    """Mini-batch gradient descent on a least-squares cost of one input, for any batch size,
    learning rate and number of epochs; build it with :func:`minibatch_descent` (chapter 2).

    The front end of :class:`~mlrefined_lib.live.QuadraticDescent` (``config["kind"] == "minibatch"``):
    Python sends the points and the seeded permutation of each epoch (the ones
    :func:`mlrefined_lib.optimizers.minibatch_gradient_descent` draws with the
    same seed), so the page's path equals that function's ``step_weights``.
    Synced values: ``alpha``, ``steps`` (the number of epochs), ``batch_size``, ``start``.
    """

    anywidget_id = MINIBATCH_ANYWIDGET_ID
    alpha = traitlets.Float(0.1).tag(sync=True)
    steps = traitlets.Int(5).tag(sync=True)
    batch_size = traitlets.Int(1).tag(sync=True)

    def cost_function(self):
        from ..costs import least_squares

        points = self.config["points"]
        return least_squares(np.array(points["x"])[:, None], np.array(points["y"]))

    def run(self, alpha=None, epochs=None, batch_size=None, start=None):
        """:func:`mlrefined_lib.optimizers.minibatch_gradient_descent` with the widget's seed (``record_steps=True``)."""
        from ..optimizers import minibatch_gradient_descent

        w = np.array(self.start if start is None else check_point(start, "start"), dtype=float)
        # A diverging run is one of the things the widget shows: it stops, drawn as far as it stayed finite.
        return minibatch_gradient_descent(
            self.cost_function(), w, self.alpha if alpha is None else alpha,
            self.steps if epochs is None else epochs, self.batch_size if batch_size is None else batch_size,
            seed=self.config["seed"], record_steps=True, warn=False)

    def path(self, **kwargs) -> np.ndarray:
        """The weights after every step, shape ``(T+1, 2)``."""
        return self.run(**kwargs).step_weights

    def description(self) -> str:
        cfg = self.config
        run = self.run()
        final = run.step_weights[-1]
        minimum = np.array(cfg["minimum"])
        return (
            f"{cfg['title']}: contour plot of the least-squares cost over {cfg['xlabel']} and {cfg['ylabel']}, "
            f"with the path of mini-batch gradient descent: batch size {self.batch_size}, "
            f"{len(run.step_weights) - 1} steps ({self.steps} epochs of {run.steps_per_epoch}), learning rate "
            f"{self.alpha:.4g}, from ({run.step_weights[0][0]:.3g}, {run.step_weights[0][1]:.3g}) to "
            f"({final[0]:.3g}, {final[1]:.3g}); cost {run.costs[-1]:.4g}, distance to the optimum "
            f"{np.linalg.norm(final - minimum):.3g}."
        )

    def to_png(self) -> bytes:
        return self._contour_png(self.cost_function(), minimum=np.array(self.config["minimum"]))


def minibatch_descent(
    x,
    y,
    *,
    xrange: Sequence[float],
    yrange: Sequence[float],
    levels,
    alpha: float = 0.1,
    epochs: int = 5,
    batch_size: int = 1,
    start=(0.0, 0.0),
    seed: int = 0,
    max_epochs: int = 20,
    alpha_range: Sequence[float] = (1e-3, 1.0),
    title: str = "Mini-batch gradient descent",
    equal_aspect: bool = True,
) -> MinibatchDescent:
    """Build the mini-batch gradient-descent widget for least squares with one input (chapter 2).

    Parameters
    ----------
    x : array of shape (P, 1)
    y : array of shape (P,)
    xrange, yrange : (low, high)
        Axes of the contour plot: the bias ``w0`` and the slope ``w1``.
    levels : array
        Contour levels, increasing.
    alpha, epochs, batch_size, start
        Initial learning rate, number of epochs, batch size (``1 … P``) and start.
    seed : int
        Seed of the shuffles, as in :func:`~mlrefined_lib.optimizers.minibatch_gradient_descent`.
    max_epochs : int
        Largest number of epochs the reader can choose (one permutation of the
        P points is shipped for each).
    alpha_range : (low, high)
        Range of the log-scale learning-rate control.

    Returns
    -------
    MinibatchDescent
    """
    x_arr, y_arr = check_data(x, y, 1)
    points = len(y_arr)
    xrange, yrange = check_range(xrange, "xrange"), check_range(yrange, "yrange")
    alpha, alpha_range, epochs, max_epochs, start = check_controls(
        alpha, alpha_range, epochs, max_epochs, start, steps_name="epochs", max_steps_name="max_epochs",
        max_steps_limit=200)
    batch_size = check_scalar(batch_size, "batch_size", numbers.Integral, min_val=1, max_val=points)
    seed = check_scalar(seed, "seed", numbers.Integral)
    levels = check_levels(levels)
    rng = np.random.default_rng(seed)  # the permutations minibatch_gradient_descent draws, epoch by epoch
    permutations = [rng.permutation(points).tolist() for _ in range(max_epochs)]
    design = np.column_stack([np.ones(points), x_arr])
    widget = MinibatchDescent()
    widget.config = {
        "kind": "minibatch",
        "moments": blend_moments(x_arr, y_arr),
        "points": {"x": x_arr[:, 0].tolist(), "y": y_arr.tolist()},
        "permutations": permutations,
        "seed": int(seed),
        "minimum": np.linalg.lstsq(design, y_arr, rcond=None)[0].tolist(),
        **descent_config(xrange=xrange, yrange=yrange, levels=levels, alpha_range=alpha_range, max_steps=max_epochs,
                         stage_names=[], blend_label="", title=title, xlabel="w0 (bias)", ylabel="w1 (slope)",
                         equal_aspect=equal_aspect),
    }
    widget.alpha, widget.steps, widget.batch_size, widget.start = alpha, epochs, int(batch_size), start
    return widget
