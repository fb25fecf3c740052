"""Chapter 10, boosting: the checks of its exercises."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from ._grading import CheckFailed, graded
from ._reference import _as_array, _as_number, _call

__all__ = ["check_boost_by_residual", "check_one_weight_newton"]


@graded
def check_boost_by_residual(student: Callable) -> None:
    """Check ``student(x, y, rounds) -> (order, weights)``: least-squares boosting by the residual (chapter 10).

    ``order`` lists the 0-based features chosen, ``weights`` holds the bias
    (the mean of ``y``) and then one weight per chosen feature. The reference
    is :func:`mlrefined_lib.selection.boost`, on standardized data and on raw
    data with large offsets (where centring the columns or refitting the bias
    gives other answers).
    """
    from ..selection import boost

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


@graded
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
        got = _as_number(got, "one_weight_newton", "one number", float)
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
                          "Iterate v ← v − g'(v)/g''(v) with g'(v) = −mean(y·c·sig(−y·m)) and "
                          "g''(v) = mean(c²·sig(y·m)·sig(−y·m)), m = offset + v·c, until the step is tiny; "
                          "keep the labels ±1.")
    print("Correct: your Newton iteration finds the best single weight, with and without an offset.")
