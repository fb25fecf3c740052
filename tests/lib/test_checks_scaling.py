"""Tests of chapter 7's exercise checks: they pass a right answer, explain a
wrong one, and treat an unwritten stub helpfully."""

import warnings

import numpy as np
import pytest

import mlrefined_lib as ml
from mlrefined_lib import checks
from mlrefined_lib.checks import CheckFailed


def stub(*args, **kwargs):
    raise NotImplementedError


def condition_number_of(z):
    z_ext = np.column_stack([np.ones(len(z)), z])
    eigenvalues = np.linalg.eigvalsh(2 / len(z) * z_ext.T @ z_ext)
    return eigenvalues.max() / eigenvalues.min()


def standardized_right(x):
    return condition_number_of((x - x.mean(axis=0)) / x.std(axis=0))


def test_condition_number_check_passes_a_right_answer(capsys):
    checks.check_standardized_condition_number(standardized_right)
    assert "Correct" in capsys.readouterr().out


def test_condition_number_check_spots_raw_inputs():
    with pytest.raises(CheckFailed, match="raw inputs"):
        checks.check_standardized_condition_number(condition_number_of)


def test_condition_number_check_handles_the_stub_and_non_numbers():
    with pytest.raises(CheckFailed, match="NotImplementedError"):
        checks.check_standardized_condition_number(stub)
    with pytest.raises(CheckFailed, match="one number"):
        checks.check_standardized_condition_number(lambda x: "large")


def test_prediction_check():
    new = np.array([[1.0], [2.0]])
    expected = np.array([10.0, 20.0])
    checks.check_predictions(lambda q: 10 * q[:, 0], new, expected)
    with pytest.raises(CheckFailed, match="training mean"):
        checks.check_predictions(lambda q: 10 * q[:, 0] + 1, new, expected)
    with pytest.raises(CheckFailed, match="shape"):
        checks.check_predictions(lambda q: 10 * q, new, expected)
    with pytest.raises(CheckFailed, match="NotImplementedError"):
        checks.check_predictions(stub, new, expected)


def largest_alpha_right(g, w0, max_its, gammas):
    for gamma in sorted(gammas):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ml.DivergenceWarning)
            run = ml.gradient_descent(g, w0, 10.0**-gamma, max_its)
        if run.stop_reason != "diverged" and np.all(np.diff(run.costs) <= 0):
            return 10.0**-gamma
    return None


def test_largest_alpha_check(capsys):
    checks.check_largest_convergent_alpha(largest_alpha_right)
    assert "Correct" in capsys.readouterr().out
    with pytest.raises(CheckFailed, match="largest convergent alpha"):
        checks.check_largest_convergent_alpha(lambda g, w0, max_its, gammas: 0.1)
    with pytest.raises(CheckFailed, match="NotImplementedError"):
        checks.check_largest_convergent_alpha(stub)
