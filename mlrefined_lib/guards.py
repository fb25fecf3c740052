"""Warnings for faults of method that the numbers themselves do not show (chapter 5).

A computation can run without error and still answer the wrong question. The
library's tuning and comparison functions issue a :class:`MethodWarning` when
they can see such a fault in what they are given:

* a choice of :func:`~mlrefined_lib.cross_validation.grid_search` (or of the
  searches inside :func:`~mlrefined_lib.cross_validation.nested_cross_validate`
  and :func:`~mlrefined_lib.selection.tuned_fit`) lands on the first or last
  value of a grid of numbers, so the grid may have cut the search short;
* the corrected resampled t (:func:`~mlrefined_lib.comparison.paired_comparison`,
  :func:`~mlrefined_lib.comparison.compare_fold_scores`) is given folds whose
  training sets are nested, as forward-chaining folds are, for which it was
  not derived;
* a standard error ``sd/√n`` is taken over the scores of repeated folds,
  which validate every row several times: it shrinks as repeats are added;
* a paired t-test is given bootstrap replicates of one data set
  (:class:`~mlrefined_lib.comparison.Replicates`): it then measures how
  precisely the replicates pin down their own mean, not whether two models
  differ.

Each message says what was found and what to do. A warning is not an error:
``warnings.simplefilter("error", ml.MethodWarning)`` turns them into errors,
``"ignore"`` silences them once the reason is understood.
"""

from __future__ import annotations

import numbers
import sys
import warnings
from pathlib import Path

import numpy as np

__all__ = ["MethodWarning"]

_PACKAGE = str(Path(__file__).resolve().parent)


class MethodWarning(UserWarning):
    """Issued when the library sees a fault of method in what it is given (chapter 5).

    The message names what was found (the grid and the value on its edge, the
    nested training sets, the repeats, the replicates) and what to do instead.
    """


def warn_method(message: str) -> None:
    """Issue ``message`` as a :class:`MethodWarning` attributed to the first caller outside the library."""
    level, frame = 2, sys._getframe(1)
    while frame is not None and str(Path(frame.f_code.co_filename).resolve()).startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, MethodWarning, stacklevel=level)


# ---------------------------------------------------------------- a choice on the edge of its grid

#: The ends of a grid that may be the parameter's own limits (see :func:`check_natural_ends`).
NATURAL_ENDS = ("none", "first", "last", "both")


def check_natural_ends(natural_ends) -> str:
    if natural_ends not in NATURAL_ENDS:
        raise ValueError(
            f"natural_ends must be one of {', '.join(repr(end) for end in NATURAL_ENDS)} (the ends of params that "
            f"are the parameter's own limits); found {natural_ends!r}."
        )
    return natural_ends


def _is_number_grid(params) -> bool:
    return len(params) >= 2 and all(
        isinstance(param, numbers.Real) and not isinstance(param, (bool, np.bool_)) for param in params
    )


def _grid_text(params) -> str:
    shown = [f"{float(param):.4g}" for param in params]
    if len(shown) > 6:
        shown = shown[:3] + ["…"] + shown[-2:]
    return f"[{', '.join(shown)}] ({len(params)} values)"


def edge_message(params, index: int, what: str, natural_ends: str = "none") -> str | None:
    """The warning for choice ``params[index]`` when it is an open end of a grid of numbers, else None.

    ``what`` names the choice ("the lowest mean", "the one-standard-error choice"). Grids of
    other things (feature subsets, names) have no order to extend, and are not checked.
    """
    if not _is_number_grid(params):
        return None
    last = len(params) - 1
    if index == 0 and natural_ends not in ("first", "both"):
        end, side = "first", "before"
    elif index == last and natural_ends not in ("last", "both"):
        end, side = "last", "after"
    else:
        return None
    return (
        f"{what} is {float(params[index]):.4g}, the {end} value of the grid {_grid_text(params)}: the search may "
        f"have stopped at the grid's edge rather than at the best value. Extend the grid past "
        f"{float(params[index]):.4g} (values {side} it) until the choice lies inside it (or pass natural_ends={end!r} when "
        f"{float(params[index]):.4g} is the parameter's own limit, such as 0 boosting rounds)."
    )


# ---------------------------------------------------------------- folds: nesting and repeats


def nested_training(folds) -> bool:
    """True when the folds' training sets are nested: each, by size, holds every row of the one before.

    Forward-chaining folds (:func:`~mlrefined_lib.cross_validation.time_folds`) are nested; the
    folds of k-fold cross-validation are not (each leaves out rows the others train on).
    """
    trains = sorted((np.asarray(train) for train, _ in folds), key=len)
    return len(trains) >= 2 and all(
        np.isin(smaller, larger).all() for smaller, larger in zip(trains, trains[1:])
    )


def validation_repeats(folds) -> int:
    """How many times the most-validated row is validated across the folds (1 for one run of k-fold)."""
    counts = np.bincount(np.concatenate([np.asarray(validation, dtype=np.intp) for _, validation in folds]))
    return int(counts.max()) if counts.size else 1


def repeats_message(count: int, repeats: int) -> str:
    return (
        f"the standard error sd/√{count} is taken over {count} fold scores that validate the same rows up to "
        f"{repeats} times (repeated folds): repeats of the same rows are not new data, so this standard error "
        f"shrinks as repeats are added and is too small. Take the standard error over one run of the folds "
        f"(each row validated once), or compare models on the repeated folds with the corrected t "
        f"(ml.compare_fold_scores)."
    )
