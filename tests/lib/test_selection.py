"""Unit tests of mlrefined_lib.selection.boost (chapter 10) and its plots.

The reference is a brute-force stage-wise search written independently of
the code under test: every one-weight problem is minimized numerically
(scipy's bounded scalar minimizer) on the library's tested cost functions,
evaluated at the assembled weight vector.
"""

import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from mlrefined_lib import plotting
from mlrefined_lib.costs import least_squares, softmax
from mlrefined_lib.selection import BOOST_COSTS, BoostResult, boost

COSTS = {"least_squares": least_squares, "softmax": softmax}


# ---------------------------------------------------------------- data and reference


def regression_data(seed, points=40, features=5, offsets=False):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(points, features))
    if offsets:
        x = x * rng.uniform(0.5, 3.0, size=features) + rng.uniform(-5.0, 5.0, size=features)
    y = 0.7 + x @ rng.normal(size=features) + 0.5 * rng.normal(size=points)
    return x, y


def classification_data(seed, points=60, features=4):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(points, features))
    scores = 0.3 + x @ rng.normal(size=features) + 1.5 * rng.normal(size=points)
    return x, np.where(scores > 0, 1.0, -1.0)


def brute_force_boost(x, y, rounds, cost):
    """Stage-wise search by numerical 1-D minimization of the full cost."""
    g = COSTS[cost](x, y)
    num_features = x.shape[1]

    def minimize(vary):
        found = minimize_scalar(vary, bounds=(-50.0, 50.0), method="bounded", options={"xatol": 1e-11})
        return found.x, found.fun

    def with_entry(w, index, value):
        w = w.copy()
        w[index] = value
        return w

    w = np.zeros(num_features + 1)
    bias, value = minimize(lambda b: g(with_entry(w, 0, b)))
    w[0] = bias
    order, costs = [], [value]
    for _ in range(rounds):
        trials = {}
        for n in range(num_features):
            if n in order:
                continue
            trials[n] = minimize(lambda v, n=n: g(with_entry(w, n + 1, v)))
        best = min(trials, key=lambda n: trials[n][1])
        order.append(best)
        w[best + 1] = trials[best][0]
        costs.append(trials[best][1])
    return order, np.array(costs), np.concatenate([[w[0]], w[1 + np.array(order, dtype=int)]])


