"""Tests of the comparison tools (chapter 5) against SciPy's t and binomial distributions and scikit-learn's folds."""

import numpy as np
import pytest
from scipy import stats
from sklearn.model_selection import KFold, RepeatedKFold

import mlrefined_lib as ml
from mlrefined_lib import comparison


def fit_lstsq(x, y):
    x_ext = np.column_stack([np.ones(len(x)), x])
    return np.linalg.lstsq(x_ext, y, rcond=None)[0]


def fit_mean(x, y):
    return np.concatenate([[y.mean()], np.zeros(x.shape[1])])


def mse(w, x, y):
    return float(np.mean((w[0] + x @ w[1:] - y) ** 2))


def regression_data(seed=0, points=60, features=3, noise=0.5):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(points, features))
    y = 1.0 + x @ rng.normal(size=features) + noise * rng.normal(size=points)
    return x, y


def sklearn_folds(splitter, points):
    return [(train, test) for train, test in splitter.split(np.zeros((points, 1)))]


def corrected_interval_by_hand(differences, folds):
    """The Nadeau-Bengio interval, written out from its definition with SciPy's t."""
    j = len(differences)
    r = np.mean([len(test) / len(train) for train, test in folds])
    se = np.sqrt((1 / j + r) * np.var(differences, ddof=1))
    mean = np.mean(differences)
    half = stats.t.ppf(0.975, j - 1) * se
    p = 2 * stats.t.sf(abs(mean) / se, j - 1)
    return (mean - half, mean + half), p, se, r


# ---------------------------------------------------------------- the t distribution


@pytest.mark.parametrize("dof", [1, 2, 3, 4, 5, 9, 14, 29, 30, 99, 449, 1000])
def test_t_probabilities_and_quantiles_match_scipy(dof):
    for t in [0.0, 0.1, 0.7, 1.5, 2.0, 2.6, 4.0, 12.0]:
        expected = stats.t.cdf(t, dof) - stats.t.cdf(-t, dof)
        assert comparison._t_central_probability(t, dof) == pytest.approx(expected, abs=1e-12)
        assert comparison._t_two_sided_p(t, dof) == pytest.approx(2 * stats.t.sf(t, dof), rel=1e-8, abs=1e-14)
    assert comparison._t_quantile(0.95, dof) == pytest.approx(stats.t.ppf(0.975, dof), rel=1e-9)


def test_t_quantile_matches_printed_tables():
    # Values from printed t tables (two-sided 95%), independent of any code.
    for dof, value in [(1, 12.706), (4, 2.776), (9, 2.262), (14, 2.145), (29, 2.045)]:
        assert comparison._t_quantile(0.95, dof) == pytest.approx(value, abs=5e-4)


# ---------------------------------------------------------------- paired comparison on folds


def test_paired_comparison_scores_on_sklearn_folds_and_corrected_interval():
    x, y = regression_data(9, points=50, features=4)
    folds = sklearn_folds(KFold(10, shuffle=True, random_state=3), 50)
    result = ml.paired_comparison(fit_lstsq, fit_mean, mse, x, y, folds)
    a = np.array([mse(fit_lstsq(x[tr], y[tr]), x[te], y[te]) for tr, te in folds])
    b = np.array([mse(fit_mean(x[tr], y[tr]), x[te], y[te]) for tr, te in folds])
    np.testing.assert_allclose(result.a.scores, a)
    np.testing.assert_allclose(result.b.scores, b)
    np.testing.assert_allclose(result.differences, a - b)
    interval, p, se, r = corrected_interval_by_hand(a - b, folds)
    assert result.test_to_train == pytest.approx(5 / 45)
    assert result.test_to_train == pytest.approx(r)
    assert result.corrected_standard_error == pytest.approx(se)
    np.testing.assert_allclose(result.interval, interval, rtol=1e-9)
    assert result.p_value == pytest.approx(p, rel=1e-7, abs=1e-15)
    assert result.standard_error == pytest.approx(np.std(a - b, ddof=1) / np.sqrt(10))
    assert result.corrected_standard_error > result.standard_error
    assert result.verdict == "a lower"                                 # least squares is far better than the mean
    assert result.a_lower_in == int(np.sum(a < b))
    swapped = ml.paired_comparison(fit_mean, fit_lstsq, mse, x, y, folds, names=("the mean", "least squares"))
    assert swapped.verdict == "b lower"
    text = repr(swapped)
    assert text.startswith("the mean − least squares: ") and "least squares has the lower error." in text
    assert f"p = {swapped.p_value:.3f}" in text and "95% corrected interval [" in text


