"""Regenerate the book's synthetic datasets (fixed seeds; run from anywhere).

    python datasets/make_synthetic.py

Each dataset has its own seed, so changing one leaves the others unchanged.
The files are committed; the notebooks only read them.
"""

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def one_input_regression(seed: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """100 points near the line y = 1 + 9x, x uniform on [0, 1] (not centred)."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.0, 1.0, size=100)
    y = 1.0 + 9.0 * x + rng.normal(0.0, 0.6, size=100)
    return x[:, None], y


def one_input_classification(seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """12 points on a line: label -1 for small inputs, +1 for large ones."""
    rng = np.random.default_rng(seed)
    negative = rng.uniform(-0.2, 1.2, size=6)
    positive = rng.uniform(3.8, 4.8, size=6)
    x = np.concatenate([negative, positive])
    y = np.concatenate([-np.ones(6), np.ones(6)])
    return x[:, None], y


def five_input_hyperplane(seed: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """200 points, five inputs of very different ranges, on a noiseless hyperplane."""
    rng = np.random.default_rng(seed)
    upper = np.array([0.5, 2.0, 10.0, 50.0, 250.0])
    x = rng.uniform(0.0, 1.0, size=(200, 5)) * upper
    weights = np.array([3.0, -2.0, 0.5, 0.08, -0.01])
    y = 4.0 + x @ weights
    return x, y


def write(name: str, x: np.ndarray, y: np.ndarray) -> None:
    columns = ["x"] if x.shape[1] == 1 else [f"x{n + 1}" for n in range(x.shape[1])]
    header = ",".join(columns + ["y"])
    np.savetxt(HERE / f"{name}.csv", np.column_stack([x, y]), delimiter=",", header=header, comments="", fmt="%.10g")


if __name__ == "__main__":
    write("one_input_regression", *one_input_regression())
    write("one_input_classification", *one_input_classification())
    write("five_input_hyperplane", *five_input_hyperplane())
    print("wrote", ", ".join(sorted(p.name for p in HERE.glob("*.csv"))))