# ---------------------------------------------------------------- against the brute force


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_least_squares_matches_brute_force(seed):
    x, y = regression_data(seed, offsets=seed == 3)
    result = boost(x, y, 4)
    order, costs, weights = brute_force_boost(x, y, 4, "least_squares")
    assert result.order.tolist() == order
    np.testing.assert_allclose(result.costs, costs, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(result.weights, weights, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_softmax_matches_brute_force(seed):
    x, y = classification_data(seed)
    result = boost(x, y, 3, cost="softmax")
    order, costs, weights = brute_force_boost(x, y, 3, "softmax")
    assert result.order.tolist() == order
    np.testing.assert_allclose(result.costs, costs, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(result.weights, weights, rtol=1e-5, atol=1e-6)


def test_softmax_weights_are_stationary_points():
    # Each chosen weight solves its one-weight problem: the derivative is 0 there.
    x, y = classification_data(7, points=80, features=5)
    result = boost(x, y, 5, cost="softmax")
    g = softmax(x, y)
    for m in range(1, 6):
        gradient = g.gradient(result.full_weights(m))
        assert abs(gradient[1 + result.order[m - 1]]) < 1e-10
    assert abs(g.gradient(result.full_weights(0))[0]) < 1e-12   # the bias too


# ---------------------------------------------------------------- the residual view (least squares)


def test_each_round_picks_the_feature_that_best_explains_the_residual():
    # With the bias fitted in round 0 and then frozen, round m minimizes
    # (1/P)||r - v c||^2 over v for the residual r = y - model_{m-1}. The best v
    # is c^T r / c^T c and the cost falls by (c^T r)^2 / (P c^T c), with c NOT
    # centred. Features with large offsets make this differ from correlation.
    x, y = regression_data(11, points=50, features=6, offsets=True)
    result = boost(x, y, 6)
    P = len(y)
    for m in range(1, 7):
        residual = y - result.model(x, m - 1)
        unused = [n for n in range(6) if n not in result.order[: m - 1]]
        scores = {n: (x[:, n] @ residual) ** 2 / (x[:, n] @ x[:, n]) for n in unused}
        chosen = result.order[m - 1]
        assert chosen == max(scores, key=scores.get)
        c = x[:, chosen]
        assert result.weights[m] == pytest.approx(c @ residual / (c @ c), rel=1e-10)
        assert result.costs[m] == pytest.approx(result.costs[m - 1] - scores[chosen] / P, rel=1e-10)


def test_residual_criterion_is_not_correlation_for_uncentred_features():
    # The data of the previous test are chosen so that picking by correlation
    # with the residual (as if every column were centred) would differ.
    x, y = regression_data(11, points=50, features=6, offsets=True)
    result = boost(x, y, 6)
    by_correlation = []
    residual = y - y.mean()
    for _ in range(6):
        unused = [n for n in range(6) if n not in by_correlation]
        corr = {n: abs(np.corrcoef(x[:, n], residual)[0, 1]) for n in unused}
        best = max(corr, key=corr.get)
        c = x[:, best]
        residual = residual - (c @ residual) / (c @ c) * c
        by_correlation.append(best)
    assert by_correlation != result.order.tolist()


def test_standardized_inputs_pick_the_largest_correlation_and_keep_residual_centred():
    x, y = regression_data(12, points=60, features=5, offsets=True)
    z = (x - x.mean(axis=0)) / x.std(axis=0)
    result = boost(z, y, 5)
    for m in range(1, 6):
        residual = y - result.model(z, m - 1)
        assert abs(residual.mean()) < 1e-12
        unused = [n for n in range(5) if n not in result.order[: m - 1]]
        corr = {n: abs(np.corrcoef(z[:, n], residual)[0, 1]) for n in unused}
        assert result.order[m - 1] == max(corr, key=corr.get)


def test_orthogonal_centred_features_reach_the_least_squares_solution():
    # With centred, mutually orthogonal columns, one pass over all features is
    # exact least squares.
    rng = np.random.default_rng(13)
    raw = rng.normal(size=(30, 4))
    # Q of the centred columns: orthonormal, and centred (it spans centred columns).
    x, _ = np.linalg.qr(raw - raw.mean(axis=0))
    ones = np.ones(30)
    y = 2.0 + x @ np.array([3.0, -1.0, 0.5, 2.0]) + 0.1 * rng.normal(size=30)
    result = boost(x, y, 4)
    x_ext = np.column_stack([ones, x])
    best, *_ = np.linalg.lstsq(x_ext, y, rcond=None)
    np.testing.assert_allclose(result.full_weights(), best, atol=1e-10)


def test_costs_never_increase():
    for seed in range(5):
        x, y = regression_data(20 + seed, features=7)
        assert np.all(np.diff(boost(x, y, 7).costs) <= 1e-15)
        x, y = classification_data(30 + seed, features=6)
        assert np.all(np.diff(boost(x, y, 6, cost="softmax").costs) <= 1e-15)


# ---------------------------------------------------------------- inputs untouched, labels as given


@pytest.mark.parametrize("cost", BOOST_COSTS)
def test_inputs_are_not_modified(cost):
    x, y = (regression_data(40) if cost == "least_squares" else classification_data(41))
    saved_x, saved_y = x.copy(), y.copy()
    boost(x, y, 3, cost=cost)
    np.testing.assert_array_equal(x, saved_x)
    np.testing.assert_array_equal(y, saved_y)


def test_softmax_rejects_zero_one_labels():
    x, y = classification_data(42)
    with pytest.raises(ValueError, match=r"2\*y - 1"):
        boost(x, (y + 1) / 2, 2, cost="softmax")


def test_softmax_rejects_a_single_class():
    x, _ = classification_data(43)
    with pytest.raises(ValueError, match="both labels"):
        boost(x, np.ones(len(x)), 1, cost="softmax")


def test_softmax_costs_equal_the_library_cost_of_the_assembled_weights():
    x, y = classification_data(44, points=90, features=6)
    result = boost(x, y, 6, cost="softmax")
    g = softmax(x, y)
    for m in range(7):
        assert result.costs[m] == pytest.approx(g(result.full_weights(m)), rel=1e-12)
    # the bias alone is log(P+/P-): labels used as given, not rescaled
    positives = np.count_nonzero(y > 0)
    assert result.weights[0] == pytest.approx(np.log(positives / (len(y) - positives)), rel=1e-12)


def test_least_squares_costs_equal_the_library_cost():
    x, y = regression_data(45, features=6)
    result = boost(x, y, 6)
    g = least_squares(x, y)
    for m in range(7):
        assert result.costs[m] == pytest.approx(g(result.full_weights(m)), rel=1e-12)
    assert result.weights[0] == pytest.approx(y.mean())


def test_separable_feature_warns():
    x = np.array([[-2.0], [-1.0], [1.0], [2.0], [3.0]])
    y = np.array([-1.0, -1.0, 1.0, 1.0, 1.0])
    with pytest.warns(RuntimeWarning, match="separable"):
        result = boost(x, y, 1, cost="softmax")
    assert result.weights[1] > 5 and result.costs[1] < 1e-3


# ---------------------------------------------------------------- the result object


def test_result_helpers():
    x, y = regression_data(50, features=4)
    result = boost(x, y, 3)
    assert isinstance(result, BoostResult) and result.rounds == 3
    assert result.order.dtype.kind == "i" and result.costs.shape == (4,) and result.weights.shape == (4,)
    w = result.full_weights()
    assert w.shape == (5,) and w[1 + [n for n in range(4) if n not in result.order][0]] == 0.0
    np.testing.assert_allclose(result.model(x), w[0] + x @ w[1:])
    np.testing.assert_allclose(result.model(x, 0), np.full(len(y), y.mean()))
    np.testing.assert_allclose(result.predict(x), result.model(x))
    with pytest.raises(ValueError, match="from 0 to 3"):
        result.full_weights(4)
    with pytest.raises(ValueError, match="4 feature"):
        result.model(x[:, :3])
    xc, yc = classification_data(51)
    labels = boost(xc, yc, 2, cost="softmax").predict(xc)
    assert set(np.unique(labels)) <= {-1.0, 1.0}


def test_zero_rounds_is_the_bias_alone():
    x, y = regression_data(52)
    result = boost(x, y, 0)
    assert result.order.size == 0
    np.testing.assert_allclose(result.costs, [np.mean((y - y.mean()) ** 2)])


def test_all_zero_column_is_harmless():
    x, y = regression_data(53, features=3)
    x[:, 1] = 0.0
    result = boost(x, y, 3)
    assert result.order[-1] == 1 and result.weights[-1] == 0.0
    xc, yc = classification_data(54, features=3)
    xc[:, 0] = 0.0
    result = boost(xc, yc, 3, cost="softmax")
    assert result.order[-1] == 0 and result.weights[-1] == 0.0


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"rounds": 6}, "at most 5"),
        ({"rounds": -1}, "rounds must be a non-negative integer; found rounds = -1"),
        ({"rounds": 2.5}, "rounds must be a non-negative integer; found 2.5 of type float"),
        ({"rounds": True}, "rounds must be a non-negative integer; found True of type bool"),
        ({"rounds": 2, "cost": "lasso"}, "'least_squares', 'softmax'"),
    ],
)
def test_bad_arguments(kwargs, message):
    x, y = regression_data(60)
    with pytest.raises(ValueError, match=message):
        boost(x, y, **kwargs)


