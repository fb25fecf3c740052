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
    """Raised by a check when the answer is wrong; the message says how.

    IPython (Jupyter, nbgrader) shows it as one line, ``CheckFailed: message``,
    without a traceback into this module.
    """

    def _render_traceback_(self) -> list[str]:
        return [f"\x1b[0;31m{type(self).__name__}\x1b[0m: {self}"]


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


def _explain_wrong_gradient(got, expected, hints, bias_rule: str, formula: str):
    """Raise CheckFailed naming the first typical mistake that ``got`` matches (chapters 1 and 3)."""
    for wrong, hint in hints:
        if np.allclose(got, wrong, rtol=1e-5, atol=1e-7):
            raise CheckFailed(f"your gradient is not right: {hint}")
    if np.allclose(got[1:], expected[1:], rtol=1e-5, atol=1e-7):
        raise CheckFailed(f"your gradient is right for the feature weights but not for the bias w[0]: {bias_rule}")
    raise CheckFailed(
        f"your gradient is not right: got {np.round(got, 4).tolist()}, expected {np.round(expected, 4).tolist()} "
        f"on random data. Compare with {formula}, X̃ being x with a column of ones in front."
    )


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
    _explain_wrong_gradient(got, expected, hints, "its entry is (2/P) times the sum of the residuals.",
                            "(2/P) X̃ᵀ(X̃w − y)")


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
    x_ext = np.column_stack([np.ones(len(x)), x])
    flat = np.linalg.lstsq(x_ext, y, rcond=None)[0]        # the gradient is (numerically) zero here
    for start, tol, max_its in [(np.zeros(3), 1e-3, 10_000), (np.zeros(3), 1e-12, 25), (flat, 1e-6, 50)]:
        reference = gradient_descent(g, start.copy(), 0.1, max_its, tol=tol)
        w0 = start.copy()
        result = _call(student, "descend_until_flat", g.gradient, w0, 0.1, tol, max_its)
        if not np.array_equal(w0, start):
            raise CheckFailed("descend_until_flat changed the w0 it was given (an in-place update such as "
                              "w -= ... on w0 itself). Start from a copy: w = np.array(w0, dtype=float).")
        if not (isinstance(result, tuple) and len(result) == 2):
            raise CheckFailed("descend_until_flat should return a pair (w, steps).")
        w, steps = result
        w = _as_array(w, "the weights returned by descend_until_flat", (3,))
        if int(steps) != reference.steps:
            if reference.steps == 0:
                raise CheckFailed(
                    f"started where the gradient norm is already below tol={tol:g}, your function took "
                    f"{int(steps)} step(s); it should take none. Test the norm before each step, not after it."
                )
            what = "stop as soon as the gradient norm is at most tol" if reference.stop_reason == "tolerance" \
                else f"stop after max_its = {max_its} steps when tol is never reached"
            raise CheckFailed(
                f"with tol={tol:g} and max_its={max_its} your function took {int(steps)} steps; "
                f"it should take {reference.steps}. It should {what} (test the norm before each step)."
            )
        if not np.allclose(w, reference.final_weights, rtol=1e-8, atol=1e-10):
            raise CheckFailed("the number of steps is right but the weights are not: use w ← w − alpha·gradient(w).")
    print("Correct: your function stops at the same step and the same weights as the reference.")


# ----------------------------------------------------------------- chapter 7


def _least_squares_condition_number(z: np.ndarray) -> float:
    """Condition number of the least-squares Hessian (2/P) X̃ᵀX̃ for inputs z."""
    z_ext = np.column_stack([np.ones(len(z)), z])
    eigenvalues = np.linalg.eigvalsh(2.0 / len(z) * z_ext.T @ z_ext)
    return float(eigenvalues.max() / eigenvalues.min())


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
    import warnings

    from .optimizers import DivergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DivergenceWarning)
        run = gradient_descent(g, w0, alpha, max_its)
    return run.stop_reason != "diverged" and bool(np.all(np.diff(run.costs) <= 0))


def check_largest_convergent_alpha(student: Callable) -> None:
    """Check ``student(g, w0, max_its, gammas) -> alpha`` (chapter 7).

    The answer is the largest ``10**-gamma`` (gamma from ``gammas``) whose run
    of ``max_its`` steps stays finite and never increases the cost.
    """
    rng = np.random.default_rng(62)
    name = getattr(student, "__name__", "")
    name = name if name.isidentifier() else "your function"
    gammas = list(range(-1, 8))
    for scale in (1.0, 30.0, 1000.0):
        x = rng.uniform(0, scale, size=(60, 2))
        y = x @ np.array([1.0, -2.0]) + rng.normal(size=60)
        g = least_squares(x, y)
        expected = next((10.0**-gamma for gamma in sorted(gammas) if _reference_convergent(g, np.zeros(3), 10.0**-gamma, 50)), None)
        got = _call(student, name, g, np.zeros(3), 50, gammas)
        if got is None or expected is None or not np.isclose(float(got), expected, rtol=1e-12):
            raise CheckFailed(
                f"for inputs on [0, {scale:g}] the largest convergent alpha is {expected!r}; {name} returned {got!r}. "
                "Try gammas from the smallest up (the largest alpha first) and return the first alpha whose run "
                "is finite and never increases the cost."
            )
    print("Correct: your search finds the same learning rates as the reference.")


# ---------------------------------------------------------------- chapter 8: imputation

__all__ += ["check_train_median_impute", "check_gappy_softmax"]


def _gappy_table(rng: np.random.Generator, shape: tuple[int, int], shift: float, fraction: float) -> np.ndarray:
    """Skewed (log-normal) columns, so that mean and median differ, with a fraction of NaN."""
    table = np.exp(rng.normal(size=shape)) * np.array([1.0, 10.0, 100.0])[: shape[1]] + shift
    table[rng.random(shape) < fraction] = np.nan
    return table


def check_train_median_impute(student: Callable) -> None:
    """Check ``student(x_train, x_new) -> (train_filled, new_filled)`` (chapter 8).

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
    """Check ``student(x_train, y_train, normalize, alpha, steps) -> costs`` (chapter 8).

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


# ---------------------------------------------------------------- chapter 9: PCA-sphering


def _correlated_inputs(rng: np.random.Generator, points: int, scales, offsets) -> np.ndarray:
    """Correlated features with the given scales and offsets (a shared factor plus noise)."""
    scales, offsets = np.asarray(scales, dtype=float), np.asarray(offsets, dtype=float)
    shared = rng.normal(size=(points, 1))
    return (shared + 0.5 * rng.normal(size=(points, scales.size))) * scales + offsets


def check_diagonal_newton_step(student: Callable) -> None:
    """Check ``student(x, y, w) -> w_new``: one least-squares Newton step with the Hessian's diagonal only (chapter 9).

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
    """Check ``student(x) -> (raw, standardized, sphered)`` least-squares Hessian condition numbers (chapter 9).

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
    """Check ``student(x_train, x_new) -> whitened x_new`` against ``pca_sphere(x_train, zca=True)`` (chapter 9)."""
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


# ---------------------------------------------------------------- chapter 11: regularization

__all__ += ["check_l1_proximal_step", "check_ridge_mean_form", "check_pick_lambda"]


