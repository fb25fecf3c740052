"""The hints of chapter 9's checks (PCA-sphering, PCA compression): each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import re

import numpy as np
import pytest

import mlrefined_lib as ml
from mlrefined_lib import checks
from mlrefined_lib.checks import CheckFailed


# ---------------------------------------------------------------- diagonal Newton step


def diagonal_newton_step(x, y, w):
    x_ext = np.column_stack([np.ones(len(x)), x])
    gradient = 2 / len(x) * x_ext.T @ (x_ext @ w - y)
    return w - gradient / (2 / len(x) * np.sum(x_ext**2, axis=0))


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


@pytest.mark.parametrize("wrong, phrase", [
    (lambda a, b: zca(a, b, stats_from_new=True), "its own statistics"),
    (lambda a, b: zca(a, b, rotate_back=False), "PCA-sphering"),
    (lambda a, b: zca(a, b, ddof=1), "P − 1"),
    (lambda a, b: zca(a, b, divide_by=lambda d: d), "square roots"),
    (lambda a, b: zca(a, b, centre=False), "forgot to centre"),
])
def test_zca_fails_helpfully(wrong, phrase):
    with pytest.raises(CheckFailed, match=phrase):
        checks.check_zca_whiten(wrong)


def test_zca_output_has_identity_covariance():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(300, 4)) @ rng.normal(size=(4, 4)) + 3.0
    z = ml.pca_sphere(x, zca=True)[0](x)
    np.testing.assert_allclose(np.cov(z, rowvar=False, bias=True), np.eye(4), atol=1e-10)


# ---------------------------------------------------------------- chapter 9: components_for_variance

def components_right(x, fraction):
    centred = x - x.mean(axis=0)
    eigenvalues = np.sort(np.linalg.eigvalsh(centred.T @ centred / len(x)))[::-1]
    cumulative = np.cumsum(eigenvalues / eigenvalues.sum())
    return int(np.argmax(cumulative >= fraction)) + 1


def components_with_numpy_cov(x, fraction):      # P - 1 instead of P changes nothing: must pass
    eigenvalues = np.sort(np.linalg.eigvalsh(np.cov(x, rowvar=False)))[::-1]
    return np.int64(np.searchsorted(np.cumsum(eigenvalues) / eigenvalues.sum(), fraction) + 1)


def test_components_check_passes_right_answers(capsys):
    checks.check_components_for_variance(components_right)
    assert "Correct" in capsys.readouterr().out
    checks.check_components_for_variance(components_with_numpy_cov)


def not_normalized(x, fraction):
    centred = x - x.mean(axis=0)
    eigenvalues = np.sort(np.linalg.eigvalsh(centred.T @ centred / len(x)))[::-1]
    return int(np.argmax(np.cumsum(eigenvalues) >= fraction)) + 1


def zero_based(x, fraction):
    return components_right(x, fraction) - 1


def ascending(x, fraction):
    centred = x - x.mean(axis=0)
    eigenvalues = np.linalg.eigvalsh(centred.T @ centred / len(x))          # ascending order
    return int(np.argmax(np.cumsum(eigenvalues / eigenvalues.sum()) >= fraction)) + 1


def uncentred(x, fraction):
    eigenvalues = np.sort(np.linalg.eigvalsh(x.T @ x / len(x)))[::-1]
    return int(np.argmax(np.cumsum(eigenvalues / eigenvalues.sum()) >= fraction)) + 1


def modifies(x, fraction):
    x -= x.mean(axis=0)
    return components_right(x, fraction)


@pytest.mark.parametrize("wrong, phrase", [
    (not_normalized, "not normalized"),
    (zero_based, "one too few"),
    (ascending, "smallest eigenvalues first"),
    (uncentred, "without centring"),
    (modifies, "changed the array"),
    (lambda x, fraction: 3, "right numbers of components are 1, 3, 5, 6"),
    (lambda x, fraction: "three", "one whole number"),
    (lambda x, fraction: [1, 2], "one whole number"),
])
def test_components_check_catches_mistakes(wrong, phrase):
    with pytest.raises(CheckFailed, match=phrase):
        checks.check_components_for_variance(wrong)
