"""Tests of mlrefined_lib.figures.validation (chapter 5, Agg backend)."""

import numpy as np
import pytest
from search_results import grid_search_result

from mlrefined_lib.figures import validation as figures


def texts(ax):
    return [t.get_text() for t in ax.texts]


def test_field_map_default_lists_every_chapter_once():
    fig = figures.field_map()
    (ax,) = fig.axes
    assert ax.get_xlim() == (0, 3) and ax.get_ylim() == (0, 1)
    assert not ax.axison
    assert ax.get_title().startswith("where feature engineering sits")
    drawn = texts(ax)
    for title, lines in figures.FIELD_MAP.items():
        assert title in drawn
        assert all(line in drawn for line in lines)
    assert all(line in drawn for line in figures.FIELD_BASE)
    numbers = [int(t.split()[0].split("-")[0]) for t in drawn
               if t[:1].isdigit()]
    assert sorted(numbers) == [1, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    # three column boxes and the band underneath
    assert len(ax.patches) == 4
    assert all(t.get_fontsize() >= 9 for t in ax.texts)


def test_field_map_draws_the_given_columns():
    columns = {"a": ["one", "two"], "b": ["three"]}
    fig = figures.field_map(columns, ["base"])
    (ax,) = fig.axes
    assert ax.get_xlim() == (0, 2)
    assert texts(ax) == ["a", "one", "two", "b", "three", "base"]
    assert len(ax.patches) == 3


def test_one_standard_error_curve_draws_means_rule_and_choice():
    search = grid_search_result([30.0, 19.0, 18.8], [3.0, 2.0, 2.1], 2, 1, params=[1, 2, 3])
    fig = figures.one_standard_error_curve([1, 2, 3], search, "degree",
                                           "MSE", "title")
    (ax,) = fig.axes
    assert (ax.get_xlabel(), ax.get_ylabel(), ax.get_title()) == (
        "degree", "MSE", "title")
    means_line = ax.containers[0].lines[0]
    np.testing.assert_array_equal(means_line.get_xdata(), [1, 2, 3])
    np.testing.assert_array_equal(means_line.get_ydata(), [30.0, 19.0, 18.8])
    (rule,) = [line for line in ax.lines
               if line.get_label() == "best mean + its standard error"]
    assert rule.get_ydata()[0] == pytest.approx(20.9)
    (star,) = [line for line in ax.lines
               if line.get_label() == "one-standard-error choice"]
    assert list(star.get_xdata()) == [2] and list(star.get_ydata()) == [19.0]
