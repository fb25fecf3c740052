"""Chapter 6's edge-histogram widget (patch and block size) in a static page, in Chromium.

The page computes the gradients, the patch histograms and the block-normalized
feature vector from the pixels Python handed it; these tests check that they equal
:func:`mlrefined_lib.histograms.local_edge_histograms` (and the patch totals of
:func:`mlrefined_lib.histograms.edge_maps`) to 1e-9 before and after the reader moves
the controls with keys, pointer and touch, that the text stays at 9 CSS px or more
on a phone and the canvases are drawn at its pixel density. Pages are written and
served as in tests/book/test_live_widget.py (they need `python tools/vendor_assets.py`).
"""

from __future__ import annotations

import numpy as np
import pytest
from test_live_widget import (  # noqa: F401  (serve is a fixture)
    CANVAS_TEXT_JS,
    DESKTOP,
    DESKTOP_STYLE,
    MIN_TEXT_PX,
    PHONE,
    PHONE_STYLE,
    TOL,
    WIDGET_TEXT_JS,
    clicked,
    finish,
    open_page,
    redrawn,
    serve,
    write_page,
)

from mlrefined_lib import live
from mlrefined_lib.datasets import load_handwritten_digits
from mlrefined_lib.histograms import edge_maps, local_edge_histograms


@pytest.fixture(scope="module")
def pictures():
    digits, labels = load_handwritten_digits()
    two = digits[np.flatnonzero(labels == 2)[3]].reshape(28, 28) / 255.0
    six = digits[np.flatnonzero(labels == 6)[0]].reshape(28, 28) / 255.0
    rows, cols = np.mgrid[0:28, 0:28]
    wedge = np.where((rows > 4) & (cols < 23) & (rows - 4 > 1.7 * (cols - 6)), 0.2, 1.0)  # dark on white
    return [("a handwritten 2", two), ("a handwritten 6", six), ("a wedge", wedge)]


SHOWN_JS = """(index) => { const r = document.querySelectorAll('.mlr-live')[index], e = r.__liveEdges;
  return {image: e.image, patch: e.patch, block: e.block, rows: e.rows, cols: e.cols, length: Number(r.dataset.length),
          histograms: Array.from(e.histograms), features: Array.from(e.features)}; }"""


def assert_exact(page, pictures, what, index=0) -> tuple[int, int, int]:
    """The page's patch histograms and features equal the library's for what it shows; returns
    (image, patch, block)."""
    shown = page.evaluate(SHOWN_JS, index)
    image, patch, block = shown["image"], shown["patch"], shown["block"]
    pixels = pictures[image][1]
    expected = local_edge_histograms(pixels, patch=patch, block=block)
    features = np.array(shown["features"])
    assert features.shape == expected.shape == (shown["length"],), f"{what}: {features.shape} vs {expected.shape}"
    assert np.abs(features - expected).max() <= TOL, \
        f"{what}: the page's features differ from local_edge_histograms by {np.abs(features - expected).max():.3g}"
    r, c = 28 // patch, 28 // patch
    totals = edge_maps(pixels)[:, : r * patch, : c * patch].reshape(8, r, patch, c, patch).sum(axis=(2, 4))
    histograms = np.array(shown["histograms"]).reshape(shown["rows"], shown["cols"], 8)
    assert np.abs(histograms - totals.transpose(1, 2, 0)).max() <= TOL * max(1.0, totals.max()), \
        f"{what}: the page's patch histograms differ from the edge maps' patch totals"
    return image, patch, block


def test_the_page_computes_local_edge_histograms(browser, serve, tmp_path, pictures):
    cases = [(0, 7, 2), (1, 4, 3), (2, 5, 2), (0, 28, 1), (1, 2, 1), (2, 9, 3), (0, 20, 1)]
    write_page([live.edge_histograms(pictures, image=i, patch=p, block=b) for i, p, b in cases], tmp_path)
    page, errors = open_page(browser, serve, len(cases), "data-length")
    for index, case in enumerate(cases):
        assert assert_exact(page, pictures, f"image {case[0]}, patch {case[1]}, block {case[2]}", index) == case
    descriptions = page.eval_on_selector_all(".mlr-live [id^=mlr-desc]", "ps => ps.map((p) => p.textContent)")
    assert "a feature vector of 288 numbers (the image has 784 pixels)" in descriptions[0], descriptions[0]
    assert "One patch holds the whole image" in descriptions[3], descriptions[3]
    assert "One patch, the top left 20 × 20 pixels" in descriptions[6], descriptions[6]
    assert "(159 pixels at the right and bottom are in no patch and not used)" in descriptions[2], descriptions[2]
    finish(page, errors)


