"""Feature selection by boosting (forward stage-wise selection), taught in chapter 10.

Boosting builds a linear model one feature at a time. Round 0 fits the bias
alone. Every later round tries each feature not used yet, with a single new
weight added on top of the current model (all earlier weights stay fixed),
and keeps the feature whose best weight gives the lowest cost. Each of these
one-weight problems is solved exactly: in closed form for least squares, by
a one-dimensional Newton iteration for the two-class softmax cost.

Conventions as in :mod:`mlrefined_lib.costs`: ``x`` has shape ``(P, N)``,
``y`` shape ``(P,)``, costs are means over the P points, softmax labels are
-1/+1 and are never changed.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._validation import as_inputs, as_outputs, check_choice, check_labels, check_scalar
from .cross_validation import _check_callables, _check_fit_for, _search, k_fold
from .guards import check_natural_ends, edge_message, warn_method

__all__ = ["BoostResult", "boost", "BOOST_COSTS", "tuned_fit", "TUNING_RULES"]

#: The rules :func:`tuned_fit` can choose a parameter by.
TUNING_RULES = ("one_standard_error", "best")

#: The cost names :func:`boost` accepts.
BOOST_COSTS = ("least_squares", "softmax")

# One-weight softmax problems: Newton stops when the step is this small
# relative to the weight, or after _NEWTON_MAX_ITS steps.
_NEWTON_TOL = 1e-12
_NEWTON_MAX_ITS = 100


@dataclass(frozen=True)
class BoostResult:
    """What :func:`boost` returns (chapter 10).

    Attributes
    ----------
    order : array of int, shape (R,)
        0-based indices of the features, in the order the rounds chose them.
    costs : array of shape (R+1,)
        The mean cost after each round; ``costs[0]`` is the bias-only model.
    weights : array of shape (R+1,)
        ``weights[0]`` is the bias, ``weights[m]`` the weight of feature
        ``order[m-1]``.
    cost : str
        ``"least_squares"`` or ``"softmax"``.
    num_features : int
        N, the number of columns of the ``x`` the result was fitted on.
    """

    order: np.ndarray
    costs: np.ndarray
    weights: np.ndarray
    cost: str
    num_features: int

    @property
    def rounds(self) -> int:
        """R, the number of rounds after the bias-only round 0."""
        return len(self.order)

    def _rounds(self, rounds: int | None) -> int:
        if rounds is None:
            return self.rounds
        return check_scalar(rounds, "rounds", numbers.Integral, min_val=0, max_val=self.rounds)

    def full_weights(self, rounds: int | None = None) -> np.ndarray:
        """The model after ``rounds`` rounds as an ordinary weight vector.

        Returns
        -------
        array of shape (N+1,)
            Bias first, then one weight per feature; features not chosen in
            the first ``rounds`` rounds get weight 0. Pass it to any cost of
            :mod:`mlrefined_lib.costs` or to :func:`mlrefined_lib.costs.model`.
        """
        rounds = self._rounds(rounds)
        w = np.zeros(self.num_features + 1)
        w[0] = self.weights[0]
        w[1 + self.order[:rounds]] = self.weights[1 : rounds + 1]
        return w

    def model(self, x, rounds: int | None = None) -> np.ndarray:
        """Evaluate the boosted model after ``rounds`` rounds (default: all) at ``x``.

        Parameters
        ----------
        x : array of shape (Q, N)

        Returns
        -------
        array of shape (Q,)
            ``w[0] + x @ w[1:]`` with ``w = full_weights(rounds)``; for the
            softmax cost its sign is the predicted label.
        """
        x = as_inputs(x)
        if x.shape[1] != self.num_features:
            raise ValueError(f"the result was fitted on {self.num_features} feature(s) but x has shape {x.shape}.")
        w = self.full_weights(rounds)
        return w[0] + x @ w[1:]

    def predict(self, x, rounds: int | None = None) -> np.ndarray:
        """Predictions: the model's value (least squares) or labels ±1 (softmax)."""
        values = self.model(x, rounds)
        if self.cost == "softmax":
            return np.where(values > 0, 1.0, -1.0)
        return values


def _check_rounds(rounds, num_features: int) -> int:
    rounds = check_scalar(rounds, "rounds", numbers.Integral, min_val=0)  # 0 rounds: the bias-only model
    if rounds > num_features:
        raise ValueError(
            f"rounds = {rounds} but x has only {num_features} feature(s): each round adds one new "
            f"feature, so rounds can be at most {num_features}."
        )
    return int(rounds)


def _softmax_costs(margins: np.ndarray) -> np.ndarray:
    """Mean of log(1 + exp(−margin)) down each column."""
    return np.logaddexp(0.0, -margins).mean(axis=0)


def _sigmoid(t):
    """Logistic function 1/(1 + e^(−t)), keeping tiny values (no underflow to 0 before e^(−745))."""
    return np.exp(-np.logaddexp(0.0, -t))


