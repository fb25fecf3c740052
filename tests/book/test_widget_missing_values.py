"""Chapter 8's missing-values widget in a static page, in Chromium.

The page draws which rows go missing and fills them itself; every check here
compares what it shows with a Python reference: the rows of
:func:`mlrefined_lib.live.missing_rows` (the same seeded generator), the
library's imputers (mean_imputer, iterative_imputer, knn_imputer) on those rows,
and NumPy's mean, standard deviation and correlation, to 1e-9, before and after
the reader moves the slider, the choices and the draw (keys, pointer, touch).
Helpers come from test_live_widget.py (the page as the book embeds widgets).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_live_widget import (MIN_TEXT_PX, PHONE, PHONE_STYLE, WIDGET_TEXT_JS, clicked, finish, open_page,
                              phone_page, redrawn, serve, write_page)

from mlrefined_lib import live
from mlrefined_lib.imputation import iterative_imputer, knn_imputer, mean_imputer

__all__ = ["serve"]  # the fixture, used by name
TOL = 1e-9


@pytest.fixture(scope="module")
def gappy_table():
    """Integer 'weights' (many equal distances, so k-NN's ties are tested too) and a feature that grows with them."""
    rng = np.random.default_rng(12)
    other = rng.integers(16, 52, size=160).astype(float) * 100
    feature = np.round(0.032 * other + rng.normal(scale=14, size=160), 1)
    return feature, other


def widget_for(table, **kw):
    return live.missing_values(*table, feature_name="horsepower", other_name="weight", **kw)


def reference(table, percent, mechanism, imputer, seed):
    """The rows Python hides, the library's fill of them, and [mean, sd, correlation] after and before."""
    feature, other = table
    hidden = live.missing_rows(feature, other, mechanism, percent, seed)
    gappy = np.column_stack([feature, other])
    gappy[hidden, 0] = np.nan
    fill = {"mean": lambda t: mean_imputer(t)(t), "median": lambda t: mean_imputer(t, "median")(t),
            "regression": lambda t: iterative_imputer(t, 1)(t), "knn": lambda t: knn_imputer(t, 5)(t)}[imputer]
    filled = fill(gappy)[:, 0]

    def stats(v):
        return np.array([v.mean(), v.std(), np.corrcoef(v, other)[0, 1]])

    return hidden, filled[hidden], stats(filled), stats(feature)


def assert_missing_values(page, table, what, index=0):
    """The page's missing rows, filled values and statistics equal the reference; returns its state."""
    d = page.evaluate(f"""() => {{ const d = document.querySelectorAll('.mlr-live')[{index}].dataset;
        return [d.percent, d.mechanism, d.imputer, d.seed, d.hidden, d.filled, d.stats, d.truth]; }}""")
    state = (int(d[0]), d[1], d[2], int(d[3]))
    hidden, filled, stats, truth = reference(table, *state)
    assert json.loads(d[4]) == hidden.tolist(), f"{what}: the page hides other rows than missing_rows{state}"
    for name, got, want in (("filled values", json.loads(d[5]), filled), ("mean, sd, correlation", json.loads(d[6]), stats),
                            ("true mean, sd, correlation", json.loads(d[7]), truth)):
        got = np.array(got)
        assert got.shape == want.shape, f"{what}: {name} of shape {got.shape}, Python's {want.shape}"
        error = np.abs(got - want).max() / max(1.0, np.abs(want).max())
        assert error <= TOL, f"{what}: the page's {name} differ from the library's by {error:.3g}"
    return state


CASES = [(30, "MCAR", "mean", 0), (55, "MAR", "median", 2), (20, "MNAR", "regression", 1), (80, "MNAR", "knn", 0),
         (5, "MAR", "knn", 4)]


def test_missing_values_equal_the_library(browser, serve, tmp_path, gappy_table):
    write_page([widget_for(gappy_table, percent=p, mechanism=m, imputer=i, seed=s) for p, m, i, s in CASES], tmp_path)
    page, errors = open_page(browser, serve, len(CASES), "data-stats")
    for index, case in enumerate(CASES):
        assert assert_missing_values(page, gappy_table, f"case {case}", index) == case
    assert page.locator(".mlr-live canvas").count() == 0, "the plot is an SVG vector"
    finish(page, errors)


def test_slider_choices_draw_keys_and_pointer(browser, serve, tmp_path, gappy_table):
    write_page([widget_for(gappy_table, percent=30, mechanism="MCAR", imputer="mean", seed=0)], tmp_path)
    page, errors = open_page(browser, serve, 1, "data-stats")
    slider = page.get_by_label("share of horsepower missing")
    redrawn(page, "percent", lambda: slider.fill("60"))
    assert assert_missing_values(page, gappy_table, "after the slider") == (60, "MCAR", "mean", 0)
    redrawn(page, "mechanism", lambda: page.get_by_label("MNAR", exact=True).check())
    redrawn(page, "imputer", lambda: page.get_by_label("line on weight").click())
    assert assert_missing_values(page, gappy_table, "after two clicks") == (60, "MNAR", "regression", 0)
    page.get_by_label("line on weight").focus()
    redrawn(page, "imputer", lambda: page.keyboard.press("ArrowRight"))  # the next choice of the group
    assert assert_missing_values(page, gappy_table, "after an arrow key") == (60, "MNAR", "knn", 0)
    button = page.get_by_role("button", name="new draw: choose the missing rows again from the next seed")
    button.focus()
    redrawn(page, "seed", lambda: page.keyboard.press("Enter"))
    assert assert_missing_values(page, gappy_table, "after a new draw") == (60, "MNAR", "knn", 1)
    slider.focus()
    redrawn(page, "percent", lambda: page.keyboard.press("ArrowLeft"))
    redrawn(page, "percent", lambda: page.keyboard.press("Home"))
    assert assert_missing_values(page, gappy_table, "after Home") == (5, "MNAR", "knn", 1)
    clicked(page, "percent", slider, 1, dx=-4)
    assert assert_missing_values(page, gappy_table, "after a click") == (80, "MNAR", "knn", 1)
    text = page.locator(".mlr-live [id^=mlr-desc]").inner_text()
    _, _, stats, truth = reference(gappy_table, 80, "MNAR", "knn", 1)
    assert text.startswith("80% of the horsepower missing (128 of 160 rows, MNAR, draw 1)"), text
    assert f"{float(f'{stats[1]:.4g}'):g}" in text and f"{float(f'{truth[2]:.4g}'):g}" in text, text
    cells = page.locator(".mlr-live td").all_inner_texts()
    assert [float(c) for c in cells] == pytest.approx(list(truth) + list(stats), rel=5e-4), cells
    finish(page, errors, timings="missing values")


def test_on_a_phone_taps_move_it_and_no_text_is_under_9_px(browser, serve, tmp_path, gappy_table):
    write_page([widget_for(gappy_table, percent=30, mechanism="MAR", imputer="mean", seed=0)], tmp_path,
               style=PHONE_STYLE)
    page, errors = phone_page(browser, serve, 1, PHONE)
    found = page.evaluate(WIDGET_TEXT_JS)[0]
    small = [t for t in found["texts"] if t["size"] < MIN_TEXT_PX - 0.05]
    assert len(found["texts"]) > 10 and not small, f"text under {MIN_TEXT_PX} CSS px on a phone: {small[:6]}"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page scrolls sideways"
    plot = page.locator(".mlr-live svg[role=img]").bounding_box()
    table = page.locator(".mlr-live table").bounding_box()
    assert plot["width"] > 0.9 * found["width"] and table["y"] >= plot["y"] + plot["height"] - 1, "not stacked"
    slider = page.locator(".mlr-live input[type=range]").first
    box = slider.bounding_box()
    redrawn(page, "percent", lambda: page.touchscreen.tap(box["x"] + box["width"] * 0.5, box["y"] + box["height"] / 2))
    percent, *_ = assert_missing_values(page, gappy_table, "after a tap on the slider")
    assert 38 <= percent <= 47, percent
    redrawn(page, "imputer", lambda: page.get_by_label("5-NN", exact=True).tap())
    assert assert_missing_values(page, gappy_table, "after a tap on a choice")[2] == "knn"
    assert not errors, errors
    page.context.close()
