"""Gradient descent, mini-batch gradient descent and Newton's method (chapters 1 and 2).

Each returns a :class:`History`: every weight visited and its cost, so the
notebooks can plot paths and cost curves without re-running anything. The
mini-batch optimizer returns a :class:`MinibatchHistory`, which also records
every step, and takes learning-rate schedules (:func:`learning_schedule`).
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import autograd
import numpy as np

from ._validation import check_choice, check_scalar
from .costs import Cost

__all__ = [
    "History",
    "MinibatchHistory",
    "SCHEDULES",
    "gradient_descent",
    "learning_schedule",
    "minibatch_gradient_descent",
    "newtons_method",
    "DivergenceWarning",
]

ALPHA_RULES = ("diminishing",)


class DivergenceWarning(RuntimeWarning):
    """Issued when a run stops because the cost stopped being finite."""


def _check_warn(warn) -> None:
    if not isinstance(warn, (bool, np.bool_)):
        raise TypeError(f"warn must be True or False; found {warn!r} of type {type(warn).__name__}.")


@dataclass
class History:
    """What an optimizer did, step by step.

    Attributes
    ----------
    weights : array of shape ``(K+1,) + w.shape``
        ``weights[0]`` is the start, ``weights[k]`` the weights after step k.
    costs : array of shape (K+1,)
        ``costs[k] = g(weights[k])``.
    gradient_norms : array of shape (K+1,)
        Euclidean norm of the gradient at each weight (for stopping rules).
    alphas : array of shape (K,)
        The step length used at each step (empty for Newton's method).
    stop_reason : str
        ``"max_its"``, ``"tolerance"`` (gradient norm fell below ``tol``) or
        ``"diverged"`` (a step gave a non-finite cost; that step is not kept).
    """

    weights: np.ndarray
    costs: np.ndarray
    gradient_norms: np.ndarray
    alphas: np.ndarray = field(default_factory=lambda: np.zeros(0))
    stop_reason: str = "max_its"

    @property
    def best_weights(self) -> np.ndarray:
        """The weights with the lowest cost seen."""
        return self.weights[int(np.argmin(self.costs))]

    @property
    def final_weights(self) -> np.ndarray:
        """The last weights kept."""
        return self.weights[-1]

    @property
    def steps(self) -> int:
        """Number of steps taken (kept)."""
        return len(self.costs) - 1

    def __repr__(self) -> str:
        return (
            f"History(steps={self.steps}, first cost={self.costs[0]:.6g}, "
            f"final cost={self.costs[-1]:.6g}, stop_reason={self.stop_reason!r})"
        )


def _gradient_function(g: Callable, gradient: Callable | None) -> Callable:
    if gradient is not None:
        return gradient
    analytic = getattr(g, "gradient", None)
    if callable(analytic):
        return analytic
    return autograd.grad(g)


def _check_start(w0) -> np.ndarray:
    w = np.array(w0, dtype=float)  # a copy: the caller's array is never changed
    if w.ndim == 0 or w.size == 0:
        raise ValueError(f"w0 must be a non-empty array of weights; found {w0!r}.")
    if not np.all(np.isfinite(w)):
        raise ValueError(f"w0 must be finite; found {w0!r}.")
    return w


def _check_its(max_its) -> int:
    """max_its >= 0: zero steps is a valid run whose history holds the start alone (bools refused)."""
    return check_scalar(max_its, "max_its", numbers.Integral, min_val=0)


def _norm(v: np.ndarray) -> float:
    """Euclidean norm; inf (not a warning) when it overflows."""
    with np.errstate(over="ignore", invalid="ignore"):
        return float(np.linalg.norm(v))


def _finite_cost(g: Callable, w: np.ndarray) -> float:
    with np.errstate(over="ignore", invalid="ignore"):
        value = float(g(w))
    return value


def _cost_and_gradient(g, w: np.ndarray) -> tuple[float, np.ndarray]:
    """``(g(w), ∇g(w))`` without overflow warnings; one product with the data for the library's costs."""
    with np.errstate(over="ignore", invalid="ignore"):
        if isinstance(g, Cost):
            return g._value_and_gradient(w)
        return float(g(w)), np.asarray(g.gradient(w), dtype=float)


def gradient_descent(
    g: Callable,
    w0,
    alpha: float | str,
    max_its: int,
    *,
    tol: float | None = None,
    gradient: Callable | None = None,
    warn: bool = True,
) -> History:
    """Minimize ``g`` with the gradient-descent step ``w ← w − α ∇g(w)`` (chapter 1).

    Parameters
    ----------
    g : callable
        The cost, ``g(w) -> float``; typically from :mod:`mlrefined_lib.costs`.
    w0 : array
        Starting weights (not modified).
    alpha : float or ``"diminishing"``
        A fixed step length α > 0, or ``"diminishing"`` for α_k = 1/k at step k ≥ 1.
    max_its : int >= 0
        Largest number of steps (0 returns the start alone).
    tol : float, optional
        Stop early once the gradient norm is at most ``tol``.
    gradient : callable, optional
        ``∇g``. Defaults to ``g.gradient`` when ``g`` has one (the library's
        costs have an analytic gradient), otherwise autograd's ``grad(g)``.
    warn : bool, default True
        Issue a :class:`DivergenceWarning` when the run diverges. Pass False
        where divergence is an outcome the caller expects and reads from
        ``stop_reason`` (a search over step lengths, say); the run stops in the
        same way either way.

    Returns
    -------
    History
        ``weights`` of shape ``(K+1, *w0.shape)`` and ``costs`` of shape ``(K+1,)``
        where ``K ≤ max_its`` is the number of steps kept.

    Warns
    -----
    DivergenceWarning
        When a step gives a non-finite cost (or gradient), unless ``warn`` is
        False. The run stops there, and the history up to the last finite cost
        is returned (``stop_reason == "diverged"``), so no NaN reaches a plot.
    """
    if isinstance(alpha, str):
        check_choice(alpha, ALPHA_RULES, "step-length rule")
    else:
        alpha = check_scalar(alpha, "alpha", numbers.Real, min_val=0, include_boundaries="neither",
                             also=f"one of {list(ALPHA_RULES)}")
    tol = check_scalar(tol, "tol", numbers.Real, min_val=0, allow_none=True)
    max_its = _check_its(max_its)
    _check_warn(warn)
    w = _check_start(w0)
    grad = _gradient_function(g, gradient)
    if gradient is None and isinstance(g, Cost):
        both = _cost_and_gradient  # one product with the data gives both
    else:
        def both(g, w):
            cost = _finite_cost(g, w)
            if not np.isfinite(cost):
                return cost, None
            with np.errstate(over="ignore", invalid="ignore"):
                return cost, np.asarray(grad(w), dtype=float)

    cost, direction = both(g, w)
    if not np.isfinite(cost):
        raise ValueError(f"the cost is not finite at the starting weights w0 (g(w0) = {cost}).")
    weights, costs, norms, alphas = [w.copy()], [cost], [_norm(direction)], []
    stop_reason = "max_its"

    for k in range(1, max_its + 1):
        if tol is not None and norms[-1] <= tol:
            stop_reason = "tolerance"
            break
        step = 1.0 / k if alpha == "diminishing" else float(alpha)
        with np.errstate(over="ignore", invalid="ignore"):
            w_next = w - step * direction
            cost_next, direction_next = both(g, w_next)
        if not np.isfinite(cost_next) or not np.all(np.isfinite(direction_next)):
            if warn:
                warnings.warn(
                    f"gradient descent diverged at step {k}: the cost became {cost_next} "
                    f"(it was {costs[-1]:.4g} at step {k - 1}). Stopped there and kept the first {k} "
                    "weights. Try a smaller alpha, or normalize the inputs (chapter 7).",
                    DivergenceWarning,
                    stacklevel=2,
                )
            stop_reason = "diverged"
            break
        w, direction = w_next, direction_next
        weights.append(w.copy())
        costs.append(cost_next)
        norms.append(_norm(direction))
        alphas.append(step)
    else:
        if tol is not None and norms[-1] <= tol:
            stop_reason = "tolerance"

    return History(np.array(weights), np.array(costs), np.array(norms), np.array(alphas), stop_reason)



#: Names accepted by :func:`learning_schedule` and by the ``schedule`` argument
#: of :func:`minibatch_gradient_descent`.
SCHEDULES = ("constant", "invscaling", "inverse_time")


def _check_positive(value, name: str) -> float:
    return check_scalar(value, name, numbers.Real, min_val=0, include_boundaries="neither")


def learning_schedule(name: str, alpha: float, *, power: float = 0.25, t1: float = 100.0) -> Callable[[int], float]:
    """A named learning-rate schedule ``t -> α_t``, with ``t = 0, 1, 2, …`` counting steps (chapter 2).

    Parameters
    ----------
    name : {"constant", "invscaling", "inverse_time"}
        * ``"constant"``: ``α_t = alpha``;
        * ``"invscaling"``: ``α_t = alpha / (t + 1) ** power`` (scikit-learn's
          ``learning_rate="invscaling"``, whose counter starts at 1, hence ``t + 1``);
        * ``"inverse_time"``: ``α_t = alpha · t1 / (t + t1)``, the schedule
          ``t0 / (t + t1)`` with ``t0 = alpha · t1``: the step halves after
          ``t1`` steps, and the step lengths add up to infinity while their
          squares do not (the classic condition for SGD to settle).
    alpha : float
        The first step length ``α_0 > 0``.
    power : float
        Exponent of ``"invscaling"`` (scikit-learn's ``power_t``; default 0.25 as there), ``power ≥ 0``.
    t1 : float
        Half-life in steps of ``"inverse_time"``, ``t1 > 0``.

    Returns
    -------
    callable
        ``schedule(t) -> float`` for integer ``t ≥ 0``.

    Raises
    ------
    ValueError
        For an unknown name (the message lists the known ones) or a parameter out of range.

    Notes
    -----
    scikit-learn's ``SGDRegressor(learning_rate="invscaling")`` uses
    ``eta = eta0 / t ** power_t`` where ``t`` counts *samples* from 1, on the
    loss ``(1/2)(prediction − y)²``, whose gradient is half of ours. With one
    point per step its run equals ours with ``alpha = eta0 / 2`` and
    ``power = power_t`` (and ``penalty=None``, since it adds an L2 penalty by
    default); ``tests/lib/test_schedules.py`` checks this weight for weight.
    With mini-batches the two counters differ: ours counts steps, not samples.
    """
    check_choice(name, SCHEDULES, "learning-rate schedule")
    alpha = _check_positive(alpha, "alpha")
    power = check_scalar(power, "power", numbers.Real, min_val=0)
    t1 = _check_positive(t1, "t1")
    if name == "constant":
        return lambda t: alpha
    if name == "invscaling":
        return lambda t: alpha / (t + 1.0) ** power
    return lambda t: alpha * t1 / (t + t1)


def _schedule_from(alpha, schedule) -> Callable[[int], float]:
    """Turn the ``alpha``/``schedule`` pair of :func:`minibatch_gradient_descent` into ``t -> α_t``."""
    if schedule is None:
        step = _check_positive(alpha, "alpha")
        return lambda t: step
    if isinstance(schedule, str):
        return learning_schedule(schedule, alpha)
    if callable(schedule):
        if alpha is not None:
            raise ValueError(
                "with a callable schedule the step lengths come from schedule(t); pass alpha=None "
                f"(found alpha={alpha!r}), so that no value is silently ignored."
            )
        return schedule
    raise ValueError(
        f"schedule must be None, one of {list(SCHEDULES)} or a callable t -> alpha_t; found {type(schedule).__name__}."
    )


def _step_length(schedule: Callable, t: int) -> float:
    value = schedule(t)
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value) or value <= 0:
        raise ValueError(f"the schedule must return a positive finite step length; schedule({t}) returned {value!r}.")
    return float(value)