def check_l1_proximal_step(student: Callable) -> None:
    """Check ``student(w, t) -> w_new``: soft-threshold the feature weights ``w[1:]`` by ``t``, keep the bias (chapter 11).

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
    """Check ``student(x, y, lam) -> w``: the minimizer of ``(1/P)‖X̃w − y‖² + λ‖w[1:]‖²`` (chapter 11).

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
    """Check ``student(x_train, y_train, x_val, y_val, lams) -> (lam, w)`` (chapter 11).

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


# ---------------------------------------------------------------- chapter 10: boosting

__all__ += ["check_boost_by_residual", "check_one_weight_newton"]


def check_boost_by_residual(student: Callable) -> None:
    """Check ``student(x, y, rounds) -> (order, weights)``: least-squares boosting by the residual (chapter 10).

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
    """Check ``student(offset, column, y) -> v``: the best single softmax weight by Newton's method (chapter 10).

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


# ---- chapter 6: categorical


def check_one_hot_by_hand(student: Callable) -> None:
    """Check ``student(values, categories) -> (P, K) array`` (chapter 6).

    Row ``p`` should hold a 1 in the column of ``values[p]``'s position in
    ``categories`` and zeros elsewhere, including a column for a category that
    never occurs; a value outside ``categories`` should raise a ValueError, and
    the given lists should not change. The reference is written here with an
    identity matrix.
    """
    categories = ["red", "green", "blue", "violet"]          # "violet" never occurs
    values = ["blue", "red", "blue", "green", "red", "red"]
    saved = (list(values), list(categories))
    result = _call(student, "one_hot_by_hand", values, categories)
    if (values, categories) != saved:
        raise CheckFailed("one_hot_by_hand changed the lists it was given; build a new array instead.")
    try:
        shape = np.shape(result)
    except Exception:  # noqa: BLE001 - any object a student returns
        shape = None
    if shape == (len(categories), len(values)):
        raise CheckFailed(f"one_hot_by_hand returned shape {shape}: one row per category. Return one row per "
                          f"point, one column per category: shape ({len(values)}, {len(categories)}).")
    if shape == (len(values), 3):
        raise CheckFailed("one_hot_by_hand returned 3 columns, one per category that occurs. Use the categories "
                          "you are given, in their order: 'violet' never occurs but still needs its column, so "
                          "that test data with violet encodes the same way.")
    got = _as_array(result, "one_hot_by_hand", (len(values), len(categories)))
    expected = np.eye(len(categories))[[categories.index(v) for v in values]]
    if not np.array_equal(got, expected):
        if np.array_equal(np.sort(got, axis=1), np.sort(expected, axis=1)):
            raise CheckFailed("each row has a single 1, but in the wrong column: put it in column "
                              "categories.index(value), so the columns follow the order of categories.")
        raise CheckFailed("the rows are not one-hot rows of the categories: row p should be 1 in the column of "
                          "values[p] and 0 everywhere else.")
    try:
        _call(student, "one_hot_by_hand", ["red", "magenta"], categories)
    except ValueError as error:
        if "magenta" not in str(error):
            raise CheckFailed("a value outside the categories raised a ValueError, but its message should name "
                              "the value ('magenta') so the user can find it.") from None
    else:
        raise CheckFailed("one_hot_by_hand(['red', 'magenta'], categories) should raise a ValueError naming "
                          "'magenta': a category never seen has no column, and silently encoding it as zeros "
                          "(or as another category) hides the problem.")
    print("Correct: one row per point, one column per given category, and unknown values are refused by name.")


# ---- chapter 6: audio

__all__ += ["check_chord_peaks"]


def _chord(rng: np.random.Generator, rate: int, seconds: float, amplitudes, low: float, high: float):
    """A sum of tones with random, well-separated, off-bin frequencies and random phases."""
    samples = int(round(rate * seconds))
    bin_width = rate / samples
    while True:
        frequencies = np.sort(rng.uniform(low, high, size=len(amplitudes)))
        if np.min(np.diff(frequencies)) > 40 * bin_width:
            break
    frequencies = (np.floor(frequencies / bin_width) + 0.3) * bin_width  # between two bins
    times = np.arange(samples) / rate
    phases = rng.uniform(0, 2 * np.pi, size=len(amplitudes))
    signal = sum(a * np.cos(2 * np.pi * f * times + p) for a, f, p in zip(amplitudes, frequencies, phases))
    return signal, frequencies


def check_chord_peaks(student: Callable) -> None:
    """Check ``student(signal, rate, count)``: the ``count`` strongest frequencies in Hz, increasing (chapter 6).

    The reference is the truth: each test signal is a sum of tones whose
    frequencies (between two DFT bins, at least 40 bins apart) and amplitudes
    are known, so the ``count`` loudest tones are known. An answer passes if
    each returned frequency is within 1.5 bin widths (``1.5 · rate / S``) of
    the right tone.
    """
    rng = np.random.default_rng(53)
    cases = [
        (8000, 1.0, [1.0, 0.5, 0.25], 3),
        (16000, 0.5, [0.3, 1.0, 0.6, 0.15], 4),
        (11025, 0.8, [0.9, 0.2, 0.6], 2),
    ]
    for rate, seconds, amplitudes, count in cases:
        signal, frequencies = _chord(rng, rate, seconds, amplitudes, 120.0, 0.3 * rate)
        saved = signal.copy()
        loudest = np.sort(frequencies[np.argsort(amplitudes)[::-1][:count]])
        bin_width = rate / signal.size
        where = f"a chord of {len(amplitudes)} tones at {rate} Hz, {signal.size} samples, count={count}"
        got = _call(student, "chord_peaks", signal, rate, count)
        if not np.array_equal(signal, saved):
            raise CheckFailed("chord_peaks changed the signal it was given; work on a copy.")
        try:
            got = np.atleast_1d(np.asarray(got, dtype=float))
        except (TypeError, ValueError):
            raise CheckFailed(f"chord_peaks should return an array of numbers; found {type(got).__name__}.") from None
        if got.shape != (count,):
            raise CheckFailed(f"chord_peaks should return {count} frequencies for count={count} ({where}); "
                              f"found an array of shape {got.shape}.")
        if not np.all(np.isfinite(got)):
            raise CheckFailed("chord_peaks returned NaN or inf values.")
        tolerance = 1.5 * bin_width
        if np.all(np.abs(got - loudest) <= tolerance):
            continue
        if np.all(np.abs(np.sort(got) - loudest) <= tolerance):
            raise CheckFailed(f"chord_peaks finds the right frequencies but not in increasing order ({where}): "
                              f"found {np.round(got, 1).tolist()}; return them sorted, e.g. np.sort(...).")
        if np.all(np.abs(np.sort(got) - loudest / bin_width) <= 1.5):
            raise CheckFailed(f"chord_peaks returns DFT bin numbers, not frequencies ({where}): bin k of an "
                              f"rfft of S samples is the frequency k · rate / S Hz (here k · {bin_width:.4g} Hz).")
        if np.all(np.abs(np.sort(got) - loudest / rate) <= 1.5 / signal.size):
            raise CheckFailed(f"chord_peaks returns frequencies in cycles per sample ({where}); multiply by the "
                              "rate, or use np.fft.rfftfreq(S, d=1 / rate), to get Hz.")
        if count > 1 and np.min(np.diff(np.sort(got))) <= 4 * bin_width:
            raise CheckFailed(f"two of your frequencies are within {4 * bin_width:.3g} Hz of each other ({where}): "
                              f"found {np.round(got, 1).tolist()} Hz. Those are neighbouring bins of one peak, not "
                              "two tones: a tone that falls between two bins spreads over several of them. "
                              "Keep only local maxima (bins larger than both neighbours), then take the "
                              f"{count} largest.")
        raise CheckFailed(f"chord_peaks returned {np.round(got, 1).tolist()} Hz for {where}, but the {count} "
                          f"loudest tones are at {np.round(loudest, 1).tolist()} Hz (tolerance ±{tolerance:.3g} Hz). "
                          "Take |np.fft.rfft(signal)|, find its peaks, keep the count largest and convert their "
                          "bins to Hz with np.fft.rfftfreq(len(signal), d=1 / rate).")
    print("Correct: chord_peaks finds the loudest tones of three fresh chords, in Hz, at different rates and lengths.")


# ---- chapter 6: text

__all__ += ["check_bag_of_words_by_hand", "check_spam_feature_groups"]


def check_bag_of_words_by_hand(student: Callable) -> None:
    """Check ``student(documents, vocabulary, stop_words) -> (P, V) array``: a bag of words by hand (chapter 6).

    Each row should count the words of ``vocabulary`` in one document (lower-cased,
    punctuation stripped, ``stop_words`` dropped, no stemming) and be scaled to unit
    Euclidean length; a document with no word of the vocabulary gives a row of zeros.
    The reference is the library's ``bag_of_words(..., stem=False)`` on fresh documents.
    """
    import warnings

    from .histograms import bag_of_words

    documents = [
        "The plot is thin, the acting is great, and the music is great too!",
        "Great music. Terrible plot; terrible, TERRIBLE acting.",
        "It is what it is.",
        "",
        "Music, music, music: the film is all music and no plot?",
        "Acting",
    ]
    vocabulary = ["acting", "great", "music", "plot", "terrible", "the", "is", "film"]
    stop_words = ["the", "is", "it", "and", "a", "what", "all", "too"]
    saved = (list(documents), list(vocabulary), list(stop_words))

    def reference(stop):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # the all-zero rows are expected here
            return bag_of_words(documents, vocabulary, stop_words=stop, stem=False, counts=True)[0]

    counts = reference(stop_words)
    lengths = np.sqrt((counts**2).sum(axis=1, keepdims=True))
    expected = np.divide(counts, lengths, out=np.zeros_like(counts), where=lengths > 0)
    result = _call(student, "bag_of_words_by_hand", list(documents), list(vocabulary), list(stop_words))
    if (list(documents), list(vocabulary), list(stop_words)) != saved:
        raise CheckFailed("bag_of_words_by_hand changed a list it was given; work on new lists.")
    shape = (len(documents), len(vocabulary))
    try:
        got = np.asarray(result, dtype=float)
    except (TypeError, ValueError):
        raise CheckFailed(f"bag_of_words_by_hand should return an array of numbers; found {type(result).__name__}.") from None
    if got.shape != shape:
        raise CheckFailed(f"bag_of_words_by_hand should return an array of shape (documents, vocabulary) = {shape}; "
                          f"found shape {got.shape}.")
    if not np.all(np.isfinite(got)):
        row = int(np.flatnonzero(~np.all(np.isfinite(got), axis=1))[0])
        raise CheckFailed(f"row {row} (document {documents[row]!r}) holds NaN or inf: a document without any word "
                          "of the vocabulary has length 0, so leave its row at zero instead of dividing 0 by 0.")
    if np.allclose(got, expected, atol=1e-9):
        print("Correct: your bag of words matches the library's on six fresh documents, "
              "the empty one and the one made of stop words included.")
        return
    l1 = counts.sum(axis=1, keepdims=True)
    no_stop = reference(())
    no_stop_lengths = np.sqrt((no_stop**2).sum(axis=1, keepdims=True))
    presence = (counts > 0).astype(float)
    presence_lengths = np.sqrt(presence.sum(axis=1, keepdims=True))
    hints = [
        (counts, "these are the raw counts: divide each row by its length, the square root of the sum of its "
                 "squared counts."),
        (np.divide(counts, l1, out=np.zeros_like(counts), where=l1 > 0),
         "each row is divided by the sum of its counts; divide by its Euclidean length (square root of the sum "
         "of squares) instead, so that the inner product of two rows is a cosine."),
        (np.divide(no_stop, no_stop_lengths, out=np.zeros_like(no_stop), where=no_stop_lengths > 0),
         "the stop words are still counted: drop every token that is in stop_words before counting (here "
         "'the' and 'is' are in both the vocabulary and the stop words, so their columns must stay 0)."),
        (np.divide(presence, presence_lengths, out=np.zeros_like(presence), where=presence_lengths > 0),
         "each word is counted once per document however often it occurs: count every occurrence."),
    ]
    for wrong, hint in hints:
        if np.allclose(got, wrong, atol=1e-9):
            raise CheckFailed(f"bag_of_words_by_hand is not right: {hint}")
    row = int(np.argmax(np.abs(got - expected).max(axis=1)))
    raise CheckFailed(
        f"row {row} is not right: for the document {documents[row]!r} you return "
        f"{np.round(got[row], 4).tolist()}, but it should be {np.round(expected[row], 4).tolist()} "
        f"(columns {vocabulary}). Lower-case the text, strip punctuation so that 'plot;' and 'TERRIBLE.' "
        "become 'plot' and 'terrible', drop the stop words, count, and scale the row to unit length."
    )


def _spam_reference(x_train, y_train, x_test, y_test, alpha, steps, *, log=True, stats="train"):
    """Plain-NumPy gradient descent on the softmax cost after log1p and standard normalization."""
    train = np.log1p(x_train) if log else np.array(x_train, dtype=float)
    test = np.log1p(x_test) if log else np.array(x_test, dtype=float)
    if stats == "train":
        mean, std = train.mean(axis=0), train.std(axis=0)
        train, test = (train - mean) / std, (test - mean) / std
    elif stats == "own":
        train = (train - train.mean(axis=0)) / train.std(axis=0)
        test = (test - test.mean(axis=0)) / test.std(axis=0)
    a = np.column_stack([np.ones(len(train)), train])
    b = np.column_stack([np.ones(len(test)), test])
    w = np.zeros(a.shape[1])
    for _ in range(steps):
        w = w + alpha * a.T @ (y_train * 0.5 * (1.0 - np.tanh(0.5 * y_train * (a @ w)))) / len(a)
    test_errors = int(np.count_nonzero(np.where(b @ w > 0, 1.0, -1.0) != y_test))
    train_errors = int(np.count_nonzero(np.where(a @ w > 0, 1.0, -1.0) != y_train))
    return w, test_errors, train_errors


def check_spam_feature_groups(student: Callable) -> None:
    """Check ``student(x_train, y_train, x_test, y_test, alpha, steps) -> (weights, test_errors)`` (chapter 6).

    The function should take ``log(1 + x)`` of both splits, standard-normalize
    them with the mean and standard deviation of the *training* split, run
    ``steps`` gradient-descent steps with step length ``alpha`` on the two-class
    softmax cost (labels ±1) from ``w = 0``, and return the final weights
    (bias first) and the number of misclassified *test* points. The reference is
    a plain-NumPy loop, on skewed synthetic counts whose test split is shifted.
    """
    rng = np.random.default_rng(51)
    alpha, steps = 1.0, 40
    for trial, (num_train, num_test, scales) in enumerate([(150, 80, [1.0, 20.0, 300.0]),
                                                           (90, 70, [5.0, 0.5, 50.0, 2000.0])]):
        columns = len(scales)
        x_train = rng.exponential(scales, size=(num_train, columns))
        x_test = 1.6 * rng.exponential(scales, size=(num_test, columns))    # shifted: its statistics differ
        true_w = rng.normal(size=columns) * 1.5

        def labels(x):
            score = (np.log1p(x) - np.log1p(np.array(scales))) @ true_w + 0.7 * rng.normal(size=len(x))
            return np.where(score > 0, 1.0, -1.0)

        y_train, y_test = labels(x_train), labels(x_test)
        saved = [v.copy() for v in (x_train, y_train, x_test, y_test)]
        result = _call(student, "train_and_count_errors", x_train, y_train, x_test, y_test, alpha, steps)
        if not all(np.array_equal(a, b) for a, b in zip((x_train, y_train, x_test, y_test), saved)):
            raise CheckFailed("train_and_count_errors changed an array it was given; work on copies "
                              "(np.log1p(x) returns a new array).")
        if not (isinstance(result, tuple) and len(result) == 2):
            raise CheckFailed("train_and_count_errors should return a pair (weights, test_errors).")
        weights = _as_array(result[0], "the weights returned by train_and_count_errors", (columns + 1,))
        try:
            errors = int(result[1])
        except (TypeError, ValueError):
            raise CheckFailed("the second value returned should be a number of misclassified test points; "
                              f"found {type(result[1]).__name__}.") from None
        w, test_errors, train_errors = _spam_reference(x_train, y_train, x_test, y_test, alpha, steps)
        if np.allclose(weights, w, rtol=1e-6, atol=1e-9):
            if errors == test_errors:
                continue
            own_errors = _spam_reference(x_train, y_train, x_test, y_test, alpha, steps, stats="own")[1]
            if errors == own_errors:
                raise CheckFailed("the weights are right, but the test split is normalized with its own mean and "
                                  "standard deviation; use the training statistics for both splits, as a model "
                                  "in use would have to.")
            if errors == train_errors:
                raise CheckFailed(f"the weights are right, but {errors} is the number of misclassified *training* "
                                  f"points; count the test points instead ({num_test} of them).")
            raise CheckFailed(f"the weights are right, but the test split has {test_errors} misclassified points, "
                              f"not {errors}. Transform x_test exactly as x_train (log1p, then the training mean "
                              "and standard deviation), predict sign(w[0] + x @ w[1:]) and count the mismatches.")
        if np.allclose(weights, 0.0):
            raise CheckFailed("the weights are all zero: run `steps` gradient-descent steps from w = 0.")
        variants = [
            (dict(log=False), "your weights match inputs that were standard-normalized without taking "
                              "log(1 + x) first: apply np.log1p to both splits before normalizing."),
            (dict(stats="none"), "your weights match inputs that were not standard-normalized: after log1p, "
                                 "subtract the training mean and divide by the training standard deviation."),
            (dict(log=False, stats="none"), "your weights match the raw inputs: take log(1 + x), then "
                                            "standard-normalize with the training statistics."),
        ]
        for options, hint in variants:
            if np.allclose(weights, _spam_reference(x_train, y_train, x_test, y_test, alpha, steps, **options)[0],
                           rtol=1e-6, atol=1e-9):
                raise CheckFailed(hint)
        raise CheckFailed(
            f"on synthetic data {trial + 1} your weights are {np.round(weights, 4).tolist()}, but they should be "
            f"{np.round(w, 4).tolist()} after {steps} steps with alpha = {alpha}. Start from w = 0 (bias first), "
            "use the mean softmax cost log(1 + exp(−y·model)) with labels ±1, and take exactly `steps` steps."
        )
    print("Correct: your weights and test errors match the reference on two synthetic spam-like data sets.")


# ---- chapter 6: images

__all__ += ["check_rotation_shift", "check_train_and_test"]


def check_rotation_shift(student: Callable) -> None:
    """Check ``student(histogram_before, histogram_after) -> k`` (chapter 6).

    ``k`` (an integer, ``0 ≤ k < bins``) is the circular shift for which
    ``np.roll(histogram_before, k)`` is closest to ``histogram_after`` in
    Euclidean distance. The reference tries every shift with explicit index
    arithmetic (entry ``i`` of the shifted histogram is ``before[(i − k) mod bins]``),
    on noisy shifted histograms with 8, 6 and 12 bins and shifts that are not
    half the bins (so the direction matters).
    """
    rng = np.random.default_rng(51)

    def reference(before, after):
        bins = len(before)
        distances = [sum((before[(i - k) % bins] - after[i]) ** 2 for i in range(bins)) for k in range(bins)]
        return int(np.argmin(distances))

    cases = [(8, 2), (8, 5), (6, 1), (12, 9), (8, 0), (12, 3)]
    for bins, shift in cases:
        before = rng.random(bins) ** 2
        before /= np.linalg.norm(before)
        after = np.array([before[(i - shift) % bins] for i in range(bins)]) + 0.02 * rng.random(bins)
        after /= np.linalg.norm(after)
        expected = reference(before, after)
        got = _call(student, "shift_for_rotation", before.copy(), after.copy())
        try:
            value = float(got)
        except (TypeError, ValueError):
            raise CheckFailed(f"shift_for_rotation should return one integer (a number of bins); "
                              f"found {type(got).__name__}.") from None
        if not (np.isfinite(value) and value == round(value)):
            raise CheckFailed(f"shift_for_rotation should return a whole number of bins; found {value}.")
        k = int(round(value))
        if k == expected:
            continue
        if k % bins == expected:
            raise CheckFailed(f"with {bins} bins you returned {k}; that is the right shift, but return it as a "
                              f"number from 0 to {bins - 1} (take it modulo {bins}).")
        if np.isclose(value, expected * 180.0 / bins) and expected != 0:
            raise CheckFailed(f"you returned {value:g}, which is the shift in degrees; return it in bins "
                              f"({expected} bins of {180 / bins:g}° here).")
        if k == (-expected) % bins:
            raise CheckFailed(f"with {bins} bins your shift is {k} but it should be {expected}: you found the shift "
                              "that takes histogram_after back to histogram_before. Compare "
                              "np.roll(histogram_before, k) with histogram_after.")
        worst = int(np.argmax([np.linalg.norm(np.roll(before, j) - after) for j in range(bins)]))
        if k == worst:
            raise CheckFailed(f"with {bins} bins you returned the shift with the largest distance ({k}); "
                              "take the one with the smallest.")
        raise CheckFailed(f"with {bins} bins and a true shift of {shift} you returned {k}; the best-matching "
                          f"shift is {expected}. Try every k from 0 to {bins - 1}, measure "
                          "np.linalg.norm(np.roll(histogram_before, k) - histogram_after), keep the smallest.")
    print("Correct: your shifts match the reference for 6, 8 and 12 bins, in the right direction.")


def _reference_softmax_accuracy(x_train, y_train, x_test, y_test, alpha, epochs, batch_size, *,
                                statistics_from=None, normalize=True, score_on_training=False):
    """Plain-NumPy pipeline of ``check_train_and_test`` (and its usual mistakes, by the keyword arguments)."""
    keep = x_train.std(axis=0) > 0
    x_train, x_test = x_train[:, keep], x_test[:, keep]
    if normalize:
        mean, std = x_train.mean(axis=0), x_train.std(axis=0)
        test_mean, test_std = (mean, std) if statistics_from is None else (x_test.mean(axis=0), x_test.std(axis=0))
        x_train, x_test = (x_train - mean) / std, (x_test - test_mean) / np.where(test_std > 0, test_std, 1.0)
    classes = int(y_train.max()) + 1
    targets = np.eye(classes)[y_train.astype(int)]
    extended = np.column_stack([np.ones(len(x_train)), x_train])
    weights = np.zeros((extended.shape[1], classes))
    order_rng = np.random.default_rng(0)
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(epochs):
            order = order_rng.permutation(len(extended))
            for start in range(0, len(order), batch_size):
                rows = order[start:start + batch_size]
                scores = extended[rows] @ weights
                scores -= scores.max(axis=1, keepdims=True)
                probabilities = np.exp(scores)
                probabilities /= probabilities.sum(axis=1, keepdims=True)
                weights = weights - alpha * extended[rows].T @ (probabilities - targets[rows]) / len(rows)
    inputs, labels = (x_train, y_train) if score_on_training else (x_test, y_test)
    predicted = (weights[0] + inputs @ weights[1:]).argmax(axis=1)
    return float(np.mean(predicted == labels))


def _train_and_test_data(rng: np.random.Generator):
    """Four overlapping classes in 6 features of very different scales, one constant feature, a shifted test set."""
    centres = rng.normal(size=(4, 6))
    scales = np.array([1.0, 50.0, 0.02, 3.0, 200.0, 1.0])
    offsets = np.array([0.0, 500.0, -1.0, 10.0, 0.0, 4.0])

    def sample(count, shift):
        labels = np.arange(count) % 4
        points = centres[labels] + 1.3 * rng.normal(size=(count, 6)) + shift
        points = points * scales + offsets
        points[:, 5] = 4.0                              # a constant feature, as the digits' blank border pixels
        return points, labels.astype(float)

    x_train, y_train = sample(250, 0.0)
    x_test, y_test = sample(90, np.array([1.5, -1.0, 1.2, 0.0, 0.8, 0.0]))
    return x_train, y_train, x_test, y_test


def check_train_and_test(student: Callable) -> None:
    """Check ``student(features_train, y_train, features_test, y_test, alpha, epochs, batch_size) -> accuracy`` (chapter 6).

    The function should drop the feature columns that are constant on the
    training split, standard-normalize both splits with the *training* mean
    and standard deviation, run ``ml.minibatch_gradient_descent`` (seed 0) on
    the multiclass softmax cost from zero weights of shape ``(N+1, K)``, and
    return the fraction of test points that the final weights classify
    correctly. The reference is a separate plain-NumPy implementation of the
    same steps, run on fresh synthetic data whose test split is slightly
    shifted (as new data often is).
    """
    rng = np.random.default_rng(52)
    settings = [(0.1, 3, 16), (0.5, 2, 50)]
    for alpha, epochs, batch_size in settings:
        x_train, y_train, x_test, y_test = _train_and_test_data(rng)
        arrays = (x_train, y_train, x_test, y_test)
        saved = [a.copy() for a in arrays]
        expected = _reference_softmax_accuracy(*arrays, alpha, epochs, batch_size)
        try:
            got = _call(student, "train_and_test", *arrays, alpha, epochs, batch_size)
        except ValueError as error:
            raise CheckFailed(f"train_and_test raised ValueError: {error} Drop the feature columns whose training "
                              "standard deviation is 0 before normalizing (keep = features_train.std(axis=0) > 0), "
                              "and apply the same columns to the test split.") from None
        if not all(np.array_equal(a, b) for a, b in zip(arrays, saved)):
            raise CheckFailed("train_and_test changed an array it was given; work on copies.")
        try:
            value = float(got)
        except (TypeError, ValueError):
            raise CheckFailed(f"train_and_test should return one number, the test accuracy; found "
                              f"{type(got).__name__}.") from None
        tolerance = 1e-6  # accuracies are multiples of 1/90 here
        if abs(value - expected) <= tolerance:
            continue
        where = f"(alpha = {alpha}, {epochs} epochs, batches of {batch_size})"
        if abs(value - expected * len(y_test)) <= 0.5:
            raise CheckFailed(f"you returned {value:g}, the number of correct test points; return the fraction "
                              f"({expected:.4f} here) {where}.")
        if abs(value - (1.0 - expected)) <= tolerance:
            raise CheckFailed(f"you returned {value:.4f}, the test error rate; return the accuracy, 1 minus it "
                              f"{where}.")
        hints = [
            (dict(score_on_training=True), "that is the accuracy on the training split; score the test split."),
            (dict(statistics_from=x_test),
             "the test split seems to be normalized with its own mean and standard deviation; use the training "
             "statistics for both splits (chapter 7)."),
            (dict(normalize=False), "the inputs seem not to be normalized; standard-normalize them first."),
        ]
        for keywords, hint in hints:
            if abs(value - _reference_softmax_accuracy(*arrays, alpha, epochs, batch_size, **keywords)) <= tolerance:
                raise CheckFailed(f"train_and_test returned {value:.4f} instead of {expected:.4f} {where}: {hint}")
        raise CheckFailed(f"train_and_test returned {value:.4f}, but the test accuracy should be {expected:.4f} "
                          f"{where}. Start from zero weights of shape (N+1, K), use "
                          "ml.minibatch_gradient_descent(g, w0, alpha, epochs, batch_size, seed=0) and score the "
                          "final weights (history.weights[-1]) on the test split.")
    print("Correct: your test accuracies match a plain-NumPy reference on two fresh synthetic problems.")


# ---- chapter 3: costs for classification

__all__ += ["check_cross_entropy_gradient", "check_input_at_probability"]


def _logistic(t):
    t = np.asarray(t, dtype=float)
    e = np.exp(-np.abs(t))
    return np.where(t >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _mean_log_loss(x_ext: np.ndarray, y01: np.ndarray, w: np.ndarray) -> float:
    margins = x_ext @ w
    return float(np.mean(np.logaddexp(0.0, margins) - y01 * margins))


def check_cross_entropy_gradient(student: Callable) -> None:
    """Check ``student(x, y, w)``, the gradient of the mean cross-entropy for 0/1 labels (chapter 3).

    The reference is a central finite difference of the cost
    ``(1/P) Σ −[y_p log σ(m_p) + (1 − y_p) log(1 − σ(m_p))]``, ``m_p = w[0] + x_p @ w[1:]``,
    written here independently of the library's cost. Typical mistakes
    (±1-label formulas on 0/1 labels, a sum instead of a mean, a flipped
    sign, a missing σ, a missing bias) get a message that names them.
    """
    rng = np.random.default_rng(31)
    points, features = 29, 3
    x = rng.normal(size=(points, features))
    y = (rng.uniform(size=points) < 0.5).astype(float)
    w = rng.normal(scale=0.8, size=features + 1)
    x_ext = np.column_stack([np.ones(points), x])
    expected = _finite_difference_gradient(lambda v: _mean_log_loss(x_ext, y, v), w.copy(), h=1e-6)
    arrays = (x.copy(), y.copy(), w.copy())
    result = _call(student, "cross_entropy_gradient", *arrays)
    if not (np.array_equal(arrays[0], x) and np.array_equal(arrays[1], y) and np.array_equal(arrays[2], w)):
        raise CheckFailed("cross_entropy_gradient changed an array it was given; compute on copies instead.")
    if np.shape(result) == (features,):
        raise CheckFailed(f"your gradient has {features} entries, one per feature, but w has {features + 1}: "
                          "add the entry for the bias w[0] (put a column of ones in front of x).")
    got = _as_array(result, "cross_entropy_gradient", (features + 1,))
    if np.allclose(got, expected, rtol=1e-5, atol=1e-7):
        print("Correct: your gradient matches a finite-difference gradient of the cross-entropy on random data.")
        return
    m = x_ext @ w
    y_pm = 2 * y - 1
    hints = [
        (-expected, "it has the wrong sign: the gradient is (1/P) X̃ᵀ(σ(m) − y), prediction minus label."),
        (expected * points, "it is P times too large: the cost is a mean over the points, so divide by P."),
        (-expected * points, "it has the wrong sign and is P times too large: use (σ(m) − y) and divide by P."),
        (-x_ext.T @ (y * _logistic(-y * m)) / points,
         "that is the two-class softmax gradient, which expects labels ±1, applied to 0/1 labels: with 0/1 "
         "labels use (1/P) X̃ᵀ(σ(m) − y), or map the labels with 2y − 1 first."),
        (x_ext.T @ (_logistic(m) - y_pm) / points,
         "you used labels ±1 in the formula for 0/1 labels: with (σ(m) − y) the labels must be 0 and 1."),
        (x_ext.T @ (m - y) / points, "you used the model m itself instead of the probability σ(m): apply the "
                                     "logistic function to the model first."),
        (x_ext.T @ (_logistic(m) - y) / points * 2, "it is twice too large: unlike least squares there is no factor 2."),
    ]
    _explain_wrong_gradient(got, expected, hints, "its entry is the mean of (σ(m_p) − y_p) over the points.",
                            "(1/P) X̃ᵀ(σ(X̃w) − y)")


def check_input_at_probability(student: Callable) -> None:
    """Check ``student(w, p)``: the input where a one-feature logistic model gives probability p (chapter 3).

    For weights ``w = (w0, w1)`` with ``w1 ≠ 0`` the model's probability of
    class 1 is ``σ(w0 + w1 x)``; it equals ``p`` at ``x = (log(p / (1 − p)) − w0) / w1``.
    At ``p = 0.5`` that is the decision boundary ``−w0 / w1``. Cases include a
    negative slope and probabilities on both sides of 0.5.
    """
    cases = [((-21.0, 13.0), 0.5), ((-21.0, 13.0), 0.9), ((3.0, -2.0), 0.5), ((3.0, -2.0), 0.2),
             ((0.5, 4.0), 0.99)]
    for (w0, w1), p in cases:
        w = np.array([w0, w1])
        result = _call(student, "input_at_probability", w.copy(), p)
        try:
            got = float(result)
        except (TypeError, ValueError):
            raise CheckFailed(f"input_at_probability should return one number; found {type(result).__name__} "
                              f"{np.shape(result)}.") from None
        logit = np.log(p / (1 - p))
        expected = (logit - w0) / w1
        if abs(got - expected) <= 1e-8 * max(1.0, abs(expected)):
            continue
        where = f"for w = ({w0:g}, {w1:g}) and p = {p:g} you returned {got:.6g}, but σ(w0 + w1·x) = p at x = {expected:.6g}"
        hints = [
            ((logit + w0) / w1, "the sign is flipped: solve w0 + w1·x = log(p / (1 − p)) for x; at p = 0.5 "
                                "that gives the boundary x = −w0 / w1."),
            (-w1 / w0, "w0 and w1 are swapped: solve w0 + w1·x = 0 for x."),
            ((p - w0) / w1, "you set the model equal to p; set σ(model) equal to p, that is the model equal to "
                            "log(p / (1 − p))."),
            ((-logit - w0) / w1, "the log-odds have the wrong sign: σ(t) = p at t = log(p / (1 − p))."),
            (-w0 / w1, "that is the p = 0.5 boundary; for other p the model must equal log(p / (1 − p))."),
        ]
        for wrong, hint in hints:
            if abs(got - wrong) <= 1e-8 * max(1.0, abs(wrong)):
                raise CheckFailed(f"{where}: {hint}")
        raise CheckFailed(f"{where}. Solve w0 + w1·x = log(p / (1 − p)) for x.")
    print("Correct: your inputs give exactly the asked-for probabilities, for both signs of the slope.")


# ---- chapter 12: a preprocessing pipeline

__all__ += ["check_date_features", "check_encode_with_train_categories", "check_smote_one_class"]


def check_date_features(student: Callable) -> None:
    """Check ``student(stamps) -> (P, 4) array`` of year, month, hour, day of week (chapter 12).

    ``stamps`` is a pandas Series of date-times. Column 3 should count days
    of the week from Monday = 0 to Sunday = 6 and months should run 1-12. The
    reference is Python's own ``datetime`` module, stamp by stamp; the check
    recognizes a Sunday-first week, a 1-based week, 0-based months and a
    missing hour.
    """
    import datetime

    import pandas as pd

    rng = np.random.default_rng(111)
    start = datetime.datetime(2009, 12, 27, 0, 0, 0)
    stamps = pd.Series([start + datetime.timedelta(hours=int(h)) for h in np.sort(rng.integers(0, 24 * 800, 60))])
    saved = stamps.copy()
    result = _call(student, "date_features", stamps)
    if not stamps.equals(saved):
        raise CheckFailed("date_features changed the Series it was given; build new columns instead.")
    got = _as_array(result, "date_features", (len(stamps), 4))
    python = [s.to_pydatetime() for s in stamps]
    expected = np.array([[s.year, s.month, s.hour, s.weekday()] for s in python], dtype=float)
    if np.array_equal(got, expected):
        print("Correct: year, month (1-12), hour and day of the week (Monday = 0) for all 60 time stamps.")
        return
    names = ["year", "month", "hour", "day of the week"]
    wrong = [n for i, n in enumerate(names) if not np.array_equal(got[:, i], expected[:, i])]
    day = got[:, 3]
    if wrong == ["day of the week"]:
        if np.array_equal(day, [s.isoweekday() % 7 for s in python]):
            raise CheckFailed("the day of the week counts from Sunday = 0; the chapter (and pandas' "
                              "dt.day_of_week) counts from Monday = 0 to Sunday = 6.")
        if np.array_equal(day, [s.isoweekday() for s in python]):
            raise CheckFailed("the day of the week runs 1-7 (isoweekday); use 0-6 with Monday = 0 (dt.day_of_week).")
        if np.array_equal(day, [s.day for s in python]):
            raise CheckFailed("column 3 holds the day of the month; the exercise asks for the day of the week "
                              "(dt.day_of_week).")
    if "month" in wrong and np.array_equal(got[:, 1], expected[:, 1] - 1):
        raise CheckFailed("the months run 0-11; keep the calendar's 1-12 (dt.month).")
    if "hour" in wrong and not got[:, 2].any():
        raise CheckFailed("the hour column is all zeros: was the time of day dropped (e.g. by .dt.date)? "
                          "Use dt.hour on the full time stamps.")
    raise CheckFailed(f"these columns are not right: {', '.join(wrong)}. Return the columns year, month, hour, "
                      "day of the week, in that order, one row per time stamp.")


def check_encode_with_train_categories(student: Callable) -> None:
    """Check ``student(train_values, new_values) -> (encoded_new, categories)`` (chapter 12).

    ``categories`` should be the sorted distinct training values, and
    ``encoded_new`` of shape ``(Q, K)`` the one-hot rows of the new values in
    those columns, with an all-zero row for a value the training split never
    showed. The reference is scikit-learn's
    ``OneHotEncoder(handle_unknown="ignore")`` fitted on the training values.
    """
    from sklearn.preprocessing import OneHotEncoder

    train = ["oak", "pine", "ash", "oak", "elm", "pine", "oak"]
    new = ["pine", "birch", "oak", "ash", "birch"]          # "birch" never appears in training
    saved = (list(train), list(new))
    result = _call(student, "encode_with_train_categories", train, new)
    if (list(train), list(new)) != saved:
        raise CheckFailed("encode_with_train_categories changed the lists it was given.")
    if not (isinstance(result, tuple) and len(result) == 2):
        raise CheckFailed("return a pair (encoded_new, categories).")
    encoded, categories = result
    categories = list(np.asarray(categories).tolist())
    reference = OneHotEncoder(handle_unknown="ignore", sparse_output=False).fit(np.array(train)[:, None])
    expected_categories = reference.categories_[0].tolist()
    if set(categories) == set(new):
        raise CheckFailed("the categories come from the new split; learn them from the training split only, "
                          "so that every split gets the same columns.")
    if set(categories) == set(train) | set(new):
        raise CheckFailed("the categories include 'birch', which only the new split has: that peeks at data the "
                          "model is not trained on and gives a column that is zero on every training point. "
                          "Learn the categories from the training split only.")
    if categories != expected_categories:
        raise CheckFailed(f"categories should be the sorted distinct training values {expected_categories}; "
                          f"found {categories}.")
    got = _as_array(encoded, "encoded_new", (len(new), len(expected_categories)))
    expected = reference.transform(np.array(new)[:, None])
    if np.array_equal(got, expected):
        print("Correct: training categories only, and each unseen 'birch' becomes a row of zeros.")
        return
    if np.array_equal(np.delete(got, [1, 4], axis=0), np.delete(expected, [1, 4], axis=0)):
        raise CheckFailed("the seen values are right, but an unseen value ('birch') should give a row of zeros: "
                          "it belongs to none of the training categories.")
    raise CheckFailed("the rows are not one-hot rows in the training categories' columns: row q should be 1 in "
                      "the column of new_values[q] and 0 elsewhere.")


def _segment_origins(points: np.ndarray, members: np.ndarray, neighbours: np.ndarray, tol: float = 1e-8):
    """For each point, True if it lies on a segment from a member to one of its listed neighbours."""
    found = []
    for p in points:
        ok = False
        for a, row in zip(members, neighbours):
            d = members[row] - a                                   # (k, N)
            lengths = (d**2).sum(axis=1)
            t = np.where(lengths > 0, (d @ (p - a)) / np.where(lengths > 0, lengths, 1.0), 0.0)
            close = np.all(np.abs(a + t[:, None] * d - p) <= tol * (1 + np.abs(p)), axis=1)
            if np.any(close & (t >= -tol) & (t <= 1 + tol)):
                ok = True
                break
        found.append(ok)
    return np.array(found)


def check_smote_one_class(student: Callable) -> None:
    """Check ``student(members, count, k, seed) -> (count, N) array`` of SMOTE points for one class (chapter 12).

    Every new point should lie on a segment from a member to one of that
    member's ``k`` nearest *other* members; the points should not be copies of
    the members; the input should not change; and the points should spread
    over many members. Neighbours come from scikit-learn's
    ``NearestNeighbors``, independently of the library's :func:`~mlrefined_lib.pipeline.smote`.
    """
    from sklearn.neighbors import NearestNeighbors

    rng = np.random.default_rng(112)
    members = rng.normal(size=(30, 2)) * [3.0, 1.0]
    saved = members.copy()
    k, count = 3, 60
    result = _call(student, "smote_one_class", members, count, k, 0)
    if not np.array_equal(members, saved):
        raise CheckFailed("smote_one_class changed the points it was given; build new ones.")
    got = _as_array(result, "smote_one_class", (count, 2))
    nearest = NearestNeighbors(n_neighbors=k + 1).fit(members).kneighbors(members, return_distance=False)
    copies = np.array([np.any(np.all(np.isclose(members, p, rtol=0, atol=1e-12), axis=1)) for p in got])
    if copies.any():
        raise CheckFailed(f"{int(copies.sum())} of the {count} new points are exact copies of members. Is each "
                          "point among its own neighbours (its distance to itself is 0)? Leave it out, e.g. skip "
                          "the first column of the argsort. Or is the random step t sometimes 0?")
    if _segment_origins(got, members, nearest[:, 1:]).all():
        if len(np.unique(np.round(got, 8), axis=0)) < count // 2:
            raise CheckFailed("many new points coincide: draw a new member, neighbour and step t for each point.")
        print(f"Correct: all {count} new points lie on segments from a member to one of its {k} nearest neighbours.")
        return
    everyone = np.argsort(((members[:, None] - members[None]) ** 2).sum(axis=2), axis=1, kind="stable")[:, 1:]
    if _segment_origins(got, members, everyone).all():
        raise CheckFailed("each new point lies between two members, but not always between a member and one of "
                          f"its {k} NEAREST other members: sort the distances from the member, leave the member "
                          "itself out, and take the k smallest.")
    on_lines = []
    for p in got:
        hit = False
        for a, row in zip(members, nearest[:, 1:]):
            d = members[row] - a
            t = (d @ (p - a)) / (d**2).sum(axis=1)
            if np.any(np.all(np.abs(a + t[:, None] * d - p) <= 1e-8 * (1 + np.abs(p)), axis=1)):
                hit = True
                break
        on_lines.append(hit)
    if all(on_lines):
        raise CheckFailed("some new points lie on the line through a member and a neighbour but outside the "
                          "segment between them: draw the step t uniformly from [0, 1).")
    raise CheckFailed(f"the new points are not all of the form a + t (b - a) with a a member, b one of its {k} "
                      "nearest other members and t in [0, 1).")


# ---------------------------------------------------------------- chapter 2: stochastic and mini-batch gradient descent

__all__ += ["check_sgd_epoch", "check_minibatches"]


def _reference_sgd_epoch(x, y, w, alpha, order, *, factor=2.0, bias=True):
    """One epoch of SGD on the mean least-squares cost, one point per step, in the given order."""
    w = np.array(w, dtype=float)
    for p in order:
        residual = w[0] + x[p] @ w[1:] - y[p]
        w[1:] = w[1:] - alpha * factor * residual * x[p]
        if bias:
            w[0] = w[0] - alpha * factor * residual
    return w


def check_sgd_epoch(student: Callable) -> None:
    """Check ``student(x, y, w, alpha, order) -> weights``: one epoch of stochastic gradient descent (chapter 2).

    The function should visit the points in the order given by ``order`` and,
    for each point ``p``, take the step ``w ← w − α · 2 (w[0] + x_p·w[1:] − y_p) (1, x_p)``
    (the gradient of that point's squared error), without changing the
    caller's ``w``. The reference is a plain loop written here; typical slips
    (no factor 2, ignoring ``order``, one full-batch step, a forgotten bias,
    editing ``w`` in place) get their own messages.
    """
    rng = np.random.default_rng(22)
    for trial in range(2):
        P, N = 12 + 5 * trial, 2 + trial
        x = rng.normal(size=(P, N))
        y = rng.normal(size=P)
        w = rng.normal(size=N + 1)
        order = rng.permutation(P)
        alpha = 0.05
        w_saved, x_saved, y_saved, order_saved = w.copy(), x.copy(), y.copy(), order.copy()
        got = _call(student, "sgd_epoch", x, y, w, alpha, order)
        if not np.array_equal(w, w_saved):
            raise CheckFailed("sgd_epoch changed the weights w it was given; start from a copy, "
                              "w = np.array(w, dtype=float).")
        if not (np.array_equal(x, x_saved) and np.array_equal(y, y_saved) and np.array_equal(order, order_saved)):
            raise CheckFailed("sgd_epoch changed x, y or order; it should only read them.")
        got = _as_array(got, "sgd_epoch", (N + 1,))
        expected = _reference_sgd_epoch(x, y, w, alpha, order)
        if np.allclose(got, expected, rtol=1e-8, atol=1e-10):
            continue
        full_gradient = 2 / P * np.column_stack([np.ones(P), x]).T @ (w[0] + x @ w[1:] - y)
        hints = [
            (_reference_sgd_epoch(x, y, w, alpha, order, factor=1.0),
             "your steps are half as long as they should be: the gradient of (model − y)² is 2 (model − y) (1, x_p)."),
            (_reference_sgd_epoch(x, y, w, alpha, np.arange(P)),
             "the points seem to be visited in the order 0, 1, …, P−1; visit them in the order given by `order`."),
            (w - alpha * full_gradient,
             "that is one full-batch gradient step; take one step per point, using only that point's gradient."),
            (_reference_sgd_epoch(x, y, w, alpha, order, bias=False),
             "the bias w[0] did not move; its part of the gradient is 2 (model − y) times 1."),
        ]
        for wrong, hint in hints:
            if np.allclose(got, wrong, rtol=1e-8, atol=1e-10):
                raise CheckFailed(f"sgd_epoch is not right: {hint}")
        worst = int(np.argmax(np.abs(got - expected)))
        raise CheckFailed(f"sgd_epoch returned {np.round(got, 4)} but one epoch should give {np.round(expected, 4)} "
                          f"(entry {worst} differs most). Update w after every single point, with that point's "
                          "gradient, before moving on to the next point.")
    print("Correct: your epoch matches a reference loop on two random problems.")


def check_minibatches(student: Callable) -> None:
    """Check ``student(num_points, batch_size, rng) -> list of index arrays``: one epoch's mini-batches (chapter 2).

    The function should draw one shuffle ``order = rng.permutation(num_points)``
    and cut it into consecutive batches of ``batch_size`` indices, the last one
    smaller when ``batch_size`` does not divide ``num_points`` (the same
    convention as ``ml.minibatch_gradient_descent``). Every point must appear
    exactly once per epoch.
    """
    for num_points, batch_size in [(10, 3), (12, 4), (7, 7), (5, 1)]:
        got = _call(student, "minibatches", num_points, batch_size, np.random.default_rng(3))
        order = np.random.default_rng(3).permutation(num_points)
        expected = [order[i : i + batch_size] for i in range(0, num_points, batch_size)]
        where = f"(num_points = {num_points}, batch_size = {batch_size})"
        try:
            batches = [np.asarray(b) for b in got]
        except TypeError:
            raise CheckFailed(f"minibatches should return a list of index arrays; found {type(got).__name__}.") from None
        if not all(b.ndim == 1 and (b.size == 0 or np.issubdtype(b.dtype, np.integer)) for b in batches):
            raise CheckFailed(f"each batch should be a 1-D array of integer row numbers {where}.")
        flat = np.concatenate(batches) if batches else np.zeros(0, dtype=int)
        if len(flat) < num_points and len(set(flat.tolist())) == len(flat):
            raise CheckFailed(f"the batches hold {len(flat)} of the {num_points} points {where}: keep the last, "
                              "smaller batch, or those points are never used.")
        if len(set(flat.tolist())) != len(flat):
            raise CheckFailed(f"some points appear twice in one epoch {where}: shuffle the indices "
                              "(a permutation) instead of drawing them at random with replacement.")
        if sorted(flat.tolist()) != list(range(num_points)):
            raise CheckFailed(f"the batches should hold each of the row numbers 0 … {num_points - 1} exactly once "
                              f"{where}; found {sorted(flat.tolist())}.")
        sizes = [len(b) for b in batches]
        expected_sizes = [len(b) for b in expected]
        if sizes != expected_sizes:
            raise CheckFailed(f"the batch sizes are {sizes} but should be {expected_sizes} {where}: consecutive "
                              "batches of batch_size, only the last one smaller.")
        if num_points > 1 and np.array_equal(flat, np.arange(num_points)):
            raise CheckFailed(f"the points are in their stored order {where}: shuffle them first with "
                              "rng.permutation(num_points).")
        if not np.array_equal(flat, np.concatenate(expected)):
            raise CheckFailed(f"the batches are a valid split but not the expected shuffle {where}: draw it with one "
                              "call order = rng.permutation(num_points), using the rng you were given, so that a "
                              "seed reproduces the run.")
    print("Correct: every point once per epoch, the right batch sizes, and the shuffle given by the seed.")


# ---------------------------------------------------------------- chapter 4: polynomial features, early stopping

__all__ += ["check_polynomial_feature_count", "check_softmax_early_stopping"]


def check_polynomial_feature_count(student: Callable) -> None:
    """Check ``student(n, d)``: the number of monomials of n inputs of degree at most d, the constant included (chapter 4).

    The reference counts the columns that scikit-learn's
    ``PolynomialFeatures(d)`` makes from n inputs.
    """
    from math import comb

    from sklearn.preprocessing import PolynomialFeatures

    cases = [(1, 1), (1, 7), (2, 2), (3, 3), (4, 2), (5, 4), (10, 3)]
    expected = [PolynomialFeatures(d).fit(np.zeros((1, n))).n_output_features_ for n, d in cases]
    values = []
    for n, d in cases:
        got = _call(student, "num_features", n, d)
        try:
            value = int(got)
        except (TypeError, ValueError):
            raise CheckFailed(f"num_features should return a whole number; found {type(got).__name__}.") from None
        if value != got:
            raise CheckFailed(f"num_features({n}, {d}) returned {got!r}, which is not a whole number.")
        values.append(value)
    if values != expected:
        hints = [
            (lambda n, d: comb(n + d, d) - 1, "you left out the constant monomial 1; count it too."),
            (lambda n, d: n ** d, "n**d counts ordered products of exactly d inputs: x1·x2 and x2·x1 are the same "
                                  "monomial, and the lower degrees are missing."),
            (lambda n, d: comb(n + d - 1, d), "that counts only the monomials of degree exactly d; add the lower "
                                              "degrees (and the constant)."),
            (lambda n, d: (n + 1) ** d, "(n + 1)**d counts ordered choices; the order of the factors does not "
                                        "matter."),
            (lambda n, d: n * d + 1, "n·d + 1 counts the powers of each input alone; the products of different "
                                     "inputs (such as x1·x2) are missing."),
        ]
        wrong_at = next(i for i, (v, e) in enumerate(zip(values, expected)) if v != e)
        (n, d), value = cases[wrong_at], values[wrong_at]
        for formula, hint in hints:
            if values == [formula(*case) for case in cases]:
                raise CheckFailed(f"num_features({n}, {d}) returned {value}, but there are {expected[wrong_at]} "
                                  f"monomials: {hint}")
        raise CheckFailed(f"num_features({n}, {d}) returned {value}; it should be {expected[wrong_at]}, the "
                          "binomial coefficient (n + d)! / (d! n!).")
    print("Correct: your counts match the columns of scikit-learn's PolynomialFeatures for 7 pairs (n, d).")


def _softmax_early_stopping_reference(x_train, y_train, x_val, y_val, alpha, epochs, *, choose_by="validation"):
    """Plain-NumPy batch gradient descent on the multiclass softmax; every epoch's weights and costs."""
    classes = int(max(y_train.max(), y_val.max())) + 1

    def parts(x, y):
        return np.column_stack([np.ones(len(x)), x]), np.eye(classes)[y.astype(int)]

    def cost_and_probabilities(x_ext, targets, w):
        scores = x_ext @ w
        scores = scores - scores.max(axis=1, keepdims=True)
        log_norm = np.log(np.exp(scores).sum(axis=1))
        probabilities = np.exp(scores - log_norm[:, None])
        return float(np.mean(log_norm - (scores * targets).sum(axis=1))), probabilities

    train_ext, train_targets = parts(x_train, y_train)
    val_ext, val_targets = parts(x_val, y_val)
    w = np.zeros((train_ext.shape[1], classes))
    weights, train_costs, val_costs = [], [], []
    for epoch in range(epochs + 1):
        train_cost, probabilities = cost_and_probabilities(train_ext, train_targets, w)
        weights.append(w.copy())
        train_costs.append(train_cost)
        val_costs.append(cost_and_probabilities(val_ext, val_targets, w)[0])
        if epoch < epochs:
            w = w - alpha * train_ext.T @ (probabilities - train_targets) / len(train_ext)
    return np.array(weights), np.array(train_costs), np.array(val_costs)


def _early_stopping_problem(rng: np.random.Generator):
    """Three overlapping classes in 12 features, few training points: the validation cost falls, then rises."""
    centres = 0.6 * rng.normal(size=(3, 12))

    def sample(count):
        labels = np.arange(count) % 3
        return centres[labels] + rng.normal(size=(count, 12)), labels.astype(float)

    x_train, y_train = sample(24)
    x_val, y_val = sample(150)
    return x_train, y_train, x_val, y_val


def check_softmax_early_stopping(student: Callable) -> None:
    """Check ``student(x_train, y_train, x_val, y_val, alpha, epochs) -> (best_weights, best_epoch)`` (chapter 4).

    The function should run ``epochs`` steps of batch gradient descent on the
    mean multiclass softmax cost of the training set from zero weights of
    shape ``(N+1, K)``, compute the validation cost after every epoch (epoch
    0 being the zero weights), and return the weights of the epoch with the
    lowest validation cost and that epoch's number. The reference is a
    separate plain-NumPy implementation, run on fresh synthetic data whose
    validation cost falls and then rises.
    """
    rng = np.random.default_rng(44)
    for alpha, epochs in [(0.5, 150), (1.0, 80)]:
        x_train, y_train, x_val, y_val = _early_stopping_problem(rng)
        arrays = (x_train, y_train, x_val, y_val)
        saved = [a.copy() for a in arrays]
        weights, train_costs, val_costs = _softmax_early_stopping_reference(*arrays, alpha, epochs)
        best = int(np.argmin(val_costs))
        where = f"(alpha = {alpha}, {epochs} epochs)"
        got = _call(student, "softmax_early_stopping", *arrays, alpha, epochs)
        if not all(np.array_equal(a, b) for a, b in zip(arrays, saved)):
            raise CheckFailed("softmax_early_stopping changed an array it was given; work on copies.")
        if not (isinstance(got, tuple) and len(got) == 2):
            raise CheckFailed("softmax_early_stopping should return a pair (best_weights, best_epoch).")
        w, epoch = got
        w = _as_array(w, "the weights returned by softmax_early_stopping", weights[0].shape)
        try:
            epoch = int(epoch)
        except (TypeError, ValueError):
            raise CheckFailed(f"the best epoch should be a whole number; found {type(got[1]).__name__}.") from None
        weights_right = np.allclose(w, weights[best], rtol=1e-6, atol=1e-8)
        if weights_right and epoch == best:
            continue
        if np.allclose(w, weights[-1], rtol=1e-6, atol=1e-8):
            raise CheckFailed(f"you returned the weights after the last epoch {where}; return those of the epoch "
                              f"with the lowest validation cost (epoch {best} here, out of {epochs}).")
        if weights_right:
            hint = ("one more than it should: epoch 0 is the starting weights, before any step."
                    if epoch == best + 1 else "count epoch 0 as the zero weights and epoch e as the weights "
                                              "after e steps.")
            raise CheckFailed(f"the weights are right but you returned epoch {epoch} instead of {best} {where}: "
                              f"{hint}")
        best_train = int(np.argmin(train_costs))
        for offset in (-1, 1):
            if 0 <= best + offset <= epochs and np.allclose(w, weights[best + offset], rtol=1e-6, atol=1e-8):
                side = "before" if offset < 0 else "after"
                raise CheckFailed(f"your weights are those of epoch {best + offset}, one {side} the best epoch "
                                  f"{best} {where}: record the validation cost of the weights before stepping, "
                                  "starting with the zero weights (epoch 0).")
        if best_train != best and np.allclose(w, weights[best_train], rtol=1e-6, atol=1e-8):
            raise CheckFailed(f"you chose the epoch with the lowest training cost {where}; choose by the "
                              "validation cost.")
        summed, _, summed_val = _softmax_early_stopping_reference(*arrays, alpha * len(x_train), epochs)
        if np.allclose(w, summed[int(np.argmin(summed_val))], rtol=1e-6, atol=1e-8):
            raise CheckFailed(f"your steps are P = {len(x_train)} times too long {where}: the cost is a mean over "
                              "the training points, so divide the summed gradient by P.")
        raise CheckFailed(
            f"your weights differ from the reference {where} (best epoch {best}, you returned {epoch}). Start from "
            "zeros of shape (N+1, K), step w ← w − alpha · X̃ᵀ(softmax(X̃w) − one-hot labels) / P with X̃ the "
            "training inputs with a column of ones in front, and after every epoch compute the mean validation "
            "cost.")
    print("Correct: your best weights and best epochs match a plain-NumPy reference on two fresh problems.")


# ---------------------------------------------------------------- chapters 8 and 9: k-NN imputation, PCA compression

__all__ += ["check_knn_fill", "check_components_for_variance"]


def _knn_reference(donors: np.ndarray, x_new: np.ndarray, k: int, *, statistic=np.mean,
                   zero_gaps: bool = False) -> np.ndarray:
    """Fill the NaN of ``x_new`` from the ``k`` nearest complete ``donors`` (distance on observed coordinates)."""
    filled = x_new.copy()
    for row in range(len(x_new)):
        gaps = np.isnan(x_new[row])
        if not gaps.any():
            continue
        if zero_gaps:
            distances = np.sum((np.where(gaps, 0.0, x_new[row]) - donors) ** 2, axis=1)
        else:
            distances = np.sum((x_new[row, ~gaps] - donors[:, ~gaps]) ** 2, axis=1)
        nearest = np.argsort(distances, kind="stable")[:k]
        filled[row, gaps] = statistic(donors[nearest][:, gaps], axis=0)
    return filled


def check_knn_fill(student: Callable) -> None:
    """Check ``student(x_train, x_new, k) -> filled x_new`` (chapter 8).

    ``x_train`` is complete; every NaN of ``x_new`` should become the mean of
    its column over the ``k`` training rows nearest to that row, distances
    measured on the coordinates the row has. The reference is
    ``knn_imputer(x_train, k, scale=False)``, itself tested against
    scikit-learn's ``KNNImputer``.
    """
    from .imputation import knn_imputer

    rng = np.random.default_rng(77)
    x_train = rng.normal(size=(40, 3)) * np.array([1.0, 2.0, 0.5])
    x_new = rng.normal(size=(15, 3)) * np.array([1.0, 2.0, 0.5]) + np.array([1.5, -2.0, 0.5])
    gaps = rng.random(x_new.shape) < 0.3
    gaps[np.arange(15), rng.integers(0, 3, 15)] = False           # each row keeps at least one coordinate
    gaps[0] = [True, False, False]                                 # and some rows surely have a gap
    gaps[1] = [False, True, True]
    x_new[gaps] = np.nan
    saved_train, saved_new = x_train.copy(), x_new.copy()
    k = 3
    got = _call(student, "knn_fill", x_train, x_new, k)
    if not (np.array_equal(x_train, saved_train) and np.array_equal(x_new, saved_new, equal_nan=True)):
        raise CheckFailed("knn_fill changed the arrays it was given (it filled them in place). Work on a copy, "
                          "e.g. filled = x_new.copy().")
    got = _as_array(got, "knn_fill", x_new.shape)
    expected = knn_imputer(x_train, k, scale=False)(x_new)
    if np.allclose(got, expected, rtol=1e-9, atol=1e-12):
        again = _as_array(_call(student, "knn_fill", x_train, x_new, 1), "knn_fill", x_new.shape)
        if not np.allclose(again, knn_imputer(x_train, 1, scale=False)(x_new), rtol=1e-9, atol=1e-12):
            raise CheckFailed("knn_fill is right for k = 3 but not for k = 1: use the k it is given, not a fixed "
                              "number of neighbours.")
        print("Correct: every gap gets the mean of its k nearest training rows, and the inputs are unchanged.")
        return
    if not np.allclose(got[~gaps], x_new[~gaps]):
        raise CheckFailed("knn_fill changed entries of x_new that were observed: only the NaN entries should change.")
    hints = [
        (_knn_reference(x_train, x_new, k, statistic=np.median), "you take the median of the neighbours; take "
         "their mean."),
        (_knn_reference(x_train, x_new, k, zero_gaps=True), "your distances treat the missing coordinates as 0; "
         "measure each distance only on the coordinates the row of x_new actually has."),
        (_knn_reference(x_train, x_new, k + 1), "you average k + 1 neighbours; take exactly k."),
        (_knn_reference(x_train, x_new, k - 1), "you average k − 1 neighbours (an off-by-one when slicing?); "
         "take exactly k."),
        (np.where(gaps, np.mean(x_train, axis=0), x_new), "you fill every gap with the training column mean: that "
         "is mean imputation; average the k nearest training rows instead."),
        (knn_imputer(np.vstack([x_train, x_new]), k, scale=False)(x_new),
         "your neighbours come from the training and the new rows together: take them from x_train only (the "
         "new rows are test data, so using them leaks)."),
        (knn_imputer(x_new, k, scale=False)(x_new), "your neighbours come from the rows of x_new (the test rows): "
         "take them from x_train only."),
    ]
    for reference, hint in hints:
        if np.allclose(got, reference, rtol=1e-9, atol=1e-12):
            raise CheckFailed(f"knn_fill is not right: {hint}")
    raise CheckFailed("knn_fill is not right. For each row of x_new with a gap, compute its distance to every "
                      "training row on the coordinates it has, pick the k smallest (np.argsort(distances)[:k]) and "
                      "fill each gap with the mean of that column over those k training rows.")


def check_components_for_variance(student: Callable) -> None:
    """Check ``student(x, fraction) -> k``, the fewest principal components keeping ``fraction`` of the variance (chapter 9).

    The reference is the cumulative sum of ``explained_variance(x)`` (itself
    tested against scikit-learn's ``PCA.explained_variance_ratio_``).
    """
    from .normalizers import explained_variance

    rng = np.random.default_rng(88)
    spreads = np.array([6.0, 4.0, 3.0, 2.0, 1.5, 1.0, 0.5, 0.2])
    rotation, _ = np.linalg.qr(rng.normal(size=(8, 8)))
    x = (rng.normal(size=(300, 8)) * spreads) @ rotation.T + rng.normal(size=8) * 20
    ratios = explained_variance(x)
    centred = x - x.mean(axis=0)
    eigenvalues = np.sort(np.linalg.eigvalsh(centred.T @ centred / len(x)))[::-1]
    uncentred = np.sort(np.linalg.eigvalsh(x.T @ x / len(x)))[::-1]

    def first_reaching(cumulative, fraction):
        reached = np.flatnonzero(cumulative >= fraction - 1e-12)
        return int(reached[0]) + 1 if reached.size else len(cumulative) + 1

    fractions = (0.5, 0.8, 0.95, 0.99)
    answers = []
    for fraction in fractions:
        saved = x.copy()
        got = _call(student, "components_for_variance", x, fraction)
        if not np.array_equal(x, saved):
            raise CheckFailed("components_for_variance changed the array it was given; work on a copy.")
        try:
            answers.append(float(np.asarray(got).item()))
        except (TypeError, ValueError):
            raise CheckFailed("components_for_variance should return one whole number k; found "
                              f"{type(got).__name__}.") from None
    expected = [first_reaching(np.cumsum(ratios), f) for f in fractions]
    if answers == expected:
        print("Correct: your k is the fewest components that keep each asked-for fraction of the variance "
              f"(fractions {', '.join(map(str, fractions))}: k = {', '.join(map(str, expected))}).")
        return
    where = (f"for the fractions {', '.join(map(str, fractions))} you returned "
             f"{', '.join(f'{a:g}' for a in answers)}, but the right numbers of components are "
             f"{', '.join(map(str, expected))}")
    hints = [
        ([first_reaching(np.cumsum(eigenvalues), f) for f in fractions],
         "your variance ratios are not normalized: divide the eigenvalues by their sum so that they add up to 1."),
        ([e - 1 for e in expected], "each is one too few: count components from 1 (np.argmax(...) gives a 0-based "
         "index; add 1)."),
        ([first_reaching(np.cumsum(ratios[::-1]), f) for f in fractions],
         "you add the smallest eigenvalues first (np.linalg.eigh sorts them in ascending order): sort them from "
         "the largest."),
        ([first_reaching(np.cumsum(uncentred / uncentred.sum()), f) for f in fractions],
         "your eigenvalues come from x without centring it: subtract the column means first (the mean is not "
         "variance)."),
    ]
    for wrong, hint in hints:
        if answers == wrong:
            raise CheckFailed(f"components_for_variance is not right: {where}; {hint}")
    raise CheckFailed(f"components_for_variance is not right: {where}. Compute the eigenvalues of the covariance "
                      "of the centred x, sort them from the largest, divide by their sum, and return the first k "
                      "at which the cumulative sum reaches the fraction.")


# ---------------------------------------------------------------- chapter 6, text: TF-IDF

__all__ += ["check_tfidf_by_hand"]


def _tfidf_reference(train_counts, test_counts, *, idf_from="train", smooth=True, outer_one=True, log=np.log,
                     document_frequency=True, normalize=True):
    """TF-IDF rows of both splits, with switches that reproduce typical mistakes (for the check's hints)."""
    def idf_of(source):
        documents = source.shape[0]
        frequency = np.count_nonzero(source, axis=0) if document_frequency else source.sum(axis=0)
        frequency = frequency.astype(float)
        ratio = (1.0 + documents) / (1.0 + frequency) if smooth else documents / frequency
        return log(ratio) + (1.0 if outer_one else 0.0)

    if idf_from == "each":                                       # each split weighted by its own idf
        weights = [idf_of(train_counts), idf_of(test_counts)]
    else:
        source = train_counts if idf_from == "train" else np.vstack([train_counts, test_counts])
        weights = [idf_of(source)] * 2
    rows = []
    for counts, idf in zip((train_counts, test_counts), weights):
        weighted = counts * idf
        if normalize:
            lengths = np.sqrt((weighted**2).sum(axis=1, keepdims=True))
            weighted = np.divide(weighted, lengths, out=np.zeros_like(weighted), where=lengths > 0)
        rows.append(weighted)
    return rows


def check_tfidf_by_hand(student: Callable) -> None:
    """Check ``student(train_counts, test_counts) -> (train_features, test_features)``: TF-IDF by hand (chapter 6).

    Both splits should be weighted by the *training* split's smoothed inverse
    document frequency ``ln((1 + P) / (1 + df_v)) + 1`` (``P`` training
    documents, ``df_v`` of them containing word ``v``) and scaled to unit rows;
    a row of zeros stays zero. The reference is computed here from the
    formula; the library's ``tfidf`` and scikit-learn's ``TfidfTransformer``
    (``smooth_idf=True, norm="l2", sublinear_tf=False``) give the same numbers.
    """
    rng = np.random.default_rng(2055)
    train_counts = rng.poisson(rng.uniform(0.05, 1.5, size=7), size=(12, 7)).astype(float)
    train_counts[:, 0] += 1.0                                   # a word in every training document
    train_counts[:, 6] = 0.0
    train_counts[3, 6] = 2.0                                    # a rare word: one training document, twice
    test_counts = rng.poisson(rng.uniform(0.05, 1.5, size=7), size=(5, 7)).astype(float)
    test_counts[2] = 0.0                                        # a document with no word of the vocabulary
    test_counts[:, 5] = 3.0                                     # common in the test split, rarer in training
    train_counts[:, 5] = 0.0
    train_counts[[1, 8], 5] = 1.0
    for column in np.flatnonzero(np.count_nonzero(train_counts, axis=0) == 0):
        train_counts[column % len(train_counts), column] = 1.0  # every word in some training document
    saved = (train_counts.copy(), test_counts.copy())
    expected_train, expected_test = _tfidf_reference(train_counts, test_counts)
    result = _call(student, "tfidf_by_hand", train_counts, test_counts)
    if not isinstance(result, tuple) or len(result) != 2:
        raise CheckFailed("tfidf_by_hand should return a pair (train_features, test_features); found "
                          f"{type(result).__name__}.")
    if not (np.array_equal(train_counts, saved[0]) and np.array_equal(test_counts, saved[1])):
        raise CheckFailed("tfidf_by_hand changed an array it was given; work on new arrays.")
    got_train = _as_array(result[0], "tfidf_by_hand's train_features", train_counts.shape)
    got_test = _as_array(result[1], "tfidf_by_hand's test_features", test_counts.shape)
    if np.allclose(got_train, expected_train, atol=1e-9) and np.allclose(got_test, expected_test, atol=1e-9):
        print("Correct: both splits are weighted by the training split's smoothed idf and scaled to unit length.")
        return
    hints = [
        (dict(idf_from="each"), "the idf of the test split seems to come from the test counts; learn it from the "
                                "training counts only, like the vocabulary, and apply it to both splits."),
        (dict(idf_from="both"), "the idf seems to be computed from the training and test counts together; the "
                                "held-out documents must take no part in it: use the training counts only."),
        (dict(smooth=False), "the idf is not smoothed: use ln((1 + P) / (1 + df)) + 1, with one added to the "
                             "number of documents and to every document frequency."),
        (dict(outer_one=False), "the +1 after the logarithm is missing: idf = ln((1 + P) / (1 + df)) + 1, so a "
                                "word in every document keeps weight 1 instead of 0."),
        (dict(log=np.log10), "the logarithm is in base 10; use the natural logarithm, np.log."),
        (dict(log=np.log2), "the logarithm is in base 2; use the natural logarithm, np.log."),
        (dict(document_frequency=False), "df should count the training documents that contain the word (np.count_"
                                         "nonzero(train_counts, axis=0)), not how often it occurs in total."),
        (dict(normalize=False), "the rows are weighted but not scaled: divide each row by its Euclidean length "
                                "(leave rows of zeros at zero)."),
    ]
    for keywords, hint in hints:
        with np.errstate(all="ignore"):
            wrong_train, wrong_test = _tfidf_reference(saved[0], saved[1], **keywords)
            same = np.allclose(got_train, wrong_train, atol=1e-9) and np.allclose(got_test, wrong_test, atol=1e-9)
        if same:
            raise CheckFailed(f"tfidf_by_hand is not right: {hint}")
    for name, got, expected in [("train", got_train, expected_train), ("test", got_test, expected_test)]:
        if not np.allclose(got, expected, atol=1e-9):
            row = int(np.argmax(np.abs(got - expected).max(axis=1)))
            raise CheckFailed(
                f"row {row} of the {name} features is {np.round(got[row], 4).tolist()}, but it should be "
                f"{np.round(expected[row], 4).tolist()}. Compute idf = ln((1 + P) / (1 + df)) + 1 from the training "
                "counts, multiply every count by its word's idf, and scale each row to unit length."
            )


# ------------------------------------------------------- chapter 7: robust scaling

__all__ += ["check_robust_scale"]


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


# ------------------------------------------------------- grading: short failures, warnings kept off stderr
#
# Every public ``check_*`` function above is wrapped (at import) so that, in a
# notebook and under nbgrader's autograder,
#
# * a failing check shows a one-line ``CheckFailed: ...`` message (IPython
#   asks CheckFailed._render_traceback_), never the check's own source lines
#   or a file path; the exception is raised afresh in the wrapper, whose frame
#   carries ``__tracebackhide__`` (honoured by IPython and pytest), so no frame
#   of the check itself is kept;
# * an error raised in the student's own function (or in a library function
#   that it called) keeps only the student's frames, so the traceback points
#   at the line to fix; an error raised by the check itself on a malformed
#   result becomes a CheckFailed;
# * a warning raised while the check runs (for example a RuntimeWarning from
#   an overflow in the student's function) is recorded instead of reaching
#   stderr, which nbgrader counts as a failure; the check's own message
#   mentions it.

import functools as _functools
import types as _types
import warnings as _warnings
from pathlib import Path as _Path

_LIBRARY = str(_Path(__file__).resolve().parent)


# ------------------------------------------------------------------ chapter 5: validation

__all__ += ["check_contiguous_folds", "check_one_standard_error_rule"]


def check_contiguous_folds(student: Callable) -> None:
    """Check ``student(num_points, k) -> list of (train, validation)`` index pairs (chapter 5).

    The folds should be k contiguous blocks in row order, the first
    ``num_points % k`` of them one row longer, each train part the sorted
    complement of its validation block: the folds of scikit-learn's
    ``KFold(k)`` without shuffling, which is the reference.
    """
    from sklearn.model_selection import KFold

    cases = [(10, 2), (10, 3), (7, 7), (23, 5), (100, 10), (5, 2)]
    for num_points, k in cases:
        got = _call(student, "contiguous_folds", num_points, k)
        where = f"contiguous_folds({num_points}, {k})"
        try:
            pairs = [(np.asarray(t), np.asarray(v)) for t, v in got]
        except (TypeError, ValueError):
            raise CheckFailed(f"{where} should return a list of (train, validation) pairs of index arrays; "
                              f"found {type(got).__name__}.") from None
        if len(pairs) != k:
            raise CheckFailed(f"{where} returned {len(pairs)} folds; it should return k = {k}.")
        expected = list(KFold(k).split(np.zeros((num_points, 1))))
        sizes = [v.size for _, v in pairs]
        if sorted(np.concatenate([v.ravel() for _, v in pairs]).tolist()) != list(range(num_points)):
            raise CheckFailed(f"{where}: the validation blocks should hold every row 0..{num_points - 1} exactly "
                              "once; some row is missing or repeated.")
        for i, ((train, val), (train_ref, val_ref)) in enumerate(zip(pairs, expected)):
            if val.ravel().tolist() != val_ref.tolist():
                ref_sizes = [len(e[1]) for e in expected]
                if sizes != ref_sizes and sorted(sizes) == sorted(ref_sizes):
                    hint = "the sizes are right but not their order: the first num_points % k blocks are the longer ones."
                elif max(sizes) - min(sizes) > 1:
                    hint = (f"block sizes {sizes} differ by more than one; spread the num_points % k extra rows "
                            "over the first blocks, one each.")
                else:
                    hint = "each validation block should be the next run of consecutive rows, in order."
                raise CheckFailed(f"{where}: validation block {i} is wrong; {hint}")
            if train.ravel().tolist() != train_ref.tolist():
                raise CheckFailed(f"{where}: the training part of fold {i} should be every row not in its "
                                  "validation block, in increasing order.")
    print(f"Correct: your folds are those of scikit-learn's KFold for {len(cases)} pairs (P, k).")


def check_one_standard_error_rule(student: Callable) -> None:
    """Check ``student(means, standard_errors) -> int``: the one-standard-error choice (chapter 5).

    ``means`` and ``standard_errors`` are cross-validation errors of
    candidates listed from the simplest to the most complex. The answer is the
    index of the first candidate whose mean is at most the smallest mean plus
    that best candidate's standard error.
    """
    rng = np.random.default_rng(5)
    cases = [
        (np.array([3.0, 2.0, 1.5, 1.4, 1.45]), np.array([0.3, 0.2, 0.15, 0.12, 0.2])),
        (np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.5, 0.5])),
        (np.array([5.0, 4.0, 3.0, 2.0]), np.array([0.1, 0.1, 0.1, 0.1])),
        (np.array([2.0, 1.0, 1.1, 1.2]), np.array([1.5, 0.05, 0.5, 0.5])),
        (np.array([1.3, 1.2, 1.0, 1.25]), np.array([0.01, 0.01, 0.25, 0.01])),
    ]
    for _ in range(20):
        means = rng.uniform(1, 2, size=8)
        cases.append((means, rng.uniform(0.01, 0.3, size=8)))
    for means, errors in cases:
        best = int(np.argmin(means))
        expected = int(np.flatnonzero(means <= means[best] + errors[best])[0])
        got = _call(student, "one_standard_error_choice", means.copy(), errors.copy())
        try:
            value = int(got)
        except (TypeError, ValueError):
            raise CheckFailed(f"one_standard_error_choice should return an index (a whole number); found "
                              f"{type(got).__name__}.") from None
        if value == expected:
            continue
        where = f"for means {np.round(means, 3).tolist()} and standard errors {np.round(errors, 3).tolist()}"
        if value == best:
            hint = "that is the smallest mean; the rule picks the simplest candidate within one standard error of it."
        elif value == int(np.flatnonzero(means <= means[best] + errors)[0]) and value != expected:
            hint = "compare with the best candidate's own standard error, not each candidate's."
        elif value == int(np.flatnonzero(means <= means[best] + errors[best])[-1]):
            hint = "the candidates are listed simplest first: take the first one within the band, not the last."
        elif 0 <= value < len(means) and means[value] > means[best] + errors[best]:
            hint = f"candidate {value} has mean {means[value]:.3f}, more than one standard error above the best."
        else:
            hint = "take the first index whose mean is at most min(means) + standard_errors[argmin(means)]."
        raise CheckFailed(f"one_standard_error_choice returned {got!r} {where}; {hint}")
    print(f"Correct: your choice agrees with the rule on {len(cases)} lists of candidates.")


