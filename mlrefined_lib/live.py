"""The book's sliders: continuous widgets computed in the page (chapters 1 to 11).

Each widget ships what the page needs and an ES module computes the picture
for any value of its controls:

* :func:`quadratic_descent` (chapters 1, 7, 9): gradient descent on least squares;
* :func:`softmax_descent` (chapter 7): the softmax cost of blended inputs, its
  contours on a grid and the gradient-descent path;
* :func:`minibatch_descent` (chapter 2): mini-batch gradient descent with the
  library's seeded permutations;
* :func:`weight_scale` (chapter 3): the cost of ``w = s u`` for any ``s``;
* :func:`polynomial_fits` (chapter 4): each degree's fit, drawn as vectors;
* :func:`window_spectrogram` (chapter 6): the spectrogram for any window length;
* :func:`penalty_geometry` (chapter 11): the exact lasso and ridge minimizers.

The rest of this docstring describes the first; the others follow the same
design (the same shipping of front ends, PNG fallback and text description).

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

from ._esm import module_text
from ._validation import check_scalar

__all__ = ["QuadraticDescent", "quadratic_descent", "blend_moments", "SoftmaxDescent", "softmax_descent",
           "PenaltyGeometry", "penalty_geometry", "penalized_minimizers", "PolynomialFits", "polynomial_fits",
           "MinibatchDescent", "minibatch_descent", "WeightScale", "weight_scale",
           "WindowSpectrogram", "window_spectrogram"]

STATIC = Path(__file__).resolve().parent / "static"
ESM_PATH = STATIC / "quadratic_descent.js"
#: The ``_anywidget_id`` of the widget (the static book's wrapper knows it by this name).
ANYWIDGET_ID = "mlrefined_lib.live.QuadraticDescent"
#: The same front end draws the softmax widget (chapter 7, Example B).
SOFTMAX_ANYWIDGET_ID = "mlrefined_lib.live.SoftmaxDescent"
#: The lasso and ridge geometry of chapter 11 has a front end of its own.
PENALTY_ESM_PATH = STATIC / "penalty_geometry.js"
PENALTY_ANYWIDGET_ID = "mlrefined_lib.live.PenaltyGeometry"
#: Mini-batch gradient descent (chapter 2) shares the front end of QuadraticDescent.
MINIBATCH_ANYWIDGET_ID = "mlrefined_lib.live.MinibatchDescent"
#: The weight-scale widget of chapter 3.
WEIGHT_SCALE_ESM_PATH = STATIC / "weight_scale.js"
WEIGHT_SCALE_ANYWIDGET_ID = "mlrefined_lib.live.WeightScale"
#: The spectrogram of chapter 6 for any window length (an FFT in the page).
SPECTROGRAM_ESM_PATH = STATIC / "spectrogram.js"
SPECTROGRAM_ANYWIDGET_ID = "mlrefined_lib.live.WindowSpectrogram"
#: The fitted polynomials of chapter 4, drawn as vectors.
POLYNOMIAL_ESM_PATH = STATIC / "polynomial_fits.js"
POLYNOMIAL_ANYWIDGET_ID = "mlrefined_lib.live.PolynomialFits"


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

    _esm = module_text("quadratic_descent.js")
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
        return _with_static_view(self, super()._repr_mimebundle_(**kwargs))


def _with_static_view(widget, bundle):
    """The widget's output bundle plus its PNG (alt text in the metadata) and text description."""
    if bundle is None:  # pragma: no cover - anywidget always returns a bundle
        return None
    data, metadata = bundle
    data = dict(data)
    text = widget.description()
    data["image/png"] = base64.b64encode(widget.to_png()).decode("ascii")
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


