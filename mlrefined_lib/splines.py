"""Bins and splines: letting a linear model bend along one feature without polynomials (chapter 7).

* :func:`bin_features` cuts each feature into intervals (equal width or equal
  counts) and gives one 0/1 column per interval: a linear model on them is a
  step function, flat inside each bin and jumping at its edges;
* :func:`spline_features` gives the B-spline basis of each feature on evenly
  spaced knots: a linear model on it is a smooth piecewise polynomial, with
  no jumps.

Both fit their edges or knots on the data they are given (the training
split) and return a function that applies them to later data. Nothing is
changed in place.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable

import numpy as np

from ._validation import as_inputs, check_choice, check_scalar

__all__ = ["bin_features", "spline_features", "BIN_STRATEGIES"]

BIN_STRATEGIES = ("uniform", "quantile")


def _checked(num_features: int, who: str) -> Callable[[np.ndarray], np.ndarray]:
    def check(x_new) -> np.ndarray:
        arr = as_inputs(x_new, "x_new")
        if arr.shape[1] != num_features:
            raise ValueError(f"{who} was fitted on {num_features} feature(s) but got x_new of shape {arr.shape}.")
        return arr
    return check


def bin_features(x, bins: int = 5, strategy: str = "quantile") -> Callable[[np.ndarray], np.ndarray]:
    """Fit bin edges on each feature and return a function that one-hot encodes the bins (chapter 7).

    ``"uniform"`` cuts each feature's training range into ``bins`` intervals of
    equal width; ``"quantile"`` puts the edges at the training quantiles, so each
    bin holds about the same number of training points (edges that coincide,
    as with many tied values, are merged, with a warning). A value falls in
    the bin whose edges enclose it (the left edge included); values beyond the
    training range go to the first or the last bin. This is scikit-learn's
    ``KBinsDiscretizer(encode="onehot-dense", quantile_method="linear")``.

    Parameters
    ----------
    x : array of shape (P, N)
        The training split.
    bins : int >= 2
    strategy : {"uniform", "quantile"}

    Returns
    -------
    transform : callable
        ``transform(x_new)`` returns the 0/1 array of shape ``(Q, B_1 + … + B_N)``,
        the bins of feature 0 first. ``transform.edges`` is the list of each
        feature's edges (B_n + 1 of them).

    Raises
    ------
    ValueError
        For NaN or inf, bins not an integer >= 2, an unknown strategy, or a
        constant feature (it has no range to cut).
    """
    x = as_inputs(x)
    bins = check_scalar(bins, "bins", numbers.Integral, min_val=2)
    check_choice(strategy, BIN_STRATEGIES, "strategy")
    edges = []
    for n in range(x.shape[1]):
        column = x[:, n]
        if column.min() == column.max():
            raise ValueError(f"bin_features: feature {n} is constant ({column[0]:.6g}); it has no range to cut. "
                             "Drop it first.")
        if strategy == "uniform":
            cut = np.linspace(column.min(), column.max(), bins + 1)
        else:
            cut = np.percentile(column, np.linspace(0, 100, bins + 1))
            kept = np.ediff1d(cut, to_begin=np.inf) > 1e-8
            if not kept.all():
                warnings.warn(f"bin_features: feature {n} has tied values, so {int((~kept).sum())} quantile "
                              f"edge(s) coincide and are merged; it gets {int(kept.sum()) - 1} bins, not {bins}.",
                              UserWarning, stacklevel=2)
            cut = cut[kept]
        edges.append(cut)
    check = _checked(x.shape[1], "bin_features")

    def transform(x_new):
        arr = check(x_new)
        blocks = []
        for n, cut in enumerate(edges):
            which = np.clip(np.searchsorted(cut[1:-1], arr[:, n], side="right"), 0, len(cut) - 2)
            block = np.zeros((arr.shape[0], len(cut) - 1))
            block[np.arange(arr.shape[0]), which] = 1.0
            blocks.append(block)
        return np.hstack(blocks)

    transform.edges = [cut.copy() for cut in edges]
    return transform


def _b_spline_basis(values: np.ndarray, knots: np.ndarray, degree: int) -> np.ndarray:
    """The B-splines of ``degree`` on ``knots`` at ``values`` (within the inner knots), by Cox–de Boor."""
    intervals = len(knots) - 1
    # Degree 0: the indicator of each knot interval; the right end of the range belongs to the last inner one.
    which = np.searchsorted(knots, values, side="right") - 1
    which = np.minimum(which, intervals - degree - 1)
    basis = np.zeros((values.size, intervals))
    basis[np.arange(values.size), which] = 1.0
    for d in range(1, degree + 1):
        count = intervals - d
        new = np.zeros((values.size, count))
        for i in range(count):
            left = (values - knots[i]) / (knots[i + d] - knots[i]) * basis[:, i]
            right = (knots[i + d + 1] - values) / (knots[i + d + 1] - knots[i + 1]) * basis[:, i + 1]
            new[:, i] = left + right
        basis = new
    return basis


def spline_features(x, knots: int = 5, degree: int = 3) -> Callable[[np.ndarray], np.ndarray]:
    """Fit evenly spaced knots on each feature and return a function giving its B-spline basis (chapter 7).

    The ``knots`` knots run evenly from each feature's training minimum to its
    maximum, and ``degree`` more at the same spacing beyond each end; the
    basis has ``knots + degree − 1`` functions per feature, each a piecewise
    polynomial of ``degree`` that is non-zero over ``degree + 1`` intervals,
    and they sum to 1 at every point. Outside the training range each basis
    function keeps its value at the nearer end (constant extrapolation). This
    is scikit-learn's ``SplineTransformer(knots="uniform", extrapolation="constant")``.

    Parameters
    ----------
    x : array of shape (P, N)
        The training split.
    knots : int >= 2
    degree : int >= 1
        (Degree 0 would be bins: see :func:`bin_features`.)

    Returns
    -------
    transform : callable
        ``transform(x_new)`` returns an array of shape ``(Q, N·(knots + degree − 1))``,
        the basis of feature 0 first; ``transform.knots`` holds each feature's
        full knot vector.

    Raises
    ------
    ValueError
        For NaN or inf, knots < 2, degree < 1, or a constant feature.
    """
    x = as_inputs(x)
    knots = check_scalar(knots, "knots", numbers.Integral, min_val=2)
    degree = check_scalar(degree, "degree", numbers.Integral, min_val=1)
    vectors = []
    for n in range(x.shape[1]):
        low, high = x[:, n].min(), x[:, n].max()
        if low == high:
            raise ValueError(f"spline_features: feature {n} is constant ({low:.6g}); knots need a range. "
                             "Drop it first.")
        inner = np.linspace(low, high, knots)
        step_low, step_high = inner[1] - inner[0], inner[-1] - inner[-2]
        vectors.append(np.concatenate([
            np.linspace(low - degree * step_low, low - step_low, degree),
            inner,
            np.linspace(high + step_high, high + degree * step_high, degree),
        ]))
    check = _checked(x.shape[1], "spline_features")

    def transform(x_new):
        arr = check(x_new)
        blocks = []
        for n, vector in enumerate(vectors):
            clipped = np.clip(arr[:, n], vector[degree], vector[-degree - 1])
            blocks.append(_b_spline_basis(clipped, vector, degree))
        return np.hstack(blocks)

    transform.knots = [vector.copy() for vector in vectors]
    return transform
