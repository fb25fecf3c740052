"""Chapter 2, stochastic and mini-batch gradient descent: the checks of its exercises."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from ._grading import CheckFailed, graded
from ._reference import _as_array, _call, _raise_wrong_values

__all__ = ["check_sgd_epoch", "check_minibatches"]


def _reference_sgd_epoch(x, y, w, alpha, order, *, factor=2.0, bias=True):
    """One epoch of SGD on the mean least-squares cost, one point per step, in the given order."""
    w = np.array(w, dtype=float)
    for p in order:
        residual = w[0] + x[p] @ w[1:] - y[p]
        w[1:] = w[1:] - alpha * factor * residual * x[p]
        if bias:
            w[0] = w[0] - alpha * factor * residual
    return w


@graded
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
        _raise_wrong_values(got, expected, hints, "sgd_epoch", "Update w after every single point, with that "
                            "point's gradient, before moving on to the next point.", rtol=1e-8, atol=1e-10)
    print("Correct: your epoch matches a reference loop on two random problems.")


@graded
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