# ------------------------------------------------------- softmax (chapter 7)
class SoftmaxDescent(_Base):
    """Gradient descent on a two-class softmax cost of blended inputs; build it with
    :func:`softmax_descent` (chapter 7, Example B).

    The same front end as :class:`QuadraticDescent` (``config["kind"] == "softmax"``):
    Python sends the points of each stage and the labels; the page evaluates the
    cost on a grid of ``config["grid"]`` points for the contours (log of the cost
    interpolated between grid points) and runs the library's gradient step
    ``w ← w − α ∇g(w)`` for the path. Synced values as for :class:`QuadraticDescent`.
    """

    _esm = module_text("quadratic_descent.js")
    config = traitlets.Dict().tag(sync=True)
    alpha = traitlets.Float(1.0).tag(sync=True)
    steps = traitlets.Int(100).tag(sync=True)
    blend = traitlets.Float(0.0).tag(sync=True)
    start = traitlets.List(traitlets.Float(), default_value=[0.0, 0.0]).tag(sync=True)

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
        from .costs import softmax

        return softmax(self.inputs(blend), np.array(self.config["labels"], dtype=float))

    def cost(self, w, blend: float | None = None) -> float:
        return float(self.cost_function(blend)(np.asarray(_check_point(w, "w"))))

    def path(self, alpha: float | None = None, steps: int | None = None, start=None,
             blend: float | None = None) -> np.ndarray:
        """The weights visited, shape ``(K+1, 2)``: :func:`mlrefined_lib.optimizers.gradient_descent`."""
        import warnings

        from .optimizers import DivergenceWarning, gradient_descent

        alpha = self.alpha if alpha is None else check_scalar(alpha, "alpha", numbers.Real, min_val=0,
                                                              include_boundaries="neither")
        steps = self.steps if steps is None else check_scalar(steps, "steps", numbers.Integral, min_val=0)
        w = np.array(self.start if start is None else _check_point(start, "start"), dtype=float)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DivergenceWarning)
            return gradient_descent(self.cost_function(blend), w, float(alpha), int(steps)).weights

    def description(self) -> str:
        """A text description of the current view (the alt text of the PNG)."""
        from .costs import misclassifications

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
        import matplotlib.pyplot as plt

        from . import plotting

        cfg = self.config
        fig, ax = plt.subplots(figsize=(5.2, 4.6))
        plotting.contour_with_path(self.cost_function(), cfg["xrange"], cfg["yrange"], path=self.path(),
                                   levels=np.array(cfg["levels"]), ax=ax, num=120, equal_aspect=cfg["equal_aspect"],
                                   xlabel=cfg["xlabel_tex"], ylabel=cfg["ylabel_tex"],
                                   title=f"{cfg['title']} (static view)", legend=True)
        fig.tight_layout()
        return plotting.figure_to_png(fig)

    def _repr_mimebundle_(self, **kwargs):
        return _with_static_view(self, super()._repr_mimebundle_(**kwargs))


