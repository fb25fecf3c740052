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

__all__ = [
    "CheckFailed",
    "check_close",
    "check_least_squares_gradient",
    "check_descend_until_flat",
    "check_standardized_condition_number",
    "check_predictions",
    "check_largest_convergent_alpha",
]


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


# ----------------------------------------------------------------- chapter 6


def _least_squares_condition_number(z: np.ndarray) -> float:
    """Condition number of the least-squares Hessian (2/P) X̃ᵀX̃ for inputs z."""
    z_ext = np.column_stack([np.ones(len(z)), z])
    eigenvalues = np.linalg.eigvalsh(2.0 / len(z) * z_ext.T @ z_ext)
    return float(eigenvalues.max() / eigenvalues.min())


def check_standardized_condition_number(student: Callable) -> None:
    """Check ``student(x) -> float``: the Hessian condition number after standardizing ``x`` (chapter 6)."""
    rng = np.random.default_rng(61)
    for correlation in (0.0, 0.6, 0.95):
        base = rng.normal(size=(400, 2))
        x = np.column_stack([base[:, 0], correlation * base[:, 0] + np.sqrt(1 - correlation**2) * base[:, 1]])
        x = 3.0 + x * np.array([2.0, 40.0])
        z = (x - x.mean(axis=0)) / x.std(axis=0)
        expected = _least_squares_condition_number(z)
        got = _call(student, "your function", x.copy())
        try:
            got = float(got)
        except (TypeError, ValueError):
            raise CheckFailed(f"your function should return one number; found {type(got).__name__}.") from None
        if np.isclose(got, expected, rtol=1e-6):
            continue
        if np.isclose(got, _least_squares_condition_number(x), rtol=1e-6):
            raise CheckFailed("that is the condition number for the raw inputs: standardize x first.")
        raise CheckFailed(
            f"for features with correlation about {correlation} the condition number should be "
            f"{expected:.4f}; yours is {got:.4f}."
        )
    print("Correct: your condition numbers match for uncorrelated and correlated features.")


def check_predictions(student: Callable, new_inputs, expected, *, name: str = "your predictions", rtol: float = 1e-3) -> None:
    """Check ``student(new_inputs)`` against reference predictions, to a relative tolerance (chapter 6)."""
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
    import warnings

    from .optimizers import DivergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DivergenceWarning)
        run = gradient_descent(g, w0, alpha, max_its)
    return run.stop_reason != "diverged" and bool(np.all(np.diff(run.costs) <= 0))


def check_largest_convergent_alpha(student: Callable) -> None:
    """Check ``student(g, w0, max_its, gammas) -> alpha`` (chapter 6).

    The answer is the largest ``10**-gamma`` (gamma from ``gammas``) whose run
    of ``max_its`` steps stays finite and never increases the cost.
    """
    rng = np.random.default_rng(62)
    gammas = list(range(-1, 8))
    for scale in (1.0, 30.0, 1000.0):
        x = rng.uniform(0, scale, size=(60, 2))
        y = x @ np.array([1.0, -2.0]) + rng.normal(size=60)
        g = least_squares(x, y)
        expected = next((10.0**-gamma for gamma in sorted(gammas) if _reference_convergent(g, np.zeros(3), 10.0**-gamma, 50)), None)
        got = _call(student, "largest_convergent_alpha", g, np.zeros(3), 50, gammas)
        if got is None or expected is None or not np.isclose(float(got), expected, rtol=1e-12):
            raise CheckFailed(
                f"for inputs on [0, {scale:g}] the largest convergent alpha is {expected!r}; yours is {got!r}. "
                "Try gammas from the smallest up (the largest alpha first) and return the first alpha whose run "
                "is finite and never increases the cost."
            )
    print("Correct: your search finds the same learning rates as the reference.")


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


# ---------------------------------------------------------------- chapter 8: PCA-sphering


