"""Cross-validation (chapter 5): folds, scores per fold and tuning.

Every function keeps the book's convention ``fit(x, y) -> model`` and
``error(model, x, y) -> float``:

* :func:`k_fold` (plain, stratified by ``labels`` or grouped by ``groups``)
  and :func:`time_folds` (forward chaining) build the folds;
* :func:`cross_validate` scores a fit on each fold → :class:`CrossValidationResult`;
* :func:`grid_search` cross-validates one fit per parameter and picks the best
  and the one-standard-error choice → :class:`GridSearchResult`;
* :func:`nested_cross_validate` tunes inside each outer training part and
  scores the tuned model on the outer validation part → :class:`NestedCrossValidationResult`.

Comparing two models on the same folds or rows is in :mod:`mlrefined_lib.comparison`.

Everything here is also importable from the package (``ml.k_fold``).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ._validation import as_inputs, as_outputs, check_scalar
from .guards import check_natural_ends, edge_message, repeats_message, validation_repeats, warn_method

__all__ = [
    "k_fold",
    "time_folds",
    "CrossValidationResult",
    "cross_validate",
    "GridSearchResult",
    "grid_search",
    "NestedCrossValidationResult",
    "nested_cross_validate",
]


Folds = list[tuple[np.ndarray, np.ndarray]]
"""k (train_indices, validation_indices) pairs of sorted integer arrays."""


def _standard_error(values: np.ndarray) -> float:
    """Sample standard deviation (ddof = 1) of k values divided by √k."""
    return float(np.std(values, ddof=1) / np.sqrt(len(values)))


class _PerFoldSummary:
    """The mean and standard error of one value per fold, shared by the result classes below.

    A subclass names the attribute that holds its per-fold values in ``_per_fold``.
    """

    _per_fold: ClassVar[str]

    def _fold_values(self) -> np.ndarray:
        return getattr(self, self._per_fold)

    def _fold_mean(self) -> float:
        return float(np.mean(self._fold_values()))

    @property
    def standard_error(self) -> float:
        """Sample standard deviation of the per-fold values (ddof = 1) over √k.

        Issues a :class:`~mlrefined_lib.guards.MethodWarning` when the folds validated the same rows
        several times (``repeats`` above 1): repeated folds are not new data, and this number shrinks
        as repeats are added.
        """
        repeats = getattr(self, "repeats", 1)
        if repeats > 1:
            warn_method(repeats_message(len(self._fold_values()), repeats))
        return _standard_error(self._fold_values())

    def _summary(self, what: str) -> str:
        """``"k folds: <what> mean ± standard error (standard error)"``, the start of a repr."""
        return (f"{len(self._fold_values())} folds: {what} {self._fold_mean():.4f} "
                f"± {self.standard_error:.4f} (standard error)")


def _check_callables(**functions) -> None:
    for name, function in functions.items():
        if not callable(function):
            raise ValueError(f"{name} must be a function; found {type(function).__name__}.")


def _as_one_per_point(values, num_points: int, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D with one entry per point; found shape {arr.shape}.")
    if arr.shape[0] != num_points:
        raise ValueError(
            f"{name} has length {arr.shape[0]} but num_points is {num_points}: give one entry per point."
        )
    return arr


def _folds_from_assignment(fold_of: np.ndarray, k: int) -> Folds:
    """Turn "row p is validated in fold fold_of[p]" into k sorted (train, validation) index pairs."""
    return [(np.flatnonzero(fold_of != fold), np.flatnonzero(fold_of == fold)) for fold in range(k)]


def k_fold(num_points: int, k: int, *, seed: int | None = 0, labels=None, groups=None) -> Folds:
    """Split ``range(num_points)`` into k folds for k-fold cross-validation (chapter 5).

    Fold i validates on its own part of the rows and trains on all the others:
    the k validation parts partition ``range(num_points)`` and each training
    part is the complement of its validation part. Both are sorted ascending.

    * Plain (no ``labels``, no ``groups``): fold sizes differ by at most one,
      the first ``num_points % k`` folds being the larger ones. With
      ``seed=None`` the folds are contiguous blocks in row order (the same
      indices as scikit-learn's ``KFold(k)``); with an integer seed the rows
      are first shuffled with ``numpy.random.default_rng(seed)``.
    * Stratified (``labels``): each class's members (shuffled with the seed,
      or in row order with ``seed=None``; classes in sorted order) are dealt
      round-robin to the folds, the fold pointer carrying on from one class
      to the next. Each class's count in each fold is then within one of its
      share ``count / k``, and fold sizes are within one of each other.
    * Grouped (``groups``): whole groups are assigned, largest group first, to
      the fold that currently holds the fewest rows (ties go to the lower fold
      index), so no group is in two folds. With an integer seed the group
      order is shuffled before the (stable) size sort, so equal-size groups
      are spread reproducibly; with ``seed=None`` equal-size groups keep their
      sorted order. Fold sizes are as even as the group sizes allow.

    Parameters
    ----------
    num_points : int >= 1
        The number P of rows to split.
    k : int, 2 … num_points
        Number of folds.
    seed : int or None
        Seed of the shuffle; None keeps the row order.
    labels : array of shape (P,), optional
        Class of each row, to stratify on. Every class needs at least k members.
    groups : array of shape (P,), optional
        Group of each row (a patient, a session, ...); rows of one group stay
        in one fold. There must be at least k distinct groups.

    Returns
    -------
    list of k pairs ``(train_indices, validation_indices)``
        Sorted integer arrays.

    Raises
    ------
    ValueError
        k not an integer (bools refused), below 2 or above num_points;
        ``labels`` or ``groups`` of the wrong length; both given (use one);
        a class with fewer than k members; fewer than k distinct groups.
    """
    num_points = check_scalar(num_points, "num_points", numbers.Integral, min_val=1)
    k = check_scalar(k, "k", numbers.Integral, min_val=2)
    if k > num_points:
        raise ValueError(f"k = {k} folds is larger than num_points = {num_points}: every fold needs a row.")
    check_scalar(seed, "seed", numbers.Integral, allow_none=True)
    if labels is not None and groups is not None:
        raise ValueError(
            "stratifying by labels and grouping by groups together is not supported; use one of them "
            "(labels= or groups=)."
        )
    rng = np.random.default_rng(seed) if seed is not None else None

    if labels is not None:
        labels = _as_one_per_point(labels, num_points, "labels")
        classes, codes, counts = np.unique(labels, return_inverse=True, return_counts=True)
        codes = codes.ravel()
        small = np.flatnonzero(counts < k)
        if small.size:
            cls = small[0]
            raise ValueError(
                f"class {classes[cls].item()!r} has only {counts[cls]} member(s), fewer than k = {k}, so some fold "
                "would have none of it; use a smaller k or merge rare classes."
            )
        fold_of = np.empty(num_points, dtype=int)
        pointer = 0
        for code in range(classes.size):
            members = np.flatnonzero(codes == code)
            if rng is not None:
                members = rng.permutation(members)
            fold_of[members] = (pointer + np.arange(members.size)) % k
            pointer = (pointer + members.size) % k
        return _folds_from_assignment(fold_of, k)

    if groups is not None:
        groups = _as_one_per_point(groups, num_points, "groups")
        names, codes, counts = np.unique(groups, return_inverse=True, return_counts=True)
        codes = codes.ravel()
        if names.size < k:
            raise ValueError(
                f"groups holds {names.size} distinct group(s), fewer than k = {k}; every fold needs a whole "
                "group, so use a smaller k."
            )
        order = np.arange(names.size) if rng is None else rng.permutation(names.size)
        order = order[np.argsort(-counts[order], kind="stable")]
        fold_of_group = np.empty(names.size, dtype=int)
        sizes = np.zeros(k, dtype=int)
        for group in order:
            fold = int(np.argmin(sizes))          # the first of the smallest folds
            fold_of_group[group] = fold
            sizes[fold] += counts[group]
        return _folds_from_assignment(fold_of_group[codes], k)

    order = np.arange(num_points) if rng is None else rng.permutation(num_points)
    sizes = np.full(k, num_points // k)
    sizes[: num_points % k] += 1
    fold_of = np.empty(num_points, dtype=int)
    fold_of[order] = np.repeat(np.arange(k), sizes)
    return _folds_from_assignment(fold_of, k)


def time_folds(num_points: int, k: int) -> Folds:
    """Forward-chaining folds for rows in time order (chapter 5).

    The rows are cut into k + 1 contiguous blocks: the last k have
    ``num_points // (k + 1)`` rows each and the first takes the remainder.
    Fold i validates on block i + 1 and trains on every row before it, so a
    model is never scored on the past of its training data. The validation
    blocks are contiguous, in order, and together cover the last rows. These
    are the indices of scikit-learn's ``TimeSeriesSplit(n_splits=k)``.

    Parameters
    ----------
    num_points : int, at least k + 1
    k : int >= 2
        Number of folds.

    Returns
    -------
    list of k pairs ``(train_indices, validation_indices)``
        Sorted integer arrays; ``train_indices`` is ``0 … start − 1`` and
        ``validation_indices`` is ``start … start + block − 1``.

    Raises
    ------
    ValueError
        k not an integer or below 2, or num_points < k + 1 (every validation
        block needs at least one row and a training row before it).
    """
    num_points = check_scalar(num_points, "num_points", numbers.Integral, min_val=1)
    k = check_scalar(k, "k", numbers.Integral, min_val=2)
    if num_points < k + 1:
        raise ValueError(
            f"time_folds with k = {k} needs at least k + 1 = {k + 1} rows (k validation blocks and a training "
            f"block before them); found num_points = {num_points}."
        )
    block = num_points // (k + 1)
    first = num_points - k * block
    return [(np.arange(start), np.arange(start, start + block)) for start in range(first, num_points, block)]


def _check_folds(folds, num_points: int) -> Folds:
    """Return folds as a list of (train, validation) integer arrays within range(num_points), or raise."""
    if isinstance(folds, (str, bytes, np.ndarray)) or not isinstance(folds, (list, tuple)):
        raise ValueError(
            "folds must be a list of (train_indices, validation_indices) pairs, such as k_fold(P, 5); "
            f"found {type(folds).__name__}."
        )
    if len(folds) < 2:
        raise ValueError(
            f"folds must hold at least 2 (train, validation) pairs to estimate a standard error; found {len(folds)}."
        )
    checked = []
    for number, pair in enumerate(folds):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ValueError(
                f"fold {number} must be a (train_indices, validation_indices) pair; found {type(pair).__name__}"
                + (f" of length {len(pair)}." if isinstance(pair, (list, tuple)) else ".")
            )
        arrays = []
        for part, indices in zip(("train", "validation"), pair):
            arr = np.asarray(indices)
            if arr.ndim != 1 or arr.size == 0:
                raise ValueError(
                    f"fold {number}'s {part} indices must be a non-empty 1-D array; found shape {arr.shape}."
                )
            if not np.issubdtype(arr.dtype, np.integer):
                raise ValueError(
                    f"fold {number}'s {part} indices must be integers (row numbers); found dtype {arr.dtype}. "
                    "For a boolean mask use np.flatnonzero(mask)."
                )
            if arr.min() < 0 or arr.max() >= num_points:
                bad = arr[(arr < 0) | (arr >= num_points)][0]
                raise ValueError(
                    f"fold {number}'s {part} indices must be in 0 … {num_points - 1} (x has P = {num_points} rows); "
                    f"found {bad}."
                )
            arrays.append(arr.astype(np.intp))
        shared = np.intersect1d(arrays[0], arrays[1])
        if shared.size:
            raise ValueError(
                f"fold {number} has {shared.size} row(s) both in train and in validation (first: row {shared[0]}); "
                "a model must not be scored on rows it was fitted to."
            )
        checked.append((arrays[0], arrays[1]))
    return checked


@dataclass
class CrossValidationResult(_PerFoldSummary):
    """The validation error of each fold of a cross-validation (chapter 5).

    Attributes
    ----------
    scores : array of shape (k,)
        ``error(model_i, x[validation_i], y[validation_i])`` for each fold i, in fold order.

    repeats : int
        How many times the folds validated the most-validated row: 1 for one
        run of k-fold, R for R repeats of it (:func:`cross_validate` counts it).

    The properties ``mean`` (the cross-validation estimate of the error) and
    ``standard_error`` (the sample standard deviation of the scores, ddof = 1,
    divided by √k) are computed from ``scores``. With ``repeats`` above 1,
    ``standard_error`` warns (:class:`~mlrefined_lib.guards.MethodWarning`):
    over repeated folds it shrinks with the number of repeats.
    """

    scores: np.ndarray
    repeats: int = 1
    _per_fold: ClassVar[str] = "scores"

    @property
    def mean(self) -> float:
        """Mean of the fold scores."""
        return self._fold_mean()

    def __repr__(self) -> str:
        return f"CrossValidationResult({self._summary('mean')})"


def _score(model, error: Callable, x_val: np.ndarray, y_val: np.ndarray, where: str) -> float:
    """``error(model, x_val, y_val)`` as a float; raise a ValueError naming ``where`` unless it is finite."""
    value = error(model, x_val, y_val)
    try:
        score = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"error must return a number; on {where} it returned {type(value).__name__}.") from None
    if not np.isfinite(score):
        raise ValueError(
            f"error returned {score} on {where}; a cross-validation score must be a finite number. "
            "Check the fit on that fold's training rows (a diverged or singular fit?)."
        )
    return score


def _scores(fit: Callable, error: Callable, x: np.ndarray, y: np.ndarray, folds: Folds, what: str = "") -> np.ndarray:
    """Fit on each training part and score on its validation part, one score per fold."""
    scores = []
    for number, (train, validation) in enumerate(folds):
        model = fit(x[train], y[train])            # fancy indexing copies: the caller's arrays stay untouched
        scores.append(_score(model, error, x[validation], y[validation], f"fold {number}{what}"))
    return np.array(scores)


def cross_validate(fit: Callable, error: Callable, x, y, folds) -> CrossValidationResult:
    """Fit on each fold's training rows and score on its validation rows (chapter 5).

    For fold i with ``(train, validation)`` it records
    ``error(fit(x[train], y[train]), x[validation], y[validation])``. The fit
    sees copies of the training rows only; the caller's ``x`` and ``y`` are
    never modified. Given the same folds and a scorer that is the negated
    error, scikit-learn's ``cross_val_score`` gives the negated scores.

    Parameters
    ----------
    fit : callable
        ``fit(x, y) -> model``.
    error : callable
        ``error(model, x, y) -> float``; lower is better.
    x : array of shape (P, N)
    y : array of shape (P,)
    folds : list of (train_indices, validation_indices)
        At least 2 pairs of integer arrays with entries in ``0 … P − 1``, a
        row never in both parts of one fold; e.g. from :func:`k_fold` or
        :func:`time_folds`.

    Returns
    -------
    CrossValidationResult
        ``.scores`` (one per fold), ``.mean`` and ``.standard_error``, and
        ``.repeats``, how many times the folds validate the most-validated row.

    Raises
    ------
    ValueError
        fit or error not callable; shapes that disagree; folds that are not a
        list of valid (train, validation) pairs; a score that is NaN or
        infinite (the message names the fold).
    """
    _check_callables(fit=fit, error=error)
    x = as_inputs(x, "x")
    y = as_outputs(y, x.shape[0], x.shape, "y")
    folds = _check_folds(folds, x.shape[0])
    return CrossValidationResult(_scores(fit, error, x, y, folds), validation_repeats(folds))


@dataclass
class GridSearchResult:
    """Cross-validation of one model per parameter value, and two ways to choose (chapter 5).

    Attributes
    ----------
    params : list
        The parameter values, in the order given (simplest model first).
    results : list of CrossValidationResult
        One per parameter value, all on the same folds.
    best_index : int
        Index of the lowest mean validation error (the first of equals).
    one_standard_error_index : int
        Index of the first (simplest) parameter whose mean is at most the best
        mean plus the best's standard error.
    best_param, one_standard_error_param : the parameter values at those indices.
    means, standard_errors : arrays of shape (len(params),).
    """

    params: list
    results: list
    best_index: int
    one_standard_error_index: int

    @property
    def best_param(self):
        """The parameter value with the lowest mean validation error."""
        return self.params[self.best_index]

    @property
    def one_standard_error_param(self):
        """The simplest parameter value within one standard error of the best mean."""
        return self.params[self.one_standard_error_index]

    @property
    def means(self) -> np.ndarray:
        """Mean validation error of each parameter value."""
        return np.array([result.mean for result in self.results])

    @property
    def standard_errors(self) -> np.ndarray:
        """Standard error of each parameter value's mean."""
        return np.array([result.standard_error for result in self.results])

    def __repr__(self) -> str:
        best = self.results[self.best_index]
        chosen = self.results[self.one_standard_error_index]
        return (
            f"GridSearchResult({len(self.params)} params: best {self.best_param!r} with mean {best.mean:.4f} "
            f"± {best.standard_error:.4f}; one-standard-error choice {self.one_standard_error_param!r} "
            f"with mean {chosen.mean:.4f} ± {chosen.standard_error:.4f})"
        )


