"""The category-codes widget of chapter 6 (a line over the categories' codes against one-hot) in
Chromium: the page's fits equal least squares by np.linalg.lstsq to 1e-9 before and after the
reader moves the codes (slider, keys, pointer, touch); the readout says what the picture shows; no
text under 9 CSS px on a 390 px phone, the plots stacked there; no script error. Needs
`python tools/vendor_assets.py` (the book build runs it)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_live_widget import (DESKTOP, DESKTOP_STYLE, PHONE, PHONE_STYLE, SMALLEST_TEXT_JS, TOL, clicked, finish,
                              open_page, redrawn, serve, write_page)  # serve: the fixture

from mlrefined_lib import live

LEVELS = ["O", "A", "B", "AB"]


@pytest.fixture(scope="module")
def blood():
    rng = np.random.default_rng(13)
    types = rng.choice(LEVELS, size=150)
    means = {"O": 2.0, "A": 5.0, "B": 1.0, "AB": 4.0}
    y = np.array([means[t] for t in types]) + rng.normal(scale=0.5, size=150)
    return types, y


def assert_fits(page, blood, what, index=0):
    """The page's line over the codes and its one-hot fit are least squares (np.linalg.lstsq on the
    design written here from the categories) for the codes it shows, to 1e-9; returns the codes."""
    types, y = blood
    d = page.evaluate(f"""() => {{ const d = document.querySelectorAll('.mlr-live')[{index}].dataset;
        return [d.codes, d.line, d.linePredictions, d.lineMse, d.oneHot, d.oneHotMse]; }}""")
    codes, w, predictions, one_hot = (np.array(json.loads(d[i])) for i in (0, 1, 2, 4))
    line_mse, one_hot_mse = float(d[3]), float(d[5])
    rows = np.array([LEVELS.index(t) for t in types])
    design = np.column_stack([np.ones(len(y)), codes[rows]])
    want_w = np.linalg.lstsq(design, y, rcond=None)[0]
    want_mse = np.mean((design @ want_w - y) ** 2)
    one_hot_design = np.column_stack([np.ones(len(y)), np.eye(4)[rows]])
    v = np.linalg.lstsq(one_hot_design, y, rcond=None)[0]
    for name, got, want in (("line weights", w, want_w), ("line predictions", predictions, want_w[0] + want_w[1] * codes),
                            ("line MSE", line_mse, want_mse), ("one-hot predictions", one_hot, v[0] + v[1:]),
                            ("one-hot MSE", one_hot_mse, np.mean((one_hot_design @ v - y) ** 2))):
        error = np.max(np.abs(np.asarray(got) - want)) / max(1.0, np.max(np.abs(want)))
        assert error <= TOL, f"{what}: the page's {name} differ from lstsq's by {error:.3g}"
    return codes.tolist()


def readout(page) -> str:
    return page.locator(".mlr-live [id^=mlr-desc]").first.inner_text()


def test_category_codes_equal_least_squares_and_follow_slider_keys_and_pointer(browser, serve, tmp_path, blood):
    types, y = blood
    means = np.array([y[types == t].mean() for t in LEVELS])
    cases = [(0, 1, 2, 3), (3, 0.5, 2, 1), (2, 2, 2, 2)]
    write_page([live.category_codes(types, y, levels=LEVELS, codes=c, code_range=(0, 6)) for c in cases], tmp_path,
               style=DESKTOP_STYLE)
    page, errors = open_page(browser, serve, len(cases), "data-one-hot")
    for index, case in enumerate(cases):
        assert assert_fits(page, blood, f"codes {case}", index) == list(case)
    flat = page.locator(".mlr-live [id^=mlr-desc]").nth(2).inner_text()
    assert "same code" in flat and "flat at the mean of y" in flat, flat
    text = readout(page)
    assert "order the categories O < A < B < AB" in text and "means rise B < O < AB < A" in text, text
    # the first widget's slider of B, moved as a drag does
    first = page.locator(".mlr-live").first
    slider = first.get_by_label("code of B", exact=True)
    assert all(first.get_by_label(f"code of {t}", exact=True).count() == 1 for t in LEVELS)
    redrawn(page, "codes", lambda: slider.fill("0.5"))
    assert assert_fits(page, blood, "after the slider") == [0, 1, 0.5, 3]
    assert "O 0, A 1, B 0.5, AB 3" in readout(page)
    # keys: one step up, then End
    slider.focus()
    redrawn(page, "codes", lambda: page.keyboard.press("ArrowRight"))
    assert assert_fits(page, blood, "after a key") == pytest.approx([0, 1, 0.55, 3])
    # pointer: a click near the left end of A's slider
    clicked(page, "codes", first.get_by_label("code of A", exact=True), 0, dx=3)
    got = assert_fits(page, blood, "after a click")
    assert got[1] <= 0.2, got
    # codes equal to the rounded means (each on the slider's 0.05 grid): the line nearly meets one-hot
    for t, m in zip(LEVELS, means):
        redrawn(page, "codes", lambda t=t, m=m: first.get_by_label(f"code of {t}", exact=True).fill(f"{round(m * 20) / 20:.2f}"))
    assert_fits(page, blood, "codes at the means")
    line_mse, one_hot_mse = (float(page.eval_on_selector(".mlr-live", f"e => e.dataset.{k}")) for k in ("lineMse", "oneHotMse"))
    assert one_hot_mse < line_mse < 1.01 * one_hot_mse, (line_mse, one_hot_mse)
    assert "above one-hot's" in readout(page)
    assert page.locator(".mlr-live canvas").count() == 0, "the plots are SVG vectors"
    finish(page, errors, timings="category codes")


def test_category_codes_on_a_phone_and_in_the_desktop_column(browser, serve, tmp_path, blood):
    """390 px, 2x pixels, touch: a tap moves a code and the page stays exact; no text under 9 CSS px,
    the two plots one under the other and no sideways scroll. At 680 px: side by side, text 9 px or more."""
    write_page([live.category_codes(*blood, levels=LEVELS)], tmp_path, style=PHONE_STYLE)
    for device in (PHONE, DESKTOP):
        context = browser.new_context(**device)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        if device is DESKTOP:
            page.add_init_script(f"document.addEventListener('DOMContentLoaded', () => "
                                 f"{{ document.querySelector('style').textContent = {json.dumps(DESKTOP_STYLE)}; }});")
        page.goto(serve + "/index.html", wait_until="load")
        page.wait_for_function("() => document.querySelector('.mlr-live[data-one-hot]') !== null", timeout=20_000)
        sizes = page.evaluate(SMALLEST_TEXT_JS)
        small = [(text, round(px, 2)) for text, px in sizes if px < 9]
        assert len(sizes) > 10 and not small, f"text under 9 CSS px: {small[:8]}"
        plots = page.eval_on_selector_all(".mlr-live svg[role=img]", "ss => ss.map((s) => s.getBoundingClientRect().toJSON())")
        assert len(plots) == 2
        if device is PHONE:
            assert plots[1]["top"] >= plots[0]["bottom"] - 1, f"the plots are not stacked on a phone: {plots}"
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            slider = page.get_by_label("code of AB", exact=True)
            slider.scroll_into_view_if_needed()
            box = slider.bounding_box()
            redrawn(page, "codes", lambda: page.touchscreen.tap(box["x"] + box["width"] * 0.25, box["y"] + box["height"] / 2))
            codes = assert_fits(page, blood, "after a tap")
            assert codes[:3] == [0, 1, 2] and 0.5 <= codes[3] <= 1.0, codes
        else:
            assert abs(plots[1]["top"] - plots[0]["top"]) < 1, f"the plots are not side by side at 680 px: {plots}"
        assert not errors, errors
        context.close()


def test_readers_without_javascript_get_the_picture_with_alt_text(blood):
    import base64
    import io

    from PIL import Image

    widget = live.category_codes(*blood, levels=LEVELS, codes=(1, 3, 0, 2))
    bundle, metadata = widget._repr_mimebundle_()
    image = Image.open(io.BytesIO(base64.b64decode(bundle["image/png"])))
    assert image.width >= 600 and metadata["image/png"]["alt"] == widget.description()
