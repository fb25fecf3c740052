"""Shared test setup: a non-interactive matplotlib backend and no leaked figures."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
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