#: Contour grid of the softmax widget: enough points that the contours of the
#: book's examples look smooth, few enough that a phone-class CPU (Chromium at 4×
#: CPU throttling) redraws a new blend within one frame (measured in
#: tests/book/test_live_widget.py).
SOFTMAX_GRID = (81, 68)


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
        As for :func:`quadratic_descent`.
    grid : (nx, ny)
        Points of the contour grid along each axis (corners included).
    title, xlabel, ylabel : str
        Plain text.
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
    if anywidget is None:  # pragma: no cover
        raise ImportError("softmax_descent needs the anywidget package (see requirements.txt).")
    from .costs import softmax

    stages = [inputs] if isinstance(inputs, np.ndarray) or not isinstance(inputs, Sequence) else list(inputs)
    if len(stages) == 0:
        raise ValueError("inputs must be an array of shape (P, 1) or a non-empty list of them; found an empty list.")
    y_arr = np.asarray(y, dtype=float)
    if y_arr.ndim != 1:
        raise ValueError(f"y must be 1-D with shape (P,); found shape {y_arr.shape}.")
    arrays = [_as_stage(s, len(y_arr), 1, i) for i, s in enumerate(stages)]
    softmax(arrays[0], y_arr)  # checks the labels
    xrange, yrange = _check_range(xrange, "xrange"), _check_range(yrange, "yrange")
    alpha_range = _check_range(alpha_range, "alpha_range")
    if alpha_range[0] <= 0:
        raise ValueError(f"alpha_range must be positive; found {alpha_range!r}.")
    alpha = check_scalar(alpha, "alpha", numbers.Real, min_val=alpha_range[0], max_val=alpha_range[1])
    max_steps = check_scalar(max_steps, "max_steps", numbers.Integral, min_val=1, max_val=1000)
    steps = check_scalar(steps, "steps", numbers.Integral, min_val=0, max_val=max_steps)
    start = _check_point(start, "start")
    blend = check_scalar(blend, "blend", numbers.Real, min_val=0, max_val=len(stages) - 1)
    if stage_names is not None and len(stage_names) != len(stages):
        raise ValueError(f"stage_names must name each of the {len(stages)} stages; found {len(stage_names)} names.")
    if len(grid) != 2:
        raise ValueError(f"grid must be a pair (nx, ny); found {grid!r}.")
    grid = [check_scalar(g, "grid", numbers.Integral, min_val=2, max_val=400) for g in grid]
    levels = np.asarray(levels, dtype=float)
    if levels.ndim != 1 or len(levels) < 2 or not np.all(np.diff(levels) > 0) or not levels[0] > 0 \
            or not np.all(np.isfinite(levels)):
        raise ValueError(f"levels must be an increasing 1-D array of at least 2 positive finite values; found {levels!r}.")
    widget = SoftmaxDescent()
    widget.config = {
        "kind": "softmax",
        "stages": [a[:, 0].tolist() for a in arrays],
        "labels": y_arr.tolist(),
        "grid": [int(g) for g in grid],
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
        "xlabel_tex": "$w_0$ (bias)" if xlabel == "w0 (bias)" else xlabel,
        "ylabel_tex": "$w_1$ (slope)" if ylabel == "w1 (slope)" else ylabel,
        "equal_aspect": bool(equal_aspect),
    }
    widget.alpha, widget.steps, widget.start, widget.blend = alpha, int(steps), start, blend
    return widget


# ------------------------------------------------ lasso and ridge geometry (chapter 11)
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


class PenaltyGeometry(_Base):
    """The lasso and ridge minimizers over the contours of a least-squares cost of two
    weights, for any λ; build it with :func:`penalty_geometry` (chapter 11).

    Python sends ``M`` and ``c`` (``config["moments"]``, ``config["linear"]``);
    the page computes both minimizers exactly (:func:`penalized_minimizers`),
    the contours of ``g`` pixel by pixel, and the paths of minimizers. The
    minimizers drawn are kept in the root element's ``data-lasso`` and
    ``data-ridge`` attributes (JSON), the exact λ in ``data-lam``.
    Synced value: ``lam``.
    """

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
        w = np.asarray(_check_point(w, "w"))
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

        from . import plotting

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

    def _repr_mimebundle_(self, **kwargs):
        return _with_static_view(self, super()._repr_mimebundle_(**kwargs))


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
    if anywidget is None:  # pragma: no cover
        raise ImportError("penalty_geometry needs the anywidget package (see requirements.txt).")
    y_arr = np.asarray(y, dtype=float)
    if y_arr.ndim != 1 or not np.all(np.isfinite(y_arr)):
        raise ValueError(f"y must be 1-D and finite with shape (P,); found shape {y_arr.shape}.")
    x_arr = _as_stage(x, len(y_arr), 2, 0)
    scale = max(1.0, float(np.abs(x_arr).max()), float(np.abs(y_arr).max()))
    if np.abs(x_arr.mean(axis=0)).max() > 1e-9 * scale or abs(y_arr.mean()) > 1e-9 * scale:
        raise ValueError("x and y must be centred (every column with mean 0): subtract their means first.")
    moments = x_arr.T @ x_arr / len(y_arr)
    linear = x_arr.T @ y_arr / len(y_arr)
    if np.linalg.eigvalsh(moments).min() <= 1e-12 * np.abs(moments).max():
        raise ValueError("the two inputs are collinear: the cost has no unique minimizer.")
    lam_max = float(np.abs(2 * linear).max())
    lam_range = [0.0, 1.25 * lam_max] if lam_range is None else _check_range(lam_range, "lam_range")
    if lam_range[0] != 0:
        raise ValueError(f"lam_range must start at 0; found {lam_range!r}.")
    lam = check_scalar(lam, "lam", numbers.Real, min_val=0, max_val=lam_range[1])
    xrange, yrange = _check_range(xrange, "xrange"), _check_range(yrange, "yrange")
    levels = np.asarray(levels, dtype=float)
    if levels.ndim != 1 or len(levels) < 2 or not np.all(np.diff(levels) > 0) or not np.all(np.isfinite(levels)):
        raise ValueError(f"levels must be an increasing 1-D array of at least 2 finite values; found {levels!r}.")
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
        "colors": _level_colors(levels),
        "title": title,
    }
    widget.lam = lam
    return widget