def _correlated_inputs(rng: np.random.Generator, points: int, scales, offsets) -> np.ndarray:
    """Correlated features with the given scales and offsets (a shared factor plus noise)."""
    scales, offsets = np.asarray(scales, dtype=float), np.asarray(offsets, dtype=float)
    shared = rng.normal(size=(points, 1))
    return (shared + 0.5 * rng.normal(size=(points, scales.size))) * scales + offsets


def check_diagonal_newton_step(student: Callable) -> None:
    """Check ``student(x, y, w) -> w_new``: one least-squares Newton step with the Hessian's diagonal only (chapter 8).

    The reference divides each entry of the gradient ``(2/P) X̃ᵀ(X̃w − y)`` by
    the matching diagonal entry of ``(2/P) X̃ᵀX̃``. On sphered inputs the step
    must land on the ``lstsq`` solution.
    """
    from .normalizers import pca_sphere

    rng = np.random.default_rng(81)
    x = _correlated_inputs(rng, 60, [1.0, 3.0, 0.5], [2.0, -1.0, 4.0])
    y = 0.5 + x @ np.array([1.0, -0.5, 2.0]) + 0.2 * rng.normal(size=60)
    w = rng.normal(size=4)
    x_ext = np.column_stack([np.ones(60), x])
    gradient = 2 / 60 * x_ext.T @ (x_ext @ w - y)
    diagonal = 2 / 60 * np.sum(x_ext**2, axis=0)
    expected = w - gradient / diagonal
    got = _as_array(_call(student, "diagonal_newton_step", x.copy(), y.copy(), w.copy()),
                    "diagonal_newton_step", (4,))
    if not np.allclose(got, expected, rtol=1e-7, atol=1e-9):
        full_newton = np.linalg.lstsq(x_ext, y, rcond=None)[0]
        hints = [
            (full_newton, "it lands on the exact minimizer, so you used the full Hessian. Keep only its "
                          "diagonal: divide each gradient entry by the matching diagonal entry."),
            (w - gradient, "it is a plain gradient step with alpha = 1: divide each gradient entry by the "
                           "matching diagonal entry of the Hessian."),
            (w + gradient / diagonal, "the step goes uphill: subtract gradient / diagonal from w."),
            (gradient / diagonal, "it returns the step only: return w minus the step."),
            (w - 2 * gradient / diagonal, "the step is twice too long: the gradient and the Hessian both "
                                          "carry the factor 2/P, so it cancels."),
            (w - gradient / (2 * diagonal), "the step is half as long as it should be: the gradient and the "
                                            "Hessian both carry the factor 2/P, so it cancels."),
            (w - gradient / (2 / 60 * np.sum(x**2, axis=0)).mean(), "the diagonal must include the bias "
                                                                    "entry, from the column of ones."),
        ]
        for wrong, hint in hints:
            if np.shape(wrong) == (4,) and np.allclose(got, wrong, rtol=1e-7, atol=1e-9):
                raise CheckFailed(f"diagonal_newton_step is not right: {hint}")
        raise CheckFailed(
            f"diagonal_newton_step is not right on random data: got {np.round(got, 4).tolist()}, expected "
            f"{np.round(expected, 4).tolist()}. The Hessian of the mean least-squares cost is (2/P) X̃ᵀX̃, "
            "its diagonal the mean of the squares of each column of X̃ (with the column of ones first)."
        )
    sphered = pca_sphere(x)[0](x)
    sphered_ext = np.column_stack([np.ones(60), sphered])
    best = np.linalg.lstsq(sphered_ext, y, rcond=None)[0]
    landed = _as_array(_call(student, "diagonal_newton_step", sphered.copy(), y.copy(), np.zeros(4)),
                       "diagonal_newton_step", (4,))
    if not np.allclose(landed, best, rtol=1e-8, atol=1e-8):
        raise CheckFailed("your step is right on raw data but does not land on the lstsq solution for sphered "
                          "inputs; make sure you use the inputs you are given (no extra scaling).")
    print("Correct: your step matches the reference, and on sphered inputs one step lands on the lstsq solution.")


