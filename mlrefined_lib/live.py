"""A continuous gradient-descent widget for least-squares costs (chapters 1, 7 and 9).

:func:`quadratic_descent` shows the contour plot of a least-squares cost of two
weights with the gradient-descent path on it. The reader drags the learning
rate (log scale), the number of steps, a blend of the inputs (raw →
standardized, or raw → standardized → sphered) and the starting point (click
or drag on the plot, or arrow keys), and the path is redrawn at once.

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

**Where the front-end code comes from.** The widget is an ``anywidget``: its front end is the ES module
``mlrefined_lib/static/quadratic_descent.js``, shipped with the package.

* **JupyterLab 4 and Notebook 7**: the running kernel sends the module's text
  (the ``_esm`` trait, read from the installed package file) and anywidget's
  lab extension imports it. The code is the library's own file, sent by the
  kernel that the reader started.
* **The static book** (no kernel): the page's widget state also holds that
  text, but it is never evaluated. ``assets/live-widgets.js`` maps the AMD
  module ``anywidget`` to a small wrapper around the vendored copy of
  anywidget's front end; before a model starts, the wrapper replaces its
  ``_esm`` by the URL of the copy of ``quadratic_descent.js`` that the book
  serves itself (``_static/vendor/mlrefined/``), and any other anywidget by a
  module that only says it needs a kernel. ``tools/vendor_assets.py`` copies
  both files from the installed packages, so their versions match.
* **No JavaScript**, or a notebook opened before it is run: the output also
  carries a PNG of the initial view (``image/png``, its alt text in the
  output's metadata) and a text description; in the built book,
  ``_ext/live_fallback.py`` puts that PNG in a ``<noscript>`` next to the view.

The controls sync their value to the kernel only when released (``change``),
and redraw locally on every ``input`` event.
"""

from __future__ import annotations

import base64
import numbers
from collections.abc import Sequence
from pathlib import Path

import numpy as np

try:  # anywidget is needed only to display the widget, not to compute with it
    import anywidget
    import traitlets
except ImportError:  # pragma: no cover - anywidget is in requirements.txt
    anywidget = None

from ._validation import check_scalar

__all__ = ["QuadraticDescent", "quadratic_descent", "blend_moments"]

STATIC = Path(__file__).resolve().parent / "static"
ESM_PATH = STATIC / "quadratic_descent.js"
#: The ``_anywidget_id`` of the widget (the static book's wrapper knows it by this name).
ANYWIDGET_ID = "mlrefined_lib.live.QuadraticDescent"


# ------------------------------------------------------------------ math
def _as_stage(x, num_points: int | None, num_features: int, index: int) -> np.ndarray:
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 2 or arr.shape[1] != num_features:
        raise ValueError(
            f"inputs[{index}] must have shape (P, {num_features}); found shape {arr.shape}."
        )
    if num_points is not None and arr.shape[0] != num_points:
        raise ValueError(f"inputs[{index}] has {arr.shape[0]} points but y has {num_points}.")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"inputs[{index}] holds NaN or inf.")
    return arr


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
    stages = [inputs] if isinstance(inputs, np.ndarray) or not isinstance(inputs, Sequence) else list(inputs)
    if len(stages) == 0:
        raise ValueError("inputs must be an array of shape (P, N) or a non-empty list of them; found an empty list.")
    num_features = 1 if bias else 2
    y_arr = np.asarray(y, dtype=float)
    if y_arr.ndim != 1:
        raise ValueError(f"y must be 1-D with shape (P,); found shape {y_arr.shape}.")
    if not np.all(np.isfinite(y_arr)):
        raise ValueError("y holds NaN or inf.")
    arrays = [_as_stage(s, y_arr.shape[0], num_features, i) for i, s in enumerate(stages)]
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