# ------------------------------------------------ polynomial fits by degree (chapter 4)
def _polynomial_values(weights, scale: float, x) -> np.ndarray:
    """``w0 + Σ_k w_k (x / scale)^k``, powers by repeated multiplication (as the page and
    :func:`mlrefined_lib.polynomial_features` compute them)."""
    t = np.asarray(x, dtype=float) / scale
    power, value = np.ones_like(t), np.full_like(t, weights[0])
    for w in weights[1:]:
        power = power * t
        value = value + w * power
    return value


class PolynomialFits(_Base):
    """The least-squares polynomial of each degree over the data, drawn as vectors by the page;
    build it with :func:`polynomial_fits` (chapter 4). Synced value: ``degree``."""

    _esm = module_text("polynomial_fits.js")
    config = traitlets.Dict().tag(sync=True)
    degree = traitlets.Int(1).tag(sync=True)

    def curve(self, x, degree: int | None = None) -> np.ndarray:
        """The fitted polynomial of ``degree`` (default: the current one) at inputs ``x``."""
        degree = self.degree if degree is None else degree
        return _polynomial_values(self.config["weights"][degree - 1], self.config["scale"], x)

    def errors(self, degree: int | None = None) -> tuple[float, float]:
        """(training, validation) mean squared error of the fit of ``degree``."""
        cfg = self.config
        return tuple(float(np.mean((self.curve(np.array(x), degree) - np.array(y)) ** 2))
                     for x, y in (cfg["train"], cfg["validation"]))

    def description(self) -> str:
        train, val = self.errors()
        return (f"{self.config['title']}, degree {self.degree}: the data, the true curve and the fitted polynomial "
                f"(training MSE {train:.3f}, validation MSE {val:.3g}); right, both errors against the degree "
                f"1 to {len(self.config['weights'])} on a log scale.")

    def to_png(self) -> bytes:
        import matplotlib.pyplot as plt

        from . import plotting

        cfg = self.config
        fig, (left, right) = plt.subplots(1, 2, figsize=(8.8, 3.7), gridspec_kw={"width_ratios": [1.25, 1]})
        gx, gy = cfg["true_curve"]
        left.plot(gx, gy, "--", color="0.45", lw=1.5, label="true curve")
        left.scatter(*cfg["train"], s=22, color="#2c7bb6", edgecolors="k", linewidths=0.4, label="training", zorder=3)
        left.scatter(*cfg["validation"], s=26, marker="^", color="#fdae61", edgecolors="k", linewidths=0.4,
                     label="validation", zorder=3)
        xs = np.linspace(*cfg["xlim"], 401)
        left.plot(xs, self.curve(xs), color="#d7191c", lw=2, label=f"degree {self.degree} fit")
        left.set(xlim=cfg["xlim"], ylim=cfg["ylim"], xlabel="input $x$", ylabel="output $y$")
        train, val = self.errors()
        left.set_title(f"degree {self.degree}: train MSE {train:.3f}, validation MSE {val:.3g}", fontsize=9)
        left.legend(loc="upper left", fontsize=9)
        errors = np.array([self.errors(d) for d in range(1, len(cfg["weights"]) + 1)])
        degrees = np.arange(1, len(errors) + 1)
        right.semilogy(degrees, errors[:, 0], "o-", color="#2c7bb6", ms=4, label="training")
        right.semilogy(degrees, errors[:, 1], "^--", color="#fdae61", ms=5, label="validation")
        right.axhline(cfg["noise_level"], color="0.45", ls=":", lw=1.2, label="noise level")
        right.axvline(self.degree, color="k", lw=1)
        right.set(ylim=cfg["error_limits"], xlim=(0, len(degrees) + 1), xlabel="degree",
                  ylabel="mean squared error (log scale)")
        right.set_title("errors against the degree", fontsize=9)
        right.legend(loc="upper left", fontsize=9)
        fig.subplots_adjust(left=0.07, right=0.98, bottom=0.13, top=0.91, wspace=0.28)
        return plotting.figure_to_png(fig)

    def _repr_mimebundle_(self, **kwargs):
        return _with_static_view(self, super()._repr_mimebundle_(**kwargs))