def test_repeated_folds_are_pooled_into_one_interval():
    x, y = regression_data(4, points=40, features=2)
    folds = sklearn_folds(RepeatedKFold(n_splits=5, n_repeats=3, random_state=0), 40)
    result = ml.paired_comparison(fit_lstsq, fit_mean, mse, x, y, folds)
    assert len(result.differences) == 15
    interval, p, _, r = corrected_interval_by_hand(result.differences, folds)
    assert r == pytest.approx(0.25)
    np.testing.assert_allclose(result.interval, interval, rtol=1e-9)
    assert result.p_value == pytest.approx(p, rel=1e-7, abs=1e-15)


def test_equal_models_are_within_the_noise_and_p_agrees_with_the_interval():
    rng = np.random.default_rng(0)
    folds = sklearn_folds(KFold(10), 100)
    seen = set()
    for _ in range(200):
        a = rng.normal(1.0, 0.1, size=10)
        b = a + rng.normal(0.0, 0.05, size=10) + rng.choice([-0.06, 0.0, 0.06])
        result = ml.compare_fold_scores(a, b, folds)
        low, high = result.interval
        assert (result.p_value < 0.05) == (low > 0 or high < 0)
        assert (result.verdict == "within the noise") == (low <= 0 <= high)
        seen.add(result.verdict)
    assert seen == {"a lower", "b lower", "within the noise"}


def test_identical_differences_give_a_degenerate_interval():
    folds = sklearn_folds(KFold(4), 8)
    same = ml.compare_fold_scores([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], folds)
    assert same.interval == (0.0, 0.0) and same.p_value == 1.0 and same.verdict == "within the noise"
    shifted = ml.compare_fold_scores([1.0, 2.0, 3.0, 4.0], [2.0, 3.0, 4.0, 5.0], folds)
    assert shifted.interval == (-1.0, -1.0) and shifted.p_value == 0.0 and shifted.verdict == "a lower"


def test_compare_fold_scores_accepts_cross_validation_results_and_copies_nothing_in_place():
    x, y = regression_data(2, points=30)
    folds = ml.k_fold(30, 5, seed=1)
    a = ml.cross_validate(fit_lstsq, mse, x, y, folds)
    b = ml.cross_validate(fit_mean, mse, x, y, folds)
    before = a.scores.copy()
    result = ml.compare_fold_scores(a, b, folds)
    np.testing.assert_array_equal(a.scores, before)
    np.testing.assert_allclose(result.differences, a.scores - b.scores)


# ---------------------------------------------------------------- McNemar


@pytest.mark.parametrize("only_a, only_b", [(34, 20), (20, 34), (0, 0), (5, 0), (0, 6), (12, 12), (90, 61), (3, 17)])
def test_mcnemar_matches_scipy_binomial(only_a, only_b):
    both_right, both_wrong = 40, 7
    y = np.array(["pos"] * (only_a + only_b + both_right + both_wrong))
    wrong = "neg"
    pred_a = np.array(["pos"] * only_a + [wrong] * only_b + ["pos"] * both_right + [wrong] * both_wrong)
    pred_b = np.array([wrong] * only_a + ["pos"] * only_b + ["pos"] * both_right + [wrong] * both_wrong)
    result = ml.mcnemar_test(y, pred_a, pred_b)
    assert (result.only_a, result.only_b, result.rows) == (only_a, only_b, len(y))
    expected = 1.0 if only_a + only_b == 0 else stats.binomtest(only_a, only_a + only_b, 0.5).pvalue
    assert result.p_value == pytest.approx(expected, rel=1e-10)
    if expected >= 0.05:
        assert result.verdict == "within the noise"
    else:
        assert result.verdict == ("a lower" if only_a > only_b else "b lower")


def test_mcnemar_sentence_and_numeric_labels():
    y = np.array([0, 1, 1, 0, 1, 0, 1, 1])
    result = ml.mcnemar_test(y, y, 1 - y, names=("TF-IDF", "counts"))
    assert result.only_a == 8 and result.only_b == 0
    assert result.p_value == pytest.approx(2 / 2 ** 8)
    assert repr(result) == ("On 8 rows, 8 are right only for TF-IDF and 0 only for counts; exact McNemar "
                            "p = 0.008: TF-IDF has the lower error rate.")


# ---------------------------------------------------------------- one test set


def test_paired_test_set_matches_scipy_paired_t():
    rng = np.random.default_rng(5)
    a = rng.exponential(1.0, size=120)
    b = a + rng.normal(0.15, 0.5, size=120)
    result = ml.paired_test_set(a, b, names=("new", "old"))
    reference = stats.ttest_rel(a, b)
    assert result.p_value == pytest.approx(reference.pvalue, rel=1e-8)
    np.testing.assert_allclose(result.interval, tuple(reference.confidence_interval(0.95)), rtol=1e-9)
    assert result.mean_difference == pytest.approx(np.mean(a - b))
    assert result.verdict == ("a lower" if result.interval[1] < 0 else
                              "b lower" if result.interval[0] > 0 else "within the noise")
    assert repr(result).startswith("new − old: ")


