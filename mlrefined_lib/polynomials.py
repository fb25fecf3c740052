"""Polynomial features: every monomial of the inputs up to a degree (chapter 4).

A linear model on polynomial features is still linear in its weights, so the
least-squares cost stays a convex quadratic and the normal equation and
gradient descent of chapter 1 apply unchanged; only the features change.
"""

from __future__ import annotations

import numbers
from itertools import combinations_with_replacement
from math import comb

import numpy as np

from ._validation import as_inputs, check_scalar

__all__ = ["polynomial_features", "num_polynomial_features", "polynomial_powers"]


def _check_degree(degree) -> int:
    """degree >= 1: degree 1 gives the inputs themselves."""
    return check_scalar(degree, "degree", numbers.Integral, min_val=1)


def _check_num_inputs(num_inputs) -> int:
    return check_scalar(num_inputs, "num_inputs", numbers.Integral, min_val=1)


def num_polynomial_features(num_inputs: int, degree: int, include_bias: bool = True) -> int:
    """How many monomials of ``num_inputs`` variables have degree at most ``degree`` (chapter 4).

    There are ``(n + d)! / (d! n!)``, the binomial coefficient ``C(n + d, d)``,
    counting the constant monomial 1; ``include_bias=False`` leaves it out.

    Parameters
    ----------
    num_inputs : int >= 1
        n, the number of input variables.
    degree : int >= 1
        d, the largest total degree.
    include_bias : bool
        Count the constant monomial.

    Returns
    -------
    int
    """
    n, d = _check_num_inputs(num_inputs), _check_degree(degree)
    return comb(n + d, d) - (0 if include_bias else 1)


def polynomial_powers(num_inputs: int, degree: int, include_bias: bool = False) -> np.ndarray:
    """The exponents of the columns of :func:`polynomial_features` (chapter 4).

    Row ``j`` gives the power of each input in column ``j``: for two inputs
    and degree 2 the rows are ``[1, 0], [0, 1], [2, 0], [1, 1], [0, 2]``
    (``x1, x2, x1², x1 x2, x2²``). The order is scikit-learn's
    ``PolynomialFeatures(degree).powers_``: by total degree, and within a
    degree lexicographic in the input indices.

    Returns
    -------
    powers : int array of shape (num_polynomial_features(n, d, include_bias), n)
    """
    n, d = _check_num_inputs(num_inputs), _check_degree(degree)
    rows = [np.zeros(n, dtype=int)] if include_bias else []
    for total in range(1, d + 1):
        for combination in combinations_with_replacement(range(n), total):
            rows.append(np.bincount(combination, minlength=n))
    return np.array(rows, dtype=int).reshape(-1, n)


def polynomial_features(x, degree: int, include_bias: bool = False) -> np.ndarray:
    """All monomials of the inputs of total degree 1 to ``degree`` (chapter 4).

    For n inputs there are ``(n + d)! / (d! n!)`` monomials of degree at most
    d, including the constant 1. The constant is left out by default because
    the book's models carry their own bias weight ``w[0]``.

    Columns come in the order of scikit-learn's ``PolynomialFeatures``: by
    total degree, and within a degree lexicographic in the input indices
    (:func:`polynomial_powers` lists the exponents). With one input the
    columns are simply ``x, x², …, x^d``.

    High powers of large inputs overflow and make the least-squares problem
    badly conditioned: scale the inputs to about [−1, 1] first (chapter 4
    divides by the input range; chapter 7 standard-normalizes).

    Parameters
    ----------
    x : array of shape (P, n)
    degree : int >= 1
    include_bias : bool
        Put a column of ones first.

    Returns
    -------
    features : array of shape (P, num_polynomial_features(n, degree, include_bias))
        A new array; ``x`` is not modified.

    Raises
    ------
    ValueError
        If ``degree`` is not an integer >= 1, or ``x`` is not a finite 2-D array.
    """
    degree = _check_degree(degree)
    x = as_inputs(x)
    columns = [np.ones(len(x))] if include_bias else []
    # Build degree k from degree k-1: each new monomial is a lower one times one input,
    # the input index never below the last one used (so every combination appears once).
    previous = [(np.ones(len(x)), 0)]          # (monomial values, smallest input index allowed next)
    for _ in range(degree):
        current = []
        for values, first in previous:
            for j in range(first, x.shape[1]):
                current.append((values * x[:, j], j))
        columns.extend(values for values, _ in current)
        previous = current
    return np.column_stack(columns)


# ---------------------------------------------------------------- interactions

__all__ += ["num_interactions", "interaction_features"]


def num_interactions(num_inputs: int) -> int:
    """How many products of two different inputs N inputs give: N(N − 1)/2 (chapter 4).

    The degree-2 monomials of :func:`num_polynomial_features` also count the
    N squares; interactions leave them out.

    Raises
    ------
    ValueError
        If num_inputs is not a positive integer.
    """
    num_inputs = _check_num_inputs(num_inputs)
    return num_inputs * (num_inputs - 1) // 2


def interaction_features(x, include_inputs: bool = True) -> np.ndarray:
    """Products ``x_i x_j`` of every pair of different inputs, i < j (chapter 4).

    A linear model on ``x_1, x_2`` cannot express "the effect of x_1 depends on
    x_2"; with the column ``x_1 x_2`` it can, and stays linear in its weights.
    The columns are ordered as scikit-learn's
    ``PolynomialFeatures(degree=2, interaction_only=True, include_bias=False)``
    orders them: the inputs first (unless ``include_inputs`` is false), then
    the pairs (0, 1), (0, 2), …, (1, 2), ….

    Parameters
    ----------
    x : array of shape (P, N), N >= 2
    include_inputs : bool

    Returns
    -------
    array of shape (P, N + N(N − 1)/2), or (P, N(N − 1)/2)

    Raises
    ------
    ValueError
        If x is not a finite 2-D array with at least two columns.
    """
    x = as_inputs(x)
    if x.shape[1] < 2:
        raise ValueError(f"interactions need at least 2 inputs; x has shape {x.shape}.")
    pairs = [x[:, i] * x[:, j] for i in range(x.shape[1]) for j in range(i + 1, x.shape[1])]
    products = np.column_stack(pairs)
    return np.hstack([x, products]) if include_inputs else products
