"""Input checks shared by the library.

Every public function checks its input here *before* doing any work, so a
reader who passes the wrong thing gets an error that says what was expected
and what was found.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np


def as_inputs(x, name: str = "x") -> np.ndarray:
    """Return ``x`` as a float array of shape ``(P, N)``, or raise ValueError.

    The returned array is a copy when conversion is needed and the caller's
    object otherwise; the library never writes into it.
    """
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D with shape (P, N): P points in rows, N features "
            f"in columns; found shape {arr.shape}. For one feature use "
            f"{name}.reshape(-1, 1)."
        )
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must have at least one point and one feature; found shape {arr.shape}.")
    check_finite(arr, name)
    return arr


def as_outputs(y, num_points: int, x_shape: tuple[int, ...], name: str = "y") -> np.ndarray:
    """Return ``y`` as a float array of shape ``(P,)`` matching ``x``, or raise."""
    arr = np.asarray(y, dtype=float)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D with shape (P,); found shape {arr.shape}.")
    if arr.shape[0] != num_points:
        raise ValueError(
            f"x and {name} disagree on the number of points: x has shape {x_shape} "
            f"(P = {x_shape[0]}) but {name} has shape {arr.shape}."
        )
    if not np.all(np.isfinite(arr)):
        bad = np.flatnonzero(~np.isfinite(arr))
        raise ValueError(
            f"{name} contains {bad.size} NaN or infinite value(s), first at index {bad[0]}; "
            "drop or impute those points first."
        )
    return arr


def check_finite(arr: np.ndarray, name: str = "x") -> None:
    """Raise ValueError naming the first column that holds NaN or inf, and how many."""
    finite = np.isfinite(arr)
    if finite.all():
        return
    bad_per_column = (~finite).sum(axis=0)
    column = int(np.flatnonzero(bad_per_column)[0])
    n_nan = int(np.isnan(arr[:, column]).sum())
    n_inf = int(bad_per_column[column]) - n_nan
    others = int(np.count_nonzero(bad_per_column)) - 1
    more = f" ({others} other column(s) also affected)" if others else ""
    raise ValueError(
        f"{name} has non-finite entries in column {column}: {n_nan} NaN and {n_inf} inf{more}. "
        "Impute or drop them before this step (chapter 8)."
    )


def check_labels(y: np.ndarray, allowed: Sequence[float], cost_name: str) -> None:
    """Raise ValueError if ``y`` holds values outside ``allowed``."""
    found = np.unique(y)
    unexpected = np.setdiff1d(found, np.asarray(allowed, dtype=float))
    if unexpected.size:
        raise ValueError(
            f"{cost_name} expects labels in {list(allowed)}; found {found.tolist()[:10]}. "
            + ("Map 0/1 labels to -1/+1 with 2*y - 1." if cost_name == "softmax" else "")
            + ("Map -1/+1 labels to 0/1 with (y + 1) / 2." if cost_name == "cross_entropy" else "")
        )


def check_weights(w, expected_shape: tuple[int, ...], x_shape: tuple[int, ...]) -> None:
    """Raise ValueError when ``w`` does not have ``expected_shape``."""
    shape = np.shape(w)
    if tuple(shape) != tuple(expected_shape):
        raise ValueError(
            f"w has shape {tuple(shape)} but x has shape {x_shape}, so w must have shape "
            f"{tuple(expected_shape)}: the bias first, then one weight per feature."
        )


def check_choice(value: str, valid: Sequence[str], what: str) -> str:
    """Raise ValueError listing the valid names when ``value`` is not one of them."""
    if value not in valid:
        raise ValueError(f"unknown {what} {value!r}; valid names are: {', '.join(map(repr, valid))}.")
    return value


class ScalarTypeError(TypeError, ValueError):
    """A scalar argument of the wrong type (a bool, a string, a float where an integer is needed).

    Both a TypeError (what Python raises for a wrong type) and a ValueError
    (the book promises a ValueError for every bad input, and code written
    against that promise keeps working).
    """


def _shown(value) -> str:
    """repr of a value, NumPy scalars shown as the Python number they hold."""
    return repr(value.item()) if isinstance(value, np.generic) else repr(value)


def _describe(kind: str, min_val, max_val, include_boundaries: str, allow_none: bool, also: str | None) -> str:
    """The expected value in words: "an integer >= 1", "a positive number", "a number in (0, 1]"."""
    article = "an" if kind == "integer" else "a"
    low_in = include_boundaries in ("left", "both")
    high_in = include_boundaries in ("right", "both")
    if min_val is not None and max_val is not None:
        if kind == "integer" and low_in and high_in:
            text = f"an integer from {min_val} to {max_val}"
        else:
            text = f"{article} {kind} in {'[' if low_in else '('}{min_val}, {max_val}{']' if high_in else ')'}"
    elif min_val is not None:
        if min_val == 0:
            text = f"a {'non-negative' if low_in else 'positive'} {kind}"
        else:
            text = f"{article} {kind} {'>=' if low_in else '>'} {min_val}"
    elif max_val is not None:
        text = f"{article} {kind} {'<=' if high_in else '<'} {max_val}"
    else:
        text = f"{article} {kind}"
    if also:
        text += f" or {also}"
    if allow_none:
        text += " or None"
    return text


def check_scalar(
    value,
    name: str,
    target_type: type = numbers.Real,
    *,
    min_val: float | None = None,
    max_val: float | None = None,
    include_boundaries: str = "both",
    allow_none: bool = False,
    also: str | None = None,
):
    """Check one scalar argument and return it as a Python ``int`` or ``float`` (or None).

    The library's one rule for numeric arguments (after scikit-learn's
    ``check_scalar``): booleans are refused everywhere (``True`` is not a
    number of iterations), NumPy integers and floats are accepted, a number
    must be finite, and it must lie within the bounds.

    Parameters
    ----------
    value : object
        The argument as the caller passed it.
    name : str
        The argument's name, used in the message.
    target_type : numbers.Integral or numbers.Real
        ``numbers.Integral`` (or ``int``) for a whole number; ``numbers.Real``
        (or ``float``) for any real number (integers included).
    min_val, max_val : number, optional
        Bounds; None leaves that side open.
    include_boundaries : {"both", "left", "right", "neither"}
        Whether ``min_val`` (left) and ``max_val`` (right) are allowed values.
    allow_none : bool
        Accept None (and return it).
    also : str, optional
        Words for other values that the caller accepts and handles itself
        (such as ``"one of ['diminishing']"``); only used in the message.

    Returns
    -------
    int, float or None
        ``int(value)`` for an integer type, ``float(value)`` otherwise.

    Raises
    ------
    ScalarTypeError
        (a TypeError and a ValueError) for a wrong type, booleans included:
        ``"max_its must be an integer >= 1; found 2.5 of type float."``
    ValueError
        For a value out of range or not finite: ``"k must be an integer >= 2; found k = 1."``
    """
    if include_boundaries not in ("both", "left", "right", "neither"):
        raise ValueError(f"include_boundaries must be 'both', 'left', 'right' or 'neither'; found {include_boundaries!r}.")
    integer = target_type in (int, numbers.Integral)
    if not integer and target_type not in (float, numbers.Real):
        raise ValueError(f"target_type must be numbers.Integral or numbers.Real; found {target_type!r}.")
    kind = "integer" if integer else "number"
    expected = _describe(kind, min_val, max_val, include_boundaries, allow_none, also)
    if value is None and allow_none:
        return None
    wanted = numbers.Integral if integer else numbers.Real
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, wanted):
        raise ScalarTypeError(f"{name} must be {expected}; found {_shown(value)} of type {type(value).__name__}.")
    if not integer and not np.isfinite(value):
        raise ValueError(f"{name} must be {expected}; found {name} = {_shown(value)}.")
    low_in = include_boundaries in ("left", "both")
    high_in = include_boundaries in ("right", "both")
    too_low = min_val is not None and (value < min_val if low_in else value <= min_val)
    too_high = max_val is not None and (value > max_val if high_in else value >= max_val)
    if too_low or too_high:
        raise ValueError(f"{name} must be {expected}; found {name} = {_shown(value)}.")
    return int(value) if integer else float(value)
