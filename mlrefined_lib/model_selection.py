"""Judging a model on data it was not fitted to (chapters 4 and 5).

Chapter 4, learning curves and early stopping:

* :func:`learning_curve` fits a model on the first m training points for
  several m and scores it on those m points and on a fixed validation set;
* :func:`early_stopping` runs mini-batch gradient descent, scores the
  validation cost after every epoch and returns the weights of the best
  epoch, not the last.

Chapter 5 lives in :mod:`mlrefined_lib.cross_validation` (folds, scores,
tuning) and :mod:`mlrefined_lib.comparison` (tests of one model against
another).
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._validation import as_inputs, as_outputs, check_scalar
from .optimizers import DivergenceWarning

__all__ = [
    "LearningCurve",
    "learning_curve",
    "EarlyStoppingResult",
    "early_stopping",
]


# ---------------------------------------------------------------- learning curves


@dataclass
class LearningCurve:
    """Training and validation error against the training-set size.

    Attributes
    ----------
    sizes : int array of shape (S,)
        Numbers of training points used.
    train_errors : array of shape (S,)
        Error of each fitted model on the points it was fitted to.
    validation_errors : array of shape (S,)
        Error of the same model on the whole validation set.
    """

    sizes: np.ndarray
    train_errors: np.ndarray
    validation_errors: np.ndarray

    @property
    def gaps(self) -> np.ndarray:
        """Validation error minus training error, one per size."""
        return self.validation_errors - self.train_errors

    def __repr__(self) -> str:
        return (
            f"LearningCurve(sizes {self.sizes[0]}..{self.sizes[-1]} ({len(self.sizes)} values), "
            f"final train error={self.train_errors[-1]:.4g}, final validation error={self.validation_errors[-1]:.4g})"
        )


def _check_split(x_train, y_train, x_val, y_val):
    x_train = as_inputs(x_train, "x_train")
    y_train = as_outputs(y_train, x_train.shape[0], x_train.shape, "y_train")
    x_val = as_inputs(x_val, "x_val")
    if x_val.shape[1] != x_train.shape[1]:
        raise ValueError(
            f"the validation set must have the training set's N = {x_train.shape[1]} feature column(s); "
            f"x_val has shape {x_val.shape} ({x_val.shape[1]} column(s)). Transform both sets the same way."
        )
    y_val = as_outputs(y_val, x_val.shape[0], x_val.shape, "y_val")
    return x_train, y_train, x_val, y_val


def learning_curve(fit: Callable, error: Callable, x_train, y_train, x_val, y_val, sizes) -> LearningCurve:
    """Training and validation error of a model fitted on growing training sets (chapter 4).

    For each ``m`` in ``sizes`` it calls ``model = fit(x_train[:m], y_train[:m])``
    and records ``error(model, x_train[:m], y_train[:m])`` and
    ``error(model, x_val, y_val)``. The first ``m`` points are used, so shuffle
    the training set first if its order means anything. ``fit`` and ``error``
    can be anything consistent: weights and a mean squared error, a
    scikit-learn estimator and a misclassification rate, ...

    Reading the curves: an underfitting model has both errors high and close
    together, and more data does not help; an overfitting model has a low
    training error and a gap to the validation error that more data narrows.

    Parameters
    ----------
    fit : callable
        ``fit(x, y) -> model``; must not modify its arguments.
    error : callable
        ``error(model, x, y) -> float``.
    x_train : array of shape (P, N)
    y_train : array of shape (P,)
    x_val : array of shape (V, N)
    y_val : array of shape (V,)
    sizes : sequence of int
        Training-set sizes, each in ``1 … P``, increasing.

    Returns
    -------
    LearningCurve

    Raises
    ------
    ValueError
        Shapes that disagree (the validation set must have the training set's
        N columns), or sizes outside ``1 … P`` or not increasing.
    """
    if not callable(fit) or not callable(error):
        raise ValueError(
            f"fit and error must be functions; found {type(fit).__name__} and {type(error).__name__}."
        )
    x_train, y_train, x_val, y_val = _check_split(x_train, y_train, x_val, y_val)
    points = x_train.shape[0]
    raw = np.asarray(sizes)
    if raw.ndim != 1 or raw.size == 0 or not np.issubdtype(raw.dtype, np.integer):
        raise ValueError(f"sizes must be a non-empty 1-D sequence of integers; found {sizes!r}.")
    sizes = raw.astype(int)
    if sizes.min() < 1 or sizes.max() > points:
        raise ValueError(f"every size must be between 1 and the P = {points} training points; found {sizes.tolist()}.")
    if np.any(np.diff(sizes) <= 0):
        raise ValueError(f"sizes must be strictly increasing; found {sizes.tolist()}.")
    train_errors, validation_errors = [], []
    for m in sizes:
        x_m, y_m = x_train[:m].copy(), y_train[:m].copy()
        model = fit(x_m, y_m)
        train_errors.append(float(error(model, x_m, y_m)))
        validation_errors.append(float(error(model, x_val.copy(), y_val.copy())))
    return LearningCurve(sizes, np.array(train_errors), np.array(validation_errors))


# ---------------------------------------------------------------- early stopping


@dataclass
class EarlyStoppingResult:
    """What :func:`early_stopping` did, epoch by epoch.

    Attributes
    ----------
    weights : array of shape (E+1,) + w.shape
        ``weights[0]`` is the start, ``weights[e]`` the weights after epoch e.
    train_costs, validation_costs : arrays of shape (E+1,)
        Training cost (on all training points) and validation cost after each epoch.
    best_epoch : int
        The epoch with the lowest validation cost (the first of equals).
    stop_reason : str
        ``"max_epochs"``, ``"patience"`` (more than ``patience`` epochs in a
        row without a new best) or ``"diverged"``.
    """

    weights: np.ndarray
    train_costs: np.ndarray
    validation_costs: np.ndarray
    best_epoch: int
    stop_reason: str

    @property
    def best_weights(self) -> np.ndarray:
        """The weights of the best epoch: what early stopping returns."""
        return self.weights[self.best_epoch]

    @property
    def final_weights(self) -> np.ndarray:
        """The weights after the last epoch run (usually *not* the ones to keep)."""
        return self.weights[-1]

    @property
    def epochs(self) -> int:
        """Number of epochs run."""
        return len(self.train_costs) - 1

    @property
    def first_rise(self) -> int | None:
        """The first epoch whose validation cost is above the previous epoch's (None if it never rises)."""
        rises = np.flatnonzero(np.diff(self.validation_costs) > 0)
        return int(rises[0]) + 1 if rises.size else None

    def __repr__(self) -> str:
        return (
            f"EarlyStoppingResult(epochs={self.epochs}, best_epoch={self.best_epoch}, "
            f"best validation cost={self.validation_costs[self.best_epoch]:.6g}, stop_reason={self.stop_reason!r})"
        )


