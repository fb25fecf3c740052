"""Feature scaling: standard normalization, min-max scaling and PCA-sphering.

Each function *fits* on the data it is given (the training split) and returns
a pair ``(transform, inverse)`` of functions that apply the same statistics to
any later data, so validation and test points are scaled with the training
statistics (chapter 7). Nothing is changed in place.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable

import numpy as np

from ._validation import as_inputs, check_choice, check_scalar

__all__ = ["standard_normalizer", "minmax_normalizer", "pca_sphere"]

Transform = Callable[[np.ndarray], np.ndarray]

# A feature whose spread is at most this fraction of its size is constant (the
# spread is then rounding noise); a spread of exactly 0 is constant at any size.
_CONSTANT_TOLERANCE = 1e-12


def _constant_columns(spread: np.ndarray, scale: np.ndarray) -> np.ndarray:
    return np.flatnonzero((spread == 0) | (spread <= _CONSTANT_TOLERANCE * scale))


def _constant_features(x: np.ndarray) -> np.ndarray:
    """Indices of the columns of ``x`` that :func:`standard_normalizer` refuses as constant.

    The one rule for a constant feature (also used by
    :func:`mlrefined_lib.pipeline.standardize`): a standard deviation of 0, or
    one at most ``1e-12`` times the column's mean (rounding noise).
    """
    return _constant_columns(x.std(axis=0), np.abs(x.mean(axis=0)))


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


def _shift_and_scale(center: np.ndarray, scale: np.ndarray, num_features: int,
                     who: str) -> tuple[Transform, Transform]:
    """``x ↦ (x − center) / scale`` and its inverse, each checking its input's width."""
    check = _checked(num_features, who)

    def transform(x_new):
        return (check(x_new) - center) / scale

    def inverse(z):
        return check(z) * scale + center

    return transform, inverse


def standard_normalizer(x) -> tuple[Transform, Transform]:
    """Fit standard normalization ``x ← (x − μ)/σ`` per feature (chapter 7).

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
    constant = _constant_features(x)
    if constant.size:
        _raise_constant(constant, mean, "standard_normalizer")
    transform, inverse = _shift_and_scale(mean, std, x.shape[1], "standard_normalizer")
    transform.mean, transform.std = mean.copy(), std.copy()
    return transform, inverse


def minmax_normalizer(x, feature_range: tuple[float, float] = (0.0, 1.0)) -> tuple[Transform, Transform]:
    """Fit min-max scaling of each feature to ``[a, b]`` (chapter 7).

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


def robust_normalizer(x, quantile_range: tuple[float, float] = (25.0, 75.0)) -> tuple[Transform, Transform]:
    """Fit robust scaling ``x ← (x − median)/IQR`` per feature (chapter 7).

    The centre is each column's median and the scale its interquartile range
    (the 75th minus the 25th percentile, linear interpolation between order
    statistics, as ``np.percentile`` computes it). Both hardly move when a few
    values are extreme, so, unlike the mean, the standard deviation and the
    range, an outlier cannot squeeze the ordinary values into a tiny interval.
    Same result as scikit-learn's ``RobustScaler()``; other percentiles via
    ``quantile_range``.

    Parameters
    ----------
    x : array of shape (P, N)
        The data to take the statistics from (the training split).
    quantile_range : (low, high) with 0 <= low < high <= 100
        Percentiles whose difference is the scale; (25, 75) is the IQR.

    Returns
    -------
    transform : callable
        ``transform(x_new)`` returns ``(x_new − median)/IQR`` for any ``(Q, N)``
        array; ``transform.center`` and ``transform.scale`` hold the statistics.
    inverse : callable
        ``inverse(z)`` returns ``z · IQR + median``.

    Raises
    ------
    ValueError
        If ``x`` is not 2-D or holds NaN/inf, if ``quantile_range`` is not
        increasing within [0, 100], or if a column's interquartile range is 0
        (a constant column, or one where more than half of the values are
        equal); the message names the column(s).
    """
    x = as_inputs(x)
    try:
        low_q, high_q = (float(v) for v in quantile_range)
    except (TypeError, ValueError):
        raise ValueError(f"quantile_range must be a pair (low, high) of percentiles; found {quantile_range!r}.") from None
    if not 0.0 <= low_q < high_q <= 100.0:
        raise ValueError(f"quantile_range must satisfy 0 <= low < high <= 100; found {quantile_range!r}.")
    center = np.median(x, axis=0)
    low, high = np.percentile(x, [low_q, high_q], axis=0)
    scale = high - low
    flat = _constant_columns(scale, np.abs(center))
    if flat.size:
        listed = ", ".join(f"{c} (median {center[c]:.6g})" for c in flat[:5])
        raise ValueError(
            f"robust_normalizer: feature column(s) {listed} have a spread of 0 between the "
            f"{low_q:g}th and {high_q:g}th percentiles (the column is constant, or more than half of its "
            "values are equal), so scaling by it would divide by zero. Remove a constant column; for a "
            "mostly-constant one use standard_normalizer or a wider quantile_range."
        )
    transform, inverse = _shift_and_scale(center, scale, x.shape[1], "robust_normalizer")
    transform.center, transform.scale = center.copy(), scale.copy()
    return transform, inverse


