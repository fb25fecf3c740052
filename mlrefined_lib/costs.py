"""Cost functions of a linear model (taught in chapters 1 and 3).

Each constructor takes the data and returns a cost *object* ``g``; calling
``g(w)`` gives the cost of the weights ``w`` as a float. The data are captured
when ``g`` is built, never read from module-level state.

Conventions (the book's preface):

* ``x`` has shape ``(P, N)``: P points in rows, N features in columns.
* ``y`` has shape ``(P,)``.
* ``w`` has shape ``(N+1,)``, the bias first, so ``model(x, w) = w[0] + x @ w[1:]``.
  For the multiclass softmax ``w`` has shape ``(N+1, K)``.
* Every cost is a *mean* over the P points.

Besides ``g(w)`` every cost object offers

* ``g.gradient(w)``: the analytic gradient (same shape as ``w``), used by
  :func:`mlrefined_lib.optimizers.gradient_descent` because it is several
  times faster than automatic differentiation on large data;
* ``g.batch(ws)``: the cost of many weight vectors at once (shape
  ``(M, *w.shape)`` in, ``(M,)`` out), used to draw contour plots quickly;
* ``g.rows(index)``: the same cost on a subset of the points, used by
  :func:`mlrefined_lib.optimizers.minibatch_gradient_descent`.

``g(w)`` is written with ``autograd.numpy``, so ``autograd.grad(g)`` also works
and the tests check that it agrees with ``g.gradient``.
"""

from __future__ import annotations

import autograd.numpy as anp
from autograd.tracer import Box as ArrayBox
import numpy as np

from ._validation import as_inputs, as_outputs, check_labels, check_weights

__all__ = [
    "model",
    "Cost",
    "least_squares",
    "least_absolute_deviations",
    "softmax",
    "cross_entropy",
    "multiclass_softmax",
    "misclassifications",
]

# Rows of weights evaluated together by ``Cost.batch`` for costs that must
# touch every data point: keeps the (chunk, P) temporaries at a few MB.
_BATCH_ELEMENTS = 2_000_000


def model(x, w):
    """The linear model ``w[0] + x @ w[1:]`` (chapter 1).

    Parameters
    ----------
    x : array of shape (P, N)
    w : array of shape (N+1,) or (N+1, K)

    Returns
    -------
    array of shape (P,) or (P, K)
    """
    x = as_inputs(x)
    check_weights(w, (x.shape[1] + 1,) + tuple(np.shape(w)[1:]), x.shape)
    return w[0] + x @ w[1:]


def _numpy_for(w):
    """autograd's NumPy while autograd traces ``w`` (a Hessian, a check's gradient), plain NumPy otherwise.

    The same functions either way; plain NumPy skips the tracer's cost on every
    call, which an optimizer's thousands of small batches would pay.
    """
    return anp if isinstance(w, ArrayBox) else np


def _sigmoid(t):
    """Logistic function, computed without overflow for large |t|."""
    return 0.5 * (1.0 + np.tanh(0.5 * t))


