"""The cost of scaled weights ``w = ζ v`` for any norm ``ζ`` (``v`` a fixed unit direction, the data key ``u``) (chapter 3)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import traitlets

from .._esm import STATIC, module_text
from .._validation import check_scalar
from ._base import LiveWidget, as_stage, check_range

#: The weight-scale widget of chapter 3.
WEIGHT_SCALE_ESM_PATH = STATIC / "weight_scale.js"
WEIGHT_SCALE_ANYWIDGET_ID = "mlrefined_lib.live.WeightScale"


class WeightScale(LiveWidget):
    """The cross-entropy cost of ``w = s u`` for any weight norm ``s``, on a separable and an
    overlapping problem; build it with :func:`weight_scale` (chapter 3). Synced value: ``scale``."""

    anywidget_id = WEIGHT_SCALE_ANYWIDGET_ID
    _esm = module_text("weight_scale.js")
    config = traitlets.Dict().tag(sync=True)
    scale = traitlets.Float(1.0).tag(sync=True)

    def costs(self, scale: float | None = None) -> list[float]:
        """[separable, overlapping] cross-entropy cost at ``w = scale · u`` (default: the current scale)."""
        from ..costs import cross_entropy

        s = self.scale if scale is None else scale
        return [float(cross_entropy(np.array(p["x"])[:, None], np.array(p["y"]))(s * np.array(p["u"])))
                for p in self.config["problems"]]

    def mistakes(self, scale: float | None = None) -> list[int]:
        from ..costs import misclassifications

        s = self.scale if scale is None else scale
        return [int(misclassifications(np.array(p["x"])[:, None], np.array(p["y"]))(s * np.array(p["u"])))
                for p in self.config["problems"]]

    def description(self) -> str:
        (a, b), (ea, eb) = self.costs(), self.mistakes()
        first, second = self.config["problems"]
        return (f"{self.config['title']} at ||w|| = {self.scale:.3g}: the {first['kind']} problem ({first['name']}) "
                f"has cost {a:.2e} and {ea} mistakes, the {second['kind']} problem ({second['name']}) cost {b:.2e} "
                f"and {eb} mistakes; right, both costs along their rays on log scales.")

    def to_png(self) -> bytes:
        from .. import plotting
        from ..figures.classification_costs import weight_scale_frame

        cfg = self.config

        def problem(p):
            return (np.array(p["x"])[:, None], np.array(p["y"]), np.array(p["u"]), p["xlabel"], p["name"],
                    tuple(p["x_range"]))

        first, second = cfg["problems"]
        fig = weight_scale_frame(self.scale, problem(first), problem(second),
                                 scales=np.geomspace(*cfg["scale_range"], 200), jitter=np.array(cfg["jitter"]),
                                 minimizer_norm=cfg["minimizer_norm"])
        return plotting.figure_to_png(fig, dpi=72)


def weight_scale(
    separable,
    overlapping,
    *,
    jitter,
    minimizer_norm: float,
    scale: float = 1.0,
    scale_range: Sequence[float] = (0.3, 100.0),
    title: str = "The cost of scaled weights",
) -> WeightScale:
    """Build the weight-scale widget (chapter 3): ``w = s u`` for any ``s`` on two problems.

    Parameters
    ----------
    separable, overlapping : tuple ``(x, y, u, xlabel, class_name, x_range)``
        Inputs of shape (P, 1), labels 0/1 of shape (P,), a unit direction
        ``u`` of shape (2,), the x-axis label, the name of class 1 and the
        axis limits, as for ``figures.classification_costs.weight_scale_frame`` (chapter 3).
    jitter : array of shape (P,)
        Vertical offsets of the points (drawing only).
    minimizer_norm : float
        ``||w*||`` of the overlapping problem (a dotted line).
    scale : float
        Initial weight norm, inside ``scale_range`` (the control is log scale).

    Returns
    -------
    WeightScale
    """
    scale_range = check_range(scale_range, "scale_range", positive=True, why=" (a log scale)")
    scale = check_scalar(scale, "scale", numbers.Real, min_val=scale_range[0], max_val=scale_range[1])
    problems = []
    for kind, value in (("separable", separable), ("overlapping", overlapping)):
        x, y, u, xlabel, name, x_range = value
        y_arr = np.asarray(y, dtype=float)
        x_arr = as_stage(x, len(y_arr), 1, 0)
        if not np.all(np.isin(y_arr, (0.0, 1.0))):
            raise ValueError(f"the {kind} problem's labels must be 0 or 1.")
        u = np.asarray(u, dtype=float)
        if u.shape != (2,) or not np.isclose(np.linalg.norm(u), 1.0):
            raise ValueError(f"the {kind} problem's direction u must be a unit vector of shape (2,); found {u!r}.")
        problems.append({"kind": kind, "x": x_arr[:, 0].tolist(), "y": y_arr.tolist(), "u": u.tolist(),
                         "xlabel": str(xlabel), "name": str(name), "x_range": check_range(x_range, "x_range")})
    jitter = np.asarray(jitter, dtype=float)
    if jitter.shape != (len(problems[0]["y"]),) or len(problems[1]["y"]) != len(jitter):
        raise ValueError("jitter must have one offset per point (both problems have the same points).")
    widget = WeightScale()
    widget.config = {
        "problems": problems,
        "jitter": jitter.tolist(),
        "minimizer_norm": check_scalar(minimizer_norm, "minimizer_norm", numbers.Real, min_val=0),
        "scale_range": scale_range,
        "title": title,
    }
    widget.scale = scale
    return widget