def _hessian_condition(inputs: np.ndarray) -> float:
    x_ext = np.column_stack([np.ones(len(inputs)), inputs])
    eigenvalues = np.linalg.eigvalsh(2 / len(inputs) * x_ext.T @ x_ext)
    return float(eigenvalues.max() / eigenvalues.min())


def check_hessian_condition_numbers(student: Callable) -> None:
    """Check ``student(x) -> (raw, standardized, sphered)`` least-squares Hessian condition numbers (chapter 8).

    The sphered inputs are ``pca_sphere`` of the standardized inputs. Tests
    random correlated data against a reference, then prints the three numbers
    for scikit-learn's breast cancer data.
    """
    import warnings

    from sklearn.datasets import load_breast_cancer

    from .normalizers import pca_sphere, standard_normalizer

    rng = np.random.default_rng(82)
    x = _correlated_inputs(rng, 80, [1.0, 10.0, 0.1, 4.0], [5.0, 0.0, -2.0, 30.0])
    standardized = standard_normalizer(x)[0](x)
    sphered = pca_sphere(standardized)[0](standardized)
    expected = np.array([_hessian_condition(x), _hessian_condition(standardized), _hessian_condition(sphered)])
    result = _call(student, "hessian_condition_numbers", x.copy())
    if not (isinstance(result, (tuple, list)) and len(result) == 3):
        raise CheckFailed("hessian_condition_numbers should return a tuple of three numbers "
                          "(raw, standardized, sphered).")
    got = _as_array(result, "hessian_condition_numbers", (3,))
    if not np.allclose(got, expected, rtol=1e-5):
        def no_bias(inputs):
            eigenvalues = np.linalg.eigvalsh(inputs.T @ inputs)
            return eigenvalues.max() / eigenvalues.min()

        names = ["raw", "standardized", "sphered"]
        for i, (inputs, name) in enumerate(zip([x, standardized, sphered], names)):
            if np.isclose(got[i], expected[i], rtol=1e-5):
                continue
            if np.isclose(got[i], no_bias(inputs), rtol=1e-5):
                raise CheckFailed(f"the {name} condition number leaves out the bias: put a column of ones in "
                                  "front of the inputs before forming the Hessian.")
            if np.isclose(got[i], np.sqrt(expected[i]), rtol=1e-5):
                raise CheckFailed(f"the {name} number is the condition number of X̃, the square root of the "
                                  "Hessian's: use the eigenvalues of (2/P) X̃ᵀX̃.")
            raise CheckFailed(f"the {name} condition number is {got[i]:.6g} but should be {expected[i]:.6g} "
                              "(largest over smallest eigenvalue of (2/P) X̃ᵀX̃). The order is raw, "
                              "standardized, sphered.")
    print("Correct: your condition numbers match the reference on random data.")
    cancer = load_breast_cancer().data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        numbers = _call(student, "hessian_condition_numbers", cancer.copy())
    raw, standard, white = (float(v) for v in numbers)
    print(f"Breast cancer data ({cancer.shape[0]} points, {cancer.shape[1]} features): condition number "
          f"raw {raw:.3e}, standardized {standard:.3e}, sphered {white:.3f}.")