def polynomial_fits(
    weights,
    train,
    validation,
    *,
    scale: float,
    true_curve,
    xlim: Sequence[float],
    ylim: Sequence[float],
    error_limits: Sequence[float],
    noise_level: float,
    degree: int = 1,
    title: str = "Polynomial fits by degree",
) -> PolynomialFits:
    """Build the degree widget: each degree's fitted polynomial, drawn by the page (chapter 4).

    Parameters
    ----------
    weights : dict {degree: array of shape (degree + 1,)} for degrees 1, 2, ..., D
        Least-squares weights, bias first, of the model on the scaled input
        ``x / scale``: ``w0 + Σ_k w_k (x / scale)^k``.
    train, validation : pairs (x, y) of arrays of shape (P,)
    scale : float > 0
    true_curve : pair (x, y) of arrays of shape (G,)
        Drawn dashed.
    xlim, ylim, error_limits : (low, high)
        Axes of the fit and of the errors (log scale).
    noise_level : float
        The irreducible error, drawn dotted.
    degree : int
        Initial degree.

    Returns
    -------
    PolynomialFits
    """
    if anywidget is None:  # pragma: no cover
        raise ImportError("polynomial_fits needs the anywidget package (see requirements.txt).")
    degrees = sorted(weights)
    if degrees != list(range(1, len(degrees) + 1)) or len(degrees) < 2:
        raise ValueError(f"weights must map the degrees 1, 2, ..., D (D >= 2) to weights; found degrees {degrees}.")
    rows = []
    for d in degrees:
        w = np.asarray(weights[d], dtype=float)
        if w.shape != (d + 1,) or not np.all(np.isfinite(w)):
            raise ValueError(f"weights[{d}] must be {d + 1} finite numbers (bias first); found shape {w.shape}.")
        rows.append(w.tolist())

    def pair(value, name):
        x, y = (np.asarray(v, dtype=float).ravel() for v in value)
        if x.shape != y.shape or not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
            raise ValueError(f"{name} must be a pair (x, y) of finite arrays of the same length.")
        return [x.tolist(), y.tolist()]

    scale = check_scalar(scale, "scale", numbers.Real, min_val=0, include_boundaries="neither")
    degree = check_scalar(degree, "degree", numbers.Integral, min_val=1, max_val=len(degrees))
    error_limits = _check_range(error_limits, "error_limits")
    if error_limits[0] <= 0:
        raise ValueError(f"error_limits must be positive (a log scale); found {error_limits!r}.")
    widget = PolynomialFits()
    widget.config = {
        "weights": rows,
        "scale": float(scale),
        "train": pair(train, "train"),
        "validation": pair(validation, "validation"),
        "true_curve": pair(true_curve, "true_curve"),
        "xlim": _check_range(xlim, "xlim"),
        "ylim": _check_range(ylim, "ylim"),
        "error_limits": error_limits,
        "noise_level": check_scalar(noise_level, "noise_level", numbers.Real, min_val=0),
        "title": title,
    }
    widget.degree = int(degree)
    return widget