@dataclass(repr=False)
class MinibatchHistory(History):
    """What :func:`minibatch_gradient_descent` did, per epoch *and* per step (chapter 2).

    The inherited attributes hold one entry per epoch (``E`` epochs kept):

    Attributes
    ----------
    weights : array of shape ``(E+1,) + w.shape``
        ``weights[e]`` after ``e`` epochs; ``weights[0] = w0``.
    costs : array of shape (E+1,)
        The cost on *all* P points at ``weights[e]``.
    alphas : array of shape (E,)
        The step length of the first step of each epoch (all of them are in ``step_alphas``).
    stop_reason : str
        ``"max_its"`` (all epochs ran) or ``"diverged"``.
    step_costs : array of shape (T,)
        ``T = E · steps_per_epoch``. The cost *of the batch* at the weights
        just before each step: what the optimizer sees, hence noisy.
    step_alphas : array of shape (T,)
        The step length used at each step.
    step_weights : array of shape ``(T+1,) + w.shape`` or None
        The weights before the first step and after every step (only with
        ``record_steps=True``; ``step_weights[e * steps_per_epoch] == weights[e]``).
    steps_per_epoch : int
        ``ceil(P / batch_size)``.
    """

    step_costs: np.ndarray = field(default_factory=lambda: np.zeros(0))
    step_alphas: np.ndarray = field(default_factory=lambda: np.zeros(0))
    step_weights: np.ndarray | None = None
    steps_per_epoch: int = 1

    @property
    def epochs(self) -> int:
        """Number of epochs kept."""
        return len(self.costs) - 1

    @property
    def gradient_norms(self) -> np.ndarray:
        """Array of shape (E+1,): the norm of the full gradient at each ``weights[e]``.

        Computed from the weights when first read (a full gradient per epoch costs as much
        as the epoch's cost, and a run's caller rarely reads it).
        """
        norms = self.__dict__["_gradient_norms"]
        if callable(norms):
            norms = self.__dict__["_gradient_norms"] = norms()
        return norms

    @gradient_norms.setter
    def gradient_norms(self, value) -> None:
        self.__dict__["_gradient_norms"] = value

    def __repr__(self) -> str:
        return (
            f"MinibatchHistory(epochs={self.epochs}, steps={len(self.step_costs)}, first cost={self.costs[0]:.6g}, "
            f"final cost={self.costs[-1]:.6g}, stop_reason={self.stop_reason!r})"
        )


