"""Input checks shared by the library.

Every public function checks its input here *before* doing any work, so a
reader who passes the wrong thing gets an error that says what was expected
and what was found.
"""

from __future__ import annotations

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