# ------------------------------------------------ mini-batch gradient descent (chapter 2)
class MinibatchDescent(_Base):
    """Mini-batch gradient descent on a least-squares cost of one input, for any batch size,
    learning rate and number of epochs; build it with :func:`minibatch_descent` (chapter 2).

    The front end of :class:`QuadraticDescent` (``config["kind"] == "minibatch"``):
    Python sends the points and the seeded permutation of each epoch (the ones
    :func:`mlrefined_lib.optimizers.minibatch_gradient_descent` draws with the
    same seed), so the page's path equals that function's ``step_weights``.
    Synced values: ``alpha``, ``steps`` (the number of epochs), ``batch_size``, ``start``.
    """

    _esm = module_text("quadratic_descent.js")
    config = traitlets.Dict().tag(sync=True)
    alpha = traitlets.Float(0.1).tag(sync=True)
    steps = traitlets.Int(5).tag(sync=True)
    blend = traitlets.Float(0.0).tag(sync=True)
    batch_size = traitlets.Int(1).tag(sync=True)
    start = traitlets.List(traitlets.Float(), default_value=[0.0, 0.0]).tag(sync=True)

    def cost_function(self):
        from .costs import least_squares

        points = self.config["points"]
        return least_squares(np.array(points["x"])[:, None], np.array(points["y"]))

    def run(self, alpha=None, epochs=None, batch_size=None, start=None):
        """:func:`mlrefined_lib.optimizers.minibatch_gradient_descent` with the widget's seed (``record_steps=True``)."""
        import warnings

        from .optimizers import DivergenceWarning, minibatch_gradient_descent

        w = np.array(self.start if start is None else _check_point(start, "start"), dtype=float)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DivergenceWarning)
            return minibatch_gradient_descent(
                self.cost_function(), w, self.alpha if alpha is None else alpha,
                self.steps if epochs is None else epochs, self.batch_size if batch_size is None else batch_size,
                seed=self.config["seed"], record_steps=True)

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
        import matplotlib.pyplot as plt

        from . import plotting

        cfg = self.config
        fig, ax = plt.subplots(figsize=(5.2, 4.6))
        plotting.contour_with_path(self.cost_function(), cfg["xrange"], cfg["yrange"], path=self.path(),
                                   levels=np.array(cfg["levels"]), minimum=np.array(cfg["minimum"]), ax=ax, num=120,
                                   equal_aspect=cfg["equal_aspect"], xlabel=cfg["xlabel_tex"], ylabel=cfg["ylabel_tex"],
                                   title=f"{cfg['title']} (static view)", legend=True)
        fig.tight_layout()
        return plotting.figure_to_png(fig)

    def _repr_mimebundle_(self, **kwargs):
        return _with_static_view(self, super()._repr_mimebundle_(**kwargs))


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
    if anywidget is None:  # pragma: no cover
        raise ImportError("minibatch_descent needs the anywidget package (see requirements.txt).")
    y_arr = np.asarray(y, dtype=float)
    if y_arr.ndim != 1 or not np.all(np.isfinite(y_arr)):
        raise ValueError(f"y must be 1-D and finite with shape (P,); found shape {y_arr.shape}.")
    x_arr = _as_stage(x, len(y_arr), 1, 0)
    points = len(y_arr)
    xrange, yrange = _check_range(xrange, "xrange"), _check_range(yrange, "yrange")
    alpha_range = _check_range(alpha_range, "alpha_range")
    if alpha_range[0] <= 0:
        raise ValueError(f"alpha_range must be positive; found {alpha_range!r}.")
    alpha = check_scalar(alpha, "alpha", numbers.Real, min_val=alpha_range[0], max_val=alpha_range[1])
    max_epochs = check_scalar(max_epochs, "max_epochs", numbers.Integral, min_val=1, max_val=200)
    epochs = check_scalar(epochs, "epochs", numbers.Integral, min_val=0, max_val=max_epochs)
    batch_size = check_scalar(batch_size, "batch_size", numbers.Integral, min_val=1, max_val=points)
    seed = check_scalar(seed, "seed", numbers.Integral)
    start = _check_point(start, "start")
    levels = np.asarray(levels, dtype=float)
    if levels.ndim != 1 or len(levels) < 2 or not np.all(np.diff(levels) > 0) or not np.all(np.isfinite(levels)):
        raise ValueError(f"levels must be an increasing 1-D array of at least 2 finite values; found {levels!r}.")
    rng = np.random.default_rng(seed)  # the permutations minibatch_gradient_descent draws, epoch by epoch
    permutations = [rng.permutation(points).tolist() for _ in range(max_epochs)]
    moments = blend_moments(x_arr, y_arr)
    design = np.column_stack([np.ones(points), x_arr])
    widget = MinibatchDescent()
    widget.config = {
        "kind": "minibatch",
        "moments": moments,
        "points": {"x": x_arr[:, 0].tolist(), "y": y_arr.tolist()},
        "permutations": permutations,
        "seed": int(seed),
        "minimum": np.linalg.lstsq(design, y_arr, rcond=None)[0].tolist(),
        "xrange": xrange,
        "yrange": yrange,
        "levels": levels.tolist(),
        "colors": _level_colors(levels),
        "alpha_range": alpha_range,
        "max_steps": int(max_epochs),
        "stage_names": [],
        "blend_label": "",
        "title": title,
        "xlabel": "w0 (bias)",
        "ylabel": "w1 (slope)",
        "xlabel_tex": "$w_0$ (bias)",
        "ylabel_tex": "$w_1$ (slope)",
        "equal_aspect": bool(equal_aspect),
    }
    widget.alpha, widget.steps, widget.batch_size, widget.start = alpha, int(epochs), int(batch_size), start
    return widget