def _check_fit_for(fit_for: Callable, params) -> tuple[list, list]:
    """Return (params as a list, one fit function per param), or raise before any fitting."""
    _check_callables(fit_for=fit_for)
    if isinstance(params, (str, bytes)):
        raise ValueError(f"params must be a sequence of parameter values; found the string {params!r}.")
    try:
        params = list(params)
    except TypeError:
        raise ValueError(f"params must be a sequence of parameter values; found {type(params).__name__}.") from None
    if not params:
        raise ValueError("params must hold at least one parameter value; found none.")
    fits = []
    for param in params:
        fit = fit_for(param)
        if not callable(fit):
            raise ValueError(
                f"fit_for(param) must return a fit function fit(x, y) -> model; for param {param!r} it returned "
                f"{type(fit).__name__}."
            )
        fits.append(fit)
    return params, fits


def _search(params: list, fits: list, error: Callable, x, y, folds, what: str = "") -> GridSearchResult:
    results, repeats = [], validation_repeats(folds)
    for param, fit in zip(params, fits):
        results.append(CrossValidationResult(_scores(fit, error, x, y, folds, f"{what} (param {param!r})"),
                                             repeats))
    means = np.array([result.mean for result in results])
    best = int(np.argmin(means))
    threshold = means[best] + results[best].standard_error
    one_standard_error = int(np.flatnonzero(means <= threshold)[0])
    return GridSearchResult(params, results, best, one_standard_error)