def minibatch_gradient_descent(
    g,
    w0,
    alpha: float | str | None,
    epochs: int,
    batch_size: int,
    *,
    seed: int = 0,
    schedule: str | Callable[[int], float] | None = None,
    shuffle: bool = True,
    record_steps: bool = False,
    warn: bool = True,
) -> MinibatchHistory:
    """Mini-batch gradient descent: many small steps per pass over the data (chapter 2).

    Each *epoch* shuffles the P points (with ``numpy.random.default_rng(seed)``,
    so a run is reproducible), cuts them into consecutive batches of
    ``batch_size`` points (the last one may be smaller) and takes one step
    ``w ← w − α_t ∇g_batch(w)`` per batch, where ``g_batch`` is the same cost on
    the batch's points only (:meth:`~mlrefined_lib.costs.Cost.rows`) and
    ``t = 0, 1, 2, …`` counts steps over the whole run (it does not restart at
    each epoch). ``batch_size = 1`` is stochastic gradient descent;
    ``batch_size = P`` is plain gradient descent, one step per epoch.

    Parameters
    ----------
    g : Cost
        A cost object of :mod:`mlrefined_lib.costs` (it must offer ``rows``).
    w0 : array
        Starting weights (not modified), shape ``g.weight_shape``.
    alpha : float, or None with a callable ``schedule``
        The step length α > 0 (the first one, ``α_0``, with a named schedule).
    epochs : int
        Number of passes over the data.
    batch_size : int
        Points per batch, ``1 ≤ batch_size ≤ P``.
    seed : int
        Seed of the shuffles.
    schedule : None, str or callable
        How the step length changes with the step counter ``t``:
        ``None`` (a fixed ``alpha``), a name of :data:`SCHEDULES` (built by
        :func:`learning_schedule` from ``alpha`` with its default parameters),
        or a callable ``t -> α_t`` such as ``lambda t: t0 / (t + t1)``
        (then pass ``alpha=None``).
    shuffle : bool
        Shuffle the points at each epoch (default). With ``False`` every epoch
        visits them in their stored order.
    record_steps : bool
        Also keep the weights after every step (``step_weights``); off by
        default because it stores ``T + 1`` weight arrays.
    warn : bool, default True
        Issue a :class:`DivergenceWarning` when the run diverges (as in
        :func:`gradient_descent`; False when the caller expects it and reads
        ``stop_reason``).

    Returns
    -------
    MinibatchHistory
        A :class:`History` with one entry per epoch (``weights``, ``costs`` on
        all points, ``gradient_norms``, ``alphas``) plus the per-step records
        ``step_costs`` (batch costs), ``step_alphas`` and, with
        ``record_steps``, ``step_weights``.

    Raises
    ------
    ValueError
        Before any work, for a cost without ``rows``, a bad ``alpha``,
        ``epochs`` or ``schedule``, an unknown schedule name, or a
        ``batch_size`` outside ``1 … P``.

    Warns
    -----
    DivergenceWarning
        When a step makes the weights or the cost non-finite, unless ``warn``
        is False; the run stops and keeps the epochs before it (and their steps).
    """
    if not (callable(getattr(g, "rows", None)) and callable(getattr(g, "gradient", None))):
        raise ValueError(
            "minibatch_gradient_descent needs a cost object of mlrefined_lib.costs (with .rows and .gradient); "
            f"found {type(g).__name__}."
        )
    step_rule = _schedule_from(alpha, schedule)
    epochs = check_scalar(epochs, "epochs", numbers.Integral, min_val=0)  # 0 epochs: the start alone
    points = g.num_points
    batch_size = check_scalar(batch_size, "batch_size", numbers.Integral, min_val=1)
    _check_warn(warn)
    if batch_size > points:
        raise ValueError(f"batch_size must be at most the number of points P = {points}; found {batch_size}.")
    w = _check_start(w0)
    g._check(w)
    _step_length(step_rule, 0)  # a schedule that cannot give its first step fails before any work
    rng = np.random.default_rng(seed)
    steps_per_epoch = -(-points // batch_size)
    # The batches' row numbers are drawn here, so the library's costs skip the checks of ``rows``.
    take = g._take if isinstance(g, Cost) else g.rows

    cost = _finite_cost(g, w)
    if not np.isfinite(cost):
        raise ValueError(f"the cost is not finite at the starting weights w0 (g(w0) = {cost}).")
    weights, costs, alphas = [w.copy()], [cost], []
    step_costs, step_alphas = [], []
    step_weights = [w.copy()] if record_steps else None
    stop_reason = "max_its"
    t = 0
    for epoch in range(1, epochs + 1):
        order = rng.permutation(points) if shuffle else np.arange(points)
        w_next = w.copy()
        epoch_costs, epoch_alphas, epoch_weights = [], [], []
        with np.errstate(over="ignore", invalid="ignore"):
            for start in range(0, points, batch_size):
                step = _step_length(step_rule, t + len(epoch_alphas))
                batch_cost, batch_gradient = _cost_and_gradient(take(order[start : start + batch_size]), w_next)
                epoch_costs.append(batch_cost)
                epoch_alphas.append(step)
                w_next -= step * batch_gradient
                if not np.all(np.isfinite(w_next)):
                    break
                if record_steps:
                    epoch_weights.append(w_next.copy())
            cost_next = _finite_cost(g, w_next) if np.all(np.isfinite(w_next)) else np.inf
        if not np.isfinite(cost_next):
            if warn:
                warnings.warn(
                    f"mini-batch gradient descent diverged in epoch {epoch}: the weights or the cost stopped being "
                    f"finite (the cost was {costs[-1]:.4g} after epoch {epoch - 1}). Stopped there and kept the "
                    f"first {epoch} weights. Try a smaller alpha, or normalize the inputs (chapter 7).",
                    DivergenceWarning,
                    stacklevel=2,
                )
            stop_reason = "diverged"
            break
        w = w_next
        t += steps_per_epoch
        weights.append(w.copy())
        costs.append(cost_next)
        alphas.append(epoch_alphas[0])
        step_costs.extend(epoch_costs)
        step_alphas.extend(epoch_alphas)
        if record_steps:
            step_weights.extend(epoch_weights)
    weights = np.array(weights)
    kept = weights.copy()  # the norms are of these weights, even if the caller edits history.weights

    def gradient_norms() -> np.ndarray:
        with np.errstate(over="ignore", invalid="ignore"):
            return np.array([_norm(g.gradient(w)) for w in kept])

    return MinibatchHistory(
        weights,
        np.array(costs),
        gradient_norms,
        np.array(alphas),
        stop_reason,
        step_costs=np.array(step_costs, dtype=float),
        step_alphas=np.array(step_alphas, dtype=float),
        step_weights=np.array(step_weights) if record_steps else None,
        steps_per_epoch=steps_per_epoch,
    )


def newtons_method(
    g: Callable,
    w0,
    max_its: int,
    *,
    epsilon: float = 1e-7,
    tol: float | None = None,
) -> History:
    """Minimize ``g`` with Newton steps ``w ← w − (∇²g + εI)⁻¹ ∇g`` (taught in chapter 3; used again in chapters 9 and 10).

    Gradient and Hessian come from autograd. The small ``epsilon`` keeps the
    linear solve well posed when the Hessian is (nearly) singular. On a
    quadratic cost such as least squares one step lands on the minimum.

    Parameters
    ----------
    g : callable
        The cost, ``g(w) -> float``, written with ``autograd.numpy``.
    w0 : array of shape (D,)
        Starting weights (not modified). Only 1-D weights are supported.
    max_its : int >= 0
        Largest number of steps (0 returns the start alone).
    epsilon : float
        Regularizer added to the Hessian's diagonal.
    tol : float, optional
        Stop once the gradient norm is at most ``tol``.

    Returns
    -------
    History
    """
    max_its = _check_its(max_its)
    w = _check_start(w0)
    if w.ndim != 1:
        raise ValueError(f"newtons_method supports 1-D weights of shape (D,); found shape {w.shape}.")
    epsilon = check_scalar(epsilon, "epsilon", numbers.Real, min_val=0)
    grad = autograd.grad(g)
    hess = autograd.hessian(g)

    cost = _finite_cost(g, w)
    if not np.isfinite(cost):
        raise ValueError(f"the cost is not finite at the starting weights w0 (g(w0) = {cost}).")
    gradient = np.asarray(grad(w), dtype=float)
    weights, costs, norms = [w.copy()], [cost], [_norm(gradient)]
    stop_reason = "max_its"
    for k in range(1, max_its + 1):
        if tol is not None and norms[-1] <= tol:
            stop_reason = "tolerance"
            break
        hessian = np.asarray(hess(w), dtype=float) + epsilon * np.eye(w.size)
        with np.errstate(over="ignore", invalid="ignore"):
            w_next = w - np.linalg.solve(hessian, gradient)
            cost_next = _finite_cost(g, w_next)
        if not np.isfinite(cost_next):
            warnings.warn(
                f"Newton's method diverged at step {k}: the cost became {cost_next}. "
                "Try a larger epsilon or a better start.",
                DivergenceWarning,
                stacklevel=2,
            )
            stop_reason = "diverged"
            break
        w = w_next
        gradient = np.asarray(grad(w), dtype=float)
        weights.append(w.copy())
        costs.append(cost_next)
        norms.append(_norm(gradient))
    else:
        if tol is not None and norms[-1] <= tol:
            stop_reason = "tolerance"
    return History(np.array(weights), np.array(costs), np.array(norms), np.zeros(0), stop_reason)