def test_sliders_chooser_keys_and_pointer_keep_it_exact(browser, serve, tmp_path, pictures):
    write_page([live.edge_histograms(pictures, patch=7, block=2)], tmp_path)
    page, errors = open_page(browser, serve, 1, "data-length")
    patch = page.get_by_label("patch size (pixels)")
    block = page.get_by_label("block size (patches)")
    chooser = page.get_by_label("image", exact=True)
    assert patch.count() == block.count() == chooser.count() == 1
    redrawn(page, "patch", lambda: patch.fill("4"))
    assert assert_exact(page, pictures, "after the patch slider") == (0, 4, 2)
    redrawn(page, "block", lambda: block.fill("3"))
    assert assert_exact(page, pictures, "after the block slider") == (0, 4, 3)
    redrawn(page, "image", lambda: chooser.select_option(label="a wedge"))
    assert assert_exact(page, pictures, "after choosing an image") == (2, 4, 3)
    patch.focus()
    redrawn(page, "patch", lambda: page.keyboard.press("ArrowRight"))
    assert assert_exact(page, pictures, "after a key") == (2, 5, 3)
    redrawn(page, "patch", lambda: page.keyboard.press("End"))  # a 28-pixel patch leaves room for one block of 1
    assert assert_exact(page, pictures, "after End") == (2, 28, 1)
    assert block.input_value() == "1"
    assert "One patch holds the whole image" in page.locator(".mlr-live [id^=mlr-desc]").inner_text()
    redrawn(page, "block", lambda: block.fill("2"))  # a block of 2 patches takes them down to 14 pixels
    assert assert_exact(page, pictures, "block 2 after End") == (2, 14, 2)
    chooser.focus()
    redrawn(page, "image", lambda: page.keyboard.press("ArrowUp"))
    assert assert_exact(page, pictures, "after a key on the chooser") == (1, 14, 2)
    clicked(page, "patch", patch, 0, dx=4)
    assert assert_exact(page, pictures, "after a click") == (1, 2, 2)
    text = page.locator(".mlr-live [id^=mlr-desc]").inner_text()
    assert "14 × 14 patches of 2 × 2 pixels" in text and "a feature vector of 5408 numbers" in text, text
    finish(page, errors, timings="edge histograms")


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_on_a_phone_and_a_desktop(browser, serve, tmp_path, pictures, device):
    """390 px wide with 2x pixels and touch (or the book's desktop column): no text under 9 CSS px,
    canvases at the pixel density and as wide as the column on a phone, no sideways scroll, and a
    tap (or a click) moves the slider with the page still exact."""
    write_page([live.edge_histograms(pictures, patch=7, block=2)], tmp_path,
               style=PHONE_STYLE if device == "phone" else DESKTOP_STYLE)
    context = browser.new_context(**(PHONE if device == "phone" else DESKTOP))
    context.add_init_script(CANVAS_TEXT_JS)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(serve + "/index.html", wait_until="load")
    page.wait_for_function("() => document.querySelector('.mlr-live[data-length]') !== null", timeout=20_000)
    page.wait_for_timeout(300)  # a relayout at the widget's own width, if any
    found = page.evaluate(WIDGET_TEXT_JS)[0]
    small = [t for t in found["texts"] if t["size"] < MIN_TEXT_PX - 0.05]
    assert len(found["texts"]) > 5 and not small, f"text under {MIN_TEXT_PX} CSS px on the {device}: {small[:6]}"
    density = 2 if device == "phone" else 1
    assert len(found["canvases"]) == 2
    for c in found["canvases"]:
        assert c["backing"][0] >= density * c["css"][0] - 1 and c["backing"][1] >= density * c["css"][1] - 1, c
        if device == "phone":
            assert c["css"][0] >= 0.9 * found["width"], f"a canvas {c['css']} in {found['width']:.0f} px"
    assert page.evaluate("document.documentElement.scrollWidth") <= (390 if device == "phone" else 1280)
    slider = page.get_by_label("patch size (pixels)")
    box = slider.bounding_box()
    x, y = box["x"] + box["width"] * 0.5, box["y"] + box["height"] / 2
    act = (lambda: page.touchscreen.tap(x, y)) if device == "phone" else (lambda: page.mouse.click(x, y))
    redrawn(page, "patch", act)
    _, patch, _ = assert_exact(page, pictures, f"after a {'tap' if device == 'phone' else 'click'}")
    assert 12 <= patch <= 18, patch
    assert not errors, errors
    context.close()
