"""Tests of chapter 3's additions: sigmoid, class_probabilities and decision_regions."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.collections import PathCollection
from scipy.special import expit
from sklearn.linear_model import LogisticRegression

import mlrefined_lib as ml
from mlrefined_lib import plotting


@pytest.fixture
def rng():
    return np.random.default_rng(3)


def test_sigmoid_matches_scipy_expit_and_keeps_shape(rng):
    t = rng.normal(scale=10, size=(4, 5))
    saved = t.copy()
    values = ml.sigmoid(t)
    assert values.shape == t.shape
    np.testing.assert_allclose(values, expit(t), rtol=1e-12, atol=1e-300)
    np.testing.assert_array_equal(t, saved)


def test_sigmoid_scalar_symmetry_and_extremes():
    assert isinstance(ml.sigmoid(0.0), float)
    assert ml.sigmoid(0.0) == 0.5
    t = np.linspace(-30, 30, 61)
    np.testing.assert_allclose(ml.sigmoid(-t), 1 - ml.sigmoid(t), atol=1e-15)
    with np.errstate(over="raise", invalid="raise", divide="raise"):  # no overflow warning
        extremes = ml.sigmoid(np.array([-1000.0, 1000.0, -np.inf, np.inf]))
    np.testing.assert_array_equal(extremes, [0.0, 1.0, 0.0, 1.0])


def test_sigmoid_refuses_nan_and_text():
    with pytest.raises(ValueError, match="NaN"):
        ml.sigmoid(np.array([0.0, np.nan]))
    with pytest.raises(ValueError, match="expects numbers"):
        ml.sigmoid("large")


def test_sigmoid_is_the_derivative_of_the_cross_entropy_bias(rng):
    # d/dw0 of mean(log(1+e^m) - y m) = mean(sigmoid(m) - y)
    x, y = rng.normal(size=(30, 2)), rng.integers(0, 2, 30).astype(float)
    w = rng.normal(size=3)
    expected = np.mean(ml.sigmoid(ml.model(x, w)) - y)
    assert ml.cross_entropy(x, y).gradient(w)[0] == pytest.approx(expected, rel=1e-12)


def test_class_probabilities_binary_matches_sklearn(rng):
    x = rng.normal(size=(80, 2))
    y = (x[:, 0] + 0.5 * x[:, 1] + rng.normal(size=80) > 0).astype(int)
    fitted = LogisticRegression(C=1.0).fit(x, y)
    w = np.concatenate([fitted.intercept_, fitted.coef_[0]])
    np.testing.assert_allclose(ml.class_probabilities(x, w), fitted.predict_proba(x)[:, 1], rtol=1e-10)


def test_class_probabilities_multiclass_matches_sklearn_and_sums_to_one(rng):
    x = rng.normal(size=(90, 2))
    y = np.argmax(x @ rng.normal(size=(2, 3)) + rng.normal(size=(90, 3)), axis=1)
    fitted = LogisticRegression(C=1.0).fit(x, y)
    w = np.vstack([fitted.intercept_, fitted.coef_.T])  # shape (N+1, K)
    probabilities = ml.class_probabilities(x, w)
    np.testing.assert_allclose(probabilities, fitted.predict_proba(x), rtol=1e-10)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0)


def test_class_probabilities_huge_scores_stay_finite():
    x = np.array([[1.0], [-1.0]])
    probabilities = ml.class_probabilities(x, np.array([[0.0, 0.0], [1e4, -1e4]]))
    np.testing.assert_allclose(probabilities, [[1.0, 0.0], [0.0, 1.0]])


def test_class_probabilities_bad_input(rng):
    x = rng.normal(size=(5, 2))
    with pytest.raises(ValueError, match=r"must have shape \(3,\)"):
        ml.class_probabilities(x, np.zeros(2))
    with pytest.raises(ValueError, match=r"\(N\+1,\) or \(N\+1, K\)"):
        ml.class_probabilities(x, np.zeros((3, 2, 2)))
    with pytest.raises(ValueError, match="NaN"):
        ml.class_probabilities(x, np.array([0.0, np.nan, 1.0]))
    with pytest.raises(ValueError, match="2-D"):
        ml.class_probabilities(np.zeros(5), np.zeros(2))


def _three_blobs(rng):
    centres = np.array([[0.0, 0.0], [4.0, 0.0], [2.0, 4.0]])
    y = np.repeat(np.arange(3), 20)
    return centres[y] + rng.normal(scale=0.5, size=(60, 2)), y


def test_decision_regions_draws_each_class_with_its_own_marker(rng):
    x, y = _three_blobs(rng)
    centres = np.array([[0.0, 0.0], [4.0, 0.0], [2.0, 4.0]])

    def nearest(points):
        return np.argmin(((points[:, None, :] - centres) ** 2).sum(axis=2), axis=1)

    ax = plotting.decision_regions(nearest, x, y, x_range=(-2, 6), y_range=(-2, 6), num=50,
                                   class_names=["a", "b", "c"], title="three")
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == ["a", "b", "c"]
    assert ax.get_xlim() == (-2, 6) and ax.get_ylim() == (-2, 6)
    points = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert [len(c.get_offsets()) for c in points] == [20, 20, 20]
    markers = {tuple(c.get_paths()[0].vertices.round(3).ravel()) for c in points}
    assert len(markers) == 3  # one marker shape per class
    plt.close("all")


def test_decision_regions_single_region_and_binary(rng):
    x, y = _three_blobs(rng)
    y2 = (y == 2).astype(int)
    ax = plotting.decision_regions(lambda p: np.zeros(len(p), dtype=int), x, y2, x_range=(-2, 6),
                                   y_range=(-2, 6), num=20)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["class 0", "class 1"]
    plt.close("all")


def test_decision_regions_axis_labels_name_features_not_points(rng):
    # x_1 and x_2 are points 1 and 2 in the book's notation (feature n of point p
    # is x_{p,n}), so the default axis labels must not read "$x_1$", "$x_2$".
    x, y = _three_blobs(rng)
    ax = plotting.decision_regions(lambda p: np.zeros(len(p), dtype=int), x, y, x_range=(-2, 6),
                                   y_range=(-2, 6), num=20)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("feature 1", "feature 2")
    ax = plotting.decision_regions(lambda p: np.zeros(len(p), dtype=int), x, y, x_range=(-2, 6),
                                   y_range=(-2, 6), num=20, feature_names=("length", "width"))
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("length", "width")
    plt.close("all")


def test_decision_regions_does_not_move_the_data(rng):
    x, y = _three_blobs(rng)
    saved = x.copy()
    plotting.decision_regions(lambda p: (p[:, 1] > 2).astype(int), x, (y == 2).astype(int), x_range=(-2, 6),
                              y_range=(-2, 6), num=20, jitter=0.1)
    np.testing.assert_array_equal(x, saved)
    plt.close("all")


def test_decision_regions_bad_input(rng):
    x, y = _three_blobs(rng)
    ok = dict(x_range=(-2, 6), y_range=(-2, 6), num=20)
    with pytest.raises(ValueError, match=r"shape \(P, 2\)"):
        plotting.decision_regions(lambda p: np.zeros(len(p)), np.column_stack([x, x]), y, **ok)
    with pytest.raises(ValueError, match="integer labels"):
        plotting.decision_regions(lambda p: np.zeros(len(p)), x, y + 0.5, **ok)
    with pytest.raises(ValueError, match="one label per point"):
        plotting.decision_regions(lambda p: np.zeros((len(p), 2)), x, y, **ok)
    with pytest.raises(ValueError, match="integer labels 0"):
        plotting.decision_regions(lambda p: np.full(len(p), 7), x, y, **ok)
    with pytest.raises(ValueError, match="class name"):
        plotting.decision_regions(lambda p: np.zeros(len(p)), x, y, class_names=["a"], **ok)
    plt.close("all")
