"""Tests of mlrefined_lib.figures.imbalance_thresholds (chapter 13, Agg backend)."""

import numpy as np

from mlrefined_lib.figures import imbalance_thresholds as figures


def test_smote_points_draws_others_synthetic_and_originals():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20, 2))
    y = np.array([0] * 5 + [1] * 3 + [2] * 12)
    new_x = rng.normal(size=(16, 2))
    new_y = np.array([0] * 7 + [1] * 9)
    fig = figures.smote_points(x, y, new_x, new_y, {"snow": 1, "drizzle": 0})
    assert len(fig.axes) == 2
    assert fig.axes[0].get_ylabel() == "precipitation (standardized)"
    assert fig._suptitle.get_text().startswith("Synthetic points")
    for ax, (name, label) in zip(fig.axes, [("snow", 1), ("drizzle", 0)]):
        assert ax.get_title() == name
        assert ax.get_xlabel() == "maximum temperature (standardized)"
        others, synthetic, originals = ax.collections
        np.testing.assert_array_equal(others.get_offsets(), x[y != label])
        np.testing.assert_array_equal(synthetic.get_offsets(),
                                      new_x[new_y == label])
        np.testing.assert_array_equal(originals.get_offsets(), x[y == label])
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert labels == [
            "other training days",
            f"SMOTE points ({np.sum(new_y == label)})",
            f"{name} days ({np.sum(y == label)})",
        ]
    assert fig.axes[0].get_xlim() == fig.axes[1].get_xlim()


def test_reliability_diagram_draws_each_series_in_each_panel():
    import pytest

    import mlrefined_lib as ml

    rng = np.random.default_rng(1)
    p = rng.random(400)
    y = (rng.random(400) < p).astype(int)
    calibrated = ml.reliability_table(y, p, 10)
    too_high = ml.reliability_table(y, np.sqrt(p), 10)
    fig = figures.reliability_diagram(
        {"As fitted": {"none": calibrated, "resampled": too_high},
         "Corrected": {"resampled": calibrated}}, "drizzle")
    first, second = fig.axes
    assert [first.get_title(), second.get_title()] == ["As fitted", "Corrected"]
    assert first.get_xlabel() == "predicted Pr(drizzle)"
    assert first.get_ylabel() == "observed share of drizzle"
    diagonal, none, resampled = first.get_lines()
    np.testing.assert_array_equal(diagonal.get_xdata(), [0, 1])
    used = too_high.counts > 0
    np.testing.assert_allclose(resampled.get_xdata(), too_high.predicted[used])
    np.testing.assert_allclose(resampled.get_ydata(), too_high.observed[used])
    np.testing.assert_allclose(none.get_ydata(), calibrated.observed[calibrated.counts > 0])
    # the same series keeps its colour and marker from panel to panel
    again = second.get_lines()[1]
    assert (again.get_color(), again.get_marker()) == (resampled.get_color(), resampled.get_marker())
    assert none.get_marker() != resampled.get_marker()
    labels = [t.get_text() for t in first.get_legend().get_texts()]
    assert labels[2] == f"resampled (ECE {too_high.calibration_error:.3f})"
    assert first.get_xlim() == first.get_ylim() == (0, 1)
    with pytest.raises(ValueError, match="at least one series"):
        figures.reliability_diagram({"empty": {}}, "drizzle")