# ------------------------------------------------ the cost of scaled weights (chapter 3)
class WeightScale(_Base):
    """The cross-entropy cost of ``w = s u`` for any weight norm ``s``, on a separable and an
    overlapping problem; build it with :func:`weight_scale` (chapter 3). Synced value: ``scale``."""

    _esm = module_text("weight_scale.js")
    config = traitlets.Dict().tag(sync=True)
    scale = traitlets.Float(1.0).tag(sync=True)

    def costs(self, scale: float | None = None) -> list[float]:
        """[separable, overlapping] cross-entropy cost at ``w = scale · u`` (default: the current scale)."""
        from .costs import cross_entropy

        s = self.scale if scale is None else scale
        return [float(cross_entropy(np.array(p["x"])[:, None], np.array(p["y"]))(s * np.array(p["u"])))
                for p in self.config["problems"]]

    def mistakes(self, scale: float | None = None) -> list[int]:
        from .costs import misclassifications

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
        from . import plotting
        from .figures.classification_costs import weight_scale_frame

        cfg = self.config

        def problem(p):
            return (np.array(p["x"])[:, None], np.array(p["y"]), np.array(p["u"]), p["xlabel"], p["name"],
                    tuple(p["x_range"]))

        first, second = cfg["problems"]
        fig = weight_scale_frame(self.scale, problem(first), problem(second),
                                 scales=np.geomspace(*cfg["scale_range"], 200), jitter=np.array(cfg["jitter"]),
                                 minimizer_norm=cfg["minimizer_norm"])
        return plotting.figure_to_png(fig, dpi=72)

    def _repr_mimebundle_(self, **kwargs):
        return _with_static_view(self, super()._repr_mimebundle_(**kwargs))


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
    if anywidget is None:  # pragma: no cover
        raise ImportError("weight_scale needs the anywidget package (see requirements.txt).")
    scale_range = _check_range(scale_range, "scale_range")
    if scale_range[0] <= 0:
        raise ValueError(f"scale_range must be positive (a log scale); found {scale_range!r}.")
    scale = check_scalar(scale, "scale", numbers.Real, min_val=scale_range[0], max_val=scale_range[1])
    problems = []
    for kind, value in (("separable", separable), ("overlapping", overlapping)):
        x, y, u, xlabel, name, x_range = value
        y_arr = np.asarray(y, dtype=float)
        x_arr = _as_stage(x, len(y_arr), 1, 0)
        if not np.all(np.isin(y_arr, (0.0, 1.0))):
            raise ValueError(f"the {kind} problem's labels must be 0 or 1.")
        u = np.asarray(u, dtype=float)
        if u.shape != (2,) or not np.isclose(np.linalg.norm(u), 1.0):
            raise ValueError(f"the {kind} problem's direction u must be a unit vector of shape (2,); found {u!r}.")
        problems.append({"kind": kind, "x": x_arr[:, 0].tolist(), "y": y_arr.tolist(), "u": u.tolist(),
                         "xlabel": str(xlabel), "name": str(name), "x_range": _check_range(x_range, "x_range")})
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


