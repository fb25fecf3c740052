"""Tests of mlrefined_lib.figures.pipeline (chapter 12, Agg backend)."""

import numpy as np

from mlrefined_lib.figures import pipeline as figures


def test_month_encodings_draws_fits_and_circle():
    months = np.arange(1, 13)
    means = 15 - 8 * np.cos(2 * np.pi * (months - 0.5) / 12)
    line = np.linspace(14.0, 18.0, 12)
    wave = means + 0.5
    fig = figures.month_encodings(months, means, line, wave, unit="°C")
    left, right = fig.axes
    assert left.get_xlabel() == "month (integer)"
    assert left.get_ylabel() == "daily maximum (°C)"
    assert "integer" in left.get_title()
    assert "Dec meets Jan" in right.get_title()
    dots, integer_fit, cyclic_fit = left.get_lines()
    for drawn, data in [(dots, means), (integer_fit, line),
                        (cyclic_fit, wave)]:
        np.testing.assert_array_equal(drawn.get_xdata(), months)
        np.testing.assert_allclose(drawn.get_ydata(), data)
    labels = [t.get_text() for t in left.get_legend().get_texts()]
    assert labels == ["monthly mean", "fit on the integer month",
                      "fit on (sin, cos) of the month"]
    # the gap from December to January is shown below the lowest value
    assert any("11 apart" in t.get_text() for t in left.texts)
    assert left.get_ylim()[0] < min(means.min(), line.min(), wave.min())
    circle, points = right.get_lines()
    angle = 2 * np.pi * months / 12
    np.testing.assert_allclose(points.get_xdata(), np.cos(angle))
    np.testing.assert_allclose(points.get_ydata(), np.sin(angle))
    np.testing.assert_allclose(np.hypot(circle.get_xdata(),
                                        circle.get_ydata()), 1.0)
    assert right.get_xlim() == right.get_ylim() == (-1.35, 1.35)
    assert [t.get_text() for t in right.texts] == list(figures.MONTHS)
    assert all(t.get_fontsize() >= 9 for ax in fig.axes for t in ax.texts)


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
