"""Tests of mlrefined_lib.figures.pca_sphering (chapter 9), Agg backend."""

import numpy as np
import pytest

from mlrefined_lib.costs import least_squares
from mlrefined_lib.figures import pca_sphering as figures
from mlrefined_lib.optimizers import gradient_descent


@pytest.fixture
def points():
    rng = np.random.default_rng(3)
    return rng.normal(size=(40, 2)) @ np.array([[2.0, 0.0], [1.0, 0.5]])


def test_sphering_stages(points):
    centred = points - points.mean(axis=0)
    values, vectors = np.linalg.eigh(np.cov(centred, rowvar=False, bias=True))
    values, vectors = values[::-1], vectors[:, ::-1]
    rotated = centred @ vectors
    stages = {"raw": points, "centred": centred, "rotated": rotated, "sphered": rotated / np.sqrt(values)}
    fig = figures.sphering_stages(stages, values, vectors, xlim=(-7, 9), ylim=(-5, 7))
    axes = fig.axes
    assert len(axes) == 4
    assert [ax.get_title() for ax in axes] == list(stages)
    assert [ax.get_xlabel() for ax in axes] == ["feature 1", "feature 1", "component 1", "component 1"]
    assert [ax.get_ylabel() for ax in axes] == ["feature 2", "feature 2", "component 2", "component 2"]
    for ax, data in zip(axes, stages.values()):
        assert ax.get_xlim() == (-7, 9) and ax.get_ylim() == (-5, 7)
        np.testing.assert_allclose(ax.collections[0].get_offsets(), data)
    arrows = [line for line in axes[1].get_lines() if line.get_label().startswith("eigenvector")]
    assert len(arrows) == 2
    tip = 2 * np.sqrt(values[0]) * vectors[:, 0]
    np.testing.assert_allclose(np.column_stack(arrows[0].get_data()), [-tip, tip])
    assert fig.get_suptitle().startswith("Sphering")


def test_sphering_stages_needs_four_stages(points):
    with pytest.raises(ValueError, match="stages must hold 4 arrays"):
        figures.sphering_stages({"raw": points}, np.ones(2), np.eye(2))


def test_uncorrelated_scatter(points):
    fig = figures.uncorrelated_scatter(points, title="T")
    (ax,) = fig.axes
    assert ax.get_title() == "T"
    assert ax.get_xlabel() == "sphered feature $z_{p,1}$" and ax.get_ylabel() == "sphered feature $z_{p,2}$"
    np.testing.assert_allclose(ax.collections[0].get_offsets(), points)


def test_digit_training_runs(points):
    g = least_squares(points[:, :1], points[:, 1])
    runs = {"a": gradient_descent(g, np.zeros(2), 0.1, 5), "b": gradient_descent(g, np.zeros(2), 0.01, 5)}
    errors = {"a": [5, 4, 3, 2, 1, 0], "b": [5, 5, 5, 4, 4, 4]}
    fig = figures.digit_training_runs(runs, errors, points=40)
    left, right = fig.axes
    assert left.get_yscale() == "log"
    assert left.get_title() == "Multiclass softmax cost, training set"
    assert right.get_ylabel() == "misclassifications (of 40)"
    assert left.get_xlabel() == right.get_xlabel() == "step $t$" and left.get_ylabel() == "cost $g(w^t)$ (log scale)"
    np.testing.assert_allclose(left.get_lines()[1].get_ydata(), runs["b"].costs)
    np.testing.assert_allclose(right.get_lines()[0].get_ydata(), errors["a"])


def test_image_grid():
    images = np.arange(2 * 3 * 4 * 4, dtype=float).reshape(2, 3, 4, 4)
    fig = figures.image_grid(
        images, row_labels=["r1", "r2"], column_titles=["c1", "c2", "c3"], title="T", vmin=0, vmax=100
    )
    axes = np.array(fig.axes).reshape(2, 3)
    assert fig.get_suptitle() == "T"
    assert [ax.get_title() for ax in axes[0]] == ["c1", "c2", "c3"]
    assert [ax.get_title() for ax in axes[1]] == ["", "", ""]
    assert [row[0].get_ylabel() for row in axes] == ["r1", "r2"]
    for r in range(2):
        for c in range(3):
            (image,) = axes[r, c].get_images()
            np.testing.assert_array_equal(image.get_array(), images[r, c])
            assert image.get_clim() == (0, 100)
            assert list(axes[r, c].get_xticks()) == []


def test_image_grid_checks_its_labels():
    with pytest.raises(ValueError, match="need as many labels"):
        figures.image_grid(np.zeros((2, 3, 4, 4)), row_labels=["r1"], column_titles=["a", "b", "c"], title="T")
    with pytest.raises(ValueError, match="must have shape"):
        figures.image_grid(np.zeros((2, 4, 4)), row_labels=["r1"], column_titles=["a"], title="T")


def test_scree_and_reconstruction():
    ratios = np.array([0.5, 0.3, 0.15, 0.05])
    training = np.array([3.0, 1.5, 0.5, 0.0])
    test = np.array([3.2, 1.7, 0.6, 0.1])
    fig = figures.scree_and_reconstruction(ratios, training, test, total_variance=6.0, marked_k=3)
    left, right, twin = fig.axes
    heights = [patch.get_height() for patch in left.patches]
    np.testing.assert_allclose(heights, ratios)
    assert left.get_xlabel() == "component k" and left.get_ylabel() == "explained variance ratio"
    assert twin.get_ylim() == (0, 1.02)
    np.testing.assert_allclose(twin.get_lines()[0].get_ydata(), np.cumsum(ratios))
    assert any(text.get_text() == "95% at k = 3" for text in twin.texts)
    train_line, test_line = right.get_lines()[:2]
    np.testing.assert_allclose(train_line.get_xdata(), [0, 1, 2, 3, 4])
    np.testing.assert_allclose(train_line.get_ydata(), np.r_[6.0, training])
    np.testing.assert_allclose(test_line.get_ydata(), test)
    assert right.get_ylim()[0] == 0
    assert right.get_title() == "Reconstruction error against k"