def grid_search(fit_for: Callable, error: Callable, x, y, params, folds, *,
                natural_ends: str = "none") -> GridSearchResult:
    """Cross-validate one model per parameter value on the same folds (chapter 5).

    For each ``param`` it runs ``cross_validate(fit_for(param), error, x, y, folds)``.
    The best parameter has the lowest mean validation error. The
    one-standard-error rule instead picks the *simplest* parameter whose mean
    is at most the best mean plus the best's standard error; "simplest"
    means first in ``params``, so list them from simplest to most complex
    (for ridge: the largest λ first; for polynomials: the lowest degree first).

    When the params are numbers and either choice is the first or the last of
    them, the grid may have stopped the search short: a
    :class:`~mlrefined_lib.guards.MethodWarning` names the value and the grid.
    An end that is the parameter's own limit (0 boosting rounds, all the
    features) is declared with ``natural_ends`` and not warned about.

    Parameters
    ----------
    fit_for : callable
        ``fit_for(param) -> fit``, where ``fit(x, y) -> model``.
    error : callable
        ``error(model, x, y) -> float``; lower is better.
    x : array of shape (P, N)
    y : array of shape (P,)
    params : sequence
        Parameter values, simplest first.
    folds : list of (train_indices, validation_indices)
        As for :func:`cross_validate`.
    natural_ends : {"none", "first", "last", "both"}
        Which ends of ``params`` are the parameter's own limits, where a
        choice needs no wider grid.

    Returns
    -------
    GridSearchResult

    Raises
    ------
    ValueError
        As :func:`cross_validate`; also when params is empty, ``fit_for``
        returns something that is not callable or ``natural_ends`` is not one
        of its four values (checked before any fitting).

    Warns
    -----
    MethodWarning
        When the lowest mean or the one-standard-error choice is an open end
        of a grid of numbers; when the folds validate rows more than once
        (the one-standard-error rule then uses a standard error over repeats).
    """
    _check_callables(error=error)
    x = as_inputs(x, "x")
    y = as_outputs(y, x.shape[0], x.shape, "y")
    folds = _check_folds(folds, x.shape[0])
    params, fits = _check_fit_for(fit_for, params)
    check_natural_ends(natural_ends)
    search = _search(params, fits, error, x, y, folds)
    choices = {search.best_index: "the lowest mean"}
    choices.setdefault(search.one_standard_error_index, "the one-standard-error choice")
    for index, what in choices.items():
        message = edge_message(params, index, what, natural_ends)
        if message:
            warn_method(message)
    return search


