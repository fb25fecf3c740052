"""Tests of plotting.add_path: several descent paths on one contour plot (chapter 2)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

from mlrefined_lib.plotting import add_path


def test_add_path_labels_each_run_and_keeps_styles():
    fig, ax = plt.subplots()
    first = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 1.5]])
    second = np.array([[0.0, 0.0], [0.5, 2.0]])
    add_path(ax, first, label="batch")
    add_path(ax, second, label="SGD", linestyle="--", points=False, start=False, end_marker="s")
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["batch: start", "batch: end (step 2)", "SGD: end (step 1)"]
    assert len(ax.collections) == 3  # two paths, one scatter of intermediate points
    assert ax.collections[2].get_linestyle()[0][1] is not None  # the dashed path
    plt.close(fig)


def test_add_path_refuses_bad_paths():
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="shape"):
        add_path(ax, np.zeros((3, 3)))
    with pytest.raises(ValueError, match="NaN"):
        add_path(ax, np.array([[0.0, 0.0], [np.nan, 1.0]]))
    plt.close(fig)