def test_bad_shapes_and_values():
    x, y = regression_data(61)
    with pytest.raises(ValueError, match=r"\(P, N\)"):
        boost(x[:, 0], y, 1)
    with pytest.raises(ValueError, match="disagree"):
        boost(x, y[:-1], 1)
    bad = x.copy()
    bad[3, 2] = np.nan
    with pytest.raises(ValueError, match="column 2"):
        boost(bad, y, 1)
    bad_y = y.copy()
    bad_y[0] = np.inf
    with pytest.raises(ValueError, match="index 0"):
        boost(x, bad_y, 1)


def test_errors_come_before_any_work(monkeypatch):
    import mlrefined_lib.selection as selection

    def fail(*args, **kwargs):
        raise AssertionError("work started before the input was checked")

    monkeypatch.setattr(selection, "_newton_one_weight", fail)
    x, y = classification_data(62)
    with pytest.raises(ValueError):
        boost(x, (y + 1) / 2, 2, cost="softmax")
    with pytest.raises(ValueError):
        boost(x, y, 9, cost="softmax")


# ---------------------------------------------------------------- plots


def test_boosting_costs_plot_labels_points_with_feature_names():
    x, y = regression_data(70, features=4)
    result = boost(x, y, 3)
    names = ["alpha", "beta", "gamma", "delta"]
    ax = plotting.boosting_costs(result, names, title="t", label="training")
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["bias only"] + [f"+ {names[n]}" for n in result.order]
    line = ax.get_lines()[0]
    np.testing.assert_allclose(line.get_ydata(), result.costs)
    assert ax.get_xlabel() and "least-squares" in ax.get_ylabel() and ax.get_title() == "t"
    assert ax.get_legend() is not None
    with pytest.raises(ValueError, match="4 feature"):
        plotting.boosting_costs(result, names[:3])


