"""Feature scaling: standard normalization, min-max scaling and PCA-sphering.

Each function *fits* on the data it is given (the training split) and returns
a pair ``(transform, inverse)`` of functions that apply the same statistics to
any later data, so validation and test points are scaled with the training
statistics (chapter 6). Nothing is changed in place.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

from ._validation import as_inputs

__all__ = ["standard_normalizer", "minmax_normalizer", "pca_sphere"]

Transform = Callable[[np.ndarray], np.ndarray]

# A feature whose spread is at most this fraction of its size is constant (the
# spread is then rounding noise); a spread of exactly 0 is constant at any size.
_CONSTANT_TOLERANCE = 1e-12


def _constant_columns(spread: np.ndarray, scale: np.ndarray) -> np.ndarray:
    return np.flatnonzero((spread == 0) | (spread <= _CONSTANT_TOLERANCE * scale))


def _raise_constant(columns: np.ndarray, values: np.ndarray, who: str) -> None:
    listed = ", ".join(f"{c} (value {values[c]:.6g})" for c in columns[:5])
    raise ValueError(
        f"{who}: feature column(s) {listed} are constant, so they carry no information and "
        "scaling them would divide by zero. Remove them first, e.g. "
        f"x = np.delete(x, {columns.tolist()}, axis=1)."
    )


def _checked(num_features: int, who: str) -> Callable[[np.ndarray], np.ndarray]:
    def check(x_new) -> np.ndarray:
        arr = as_inputs(x_new)
        if arr.shape[1] != num_features:
            raise ValueError(
                f"{who} was fitted on {num_features} feature(s) but got x of shape {arr.shape}."
            )
        return arr

    return check


def standard_normalizer(x) -> tuple[Transform, Transform]:
    """Fit standard normalization ``x ← (x − μ)/σ`` per feature (chapter 6).

    μ and σ are the mean and the population standard deviation (divide by P)
    of each column of ``x``.

    Parameters
    ----------
    x : array of shape (P, N)
        The data to take the statistics from (the training split).

    Returns
    -------
    transform : callable
        ``transform(x_new)`` returns ``(x_new − μ)/σ`` for any ``(Q, N)`` array.
    inverse : callable
        ``inverse(z)`` returns ``z σ + μ``.

    Raises
    ------
    ValueError
        If ``x`` is not 2-D, holds NaN/inf, or has a constant column (σ = 0);
        the message names the column(s).
    """
    x = as_inputs(x)
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    constant = _constant_columns(std, np.abs(mean))
    if constant.size:
        _raise_constant(constant, mean, "standard_normalizer")
    check = _checked(x.shape[1], "standard_normalizer")

    def transform(x_new):
        return (check(x_new) - mean) / std

    def inverse(z):
        return check(z) * std + mean

    transform.mean, transform.std = mean.copy(), std.copy()
    return transform, inverse


def minmax_normalizer(x, feature_range: tuple[float, float] = (0.0, 1.0)) -> tuple[Transform, Transform]:
    """Fit min-max scaling of each feature to ``[a, b]`` (chapter 6).

    ``x ← a + (b − a)(x − min)/(max − min)`` with the minimum and maximum of the
    fitting data. New data outside the fitted range lands outside ``[a, b]``:
    nothing is clipped.

    Parameters
    ----------
    x : array of shape (P, N)
    feature_range : (a, b) with a < b

    Returns
    -------
    transform, inverse : callables
    """
    x = as_inputs(x)
    a, b = (float(v) for v in feature_range)
    if not a < b:
        raise ValueError(f"feature_range must be (a, b) with a < b; found {feature_range!r}.")
    low, high = x.min(axis=0), x.max(axis=0)
    constant = _constant_columns(high - low, np.abs(low))
    if constant.size:
        _raise_constant(constant, low, "minmax_normalizer")
    width = high - low
    check = _checked(x.shape[1], "minmax_normalizer")

    def transform(x_new):
        return a + (b - a) * (check(x_new) - low) / width

    def inverse(z):
        return (check(z) - a) / (b - a) * width + low

    transform.min, transform.max = low.copy(), high.copy()
    return transform, inverse


def pca_sphere(x, *, relative_floor: float = 1e-10, zca: bool = False) -> tuple[Transform, Transform]:
    """Fit PCA-sphering (whitening) ``x ← D^(-1/2) Vᵀ (x − μ)`` per point (chapter 8).

    The covariance ``(1/P) (x − μ)ᵀ(x − μ) = V D Vᵀ`` is diagonalized; each
    point is centred, rotated onto the eigenvectors and each rotated feature is
    divided by ``sqrt(d_n)``. The sphered data have identity covariance.

    Tiny eigenvalues are never divided by: components with
    ``d_n < relative_floor · max(d)`` are *dropped* (with a warning), so the
    output has fewer columns and ``inverse`` returns the projection onto the
    kept components.

    Parameters
    ----------
    x : array of shape (P, N)
    relative_floor : float
        Components with eigenvalue below this fraction of the largest are dropped.
        The comparison is made on the covariance of ``x`` as given: when the
        features' scales differ by many orders of magnitude, small but real
        components can fall below the floor, so standardize first in that
        case (chapter 8's exercises show it on the breast cancer data).
    zca : bool
        If True, rotate back after scaling (ZCA whitening, ``V D^(-1/2) Vᵀ``):
        the result stays closest to the original features.

    Returns
    -------
    transform, inverse : callables

    Raises
    ------
    ValueError
        If a column of ``x`` is constant (it names the column), or ``x`` holds NaN/inf.
    """
    x = as_inputs(x)
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    constant = _constant_columns(std, np.abs(mean))
    if constant.size:
        _raise_constant(constant, mean, "pca_sphere")
    centred = x - mean
    covariance = centred.T @ centred / x.shape[0]
    eigenvalues, eigenvectors = np.linalg.eigh(covariance)
    order = np.argsort(eigenvalues)[::-1]
    eigenvalues, eigenvectors = eigenvalues[order], eigenvectors[:, order]
    keep = eigenvalues >= relative_floor * eigenvalues[0]
    if not keep.all():
        warnings.warn(
            f"pca_sphere: dropped {int((~keep).sum())} component(s) whose covariance eigenvalue is "
            f"below {relative_floor:g} times the largest (the features are linearly dependent).",
            RuntimeWarning,
            stacklevel=2,
        )
    eigenvalues, eigenvectors = eigenvalues[keep], eigenvectors[:, keep]
    scale = np.sqrt(eigenvalues)
    check = _checked(x.shape[1], "pca_sphere")

    def transform(x_new):
        sphered = (check(x_new) - mean) @ eigenvectors / scale
        return sphered @ eigenvectors.T if zca else sphered

    def inverse(z):
        z = as_inputs(z, "z")
        expected = x.shape[1] if zca else eigenvalues.size
        if z.shape[1] != expected:
            raise ValueError(f"pca_sphere's inverse expects {expected} column(s); got z of shape {z.shape}.")
        rotated = z @ eigenvectors if zca else z
        return rotated * scale @ eigenvectors.T + mean

    transform.mean, transform.eigenvalues, transform.eigenvectors = mean.copy(), eigenvalues.copy(), eigenvectors.copy()
    return transform, inverse