def _check_positive(arr: np.ndarray, who: str, what: str) -> None:
    bad = arr <= 0
    if bad.any():
        column = int(np.flatnonzero(bad.any(axis=0))[0])
        row = int(np.flatnonzero(bad[:, column])[0])
        raise ValueError(
            f"{who} needs {what} > 0; column {column} holds {int(bad[:, column].sum())} value(s) that are not, "
            f"first {arr[row, column]:.6g} at row {row}. For counts with zeros use offset=1 (log(1 + x)); "
            "for features that can be zero or negative use yeo_johnson, standardization or robust scaling."
        )


def _box_cox(values: np.ndarray, powers: np.ndarray) -> np.ndarray:
    """Box-Cox of positive ``values`` (P, N) with one power β per column, column by column."""
    out = np.empty_like(values)
    for n, beta in enumerate(powers):
        logs = np.log(values[:, n])
        out[:, n] = logs if beta == 0 else np.expm1(beta * logs) / beta
    return out


def _box_cox_inverse(z: np.ndarray, powers: np.ndarray) -> np.ndarray:
    out = np.empty_like(z)
    for n, beta in enumerate(powers):
        if beta == 0:
            out[:, n] = np.exp(z[:, n])
            continue
        base = beta * z[:, n]
        if np.any(base <= -1.0):
            raise ValueError(
                f"box_cox's inverse: column {n} holds a value z with β·z <= -1 (β = {beta:.6g}), "
                "which no positive x maps to."
            )
        out[:, n] = np.exp(np.log1p(base) / beta)
    return out


def _box_cox_log_variance(logs: np.ndarray, beta: float) -> float:
    """log of the population variance of Box-Cox(x, β), computed without overflow."""
    if abs(beta) <= 1.0:  # |β log x| <= |log x| < 710: no overflow
        return float(np.log((np.expm1(beta * logs) / beta).var() if beta != 0 else logs.var()))
    scaled = beta * logs
    top = scaled.max()
    return float(2 * top + np.log(np.exp(scaled - top).var()) - 2 * np.log(abs(beta)))


def _box_cox_log_likelihood(beta: float, logs: np.ndarray) -> float:
    return (beta - 1.0) * logs.sum() - logs.size / 2.0 * _box_cox_log_variance(logs, beta)


def _fit_box_cox_power(column: np.ndarray) -> float:
    from scipy.optimize import minimize_scalar

    logs = np.log(column)
    result = minimize_scalar(lambda beta: -_box_cox_log_likelihood(beta, logs), bracket=(-2.0, 2.0), method="brent")
    return float(result.x)


_NO_POWER = object()


