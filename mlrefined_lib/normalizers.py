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


# ---------------------------------------------------------------- chapter 8: PCA as compression

__all__ += ["explained_variance", "pca"]


def _principal_axes(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean, covariance eigenvalues (largest first, rounding negatives set to 0) and eigenvectors."""
    mean = x.mean(axis=0)
    centred = x - mean
    eigenvalues, eigenvectors = np.linalg.eigh(centred.T @ centred / x.shape[0])
    order = np.argsort(eigenvalues)[::-1]
    return mean, np.clip(eigenvalues[order], 0.0, None), eigenvectors[:, order]


def explained_variance(x) -> np.ndarray:
    """Fraction of the total variance of ``x`` along each principal component (chapter 8).

    With the covariance ``(1/P) (x − μ)ᵀ(x − μ) = V D Vᵀ`` and its eigenvalues
    ``d_1 ≥ d_2 ≥ … ≥ d_N ≥ 0``, the ratio of component n is
    ``d_n / (d_1 + … + d_N)``. The ratios are non-negative, sorted from the
    largest, and sum to 1; ``np.cumsum`` of them is the fraction kept by the
    first k components. (Dividing by P − 1 instead of P changes every d_n by
    the same factor, so the ratios do not depend on that choice.)

    Parameters
    ----------
    x : array of shape (P, N)
        Finite numbers; at least one feature must vary.

    Returns
    -------
    ratios : array of shape (N,)

    Raises
    ------
    ValueError
        If ``x`` is not 2-D, holds NaN/inf, or has no variance at all.
    """
    x = as_inputs(x)
    _, eigenvalues, _ = _principal_axes(x)
    total = eigenvalues.sum()
    if not total > 0:
        raise ValueError(f"explained_variance: x (shape {x.shape}) has no variance at all: every column is "
                         "constant, so there is nothing to explain.")
    return eigenvalues / total


def pca(x, k: int) -> tuple[Transform, Transform]:
    """Fit principal component analysis with ``k`` components (chapter 8).

    ``transform(x_new)`` returns the coordinates of the centred points along
    the ``k`` leading eigenvectors of the training covariance,
    ``(x_new − μ) V_k`` (shape ``(Q, k)``, not rescaled: their variances are
    the eigenvalues). ``inverse(z)`` maps coordinates back to the feature
    space, ``z V_kᵀ + μ``, so ``inverse(transform(x))`` is the best
    reconstruction of ``x`` from ``k`` numbers per point (least squares,
    Eckart–Young), and its mean squared error per point is the sum of the
    discarded eigenvalues.

    Parameters
    ----------
    x : array of shape (P, N)
        The training split.
    k : int
        Number of components kept, ``1 <= k <= N``.

    Returns
    -------
    transform, inverse : callables
        ``transform.mean`` (N,), ``transform.components`` (N, k: the
        eigenvectors in columns), ``transform.eigenvalues`` (k,) and
        ``transform.explained_variance_ratio`` (k,) record the fit. Each
        component's sign is fixed so that its largest-magnitude entry is
        positive (eigenvectors are defined only up to sign).

    Raises
    ------
    ValueError
        If ``x`` is not 2-D or holds NaN/inf, or ``k`` is not a whole number
        in ``1 … N``, and at transform time for the wrong number of columns.
    """
    x = as_inputs(x)
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise ValueError(f"k must be a whole number of components; found {k!r} of type {type(k).__name__}.")
    if not 1 <= k <= x.shape[1]:
        raise ValueError(f"k must be between 1 and the number of features ({x.shape[1]}); found k = {k}.")
    mean, eigenvalues, eigenvectors = _principal_axes(x)
    total = eigenvalues.sum()
    components = eigenvectors[:, :k].copy()
    largest = np.argmax(np.abs(components), axis=0)
    components *= np.sign(components[largest, np.arange(k)])
    check = _checked(x.shape[1], "pca")

    def transform(x_new):
        return (check(x_new) - mean) @ components

    def inverse(z):
        z = as_inputs(z, "z")
        if z.shape[1] != k:
            raise ValueError(f"pca's inverse expects {k} column(s) (one per component); got z of shape {z.shape}.")
        return z @ components.T + mean

    transform.mean, transform.components = mean.copy(), components.copy()
    transform.eigenvalues = eigenvalues[:k].copy()
    transform.explained_variance_ratio = eigenvalues[:k] / total if total > 0 else np.zeros(k)
    return transform, inverse
