"""Chapter 1, gradient descent: the checks of its exercises."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from ..costs import least_squares
from ..optimizers import gradient_descent
from ._grading import CheckFailed, graded
from ._reference import _as_array, _call, _explain_wrong_gradient, _finite_difference_gradient

__all__ = ["check_least_squares_gradient", "check_descend_until_flat"]


@graded(forbids=('least_squares', 'gradient_descent'), rule='NumPy only')
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


@graded
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
