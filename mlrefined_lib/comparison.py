"""Comparing two models (chapter 5): tests that say whether a difference is more than noise.

Every tool here compares two models *on the same data* and ends in one of
three verdicts: ``"a lower"`` (model a has the lower error), ``"b lower"``, or
``"within the noise"`` (the 95% interval of the difference holds zero).

* :func:`paired_comparison` cross-validates two fits on the same folds and
  :func:`compare_fold_scores` takes per-fold scores already computed; both
  give the **corrected resampled t-interval** of the mean difference (Nadeau
  and Bengio, 2003): fold scores share most of their training rows, so their
  differences are correlated, and the plain ``s/√J`` is too small. With ``J``
  fold pairs (all repeats together), ``s²`` the sample variance of the
  differences (ddof = 1) and ``r`` the mean over the folds of
  validation rows / training rows, the interval is
  ``mean ± t(0.975, J − 1) · sqrt((1/J + r) · s²)`` → :class:`PairedComparison`.
  It was derived for folds drawn at random, not for forward-chaining folds,
  whose training sets are nested; for those, ``test="blocks"`` gives the
  t-interval over the folds' disjoint validation blocks, ``mean ± t(0.975,
  J − 1) · s/√J`` (see :func:`compare_fold_scores`).
* :func:`holm` adjusts the p-values of several comparisons made together
  (Holm, 1979), so that a verdict counts how many comparisons were made.
* :func:`mcnemar_test` compares two classifiers on one test set by the rows
  only one of them gets right: the exact two-sided binomial test on those
  discordant rows → :class:`McNemarResult`.
* :func:`paired_test_set` compares two fixed models on one test set by their
  per-row losses: a paired t-interval (the rows are independent once the
  models are fixed) → :class:`TestSetComparison`.
* :func:`bootstrap_replicates` computes a statistic on bootstrap resamples →
  :class:`Replicates`, whose spread is read with a percentile interval; a
  paired t-test given replicates warns (a t over replicates measures Monte
  Carlo precision, not a difference between models).
* :func:`compare_test_score` asks whether one score on a test set is typical of
  single folds of a cross-validation, given the spread of the fold scores
  scaled to the test set's size → :class:`TestScoreCheck`.

The t distribution is computed here for integer degrees of freedom from its
closed form (Abramowitz and Stegun, 26.7.3 and 26.7.4), so the library needs
no SciPy; the tests compare it with SciPy's.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._validation import as_inputs, as_outputs
from ._validation import check_choice, check_scalar
from .cross_validation import CrossValidationResult, _check_callables, _check_folds, _scores
from .guards import nested_training, validation_repeats, warn_method

__all__ = [
    "PairedComparison",
    "paired_comparison",
    "compare_fold_scores",
    "holm",
    "McNemarResult",
    "mcnemar_test",
    "TestSetComparison",
    "paired_test_set",
    "TestScoreCheck",
    "compare_test_score",
    "FOLD_TESTS",
    "Replicates",
    "bootstrap_replicates",
]

#: The tests :func:`compare_fold_scores` and :func:`paired_comparison` can run on per-fold differences.
FOLD_TESTS = ("corrected", "blocks")

LEVEL = 0.95
"""Every interval of this module is a 95% interval; every test is two-sided at 5%."""


# ---------------------------------------------------------------- Student's t, integer degrees of freedom


def _t_central_probability(t: float, dof: int) -> float:
    """Pr(|T| ≤ |t|) for Student's t with ``dof`` (a positive integer) degrees of freedom.

    With θ = atan(|t|/√dof): for odd dof, (2/π)(θ + sin θ cos θ · S_odd) and for
    even dof, sin θ · S_even, where the sums S run over powers of cos²θ with the
    coefficients 2·4·…/(1·3·…) (odd) and 1·3·…/(2·4·…) (even).
    """
    if math.isinf(t):
        return 1.0
    theta = math.atan(abs(t) / math.sqrt(dof))
    c2 = math.cos(theta) ** 2
    if dof % 2 == 1:
        total, term = 0.0, 1.0
        if dof > 1:
            total = 1.0
            for j in range(1, (dof - 3) // 2 + 1):
                term *= c2 * (2 * j) / (2 * j + 1)
                total += term
        return min(1.0, 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total))
    total, term = 1.0, 1.0
    for j in range(1, (dof - 2) // 2 + 1):
        term *= c2 * (2 * j - 1) / (2 * j)
        total += term
    return min(1.0, math.sin(theta) * total)


def _t_two_sided_p(t: float, dof: int) -> float:
    """Two-sided p-value of a t statistic with ``dof`` degrees of freedom."""
    return max(0.0, 1.0 - _t_central_probability(t, dof))


def _t_quantile(level: float, dof: int) -> float:
    """The t with Pr(|T| ≤ t) = level (so the (1 + level)/2 quantile), by bisection to 1e-12."""
    low, high = 0.0, 1.0
    while _t_central_probability(high, dof) < level:
        high *= 2
    while high - low > 1e-12 * max(1.0, high):
        middle = (low + high) / 2
        if _t_central_probability(middle, dof) < level:
            low = middle
        else:
            high = middle
    return (low + high) / 2


# ---------------------------------------------------------------- shared input checks and wording


def _warn_replicates(values_a, values_b, names: str, test: str) -> None:
    """A MethodWarning when either of the two inputs is :class:`Replicates`."""
    found = next((values for values in (values_a, values_b) if isinstance(values, Replicates)), None)
    if found is not None:
        warn_method(
            f"{names} hold {len(found)} bootstrap replicates of one data set, and {test} treats them as "
            f"independent observations: its interval then measures how precisely {len(found)} replicates pin down "
            "their own mean (it narrows as replicates are added), not whether the two models differ. Read the "
            "spread of the replicates of the difference instead ((a - b).percentile_interval()), or compare the "
            "models on independent rows (paired_test_set on a test set) or folds (paired_comparison)."
        )


def _as_scores(values, name: str) -> np.ndarray:
    """One finite score per fold (or per row) as a 1-D float array, or a ValueError."""
    if isinstance(values, CrossValidationResult):
        values = values.scores
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numbers, one per fold or row; found {type(values).__name__}.") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, one score per fold or row; found shape {arr.shape}.")
    if arr.size < 2:
        raise ValueError(f"{name} must hold at least 2 scores to compare with a spread; found {arr.size}.")
    if not np.all(np.isfinite(arr)):
        bad = np.flatnonzero(~np.isfinite(arr))
        raise ValueError(
            f"{name} holds {bad.size} NaN or infinite score(s), first at position {bad[0]}: a score that is not a "
            "number cannot be compared; find out why the model failed there."
        )
    return arr


def _as_names(names) -> tuple[str, str]:
    if names is None:
        return ("a", "b")
    if (not isinstance(names, (list, tuple)) or len(names) != 2
            or not all(isinstance(name, str) and name for name in names)):
        raise ValueError(f"names must be two non-empty strings (name of a, name of b); found {names!r}.")
    return (names[0], names[1])


def _verdict(interval: tuple[float, float]) -> str:
    """``"a lower"`` / ``"b lower"`` when the interval of a − b excludes 0, else ``"within the noise"``."""
    low, high = interval
    if high < 0:
        return "a lower"
    if low > 0:
        return "b lower"
    return "within the noise"


def _said(verdict: str, names: tuple[str, str], what: str = "error") -> str:
    if verdict == "a lower":
        return f"{names[0]} has the lower {what}"
    if verdict == "b lower":
        return f"{names[1]} has the lower {what}"
    return "within the noise"


def _t_interval(mean: float, standard_error: float, dof: int) -> tuple[tuple[float, float], float]:
    """95% t-interval of a mean and the two-sided p-value of mean = 0."""
    if standard_error == 0:
        return (mean, mean), (1.0 if mean == 0 else 0.0)
    half = _t_quantile(LEVEL, dof) * standard_error
    return (mean - half, mean + half), _t_two_sided_p(mean / standard_error, dof)


def _number(value: float) -> str:
    return f"{value:.4g}"


# ---------------------------------------------------------------- folds: paired comparison


@dataclass(repr=False)
class PairedComparison:
    """Two models scored on the same folds, compared by their per-fold differences (chapter 5).

    Attributes
    ----------
    a, b : CrossValidationResult
        The per-fold scores of model a and of model b.
    differences : array of shape (J,)
        ``a.scores − b.scores``: negative where model a has the lower error.
    test_to_train : float
        ``r``, the mean over the folds of validation rows / training rows.
    corrected_standard_error : float
        The standard error the interval uses: ``sqrt((1/J + r) · s²)``, s² the sample
        variance of the differences (with ``test="blocks"``: ``s/√J``).
    interval : (float, float)
        95% t-interval of the mean difference (J − 1 degrees of freedom): corrected
        resampled, or over independent validation blocks (``test``).
    p_value : float
        Two-sided p-value of "no difference" from the same t statistic.
    verdict : str
        ``"a lower"``, ``"b lower"`` or ``"within the noise"`` (the interval holds 0).
    names : (str, str)
        What the printed sentence calls a and b.
    test : str
        ``"corrected"`` (Nadeau and Bengio) or ``"blocks"`` (independent validation blocks).

    ``standard_error`` (the plain ``s/√J``) is kept to show how much the
    correction widens it; it is not a test.
    """

    a: CrossValidationResult
    b: CrossValidationResult
    differences: np.ndarray
    test_to_train: float
    corrected_standard_error: float
    interval: tuple
    p_value: float
    verdict: str
    names: tuple = ("a", "b")
    test: str = "corrected"

    @property
    def mean_difference(self) -> float:
        """Mean of the per-fold differences (a − b)."""
        return float(np.mean(self.differences))

    @property
    def standard_error(self) -> float:
        """The uncorrected ``sd(d, ddof=1)/√J``: too small, because the folds share training rows."""
        return float(np.std(self.differences, ddof=1) / np.sqrt(len(self.differences)))

    @property
    def a_lower_in(self) -> int:
        """On how many folds model a has the lower score."""
        return int(np.sum(self.differences < 0))

    def __repr__(self) -> str:
        name_a, name_b = self.names
        low, high = self.interval
        return (
            f"{name_a} − {name_b}: {_number(self.mean_difference)} on average over {len(self.differences)} folds "
            f"(lower in {self.a_lower_in} for {name_a}); 95% "
            f"{'corrected interval' if self.test == 'corrected' else 'interval over the validation blocks'} "
            f"[{_number(low)}, {_number(high)}], "
            f"p = {self.p_value:.3f}: {_said(self.verdict, self.names)}."
        )

    __str__ = __repr__


def _fold_sizes(folds) -> tuple[float, int, float]:
    """Check ``folds``; return r (mean of validation rows / training rows), their number, mean validation rows."""
    folds = _checked_folds(folds)
    ratio = float(np.mean([len(validation) / len(train) for train, validation in folds]))
    return ratio, len(folds), float(np.mean([len(validation) for _, validation in folds]))


def _checked_folds(folds) -> list:
    """``folds`` checked as :func:`~mlrefined_lib.cross_validation.cross_validate` checks them, against as
    many rows as their largest index needs (the data themselves are not at hand here)."""
    rows = 1
    if isinstance(folds, (list, tuple)):
        for pair in folds:
            for part in pair if isinstance(pair, (list, tuple)) and len(pair) == 2 else ():
                arr = np.asarray(part)
                if arr.ndim == 1 and arr.size and np.issubdtype(arr.dtype, np.integer):
                    rows = max(rows, int(arr.max()) + 1)
    return _check_folds(folds, rows)


def _disjoint_validation(folds) -> None:
    seen = {}
    for number, (_, validation) in enumerate(folds):
        for row in validation.tolist():
            if row in seen:
                raise ValueError(
                    f'test="blocks" treats each fold\'s validation rows as a block of its own, so no row may be '
                    f"validated twice; row {row} is validated in folds {seen[row]} and {number}. Use one run of "
                    f'the folds, or test="corrected" for repeated folds drawn at random.'
                )
            seen[row] = number


def compare_fold_scores(scores_a, scores_b, folds, *, names=None, test: str = "corrected") -> PairedComparison:
    """Compare two models from their scores on the same folds: corrected resampled t-interval (chapter 5).

    ``test="corrected"`` (the default) is Nadeau and Bengio's corrected
    resampled t, for folds that draw their training rows at random (k-fold,
    repeated or not). When the folds' training sets are nested (forward
    chaining, :func:`~mlrefined_lib.cross_validation.time_folds`: each fold
    trains on every row of the one before) it was not derived for them, and a
    :class:`~mlrefined_lib.guards.MethodWarning` says so. For such folds,
    ``test="blocks"`` treats the J validation blocks, which are disjoint
    stretches of rows, as J independent observations of the difference: the
    plain t-interval ``mean ± t(0.975, J − 1) · s/√J`` over the per-fold
    differences. This is the batch-means form of Diebold and Mariano's (1995)
    test of equal forecast accuracy, each block mean one batch. It assumes
    that the blocks are long compared with the reach of the dependence between
    nearby rows, and it takes the fitted models as given (the variation that
    the shared training rows add is not counted), so it answers whether a
    forecast better than b over these validation periods.

    Parameters
    ----------
    scores_a, scores_b : array of shape (J,) or CrossValidationResult
        One error per fold for each model, in the order of ``folds``; lower is better.
    folds : list of (train_indices, validation_indices)
        The J folds both were scored on (repeated folds: all repeats in one list).
    names : (str, str), optional
        Names for a and b in the printed sentence.
    test : {"corrected", "blocks"}
        The corrected resampled t, or the t over independent validation blocks.

    Returns
    -------
    PairedComparison

    Raises
    ------
    ValueError
        Fewer than two folds, scores and folds of different lengths, scores
        that are not finite numbers, malformed folds, an unknown ``test``, or
        ``test="blocks"`` with a row validated in two folds.

    Warns
    -----
    MethodWarning
        ``test="corrected"`` on folds with nested training sets; scores that
        are :class:`Replicates`.
    """
    names = _as_names(names)
    check_choice(test, FOLD_TESTS, "test")
    _warn_replicates(scores_a, scores_b, "scores_a and scores_b", "the fold comparison")
    a = _as_scores(scores_a, "scores_a")
    b = _as_scores(scores_b, "scores_b")
    ratio, count, _ = _fold_sizes(folds)
    checked = _checked_folds(folds)
    if test == "blocks":
        _disjoint_validation(checked)
    elif nested_training(checked):
        warn_method(
            f"the {count} folds' training sets are nested (each holds every training row of the one before, as "
            "forward-chaining folds such as time_folds do); the corrected resampled t was derived for training "
            'sets drawn at random, not for these. Pass test="blocks" for the t-interval over the folds\' '
            "disjoint validation blocks, which suits forward-chaining folds."
        )
    if not (len(a) == len(b) == count):
        raise ValueError(
            f"scores_a, scores_b and folds must have one entry per fold; found {len(a)} scores for a, "
            f"{len(b)} for b and {count} folds."
        )
    differences = a - b
    count = len(differences)
    variance = float(np.var(differences, ddof=1))
    corrected = float(np.sqrt((1 / count + ratio) * variance if test == "corrected" else variance / count))
    interval, p_value = _t_interval(float(np.mean(differences)), corrected, count - 1)
    repeats = validation_repeats(checked)
    return PairedComparison(
        CrossValidationResult(a, repeats), CrossValidationResult(b, repeats), differences, ratio, corrected,
        (float(interval[0]), float(interval[1])), float(p_value),
        _verdict(interval), names, test,
    )


def paired_comparison(fit_a: Callable, fit_b: Callable, error: Callable, x, y, folds, *, names=None,
                      test: str = "corrected") -> PairedComparison:
    """Cross-validate two fits on the same folds and compare them fold by fold (chapter 5).

    Both fits are scored on every fold (as :func:`~mlrefined_lib.cross_validation.cross_validate`
    does), and the per-fold differences a − b go to :func:`compare_fold_scores`.

    Parameters
    ----------
    fit_a, fit_b : callable
        ``fit(x, y) -> model``.
    error : callable
        ``error(model, x, y) -> float``; lower is better.
    x : array of shape (P, N)
    y : array of shape (P,)
    folds : list of (train_indices, validation_indices)
    names : (str, str), optional
        Names for a and b in the printed sentence.
    test : {"corrected", "blocks"}
        As for :func:`compare_fold_scores`: ``"blocks"`` for forward-chaining folds.

    Returns
    -------
    PairedComparison

    Raises
    ------
    ValueError
        As :func:`~mlrefined_lib.cross_validation.cross_validate`, or fewer than two folds.

    Warns
    -----
    MethodWarning
        As :func:`compare_fold_scores`.
    """
    _check_callables(fit_a=fit_a, fit_b=fit_b, error=error)
    names = _as_names(names)
    check_choice(test, FOLD_TESTS, "test")
    x = as_inputs(x, "x")
    y = as_outputs(y, x.shape[0], x.shape, "y")
    folds = _check_folds(folds, x.shape[0])
    a = _scores(fit_a, error, x, y, folds, " (fit_a)")
    b = _scores(fit_b, error, x, y, folds, " (fit_b)")
    return compare_fold_scores(a, b, folds, names=names, test=test)


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (Holm, 1979), in the order given.

    Several comparisons made together: each p-value is read against a level
    that counts them. Sort the ``m`` p-values, ``p_(1) ≤ … ≤ p_(m)``; the
    adjusted ``p_(i)`` is the largest over ``j ≤ i`` of
    ``min(1, (m − j + 1) · p_(j))``. A comparison survives at 5% when its
    adjusted p-value is below 0.05; with one p-value nothing changes.

    Parameters
    ----------
    p_values : 1-D array-like of numbers in [0, 1], at least one.

    Returns
    -------
    numpy.ndarray of the adjusted p-values, one per input, in the input order.
    """
    try:
        p = np.asarray(p_values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("p_values must be numbers in [0, 1], one per comparison; "
                         f"found {type(p_values).__name__}.") from None
    if p.ndim != 1:
        raise ValueError(f"p_values must be 1-D, one p-value per comparison; found shape {p.shape}.")
    if p.size == 0:
        raise ValueError("p_values must hold at least one p-value; found none.")
    bad = np.flatnonzero(~(np.isfinite(p) & (p >= 0) & (p <= 1)))
    if bad.size:
        raise ValueError(f"p_values must lie in [0, 1]; found {p[bad[0]]} at index {bad[0]} "
                         f"({bad.size} value(s) outside [0, 1] or NaN).")
    m = p.size
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


# ---------------------------------------------------------------- one test set: McNemar


@dataclass(repr=False)
class McNemarResult:
    """Two classifiers compared on the same test rows by the rows only one gets right (chapter 5).

    Attributes
    ----------
    only_a : int
        Rows model a classifies right and model b wrong.
    only_b : int
        Rows model b classifies right and model a wrong.
    rows : int
        Number of test rows.
    p_value : float
        Exact two-sided binomial p-value of "each discordant row is a coin flip".
    verdict : str
        ``"a lower"`` (a makes fewer errors), ``"b lower"`` or ``"within the noise"`` (p ≥ 0.05).
    names : (str, str)
    """

    only_a: int
    only_b: int
    rows: int
    p_value: float
    verdict: str
    names: tuple = ("a", "b")

    def __repr__(self) -> str:
        name_a, name_b = self.names
        return (
            f"On {self.rows} rows, {self.only_a} are right only for {name_a} and {self.only_b} only for {name_b}; "
            f"exact McNemar p = {self.p_value:.3f}: {_said(self.verdict, self.names, 'error rate')}."
        )

    __str__ = __repr__


def _as_labels(values, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, one label per test row; found shape {arr.shape}.")
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        bad = np.flatnonzero(~np.isfinite(arr))
        raise ValueError(f"{name} holds {bad.size} NaN or infinite label(s), first at row {bad[0]}.")
    if arr.dtype.kind == "O" and any(value is None or (isinstance(value, float) and math.isnan(value)) for value in arr):
        raise ValueError(f"{name} holds a missing label (None or NaN).")
    return arr


def _binomial_two_sided(successes: int, trials: int) -> float:
    """Exact two-sided p of a fair coin: 2 · Pr(X ≤ min(k, n − k)), at most 1, from integer counts."""
    if trials == 0:
        return 1.0
    tail = sum(math.comb(trials, i) for i in range(min(successes, trials - successes) + 1))
    return min(1.0, 2 * tail / 2 ** trials)


def mcnemar_test(y, pred_a, pred_b, *, names=None) -> McNemarResult:
    """Compare two classifiers on the same test rows: exact McNemar test (chapter 5).

    Only the discordant rows carry information: ``only_a`` rows that a gets
    right and b wrong, ``only_b`` the other way round. If the two are equally
    accurate, each discordant row is a fair coin; the p-value is the exact
    two-sided binomial probability of a split at least as uneven.

    Parameters
    ----------
    y : array of shape (P,)
        The true labels (numbers or strings).
    pred_a, pred_b : array of shape (P,)
        The labels each model predicts for the same rows.
    names : (str, str), optional

    Returns
    -------
    McNemarResult

    Raises
    ------
    ValueError
        Labels and predictions of different shapes, fewer than one row, or missing labels.
    """
    names = _as_names(names)
    y = _as_labels(y, "y")
    pred_a = _as_labels(pred_a, "pred_a")
    pred_b = _as_labels(pred_b, "pred_b")
    if not (y.shape == pred_a.shape == pred_b.shape):
        raise ValueError(
            f"y, pred_a and pred_b must have one entry per test row; found shapes {y.shape}, {pred_a.shape} "
            f"and {pred_b.shape}."
        )
    if y.size == 0:
        raise ValueError("y must hold at least one test row; found none.")
    right_a, right_b = pred_a == y, pred_b == y
    only_a, only_b = int(np.sum(right_a & ~right_b)), int(np.sum(right_b & ~right_a))
    p_value = _binomial_two_sided(only_a, only_a + only_b)
    verdict = "within the noise"
    if p_value < 1 - LEVEL:
        verdict = "a lower" if only_a > only_b else "b lower"
    return McNemarResult(only_a, only_b, int(y.size), float(p_value), verdict, names)


# ---------------------------------------------------------------- one test set: per-row losses


@dataclass(repr=False)
class TestSetComparison:
    """Two fixed models compared on one test set by their per-row losses (chapter 5).

    Attributes
    ----------
    differences : array of shape (P,)
        ``losses_a − losses_b`` per test row.
    standard_error : float
        ``sd(d, ddof=1)/√P``: the rows are independent once the models are fixed.
    interval : (float, float)
        95% t-interval of the mean difference (P − 1 degrees of freedom).
    p_value : float
    verdict : str
        ``"a lower"``, ``"b lower"`` or ``"within the noise"``.
    names : (str, str)
    """

    __test__ = False  # not a pytest test class

    differences: np.ndarray
    standard_error: float
    interval: tuple
    p_value: float
    verdict: str
    names: tuple = ("a", "b")

    @property
    def mean_difference(self) -> float:
        """Mean per-row loss difference (a − b)."""
        return float(np.mean(self.differences))

    def __repr__(self) -> str:
        name_a, name_b = self.names
        low, high = self.interval
        return (
            f"{name_a} − {name_b}: {_number(self.mean_difference)} per row on average over {len(self.differences)} "
            f"test rows; 95% interval [{_number(low)}, {_number(high)}], p = {self.p_value:.3f}: "
            f"{_said(self.verdict, self.names, 'loss')}."
        )

    __str__ = __repr__


def paired_test_set(losses_a, losses_b, *, names=None) -> TestSetComparison:
    """Compare two fixed models on one test set from their per-row losses: paired t-interval (chapter 5).

    For a mean loss such as the mean squared error, pass the squared errors of
    each row; the mean difference is then the difference of the two test
    errors. (For an RMSE, compare the mean squared errors: the square root of
    a mean is not a mean of rows.)

    Parameters
    ----------
    losses_a, losses_b : array of shape (P,)
        The loss of each test row under model a and under model b.
    names : (str, str), optional

    Returns
    -------
    TestSetComparison

    Raises
    ------
    ValueError
        Fewer than two rows, lengths that differ, or losses that are not finite.

    Warns
    -----
    MethodWarning
        When the losses are :class:`Replicates` (bootstrap replicates of one
        data set, not independent rows).
    """
    names = _as_names(names)
    _warn_replicates(losses_a, losses_b, "losses_a and losses_b", "the paired t-test")
    a = _as_scores(losses_a, "losses_a")
    b = _as_scores(losses_b, "losses_b")
    if a.shape != b.shape:
        raise ValueError(f"losses_a and losses_b must have one loss per test row each; found {a.size} and {b.size}.")
    differences = a - b
    mean = float(np.mean(differences))
    standard_error = float(np.std(differences, ddof=1) / np.sqrt(differences.size))
    interval, p_value = _t_interval(mean, standard_error, differences.size - 1)
    return TestSetComparison(differences, standard_error, (float(interval[0]), float(interval[1])),
                             float(p_value), _verdict(interval), names)


# ---------------------------------------------------------------- one test score against folds


@dataclass(repr=False)
class TestScoreCheck:
    """Is one test score typical of single folds of a cross-validation? (chapter 5)

    Attributes
    ----------
    test_score : float
    fold_mean : float
        Mean of the fold scores.
    single_score_spread : float
        The spread expected of one score on ``test_rows`` rows: the sample
        standard deviation of the fold scores times sqrt(mean validation rows / test_rows).
    interval : (float, float)
        95% prediction interval of one such score:
        ``fold_mean ± t(0.975, k − 1) · sqrt(spread² + s²/k)``.
    verdict : str
        ``"typical"``, ``"lower than typical"`` or ``"higher than typical"``.
    """

    __test__ = False  # not a pytest test class

    test_score: float
    fold_mean: float
    single_score_spread: float
    interval: tuple
    verdict: str

    def __repr__(self) -> str:
        low, high = self.interval
        return (
            f"test score {_number(self.test_score)} against {_number(self.fold_mean)} from the folds; one score on "
            f"this many rows falls in [{_number(low)}, {_number(high)}] 95% of the time: {self.verdict}."
        )

    __str__ = __repr__


def compare_test_score(test_score, fold_scores, folds, test_rows) -> TestScoreCheck:
    """Ask whether one test score is typical of single folds, not of the folds' mean (chapter 5).

    The standard error of a k-fold mean says how well the mean is known; a
    single test score scatters like a single fold, scaled by its size: a
    mean loss over n rows has a spread that shrinks like 1/√n.

    Parameters
    ----------
    test_score : float
        The error on the test set.
    fold_scores : array of shape (k,) or CrossValidationResult
        The cross-validation's per-fold errors (same error function).
    folds : list of (train_indices, validation_indices)
        The k folds behind ``fold_scores`` (for their validation sizes).
    test_rows : int
        Number of rows in the test set.

    Returns
    -------
    TestScoreCheck

    Raises
    ------
    ValueError
        A test score that is not a finite number, fewer than two folds, scores
        and folds of different lengths, or test_rows not a positive integer.
    """
    try:
        score = float(test_score)
    except (TypeError, ValueError):
        raise ValueError(f"test_score must be a number; found {type(test_score).__name__}.") from None
    if not math.isfinite(score):
        raise ValueError(f"test_score must be a finite number; found {score}.")
    scores = _as_scores(fold_scores, "fold_scores")
    if isinstance(test_rows, bool) or not isinstance(test_rows, (int, np.integer)) or test_rows < 1:
        raise ValueError(f"test_rows must be a positive integer (rows in the test set); found {test_rows!r}.")
    _, count, validation_rows = _fold_sizes(folds)
    if count != scores.size:
        raise ValueError(f"fold_scores and folds must have one entry per fold; found {scores.size} scores and "
                         f"{count} folds.")
    spread = float(np.std(scores, ddof=1))
    single = spread * math.sqrt(validation_rows / int(test_rows))
    half = _t_quantile(LEVEL, scores.size - 1) * math.sqrt(single ** 2 + spread ** 2 / scores.size)
    mean = float(np.mean(scores))
    low, high = mean - half, mean + half
    verdict = "typical" if low <= score <= high else ("lower than typical" if score < low else "higher than typical")
    return TestScoreCheck(score, mean, single, (low, high), verdict)



# ---------------------------------------------------------------- bootstrap replicates


class Replicates(np.ndarray):
    """Values of a statistic on bootstrap resamples of one data set (chapter 5), from :func:`bootstrap_replicates`.

    An array of shape ``(B,)`` or ``(B, ...)``, one entry per resample, that
    remembers what it is: arithmetic on it (``a - b``) keeps the type, and a
    paired t-test given it issues a :class:`~mlrefined_lib.guards.MethodWarning`.
    The B replicates are not B independent observations: they resample the
    same rows, so their standard error ``sd/√B`` shrinks as more are drawn and
    measures only the Monte Carlo precision of their mean. Their spread, read
    with :meth:`percentile_interval`, is what says how much the statistic
    varies from one resample of the data to another.
    """

    def __array_finalize__(self, obj):
        pass

    def percentile_interval(self, level: float = LEVEL) -> tuple:
        """The central ``level`` share of the replicates along the first axis: (low, high) percentiles."""
        level = check_scalar(level, "level", numbers.Real, min_val=0, max_val=1, include_boundaries="neither")
        values = np.asarray(self, dtype=float)
        low, high = np.percentile(values, [50 * (1 - level), 50 * (1 + level)], axis=0)
        return (float(low), float(high)) if np.ndim(low) == 0 else (low, high)


def bootstrap_replicates(statistic: Callable, num_points: int, count: int, *, seed: int = 0) -> Replicates:
    """Compute ``statistic(rows)`` on ``count`` bootstrap resamples of ``range(num_points)`` (chapter 5).

    Each resample draws ``num_points`` row numbers with replacement with
    ``numpy.random.default_rng(seed).integers``; ``statistic`` receives those
    row numbers and returns a number or an array (the same shape each time).

    Parameters
    ----------
    statistic : callable
        ``statistic(rows) -> number or array``.
    num_points : int >= 1
        The number of rows to resample.
    count : int >= 2
        The number B of resamples.
    seed : int
        Seed of the resamples.

    Returns
    -------
    Replicates
        Shape ``(count,)`` plus the statistic's shape.

    Raises
    ------
    ValueError
        A statistic that is not callable, counts out of range, or values of
        changing shape.
    """
    _check_callables(statistic=statistic)
    num_points = check_scalar(num_points, "num_points", numbers.Integral, min_val=1)
    count = check_scalar(count, "count", numbers.Integral, min_val=2)
    seed = check_scalar(seed, "seed", numbers.Integral, min_val=0)
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(count):
        value = np.asarray(statistic(rng.integers(0, num_points, num_points)), dtype=float)
        if values and value.shape != values[0].shape:
            raise ValueError(
                f"statistic must return the same shape on every resample; found {values[0].shape} and then "
                f"{value.shape}."
            )
        values.append(value)
    return np.array(values).view(Replicates)
