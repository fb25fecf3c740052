"""Chapter 11, regularization: the checks of its exercises."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from ._grading import CheckFailed, graded
from ._reference import _as_array, _as_number, _call, _raise_known_mistake, _raise_wrong_values

__all__ = ["check_l1_proximal_step", "check_ridge_mean_form", "check_pick_lambda", "check_group_rise"]


@graded
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


@graded(forbids=('ridge',), rule='do not call reg.ridge')
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
        _raise_wrong_values(got, expected, hints, f"ridge_mean_form with lam = {lam}", "Set the gradient "
                            "(2/P)X̃ᵀ(X̃w − y) + 2λAw to zero and solve for w.", rtol=1e-6, atol=1e-8)
    print("Correct: your weights minimize the mean cost plus λ‖w[1:]‖² for both values of λ.")


@graded
def check_pick_lambda(student: Callable) -> None:
    """Check ``student(x_train, y_train, x_val, y_val, lams) -> (lam, w)`` (chapter 11).

    It should fit the ℓ1 path on the training split and return the λ with the
    lowest validation mean squared error and its weights. The reference is
    :func:`mlrefined_lib.regularization.l1_path`.
    """
    from ..regularization import l1_path

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


@graded(forbids=("permutation_importance",), rule="do not call ml.permutation_importance")
def check_group_rise(student: Callable) -> None:
    """Check ``student(w, x, y, columns, order) -> rise`` (chapter 11).

    The rise in mean squared error of the linear model ``w`` (bias first)
    when the columns listed in ``columns`` are all reordered by the same row
    order ``order`` and the other columns are left as they are. The
    reference shuffles a copy of ``x`` and takes the difference of the two
    errors; ``x`` and ``y`` must not be changed.
    """
    rng = np.random.default_rng(103)
    points = 120
    signal = rng.normal(size=points)
    x = np.column_stack([signal, signal + 0.05 * rng.normal(size=points), rng.normal(size=(points, 2))])
    y = 1.0 + 2.0 * signal - x[:, 2] + 0.3 * rng.normal(size=points)
    w = np.array([1.0, 1.2, 0.8, -1.0, 0.05])  # the twins share the weight 2

    def mse(inputs, outputs=y):
        return float(np.mean((w[0] + inputs @ w[1:] - outputs) ** 2))

    def shuffled(columns, order, inputs=x):
        copy = inputs.copy()
        copy[:, columns] = inputs[order][:, columns]
        return copy

    for columns in ([0, 1], [2], [0, 3]):
        order = rng.permutation(points)
        given = list(columns)
        saved = (w.copy(), x.copy(), y.copy(), list(columns), order.copy())
        got = _call(student, "group_rise", w, x, y, given, order)
        if not all(np.array_equal(a, b) for a, b in zip((w, x, y, given, order), saved)):
            raise CheckFailed("group_rise changed an argument it was given: shuffle a copy of x.")
        got = _as_number(got, "group_rise", "one number", float)
        expected = mse(shuffled(columns, order)) - mse(x)
        if np.isclose(got, expected, rtol=1e-9, atol=1e-9):
            continue
        others = [n for n in range(4) if n not in columns]
        hints = [
            (mse(shuffled(columns, order)), "this is the error with the columns shuffled; return its rise above "
             "the error on the rows as they are."),
            (mse(shuffled(columns, order)) / mse(x), "this is a ratio of the two errors; return their difference."),
            (mse(shuffled(columns[:1], order)) - mse(x), "only the first listed column was shuffled: reorder all "
             "of them, with the same order."),
            (mse(shuffled(list(range(4)), order)) - mse(x), "every column was shuffled: reorder only the listed "
             "columns."),
            (mse(shuffled(others, order)) - mse(x), "the other columns were shuffled: reorder the listed ones."),
            (mse(x, y[order]) - mse(x), "the outputs were shuffled: reorder the rows of the listed columns of x."),
        ]
        _raise_known_mistake(got, hints, f"group_rise with columns {columns} is not right", rtol=1e-9, atol=1e-9)
        raise CheckFailed(f"group_rise with columns {columns} returned {got:.4g}, which is not the rise in mean "
                          "squared error. Copy x, set copy[:, columns] = x[order][:, columns], and subtract the "
                          "error on x from the error on the copy.")
    print("Correct: your function reorders exactly the listed columns, together, and returns the rise in error.")