def check_zca_whiten(student: Callable) -> None:
    """Check ``student(x_train, x_new) -> whitened x_new`` against ``pca_sphere(x_train, zca=True)`` (chapter 8)."""
    from .normalizers import pca_sphere

    rng = np.random.default_rng(83)
    x_train = _correlated_inputs(rng, 90, [2.0, 1.0, 5.0], [1.0, -3.0, 10.0])
    x_new = _correlated_inputs(rng, 25, [3.0, 1.5, 4.0], [2.0, -1.0, 6.0])
    expected = pca_sphere(x_train, zca=True)[0](x_new)
    got = _as_array(_call(student, "zca_whiten", x_train.copy(), x_new.copy()), "zca_whiten", x_new.shape)
    if np.allclose(got, expected, rtol=1e-7, atol=1e-9):
        print("Correct: your ZCA whitening matches the library's, fitted on the training data.")
        return
    if np.allclose(got, pca_sphere(x_new, zca=True)[0](x_new), rtol=1e-7, atol=1e-9):
        raise CheckFailed("your result whitens x_new with its own statistics: take the mean and the covariance "
                          "from x_train only and apply them to x_new.")
    rotation = np.linalg.lstsq(expected, got, rcond=None)[0]
    if np.allclose(expected @ rotation, got, rtol=1e-7, atol=1e-8) and np.allclose(rotation.T @ rotation, np.eye(3), atol=1e-6):
        raise CheckFailed("your result whitens the data but is a rotation of ZCA, most likely PCA-sphering: after "
                          "dividing by sqrt(d), rotate back with Vᵀ (W = V D^(-1/2) Vᵀ).")
    if np.allclose(got, expected * np.sqrt(89 / 90), rtol=1e-7, atol=1e-9):
        raise CheckFailed("your covariance divides by P − 1 (np.cov's default); the book divides by P.")
    centred = x_train - x_train.mean(axis=0)
    eigenvalues, eigenvectors = np.linalg.eigh(centred.T @ centred / len(x_train))
    by_eigenvalue = (x_new - x_train.mean(axis=0)) @ eigenvectors @ np.diag(1 / eigenvalues) @ eigenvectors.T
    if np.allclose(got, by_eigenvalue, rtol=1e-7, atol=1e-9):
        raise CheckFailed("you divide by the eigenvalues d; divide by their square roots sqrt(d).")
    whitening = eigenvectors @ np.diag(eigenvalues**-0.5) @ eigenvectors.T
    if np.allclose(got, x_new @ whitening, rtol=1e-7, atol=1e-9):
        raise CheckFailed("you forgot to centre: subtract the training mean from x_new before whitening.")
    raise CheckFailed(
        "zca_whiten is not right: centre x_new with the training mean, then multiply by V D^(-1/2) Vᵀ built "
        "from the eigen-decomposition of the training covariance (1/P) X_cᵀX_c."
    )


__all__ += ["check_diagonal_newton_step", "check_hessian_condition_numbers", "check_zca_whiten"]


# ---------------------------------------------------------------- chapter 10: regularization

__all__ += ["check_l1_proximal_step", "check_ridge_mean_form", "check_pick_lambda"]


def check_l1_proximal_step(student: Callable) -> None:
    """Check ``student(w, t) -> w_new``: soft-threshold the feature weights ``w[1:]`` by ``t``, keep the bias (chapter 10).

    The reference is ``sign(w_n) max(|w_n| − t, 0)`` for n >= 1 and ``w[0]``
    unchanged; ``w`` must not be modified in place.
    """
    w = np.array([0.8, -2.5, -0.3, 0.0, 0.45, 1.2, 0.5, -0.5])
    t = 0.5
    saved = w.copy()
    got = _as_array(_call(student, "l1_proximal_step", w, t), "l1_proximal_step", w.shape)
    if not np.array_equal(w, saved):
        raise CheckFailed("l1_proximal_step changed the array it was given: work on a copy.")
    expected = np.r_[w[0], np.sign(w[1:]) * np.maximum(np.abs(w[1:]) - t, 0.0)]
    if np.allclose(got, expected, atol=1e-12):
        if np.count_nonzero(got[1:]) != np.count_nonzero(expected[1:]):
            raise CheckFailed("the values are close but some weights that should be exactly 0 are not: use "
                              "np.maximum(|w| - t, 0), which returns an exact 0.")
        print(f"Correct: {int(np.sum(got[1:] == 0))} of the 7 feature weights are now exactly 0, and the bias is kept.")
        return
    everything = np.sign(w) * np.maximum(np.abs(w) - t, 0.0)
    hints = [
        (everything, "the bias w[0] was thresholded too; the penalty never touches the bias, so copy it unchanged."),
        (np.r_[w[0], np.where(np.abs(w[1:]) > t, w[1:], 0.0)], "this is hard thresholding: the weights that "
         "survive must also shrink towards 0 by t."),
        (np.r_[w[0], w[1:] - t * np.sign(w[1:])], "this is a subgradient step: it moves every weight by t and "
         "jumps across 0. Weights with |w_n| <= t must become exactly 0."),
        (np.r_[w[0], np.maximum(w[1:] - t, 0.0)], "negative weights must shrink towards 0 too: use the sign and "
         "the absolute value, sign(w) * max(|w| - t, 0)."),
    ]
    for wrong, hint in hints:
        if np.allclose(got, wrong, atol=1e-12):
            raise CheckFailed(f"l1_proximal_step is not right: {hint}")
    raise CheckFailed(f"l1_proximal_step is not right: for w = {w.tolist()} and t = {t} it should return "
                      f"{expected.tolist()}; found {np.round(got, 4).tolist()}.")


