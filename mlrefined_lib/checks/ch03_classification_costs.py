"""Chapter 3, costs for classification: the checks of its exercises."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from ._grading import CheckFailed, graded
from ._reference import _as_array, _call, _explain_wrong_gradient, _finite_difference_gradient

__all__ = ["check_cross_entropy_gradient", "check_input_at_probability", "check_multilabel_log_loss"]


def _logistic(t):
    t = np.asarray(t, dtype=float)
    e = np.exp(-np.abs(t))
    return np.where(t >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _mean_log_loss(x_ext: np.ndarray, y01: np.ndarray, w: np.ndarray) -> float:
    margins = x_ext @ w
    return float(np.mean(np.logaddexp(0.0, margins) - y01 * margins))


@graded(forbids=('cross_entropy', 'softmax'), rule='NumPy only')
def check_cross_entropy_gradient(student: Callable) -> None:
    """Check ``student(x, y, w)``, the gradient of the mean cross-entropy for 0/1 labels (chapter 3).

    The reference is a central finite difference of the cost
    ``(1/P) Σ −[y_p log sig(m_p) + (1 − y_p) log(1 − sig(m_p))]``, ``m_p = w[0] + x_p @ w[1:]``,
    written here independently of the library's cost. Typical mistakes
    (±1-label formulas on 0/1 labels, a sum instead of a mean, a flipped
    sign, a missing sig, a missing bias) get a message that names them.
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
        (-expected, "it has the wrong sign: the gradient is (1/P) X̃ᵀ(sig(m) − y), prediction minus label."),
        (expected * points, "it is P times too large: the cost is a mean over the points, so divide by P."),
        (-expected * points, "it has the wrong sign and is P times too large: use (sig(m) − y) and divide by P."),
        (-x_ext.T @ (y * _logistic(-y * m)) / points,
         "that is the two-class softmax gradient, which expects labels ±1, applied to 0/1 labels: with 0/1 "
         "labels use (1/P) X̃ᵀ(sig(m) − y), or map the labels with 2y − 1 first."),
        (x_ext.T @ (_logistic(m) - y_pm) / points,
         "you used labels ±1 in the formula for 0/1 labels: with (sig(m) − y) the labels must be 0 and 1."),
        (x_ext.T @ (m - y) / points, "you used the model m itself instead of the probability sig(m): apply the "
                                     "logistic function to the model first."),
        (x_ext.T @ (_logistic(m) - y) / points * 2, "it is twice too large: unlike least squares there is no factor 2."),
    ]
    _explain_wrong_gradient(got, expected, hints, "its entry is the mean of (sig(m_p) − y_p) over the points.",
                            "(1/P) X̃ᵀ(sig(X̃w) − y)")


