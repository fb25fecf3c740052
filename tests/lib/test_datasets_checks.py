"""Unit tests of mlrefined_lib.datasets (the checks are tested in test_checks_*.py)."""

from pathlib import Path

import numpy as np
import pytest

from mlrefined_lib import datasets

REPO = Path(__file__).resolve().parents[2]

LOADERS = {
    "one_input_regression": (datasets.load_one_input_regression, (100, 1)),
    "one_input_classification": (datasets.load_one_input_classification, (12, 1)),
    "five_input_hyperplane": (datasets.load_five_input_hyperplane, (200, 5)),
}


# ---------------------------------------------------------------- datasets


def test_data_dir_is_the_repository_folder():
    assert datasets.data_dir() == REPO / "datasets"


@pytest.mark.parametrize("name", LOADERS)
def test_loader_shapes(name):
    loader, shape = LOADERS[name]
    x, y = loader()
    assert x.shape == shape
    assert y.shape == (shape[0],)
    assert x.dtype == y.dtype == np.float64
    assert np.all(np.isfinite(x)) and np.all(np.isfinite(y))


@pytest.mark.parametrize("name", LOADERS)
def test_loader_returns_fresh_arrays(name):
    loader, _ = LOADERS[name]
    x1, y1 = loader()
    saved_x, saved_y = x1.copy(), y1.copy()
    x1[:] = -999.0
    y1[:] = -999.0
    x2, y2 = loader()
    assert x2 is not x1 and y2 is not y1
    np.testing.assert_array_equal(x2, saved_x)
    np.testing.assert_array_equal(y2, saved_y)


@pytest.mark.parametrize("name", LOADERS)
def test_csv_equals_generator(name, data_script):
    generated_x, generated_y = getattr(data_script("make_synthetic"), name)()
    x, y = LOADERS[name][0]()
    np.testing.assert_allclose(x, generated_x, rtol=1e-9, atol=0)
    np.testing.assert_allclose(y, generated_y, rtol=1e-9, atol=0)


def test_classification_labels_are_plus_minus_one():
    _, y = datasets.load_one_input_classification()
    assert set(y.tolist()) == {-1.0, 1.0}


def test_unknown_dataset_lists_known_ones():
    with pytest.raises(ValueError, match="no dataset named 'nope'.*five_input_hyperplane, one_input_classification, one_input_regression"):
        datasets.load_csv("nope")


def test_unknown_target_column_lists_columns():
    with pytest.raises(ValueError, match=r"has no column 'z'; its columns are \['x', 'y'\]"):
        datasets.load_csv("one_input_regression", target="z")


def test_other_target_column():
    x, y = datasets.load_csv("five_input_hyperplane", target="x2")
    full_x, full_y = datasets.load_five_input_hyperplane()
    np.testing.assert_array_equal(y, full_x[:, 1])
    np.testing.assert_array_equal(x[:, -1], full_y)
    assert x.shape == (200, 5)