def check_ridge_mean_form(student: Callable) -> None:
    """Check ``student(x, y, lam) -> w``: the minimizer of ``(1/P)‖X̃w − y‖² + λ‖w[1:]‖²`` (chapter 10).

    The reference solves the normal equations of that cost with ``lstsq`` on
    random data, for two values of λ.
    """
    rng = np.random.default_rng(101)
    x = rng.normal(size=(37, 3)) * np.array([1.0, 3.0, 0.5]) + np.array([2.0, -1.0, 0.0])
    y = 4.0 + x @ np.array([1.0, -0.5, 2.0]) + 0.5 * rng.normal(size=37)
    x_ext = np.column_stack([np.ones(37), x])
    penalty = np.diag([0.0, 1.0, 1.0, 1.0])

    def solve(matrix, rhs):
        return np.linalg.lstsq(matrix, rhs, rcond=None)[0]

    for lam in (0.3, 5.0):
        got = _as_array(_call(student, "ridge_mean_form", x.copy(), y.copy(), lam), "ridge_mean_form", (4,))
        expected = solve(x_ext.T @ x_ext / 37 + lam * penalty, x_ext.T @ y / 37)
        if np.allclose(got, expected, rtol=1e-6, atol=1e-8):
            continue
        hints = [
            (solve(x_ext.T @ x_ext + lam * penalty, x_ext.T @ y),
             "this minimizes the summed cost ‖X̃w − y‖² + λ‖w[1:]‖²; the book's cost is a mean, so the "
             "penalty is λ·P in the summed form."),
            (solve(x_ext.T @ x_ext / 37 + lam * np.eye(4), x_ext.T @ y / 37),
             "the bias is penalized too: the matrix A should have a 0 in its top-left entry."),
            (solve(x_ext.T @ x_ext / 37 + lam / 2 * penalty, x_ext.T @ y / 37),
             "the penalty is half as strong as it should be: the gradient of λ‖w‖² is 2λw, like the 2/P of the cost."),
        ]
        for wrong, hint in hints:
            if np.allclose(got, wrong, rtol=1e-6, atol=1e-8):
                raise CheckFailed(f"ridge_mean_form with lam = {lam} is not right: {hint}")
        raise CheckFailed(f"ridge_mean_form with lam = {lam} returned {np.round(got, 4).tolist()}; expected "
                          f"{np.round(expected, 4).tolist()}. Set the gradient (2/P)X̃ᵀ(X̃w − y) + 2λAw to zero "
                          "and solve for w.")
    print("Correct: your weights minimize the mean cost plus λ‖w[1:]‖² for both values of λ.")


