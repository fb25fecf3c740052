"""Which features a fitted model leans on: permutation importance (chapter 11).

:func:`permutation_importance` shuffles one column of the validation rows at a
time and measures how much the model's error rises; a feature the model does
not use gets 0. It needs no refit and works for any model, but it answers a
question about *this* model on *these* rows: when two features are twins,
shuffling one leaves the other to carry the signal, so each looks less
important than the pair is.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._validation import as_inputs, as_outputs, check_scalar

__all__ = ["PermutationImportance", "permutation_importance"]


@dataclass(repr=False)
class PermutationImportance:
    """The rise in error when each column is shuffled (chapter 11).

    Attributes
    ----------
    baseline : float
        The error on the rows as they are.
    importances : array of shape (N, repeats)
        ``error(shuffled column n, repeat r) − baseline``.
    names : list of str
    """

    baseline: float
    importances: np.ndarray
    names: list

    @property
    def mean(self) -> np.ndarray:
        """Mean rise in error per column over the repeats."""
        return self.importances.mean(axis=1)

    @property
    def spread(self) -> np.ndarray:
        """Standard deviation (ddof = 1) of the rise per column over the repeats (0 with one repeat)."""
        if self.importances.shape[1] < 2:
            return np.zeros(self.importances.shape[0])
        return self.importances.std(axis=1, ddof=1)

    def __repr__(self) -> str:
        order = np.argsort(-self.mean, kind="stable")
        width = max(len(name) for name in self.names)
        lines = [f"baseline error {self.baseline:.4g}; rise when shuffled (mean ± sd over "
                 f"{self.importances.shape[1]} repeats):"]
        lines += [f"  {self.names[n]:<{width}}  {self.mean[n]:.4g} ± {self.spread[n]:.2g}" for n in order]
        return "\n".join(lines)


def permutation_importance(model, error: Callable, x, y, *, repeats: int = 10, seed: int | None = 0,
                           names=None) -> PermutationImportance:
    """Permutation importance of each column of ``x`` for a fitted model (chapter 11).

    For each column n and each repeat, the column's values are shuffled among
    the rows (``numpy.random.default_rng(seed)``, one permutation per column
    and repeat, drawn in that order), the other columns left as they are, and
    ``error(model, shuffled, y) − error(model, x, y)`` is recorded. Score on
    rows the model was not fitted to (validation folds): on training rows it
    measures what the model memorized as well.

    Parameters
    ----------
    model : object
        Whatever ``error`` accepts (the book's weights, or a fitted estimator).
    error : callable
        ``error(model, x, y) -> float``; lower is better.
    x : array of shape (P, N)
    y : array of shape (P,)
    repeats : int >= 1
    seed : int or None
    names : sequence of N str, optional

    Returns
    -------
    PermutationImportance

    Raises
    ------
    ValueError
        For malformed x or y, repeats not a positive integer, an error that
        is not a finite number, or names of the wrong length.
    """
    if not callable(error):
        raise ValueError(f"error must be a function error(model, x, y); found {type(error).__name__}.")
    x = as_inputs(x)
    y = as_outputs(y, x.shape[0], x.shape)
    repeats = check_scalar(repeats, "repeats", numbers.Integral, min_val=1)
    check_scalar(seed, "seed", numbers.Integral, allow_none=True)
    if names is None:
        names = [f"x{n}" for n in range(x.shape[1])]
    names = [str(name) for name in names]
    if len(names) != x.shape[1]:
        raise ValueError(f"names must give one name per column: x has {x.shape[1]} but {len(names)} were given.")

    def scored(rows: np.ndarray, where: str) -> float:
        value = float(error(model, rows, y.copy()))
        if not np.isfinite(value):
            raise ValueError(f"error returned {value} on {where}; it must be a finite number.")
        return value

    baseline = scored(x.copy(), "the rows as they are")
    rng = np.random.default_rng(seed)
    importances = np.zeros((x.shape[1], repeats))
    for n in range(x.shape[1]):
        for r in range(repeats):
            shuffled = x.copy()
            shuffled[:, n] = x[rng.permutation(x.shape[0]), n]
            importances[n, r] = scored(shuffled, f"column {n} shuffled") - baseline
    return PermutationImportance(baseline, importances, names)
