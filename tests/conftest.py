"""Shared test setup: a non-interactive matplotlib backend, no leaked figures, and data several layers use."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="session")
def data_script():
    """Load one of the scripts in datasets/ (e.g. ``data_script("make_synthetic")``) as a module."""
    import importlib.util
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "datasets"

    def load(name: str):
        spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    return load


@pytest.fixture
def centred():
    """Two correlated inputs and an output, all centred (60 points): the lasso and ridge geometry of
    chapter 11, for the widget's library tests and its test in the browser."""
    rng = np.random.default_rng(0)
    inputs = rng.normal(size=(60, 2)) @ np.linalg.cholesky(np.array([[1.0, 0.6], [0.6, 1.0]])).T
    x = inputs - inputs.mean(axis=0)
    y = x @ np.array([2.0, 0.6]) + 0.5 * rng.normal(size=60)
    return x, y - y.mean()