def test_weight_bars_mark_signs_by_hatch_and_text():
    ax = plotting.weight_bars([1.5, -0.5, 0.25], ["a", "b", "c"], title="w")
    bars = ax.patches
    assert len(bars) == 3
    assert [bool(b.get_hatch()) for b in bars] == [False, True, False]
    assert [t.get_text() for t in ax.texts] == ["+1.50", "-0.50", "+0.25"]
    ticks = dict(zip(ax.get_yticks(), [t.get_text() for t in ax.get_yticklabels()]))
    assert [ticks[k] for k in sorted(ticks, reverse=True)] == ["a", "b", "c"]   # first name on top
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["positive (+)", "negative (−)"]
    with pytest.raises(ValueError, match="K weights"):
        plotting.weight_bars([1.0], ["a", "b"])


def test_boosting_weights_in_order_chosen():
    x, y = regression_data(71, features=4)
    result = boost(x, y, 3)
    ax = plotting.boosting_weights(result, ["a", "b", "c", "d"])
    widths = [b.get_width() for b in ax.patches]
    np.testing.assert_allclose(widths, result.weights[1:])
    labels = {t.get_text() for t in ax.get_yticklabels()}
    assert labels == {f"{m}. {'abcd'[n]}" for m, n in enumerate(result.order, start=1)}
    with pytest.raises(ValueError, match="rounds = 0"):
        plotting.boosting_weights(boost(x, y, 0))
    plt.close("all")


# ---------------------------------------------------------------- tuned_fit: nested cross-validation in one fit


def _shrunk_mean_for(shrink):
    # A one-parameter model with a hand-checkable fit: predict (1 - shrink) * mean(y).
    def fit(x, y):
        return (1.0 - shrink) * float(np.mean(y))

    return fit


def _squared_error(model, x, y):
    return float(np.mean((model - y) ** 2))


def _choice_by_hand(x, y, params, k, seed, rule):
    """The inner search written out with loops: scores per fold, means, standard errors, rule."""
    from mlrefined_lib.cross_validation import k_fold as folds_of

    folds = folds_of(len(y), k, seed=seed)
    means, ses = [], []
    for shrink in params:
        scores = []
        for train, valid in folds:
            prediction = (1.0 - shrink) * y[train].mean()
            scores.append(np.mean((prediction - y[valid]) ** 2))
        scores = np.array(scores)
        means.append(scores.mean())
        ses.append(scores.std(ddof=1) / np.sqrt(len(scores)))
    best = int(np.argmin(means))
    if rule == "best":
        return params[best]
    return next(p for p, m in zip(params, means) if m <= means[best] + ses[best])


