"""Chapter 4, polynomial features and early stopping: the checks of its exercises."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from ._grading import CheckFailed, graded
from ._reference import _as_array, _as_number, _call

__all__ = ["check_polynomial_feature_count", "check_pair_products", "check_softmax_early_stopping"]


@graded
def check_polynomial_feature_count(student: Callable) -> None:
    """Check ``student(n, q)``: the number of monomials of n inputs of degree at most q, the constant included (chapter 4).

    The reference counts the columns that scikit-learn's
    ``PolynomialFeatures(q)`` makes from n inputs.
    """
    from math import comb

    from sklearn.preprocessing import PolynomialFeatures

    cases = [(1, 1), (1, 7), (2, 2), (3, 3), (4, 2), (5, 4), (10, 3)]
    expected = [PolynomialFeatures(q).fit(np.zeros((1, n))).n_output_features_ for n, q in cases]
    values = []
    for n, q in cases:
        got = _call(student, "num_features", n, q)
        value = _as_number(got, "num_features", "a whole number", int)
        if value != got:
            raise CheckFailed(f"num_features({n}, {q}) returned {got!r}, which is not a whole number.")
        values.append(value)
    if values != expected:
        hints = [
            (lambda n, q: comb(n + q, q) - 1, "you left out the constant monomial 1; count it too."),
            (lambda n, q: n ** q, "n**q counts ordered products of exactly q inputs: x1·x2 and x2·x1 are the same "
                                  "monomial, and the lower degrees are missing."),
            (lambda n, q: comb(n + q - 1, q), "that counts only the monomials of degree exactly q; add the lower "
                                              "degrees (and the constant)."),
            (lambda n, q: (n + 1) ** q, "(n + 1)**q counts ordered choices; the order of the factors does not "
                                        "matter."),
            (lambda n, q: n * q + 1, "n·q + 1 counts the powers of each input alone; the products of different "
                                     "inputs (such as x1·x2) are missing."),
        ]
        wrong_at = next(i for i, (v, e) in enumerate(zip(values, expected)) if v != e)
        (n, q), value = cases[wrong_at], values[wrong_at]
        for formula, hint in hints:
            if values == [formula(*case) for case in cases]:
                raise CheckFailed(f"num_features({n}, {q}) returned {value}, but there are {expected[wrong_at]} "
                                  f"monomials: {hint}")
        raise CheckFailed(f"num_features({n}, {q}) returned {value}; it should be {expected[wrong_at]}, the "
                          "binomial coefficient (n + q)! / (q! n!).")
    print("Correct: your counts match the columns of scikit-learn's PolynomialFeatures for 7 pairs (n, q).")


@graded(forbids=("interaction_features", "polynomial_features"), rule="NumPy only")
def check_pair_products(student: Callable) -> None:
    """Check ``student(x) -> products``: the product of every pair of different columns of x (chapter 4).

    For x of shape (P, N) the answer has shape (P, N(N − 1)/2), the columns
    ordered (0, 1), (0, 2), …, (0, N − 1), (1, 2), …: the reference is the
    last N(N − 1)/2 columns of scikit-learn's
    ``PolynomialFeatures(2, interaction_only=True, include_bias=False)``,
    on fresh random inputs of several widths.
    """
    from sklearn.preprocessing import PolynomialFeatures

    rng = np.random.default_rng(404)
    for points, inputs in [(5, 2), (7, 3), (6, 5), (4, 8)]:
        x = rng.normal(size=(points, inputs))
        saved = x.copy()
        pairs = inputs * (inputs - 1) // 2
        expected = PolynomialFeatures(2, interaction_only=True, include_bias=False).fit_transform(x)[:, inputs:]
        got = _call(student, "pair_products", x)
        if not np.array_equal(x, saved):
            raise CheckFailed("pair_products changed the array it was given; work on a copy.")
        where = f"pair_products of {inputs} columns"
        try:
            array = np.asarray(got, dtype=float)
        except (TypeError, ValueError):
            array = None
        if array is not None and array.shape != (points, pairs):
            columns = range(inputs)
            mistakes = [
                (np.column_stack([x, expected]),
                 "the inputs themselves are in it; return only the products."),
                (np.column_stack([x[:, i] * x[:, j] for i in columns for j in columns if i <= j]),
                 "the squares x_i·x_i are in it; pair each column only with the columns after it (i < j)."),
                (np.column_stack([x[:, i] * x[:, j] for i in columns for j in columns if i != j]),
                 "each pair is in it twice (x_i·x_j and x_j·x_i); keep only i < j."),
                (np.column_stack([x[:, i] * x[:, j] for i in columns for j in columns]),
                 "that is every ordered pair, the squares included; keep only i < j."),
                (expected.T, "one row per point and one column per pair, not the other way round."),
            ]
            for wrong, hint in mistakes:
                if wrong.shape == array.shape and np.allclose(array, wrong, rtol=1e-10, atol=1e-12):
                    raise CheckFailed(f"{where} should have shape ({points}, {pairs}); found shape {array.shape}: "
                                      f"{hint}")
        got = _as_array(got, "pair_products", (points, pairs))
        if np.allclose(got, expected, rtol=1e-10, atol=1e-12):
            continue
        if np.allclose(np.sort(got, axis=1), np.sort(expected, axis=1), rtol=1e-10, atol=1e-12):
            raise CheckFailed(f"{where}: the products are right but their columns are in another order; go "
                              "through the first column i, then j = i + 1, …, N − 1: (0, 1), (0, 2), …, (1, 2), ….")
        raise CheckFailed(f"{where}: the values are wrong; column k should be x[:, i] * x[:, j] for the k-th pair "
                          "i < j in the order (0, 1), (0, 2), …, (1, 2), ….")
    print("Correct: your products match scikit-learn's PolynomialFeatures(interaction_only=True) for 2, 3, 5 and "
          "8 columns.")


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


@graded
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
