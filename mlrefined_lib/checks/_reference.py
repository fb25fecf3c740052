"""Helpers shared by the chapters' checks: calling the student's function, reading its result."""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

import numpy as np

from ._grading import CheckFailed, graded

__all__ = ["check_close"]


def _call(student: Callable, name: str, *args):
    if not callable(student):
        raise CheckFailed(f"{name} should be a function; found {type(student).__name__}.")
    try:
        return student(*args)
    except NotImplementedError:
        raise CheckFailed(
            f"{name} is not written yet: replace the line `raise NotImplementedError` in the "
            "exercise cell with your code, run that cell, then run this check again."
        ) from None


def _as_array(value, name: str, shape: tuple[int, ...]) -> np.ndarray:
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise CheckFailed(f"{name} should return an array of numbers; found {type(value).__name__}.") from None
    if arr.shape != shape:
        raise CheckFailed(f"{name} should return an array of shape {shape}; found shape {arr.shape}.")
    if not np.all(np.isfinite(arr)):
        raise CheckFailed(f"{name} returned NaN or inf values.")
    return arr


def _as_number(value, name: str, what: str, convert: Callable = float):
    """``convert(value)``, or CheckFailed saying that ``name`` should return ``what``."""
    try:
        return convert(value)
    except (TypeError, ValueError):
        raise CheckFailed(f"{name} should return {what}; found {type(value).__name__}.") from None


def _raise_known_mistake(got, hints, prefix: str, *, rtol: float, atol: float) -> None:
    """Raise CheckFailed with the hint of the first typical mistake that ``got`` matches, if any."""
    for wrong, hint in hints:
        if np.allclose(got, wrong, rtol=rtol, atol=atol):
            raise CheckFailed(f"{prefix}: {hint}")


def _raise_wrong_values(got, expected, hints, what: str, advice: str, *, rtol: float, atol: float) -> NoReturn:
    """Raise CheckFailed for an array answer that is not ``expected``.

    The message is the hint of the first typical mistake in ``hints`` that ``got`` matches;
    failing that, what came back and what was expected (rounded, with the entry that differs
    most), then ``advice``. ``what`` names the call, as in ``"sgd_epoch"``.
    """
    _raise_known_mistake(got, hints, f"{what} is not right", rtol=rtol, atol=atol)
    worst = int(np.argmax(np.abs(got - expected)))
    raise CheckFailed(f"{what} returned {np.round(got, 4).tolist()}; expected {np.round(expected, 4).tolist()} "
                      f"(entry {worst} differs most). {advice}")


@graded
def check_close(name: str, got, expected, *, rtol: float = 1e-6, atol: float = 1e-9) -> None:
    """Pass if ``got`` matches ``expected`` in shape and value, else raise CheckFailed."""
    expected = np.asarray(expected, dtype=float)
    got = _as_array(got, name, expected.shape)
    if not np.allclose(got, expected, rtol=rtol, atol=atol):
        worst = int(np.argmax(np.abs(got - expected)))
        raise CheckFailed(
            f"{name} is not right: entry {worst} is {got.ravel()[worst]:.6g} but should be "
            f"{expected.ravel()[worst]:.6g}."
        )
    print(f"Correct: {name} matches the reference.")


def _finite_difference_gradient(g: Callable, w: np.ndarray, h: float = 1e-6) -> np.ndarray:
    out = np.zeros_like(w)
    for i in range(w.size):
        step = np.zeros_like(w)
        step[i] = h
        out[i] = (g(w + step) - g(w - step)) / (2 * h)
    return out


def _explain_wrong_gradient(got, expected, hints, bias_rule: str, formula: str):
    """Raise CheckFailed naming the first typical mistake that ``got`` matches (chapters 1 and 3)."""
    for wrong, hint in hints:
        if np.allclose(got, wrong, rtol=1e-5, atol=1e-7):
            raise CheckFailed(f"your gradient is not right: {hint}")
    if np.allclose(got[1:], expected[1:], rtol=1e-5, atol=1e-7):
        raise CheckFailed(f"your gradient is right for the feature weights but not for the bias w[0]: {bias_rule}")
    raise CheckFailed(
        f"your gradient is not right: got {np.round(got, 4).tolist()}, expected {np.round(expected, 4).tolist()} "
        f"on random data. Compare with {formula}, X̃ being x with a column of ones in front."
    )