def check_pick_lambda(student: Callable) -> None:
    """Check ``student(x_train, y_train, x_val, y_val, lams) -> (lam, w)`` (chapter 10).

    It should fit the ℓ1 path on the training split and return the λ with the
    lowest validation mean squared error and its weights. The reference is
    :func:`mlrefined_lib.regularization.l1_path`.
    """
    from .regularization import l1_path

    rng = np.random.default_rng(102)
    x = rng.normal(size=(80, 8))
    y = 1.0 + x @ np.array([3.0, -2.0, 1.5, 0, 0, 0, 0, 0]) + 1.5 * rng.normal(size=80)
    x_train, y_train, x_val, y_val = x[:40], y[:40], x[40:], y[40:]
    lams = np.geomspace(5.0, 0.005, 25)
    path = l1_path(x_train, y_train, lams)

    def mse(weights, inputs, outputs):
        return np.mean((weights[:, :1] + weights[:, 1:] @ inputs.T - outputs) ** 2, axis=1)

    validation = mse(path.weights, x_val, y_val)
    best = int(np.argmin(validation))
    result = _call(student, "pick_lambda", x_train.copy(), y_train.copy(), x_val.copy(), y_val.copy(), lams.copy())
    if not (isinstance(result, tuple) and len(result) == 2):
        raise CheckFailed("pick_lambda should return a pair (lam, w).")
    lam, w = float(result[0]), _as_array(result[1], "the weights returned by pick_lambda", (9,))
    training = mse(path.weights, x_train, y_train)
    if np.isclose(lam, lams[int(np.argmin(training))]) and not np.isclose(lam, lams[best]):
        raise CheckFailed("you chose λ by the training error, which always prefers the smallest λ: "
                          "compare the errors on the validation split.")
    if not np.isclose(lam, lams[best]):
        raise CheckFailed(f"pick_lambda chose λ = {lam:.4g}, but the lowest validation error is at λ = "
                          f"{lams[best]:.4g} (error {validation[best]:.4f}). Fit on the training split, "
                          "measure the mean squared error on the validation split.")
    if not np.allclose(w, path.weights[best], atol=1e-5):
        raise CheckFailed("the λ is right but the weights are not its minimizer on the training split; return "
                          "the path's weights for that λ (bias first).")
    print(f"Correct: λ = {lam:.4g} has the lowest validation error, {validation[best]:.4f}, with "
          f"{int(np.count_nonzero(w[1:]))} of 8 features kept.")


# ---------------------------------------------------------------- chapter 9: boosting

__all__ += ["check_boost_by_residual", "check_one_weight_newton"]


def check_boost_by_residual(student: Callable) -> None:
    """Check ``student(x, y, rounds) -> (order, weights)``: least-squares boosting by the residual (chapter 9).

    ``order`` lists the 0-based features chosen, ``weights`` holds the bias
    (the mean of ``y``) and then one weight per chosen feature. The reference
    is :func:`mlrefined_lib.selection.boost`, on standardized data and on raw
    data with large offsets (where centring the columns or refitting the bias
    gives other answers).
    """
    from .selection import boost

    rng = np.random.default_rng(91)
    base = rng.normal(size=(60, 5))
    for label, x in [("standardized", (base - base.mean(axis=0)) / base.std(axis=0)),
                     ("raw, with offsets", base * np.array([1.0, 3.0, 0.5, 2.0, 1.0]) + np.array([0.0, 8.0, -2.0, 5.0, 20.0]))]:
        y = 1.0 + x @ np.array([0.5, -0.8, 1.5, 0.6, 1.1]) + 0.3 * rng.normal(size=60)
        saved_y = y.copy()
        result = _call(student, "boost_by_residual", x.copy(), y, 4)
        if not np.array_equal(y, saved_y):
            raise CheckFailed("boost_by_residual changed the y it was given: work on a copy (r = y - bias).")
        if not (isinstance(result, tuple) and len(result) == 2):
            raise CheckFailed("boost_by_residual should return a pair (order, weights).")
        reference = boost(x, y, 4)
        order = _as_array(result[0], "the order returned by boost_by_residual", (4,))
        weights = _as_array(result[1], "the weights returned by boost_by_residual", (5,))
        if not np.isclose(weights[0], y.mean()):
            raise CheckFailed(f"the first weight should be the bias of round 0, the mean of y ({y.mean():.4f}); "
                              f"found {weights[0]:.4f}.")
        if order.tolist() != reference.order.tolist():
            centred = x - x.mean(axis=0)
            first_by_correlation = int(np.argmax((centred.T @ (y - y.mean())) ** 2 / np.sum(centred**2, axis=0)))
            if order[0] == first_by_correlation and first_by_correlation != reference.order[0]:
                raise CheckFailed(f"on {label} data your first choice is the feature most correlated with y, but the "
                                  "bias is frozen after round 0: score each column by (cᵀr)²/(cᵀc) with the column "
                                  "as it is, not centred.")
            raise CheckFailed(f"on {label} data you chose the features {order.astype(int).tolist()}; the reference "
                              f"chooses {reference.order.tolist()}. Each round, pick the unused column c with the "
                              "largest (cᵀr)²/(cᵀc) for the current residual r, and never pick a column twice.")
        if not np.allclose(weights, reference.weights, rtol=1e-8, atol=1e-10):
            raise CheckFailed(f"on {label} data the order is right but the weights are not: the weight of column c "
                              f"is cᵀr/cᵀc, and the residual is updated with r ← r − weight·c. Expected "
                              f"{np.round(reference.weights, 4).tolist()}, found {np.round(weights, 4).tolist()}.")
    print("Correct: your rounds choose the same features with the same weights as the library's boost.")