def box_cox(x, power=None, *, lam=_NO_POWER) -> tuple[Transform, Transform]:
    """Fit the Box-Cox power transform of each positive feature (chapter 7).

    ``x ← (x^β − 1)/β`` for β ≠ 0 and ``x ← log x`` for β = 0, one power β per
    column. It pulls in the long right tail of a skewed positive feature
    (β < 1) so that later scaling is not dominated by a few huge values. With
    ``power=None`` each column's β is fitted by maximum likelihood (the β that
    makes the transformed column look most like a normal sample), as
    ``scipy.stats.boxcox`` and scikit-learn's
    ``PowerTransformer(method="box-cox", standardize=False)`` do (both call
    the power λ: scikit-learn's ``lambdas_`` are our ``transform.powers``).

    Parameters
    ----------
    x : array of shape (P, N), every entry > 0
        The data to fit β on (the training split).
    power : None, float or array of shape (N,)
        Fixed β (one for all columns, or one per column); None fits them.
    lam : float or array of shape (N,), optional
        The earlier name of ``power``, still accepted (not both).

    Returns
    -------
    transform : callable
        ``transform(x_new)`` applies the fitted β to any positive ``(Q, N)``
        array; ``transform.powers`` holds them (``transform.lambdas``, the
        earlier name, is the same array).
    inverse : callable
        ``inverse(z)`` maps back to the original units.

    Raises
    ------
    ValueError
        If ``x`` (or a later ``x_new``) holds a value <= 0 (the message names
        the column and the row), NaN/inf, a constant column when fitting β,
        ``power`` has the wrong shape, or both ``power`` and ``lam`` are given.
    """
    if lam is not _NO_POWER:
        if power is not None:
            raise ValueError(f"box_cox takes the power once: give power (β) alone; found power={power!r} "
                             f"and lam={lam!r}.")
        power = lam
    x = as_inputs(x)
    _check_positive(x, "box_cox", "every value")
    if power is None:
        spread = x.std(axis=0)
        constant = _constant_columns(spread, np.abs(x.mean(axis=0)))
        if constant.size:
            _raise_constant(constant, x.mean(axis=0), "box_cox")
        powers = np.array([_fit_box_cox_power(x[:, n]) for n in range(x.shape[1])])
    else:
        powers = np.asarray(power, dtype=float)
        if powers.ndim == 0:
            powers = np.full(x.shape[1], float(powers))
        if powers.shape != (x.shape[1],) or not np.all(np.isfinite(powers)):
            raise ValueError(f"power must be None, one finite number or {x.shape[1]} finite numbers (one per "
                             f"column); found {power!r}.")
    check = _checked(x.shape[1], "box_cox")

    def transform(x_new):
        arr = check(x_new)
        _check_positive(arr, "box_cox's transform", "every value")
        return _box_cox(arr, powers)

    def inverse(z):
        return _box_cox_inverse(check(z), powers)

    transform.powers = powers.copy()
    transform.lambdas = transform.powers  # the earlier name, kept for code written against it
    return transform, inverse


def log_transform(x, offset: float = 0.0) -> tuple[Transform, Transform]:
    """The logarithm ``x ← log(x + offset)`` of each feature (chapter 7).

    The simplest fix for a positive feature with a long right tail (areas,
    prices, incomes, counts): equal ratios become equal steps, so a value ten
    times the median is as far from it as one a tenth of it. It is Box-Cox
    with β = 0. ``offset=1`` gives ``log(1 + x)``, the usual choice for counts
    that can be 0. Nothing is fitted; ``x`` is only checked, so that a bad
    feature is caught at the same point as with the other scalers.

    Parameters
    ----------
    x : array of shape (P, N) with every ``x + offset > 0``
    offset : float
        Added before taking the logarithm.

    Returns
    -------
    transform, inverse : callables
        ``transform(x_new) = log(x_new + offset)``, ``inverse(z) = exp(z) − offset``.

    Raises
    ------
    ValueError
        If some ``x + offset <= 0`` (the message names the column and row), or
        ``x`` holds NaN/inf.
    """
    x = as_inputs(x)
    offset = float(offset)
    if not np.isfinite(offset):
        raise ValueError(f"offset must be a finite number; found {offset!r}.")
    what = "every value + offset" if offset else "every value"
    _check_positive(x + offset, "log_transform", what)
    check = _checked(x.shape[1], "log_transform")

    def transform(x_new):
        arr = check(x_new) + offset
        _check_positive(arr, "log_transform's transform", what)
        return np.log(arr)

    def inverse(z):
        return np.exp(check(z)) - offset

    transform.offset = offset
    return transform, inverse


__all__ += ["robust_normalizer", "box_cox", "log_transform"]


def pca_sphere(x, *, relative_floor: float = 1e-10, zca: bool = False) -> tuple[Transform, Transform]:
    """Fit PCA-sphering (whitening) ``x ← D^(-1/2) Vᵀ (x − μ)`` per point (chapter 9).

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
        case (chapter 9's exercises show it on the breast cancer data).
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
        # At the default floor rounding noise is dropped, and real directions of features whose
        # variances differ by 1e10 (standard deviations by 1e5) or more.
        # A larger floor, chosen by the caller, also drops small but real components.
        why = (" (the features are linearly dependent or nearly so, or their scales differ by a factor of 1e5 or more:"
               " standardize first)") if relative_floor <= 1e-10 else ""
        warnings.warn(
            f"pca_sphere: dropped {int((~keep).sum())} component(s) whose covariance eigenvalue is "
            f"below {relative_floor:g} times the largest{why}; kept {int(keep.sum())} of {keep.size}.",
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


# ---------------------------------------------------------------- chapter 9: PCA as compression

__all__ += ["explained_variance", "pca"]


def _principal_axes(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean, covariance eigenvalues (largest first, rounding negatives set to 0) and eigenvectors."""
    mean = x.mean(axis=0)
    centred = x - mean
    eigenvalues, eigenvectors = np.linalg.eigh(centred.T @ centred / x.shape[0])
    order = np.argsort(eigenvalues)[::-1]
    return mean, np.clip(eigenvalues[order], 0.0, None), eigenvectors[:, order]