def _check_cost(g, name: str) -> None:
    if not all(callable(getattr(g, attribute, None)) for attribute in ("rows", "gradient")):
        raise ValueError(
            f"{name} must be a cost object of mlrefined_lib.costs (with .rows and .gradient), such as "
            f"ml.least_squares(x, y); found {type(g).__name__}."
        )


def early_stopping(
    g_train,
    g_val,
    w0,
    alpha: float,
    max_epochs: int,
    batch_size: int,
    *,
    patience: int | None = None,
    seed: int = 0,
) -> EarlyStoppingResult:
    """Mini-batch gradient descent that keeps the weights of the best validation epoch (chapter 4).

    Each epoch shuffles the training points with
    ``numpy.random.default_rng(seed)`` (one permutation per epoch, so a run is
    reproducible), cuts them into consecutive batches of ``batch_size`` (the
    last may be smaller) and takes one step ``w ← w − α ∇g_batch(w)`` per
    batch. After each epoch it records the training cost on all training
    points and the validation cost ``g_val(w)``. With ``batch_size = P`` it is
    plain (batch) gradient descent, one step per epoch.

    It stops after ``max_epochs`` epochs, or, when ``patience`` is given, at
    the first epoch that makes ``patience + 1`` epochs in a row without a new
    best validation cost (it tolerates ``patience`` such epochs). Either way
    it returns the weights of the best epoch in
    :attr:`EarlyStoppingResult.best_weights`. ``patience=0`` stops at the first
    epoch that does not improve, which is usually too early (chapter 4 shows
    why).

    Parameters
    ----------
    g_train, g_val : Cost
        The same kind of cost (:mod:`mlrefined_lib.costs`) on the training and
        on the validation set; their weight shapes must agree.
    w0 : array
        Starting weights, shape ``g_train.weight_shape`` (not modified).
    alpha : float > 0
        Fixed step length.
    max_epochs : int >= 1
    batch_size : int, 1 … P
    patience : int >= 0 or None
        Epochs without a new best validation cost that are tolerated; the
        next one stops the run. None runs all ``max_epochs``.
    seed : int
        Seed of the shuffles.

    Returns
    -------
    EarlyStoppingResult

    Raises
    ------
    ValueError
        When the validation set has a different number of features from the
        training set, or an argument is out of range.

    Warns
    -----
    DivergenceWarning
        When the weights or the costs stop being finite; the run stops and
        keeps the epochs before.
    """
    _check_cost(g_train, "g_train")
    _check_cost(g_val, "g_val")
    if tuple(g_val.weight_shape) != tuple(g_train.weight_shape):
        raise ValueError(
            f"the validation set does not match the training set: g_train has N = {g_train.num_features} "
            f"feature(s) (weights of shape {tuple(g_train.weight_shape)}) but g_val has N = {g_val.num_features} "
            f"(weights of shape {tuple(g_val.weight_shape)}). Build both from features made the same way."
        )
    alpha = check_scalar(alpha, "alpha", numbers.Real, min_val=0, include_boundaries="neither")
    max_epochs = check_scalar(max_epochs, "max_epochs", numbers.Integral, min_val=1)
    points = g_train.num_points
    batch_size = check_scalar(batch_size, "batch_size", numbers.Integral, min_val=1)
    if batch_size > points:
        raise ValueError(f"batch_size must be at most the number of training points P = {points}; found {batch_size}.")
    # patience = 0 stops at the first epoch that does not improve; None never stops early.
    patience = check_scalar(patience, "patience", numbers.Integral, min_val=0, allow_none=True)
    w = np.array(w0, dtype=float)                 # a copy: w0 is never modified
    g_train._check(w)
    if not np.all(np.isfinite(w)):
        raise ValueError("w0 contains NaN or inf values.")

    rng = np.random.default_rng(seed)
    weights, train_costs, validation_costs = [w.copy()], [float(g_train(w))], [float(g_val(w))]
    best_epoch, since_best, stop_reason = 0, 0, "max_epochs"
    for epoch in range(1, max_epochs + 1):
        order = rng.permutation(points)
        with np.errstate(over="ignore", invalid="ignore"):
            for start in range(0, points, batch_size):
                w = w - alpha * g_train.rows(order[start:start + batch_size]).gradient(w)
            costs = (float(g_train(w)), float(g_val(w))) if np.all(np.isfinite(w)) else (np.inf, np.inf)
        if not np.all(np.isfinite(costs)):
            warnings.warn(
                f"early_stopping diverged in epoch {epoch}: the weights or costs stopped being finite. Kept the "
                f"first {epoch} weights; try a smaller alpha or normalized features (chapter 7).",
                DivergenceWarning,
                stacklevel=2,
            )
            stop_reason = "diverged"
            break
        weights.append(w.copy())
        train_costs.append(costs[0])
        validation_costs.append(costs[1])
        if costs[1] < validation_costs[best_epoch]:
            best_epoch, since_best = epoch, 0
        else:
            since_best += 1
        if patience is not None and since_best > patience:
            stop_reason = "patience"
            break
    return EarlyStoppingResult(np.array(weights), np.array(train_costs), np.array(validation_costs), best_epoch,
                               stop_reason)