def _statistic_of(result: str, statistic: str, doc: str) -> property:
    """A read-only float property ``self.<result>.<statistic>`` documented by ``doc``."""

    def get(self) -> float:
        return getattr(getattr(self, result), statistic)

    get.__name__ = get.__qualname__ = f"{result}_{statistic}"
    return property(get, doc=doc)


@dataclass
class NestedCrossValidationResult:
    """What a nested cross-validation chose and scored, outer fold by outer fold (chapter 5).

    Attributes
    ----------
    chosen_params : list
        The parameter with the lowest inner mean, for each outer fold.
    inner_scores : array of shape (K,)
        That lowest inner mean for each outer fold: the tuned, optimistic score.
    outer_scores : array of shape (K,)
        The error on the outer validation rows of the model refitted with the
        chosen parameter on all outer training rows: the honest score.
    searches : list of GridSearchResult
        The inner search of each outer fold.
    inner, outer : CrossValidationResult
        The inner and outer scores as results, with ``.mean`` and ``.standard_error``.
    inner_mean, inner_standard_error, outer_mean, outer_standard_error : float
    """

    chosen_params: list
    inner_scores: np.ndarray
    outer_scores: np.ndarray
    searches: list

    @property
    def inner(self) -> CrossValidationResult:
        """The tuned inner scores (one per outer fold) as a CrossValidationResult."""
        return CrossValidationResult(self.inner_scores)

    @property
    def outer(self) -> CrossValidationResult:
        """The outer scores as a CrossValidationResult."""
        return CrossValidationResult(self.outer_scores)

    inner_mean = _statistic_of("inner", "mean", "Mean of the tuned inner scores.")
    inner_standard_error = _statistic_of("inner", "standard_error", "Standard error of the tuned inner scores.")
    outer_mean = _statistic_of("outer", "mean", "Mean of the outer scores: the estimate of the tuned procedure's error.")
    outer_standard_error = _statistic_of("outer", "standard_error", "Standard error of the outer scores.")

    def __repr__(self) -> str:
        return (
            f"NestedCrossValidationResult({len(self.outer_scores)} outer folds: inner (tuned) mean "
            f"{self.inner_mean:.4f} ± {self.inner_standard_error:.4f}, outer mean {self.outer_mean:.4f} "
            f"± {self.outer_standard_error:.4f}; chosen params {self.chosen_params!r})"
        )


