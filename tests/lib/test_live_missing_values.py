"""The missing-values widget of chapter 8: the rows it hides, how it fills them, what it ships
and its still picture, in Python. The page's side is tested in Chromium by
tests/book/test_widget_missing_values.py."""

from __future__ import annotations

import base64
import importlib
import io

import numpy as np
import pytest
from PIL import Image
from scipy.special import expit
from sklearn.impute import KNNImputer

import mlrefined_lib as ml
from mlrefined_lib import live, widgets
from mlrefined_lib.imputation import knn_imputer

mv = importlib.import_module("mlrefined_lib.live.missing_values")  # the module, not the function of its name


def reference_mulberry32(seed: int, count: int) -> list[int]:
    """mulberry32 written again with NumPy's wrapping uint32 arithmetic (not the library's code)."""
    out, a = [], np.uint32(seed)
    with np.errstate(over="ignore"):
        for _ in range(count):
            a = np.uint32(a + np.uint32(0x6D2B79F5))
            t = a
            t = np.uint32((t ^ (t >> np.uint32(15))) * (t | np.uint32(1)))
            t = np.uint32(t ^ np.uint32(t + np.uint32((t ^ (t >> np.uint32(7))) * (t | np.uint32(61)))))
            out.append(int(t ^ (t >> np.uint32(14))))
    return out


def reference_order(weights, seed):
    """Successive draws written with NumPy: the running sums by np.cumsum, the row by searchsorted."""
    weights = np.asarray(weights, dtype=float)
    left = np.arange(len(weights))
    order = []
    for r in reference_mulberry32(seed, len(weights) - 1):
        sums = np.cumsum(weights[left])
        i = min(int(np.searchsorted(sums, r / 2**32 * sums[-1], side="right")), len(left) - 1)
        order.append(int(left[i]))
        left = np.delete(left, i)
    return order + [int(left[0])]


@pytest.fixture(scope="module")
def table():
    """Integer 'weights' (many ties in the distances) and a feature that grows with them."""
    rng = np.random.default_rng(4)
    other = rng.integers(15, 50, size=120).astype(float) * 100
    feature = np.round(0.035 * other + rng.normal(scale=12, size=120), 1)
    return feature, other


@pytest.mark.parametrize("seed", [0, 1, 977, 2**32 - 1])
def test_the_order_follows_an_independent_successive_draw(table, seed):
    feature, other = table
    for mechanism in mv.MECHANISMS:
        weights = mv.missingness_weights(feature, other, mechanism)
        order = live.missing_order(weights, seed)
        assert sorted(order) == list(range(len(feature)))
        assert order.tolist() == reference_order(weights, seed), mechanism


def test_the_weights_are_make_missings():
    """The logistic of strength times the standardized driver (scipy's expit, written here)."""
    rng = np.random.default_rng(1)
    feature, other = rng.gamma(3.0, size=50), rng.normal(size=50)
    assert np.array_equal(mv.missingness_weights(feature, other, "MCAR"), np.ones(50))
    for mechanism, driver in (("MAR", other), ("MNAR", feature)):
        z = (driver - driver.mean()) / driver.std()
        assert np.allclose(mv.missingness_weights(feature, other, mechanism, 1.5), expit(1.5 * z), rtol=1e-13)
    assert np.array_equal(mv.missingness_weights(feature, other, "MNAR", 0.0), np.full(50, 0.5))


def test_rows_go_missing_as_often_as_with_make_missing():
    """The widget's generator differs from make_missing's, the law does not: over 4000 seeds each,
    every row of 8 is hidden (3 of 8, MNAR) about as often by both (binomial sd below 0.008)."""
    feature = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
    other = np.zeros(8) + np.arange(8)[::-1]
    ours, theirs = np.zeros(8), np.zeros(8)
    for seed in range(4000):
        ours[live.missing_rows(feature, other, "MNAR", 38, seed)] += 1  # 38% of 8 is 3 rows
        gappy = ml.make_missing(np.column_stack([feature, other]), 0, 3 / 8, "MNAR", seed=seed)
        theirs[np.isnan(gappy[:, 0])] += 1
    assert ours.sum() == theirs.sum() == 3 * 4000
    assert np.abs(ours - theirs).max() / 4000 < 0.04, (ours, theirs)
    assert ours[-1] > 1.8 * ours[0], "under MNAR the largest values should go missing far more often"


def test_counts_round_half_up_in_integers():
    assert [mv.missing_count(p, 10) for p in (4, 5, 14, 15, 25, 35)] == [0, 1, 1, 2, 3, 4]
    assert mv.missing_count(30, 392) == 118


def test_a_larger_share_hides_the_rows_of_a_smaller_one(table):
    feature, other = table
    widget = widgets.missing_values(feature, other, mechanism="MAR", seed=3)
    small, large = set(widget.hidden(10)), set(widget.hidden(50))
    assert len(small) == 12 and len(large) == 60 and small < large
    assert set(widget.hidden(10, "MAR", 4)) != small


