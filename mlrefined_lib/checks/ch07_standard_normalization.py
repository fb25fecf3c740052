"""Chapter 7, standard normalization: the checks of its exercises."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from ..costs import least_squares
from ..optimizers import gradient_descent
from ._grading import CheckFailed, graded
from ._reference import _as_array, _as_number, _call, _raise_known_mistake

__all__ = ["check_standardized_condition_number", "check_predictions", "check_largest_convergent_alpha", "check_robust_scale",
           "check_training_ranks", "check_equal_width_bins", "check_stump"]


def _least_squares_condition_number(z: np.ndarray) -> float:
    """Condition number of the least-squares Hessian (2/P) X̃ᵀX̃ for inputs z."""
    z_ext = np.column_stack([np.ones(len(z)), z])
    eigenvalues = np.linalg.eigvalsh(2.0 / len(z) * z_ext.T @ z_ext)
    return float(eigenvalues.max() / eigenvalues.min())


@graded
def check_standardized_condition_number(student: Callable) -> None:
    """Check ``student(x) -> float``: the Hessian condition number after standardizing ``x`` (chapter 7)."""
    rng = np.random.default_rng(61)
    for correlation in (0.0, 0.6, 0.95):
        base = rng.normal(size=(400, 2))
        x = np.column_stack([base[:, 0], correlation * base[:, 0] + np.sqrt(1 - correlation**2) * base[:, 1]])
        x = 3.0 + x * np.array([2.0, 40.0])
        z = (x - x.mean(axis=0)) / x.std(axis=0)
        expected = _least_squares_condition_number(z)
        got = _call(student, "your function", x.copy())
        got = _as_number(got, "your function", "one number", float)
        if np.isclose(got, expected, rtol=1e-6):
            continue
        if np.isclose(got, _least_squares_condition_number(x), rtol=1e-6):
            raise CheckFailed("that is the condition number for the raw inputs: standardize x first.")
        raise CheckFailed(
            f"for features with correlation about {correlation} the condition number should be "
            f"{expected:.4f}; yours is {got:.4f}."
        )
    print("Correct: your condition numbers match for uncorrelated and correlated features.")


@graded
def check_predictions(student: Callable, new_inputs, expected, *, name: str = "your predictions", rtol: float = 1e-3) -> None:
    """Check ``student(new_inputs)`` against reference predictions, to a relative tolerance (chapter 7)."""
    new_inputs = np.asarray(new_inputs, dtype=float)
    expected = np.asarray(expected, dtype=float)
    got = _as_array(_call(student, name, new_inputs.copy()), name, expected.shape)
    if np.allclose(got, expected, rtol=rtol, atol=0):
        print(f"Correct: {name} agree with the least-squares solution to within {rtol:.1%}.")
        return
    worst = int(np.argmax(np.abs(got - expected) / np.abs(expected)))
    raise CheckFailed(
        f"{name} are off: for input {new_inputs.ravel()[worst]:.6g} you predict {got[worst]:.6g} "
        f"but the least-squares model predicts {expected[worst]:.6g}. Did you normalize the new inputs "
        "with the training mean and standard deviation, and run enough steps?"
    )


def _reference_convergent(g: Callable, w0, alpha: float, max_its: int) -> bool:
    run = gradient_descent(g, w0, alpha, max_its, warn=False)
    return run.stop_reason != "diverged" and bool(np.all(np.diff(run.costs) <= 0))


def _grid_alpha_below(limit: float, gammas) -> float | None:
    """The largest 10**-gamma (gamma from ``gammas``) strictly below ``limit``, or None."""
    return next((10.0**-gamma for gamma in sorted(gammas) if 10.0**-gamma < limit), None)


def _hessian_eigenvalues(x: np.ndarray, bias: bool = True) -> np.ndarray:
    x_ext = np.column_stack([np.ones(len(x)), x]) if bias else x
    return np.linalg.eigvalsh(2.0 / len(x) * x_ext.T @ x_ext)


@graded(forbids=('least_squares', 'gradient_descent'), rule='NumPy only')
def check_largest_convergent_alpha(student: Callable) -> None:
    """Check ``student(x, gammas) -> alpha``: the largest convergent alpha predicted from the Hessian (chapter 7).

    The answer is the largest ``10**-gamma`` (gamma from ``gammas``) below
    ``2 / d_max``, with ``d_max`` the largest eigenvalue of the least-squares
    Hessian ``(2/P) X̃ᵀX̃``, or None. On the check's data it is also what a
    search by gradient descent finds (100 steps from ``w = 0`` that stay
    finite and never raise the cost): the check confirms that too, so the
    prediction is tested against the runs it predicts.
    """
    rng = np.random.default_rng(62)
    name = getattr(student, "__name__", "")
    name = name if name.isidentifier() else "your function"
    gammas = list(range(-1, 8))
    for scale in (1.0, 30.0, 1000.0):
        x = rng.uniform(0, scale, size=(60, 2))
        y = x @ np.array([1.0, -2.0]) + rng.normal(size=60)
        eigenvalues = _hessian_eigenvalues(x)
        expected = _grid_alpha_below(2.0 / eigenvalues.max(), gammas)
        searched = next((10.0**-gamma for gamma in sorted(gammas)
                         if _reference_convergent(least_squares(x, y), np.zeros(3), 10.0**-gamma, 100)), None)
        if searched != expected:  # the check's own data must keep away from the edge
            raise RuntimeError(f"check data: the search finds {searched!r}, the Hessian predicts {expected!r}")
        got = _call(student, name, x.copy(), list(gammas))
        try:
            value = None if got is None else float(got)
        except (TypeError, ValueError):
            raise CheckFailed(f"{name} should return one number, a learning rate alpha; found {type(got).__name__}.") from None
        if value is not None and expected is not None and np.isclose(value, expected, rtol=1e-12):
            continue
        hints = [
            (_grid_alpha_below(1.0 / eigenvalues.max(), gammas), "the limit is 2 / d_max, not 1 / d_max: below "
             "1 / d_max the path does not zig-zag, but it still converges up to 2 / d_max."),
            (_grid_alpha_below(2.0 / eigenvalues.min(), gammas), "you used the smallest eigenvalue; the steepest "
             "direction, the largest eigenvalue d_max, sets the limit."),
            (_grid_alpha_below(2.0 / _hessian_eigenvalues(x, bias=False).max(), gammas), "the Hessian belongs to "
             "the model with a bias: put a column of ones in front of x."),
        ]
        for wrong, hint in hints:
            if value is not None and wrong is not None and wrong != expected and np.isclose(value, wrong, rtol=1e-12):
                raise CheckFailed(f"for inputs on [0, {scale:g}] {name} returned {got!r}: {hint}")
        if value is not None and np.isclose(value, 2.0 / eigenvalues.max(), rtol=1e-9):
            raise CheckFailed(f"{name} returned 2 / d_max itself; return the largest alpha of the grid below it.")
        raise CheckFailed(
            f"for inputs on [0, {scale:g}] the largest convergent alpha is {expected!r}; {name} returned {got!r}. "
            "Compute the least-squares Hessian (2/P) X̃ᵀX̃, its largest eigenvalue d_max, and return the largest "
            "10**-gamma below 2 / d_max."
        )
    print("Correct: your predicted learning rates are the ones a search by gradient descent finds.")


def _robust_reference(x_train: np.ndarray, x_new: np.ndarray, centre: str = "median", spread: str = "iqr",
                      statistics_from: np.ndarray | None = None) -> np.ndarray:
    source = x_train if statistics_from is None else statistics_from
    centres = {"median": np.median(source, axis=0), "mean": source.mean(axis=0), "min": source.min(axis=0)}
    spreads = {
        "iqr": np.subtract(*np.percentile(source, [75, 25], axis=0)),
        "std": source.std(axis=0),
        "range": source.max(axis=0) - source.min(axis=0),
        "half_iqr": np.subtract(*np.percentile(source, [75, 25], axis=0)) / 2,
    }
    return (x_new - centres[centre]) / spreads[spread]


@graded(forbids=('robust_normalizer',), rule='NumPy only')
def check_robust_scale(student: Callable) -> None:
    """Check ``student(x_train, x_new) -> array (Q, N)``: robust scaling (chapter 7).

    Each column of ``x_new`` should have the training median subtracted and be
    divided by the training interquartile range (75th minus 25th percentile,
    ``np.percentile``'s default interpolation). The data are fresh heavy-tailed
    features with outliers; the reference is plain NumPy, and common slips
    (mean or standard deviation instead of median or IQR, the new data's own
    statistics, the full range) get their own message.
    """
    rng = np.random.default_rng(63)
    x_train = rng.standard_t(df=2, size=(81, 3)) * np.array([2.0, 30.0, 0.5]) + np.array([10.0, -200.0, 3.0])
    x_train[:2] *= 40.0  # two rows of outliers
    x_new = rng.standard_t(df=2, size=(17, 3)) * np.array([2.0, 30.0, 0.5]) + np.array([11.0, -190.0, 3.5])
    saved = (x_train.copy(), x_new.copy())
    got = _as_array(_call(student, "your robust scaling", x_train, x_new), "your robust scaling", x_new.shape)
    if not (np.array_equal(x_train, saved[0]) and np.array_equal(x_new, saved[1])):
        raise CheckFailed("your function changed an array it was given; work on copies (x - centre makes one).")
    expected = _robust_reference(x_train, x_new)
    if np.allclose(got, expected, rtol=1e-8, atol=1e-10):
        print("Correct: your robust scaling matches the median/IQR reference on fresh data with outliers.")
        return
    hints = [
        (dict(statistics_from=x_new), "you took the median and IQR of x_new; use the training split's statistics "
                                      "for every later point (chapter 7's rule)."),
        (dict(centre="mean", spread="std"), "that is standardization (mean and standard deviation): use the median "
                                            "and the interquartile range instead."),
        (dict(centre="mean"), "the spread is right but the centre is the mean; subtract the median."),
        (dict(spread="std"), "the centre is right but you divided by the standard deviation; divide by the "
                             "interquartile range, np.percentile(x, 75, axis=0) - np.percentile(x, 25, axis=0)."),
        (dict(centre="min", spread="range"), "that is min-max scaling: use the median and the interquartile range."),
        (dict(spread="range"), "you divided by the full range (max - min); divide by the interquartile range."),
        (dict(spread="half_iqr"), "you divided by half the interquartile range; divide by the whole of it."),
    ]
    for keywords, hint in hints:
        if np.allclose(got, _robust_reference(x_train, x_new, **keywords), rtol=1e-8, atol=1e-10):
            raise CheckFailed(f"your robust scaling is not right: {hint}")
    worst = np.unravel_index(int(np.argmax(np.abs(got - expected))), got.shape)
    raise CheckFailed(
        f"your robust scaling is not right: entry {tuple(int(i) for i in worst)} is {got[worst]:.6g} but should be "
        f"{expected[worst]:.6g}. Compute each column's median and IQR on x_train (axis=0), then "
        "(x_new - median) / IQR."
    )


def _ranks_reference(x_train: np.ndarray, x_new: np.ndarray, strict: bool = False) -> np.ndarray:
    """For each entry of ``x_new``, the share of its column's training values <= it (< it if ``strict``)."""
    compare = np.less if strict else np.less_equal
    return np.column_stack([compare(x_train[:, n][None, :], x_new[:, n][:, None]).mean(axis=1)
                            for n in range(x_train.shape[1])])


@graded(forbids=("quantile_transform",), rule="NumPy only")
def check_training_ranks(student: Callable) -> None:
    """Check ``student(x_train, x_new) -> array (Q, N)``: each new value's share of training values at or below it (chapter 7).

    The data hold tied values (whole numbers), new values beyond both ends
    of the training range, and a skewed column; the reference compares every
    new value with every training value of its column. Using ``<`` instead
    of ``<=``, counts instead of shares and the new data's own ranks get their
    own message.
    """
    rng = np.random.default_rng(64)
    x_train = np.column_stack([rng.integers(0, 12, size=90), np.round(rng.lognormal(3.0, 1.2, size=90), 1)])
    x_new = np.column_stack([rng.integers(-3, 16, size=25), np.round(rng.lognormal(3.0, 1.6, size=25), 1)])
    x_new[:2, 1] = [0.01, 1e5]   # beyond both ends
    saved = (x_train.copy(), x_new.copy())
    got = _as_array(_call(student, "your function", x_train, x_new), "your function", x_new.shape)
    if not (np.array_equal(x_train, saved[0]) and np.array_equal(x_new, saved[1])):
        raise CheckFailed("your function changed an array it was given; work on copies.")
    expected = _ranks_reference(x_train, x_new)
    if np.allclose(got, expected, rtol=0, atol=1e-12):
        print("Correct: your shares match on tied values and on new values beyond the training range.")
        return
    hints = [
        (_ranks_reference(x_train, x_new, strict=True), "tied values count too: use <= (the share at or below), "
                                                        "not <."),
        (expected * len(x_train), "those are counts; divide by the number of training values to get shares."),
        (_ranks_reference(x_new, x_new), "you ranked x_new among itself; compare each new value with the "
                                         "training values of its column."),
    ]
    _raise_known_mistake(got, hints, "your shares are not right", rtol=0, atol=1e-12)
    worst = np.unravel_index(int(np.argmax(np.abs(got - expected))), got.shape)
    raise CheckFailed(
        f"your shares are not right: entry {tuple(int(i) for i in worst)} (value {x_new[worst]:.6g}) is "
        f"{got[worst]:.6g} but should be {expected[worst]:.6g}. Compare it with every training value of its "
        "column and take the share that is <= it."
    )


def _equal_width_reference(x_train: np.ndarray, x_new: np.ndarray, bins: int, clip: bool = True) -> np.ndarray:
    low, high = x_train.min(), x_train.max()
    which = np.floor((x_new - low) / (high - low) * bins).astype(int)
    if clip:
        which = np.clip(which, 0, bins - 1)
    out = np.zeros((len(x_new), bins))
    inside = (which >= 0) & (which < bins)
    out[np.flatnonzero(inside), which[inside]] = 1.0
    return out


@graded(forbids=("bin_features",), rule="NumPy only")
def check_equal_width_bins(student: Callable) -> None:
    """Check ``student(x_train, x_new, bins) -> array (Q, bins)``: one-hot equal-width bins (chapter 7).

    The edges cut the training range into ``bins`` equal parts; the training
    maximum belongs to the last bin, and new values below or above the
    training range go to the first or the last bin. The new values include
    the training minimum and maximum and values beyond both ends.
    """
    rng = np.random.default_rng(65)
    for bins in (4, 7):
        x_train = rng.gamma(2.0, 10.0, size=60) + 1900.0
        x_new = np.concatenate([[x_train.min(), x_train.max(), x_train.min() - 5.0, x_train.max() + 30.0],
                                rng.gamma(2.0, 10.0, size=16) + 1900.0])
        saved = (x_train.copy(), x_new.copy())
        got = _as_array(_call(student, "your function", x_train, x_new, bins), "your function", (len(x_new), bins))
        if not (np.array_equal(x_train, saved[0]) and np.array_equal(x_new, saved[1])):
            raise CheckFailed("your function changed an array it was given; work on copies.")
        expected = _equal_width_reference(x_train, x_new, bins)
        if np.array_equal(got, expected):
            continue
        if np.array_equal(got, _equal_width_reference(x_train, x_new, bins, clip=False)):
            raise CheckFailed(f"with {bins} bins, the training maximum or a new value beyond the training range "
                              "falls in no bin: the maximum belongs to the last bin, and values beyond either end "
                              "go to the first or the last bin.")
        if np.array_equal(got, _equal_width_reference(x_new, x_new, bins)):
            raise CheckFailed(f"with {bins} bins your edges come from x_new's range; cut the training range.")
        rows = np.flatnonzero(np.any(got != expected, axis=1))
        row = int(rows[0])
        raise CheckFailed(
            f"with {bins} bins the value {x_new[row]:.6g} (row {row}) should fall in bin "
            f"{int(np.argmax(expected[row]))} (counting from 0), a row of zeros with a single 1; yours is "
            f"{np.round(got[row], 3).tolist()}."
        )
    print("Correct: your bins match, the training maximum and values beyond the range included.")


def _stump_reference(x_train: np.ndarray, y_train: np.ndarray, x_new: np.ndarray) -> np.ndarray:
    values = np.unique(x_train)
    best, threshold = np.inf, None
    for cut in (values[:-1] + values[1:]) / 2:
        left = x_train <= cut
        error = ((y_train[left] - y_train[left].mean()) ** 2).sum() + ((y_train[~left] - y_train[~left].mean()) ** 2).sum()
        if error < best:
            best, threshold = error, cut
    left = x_train <= threshold
    return np.where(x_new <= threshold, y_train[left].mean(), y_train[~left].mean())


@graded(rule="NumPy only")
def check_stump(student: Callable) -> None:
    """Check ``student(x_train, y_train, x_new) -> array (Q,)``: a regression tree with one split (chapter 7).

    The split is the midpoint between two neighbouring distinct training
    values with the least summed squared error of the two sides around their
    means; a point at or below it gets the left mean. Fresh data with a step
    in it, and new points spread over the whole range.
    """
    rng = np.random.default_rng(66)
    for step_at in (0.3, 0.7):
        x_train = rng.uniform(0, 1, size=50)
        y_train = np.where(x_train > step_at, 3.0, 1.0) + rng.normal(0, 0.8, size=50)
        x_new = np.concatenate([np.linspace(-0.1, 1.1, 23), x_train[:5]])
        saved = (x_train.copy(), y_train.copy(), x_new.copy())
        got = _as_array(_call(student, "your function", x_train, y_train, x_new), "your function", x_new.shape)
        if not all(np.array_equal(a, b) for a, b in zip((x_train, y_train, x_new), saved)):
            raise CheckFailed("your function changed an array it was given; work on copies.")
        expected = _stump_reference(x_train, y_train, x_new)
        if np.allclose(got, expected, rtol=1e-9, atol=1e-9):
            continue
        if np.allclose(got, y_train.mean()):
            raise CheckFailed("you predict the overall mean everywhere: choose the split with the least summed "
                              "squared error and predict each side's mean.")
        worst = int(np.argmax(np.abs(got - expected)))
        raise CheckFailed(
            f"for data with a step near {step_at} your prediction at x = {x_new[worst]:.4g} is {got[worst]:.6g} but "
            f"a one-split tree predicts {expected[worst]:.6g}. Try every midpoint between neighbouring distinct "
            "training values, keep the one whose two sides have the least summed squared error around their "
            "means, and send x <= threshold to the left."
        )
    print("Correct: your one-split tree predicts what the best single split predicts.")