def nested_cross_validate(
    fit_for: Callable,
    error: Callable,
    x,
    y,
    params,
    outer_folds,
    inner_k: int,
    *,
    seed: int | None = 0,
    labels=None,
    groups=None,
    natural_ends: str = "none",
) -> NestedCrossValidationResult:
    """Score a tuned model honestly: tune inside each outer training part (chapter 5).

    For each outer fold ``(train, validation)``:

    1. build inner folds with ``k_fold(len(train), inner_k, seed=seed,
       labels=labels[train], groups=groups[train])`` (indices into the outer
       training rows; stratified or grouped like the outer folds when labels
       or groups are given);
    2. run :func:`grid_search` over ``params`` on the outer training rows only
       and choose the parameter with the lowest inner mean;
    3. refit ``fit_for(chosen)`` on all outer training rows and score it on
       the outer validation rows.

    The inner best mean is optimistic (it is the minimum of several noisy
    estimates); the outer scores estimate the error of the whole procedure,
    tuning included.

    Parameters
    ----------
    fit_for, error, x, y
        As for :func:`grid_search`.
    params : sequence
        Parameter values to choose from.
    outer_folds : list of (train_indices, validation_indices)
        As for :func:`cross_validate`.
    inner_k : int >= 2
        Number of inner folds; at most the size of every outer training part.
    seed : int or None
        Seed of the inner folds (the same for every outer fold).
    labels, groups : array of shape (P,), optional
        Stratify, or group, the inner folds (not both).
    natural_ends : {"none", "first", "last", "both"}
        As for :func:`grid_search`.

    Returns
    -------
    NestedCrossValidationResult

    Raises
    ------
    ValueError
        As :func:`cross_validate` and :func:`k_fold` (an inner-fold problem
        names the outer fold), all checked before any fitting.

    Warns
    -----
    MethodWarning
        When the inner searches choose an open end of a grid of numbers (one
        warning, naming the outer folds).
    """
    _check_callables(error=error)
    x = as_inputs(x, "x")
    y = as_outputs(y, x.shape[0], x.shape, "y")
    points = x.shape[0]
    outer_folds = _check_folds(outer_folds, points)
    params, fits = _check_fit_for(fit_for, params)
    check_natural_ends(natural_ends)
    inner_k = check_scalar(inner_k, "inner_k", numbers.Integral, min_val=2)
    check_scalar(seed, "seed", numbers.Integral, allow_none=True)
    if labels is not None and groups is not None:
        raise ValueError(
            "stratifying by labels and grouping by groups together is not supported; use one of them "
            "(labels= or groups=)."
        )
    labels = None if labels is None else _as_one_per_point(labels, points, "labels")
    groups = None if groups is None else _as_one_per_point(groups, points, "groups")
    inner_folds = []
    for number, (train, _) in enumerate(outer_folds):
        try:
            inner_folds.append(k_fold(
                train.size, inner_k, seed=seed,
                labels=None if labels is None else labels[train],
                groups=None if groups is None else groups[train],
            ))
        except ValueError as problem:
            raise ValueError(
                f"inner folds of outer fold {number} (its {train.size} training rows): {problem}"
            ) from None

    chosen, inner_scores, outer_scores, searches = [], [], [], []
    for number, ((train, validation), folds) in enumerate(zip(outer_folds, inner_folds)):
        search = _search(params, fits, error, x[train], y[train], folds, f" inside outer fold {number}")
        best = search.best_param
        model = fits[search.best_index](x[train], y[train])
        score = _score(model, error, x[validation], y[validation], f"outer fold {number} (validation rows)")
        chosen.append(best)
        inner_scores.append(search.results[search.best_index].mean)
        outer_scores.append(score)
        searches.append(search)
    edges = [number for number, search in enumerate(searches)
             if edge_message(params, search.best_index, "", natural_ends)]
    if edges:
        first = searches[edges[0]]
        warn_method(f"in {len(edges)} of the {len(searches)} outer folds (first: outer fold {edges[0]}), "
                    + edge_message(params, first.best_index, "the inner search's lowest mean", natural_ends))
    return NestedCrossValidationResult(chosen, np.array(inner_scores), np.array(outer_scores), searches)