def _in_library(filename: str) -> bool:
    try:
        return str(_Path(filename).resolve()).startswith(_LIBRARY)
    except (OSError, ValueError):
        return False


def _student_frames(tb):
    """The entries of traceback ``tb`` outside this library (the student's code), as a new traceback."""
    kept = []
    while tb is not None:
        if not _in_library(tb.tb_frame.f_code.co_filename):
            kept.append(tb)
        tb = tb.tb_next
    new = None
    for entry in reversed(kept):
        new = _types.TracebackType(new, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return new


def _warning_note(caught) -> str:
    """One sentence on the first warning raised outside the library, or ''."""
    outside = [w for w in caught if not _in_library(w.filename)]
    if not outside:
        return ""
    first = outside[0]
    more = f" (and {len(outside) - 1} more)" if len(outside) > 1 else ""
    text = str(first.message).splitlines()[0] if str(first.message) else ""
    return f"your function raised a {first.category.__name__}: {text}{more}."


# Library functions that an exercise's text rules out ("NumPy only", "do not call
# reg.ridge", "by hand"): while the check runs, a call to one of them from the
# student's code (not from the library itself) fails the check with this reason.
_FORBIDDEN = {
    "check_least_squares_gradient": (("least_squares", "gradient_descent"), "NumPy only"),
    "check_one_hot_by_hand": (("one_hot",), "no ml.one_hot"),
    "check_bag_of_words_by_hand": (("tokenize", "bag_of_words"), "no tokenize or bag_of_words"),
    "check_train_median_impute": (("mean_imputer", "knn_imputer"), "NumPy only, not mean_imputer"),
    "check_knn_fill": (("knn_imputer",), "NumPy only"),
    "check_diagonal_newton_step": (("newtons_method", "least_squares", "gradient_descent"), "NumPy only, not the library"),
    "check_components_for_variance": (("explained_variance", "pca"), "NumPy only"),
    "check_ridge_mean_form": (("ridge",), "do not call reg.ridge"),
    "check_cross_entropy_gradient": (("cross_entropy", "softmax"), "NumPy only"),
    "check_robust_scale": (("robust_normalizer",), "NumPy only"),
    "check_tfidf_by_hand": (("tfidf",), "no tfidf"),
    "check_contiguous_folds": (("k_fold", "time_folds"), "NumPy only, not ml.k_fold"),
    "check_one_standard_error_rule": (("grid_search",), "NumPy only, not ml.grid_search"),
}


class _Forbidden:
    """While active, calls from outside the library to the named library functions are refused and recorded."""

    def __init__(self, names, rule, student_globals):
        import sys

        self.rule, self.calls, self.patches = rule, [], []
        package = sys.modules[__name__.rsplit(".", 1)[0]]
        modules = [m for n, m in list(sys.modules.items()) if n == package.__name__ or n.startswith(package.__name__ + ".")]
        for name in names:
            original = getattr(package, name, None)
            if original is None:
                continue
            guard = self._guard(name, original)
            for namespace in [vars(m) for m in modules] + [student_globals]:
                for key, value in list(namespace.items()):
                    if value is original:
                        self.patches.append((namespace, key, original))
                        namespace[key] = guard

    def _guard(self, name, original):
        import sys

        @_functools.wraps(original)
        def guard(*args, **kwargs):
            if _in_library(sys._getframe(1).f_code.co_filename):
                return original(*args, **kwargs)
            self.calls.append(name)
            raise CheckFailed(self.message())

        return guard

    def message(self) -> str:
        return (f"your function calls the library's `{self.calls[0]}`, which this exercise rules out "
                f"({self.rule}): write that step yourself.")

    def restore(self):
        for namespace, key, original in reversed(self.patches):
            namespace[key] = original


def _graded(check: Callable) -> Callable:
    """Wrap one check: short failures, no library frames, warnings recorded (see above)."""

    @_functools.wraps(check)
    def graded_check(*args, **kwargs):
        __tracebackhide__ = True  # noqa: F841  (read by IPython and pytest)
        forbidden = None
        if check.__name__ in _FORBIDDEN and args and callable(args[0]):
            names, rule = _FORBIDDEN[check.__name__]
            forbidden = _Forbidden(names, rule, getattr(args[0], "__globals__", {}))
        with _warnings.catch_warnings(record=True) as caught:
            _warnings.simplefilter("always")
            try:
                try:
                    result = check(*args, **kwargs)
                finally:
                    if forbidden is not None:
                        forbidden.restore()
                if forbidden is not None and forbidden.calls:
                    raise CheckFailed(forbidden.message())
            except CheckFailed as failure:
                message = forbidden.message() if forbidden is not None and forbidden.calls else str(failure)
                note = _warning_note(caught)
                if note and note not in message:
                    message = f"{message} Note: {note}"
                problem = type(failure)(message)
            except Exception as error:  # noqa: BLE001
                if _student_frames(error.__traceback__) is None:   # raised by the check itself
                    problem = CheckFailed(
                        f"the check could not use what your function returned "
                        f"({type(error).__name__}: {error}). Compare its type and shape with what the exercise asks for."
                    )
                else:
                    error.__suppress_context__ = True
                    raise error.with_traceback(_student_frames(error.__traceback__))
            else:
                note = _warning_note(caught)
                if note:
                    print(f"Note: {note} The answer is still accepted; see whether you can avoid it.")
                return result
        raise problem from None

    graded_check.__tracebackhide__ = True
    return graded_check


for _name in [n for n, f in globals().items() if n.startswith("check_") and callable(f)]:
    globals()[_name] = _graded(globals()[_name])
del _name
