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