@graded
def check_input_at_probability(student: Callable) -> None:
    """Check ``student(w, p)``: the input where a one-feature logistic model gives probability p (chapter 3).

    For weights ``w = (w0, w1)`` with ``w1 ≠ 0`` the model's probability of
    class 1 is ``sig(w0 + w1 x)``; it equals ``p`` at ``x = (log(p / (1 − p)) − w0) / w1``.
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
        where = f"for w = ({w0:g}, {w1:g}) and p = {p:g} you returned {got:.6g}, but sig(w0 + w1·x) = p at x = {expected:.6g}"
        hints = [
            ((logit + w0) / w1, "the sign is flipped: solve w0 + w1·x = log(p / (1 − p)) for x; at p = 0.5 "
                                "that gives the boundary x = −w0 / w1."),
            (-w1 / w0, "w0 and w1 are swapped: solve w0 + w1·x = 0 for x."),
            ((p - w0) / w1, "you set the model equal to p; set sig(model) equal to p, that is the model equal to "
                            "log(p / (1 − p))."),
            ((-logit - w0) / w1, "the log-odds have the wrong sign: sig(m) = p at m = log(p / (1 − p))."),
            (-w0 / w1, "that is the p = 0.5 boundary; for other p the model must equal log(p / (1 − p))."),
        ]
        for wrong, hint in hints:
            if abs(got - wrong) <= 1e-8 * max(1.0, abs(wrong)):
                raise CheckFailed(f"{where}: {hint}")
        raise CheckFailed(f"{where}. Solve w0 + w1·x = log(p / (1 − p)) for x.")
    print("Correct: your inputs give exactly the asked-for probabilities, for both signs of the slope.")


@graded(forbids=("cross_entropy", "softmax", "multiclass_softmax"), rule="NumPy only")
def check_multilabel_log_loss(student: Callable) -> None:
    """Check ``student(x, Y, W) -> float`` (chapter 3).

    ``x`` has shape (P, N), ``Y`` holds L labels 0/1 per point (shape (P, L),
    a point may carry several) and ``W`` one weight column per label (shape
    (N + 1, L)). The cost is the sum over labels of each label's mean log
    loss: one logistic model per label. The reference adds the mean log
    losses of the L columns, each computed on its own.
    """
    rng = np.random.default_rng(33)
    for num_points, num_labels in [(23, 3), (17, 2)]:
        x = rng.normal(size=(num_points, 4)) * np.array([1.0, 3.0, 0.5, 2.0])
        big_y = (rng.random((num_points, num_labels)) < 0.5).astype(float)
        big_y[0] = 1.0                                              # a point carrying every label
        big_y[1] = 0.0                                              # and one carrying none
        big_w = rng.normal(size=(5, num_labels))
        saved = (x.copy(), big_y.copy(), big_w.copy())
        got = _call(student, "multilabel_log_loss", x, big_y, big_w)
        if not all(np.array_equal(a, b) for a, b in zip((x, big_y, big_w), saved)):
            raise CheckFailed("multilabel_log_loss changed the arrays it was given: only read them.")
        try:
            value = float(np.asarray(got, dtype=float))
        except (TypeError, ValueError):
            raise CheckFailed("multilabel_log_loss should return one number, the cost; found "
                              f"{type(got).__name__} (of shape {np.shape(got)}).") from None
        x_ext = np.column_stack([np.ones(num_points), x])
        per_label = np.array([_mean_log_loss(x_ext, big_y[:, n], big_w[:, n]) for n in range(num_labels)])
        expected = per_label.sum()
        if np.isclose(value, expected, rtol=1e-8, atol=1e-12):
            continue
        scores = x_ext @ big_w
        shifted = scores - scores.max(axis=1, keepdims=True)
        log_shares = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        hints = [
            (per_label.mean(), "you average the labels' costs; add them (one logistic model per label, each "
                               "with its own mean log loss)."),
            (expected * num_points, "you sum over the points; take each label's mean over the points."),
            (-(big_y * log_shares).sum(axis=1).mean(), "you put the labels' scores through a softmax, which makes "
             "them compete; the labels are not exclusive, so give each its own logistic function."),
            (sum(_mean_log_loss(x, big_y[:, n], big_w[1:, n]) for n in range(num_labels)),
             "your scores have no bias: put a column of ones in front of x (W[0] holds the biases)."),
            (sum(_mean_log_loss(x_ext, 1 - big_y[:, n], big_w[:, n]) for n in range(num_labels)),
             "you have the labels the wrong way round: a label 1 should be charged -log sig(m)."),
        ]
        for wrong, hint in hints:
            if np.isclose(value, wrong, rtol=1e-8, atol=1e-12):
                raise CheckFailed(f"multilabel_log_loss is not right: {hint}")
        raise CheckFailed("multilabel_log_loss is not the sum over labels of each label's mean log loss. For label "
                          "n, score every point with the column W[:, n], charge -log sig(m) to a label 1 and "
                          "-log(1 - sig(m)) to a label 0, and average over the points; then add the labels.")
    print("Correct: your cost matches the reference on two label sets, and the inputs are unchanged.")
