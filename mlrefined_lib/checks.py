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


# ---- chapter 5: categorical


def check_one_hot_by_hand(student: Callable) -> None:
    """Check ``student(values, categories) -> (P, K) array`` (chapter 5).

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


# ---- chapter 5: audio

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
    """Check ``student(signal, rate, count)``: the ``count`` strongest frequencies in Hz, increasing (chapter 5).

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


# ---- chapter 5: text

__all__ += ["check_bag_of_words_by_hand", "check_spam_feature_groups"]


def check_bag_of_words_by_hand(student: Callable) -> None:
    """Check ``student(documents, vocabulary, stop_words) -> (P, V) array``: a bag of words by hand (chapter 5).

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
    """Check ``student(x_train, y_train, x_test, y_test, alpha, steps) -> (weights, test_errors)`` (chapter 5).

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


# ---- chapter 5: images

__all__ += ["check_rotation_shift", "check_train_and_test"]


def check_rotation_shift(student: Callable) -> None:
    """Check ``student(histogram_before, histogram_after) -> k`` (chapter 5).

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
    """Check ``student(features_train, y_train, features_test, y_test, alpha, epochs, batch_size) -> accuracy`` (chapter 5).

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
             "statistics for both splits (chapter 6)."),
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


# ------------------------------------------------------- chapter 6: robust scaling

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
    """Check ``student(x_train, x_new) -> array (Q, N)``: robust scaling (chapter 6).

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
                                      "for every later point (chapter 6's rule)."),
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