def check_one_weight_newton(student: Callable) -> None:
    """Check ``student(offset, column, y) -> v``: the best single softmax weight by Newton's method (chapter 9).

    ``v`` should minimize ``(1/P) Σ log(1 + exp(−y_p (offset_p + v·column_p)))``
    for labels ``y`` in ±1. The reference is a bounded scalar minimizer.
    """
    from scipy.optimize import minimize_scalar

    rng = np.random.default_rng(92)
    for trial in range(3):
        column = rng.normal(size=80)
        offset = 0.4 * rng.normal(size=80) + (0.0 if trial == 0 else 0.8)
        y = np.where(0.2 + 0.9 * column + rng.normal(size=80) > 0, 1.0, -1.0)
        saved = (offset.copy(), column.copy(), y.copy())

        def cost(v):
            return np.mean(np.logaddexp(0.0, -y * (offset + v * column)))

        expected = minimize_scalar(cost, bounds=(-20, 20), method="bounded", options={"xatol": 1e-10}).x
        got = _call(student, "one_weight_newton", offset, column, y)
        if not all(np.array_equal(a, b) for a, b in zip((offset, column, y), saved)):
            raise CheckFailed("one_weight_newton changed an array it was given; work on copies.")
        try:
            got = float(got)
        except (TypeError, ValueError):
            raise CheckFailed(f"one_weight_newton should return one number; found {type(got).__name__}.") from None
        if np.isclose(got, expected, rtol=1e-6, atol=1e-7):
            continue
        without_offset = minimize_scalar(lambda v: np.mean(np.logaddexp(0.0, -y * v * column)), bounds=(-20, 20),
                                         method="bounded", options={"xatol": 1e-10}).x
        if np.isclose(got, without_offset, rtol=1e-5, atol=1e-6):
            raise CheckFailed("your weight ignores the offset (the current model): the margins are "
                              "y·(offset + v·column), not y·v·column.")
        if np.isfinite(got) and cost(got) > cost(expected) + 1e-9 and abs(got) > 10:
            raise CheckFailed("your weight is huge: check the sign of the Newton step (v ← v − g'(v)/g''(v)) "
                              "and that the labels are used as ±1.")
        raise CheckFailed(f"one_weight_newton returned {got:.6f}, but the best weight is {expected:.6f} "
                          f"(cost {cost(expected):.6f} vs yours {cost(got) if np.isfinite(got) else float('nan'):.6f}). "
                          "Iterate v ← v − g'(v)/g''(v) with g'(v) = −mean(y·c·σ(−m)) and "
                          "g''(v) = mean(c²·σ(m)·σ(−m)), m = y·(offset + v·c), until the step is tiny; "
                          "keep the labels ±1.")
    print("Correct: your Newton iteration finds the best single weight, with and without an offset.")