# ------------------------------------------------ spectrogram window length (chapter 6)
class WindowSpectrogram(_Base):
    """The spectrogram of a signal for any window length (hop = window // 8), computed in the page
    with an FFT; build it with :func:`window_spectrogram` (chapter 6). Synced value: ``window``."""

    _esm = module_text("spectrogram.js")
    config = traitlets.Dict().tag(sync=True)
    window = traitlets.Int(256).tag(sync=True)

    def spectrogram(self, window: int | None = None):
        """:func:`mlrefined_lib.histograms.spectrogram` with ``window`` (default: the current one) and hop ``window // 8``."""
        from .histograms import spectrogram

        window = self.window if window is None else window
        return spectrogram(np.array(self.config["signal"]), self.config["rate"], window=window, hop=max(1, window // 8))

    def description(self) -> str:
        rate, window = self.config["rate"], self.window
        _, times, _ = self.spectrogram()
        return (f"{self.config['title']}: spectrogram with a window of {window} samples ({1000 * window / rate:.1f} ms "
                f"frames, {rate / window:.1f} Hz bins, hop {max(1, window // 8)}, {len(times)} frames), in dB "
                f"relative to its largest magnitude, from 0 to {self.config['max_frequency']:g} Hz.")

    def to_png(self) -> bytes:
        from . import plotting
        from .figures.histogram_features import window_frame

        cfg = self.config
        fig = window_frame(np.array(cfg["signal"]), cfg["rate"], self.window, max_frequency=cfg["max_frequency"])
        return plotting.figure_to_png(fig, dpi=80)

    def _repr_mimebundle_(self, **kwargs):
        return _with_static_view(self, super()._repr_mimebundle_(**kwargs))


def _magma() -> list[str]:
    import matplotlib
    from matplotlib.colors import to_hex

    cmap = matplotlib.colormaps["magma"]
    return [to_hex(cmap(i / 255)) for i in range(256)]


def window_spectrogram(
    signal,
    rate: float,
    *,
    window: int = 256,
    window_range: Sequence[int] = (32, 2048),
    max_frequency: float = 2500.0,
    title: str = "Spectrogram and window length",
) -> WindowSpectrogram:
    """Build the window-length widget: the spectrogram of ``signal`` for any window (chapter 6).

    Parameters
    ----------
    signal : array of shape (S,)
        Samples (shipped to the page: keep it short, a few seconds at most).
    rate : float
        Samples per second.
    window : int
        Initial window length, inside ``window_range``.
    window_range : (low, high)
        Window lengths the reader can choose (log-scale control), at most S.
    max_frequency : float
        Top of the frequency axis (Hz).

    Returns
    -------
    WindowSpectrogram
    """
    if anywidget is None:  # pragma: no cover
        raise ImportError("window_spectrogram needs the anywidget package (see requirements.txt).")
    samples = np.asarray(signal, dtype=float)
    if samples.ndim != 1 or not np.all(np.isfinite(samples)):
        raise ValueError(f"signal must be 1-D and finite with shape (S,); found shape {samples.shape}.")
    rate = check_scalar(rate, "rate", numbers.Real, min_val=0, include_boundaries="neither")
    low, high = (check_scalar(v, "window_range", numbers.Integral, min_val=2, max_val=samples.size) for v in window_range)
    if low >= high:
        raise ValueError(f"window_range must be (low, high) with low < high; found {window_range!r}.")
    window = check_scalar(window, "window", numbers.Integral, min_val=low, max_val=high)
    widget = WindowSpectrogram()
    widget.config = {
        "signal": samples.tolist(),
        "rate": float(rate),
        "window_range": [int(low), int(high)],
        "max_frequency": check_scalar(max_frequency, "max_frequency", numbers.Real, min_val=0,
                                      include_boundaries="neither"),
        "colors": _magma(),
        "title": title,
    }
    widget.window = int(window)
    return widget