@pytest.mark.parametrize("rule", ["one_standard_error", "best"])
@pytest.mark.parametrize("seed", [0, 3])
def test_tuned_fit_chooses_as_a_search_written_by_hand(rule, seed):
    from mlrefined_lib import tuned_fit

    rng = np.random.default_rng(seed)
    y = 2.0 + rng.normal(size=37)
    x = rng.normal(size=(37, 2))
    params = [0.9, 0.6, 0.3, 0.1, 0.0]   # simplest (most shrunk) first
    fit = tuned_fit(_shrunk_mean_for, _squared_error, params, k=4, seed=seed, rule=rule)
    model = fit(x, y)
    expected = _choice_by_hand(x, y, params, 4, seed, rule)
    assert fit.chosen == [expected]
    assert model == pytest.approx((1.0 - expected) * y.mean(), abs=1e-12)


def test_tuned_fit_rules_can_differ():
    from mlrefined_lib import tuned_fit

    # a mean far from zero: no shrinking is best, and the strongly shrunk models are far worse
    rng = np.random.default_rng(1)
    y = 5.0 + rng.normal(size=60)
    x = np.zeros((60, 1))
    params = [0.5, 0.02, 0.0]
    best = tuned_fit(_shrunk_mean_for, _squared_error, params, rule="best")
    cautious = tuned_fit(_shrunk_mean_for, _squared_error, params)
    best(x, y), cautious(x, y)
    assert best.chosen == [_choice_by_hand(x, y, params, 5, 0, "best")]
    assert cautious.chosen == [_choice_by_hand(x, y, params, 5, 0, "one_standard_error")]
    assert cautious.chosen[0] != 0.5   # 0.5 shrinks a mean of 5 to 2.5: never within one standard error


def test_tuned_fit_in_an_outer_comparison_tunes_on_training_rows_only():
    import mlrefined_lib as ml

    rng = np.random.default_rng(2)
    y = rng.normal(size=50)
    x = np.arange(50, dtype=float)[:, None]     # the row number, to see which rows a fit gets
    seen = []

    def spying_for(shrink):
        def fit(xs, ys):
            seen.append(set(xs[:, 0].astype(int)))
            return (1.0 - shrink) * float(np.mean(ys))

        return fit

    outer = ml.k_fold(50, 5, seed=4)
    fit = ml.tuned_fit(spying_for, _squared_error, [0.5, 0.0], k=3)
    ml.cross_validate(fit, _squared_error, x, y, outer)
    assert len(fit.chosen) == 5
    # every fit of the outer fold i (inner fits and the refit) sees only rows of its training part
    per_outer = len(seen) // 5
    for i, (train, valid) in enumerate(outer):
        for rows in seen[i * per_outer:(i + 1) * per_outer]:
            assert rows <= set(train.tolist()) and not rows & set(valid.tolist())


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"error": "mse"}, "error must be a function"),
        ({"params": []}, "at least one parameter value"),
        ({"params": 3}, "params must be a sequence"),
        ({"k": 1}, "k"),
        ({"k": True}, "k"),
        ({"k": 2.5}, "k"),
        ({"rule": "lowest"}, "unknown rule 'lowest'"),
        ({"seed": -1}, "seed"),
    ],
)
def test_tuned_fit_refuses_bad_arguments_before_any_fitting(kwargs, message):
    from mlrefined_lib import tuned_fit

    fitted = []

    def counting_for(shrink):
        def fit(x, y):
            fitted.append(shrink)
            return 0.0

        return fit

    arguments = {"fit_for": counting_for, "error": _squared_error, "params": [0.5, 0.0]}
    arguments.update({key: value for key, value in kwargs.items() if key in arguments})
    options = {key: value for key, value in kwargs.items() if key not in arguments}
    with pytest.raises(ValueError, match=message):
        tuned_fit(arguments["fit_for"], arguments["error"], arguments["params"], **options)
    assert fitted == []


def test_tuned_fit_says_when_there_are_too_few_rows():
    from mlrefined_lib import tuned_fit

    fit = tuned_fit(_shrunk_mean_for, _squared_error, [0.5, 0.0], k=5)
    with pytest.raises(ValueError):
        fit(np.zeros((3, 1)), np.ones(3))