def _check_range(value, name: str) -> list[float]:
    try:
        low, high = (float(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a pair (low, high) of numbers; found {value!r}.") from None
    if not (np.isfinite(low) and np.isfinite(high) and low < high):
        raise ValueError(f"{name} must be finite with low < high; found {value!r}.")
    return [low, high]


def _check_point(value, name: str) -> list[float]:
    arr = np.asarray(value, dtype=float) if not isinstance(value, str) else np.zeros(0)
    if arr.shape != (2,) or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be two finite numbers (w_a, w_b); found {value!r}.")
    return arr.tolist()


# ---------------------------------------------------------------- widget
_Base = anywidget.AnyWidget if anywidget is not None else object


class QuadraticDescent(_Base):
    """The continuous descent widget; build it with :func:`quadratic_descent` (chapters 1, 7, 9).

    Synced values (set from Python or by the reader; the browser sends them
    when a control is released): ``alpha``, ``steps``, ``blend``, ``start``.
    ``config`` holds everything fixed: the moments, axes, contour levels and
    colours, labels.
    """

    _esm = ESM_PATH
    config = traitlets.Dict().tag(sync=True)
    alpha = traitlets.Float(0.1).tag(sync=True)
    steps = traitlets.Int(20).tag(sync=True)
    blend = traitlets.Float(0.0).tag(sync=True)
    start = traitlets.List(traitlets.Float(), default_value=[0.0, 0.0]).tag(sync=True)

    # ---- the math the browser repeats (used by the tests and the PNG)
    def quadratic(self, blend: float | None = None) -> tuple[np.ndarray, np.ndarray, float]:
        """``(H, b, c)`` with ``g(w) = ½ wᵀHw + bᵀw + c`` at a blend value (default: the current one)."""
        blend = self._blend_value(blend)
        m, lin, const = _moments_at(self.config["moments"], blend)
        return 2.0 * m, -2.0 * lin, float(const)

    def cost(self, w, blend: float | None = None) -> float:
        """The least-squares cost at weights ``w`` (shape (2,))."""
        h, b, c = self.quadratic(blend)
        w = np.asarray(_check_point(w, "w"))
        return float(0.5 * w @ h @ w + b @ w + c)

    def optimum(self, blend: float | None = None) -> np.ndarray:
        """The minimizer ``H⁻¹(−b)`` (least squares' normal equations)."""
        h, b, _ = self.quadratic(blend)
        return np.linalg.solve(h, -b)

    def path(self, alpha: float | None = None, steps: int | None = None, start=None,
             blend: float | None = None) -> np.ndarray:
        """The weights visited, shape ``(K+1, 2)``, by ``w ← w − α (H w + b)``; stops early if they overflow."""
        alpha = self.alpha if alpha is None else check_scalar(alpha, "alpha", numbers.Real, min_val=0,
                                                              include_boundaries="neither")
        # steps >= 0: zero steps draws the start alone, as the slider's left end does
        steps = self.steps if steps is None else check_scalar(steps, "steps", numbers.Integral, min_val=0)
        w = np.array(self.start if start is None else _check_point(start, "start"), dtype=float)
        h, b, _ = self.quadratic(blend)
        out = [w.copy()]
        with np.errstate(over="ignore", invalid="ignore"):
            for _ in range(int(steps)):
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
        import matplotlib.pyplot as plt

        from . import plotting

        cfg = self.config
        h, b, c = self.quadratic()

        def g(w):
            return 0.5 * w @ h @ w + b @ w + c

        g.batch = lambda ws: 0.5 * np.einsum("mi,ij,mj->m", ws, h, ws) + ws @ b + c
        fig, ax = plt.subplots(figsize=(5.2, 4.6))
        plotting.contour_with_path(g, cfg["xrange"], cfg["yrange"], path=self.path(), levels=np.array(cfg["levels"]),
                                   minimum=self.optimum(), ax=ax, num=120, equal_aspect=cfg["equal_aspect"],
                                   xlabel=cfg["xlabel_tex"], ylabel=cfg["ylabel_tex"],
                                   title=f"{cfg['title']} (static view)", legend=True)
        fig.tight_layout()
        return plotting.figure_to_png(fig)

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:  # pragma: no cover - anywidget always returns a bundle
            return None
        data, metadata = bundle
        data = dict(data)
        text = self.description()
        data["image/png"] = base64.b64encode(self.to_png()).decode("ascii")
        data["text/plain"] = text
        metadata = dict(metadata or {})
        metadata["image/png"] = {"alt": text}
        return data, metadata


def _level_colors(levels: np.ndarray) -> list[str]:
    """The fill colours that the book's contour plots give each band (matplotlib "Blues", extend="max")."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_hex

    fig, ax = plt.subplots()
    grid = np.linspace(levels[0], levels[-1] * 2 + 1, 4).reshape(2, 2)
    contour = ax.contourf(grid, levels=levels, cmap="Blues", extend="max")
    colors = [to_hex(c) for c in contour.get_facecolor()]
    plt.close(fig)
    return colors


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
    if anywidget is None:  # pragma: no cover
        raise ImportError("quadratic_descent needs the anywidget package (see requirements.txt).")
    stages = [inputs] if isinstance(inputs, np.ndarray) or not isinstance(inputs, Sequence) else list(inputs)
    xrange, yrange = _check_range(xrange, "xrange"), _check_range(yrange, "yrange")
    alpha_range = _check_range(alpha_range, "alpha_range")
    if alpha_range[0] <= 0:
        raise ValueError(f"alpha_range must be positive; found {alpha_range!r}.")
    alpha = check_scalar(alpha, "alpha", numbers.Real, min_val=alpha_range[0], max_val=alpha_range[1])
    max_steps = check_scalar(max_steps, "max_steps", numbers.Integral, min_val=1, max_val=1000)
    steps = check_scalar(steps, "steps", numbers.Integral, min_val=0, max_val=max_steps)
    start = _check_point(start, "start")
    blend = check_scalar(blend, "blend", numbers.Real, min_val=0, max_val=max(len(stages) - 1, 0))
    if stage_names is not None and len(stage_names) != len(stages):
        raise ValueError(f"stage_names must name each of the {len(stages)} stages; found {len(stage_names)} names.")
    moments = blend_moments(stages, y, bias=bias)
    if xlabel is None:
        xlabel = "w0 (bias)" if bias else "w1 (feature 1 weight)"
    if ylabel is None:
        ylabel = "w1 (slope)" if bias else "w2 (feature 2 weight)"
    widget = QuadraticDescent()
    widget.config = {"moments": moments}  # enough for quadratic()
    if levels is None:
        from . import plotting

        h, b, c = widget.quadratic(blend)

        def g(w):  # pragma: no cover - only the batch form is used
            return 0.5 * w @ h @ w + b @ w + c

        g.batch = lambda ws: 0.5 * np.einsum("mi,ij,mj->m", ws, h, ws) + ws @ b + c
        levels = plotting.contour_levels(plotting.cost_grid(g, xrange, yrange, 120)[2])
    levels = np.asarray(levels, dtype=float)
    if levels.ndim != 1 or len(levels) < 2 or not np.all(np.diff(levels) > 0) or not np.all(np.isfinite(levels)):
        raise ValueError(f"levels must be an increasing 1-D array of at least 2 finite values; found {levels!r}.")

    def tex(label: str) -> str:  # "w0 (bias)" -> "$w_0$ (bias)" for the PNG
        head, _, rest = label.partition(" ")
        if len(head) == 2 and head[0] == "w" and head[1].isdigit():
            return f"$w_{head[1]}$ {rest}".strip()
        return label

    widget.config = {
        "moments": moments,
        "xrange": xrange,
        "yrange": yrange,
        "levels": levels.tolist(),
        "colors": _level_colors(levels),
        "alpha_range": alpha_range,
        "max_steps": int(max_steps),
        "stage_names": list(stage_names) if stage_names is not None else [],
        "blend_label": blend_label,
        "title": title,
        "xlabel": xlabel,
        "ylabel": ylabel,
        "xlabel_tex": tex(xlabel),
        "ylabel_tex": tex(ylabel),
        "equal_aspect": bool(equal_aspect),
    }
    widget.alpha, widget.steps, widget.start, widget.blend = alpha, int(steps), start, blend
    return widget
