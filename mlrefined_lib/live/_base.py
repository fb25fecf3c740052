"""What every widget of :mod:`mlrefined_lib.live` shares.

* :class:`LiveWidget`, the ``anywidget`` base class: it gives each widget the
  ``_anywidget_id`` that the static book knows it by, and adds the static
  view (a PNG with its alt text, and a text description) to the output;
* the checks of the builders' arguments (data arrays, ranges, points, contour
  levels) and the fill colours of the contour bands.
"""

from __future__ import annotations

import base64

import anywidget  # a dependency of the package (pyproject.toml)
import numpy as np


class LiveWidget(anywidget.AnyWidget):
    """Base class of the book's widgets.

    A subclass sets ``anywidget_id``, the ``_anywidget_id`` that the static
    book looks its front end up by ("mlrefined_lib.live.<class name>"; anywidget
    would otherwise derive it from the module that defines the class), and
    implements ``description()`` and ``to_png()`` for the static view.
    """

    #: The ``_anywidget_id`` the widget is known by (the same for every release).
    anywidget_id = ""

    def __init__(self, **kwargs):
        super().__init__(_anywidget_id=self.anywidget_id, **kwargs)

    def description(self) -> str:  # pragma: no cover - every widget has its own
        raise NotImplementedError

    def to_png(self) -> bytes:  # pragma: no cover - every widget has its own
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs):
        return with_static_view(self, super()._repr_mimebundle_(**kwargs))


def with_static_view(widget, bundle):
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


# ------------------------------------------------------------------ checks of the builders' arguments
def as_stage(x, num_points: int | None, num_features: int, index: int) -> np.ndarray:
    """``x`` as a finite float array of shape ``(num_points, num_features)``, or raise ValueError
    naming it ``inputs[index]``."""
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


def check_outputs(y) -> np.ndarray:
    """``y`` as a finite 1-D float array, or raise ValueError."""
    y_arr = np.asarray(y, dtype=float)
    if y_arr.ndim != 1 or not np.all(np.isfinite(y_arr)):
        raise ValueError(f"y must be 1-D and finite with shape (P,); found shape {y_arr.shape}.")
    return y_arr


def check_data(x, y, num_features: int) -> tuple[np.ndarray, np.ndarray]:
    """``(x, y)`` checked: ``x`` of shape ``(P, num_features)`` and ``y`` of shape ``(P,)``, all finite."""
    y_arr = check_outputs(y)
    return as_stage(x, len(y_arr), num_features, 0), y_arr


def check_range(value, name: str, *, positive: bool = False, why: str = "") -> list[float]:
    """``[low, high]`` with finite ``low < high`` (and ``low > 0`` if ``positive``), or raise ValueError."""
    try:
        low, high = (float(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a pair (low, high) of numbers; found {value!r}.") from None
    if not (np.isfinite(low) and np.isfinite(high) and low < high):
        raise ValueError(f"{name} must be finite with low < high; found {value!r}.")
    if positive and low <= 0:
        raise ValueError(f"{name} must be positive{why}; found {[low, high]!r}.")
    return [low, high]


def check_point(value, name: str) -> list[float]:
    """Two finite numbers as a list, or raise ValueError."""
    arr = np.asarray(value, dtype=float) if not isinstance(value, str) else np.zeros(0)
    if arr.shape != (2,) or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be two finite numbers (w_a, w_b); found {value!r}.")
    return arr.tolist()


def check_levels(levels, *, positive: bool = False) -> np.ndarray:
    """Contour levels: an increasing 1-D array of at least 2 finite (and, if asked, positive) values."""
    levels = np.asarray(levels, dtype=float)
    ok = levels.ndim == 1 and len(levels) >= 2 and np.all(np.isfinite(levels)) and np.all(np.diff(levels) > 0)
    if positive:
        ok = ok and levels[0] > 0
    if not ok:
        kind = "positive finite" if positive else "finite"
        raise ValueError(f"levels must be an increasing 1-D array of at least 2 {kind} values; found {levels!r}.")
    return levels


def level_colors(levels: np.ndarray) -> list[str]:
    """The fill colours that the book's contour plots give each band (matplotlib "Blues", extend="max")."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_hex

    fig, ax = plt.subplots()
    grid = np.linspace(levels[0], levels[-1] * 2 + 1, 4).reshape(2, 2)
    contour = ax.contourf(grid, levels=levels, cmap="Blues", extend="max")
    colors = [to_hex(c) for c in contour.get_facecolor()]
    plt.close(fig)
    return colors
