"""The least-squares polynomial of each degree, drawn as vectors by the page (chapter 4)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import traitlets

from .._esm import STATIC, module_text
from .._validation import check_scalar
from ._base import LiveWidget, check_range

#: The fitted polynomials of chapter 4, drawn as vectors.
POLYNOMIAL_ESM_PATH = STATIC / "polynomial_fits.js"
POLYNOMIAL_ANYWIDGET_ID = "mlrefined_lib.live.PolynomialFits"


def _polynomial_values(weights, scale: float, x) -> np.ndarray:
    """``w0 + Σ_k w_k (x / scale)^k``, powers by repeated multiplication (as the page and
    :func:`mlrefined_lib.polynomial_features` compute them)."""
    t = np.asarray(x, dtype=float) / scale
    power, value = np.ones_like(t), np.full_like(t, weights[0])
    for w in weights[1:]:
        power = power * t
        value = value + w * power
    return value


class PolynomialFits(LiveWidget):
    """The least-squares polynomial of each degree over the data, drawn as vectors by the page;
    build it with :func:`polynomial_fits` (chapter 4). Synced value: ``degree``."""

    anywidget_id = POLYNOMIAL_ANYWIDGET_ID
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

        from .. import plotting

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
    error_limits = check_range(error_limits, "error_limits", positive=True, why=" (a log scale)")
    widget = PolynomialFits()
    widget.config = {
        "weights": rows,
        "scale": float(scale),
        "train": pair(train, "train"),
        "validation": pair(validation, "validation"),
        "true_curve": pair(true_curve, "true_curve"),
        "xlim": check_range(xlim, "xlim"),
        "ylim": check_range(ylim, "ylim"),
        "error_limits": error_limits,
        "noise_level": check_scalar(noise_level, "noise_level", numbers.Real, min_val=0),
        "title": title,
    }
    widget.degree = int(degree)
    return widget
