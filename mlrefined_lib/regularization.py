"""Regularized linear models: ridge, the lasso, the elastic net and the ℓ1 path (chapter 11).

Every model here minimizes a *regularized* cost

    f(w) = g(w) + λ h(w),

where ``g`` is the mean cost of :mod:`mlrefined_lib.costs` (least squares or
the two-class softmax) and ``h`` a penalty on the **feature weights**
``w[1:]`` only: the bias ``w[0]`` is never penalized, so shifting every
output by a constant shifts the bias and nothing else.

* :func:`ridge` solves ``h = ‖w[1:]‖²`` for least squares in closed form;
* :func:`proximal_gradient` minimizes ``g + λ(r‖w[1:]‖₁ + (1 − r)‖w[1:]‖²)``
  for one λ with the accelerated proximal gradient method (FISTA) and keeps
  its history; ``r = 1`` is the lasso, ``0 < r < 1`` the elastic net;
* :func:`l1_path` and :func:`elastic_net_path` solve the same problem for many
  values of λ, each started from the previous solution (warm starts);
* :func:`lambda_max` is the smallest λ at which every feature weight is 0.

Why a proximal method: the ℓ1 penalty has a kink at 0, so a (sub)gradient step
jumps across 0 again and again and never lands on it. A proximal step first
takes a gradient step on the smooth part and then applies the *soft
threshold* ``sign(v) max(|v| − t, 0)``, which sets small entries to exactly 0.
With the step ``1/L`` (``L`` a Lipschitz constant of the smooth gradient) the
iterates converge to the exact minimizer.
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass

import numpy as np

from ._validation import as_inputs, as_outputs, check_choice, check_labels, check_scalar
from .optimizers import History

__all__ = [
    "ridge",
    "soft_threshold",
    "lambda_max",
    "proximal_gradient",
    "RegularizationPath",
    "l1_path",
    "elastic_net_path",
    "entry_order",
    "ConvergenceWarning",
]

COSTS = ("least_squares", "softmax")


class ConvergenceWarning(RuntimeWarning):
    """Issued when the proximal method stops at ``max_its`` before reaching ``tol``."""


# ---------------------------------------------------------------- input checks


def _check_data(x, y, cost: str) -> tuple[np.ndarray, np.ndarray]:
    check_choice(cost, COSTS, "cost")
    x = as_inputs(x)
    y = as_outputs(y, x.shape[0], x.shape)
    if cost == "softmax":
        check_labels(y, (-1.0, 1.0), "softmax")
    return x, y


def _check_ratio(l1_ratio) -> float:
    try:
        return check_scalar(l1_ratio, "l1_ratio", numbers.Real, min_val=0, max_val=1, include_boundaries="right")
    except ValueError as error:  # the same class, with the two ends named
        raise type(error)(f"{error} 1 is the lasso; for a pure ℓ2 penalty use ridge.") from None


def _check_lams(lams) -> np.ndarray:
    arr = np.asarray(lams, dtype=float)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"lams must be a non-empty 1-D array of penalty strengths; found shape {arr.shape}.")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        bad = np.flatnonzero(~np.isfinite(arr) | (arr < 0))
        raise ValueError(f"every λ must be finite and >= 0; lams[{bad[0]}] = {arr[bad[0]]!r}.")
    return arr


# ---------------------------------------------------------------- ridge


def ridge(x, y, alpha: float) -> np.ndarray:
    """Ridge regression in closed form (chapter 11).

    Minimizes the book's mean-cost form with the penalty weight λ,

        (1/P)‖X̃w − y‖² + λ Σ_{n≥1} w_n²,

    with ``X̃`` = ``x`` with a leading column of ones; the bias ``w[0]`` is
    not penalized. The argument is scikit-learn's ``alpha``, mapped once
    here: ``Ridge(alpha=alpha)`` minimizes the *summed* squared error
    ``‖X̃w − y‖² + alpha Σ_{n≥1} w_n²``, which is P times the cost above with
    ``alpha = Pλ``. Its minimizer solves ``(X̃ᵀX̃ + PλA) w = X̃ᵀy``, with
    ``A`` the identity except ``A[0, 0] = 0``.

    The system is solved with ``np.linalg.lstsq`` (never an explicit
    inverse), which also copes with ``λ = 0`` and dependent columns by
    returning the minimum-norm solution.

    Parameters
    ----------
    x : array of shape (P, N)
    y : array of shape (P,)
    alpha : float >= 0
        scikit-learn's ``alpha``, that is Pλ (pass ``P * lam`` for a
        penalty weight ``lam``).

    Returns
    -------
    w : array of shape (N+1,), the bias first.

    Raises
    ------
    ValueError
        For malformed ``x`` or ``y``, or a negative or non-numeric ``alpha``.
    """
    x, y = _check_data(x, y, "least_squares")
    alpha = check_scalar(alpha, "alpha", numbers.Real, min_val=0)
    x_ext = np.column_stack([np.ones(len(x)), x])
    penalty = alpha * np.eye(x_ext.shape[1])
    penalty[0, 0] = 0.0
    w, *_ = np.linalg.lstsq(x_ext.T @ x_ext + penalty, x_ext.T @ y, rcond=None)
    return w


# ---------------------------------------------------------------- building blocks


def soft_threshold(v, t: float) -> np.ndarray:
    """The soft threshold ``sign(v) max(|v| − t, 0)``, entry by entry (chapter 11).

    It is the proximal map of ``t|·|``: the minimizer of
    ``½(u − v)² + t|u|``. Entries with ``|v| <= t`` become exactly 0.
    """
    v = np.asarray(v, dtype=float)
    t = check_scalar(t, "t", numbers.Real, min_val=0)
    return np.sign(v) * np.maximum(np.abs(v) - t, 0.0)


class _Smooth:
    """The smooth part g(w) + λ₂‖w[1:]‖² with its gradient and a Lipschitz constant."""

    def __init__(self, x: np.ndarray, y: np.ndarray, cost: str):
        self.cost = cost
        self.num_points = len(x)
        self.x_ext = np.column_stack([np.ones(len(x)), x])
        self.y = y
        top = np.linalg.eigvalsh(self.x_ext.T @ self.x_ext / self.num_points)[-1]
        if cost == "least_squares":
            # Gradient (2/P) X̃ᵀ(X̃w − y) = 2(Gw − b): O(N²) per step with the Gram matrix G.
            self.gram = self.x_ext.T @ self.x_ext / self.num_points
            self.cross = self.x_ext.T @ y / self.num_points
            self.mean_square = float(y @ y) / self.num_points
            self.lipschitz = 2.0 * top
        else:
            # The softmax Hessian is (1/P) X̃ᵀ D X̃ with D <= 1/4.
            self.lipschitz = 0.25 * top

    def value(self, w: np.ndarray) -> float:
        if self.cost == "least_squares":
            return max(float(w @ self.gram @ w - 2.0 * w @ self.cross + self.mean_square), 0.0)
        return float(np.mean(np.logaddexp(0.0, -self.y * (self.x_ext @ w))))

    def gradient(self, w: np.ndarray) -> np.ndarray:
        if self.cost == "least_squares":
            return 2.0 * (self.gram @ w - self.cross)
        margins = self.y * (self.x_ext @ w)
        return -self.x_ext.T @ (self.y * 0.5 * (1.0 - np.tanh(0.5 * margins))) / self.num_points

    def bias_only(self) -> np.ndarray:
        """The best model with all feature weights 0."""
        w = np.zeros(self.x_ext.shape[1])
        if self.cost == "least_squares":
            w[0] = float(np.mean(self.y))
        else:
            positive = float(np.mean(self.y > 0))
            if 0.0 < positive < 1.0:
                w[0] = np.log(positive / (1.0 - positive))
        return w


def lambda_max(x, y, cost: str = "least_squares") -> float:
    """The smallest λ for which the ℓ1-regularized minimizer has every feature weight 0 (chapter 11).

    At the best bias-only model ``w⁰`` the bias gradient is 0, and ``w⁰`` is
    the minimizer of ``g + λ‖w[1:]‖₁`` exactly when every feature entry of
    the gradient satisfies ``|∂g/∂w_n(w⁰)| <= λ``. So
    ``λ_max = max_n |∂g/∂w_n(w⁰)|``; for least squares it is
    ``max_n |(2/P) Σ_p x_{p,n}(y_p − ȳ)|``.

    Parameters
    ----------
    x : array of shape (P, N)
    y : array of shape (P,); labels ±1 for ``cost="softmax"``
    cost : ``"least_squares"`` or ``"softmax"``

    Returns
    -------
    float
    """
    x, y = _check_data(x, y, cost)
    smooth = _Smooth(x, y, cost)
    return float(np.max(np.abs(smooth.gradient(smooth.bias_only())[1:])))


def _fista(smooth: _Smooth, lam: float, l1_ratio: float, w0: np.ndarray, tol: float, max_its: int,
           record: bool = False):
    """FISTA with the fixed step 1/L and gradient-based adaptive restart.

    Each step evaluates one gradient, at the momentum point ``v``, and moves
    to ``w⁺ = prox(v − ∇(v)/L)``. The *gradient mapping* ``L(v − w⁺)`` is 0
    exactly when ``v`` is the minimizer; the run stops once every entry of it
    is at most ``tol`` in size. Momentum is dropped (restart) whenever the new
    step points against the previous one, ``(v − w⁺)·(w⁺ − w) > 0``
    (O'Donoghue and Candès, 2015), which keeps FISTA fast on
    ill-conditioned problems.
    """
    l1 = lam * l1_ratio
    l2 = lam * (1.0 - l1_ratio)
    lipschitz = smooth.lipschitz + 2.0 * l2
    step = 1.0 / lipschitz
    threshold = step * l1

    def objective(w):
        return smooth.value(w) + l1 * float(np.abs(w[1:]).sum()) + l2 * float(w[1:] @ w[1:])

    w = w0.copy()
    momentum_point = w.copy()
    t = 1.0
    weights, costs = ([w.copy()], [objective(w)]) if record else (None, None)
    converged = False
    its = 0
    for its in range(1, max_its + 1):
        gradient = smooth.gradient(momentum_point)
        if l2:
            gradient[1:] += 2.0 * l2 * momentum_point[1:]
        w_new = momentum_point - step * gradient
        w_new[1:] = np.sign(w_new[1:]) * np.maximum(np.abs(w_new[1:]) - threshold, 0.0)
        difference = momentum_point - w_new
        if record:
            weights.append(w_new.copy())
            costs.append(objective(w_new))
        if lipschitz * np.max(np.abs(difference)) <= tol:
            w = w_new
            converged = True
            break
        if difference @ (w_new - w) > 0:
            t = 1.0
            momentum_point = w_new.copy()
        else:
            t_new = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * t * t))
            momentum_point = w_new + ((t - 1.0) / t_new) * (w_new - w)
            t = t_new
        w = w_new
    return w, its, converged, weights, costs


# ---------------------------------------------------------------- one λ, with history


def proximal_gradient(
    x,
    y,
    lam: float,
    *,
    cost: str = "least_squares",
    l1_ratio: float = 1.0,
    w0=None,
    tol: float = 1e-8,
    max_its: int = 10_000,
) -> History:
    """Minimize ``g(w) + λ(r‖w[1:]‖₁ + (1 − r)‖w[1:]‖²)`` by FISTA and keep every step (chapter 11).

    ``g`` is the mean least-squares or softmax cost. Each step is a gradient
    step of length ``1/L`` on the smooth part followed by the soft threshold
    ``step · λr`` on the feature weights (the bias is never thresholded), with
    Nesterov momentum that is reset whenever the objective would increase.

    Parameters
    ----------
    x : array of shape (P, N)
    y : array of shape (P,); labels ±1 for ``cost="softmax"``
    lam : float >= 0
    cost : ``"least_squares"`` or ``"softmax"``
    l1_ratio : float in (0, 1]
        ``r``: 1 gives the lasso, smaller values the elastic net.
    w0 : array of shape (N+1,), optional
        Start; default the best bias-only model.
    tol : float > 0
        Stop once the gradient mapping has max-norm at most ``tol``.
    max_its : int

    Returns
    -------
    History
        ``weights`` (every iterate), ``costs`` (the regularized objective
        ``f``), ``stop_reason`` ``"tolerance"`` or ``"max_its"``.
    """
    x, y = _check_data(x, y, cost)
    lam = check_scalar(lam, "lam", numbers.Real, min_val=0)
    l1_ratio = _check_ratio(l1_ratio)
    tol, max_its = check_scalar(tol, "tol", numbers.Real, min_val=0, include_boundaries="neither"), check_scalar(max_its, "max_its", numbers.Integral, min_val=1)
    smooth = _Smooth(x, y, cost)
    if w0 is None:
        start = smooth.bias_only()
    else:
        start = np.array(w0, dtype=float)
        if start.shape != (x.shape[1] + 1,) or not np.all(np.isfinite(start)):
            raise ValueError(f"w0 must be finite with shape ({x.shape[1] + 1},); found shape {start.shape}.")
    _, _, converged, weights, costs = _fista(smooth, lam, l1_ratio, start, tol, max_its, record=True)
    weights = np.array(weights)
    return History(
        weights=weights,
        costs=np.array(costs),
        gradient_norms=np.full(len(costs), np.nan),
        alphas=np.full(len(costs) - 1, 1.0 / (smooth.lipschitz + 2.0 * lam * (1.0 - l1_ratio))),
        stop_reason="tolerance" if converged else "max_its",
    )


# ---------------------------------------------------------------- paths


@dataclass
class RegularizationPath:
    """Minimizers of a regularized cost for many values of λ.

    Attributes
    ----------
    lams : array of shape (L,)
        The penalty strengths, in the order they were given.
    weights : array of shape (L, N+1)
        ``weights[i]`` minimizes the regularized cost for ``lams[i]``; bias first.
    iterations : array of shape (L,)
        Proximal-gradient steps used for each λ (each costs one gradient).
    converged : array of bool, shape (L,)
    cost : str
    l1_ratio : float
    """

    lams: np.ndarray
    weights: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray
    cost: str
    l1_ratio: float

    @property
    def nonzero_counts(self) -> np.ndarray:
        """Number of non-zero feature weights for each λ."""
        return np.count_nonzero(self.weights[:, 1:], axis=1)

    def __repr__(self) -> str:
        return (
            f"RegularizationPath(cost={self.cost!r}, l1_ratio={self.l1_ratio:g}, {len(self.lams)} λ values "
            f"from {self.lams.min():.4g} to {self.lams.max():.4g}, N={self.weights.shape[1] - 1}, "
            f"total iterations={int(self.iterations.sum())})"
        )


def elastic_net_path(
    x,
    y,
    lams,
    l1_ratio: float,
    *,
    cost: str = "least_squares",
    tol: float = 1e-8,
    max_its: int = 20_000,
) -> RegularizationPath:
    """Minimizers of ``g(w) + λ(r‖w[1:]‖₁ + (1 − r)‖w[1:]‖²)`` for every λ in ``lams`` (chapter 11).

    Same solver and stopping rule as :func:`l1_path`, with ``r = l1_ratio``.
    scikit-learn's ``ElasticNet(alpha, l1_ratio)`` (least squares) is the
    same minimizer for ``λ = alpha(1 + l1_ratio)`` and
    ``r = 2 l1_ratio/(1 + l1_ratio)``; the other way round,
    ``alpha = λ(1 − r/2)`` and ``l1_ratio = r/(2 − r)``.
    """
    x, y = _check_data(x, y, cost)
    lams = _check_lams(lams)
    l1_ratio = _check_ratio(l1_ratio)
    tol, max_its = check_scalar(tol, "tol", numbers.Real, min_val=0, include_boundaries="neither"), check_scalar(max_its, "max_its", numbers.Integral, min_val=1)
    smooth = _Smooth(x, y, cost)
    weights = np.zeros((len(lams), x.shape[1] + 1))
    iterations = np.zeros(len(lams), dtype=int)
    converged = np.zeros(len(lams), dtype=bool)
    w = smooth.bias_only()
    # Largest λ first: its minimizer is sparse and close to the bias-only start,
    # and each solution is a good start for the next, slightly smaller λ.
    for i in np.argsort(-lams, kind="stable"):
        w, its, ok, _, _ = _fista(smooth, float(lams[i]), l1_ratio, w, tol, max_its)
        weights[i], iterations[i], converged[i] = w, its, ok
    if not converged.all():
        bad = np.flatnonzero(~converged)
        warnings.warn(
            f"{bad.size} of {len(lams)} λ value(s) (e.g. λ = {lams[bad[0]]:.4g}) stopped at max_its={max_its} "
            f"before the tolerance {tol:g}; raise max_its or standardize the inputs.",
            ConvergenceWarning,
            stacklevel=2,
        )
    return RegularizationPath(lams.copy(), weights, iterations, converged, cost, l1_ratio)


def l1_path(
    x,
    y,
    lams,
    cost: str = "least_squares",
    *,
    tol: float = 1e-8,
    max_its: int = 20_000,
) -> RegularizationPath:
    """The ℓ1 (lasso) path: minimizers of ``g(w) + λ Σ_{n≥1} |w_n|`` for every λ (chapter 11).

    ``g`` is the mean least-squares cost ``(1/P) Σ (w[0] + x_p @ w[1:] − y_p)²``
    or the mean two-class softmax cost (labels ±1). The bias is never
    penalized. The values of λ are processed from the largest to the smallest,
    each run starting from the previous solution (warm starts), but the result
    is returned in the order given.

    The solver is the accelerated proximal gradient method (FISTA) with the
    safe step ``1/L``, where ``L`` is the largest eigenvalue of the Hessian
    bound (``(2/P) X̃ᵀX̃`` for least squares, ``(1/(4P)) X̃ᵀX̃`` for the
    softmax), and a restart whenever the objective would increase. It stops
    when the *gradient mapping* ``L (w − prox(w − ∇g(w)/L))``, which is 0
    exactly at the minimizer, has every entry at most ``tol`` in size.

    For least squares the minimizer equals scikit-learn's ``Lasso(alpha=λ/2)``
    (its cost is half of this one); for the softmax it equals
    ``LogisticRegression(penalty="l1", C=1/(P λ))`` with an unpenalized
    intercept.

    Parameters
    ----------
    x : array of shape (P, N)
        Standardize it first (chapter 7): the penalty treats all weights alike.
    y : array of shape (P,)
    lams : array of shape (L,), every entry >= 0
    cost : ``"least_squares"`` or ``"softmax"``
    tol : float > 0
    max_its : int >= 1
        Largest number of steps per λ; a :class:`ConvergenceWarning` says
        when it was reached.

    Returns
    -------
    RegularizationPath
        ``.lams`` (L,), ``.weights`` (L, N+1), ``.iterations`` (L,).

    Raises
    ------
    ValueError
        Bad shapes, NaN/inf, negative λ, an unknown cost or labels that are
        not ±1 for the softmax; all checked before any work.
    """
    return elastic_net_path(x, y, lams, 1.0, cost=cost, tol=tol, max_its=max_its)


def entry_order(path: RegularizationPath, names=None) -> list:
    """The features in the order they first become non-zero as λ decreases (chapter 11).

    Features that enter at the same λ of the grid are ordered by the size of
    their weight there (largest first); features that never enter are left
    out.

    Returns
    -------
    list of int (0-based feature indices), or of names when ``names`` is given.
    """
    order = np.argsort(-path.lams, kind="stable")
    weights = path.weights[order, 1:]
    entered = []
    for row in weights:
        new = [n for n in np.flatnonzero(row) if n not in entered]
        entered += sorted(new, key=lambda n: -abs(row[n]))
    entered = [int(n) for n in entered]
    if names is not None:
        names = list(names)
        if len(names) != weights.shape[1]:
            raise ValueError(f"the path has {weights.shape[1]} feature(s) but {len(names)} name(s) were given.")
        return [names[n] for n in entered]
    return entered
