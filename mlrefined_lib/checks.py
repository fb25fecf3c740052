"""Checks that the exercise cells call (every chapter).

Each ``check_*`` function runs a student's function on fresh data, compares
the result with an independent reference and either prints a short
confirmation or raises :class:`CheckFailed` with a message that says what is
wrong and, where it can tell, why. A function that still raises
``NotImplementedError`` (the stub of the student edition) gets its own
message.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .costs import least_squares
from .optimizers import gradient_descent

__all__ = ["CheckFailed", "check_close", "check_least_squares_gradient", "check_descend_until_flat"]


class CheckFailed(AssertionError):
    """Raised by a check when the answer is wrong; the message says how."""


def _call(student: Callable, name: str, *args):
    if not callable(student):
        raise CheckFailed(f"{name} should be a function; found {type(student).__name__}.")
    try:
        return student(*args)
    except NotImplementedError:
        raise CheckFailed(
            f"{name} is not written yet: replace the line `raise NotImplementedError` in the "
            "exercise cell with your code, run that cell, then run this check again."
        ) from None


def _as_array(value, name: str, shape: tuple[int, ...]) -> np.ndarray:
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise CheckFailed(f"{name} should return an array of numbers; found {type(value).__name__}.") from None
    if arr.shape != shape:
        raise CheckFailed(f"{name} should return an array of shape {shape}; found shape {arr.shape}.")
    if not np.all(np.isfinite(arr)):
        raise CheckFailed(f"{name} returned NaN or inf values.")
    return arr


def check_close(name: str, got, expected, *, rtol: float = 1e-6, atol: float = 1e-9) -> None:
    """Pass if ``got`` matches ``expected`` in shape and value, else raise CheckFailed."""
    expected = np.asarray(expected, dtype=float)
    got = _as_array(got, name, expected.shape)
    if not np.allclose(got, expected, rtol=rtol, atol=atol):
        worst = int(np.argmax(np.abs(got - expected)))
        raise CheckFailed(
            f"{name} is not right: entry {worst} is {got.ravel()[worst]:.6g} but should be "
            f"{expected.ravel()[worst]:.6g}."
        )
    print(f"Correct: {name} matches the reference.")


def _finite_difference_gradient(g: Callable, w: np.ndarray, h: float = 1e-6) -> np.ndarray:
    out = np.zeros_like(w)
    for i in range(w.size):
        step = np.zeros_like(w)
        step[i] = h
        out[i] = (g(w + step) - g(w - step)) / (2 * h)
    return out


def check_least_squares_gradient(student: Callable) -> None:
    """Check ``student(x, y, w)``, the gradient of the mean least-squares cost (chapter 1).

    The reference is a central finite difference of the cost
    ``(1/P) Σ (w[0] + x_p @ w[1:] − y_p)²``, not the formula itself.
    """
    rng = np.random.default_rng(11)
    x, y, w = rng.normal(size=(23, 3)), rng.normal(size=23), rng.normal(size=4)
    expected = _finite_difference_gradient(least_squares(x, y), w)
    got = _as_array(_call(student, "your gradient", x.copy(), y.copy(), w.copy()), "your gradient", (4,))
    if np.allclose(got, expected, rtol=1e-5, atol=1e-7):
        print("Correct: your gradient matches a finite-difference gradient of the cost on random data.")
        return
    hints = [
        (expected / 2, "it is half the right size: the derivative of a square brings a factor 2."),
        (expected * 23, "it is P times too large: the cost is a mean, so divide by P."),
        (expected * 23 / 2, "it lacks both the factor 2 and the division by P."),
        (-expected, "it has the wrong sign: use (model − y), not (y − model)."),
    ]
    for wrong, hint in hints:
        if np.allclose(got, wrong, rtol=1e-5, atol=1e-7):
            raise CheckFailed(f"your gradient is not right: {hint}")
    if np.allclose(got[1:], expected[1:], rtol=1e-5, atol=1e-7):
        raise CheckFailed("your gradient is right for the feature weights but not for the bias w[0]: "
                          "its entry is (2/P) times the sum of the residuals.")
    raise CheckFailed(
        f"your gradient is not right: got {np.round(got, 4).tolist()}, expected {np.round(expected, 4).tolist()} "
        "on random data. Compare with (2/P) X̃ᵀ(X̃w − y), X̃ being x with a column of ones in front."
    )


def check_descend_until_flat(student: Callable) -> None:
    """Check ``student(gradient, w0, alpha, tol, max_its) -> (w, steps)`` (chapter 1).

    It should take gradient steps until the gradient norm is at most ``tol``
    (or ``max_its`` steps are taken) and return the last weights and the
    number of steps taken. The reference is the library's ``gradient_descent``.
    """
    rng = np.random.default_rng(12)
    x = rng.normal(size=(40, 2))
    y = 1.5 + x @ np.array([2.0, -1.0]) + 0.1 * rng.normal(size=40)
    g = least_squares(x, y)
    for tol, max_its in [(1e-3, 10_000), (1e-12, 25)]:
        reference = gradient_descent(g, np.zeros(3), 0.1, max_its, tol=tol)
        result = _call(student, "descend_until_flat", g.gradient, np.zeros(3), 0.1, tol, max_its)
        if not (isinstance(result, tuple) and len(result) == 2):
            raise CheckFailed("descend_until_flat should return a pair (w, steps).")
        w, steps = result
        w = _as_array(w, "the weights returned by descend_until_flat", (3,))
        if int(steps) != reference.steps:
            what = "stop as soon as the gradient norm is at most tol" if reference.stop_reason == "tolerance" \
                else f"stop after max_its = {max_its} steps when tol is never reached"
            raise CheckFailed(
                f"with tol={tol:g} and max_its={max_its} your function took {int(steps)} steps; "
                f"it should take {reference.steps}. It should {what} (test the norm before each step)."
            )
        if not np.allclose(w, reference.final_weights, rtol=1e-8, atol=1e-10):
            raise CheckFailed("the number of steps is right but the weights are not: use w ← w − alpha·gradient(w).")
    print("Correct: your function stops at the same step and the same weights as the reference.")


# ---------------------------------------------------------------- chapter 7: imputation

__all__ += ["check_train_median_impute", "check_gappy_softmax"]


def _gappy_table(rng: np.random.Generator, shape: tuple[int, int], shift: float, fraction: float) -> np.ndarray:
    """Skewed (log-normal) columns, so that mean and median differ, with a fraction of NaN."""
    table = np.exp(rng.normal(size=shape)) * np.array([1.0, 10.0, 100.0])[: shape[1]] + shift
    table[rng.random(shape) < fraction] = np.nan
    return table


def check_train_median_impute(student: Callable) -> None:
    """Check ``student(x_train, x_new) -> (train_filled, new_filled)`` (chapter 7).

    Both arrays should have their NaN entries replaced by the median of the
    observed *training* entries of the same column, and neither input should
    be changed. The reference is plain NumPy (``np.nanmedian`` of x_train).
    """
    rng = np.random.default_rng(71)
    x_train = _gappy_table(rng, (41, 3), 0.0, 0.25)
    x_new = _gappy_table(rng, (17, 3), 50.0, 0.3)      # shifted: its own medians differ
    saved_train, saved_new = x_train.copy(), x_new.copy()
    result = _call(student, "your function", x_train, x_new)
    if not np.array_equal(x_train, saved_train, equal_nan=True) or not np.array_equal(x_new, saved_new, equal_nan=True):
        raise CheckFailed("your function changed the arrays it was given (it filled them in place). "
                          "Work on copies, e.g. filled = np.where(np.isnan(x), medians, x).")
    if not (isinstance(result, tuple) and len(result) == 2):
        raise CheckFailed("your function should return a pair (train_filled, new_filled): "
                          "both splits, imputed with the training medians.")
    train_filled = _as_array(result[0], "the imputed training split", x_train.shape)
    new_filled = _as_array(result[1], "the imputed new split", x_new.shape)

    def fill(m, values):
        return np.where(np.isnan(m), values, m)

    medians = np.nanmedian(x_train, axis=0)
    if np.allclose(train_filled, fill(x_train, medians)) and np.allclose(new_filled, fill(x_new, medians)):
        print("Correct: both splits are filled with the training medians, and the inputs are unchanged.")
        return
    observed_train, observed_new = ~np.isnan(x_train), ~np.isnan(x_new)
    if not (np.allclose(train_filled[observed_train], x_train[observed_train])
            and np.allclose(new_filled[observed_new], x_new[observed_new])):
        raise CheckFailed("your function changed entries that were not missing: only the NaN entries should change.")
    if np.allclose(train_filled, fill(x_train, medians)):
        if np.allclose(new_filled, fill(x_new, np.nanmedian(x_new, axis=0))):
            raise CheckFailed("the training split is right, but the new split is filled with the test split's own "
                              "medians. Use the training medians for both: that is all a model will know.")
        raise CheckFailed("the training split is right but the new split is not: fill its NaN entries with the "
                          "medians of the training columns.")
    for values, what in [(np.nanmean(x_train, axis=0), "the training means, not the medians"),
                         (np.zeros(3), "zeros; use the median of each training column"),
                         (np.nanmedian(np.vstack([x_train, x_new]), axis=0),
                          "medians of both splits together: that leaks the new data; use the training split only")]:
        if np.allclose(train_filled, fill(x_train, values)):
            raise CheckFailed(f"your function fills the gaps with {what}.")
    raise CheckFailed("the filled values are not the training medians. Compute np.nanmedian(x_train, axis=0) "
                      "and put column n's median into the NaN entries of column n.")


def check_gappy_softmax(student: Callable) -> None:
    """Check ``student(x_train, y_train, normalize, alpha, steps) -> costs`` (chapter 7).

    The function should mean-impute ``x_train`` with its own column means,
    standard-normalize the result when ``normalize`` is True, and return the
    ``steps + 1`` softmax costs of gradient descent from ``w = 0`` with step
    length ``alpha``. The reference uses the library's ``gradient_descent``
    on breast-cancer data (a subset) with injected gaps.
    """
    from sklearn.datasets import load_breast_cancer

    from .costs import softmax
    from .imputation import mean_imputer
    from .normalizers import standard_normalizer

    data = load_breast_cancer()
    rng = np.random.default_rng(72)
    rows = rng.choice(len(data.target), size=150, replace=False)
    x = data.data[rows][:, [0, 3, 7, 21]]
    y = 2.0 * data.target[rows] - 1.0
    x[rng.random(x.shape) < 0.15] = np.nan
    alpha, steps = 0.5, 12

    def reference(inputs, normalize):
        filled = mean_imputer(inputs)(inputs)
        if normalize:
            filled = standard_normalizer(filled)[0](filled)
        return gradient_descent(softmax(filled, y), np.zeros(inputs.shape[1] + 1), alpha, steps).costs

    saved = x.copy()
    for normalize in (False, True):
        result = _call(student, "your function", x.copy(), y.copy(), normalize, alpha, steps)
        costs = _as_array(getattr(result, "costs", result), f"your function (normalize={normalize})", (steps + 1,))
        expected = reference(x, normalize)
        if np.allclose(costs, expected, rtol=1e-6, atol=1e-9):
            continue
        if abs(costs[0] - np.log(2)) > 1e-9:
            raise CheckFailed(f"the first cost should be log 2 = {np.log(2):.6f} (all weights zero); found "
                              f"{costs[0]:.6f}. Start gradient descent from np.zeros(N + 1).")
        if normalize and np.allclose(costs, reference(x, False), rtol=1e-6, atol=1e-9):
            raise CheckFailed("with normalize=True your costs equal the raw ones: standard-normalize the imputed "
                              "inputs when normalize=True.")
        if np.allclose(costs, reference(np.nan_to_num(saved), normalize), rtol=1e-6, atol=1e-9):
            raise CheckFailed("your costs match inputs whose gaps were filled with 0: fill them with each "
                              "column's mean (over its observed entries) instead.")
        worst = int(np.argmax(np.abs(costs - expected)))
        raise CheckFailed(f"with normalize={normalize} your cost after {worst} step(s) is {costs[worst]:.6f} but "
                          f"should be {expected[worst]:.6f}. Impute with the column means, normalize only when "
                          "asked, and run gradient descent on the softmax cost with labels ±1.")
    print("Correct: your cost histories match the reference, raw and normalized.")