def explained_variance(x) -> np.ndarray:
    """Fraction of the total variance of ``x`` along each principal component (chapter 9).

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
    """Fit principal component analysis with ``k`` components (chapter 9).

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
    k = check_scalar(k, "k", numbers.Integral)  # its range, 1 … N, is checked next with N named
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


# ---------------------------------------------------------------- Yeo-Johnson and the quantile transform

__all__ += ["yeo_johnson", "quantile_transform"]


def _yeo_johnson(values: np.ndarray, power: float) -> np.ndarray:
    """Yeo-Johnson of one column: Box-Cox of x + 1 for x >= 0, mirrored with power 2 − β for x < 0."""
    out = np.empty_like(values)
    positive = values >= 0
    logs = np.log1p(values[positive])
    out[positive] = logs if power == 0 else np.expm1(power * logs) / power
    mirrored = np.log1p(-values[~positive])
    out[~positive] = -mirrored if power == 2 else -np.expm1((2 - power) * mirrored) / (2 - power)
    return out


def _yeo_johnson_inverse(z: np.ndarray, power: float) -> np.ndarray:
    out = np.empty_like(z)
    positive = z >= 0
    if power == 0:
        out[positive] = np.expm1(z[positive])
    else:
        out[positive] = np.expm1(np.log1p(power * z[positive]) / power)
    if power == 2:
        out[~positive] = -np.expm1(-z[~positive])
    else:
        out[~positive] = -np.expm1(np.log1p(-(2 - power) * z[~positive]) / (2 - power))
    return out


def _fit_yeo_johnson_power(column: np.ndarray) -> float:
    from scipy.optimize import minimize_scalar

    signed_logs = np.sign(column) * np.log1p(np.abs(column))

    def negative_log_likelihood(power: float) -> float:
        transformed = _yeo_johnson(column, power)
        variance = transformed.var()
        if not np.isfinite(variance) or variance <= 0:
            return np.inf
        return column.size / 2 * np.log(variance) - (power - 1) * signed_logs.sum()

    return float(minimize_scalar(negative_log_likelihood, bracket=(-2.0, 2.0), method="brent").x)


def yeo_johnson(x, power=None) -> tuple[Transform, Transform]:
    """Fit the Yeo-Johnson power transform of each feature, zero and negative values allowed (chapter 7).

    For x >= 0 it is Box-Cox of x + 1 with power β: ``((x + 1)^β − 1)/β``
    (``log(x + 1)`` for β = 0); for x < 0 it is the mirror image with power
    2 − β: ``−((1 − x)^(2−β) − 1)/(2 − β)`` (``−log(1 − x)`` for β = 2). It is
    continuous and increasing for every β, so it keeps the order of the values
    while pulling in a long tail (β < 1 for a right tail). With ``power=None``
    each column's β is fitted by maximum likelihood, as
    ``scipy.stats.yeojohnson`` and scikit-learn's
    ``PowerTransformer(method="yeo-johnson", standardize=False)`` do.

    Parameters
    ----------
    x : array of shape (P, N)
        The data to fit β on (the training split).
    power : None, float or array of shape (N,)
        Fixed β (one for all columns or one per column); None fits them.

    Returns
    -------
    transform : callable
        ``transform(x_new)`` for any ``(Q, N)`` array; ``transform.powers`` holds β.
    inverse : callable
        ``inverse(z)`` maps back to the original units.

    Raises
    ------
    ValueError
        For NaN or inf, a constant column when fitting β, or ``power`` of the
        wrong shape; the inverse, for a value no x maps to.
    """
    x = as_inputs(x)
    if power is None:
        spread = x.std(axis=0)
        constant = _constant_columns(spread, np.abs(x.mean(axis=0)))
        if constant.size:
            _raise_constant(constant, x.mean(axis=0), "yeo_johnson")
        powers = np.array([_fit_yeo_johnson_power(x[:, n]) for n in range(x.shape[1])])
    else:
        powers = np.asarray(power, dtype=float)
        if powers.ndim == 0:
            powers = np.full(x.shape[1], float(powers))
        if powers.shape != (x.shape[1],) or not np.all(np.isfinite(powers)):
            raise ValueError(f"power must be None, one finite number or {x.shape[1]} finite numbers (one per "
                             f"column); found {power!r}.")
    check = _checked(x.shape[1], "yeo_johnson")

    def transform(x_new):
        arr = check(x_new)
        return np.column_stack([_yeo_johnson(arr[:, n], b) for n, b in enumerate(powers)])

    def inverse(z):
        arr = check(z)
        for n, b in enumerate(powers):
            column = arr[:, n]
            bad = ((column >= 0) & (1 + b * column <= 0)) | ((column < 0) & (1 - (2 - b) * column <= 0))
            if np.any(bad):
                raise ValueError(f"yeo_johnson's inverse: column {n} holds {column[bad][0]:.6g}, which no x maps "
                                 f"to (β = {b:.6g}).")
        return np.column_stack([_yeo_johnson_inverse(arr[:, n], b) for n, b in enumerate(powers)])

    transform.powers = powers.copy()
    return transform, inverse