def _newton_one_weight(offset: np.ndarray, columns: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Best single weight v for each column of ``columns`` under the softmax cost.

    Minimizes ``(1/P) Σ_p log(1 + exp(−y_p (offset_p + v c_p)))`` for every
    column c at once by Newton's method with step halving (the cost is convex
    in v, so a halved step always decreases it eventually).

    Returns
    -------
    weights, costs : arrays of shape (K,)
    """
    yc = y[:, None] * columns                 # y_p c_p, shape (P, K)
    base = (y * offset)[:, None]              # y_p offset_p
    v = np.zeros(columns.shape[1])
    costs = _softmax_costs(base + yc * v)
    active = np.ones(v.size, dtype=bool)
    for _ in range(_NEWTON_MAX_ITS):
        if not active.any():
            break
        margins = base + yc[:, active] * v[active]
        s = _sigmoid(-margins)                # derivative of log(1+e^{-t}) is -sigmoid(-t)
        gradient = -(yc[:, active] * s).mean(axis=0)
        curvature = (yc[:, active] ** 2 * s * _sigmoid(margins)).mean(axis=0)
        step = np.where(curvature > 0, gradient / np.where(curvature > 0, curvature, 1.0), 0.0)
        index = np.flatnonzero(active)
        new_v = v[active] - step
        new_costs = _softmax_costs(base + yc[:, active] * new_v)
        for _ in range(60):                   # halve the step where the cost went up
            worse = new_costs > costs[active] + 1e-15 * np.abs(costs[active])
            if not worse.any():
                break
            step = np.where(worse, step / 2, step)
            new_v = v[active] - step
            new_costs[worse] = _softmax_costs(base + yc[:, index[worse]] * new_v[worse])
        v[active], costs[active] = new_v, new_costs
        done = np.abs(step) <= _NEWTON_TOL * (1.0 + np.abs(new_v))
        active[index[done]] = False
    if active.any():
        warnings.warn(
            f"the one-weight softmax problem for feature(s) {np.flatnonzero(active).tolist()[:5]} did not "
            f"converge in {_NEWTON_MAX_ITS} Newton steps; the classes may be separable along them, so the "
            "best weight is infinite. The weight found is large and the cost close to its limit.",
            RuntimeWarning,
            stacklevel=3,
        )
    return v, costs


def boost(x, y, rounds: int, cost: str = "least_squares") -> BoostResult:
    """Forward stage-wise feature selection ("boosting"), taught in chapter 10.

    Round 0 fits the bias alone: the mean of ``y`` for least squares,
    ``log(P₊/P₋)`` for the softmax cost. Round m = 1, ..., R tries every
    feature not chosen yet with one new weight on top of the current model,
    all earlier weights held fixed, solves that one-weight problem exactly,
    and keeps the feature with the lowest cost.

    For least squares the best weight for a column c and the current residual
    ``r = y − model`` is ``cᵀr / cᵀc``, and the cost drops by
    ``(cᵀr)² / (P cᵀc)``: each round picks the feature that best explains the
    residual. For the softmax cost each one-weight problem is solved by a
    one-dimensional Newton iteration (with step halving) to convergence.

    Parameters
    ----------
    x : array of shape (P, N)
        Inputs. Standardize them first (chapter 7) so that the weights are
        comparable and no feature is favoured for its offset; ``boost`` does
        not do it for you.
    y : array of shape (P,)
        Outputs; for ``cost="softmax"`` labels -1/+1 (used as given, never
        changed).
    rounds : int
        R, the number of features to add, from 0 to N.
    cost : {"least_squares", "softmax"}
        The mean cost of :mod:`mlrefined_lib.costs` to minimize.

    Returns
    -------
    BoostResult
        ``.order`` (R,) chosen feature indices, ``.costs`` (R+1,) mean cost
        after each round (bias only first), ``.weights`` (R+1,) the bias and
        then one weight per chosen feature in ``.order`` order; also
        ``.full_weights(m)``, ``.model(x, m)`` and ``.predict(x, m)``.

    Raises
    ------
    ValueError
        Before any work, for an unknown cost name (the message lists the
        valid ones), wrong shapes, NaN or inf in ``x`` or ``y``, ``rounds``
        outside 0..N, softmax labels other than -1/+1 or only one class.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(50, 4))
    >>> y = 1.0 + 3.0 * x[:, 2] - x[:, 0]
    >>> boost(x, y, rounds=2).order.tolist()
    [2, 0]
    """
    check_choice(cost, BOOST_COSTS, "cost")
    x = as_inputs(x)
    y = as_outputs(y, x.shape[0], x.shape)
    num_points, num_features = x.shape
    rounds = _check_rounds(rounds, num_features)
    if cost == "softmax":
        check_labels(y, (-1.0, 1.0), "softmax")
        positives = int(np.count_nonzero(y > 0))
        if positives in (0, num_points):
            raise ValueError(
                "softmax boosting needs both labels -1 and +1 in y; found only "
                f"{'+1' if positives else '-1'}, so even the bias alone has no finite best value."
            )

    if cost == "least_squares":
        bias = float(y.mean())
        residual = y - bias
        costs = [float(np.mean(residual**2))]
        squared_norms = np.einsum("pn,pn->n", x, x)
    else:
        bias = float(np.log(positives / (num_points - positives)))
        offset = np.full(num_points, bias)
        costs = [float(np.mean(np.logaddexp(0.0, -y * offset)))]

    unused = list(range(num_features))
    order, weights = [], [bias]
    for _ in range(rounds):
        columns = x[:, unused]
        if cost == "least_squares":
            norms = squared_norms[unused]
            inner = columns.T @ residual
            safe = np.where(norms > 0, norms, 1.0)
            candidate_weights = np.where(norms > 0, inner / safe, 0.0)
            candidate_costs = costs[-1] - np.where(norms > 0, inner**2 / safe, 0.0) / num_points
        else:
            candidate_weights, candidate_costs = _newton_one_weight(offset, columns, y)
        best = int(np.argmin(candidate_costs))
        feature, weight = unused.pop(best), float(candidate_weights[best])
        order.append(feature)
        weights.append(weight)
        if cost == "least_squares":
            residual = residual - weight * x[:, feature]
            costs.append(float(np.mean(residual**2)))   # recomputed, not accumulated: no drift
        else:
            offset = offset + weight * x[:, feature]
            costs.append(float(np.mean(np.logaddexp(0.0, -y * offset))))
    return BoostResult(
        order=np.array(order, dtype=int),
        costs=np.array(costs),
        weights=np.array(weights),
        cost=cost,
        num_features=num_features,
    )


def tuned_fit(fit_for: Callable, error: Callable, params, *, k: int = 5, seed: int | None = 0,
              rule: str = "one_standard_error", natural_ends: str = "none") -> Callable:
    """A fit that tunes its own parameter on the rows it is given (nested cross-validation; chapters 10 and 11).

    The returned ``fit(x, y)`` runs :func:`~mlrefined_lib.cross_validation.grid_search`
    of ``fit_for`` over ``params`` on ``k`` folds of exactly the rows it
    receives (``k_fold(len(y), k, seed=seed)``), takes the parameter that
    ``rule`` names and returns ``fit_for(param)(x, y)``, the model refitted
    on all those rows. Handed to :func:`~mlrefined_lib.comparison.paired_comparison`
    or :func:`~mlrefined_lib.cross_validation.cross_validate`, every outer
    fold therefore tunes on its training rows alone, and its validation rows
    judge the whole procedure, tuning included.

    Parameters
    ----------
    fit_for : callable
        ``fit_for(param) -> fit``, where ``fit(x, y) -> model``.
    error : callable
        ``error(model, x, y) -> float``; lower is better.
    params : sequence
        Parameter values, simplest first (as for ``grid_search``).
    k : int
        Number of inner folds, at least 2.
    seed : int or None
        Seed of the inner folds (``None``: contiguous blocks).
    rule : {"one_standard_error", "best"}
        The simplest parameter within one standard error of the lowest mean,
        or the parameter with the lowest mean.
    natural_ends : {"none", "first", "last", "both"}
        Which ends of ``params`` are the parameter's own limits (as for
        ``grid_search``): ``"both"`` for all boosting rounds ``range(N + 1)``.

    Returns
    -------
    callable
        ``fit(x, y) -> model``. Its attribute ``chosen`` lists the parameter
        chosen at each call, in order.

    Raises
    ------
    ValueError
        Before any fitting: when ``fit_for`` or ``error`` is not callable,
        ``params`` is empty or not a sequence, ``k`` is not an integer of at
        least 2, or ``rule`` is unknown. At a call, as ``grid_search`` and
        ``k_fold`` (e.g. fewer rows than inner folds).

    Warns
    -----
    MethodWarning
        At a call, when ``rule`` chooses an open end of a grid of numbers.
    """
    _check_callables(error=error)
    params, _ = _check_fit_for(fit_for, params)
    k = check_scalar(k, "k", numbers.Integral, min_val=2)
    check_choice(rule, TUNING_RULES, "rule")
    check_natural_ends(natural_ends)
    if seed is not None:
        seed = check_scalar(seed, "seed", numbers.Integral, min_val=0)
    chosen = []

    def fit(x, y):
        x = as_inputs(x, "x")
        y = as_outputs(y, x.shape[0], x.shape, "y")
        folds = k_fold(len(y), k, seed=seed)
        search = _search(params, [fit_for(param) for param in params], error, x, y, folds)
        index = search.one_standard_error_index if rule == "one_standard_error" else search.best_index
        param = params[index]
        message = edge_message(params, index, "the " + rule.replace("_", "-").replace("best", "lowest-mean")
                               + " choice", natural_ends)
        if message:
            warn_method(f"tuned on {len(y)} rows, {message}")
        chosen.append(param)
        return fit_for(param)(x, y)

    fit.chosen = chosen
    return fit