def test_filled_values_agree_with_independent_imputers(table):
    """Mean and median of the observed rows, np.polyfit's line, scikit-learn's KNNImputer on the
    table divided by the standard deviations; the observed rows are untouched."""
    feature, other = table
    widget = widgets.missing_values(feature, other, percent=40, mechanism="MNAR", k=4)
    hidden = widget.hidden()
    seen = np.setdiff1d(np.arange(len(feature)), hidden)
    slope, bias = np.polyfit(other[seen], feature[seen], 1)
    gappy = np.column_stack([feature, other])
    gappy[hidden, 0] = np.nan
    expected = {"mean": np.full(len(hidden), feature[seen].mean()),
                "median": np.full(len(hidden), np.median(feature[seen])),
                "regression": bias + slope * other[hidden]}
    for imputer, want in expected.items():
        filled = widget.filled(imputer=imputer)
        assert np.array_equal(filled[seen], feature[seen])
        assert np.allclose(filled[hidden], want, rtol=1e-10), imputer
    # KNNImputer breaks ties in distance its own way: on these integer weights it may take another
    # of several equally near cars, so it is compared on a continuous table below.
    assert np.allclose(widget.filled(imputer="knn")[seen], feature[seen])
    # Mean imputation keeps the observed mean and shrinks the spread.
    s = mv.summary(widget.filled(imputer="mean"), other)
    assert np.isclose(s[0], feature[seen].mean()) and s[1] < feature.std()


def test_knn_fills_agree_with_scikit_learn_on_a_table_without_ties():
    rng = np.random.default_rng(9)
    other = rng.normal(size=80)
    feature = 3 * other + rng.normal(size=80)
    widget = widgets.missing_values(feature, other, percent=35, mechanism="MAR", imputer="knn", k=4)
    hidden = widget.hidden()
    gappy = np.column_stack([feature, other])
    gappy[hidden, 0] = np.nan
    scales = np.nanstd(gappy, axis=0)
    knn = KNNImputer(n_neighbors=4).fit_transform(gappy / scales)[:, 0] * scales[0]
    assert np.allclose(widget.filled(), knn, rtol=1e-10)
    assert not np.allclose(widget.filled()[hidden], widget.filled(imputer="regression")[hidden], rtol=1e-3)


def test_the_page_gets_knn_imputers_scale(table):
    feature, other = table
    widget = widgets.missing_values(feature, other)
    for hidden in (np.arange(5), np.arange(60, 100)):
        gappy = np.column_stack([feature, other])
        gappy[hidden, 0] = np.nan
        assert widget.config["other_scale"] == knn_imputer(gappy, 5).scales[1]


def test_the_state_handed_to_the_page(table):
    feature, other = table
    widget = widgets.missing_values(feature[:, None], other, percent=25, mechanism="MAR", imputer="knn", seed=7,
                                    feature_name="horsepower", other_name="weight")
    cfg = widget.config
    assert cfg["feature"] == feature.tolist() and cfg["other"] == other.tolist()
    assert set(cfg["weights"]) == {"MCAR", "MAR", "MNAR"}
    assert cfg["weights"]["MAR"] == mv.missingness_weights(feature, other, "MAR").tolist()
    assert cfg["percent_range"] == [5, 80] and cfg["k"] == 5 and cfg["strength"] == 2.0
    assert (widget.percent, widget.mechanism, widget.imputer, widget.seed) == (25, "MAR", "knn", 7)
    assert cfg["xlim"][0] < other.min() and cfg["ylim"][1] > feature.max()
    assert widget._anywidget_id == "mlrefined_lib.live.MissingValues"


def test_the_output_carries_a_png_with_alt_text(table):
    feature, other = table
    before = feature.copy()
    widget = widgets.missing_values(feature, other, percent=30, mechanism="MNAR", imputer="mean",
                                    feature_name="horsepower", other_name="weight")
    assert np.array_equal(feature, before)
    bundle, metadata = widget._repr_mimebundle_()
    png = base64.b64decode(bundle["image/png"])
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width >= 600 and len(png) < 80_000
    alt = metadata["image/png"]["alt"]
    truth, after = mv.summary(feature, other), mv.summary(widget.filled(), other)
    assert alt == bundle["text/plain"] == widget.description()
    assert "30% of the horsepower missing (36 of 120 rows, MNAR" in alt
    assert f"{after[0]:.4g} against the true {truth[0]:.4g}" in alt and f"{after[2]:.3f}" in alt


@pytest.mark.parametrize("kwargs, message", [
    (dict(mechanism="NMAR"), "unknown mechanism 'NMAR'"),
    (dict(imputer="mode"), "unknown imputer 'mode'"),
    (dict(percent=90), "percent"),
    (dict(percent=4), "percent"),
    (dict(percent_range=(0, 50)), "percent_range"),
    (dict(percent_range=(50, 40)), "low < high"),
    (dict(percent_range=(5, 99)), "leaves 1 observed"),
    (dict(seed=-1), "seed"),
    (dict(k=0), "k"),
    (dict(strength=-1.0), "strength"),
    (dict(xlim=(3, 1)), "xlim"),
])
def test_bad_settings_raise_value_error(table, kwargs, message):
    with pytest.raises(ValueError, match=message):
        widgets.missing_values(*table, **kwargs)


def test_bad_data_raise_value_error(table):
    feature, other = table
    with pytest.raises(ValueError, match="same number of rows; found 119 and 120"):
        widgets.missing_values(feature[:-1], other)
    with pytest.raises(ValueError, match="complete and finite"):
        widgets.missing_values(np.where(feature > 150, np.nan, feature), other)
    with pytest.raises(ValueError, match="shape"):
        widgets.missing_values(np.column_stack([feature, other]), other)
    with pytest.raises(ValueError, match="other is constant"):
        widgets.missing_values(feature, np.ones(120))
    with pytest.raises(ValueError, match="starts at 1% of 40 rows, which hides no row"):
        widgets.missing_values(feature[:40], other[:40], percent_range=(1, 50))
    with pytest.raises(ValueError, match="positive finite"):
        live.missing_order([1.0, 0.0, 2.0], 0)