class Cost:
    """A cost of a linear model on fixed data; call it with the weights.

    Subclasses define ``_value`` (autograd-compatible), ``_gradient`` and
    ``_batch_values``. Use the constructor functions (:func:`least_squares`,
    ...) rather than this class.
    """

    name = "cost"

    def __init__(self, x, y, num_outputs: int | None = None):
        x = as_inputs(x)
        # Copies: editing the caller's arrays later must not change g (nor make
        # g(w) disagree with ``batch``, whose moments are computed here).
        self.y = as_outputs(y, x.shape[0], x.shape).copy()
        self.num_points, self.num_features = x.shape
        # The data with a leading column of ones, so that model = x_ext @ w.
        self.x_ext = np.hstack([np.ones((self.num_points, 1)), x])
        self.x = self.x_ext[:, 1:]
        self.weight_shape = (self.num_features + 1,) if num_outputs is None else (self.num_features + 1, num_outputs)

    def __repr__(self) -> str:
        return f"{self.name}(P={self.num_points}, N={self.num_features})"

    def _check(self, w) -> None:
        check_weights(w, self.weight_shape, self.x.shape)

    def _rebuild(self, x, y) -> "Cost":
        return type(self)(x, y)

    def rows(self, index) -> "Cost":
        """The same cost restricted to some of the points (a mini-batch).

        Parameters
        ----------
        index : array of int
            Row numbers in ``0 … P−1`` (at least one; repeats allowed).

        Returns
        -------
        Cost
            A new cost of the same kind on ``x[index]``, ``y[index]``, with the
            same weight shape. ``self`` is not changed.
        """
        index = np.asarray(index)
        if index.ndim != 1 or index.size == 0 or not np.issubdtype(index.dtype, np.integer):
            raise ValueError(
                f"rows expects a non-empty 1-D array of integer row numbers; found dtype {index.dtype}, "
                f"shape {index.shape}."
            )
        if index.min() < 0 or index.max() >= self.num_points:
            raise ValueError(
                f"rows: row numbers must lie in 0 … {self.num_points - 1}; found {int(index.min())} … {int(index.max())}."
            )
        return self._rebuild(self.x[index], self.y[index])

    def _take(self, index: np.ndarray) -> "Cost":
        """``rows(index)`` without its checks, for row numbers the caller drew itself (an optimizer's batches).

        Equal to ``rows(index)``: the same arrays, sliced from data that were
        checked when ``self`` was made, and whatever a subclass derives from
        them (:meth:`_take_more`).
        """
        new = object.__new__(type(self))
        # Rows gathered from a C-ordered copy are the same array as from x_ext
        # itself (a gather always gives C order), only faster when x_ext is in
        # Fortran order (data whose columns were selected, x[:, keep]).
        if not self.x_ext.flags.c_contiguous and "_rows_source" not in self.__dict__:
            self._rows_source = np.ascontiguousarray(self.x_ext)
        new.x_ext = self.__dict__.get("_rows_source", self.x_ext)[index]
        new.x = new.x_ext[:, 1:]
        new.y = self.y[index]
        new.num_points, new.num_features = len(index), self.num_features
        new.weight_shape = self.weight_shape
        self._take_more(new, index)
        return new

    def _take_more(self, new: "Cost", index: np.ndarray) -> None:
        """Give ``new`` (the rows ``index`` of ``self``) what a subclass keeps beside the data."""

    def __call__(self, w) -> float:
        """Cost of the weights ``w`` (shape ``weight_shape``)."""
        self._check(w)
        return self._value(w)

    def gradient(self, w) -> np.ndarray:
        """Analytic gradient of the cost at ``w``; same shape as ``w``."""
        self._check(w)
        return self._gradient(np.asarray(w, dtype=float))

    def _value_and_gradient(self, w: np.ndarray) -> tuple[float, np.ndarray]:
        """``(g(w), ∇g(w))`` for float weights of the right shape, unchecked (an optimizer checked them).

        Equal, bit for bit, to ``g(w)`` and ``g.gradient(w)``. A subclass may
        compute both from one product ``x_ext @ w``, which is most of the work:
        an optimizer asks for both at every step.
        """
        return float(self._value(w)), self._gradient(w)

    def batch(self, ws) -> np.ndarray:
        """Costs of many weights at once.

        Parameters
        ----------
        ws : array of shape ``(M,) + weight_shape``

        Returns
        -------
        array of shape (M,)
        """
        ws = np.asarray(ws, dtype=float)
        if ws.shape[1:] != self.weight_shape:
            raise ValueError(
                f"batch expects weights of shape (M, {', '.join(map(str, self.weight_shape))}); "
                f"found {ws.shape}."
            )
        chunk = max(1, _BATCH_ELEMENTS // self.num_points)
        if len(ws) == 0:
            return np.zeros(0)
        return np.concatenate([self._batch_values(ws[i : i + chunk]) for i in range(0, len(ws), chunk)])

    def _batch_values(self, ws: np.ndarray) -> np.ndarray:  # pragma: no cover - overridden
        return np.array([self._value(w) for w in ws])


class _LeastSquares(Cost):
    name = "least_squares"

    def __init__(self, x, y):
        super().__init__(x, y)
        self._moments()

    def _moments(self) -> None:
        # A quadratic is fixed by a few moments of the data, so the cost of any
        # w can be computed in O(N^2) instead of O(P N): used by ``batch``.
        self._second_moment = self.x_ext.T @ self.x_ext / self.num_points
        self._cross_moment = self.x_ext.T @ self.y / self.num_points
        self._mean_square_y = float(self.y @ self.y) / self.num_points

    def _take_more(self, new, index):
        new._moments()

    def _value(self, w):
        xp = _numpy_for(w)
        residual = xp.dot(self.x_ext, w) - self.y
        return xp.mean(residual**2)

    def _gradient(self, w):
        residual = self.x_ext @ w - self.y
        return (2.0 / self.num_points) * (self.x_ext.T @ residual)

    def _value_and_gradient(self, w):
        residual = self.x_ext @ w - self.y
        return float(np.mean(residual**2)), (2.0 / self.num_points) * (self.x_ext.T @ residual)

    def hessian(self, w=None) -> np.ndarray:
        """The constant Hessian ``(2/P) X̃ᵀX̃`` of the least-squares cost."""
        return 2.0 * self._second_moment

    def _batch_values(self, ws):
        quadratic = np.einsum("mi,ij,mj->m", ws, self._second_moment, ws)
        values = quadratic - 2.0 * ws @ self._cross_moment + self._mean_square_y
        # Rounding can push a cost that is truly ~0 slightly below zero.
        return np.maximum(values, 0.0)


class _LeastAbsoluteDeviations(Cost):
    name = "least_absolute_deviations"

    def _value(self, w):
        xp = _numpy_for(w)
        return xp.mean(xp.abs(xp.dot(self.x_ext, w) - self.y))

    def _gradient(self, w):
        return self.x_ext.T @ np.sign(self.x_ext @ w - self.y) / self.num_points

    def _batch_values(self, ws):
        return np.abs(ws @ self.x_ext.T - self.y).mean(axis=1)


class _Softmax(Cost):
    name = "softmax"

    def __init__(self, x, y):
        super().__init__(x, y)
        check_labels(self.y, (-1.0, 1.0), "softmax")

    def _value(self, w):
        xp = _numpy_for(w)
        return xp.mean(xp.logaddexp(0.0, -self.y * xp.dot(self.x_ext, w)))

    def _gradient(self, w):
        margins = self.y * (self.x_ext @ w)
        return -self.x_ext.T @ (self.y * _sigmoid(-margins)) / self.num_points

    def _value_and_gradient(self, w):
        margins = self.y * (self.x_ext @ w)  # -(y s) is exactly (-y) s: negation does not round
        value = float(np.mean(np.logaddexp(0.0, -margins)))
        return value, -self.x_ext.T @ (self.y * _sigmoid(-margins)) / self.num_points

    def _batch_values(self, ws):
        return np.logaddexp(0.0, -self.y * (ws @ self.x_ext.T)).mean(axis=1)


class _CrossEntropy(Cost):
    name = "cross_entropy"

    def __init__(self, x, y):
        super().__init__(x, y)
        check_labels(self.y, (0.0, 1.0), "cross_entropy")

    def _value(self, w):
        xp = _numpy_for(w)
        # -[y log s + (1-y) log(1-s)] with s = sigmoid(m) equals log(1+e^m) - y m.
        m = xp.dot(self.x_ext, w)
        return xp.mean(xp.logaddexp(0.0, m) - self.y * m)

    def _gradient(self, w):
        return self.x_ext.T @ (_sigmoid(self.x_ext @ w) - self.y) / self.num_points

    def _value_and_gradient(self, w):
        m = self.x_ext @ w
        value = float(np.mean(np.logaddexp(0.0, m) - self.y * m))
        return value, self.x_ext.T @ (_sigmoid(m) - self.y) / self.num_points

    def _batch_values(self, ws):
        m = ws @ self.x_ext.T
        return (np.logaddexp(0.0, m) - self.y * m).mean(axis=1)


class _MulticlassSoftmax(Cost):
    name = "multiclass_softmax"

    def __init__(self, x, y, num_classes: int | None = None):
        x_arr = as_inputs(x)
        y_arr = as_outputs(y, x_arr.shape[0], x_arr.shape)
        if not np.all(y_arr == np.round(y_arr)) or y_arr.min() < 0:
            raise ValueError(
                f"multiclass_softmax expects integer class labels 0, 1, ..., K-1; found {np.unique(y_arr)[:10].tolist()}."
            )
        found = int(y_arr.max()) + 1
        if num_classes is None:
            num_classes = found
        elif num_classes < found:
            raise ValueError(f"num_classes={num_classes} but y holds the label {found - 1}.")
        super().__init__(x_arr, y_arr, num_outputs=num_classes)
        self.num_classes = num_classes
        self.labels = y_arr.astype(int)
        self._one_hot = np.eye(num_classes)[self.labels]

    def _rebuild(self, x, y):
        return type(self)(x, y, self.num_classes)

    def _take_more(self, new, index):
        new.num_classes = self.num_classes
        new.labels = self.labels[index]
        new._one_hot = self._one_hot[index]

    def _value(self, w):
        xp = _numpy_for(w)
        scores = xp.dot(self.x_ext, w)
        top = xp.max(scores, axis=1, keepdims=True)
        log_norm = top[:, 0] + xp.log(xp.sum(xp.exp(scores - top), axis=1))
        return xp.mean(log_norm - xp.sum(scores * self._one_hot, axis=1))

    def _gradient(self, w):
        scores = self.x_ext @ w
        scores -= scores.max(axis=1, keepdims=True)
        probabilities = np.exp(scores)
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        return self.x_ext.T @ (probabilities - self._one_hot) / self.num_points

    def _value_and_gradient(self, w):
        scores = self.x_ext @ w
        top = scores.max(axis=1, keepdims=True)
        shifted = scores - top
        probabilities = np.exp(shifted)
        totals = probabilities.sum(axis=1, keepdims=True)
        value = float(np.mean(top[:, 0] + np.log(totals[:, 0]) - np.sum(scores * self._one_hot, axis=1)))
        probabilities /= totals
        return value, self.x_ext.T @ (probabilities - self._one_hot) / self.num_points

    def _batch_values(self, ws):
        return np.array([self._value(w) for w in ws])


class _Misclassifications(Cost):
    name = "misclassifications"

    def __init__(self, x, y):
        super().__init__(x, y)
        values = set(np.unique(self.y).tolist())
        if values <= {-1.0, 1.0}:
            self.kind = "plus_minus"
        elif values <= {0.0, 1.0}:
            self.kind = "zero_one"
        elif all(float(v).is_integer() and v >= 0 for v in values):
            self.kind = "multiclass"
        else:
            raise ValueError(
                "misclassifications expects -1/+1 labels, 0/1 labels or integer classes 0..K-1; "
                f"found {sorted(values)[:10]}."
            )

    def _take_more(self, new, index):
        new.kind = self.kind

    def _check(self, w) -> None:
        if self.kind == "multiclass" and np.ndim(w) != 2:
            # Integer classes need one column of weights per class (arg-max).
            check_weights(w, (self.num_features + 1, int(self.y.max()) + 1), self.x.shape)
        if self.kind in ("multiclass", "zero_one") and np.ndim(w) == 2:
            check_weights(w, (self.num_features + 1, np.shape(w)[1]), self.x.shape)
        else:
            check_weights(w, (self.num_features + 1,), self.x.shape)

    def _value(self, w):
        scores = self.x_ext @ np.asarray(w, dtype=float)
        if scores.ndim == 2:
            predicted = scores.argmax(axis=1)
        elif self.kind == "zero_one":
            predicted = (scores > 0).astype(float)
        else:
            predicted = np.where(scores > 0, 1.0, -1.0)
        return int(np.count_nonzero(predicted != self.y))

    def gradient(self, w):
        raise TypeError("the number of misclassifications is piecewise constant: it has no useful gradient.")

    def batch(self, ws):
        return np.array([self(w) for w in np.asarray(ws, dtype=float)])


def least_squares(x, y) -> Cost:
    """Least-squares cost ``(1/P) Σ (w[0] + x_p @ w[1:] − y_p)²`` (chapter 1).

    Parameters
    ----------
    x : array of shape (P, N)
    y : array of shape (P,)

    Returns
    -------
    Cost
        ``g(w)`` for ``w`` of shape (N+1,). Its gradient is
        ``(2/P) X̃ᵀ(X̃w − y)`` and its Hessian ``(2/P) X̃ᵀX̃``, where ``X̃`` is
        ``x`` with a leading column of ones.
    """
    return _LeastSquares(x, y)


def least_absolute_deviations(x, y) -> Cost:
    """Least-absolute-deviations cost ``(1/P) Σ |w[0] + x_p @ w[1:] − y_p|`` (chapter 1).

    Less sensitive to outliers than least squares; not differentiable where a
    residual is zero (``gradient`` uses ``sign(0) = 0`` there).
    """
    return _LeastAbsoluteDeviations(x, y)


def softmax(x, y) -> Cost:
    """Two-class softmax cost ``(1/P) Σ log(1 + exp(−y_p model_p))`` for labels ±1 (chapter 3).

    Computed as ``logaddexp(0, −y·model)``, so large margins neither overflow
    nor lose the cost to rounding.

    Raises
    ------
    ValueError
        If ``y`` holds anything other than -1 and +1.
    """
    return _Softmax(x, y)


def cross_entropy(x, y) -> Cost:
    """Cross-entropy (log loss) for labels 0/1 (chapter 3).

    ``(1/P) Σ −[y_p log σ(model_p) + (1−y_p) log(1−σ(model_p))]`` with σ the
    logistic function. With labels mapped by ``y = 2·y01 − 1`` it equals the
    softmax cost exactly.
    """
    return _CrossEntropy(x, y)


def multiclass_softmax(x, y, num_classes: int | None = None) -> Cost:
    """Multiclass softmax (cross-entropy over K classes) for integer labels (chapter 3).

    ``(1/P) Σ [log Σ_k exp(model_p,k) − model_p,y_p]`` with
    ``model = w[0] + x @ w[1:]`` and ``w`` of shape ``(N+1, K)``.
    ``K`` defaults to ``max(y) + 1``.
    """
    return _MulticlassSoftmax(x, y, num_classes)


def misclassifications(x, y) -> Cost:
    """Number of misclassified points, a metric to report beside the cost (chapter 3).

    Labels may be ±1 (predict ``sign(model)``), 0/1 (predict ``model > 0``) or,
    for weights of shape ``(N+1, K)``, integer classes (predict the arg-max).
    ``g(w)`` returns an ``int``.
    """
    return _Misclassifications(x, y)


# ---------------------------------------------------------------- chapter 3: probabilities of a linear classifier

__all__ += ["sigmoid", "class_probabilities"]


def sigmoid(t):
    """The logistic function ``σ(t) = 1 / (1 + exp(−t))`` (chapter 3).

    Computed as ``1 / (1 + exp(−t))`` for ``t ≥ 0`` and ``exp(t) / (1 + exp(t))``
    for ``t < 0``, so ``exp`` never overflows (``sigmoid(−1000)`` is 0 and
    ``sigmoid(1000)`` is 1, without a warning) and tiny probabilities keep
    their relative accuracy.

    Parameters
    ----------
    t : number or array
        Any shape; ``±inf`` are allowed (they give 0 and 1), NaN is not.

    Returns
    -------
    float or array of the same shape as ``t``
        Values in ``[0, 1]``. The input is not modified.

    Raises
    ------
    ValueError
        If ``t`` is not numeric or holds NaN.
    """
    try:
        arr = np.asarray(t, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"sigmoid expects numbers (a scalar or an array); found {type(t).__name__}.") from None
    if np.isnan(arr).any():
        raise ValueError(f"sigmoid found {int(np.isnan(arr).sum())} NaN value(s) in its input; expected numbers.")
    values = _accurate_sigmoid(arr)
    return float(values) if values.ndim == 0 else values


def _accurate_sigmoid(t: np.ndarray) -> np.ndarray:
    """σ(t) with full relative accuracy on both tails and no overflow."""
    t = np.asarray(t, dtype=float)
    e = np.exp(-np.abs(t))  # in (0, 1]: never overflows
    return np.where(t >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def class_probabilities(x, w):
    """Probabilities that a linear classifier assigns to each point (chapter 3).

    Parameters
    ----------
    x : array of shape (P, N)
    w : array of shape (N+1,) or (N+1, K)
        Two-class weights (bias first) or one column of weights per class.

    Returns
    -------
    array
        For ``w`` of shape ``(N+1,)``: shape ``(P,)``, the probability
        ``σ(w[0] + x @ w[1:])`` of class 1 (label 1 of :func:`cross_entropy`,
        label +1 of :func:`softmax`). For ``w`` of shape ``(N+1, K)``: shape
        ``(P, K)``, the softmax of the K scores of each point; each row sums
        to 1 (the probabilities of :func:`multiclass_softmax`).

    Raises
    ------
    ValueError
        If ``x`` is not a finite ``(P, N)`` array or ``w`` does not fit it.
    """
    x = as_inputs(x)
    w_arr = np.asarray(w, dtype=float)
    if w_arr.ndim not in (1, 2):
        raise ValueError(f"w must have shape (N+1,) or (N+1, K); found shape {w_arr.shape}.")
    if not np.all(np.isfinite(w_arr)):
        raise ValueError("w holds NaN or infinite values; expected finite weights.")
    scores = model(x, w_arr)
    if w_arr.ndim == 1:
        return _accurate_sigmoid(scores)
    scores = scores - scores.max(axis=1, keepdims=True)
    exponentials = np.exp(scores)
    return exponentials / exponentials.sum(axis=1, keepdims=True)
