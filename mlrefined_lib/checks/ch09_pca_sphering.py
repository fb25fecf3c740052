"""Chapter 9, PCA-sphering: the checks of its exercises."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from ._grading import CheckFailed, graded
from ._reference import _as_array, _call

__all__ = ["check_diagonal_newton_step", "check_hessian_condition_numbers", "check_zca_whiten", "check_components_for_variance"]


def _correlated_inputs(rng: np.random.Generator, points: int, scales, offsets) -> np.ndarray:
    """Correlated features with the given scales and offsets (a shared factor plus noise)."""
    scales, offsets = np.asarray(scales, dtype=float), np.asarray(offsets, dtype=float)
    shared = rng.normal(size=(points, 1))
    return (shared + 0.5 * rng.normal(size=(points, scales.size))) * scales + offsets


@graded(forbids=('newtons_method', 'least_squares', 'gradient_descent'), rule='NumPy only, not the library')
def check_diagonal_newton_step(student: Callable) -> None:
    """Check ``student(x, y, w) -> w_new``: one least-squares Newton step with the Hessian's diagonal only (chapter 9).

    The reference divides each entry of the gradient ``(2/P) X̃ᵀ(X̃w − y)`` by
    the matching diagonal entry of ``(2/P) X̃ᵀX̃``. On sphered inputs the step
    must land on the ``lstsq`` solution.
    """
    from ..normalizers import pca_sphere

    rng = np.random.default_rng(81)
    x = _correlated_inputs(rng, 60, [1.0, 3.0, 0.5], [2.0, -1.0, 4.0])
    y = 0.5 + x @ np.array([1.0, -0.5, 2.0]) + 0.2 * rng.normal(size=60)
    w = rng.normal(size=4)
    x_ext = np.column_stack([np.ones(60), x])
    gradient = 2 / 60 * x_ext.T @ (x_ext @ w - y)
    diagonal = 2 / 60 * np.sum(x_ext**2, axis=0)
    expected = w - gradient / diagonal
    got = _as_array(_call(student, "diagonal_newton_step", x.copy(), y.copy(), w.copy()),
                    "diagonal_newton_step", (4,))
    if not np.allclose(got, expected, rtol=1e-7, atol=1e-9):
        full_newton = np.linalg.lstsq(x_ext, y, rcond=None)[0]
        hints = [
            (full_newton, "it lands on the exact minimizer, so you used the full Hessian. Keep only its "
                          "diagonal: divide each gradient entry by the matching diagonal entry."),
            (w - gradient, "it is a plain gradient step with alpha = 1: divide each gradient entry by the "
                           "matching diagonal entry of the Hessian."),
            (w + gradient / diagonal, "the step goes uphill: subtract gradient / diagonal from w."),
            (gradient / diagonal, "it returns the step only: return w minus the step."),
            (w - 2 * gradient / diagonal, "the step is twice too long: the gradient and the Hessian both "
                                          "carry the factor 2/P, so it cancels."),
            (w - gradient / (2 * diagonal), "the step is half as long as it should be: the gradient and the "
                                            "Hessian both carry the factor 2/P, so it cancels."),
            (w - gradient / (2 / 60 * np.sum(x**2, axis=0)).mean(), "the diagonal must include the bias "
                                                                    "entry, from the column of ones."),
        ]
        for wrong, hint in hints:
            if np.shape(wrong) == (4,) and np.allclose(got, wrong, rtol=1e-7, atol=1e-9):
                raise CheckFailed(f"diagonal_newton_step is not right: {hint}")
        raise CheckFailed(
            f"diagonal_newton_step is not right on random data: got {np.round(got, 4).tolist()}, expected "
            f"{np.round(expected, 4).tolist()}. The Hessian of the mean least-squares cost is (2/P) X̃ᵀX̃, "
            "its diagonal the mean of the squares of each column of X̃ (with the column of ones first)."
        )
    sphered = pca_sphere(x)[0](x)
    sphered_ext = np.column_stack([np.ones(60), sphered])
    best = np.linalg.lstsq(sphered_ext, y, rcond=None)[0]
    landed = _as_array(_call(student, "diagonal_newton_step", sphered.copy(), y.copy(), np.zeros(4)),
                       "diagonal_newton_step", (4,))
    if not np.allclose(landed, best, rtol=1e-8, atol=1e-8):
        raise CheckFailed("your step is right on raw data but does not land on the lstsq solution for sphered "
                          "inputs; make sure you use the inputs you are given (no extra scaling).")
    print("Correct: your step matches the reference, and on sphered inputs one step lands on the lstsq solution.")


def _hessian_condition(inputs: np.ndarray) -> float:
    x_ext = np.column_stack([np.ones(len(inputs)), inputs])
    eigenvalues = np.linalg.eigvalsh(2 / len(inputs) * x_ext.T @ x_ext)
    return float(eigenvalues.max() / eigenvalues.min())


@graded
def check_hessian_condition_numbers(student: Callable) -> None:
    """Check ``student(x) -> (raw, standardized, sphered)`` least-squares Hessian condition numbers (chapter 9).

    The sphered inputs are ``pca_sphere`` of the standardized inputs. Tests
    random correlated data against a reference, then prints the three numbers
    for scikit-learn's breast cancer data.
    """
    import warnings

    from sklearn.datasets import load_breast_cancer

    from ..normalizers import pca_sphere, standard_normalizer

    rng = np.random.default_rng(82)
    x = _correlated_inputs(rng, 80, [1.0, 10.0, 0.1, 4.0], [5.0, 0.0, -2.0, 30.0])
    standardized = standard_normalizer(x)[0](x)
    sphered = pca_sphere(standardized)[0](standardized)
    expected = np.array([_hessian_condition(x), _hessian_condition(standardized), _hessian_condition(sphered)])
    result = _call(student, "hessian_condition_numbers", x.copy())
    if not (isinstance(result, (tuple, list)) and len(result) == 3):
        raise CheckFailed("hessian_condition_numbers should return a tuple of three numbers "
                          "(raw, standardized, sphered).")
    got = _as_array(result, "hessian_condition_numbers", (3,))
    if not np.allclose(got, expected, rtol=1e-5):
        def no_bias(inputs):
            eigenvalues = np.linalg.eigvalsh(inputs.T @ inputs)
            return eigenvalues.max() / eigenvalues.min()

        names = ["raw", "standardized", "sphered"]
        for i, (inputs, name) in enumerate(zip([x, standardized, sphered], names)):
            if np.isclose(got[i], expected[i], rtol=1e-5):
                continue
            if np.isclose(got[i], no_bias(inputs), rtol=1e-5):
                raise CheckFailed(f"the {name} condition number leaves out the bias: put a column of ones in "
                                  "front of the inputs before forming the Hessian.")
            if np.isclose(got[i], np.sqrt(expected[i]), rtol=1e-5):
                raise CheckFailed(f"the {name} number is the condition number of X̃, the square root of the "
                                  "Hessian's: use the eigenvalues of (2/P) X̃ᵀX̃.")
            raise CheckFailed(f"the {name} condition number is {got[i]:.6g} but should be {expected[i]:.6g} "
                              "(largest over smallest eigenvalue of (2/P) X̃ᵀX̃). The order is raw, "
                              "standardized, sphered.")
    print("Correct: your condition numbers match the reference on random data.")
    cancer = load_breast_cancer().data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        numbers = _call(student, "hessian_condition_numbers", cancer.copy())
    raw, standard, white = (float(v) for v in numbers)
    print(f"Breast cancer data ({cancer.shape[0]} points, {cancer.shape[1]} features): condition number "
          f"raw {raw:.3e}, standardized {standard:.3e}, sphered {white:.3f}.")


@graded
def check_zca_whiten(student: Callable) -> None:
    """Check ``student(x_train, x_new) -> whitened x_new`` against ``pca_sphere(x_train, zca=True)`` (chapter 9)."""
    from ..normalizers import pca_sphere

    rng = np.random.default_rng(83)
    x_train = _correlated_inputs(rng, 90, [2.0, 1.0, 5.0], [1.0, -3.0, 10.0])
    x_new = _correlated_inputs(rng, 25, [3.0, 1.5, 4.0], [2.0, -1.0, 6.0])
    expected = pca_sphere(x_train, zca=True)[0](x_new)
    got = _as_array(_call(student, "zca_whiten", x_train.copy(), x_new.copy()), "zca_whiten", x_new.shape)
    if np.allclose(got, expected, rtol=1e-7, atol=1e-9):
        print("Correct: your ZCA whitening matches the library's, fitted on the training data.")
        return
    if np.allclose(got, pca_sphere(x_new, zca=True)[0](x_new), rtol=1e-7, atol=1e-9):
        raise CheckFailed("your result whitens x_new with its own statistics: take the mean and the covariance "
                          "from x_train only and apply them to x_new.")
    rotation = np.linalg.lstsq(expected, got, rcond=None)[0]
    if np.allclose(expected @ rotation, got, rtol=1e-7, atol=1e-8) and np.allclose(rotation.T @ rotation, np.eye(3), atol=1e-6):
        raise CheckFailed("your result whitens the data but is a rotation of ZCA, most likely PCA-sphering: after "
                          "dividing by sqrt(d), rotate back with Vᵀ (W = V D^(-1/2) Vᵀ).")
    if np.allclose(got, expected * np.sqrt(89 / 90), rtol=1e-7, atol=1e-9):
        raise CheckFailed("your covariance divides by P − 1 (np.cov's default); the book divides by P.")
    centred = x_train - x_train.mean(axis=0)
    eigenvalues, eigenvectors = np.linalg.eigh(centred.T @ centred / len(x_train))
    by_eigenvalue = (x_new - x_train.mean(axis=0)) @ eigenvectors @ np.diag(1 / eigenvalues) @ eigenvectors.T
    if np.allclose(got, by_eigenvalue, rtol=1e-7, atol=1e-9):
        raise CheckFailed("you divide by the eigenvalues d; divide by their square roots sqrt(d).")
    whitening = eigenvectors @ np.diag(eigenvalues**-0.5) @ eigenvectors.T
    if np.allclose(got, x_new @ whitening, rtol=1e-7, atol=1e-9):
        raise CheckFailed("you forgot to centre: subtract the training mean from x_new before whitening.")
    raise CheckFailed(
        "zca_whiten is not right: centre x_new with the training mean, then multiply by V D^(-1/2) Vᵀ built "
        "from the eigen-decomposition of the training covariance (1/P) X_cᵀX_c."
    )


@graded(forbids=('explained_variance', 'pca'), rule='NumPy only')
def check_components_for_variance(student: Callable) -> None:
    """Check ``student(x, fraction) -> k``, the fewest principal components keeping ``fraction`` of the variance (chapter 9).

    The reference is the cumulative sum of ``explained_variance(x)`` (itself
    tested against scikit-learn's ``PCA.explained_variance_ratio_``).
    """
    from ..normalizers import explained_variance

    rng = np.random.default_rng(88)
    spreads = np.array([6.0, 4.0, 3.0, 2.0, 1.5, 1.0, 0.5, 0.2])
    rotation, _ = np.linalg.qr(rng.normal(size=(8, 8)))
    x = (rng.normal(size=(300, 8)) * spreads) @ rotation.T + rng.normal(size=8) * 20
    ratios = explained_variance(x)
    centred = x - x.mean(axis=0)
    eigenvalues = np.sort(np.linalg.eigvalsh(centred.T @ centred / len(x)))[::-1]
    uncentred = np.sort(np.linalg.eigvalsh(x.T @ x / len(x)))[::-1]

    def first_reaching(cumulative, fraction):
        reached = np.flatnonzero(cumulative >= fraction - 1e-12)
        return int(reached[0]) + 1 if reached.size else len(cumulative) + 1

    fractions = (0.5, 0.8, 0.95, 0.99)
    answers = []
    for fraction in fractions:
        saved = x.copy()
        got = _call(student, "components_for_variance", x, fraction)
        if not np.array_equal(x, saved):
            raise CheckFailed("components_for_variance changed the array it was given; work on a copy.")
        try:
            answers.append(float(np.asarray(got).item()))
        except (TypeError, ValueError):
            raise CheckFailed("components_for_variance should return one whole number k; found "
                              f"{type(got).__name__}.") from None
    expected = [first_reaching(np.cumsum(ratios), f) for f in fractions]
    if answers == expected:
        print("Correct: your k is the fewest components that keep each asked-for fraction of the variance "
              f"(fractions {', '.join(map(str, fractions))}: k = {', '.join(map(str, expected))}).")
        return
    where = (f"for the fractions {', '.join(map(str, fractions))} you returned "
             f"{', '.join(f'{a:g}' for a in answers)}, but the right numbers of components are "
             f"{', '.join(map(str, expected))}")
    hints = [
        ([first_reaching(np.cumsum(eigenvalues), f) for f in fractions],
         "your variance ratios are not normalized: divide the eigenvalues by their sum so that they add up to 1."),
        ([e - 1 for e in expected], "each is one too few: count components from 1 (np.argmax(...) gives a 0-based "
         "index; add 1)."),
        ([first_reaching(np.cumsum(ratios[::-1]), f) for f in fractions],
         "you add the smallest eigenvalues first (np.linalg.eigh sorts them in ascending order): sort them from "
         "the largest."),
        ([first_reaching(np.cumsum(uncentred / uncentred.sum()), f) for f in fractions],
         "your eigenvalues come from x without centring it: subtract the column means first (the mean is not "
         "variance)."),
    ]
    for wrong, hint in hints:
        if answers == wrong:
            raise CheckFailed(f"components_for_variance is not right: {where}; {hint}")
    raise CheckFailed(f"components_for_variance is not right: {where}. Compute the eigenvalues of the covariance "
                      "of the centred x, sort them from the largest, divide by their sum, and return the first k "
                      "at which the cumulative sum reaches the fraction.")