_QUANTILE_BOUND = 1e-7   # how close to 0 or 1 a value may come before the normal output is clipped


def quantile_transform(x, n_quantiles: int = 1000, output: str = "uniform") -> tuple[Transform, Transform]:
    """Map each feature through its training ranks to a uniform or a normal shape (chapter 7).

    Fit: ``n = min(n_quantiles, P)`` evenly spaced probabilities from 0 to 1
    and the training quantiles at them (NumPy's linear percentiles). A new
    value is mapped to a probability by interpolating between those quantiles
    (averaged over the two directions, so tied training values map to the
    middle of their range), and values beyond the training range to 0 or 1.
    With ``output="normal"`` the probability goes through the inverse normal
    CDF, clipped at 1e-7 from 0 and 1. It is scikit-learn's
    ``QuantileTransformer`` with ``subsample=None``.

    What it costs: only ranks survive, so distances between points change
    (the gap between two extremes shrinks to the gap between their ranks),
    values beyond the training range all map to the same edge, and, like every
    transform here, it must be fitted on the training split only.

    Parameters
    ----------
    x : array of shape (P, N)
        The training split.
    n_quantiles : int >= 2
    output : {"uniform", "normal"}

    Returns
    -------
    transform : callable
        ``transform(x_new)``; ``transform.quantiles`` (shape ``(n, N)``) and
        ``transform.references`` (shape ``(n,)``) record the fit.
    inverse : callable
        ``inverse(z)`` maps back by interpolation (within the training range).

    Raises
    ------
    ValueError
        For NaN or inf, fewer than 2 quantiles, or an unknown output.
    """
    x = as_inputs(x)
    n_quantiles = check_scalar(n_quantiles, "n_quantiles", numbers.Integral, min_val=2)
    check_choice(output, ("uniform", "normal"), "output")
    count = min(n_quantiles, x.shape[0])
    references = np.linspace(0, 1, count)
    quantiles = np.percentile(x, references * 100, axis=0)
    quantiles = np.maximum.accumulate(quantiles, axis=0)   # percentiles can dip by rounding; keep them sorted
    check = _checked(x.shape[1], "quantile_transform")

    def transform(x_new):
        from scipy import stats

        arr = check(x_new)
        out = np.empty_like(arr)
        for n in range(arr.shape[1]):
            column, q = arr[:, n], quantiles[:, n]
            if output == "normal":
                low_edge, high_edge = column - _QUANTILE_BOUND < q[0], column + _QUANTILE_BOUND > q[-1]
            else:
                low_edge, high_edge = column == q[0], column == q[-1]
            probability = 0.5 * (np.interp(column, q, references) - np.interp(-column, -q[::-1], -references[::-1]))
            probability[high_edge] = 1.0
            probability[low_edge] = 0.0
            if output == "normal":
                edge = stats.norm.ppf(1 - (_QUANTILE_BOUND - np.spacing(1)))
                probability = np.clip(stats.norm.ppf(probability), -edge, edge)
            out[:, n] = probability
        return out

    def inverse(z):
        from scipy import stats

        arr = check(z)
        if output == "normal":
            arr = stats.norm.cdf(arr)
        if np.any((arr < 0) | (arr > 1)):
            raise ValueError("quantile_transform's inverse needs probabilities in [0, 1] (uniform output); "
                             f"found values from {arr.min():.6g} to {arr.max():.6g}.")
        return np.column_stack([np.interp(arr[:, n], references, quantiles[:, n]) for n in range(arr.shape[1])])

    transform.quantiles, transform.references = quantiles.copy(), references.copy()
    return transform, inverse