def test_compare_test_score_uses_the_spread_of_single_folds():
    rng = np.random.default_rng(1)
    folds = sklearn_folds(KFold(5), 100)                       # 20 validation rows each
    scores = rng.normal(10.0, 1.0, size=5)
    check = ml.compare_test_score(10.9, scores, folds, test_rows=80)
    spread = np.std(scores, ddof=1)
    single = spread * np.sqrt(20 / 80)
    half = stats.t.ppf(0.975, 4) * np.sqrt(single ** 2 + spread ** 2 / 5)
    np.testing.assert_allclose(check.interval, (scores.mean() - half, scores.mean() + half), rtol=1e-9)
    assert check.single_score_spread == pytest.approx(single)
    far = ml.compare_test_score(scores.mean() + 2 * half, scores, folds, test_rows=80)
    low = ml.compare_test_score(scores.mean() - 2 * half, scores, folds, test_rows=80)
    assert far.verdict == "higher than typical" and low.verdict == "lower than typical"
    assert ml.compare_test_score(scores.mean(), scores, folds, test_rows=80).verdict == "typical"


# ---------------------------------------------------------------- bad input


def two_folds():
    return sklearn_folds(KFold(2), 6)


@pytest.mark.parametrize("call, message", [
    (lambda: ml.compare_fold_scores([1.0, 2.0], [1.0, 2.0], [(np.arange(3), np.arange(3, 6))]),
     r"at least 2 \(train, validation\) pairs.*found 1"),
    (lambda: ml.compare_fold_scores([1.0], [1.0], two_folds()), r"scores_a must hold at least 2 scores.*found 1"),
    (lambda: ml.compare_fold_scores([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], two_folds()),
     r"one entry per fold; found 3 scores for a, 3 for b and 2 folds"),
    (lambda: ml.compare_fold_scores([1.0, 2.0], [1.0, 2.0, 3.0], two_folds()), r"found 2 scores for a, 3 for b"),
    (lambda: ml.compare_fold_scores([1.0, np.nan], [1.0, 2.0], two_folds()),
     r"scores_a holds 1 NaN or infinite score\(s\), first at position 1"),
    (lambda: ml.compare_fold_scores([[1.0, 2.0]], [1.0, 2.0], two_folds()), r"scores_a must be 1-D.*\(1, 2\)"),
    (lambda: ml.compare_fold_scores(["x", "y"], [1.0, 2.0], two_folds()), r"scores_a must be numbers"),
    (lambda: ml.compare_fold_scores([1.0, 2.0], [1.0, 2.0], two_folds(), names=("a",)), r"names must be two"),
    (lambda: ml.compare_fold_scores([1.0, 2.0], [1.0, 2.0], "folds"), r"must be a list of \(train_indices"),
    (lambda: ml.mcnemar_test([0, 1, 1], [0, 1], [0, 1, 1]), r"found shapes \(3,\), \(2,\) and \(3,\)"),
    (lambda: ml.mcnemar_test([[0, 1]], [[0, 1]], [[0, 1]]), r"y must be 1-D.*\(1, 2\)"),
    (lambda: ml.mcnemar_test([0.0, np.nan], [0.0, 1.0], [0.0, 1.0]), r"y holds 1 NaN or infinite label"),
    (lambda: ml.mcnemar_test([], [], []), r"at least one test row"),
    (lambda: ml.paired_test_set([1.0, 2.0, 3.0], [1.0, 2.0]), r"found 3 and 2"),
    (lambda: ml.paired_test_set([1.0, np.inf], [1.0, 2.0]), r"losses_a holds 1 NaN or infinite"),
    (lambda: ml.compare_test_score(np.nan, [1.0, 2.0], two_folds(), 5), r"test_score must be a finite number"),
    (lambda: ml.compare_test_score(1.0, [1.0, 2.0], two_folds(), 0), r"test_rows must be a positive integer"),
    (lambda: ml.compare_test_score(1.0, [1.0, 2.0, 3.0], two_folds(), 5), r"found 3 scores and 2 folds"),
])
def test_bad_input_is_refused_with_what_was_found(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_paired_comparison_checks_its_fits_before_any_work():
    x, y = regression_data(11, points=12)
    calls = []

    def fit(xs, ys):
        calls.append(1)
        return fit_lstsq(xs, ys)

    with pytest.raises(ValueError, match=r"fit_b must be a function; found NoneType"):
        ml.paired_comparison(fit, None, mse, x, y, ml.k_fold(12, 3))
    with pytest.raises(ValueError, match=r"at least 2 \(train, validation\) pairs"):
        ml.paired_comparison(fit, fit, mse, x, y, [(np.arange(6), np.arange(6, 12))])
    assert calls == []
