"""Tests of mlrefined_lib.figures.classification_costs (chapter 3's figures), Agg backend."""

import numpy as np
import pytest

from mlrefined_lib import class_probabilities, cross_entropy, misclassifications
from mlrefined_lib.figures import classification_costs as figures


@pytest.fixture
def one_feature():
    rng = np.random.default_rng(4)
    x = rng.uniform(0, 2.5, size=(30, 1))
    y = (x[:, 0] + 0.4 * rng.normal(size=30) > 1.3).astype(float)
    jitter = rng.uniform(-0.03, 0.03, size=30)
    return x, y, jitter


def test_probability_curve(one_feature):
    x, y, jitter = one_feature
    w = np.array([-6.0, 4.0])
    fig = figures.probability_curve(x, y, w, jitter=jitter, x_range=(0.0, 2.5),
                                    class_names=("no", "yes"), xlabel="size (cm)", title="Yes or no")
    (ax,) = fig.axes
    assert ax.get_title() == "Yes or no"
    assert ax.get_xlabel() == "size (cm)" and ax.get_ylabel() == "label / probability"
    assert ax.get_xlim() == (0.0, 2.5)
    class0, class1 = ax.collections
    np.testing.assert_array_equal(class0.get_offsets(), np.column_stack([x[y == 0, 0], jitter[y == 0]]))
    np.testing.assert_array_equal(class1.get_offsets(), np.column_stack([x[y == 1, 0], 1 + jitter[y == 1]]))
    curve, boundary, half = ax.lines
    np.testing.assert_allclose(curve.get_ydata(), class_probabilities(curve.get_xydata()[:, :1], w))
    assert curve.get_xdata()[0] == 0.0 and curve.get_xdata()[-1] == 2.5
    np.testing.assert_allclose(boundary.get_xdata(), [1.5, 1.5])
    np.testing.assert_allclose(half.get_ydata(), [0.5, 0.5])
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["no (label 0)", "yes (label 1)", "P(yes | size)", "boundary 1.50 cm"]


def test_weight_scale_frame(one_feature):
    x, y, jitter = one_feature
    separable_y = (x[:, 0] < 1.2).astype(float)
    u_sep = np.array([1.2, -1.0]) / np.hypot(1.2, 1.0)
    u_over = np.array([-1.3, 1.0]) / np.hypot(1.3, 1.0)
    scales = np.geomspace(0.3, 100, 50)
    fig = figures.weight_scale_frame(
        5.0,
        (x, separable_y, u_sep, "length (cm)", "short", (0.0, 2.5)),
        (x, y, u_over, "width (cm)", "wide", (0.0, 2.5)),
        scales=scales, jitter=jitter, minimizer_norm=7.0,
    )
    left, middle, right = fig.axes
    for ax, labels, u, xlabel, kind, name in [
        (left, separable_y, u_sep, "length (cm)", "separable", "short"),
        (middle, y, u_over, "width (cm)", "overlapping", "wide"),
    ]:
        w = 5.0 * u
        cost, errors = cross_entropy(x, labels)(w), misclassifications(x, labels)(w)
        assert ax.get_title() == f"{kind}: cost {cost:.2e}, misclassified {errors}"
        assert ax.get_xlabel() == xlabel and ax.get_xlim() == (0.0, 2.5) and ax.get_ylim() == (-0.1, 1.35)
        class0, class1 = ax.collections
        np.testing.assert_array_equal(class1.get_offsets(),
                                      np.column_stack([x[labels == 1, 0], 1 + jitter[labels == 1]]))
        assert len(class0.get_offsets()) == int(np.sum(labels == 0))
        (curve,) = ax.lines
        np.testing.assert_allclose(curve.get_ydata(), class_probabilities(curve.get_xydata()[:, :1], w))
        assert [t.get_text() for t in ax.get_legend().get_texts()] == [f"not {name}", name, "probability"]
    assert left.get_ylabel() == "label / probability"
    assert right.get_title() == "||w|| = 5"
    assert right.get_xlabel() == "||w|| (log scale)" and right.get_ylabel() == "cost (log scale)"
    assert right.get_xscale() == "log" and right.get_yscale() == "log" and right.get_ylim() == (3e-12, 30)
    sep_curve, sep_dot, over_curve, over_dot, minimizer = right.lines
    np.testing.assert_array_equal(sep_curve.get_xdata(), scales)
    np.testing.assert_allclose(sep_curve.get_ydata(), cross_entropy(x, separable_y).batch(scales[:, None] * u_sep))
    np.testing.assert_allclose(over_curve.get_ydata(), cross_entropy(x, y).batch(scales[:, None] * u_over))
    np.testing.assert_allclose(sep_dot.get_ydata(), [cross_entropy(x, separable_y)(5.0 * u_sep)])
    np.testing.assert_allclose(over_dot.get_ydata(), [cross_entropy(x, y)(5.0 * u_over)])
    np.testing.assert_allclose(minimizer.get_xdata(), [7.0, 7.0])
    labels = [t.get_text() for t in right.get_legend().get_texts()]
    assert labels == ["separable (short)", "overlapping (wide)", "||w*||, overlapping"]
