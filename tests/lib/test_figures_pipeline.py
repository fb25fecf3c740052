"""Tests of mlrefined_lib.figures.pipeline (chapter 12, Agg backend)."""

import numpy as np
import pandas as pd

from mlrefined_lib.figures import pipeline as figures


def test_hourly_cycles_draws_both_means():
    by_hour = pd.Series(np.linspace(40.0, 60.0, 24), index=range(24))
    by_day = pd.Series([51.8, 52.0, 51.9, 52.1, 51.9, 52.0, 51.8],
                       index=range(7))
    fig = figures.hourly_cycles(by_hour, by_day)
    left, right = fig.axes
    assert left.get_xlabel() == "hour of the day"
    assert left.get_ylabel() == "mean temperature (°F)"
    assert right.get_xlabel() == "day of the week"
    assert left.get_title() == "By hour: a daily cycle"
    assert right.get_title() == "By weekday: nothing"
    assert fig._suptitle.get_text() == "Seattle, hourly temperatures of 2010"
    (hours,), (days,) = left.get_lines(), right.get_lines()
    np.testing.assert_array_equal(hours.get_xdata(), np.arange(24))
    np.testing.assert_array_equal(hours.get_ydata(), by_hour.to_numpy())
    np.testing.assert_array_equal(days.get_ydata(), by_day.to_numpy())
    assert [t.get_text() for t in right.get_xticklabels()] == list(
        figures.WEEKDAYS)
    # shared y axis: the weekday means are read on the hourly scale
    assert left.get_ylim() == right.get_ylim()


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


def test_f1_per_class_draws_one_bar_group_per_way():
    classes = ["drizzle", "fog", "sun"]
    f1 = {"none": [0.0, 0.6, 0.8], "SMOTE": [0.2, 0.65, 0.55]}
    fig = figures.f1_per_class(f1, classes, np.array([11, 82, 143]))
    (ax,) = fig.axes
    assert ax.get_ylabel() == "F1 on the validation split"
    assert ax.get_ylim() == (0, 1.15)
    assert ax.get_title().startswith("Seattle weather: F1 per class")
    assert len(ax.containers) == 2
    for container, (name, values) in zip(ax.containers, f1.items()):
        heights = [bar.get_height() for bar in container]
        np.testing.assert_allclose(heights, values)
        assert container.get_label() == name
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "drizzle\n(11 days)", "fog\n(82 days)", "sun\n(143 days)"]
    # the groups are centred on the class positions
    centres = np.mean([[bar.get_x() + bar.get_width() / 2 for bar in c]
                       for c in ax.containers], axis=0)
    np.testing.assert_allclose(centres, np.arange(3))


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
