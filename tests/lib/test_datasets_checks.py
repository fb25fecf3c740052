"""Unit tests of mlrefined_lib.datasets and mlrefined_lib.checks."""

from pathlib import Path

import numpy as np
import pytest

from mlrefined_lib import datasets
from mlrefined_lib.checks import CheckFailed, check_close, check_descend_until_flat, check_least_squares_gradient

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


# ---------------------------------------------------------------- check_least_squares_gradient


def correct_gradient(x, y, w):
    x_tilde = np.column_stack([np.ones(len(x)), x])
    return 2.0 / len(x) * x_tilde.T @ (x_tilde @ w - y)


def test_least_squares_gradient_check_passes_correct(capsys):
    check_least_squares_gradient(correct_gradient)
    assert "Correct" in capsys.readouterr().out


def test_least_squares_gradient_check_catches_missing_factor_two():
    def missing_two(x, y, w):
        return correct_gradient(x, y, w) / 2.0

    with pytest.raises(CheckFailed, match="factor 2"):
        check_least_squares_gradient(missing_two)


def test_least_squares_gradient_check_catches_sum_instead_of_mean():
    def summed(x, y, w):
        return correct_gradient(x, y, w) * len(x)

    with pytest.raises(CheckFailed, match="P times too large"):
        check_least_squares_gradient(summed)


def test_least_squares_gradient_check_catches_wrong_sign():
    with pytest.raises(CheckFailed, match="wrong sign"):
        check_least_squares_gradient(lambda x, y, w: -correct_gradient(x, y, w))


def test_least_squares_gradient_check_catches_wrong_bias():
    def no_bias(x, y, w):
        out = correct_gradient(x, y, w)
        out[0] = 0.0
        return out

    with pytest.raises(CheckFailed, match="bias w\\[0\\]"):
        check_least_squares_gradient(no_bias)


def test_least_squares_gradient_check_catches_wrong_shape():
    with pytest.raises(CheckFailed, match=r"shape \(4,\); found shape \(3,\)"):
        check_least_squares_gradient(lambda x, y, w: correct_gradient(x, y, w)[1:])


def test_least_squares_gradient_check_on_stub():
    def stub(x, y, w):
        raise NotImplementedError

    with pytest.raises(CheckFailed, match="NotImplementedError"):
        check_least_squares_gradient(stub)


def test_check_is_a_function():
    with pytest.raises(CheckFailed, match="should be a function"):
        check_least_squares_gradient(None)


# ---------------------------------------------------------------- check_descend_until_flat


def descend_until_flat(gradient, w0, alpha, tol, max_its):
    w = np.array(w0, dtype=float)
    steps = 0
    while steps < max_its:
        direction = gradient(w)
        if np.linalg.norm(direction) <= tol:
            break
        w = w - alpha * direction
        steps += 1
    return w, steps


def test_descend_check_passes_correct(capsys):
    check_descend_until_flat(descend_until_flat)
    assert "Correct" in capsys.readouterr().out


def test_descend_check_catches_ignored_tolerance():
    def ignores_tol(gradient, w0, alpha, tol, max_its):
        w = np.array(w0, dtype=float)
        for _ in range(max_its):
            w = w - alpha * gradient(w)
        return w, max_its

    with pytest.raises(CheckFailed, match="stop as soon as the gradient norm is at most tol"):
        check_descend_until_flat(ignores_tol)


def test_descend_check_catches_ignored_max_its():
    def ignores_max_its(gradient, w0, alpha, tol, max_its):
        return descend_until_flat(gradient, w0, alpha, tol, 10**9 if tol > 1e-6 else 40)

    with pytest.raises(CheckFailed, match="stop after max_its = 25 steps"):
        check_descend_until_flat(ignores_max_its)


def test_descend_check_catches_wrong_step():
    def plus(gradient, w0, alpha, tol, max_its):
        w, steps = descend_until_flat(gradient, w0, alpha, tol, max_its)
        return w + 1e-3, steps

    with pytest.raises(CheckFailed, match="weights are not"):
        check_descend_until_flat(plus)


def test_descend_check_catches_wrong_return():
    with pytest.raises(CheckFailed, match=r"return a pair \(w, steps\)"):
        check_descend_until_flat(lambda gradient, w0, alpha, tol, max_its: w0)


def test_descend_check_on_stub():
    def stub(gradient, w0, alpha, tol, max_its):
        raise NotImplementedError("write this")

    with pytest.raises(CheckFailed, match="NotImplementedError"):
        check_descend_until_flat(stub)


# ---------------------------------------------------------------- check_close


def test_check_close(capsys):
    check_close("z", [1.0, 2.0], np.array([1.0, 2.0]))
    assert "Correct" in capsys.readouterr().out
    with pytest.raises(CheckFailed, match="entry 1 is 2.5 but should be 2"):
        check_close("z", [1.0, 2.5], [1.0, 2.0])
    with pytest.raises(CheckFailed, match=r"shape \(2,\); found shape \(3,\)"):
        check_close("z", [1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(CheckFailed, match="NaN or inf"):
        check_close("z", [1.0, np.nan], [1.0, 2.0])
