"""Tests of the chapter 9 checks (PCA-sphering): they pass on right answers,
name the mistake on typical wrong ones, and help on the student stub."""

import re

import numpy as np
import pytest

import mlrefined_lib as ml
from mlrefined_lib import checks
from mlrefined_lib.checks import CheckFailed


def stub(*args):
    raise NotImplementedError("Exercise: replace this line with your code.")


# ---------------------------------------------------------------- diagonal Newton step


def diagonal_newton_step(x, y, w):
    x_ext = np.column_stack([np.ones(len(x)), x])
    gradient = 2 / len(x) * x_ext.T @ (x_ext @ w - y)
    return w - gradient / (2 / len(x) * np.sum(x_ext**2, axis=0))


def test_diagonal_newton_passes(capsys):
    checks.check_diagonal_newton_step(diagonal_newton_step)
    assert capsys.readouterr().out.startswith("Correct")


def full_newton(x, y, w):
    x_ext = np.column_stack([np.ones(len(x)), x])
    return np.linalg.lstsq(x_ext, y, rcond=None)[0]


def gradient_step(x, y, w):
    x_ext = np.column_stack([np.ones(len(x)), x])
    return w - 2 / len(x) * x_ext.T @ (x_ext @ w - y)


def uphill(x, y, w):
    return 2 * w - diagonal_newton_step(x, y, w)


@pytest.mark.parametrize("wrong, phrase", [
    (full_newton, "full Hessian"),
    (gradient_step, "plain gradient step"),
    (uphill, "uphill"),
    (stub, "not written yet"),
    (lambda x, y, w: np.zeros(3), re.escape("shape (4,)")),
])
def test_diagonal_newton_fails_helpfully(wrong, phrase):
    with pytest.raises(CheckFailed, match=phrase):
        checks.check_diagonal_newton_step(wrong)


def test_diagonal_newton_step_solves_sphered_least_squares():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(50, 3)) @ np.array([[1.0, 0.8, 0.1], [0.0, 0.5, 0.3], [0.0, 0.0, 2.0]])
    y = rng.normal(size=50)
    z = ml.pca_sphere(x)[0](x)
    best = np.linalg.lstsq(np.column_stack([np.ones(50), z]), y, rcond=None)[0]
    np.testing.assert_allclose(diagonal_newton_step(z, y, rng.normal(size=4)), best, atol=1e-10)
    np.testing.assert_allclose(ml.least_squares(z, y).hessian(), 2 * np.eye(4), atol=1e-12)


# ---------------------------------------------------------------- condition numbers


def condition_numbers(x):
    def kappa(inputs):
        x_ext = np.column_stack([np.ones(len(inputs)), inputs])
        eigenvalues = np.linalg.eigvalsh(2 / len(inputs) * x_ext.T @ x_ext)
        return eigenvalues.max() / eigenvalues.min()

    standardized = ml.standard_normalizer(x)[0](x)
    return kappa(x), kappa(standardized), kappa(ml.pca_sphere(standardized)[0](standardized))


def test_condition_numbers_pass_and_report_breast_cancer(capsys):
    checks.check_hessian_condition_numbers(condition_numbers)
    out = capsys.readouterr().out
    assert out.startswith("Correct")
    assert "Breast cancer data (569 points, 30 features)" in out and "sphered 1.000" in out


def no_bias(x):
    def kappa(inputs):
        eigenvalues = np.linalg.eigvalsh(inputs.T @ inputs)
        return eigenvalues.max() / eigenvalues.min()

    standardized = ml.standard_normalizer(x)[0](x)
    return kappa(x), kappa(standardized), 1.0


@pytest.mark.parametrize("wrong, phrase", [
    (no_bias, "leaves out the bias"),
    (lambda x: tuple(np.sqrt(condition_numbers(x))), "square root"),
    (lambda x: condition_numbers(x)[:2], "tuple of three"),
    (stub, "not written yet"),
])
def test_condition_numbers_fail_helpfully(wrong, phrase):
    with pytest.raises(CheckFailed, match=phrase):
        checks.check_hessian_condition_numbers(wrong)


# ---------------------------------------------------------------- ZCA


def zca(x_train, x_new, divide_by=np.sqrt, centre=True, stats_from_new=False, rotate_back=True, ddof=0):
    source = x_new if stats_from_new else x_train
    mean = source.mean(axis=0)
    centred = source - mean
    eigenvalues, eigenvectors = np.linalg.eigh(centred.T @ centred / (len(source) - ddof))
    whitening = eigenvectors @ np.diag(1 / divide_by(eigenvalues))
    if rotate_back:
        whitening = whitening @ eigenvectors.T
    return ((x_new - mean) if centre else x_new) @ whitening


def test_zca_passes(capsys):
    checks.check_zca_whiten(zca)
    assert capsys.readouterr().out.startswith("Correct")


@pytest.mark.parametrize("wrong, phrase", [
    (lambda a, b: zca(a, b, stats_from_new=True), "its own statistics"),
    (lambda a, b: zca(a, b, rotate_back=False), "PCA-sphering"),
    (lambda a, b: zca(a, b, ddof=1), "P − 1"),
    (lambda a, b: zca(a, b, divide_by=lambda d: d), "square roots"),
    (lambda a, b: zca(a, b, centre=False), "forgot to centre"),
    (stub, "not written yet"),
])
def test_zca_fails_helpfully(wrong, phrase):
    with pytest.raises(CheckFailed, match=phrase):
        checks.check_zca_whiten(wrong)


def test_zca_output_has_identity_covariance():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(300, 4)) @ rng.normal(size=(4, 4)) + 3.0
    z = ml.pca_sphere(x, zca=True)[0](x)
    np.testing.assert_allclose(np.cov(z, rowvar=False, bias=True), np.eye(4), atol=1e-10)
