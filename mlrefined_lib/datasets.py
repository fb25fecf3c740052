"""Loaders for the book's data in ``datasets/`` (no network access).

Every loader returns ``(x, y)`` with ``x`` of shape ``(P, N)`` and ``y`` of
shape ``(P,)``, fresh arrays each call. The synthetic sets are written by
``datasets/make_synthetic.py`` with fixed seeds; ``datasets/README.md`` lists
every file with its source and licence.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = [
    "data_dir",
    "load_csv",
    "load_one_input_regression",
    "load_one_input_classification",
    "load_five_input_hyperplane",
]


def data_dir() -> Path:
    """The repository's ``datasets/`` folder (the package is installed editable, ``pip install -e .``)."""
    folder = Path(__file__).resolve().parent.parent / "datasets"
    if not folder.is_dir():
        raise FileNotFoundError(
            f"the book's datasets folder was not found at {folder}. Install the library from a "
            "clone of the book with `pip install -e .` so that it can find datasets/."
        )
    return folder


def load_csv(name: str, target: str = "y") -> tuple[np.ndarray, np.ndarray]:
    """Read ``datasets/<name>.csv`` (a header row, then numbers) into ``(x, y)``.

    Parameters
    ----------
    name : str
        File name without ``.csv``.
    target : str
        The column that holds the output; every other column is a feature.
    """
    path = data_dir() / f"{name}.csv"
    if not path.is_file():
        known = sorted(p.stem for p in data_dir().glob("*.csv"))
        raise ValueError(f"no dataset named {name!r}; the CSV datasets are: {', '.join(known)}.")
    with path.open() as handle:
        header = handle.readline().strip().split(",")
    if target not in header:
        raise ValueError(f"{path.name} has no column {target!r}; its columns are {header}.")
    table = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    column = header.index(target)
    return np.delete(table, column, axis=1), table[:, column].copy()


def load_one_input_regression() -> tuple[np.ndarray, np.ndarray]:
    """100 points near a line, input on [0, 1] (chapters 1 and 6). x: (100, 1), y: (100,)."""
    return load_csv("one_input_regression")


def load_one_input_classification() -> tuple[np.ndarray, np.ndarray]:
    """12 points on a line with labels ±1 (chapter 6). x: (12, 1), y: (12,)."""
    return load_csv("one_input_classification")


def load_five_input_hyperplane() -> tuple[np.ndarray, np.ndarray]:
    """200 points, five inputs of very different ranges, noiseless linear output (chapter 6)."""
    return load_csv("five_input_hyperplane")
