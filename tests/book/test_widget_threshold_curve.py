"""The decision-threshold widget of chapter 13 (mlrefined_lib.live.threshold_curve) in a static
page drawn by the book's loader, in Chromium: the confusion matrix, each class's precision,
recall and F1, the point on the precision–recall curve, the curve itself and the threshold with
the largest F1 equal scikit-learn's metrics to 1e-9, before and after slider, key, pointer and
touch input; no text under 9 CSS px on a 390 px phone, no script error. Like
tests/book/test_live_widget.py, it needs `python tools/vendor_assets.py` to have filled
assets/vendor."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix, precision_recall_curve, precision_recall_fscore_support
from test_live_widget import ASSETS, PHONE, SMALLEST_TEXT_JS, TOL, finish, open_page, redrawn, serve, write_page  # noqa: F401

from mlrefined_lib import live

VENDORED = ASSETS / "vendor" / "mlrefined" / "threshold_curve.js"


@pytest.fixture(scope="module")
def scored():
    rng = np.random.default_rng(12)
    labels = rng.random(400) < 0.1
    scores = np.clip(0.3 * labels + rng.beta(1.5, 6, size=400), 0, 1)
    scores[:20] = scores[20:40]  # ties, as rounded probabilities have
    return scores, labels


def shown(page, index=0) -> dict:
    return page.evaluate(f"""() => {{ const d = document.querySelectorAll('.mlr-live')[{index}].dataset;
        return {{threshold: d.threshold, confusion: d.confusion, classes: d.classes, point: d.point,
                 curve: d.curve, best: d.best}}; }}""")


def assert_exact(page, scored, what, index=0) -> float:
    """The page's numbers at its threshold against scikit-learn's; returns the threshold."""
    scores, labels = scored
    d = shown(page, index)
    t = float(d["threshold"])
    called = scores >= t
    confusion = confusion_matrix(labels, called, labels=[False, True])
    assert np.array_equal(json.loads(d["confusion"]), confusion), f"{what}: confusion matrix at {t}"
    p, r, f, _ = precision_recall_fscore_support(labels, called, labels=[False, True], zero_division=0)
    classes = np.array(json.loads(d["classes"]))
    assert np.abs(classes - np.column_stack([p, r, f])).max() <= TOL, f"{what}: per-class scores at {t}"
    assert np.abs(np.array(json.loads(d["point"])) - [p[1], r[1]]).max() <= TOL, f"{what}: the curve's point"
    precision, recall, thresholds = precision_recall_curve(labels, scores)
    curve = np.array(json.loads(d["curve"]))
    theirs = np.column_stack([thresholds, precision[:-1], recall[:-1]])[::-1]
    assert curve.shape == theirs.shape and np.abs(curve - theirs).max() <= TOL, f"{what}: the curve"
    f1 = 2 * precision * recall / np.maximum(precision + recall, 1e-12)
    best = np.argmax(f1[:-1])
    assert np.abs(np.array(json.loads(d["best"])) - [thresholds[best], f1[best]]).max() <= TOL, f"{what}: best F1"
    return t


def assert_near_full_recall(page, scored, what) -> None:
    """After a pick near recall 1 on the plot: the threshold is a point of the curve (one of the
    scores), of recall at least 0.9, and the page is exact there."""
    scores, labels = scored
    t = assert_exact(page, scored, what)
    assert t in set(scores.tolist()), f"{what}: {t} is not one of the curve's thresholds"
    assert np.mean(scores[labels] >= t) >= 0.9, f"{what}: the picked point has recall below 0.9"


def page_with(browser, serve, tmp_path, widgets):
    if not VENDORED.is_file():
        pytest.fail(f"assets/ lacks {VENDORED.name}: run `python tools/vendor_assets.py` first.")
    write_page(widgets, tmp_path)
    return open_page(browser, serve, len(widgets), "data-confusion")


def test_threshold_curve_equals_scikit_learn_before_and_after_input(browser, serve, tmp_path, scored):
    scores, labels = scored
    starts = [0.0, float(scores[7]), 0.45, 1.0]  # scores[7] is tied with scores[27]
    widgets = [live.threshold_curve(scores, labels, threshold=t, positive="rare", negative="common",
                                    score_label="Pr(rare)", marks={"argmax": (0.6, 0.3)}) for t in starts]
    page, errors = page_with(browser, serve, tmp_path, widgets)
    for index, t in enumerate(starts):
        assert assert_exact(page, scored, f"initial θ = {t}", index) == t
    assert scores.max() < 1.0  # so θ = 1 calls no row positive, and the readout says what that does
    assert "precision has nothing to divide by" in page.locator(".mlr-live [id^=mlr-desc]").nth(3).inner_text()
    slider = page.get_by_label("threshold θ on Pr(rare)").first
    redrawn(page, "threshold", lambda: slider.fill("0.3"))
    assert assert_exact(page, scored, "after the slider") == 0.3
    text = page.locator(".mlr-live [id^=mlr-desc]").first.inner_text()
    (tn, fp), (fn, tp) = confusion_matrix(labels, scores >= 0.3)
    assert f"{tp} of the {tp + fn} rare rows found and {fp} of the {tn + fp} common rows" in text, text
    slider.focus()
    redrawn(page, "threshold", lambda: page.keyboard.press("ArrowRight"))
    assert abs(assert_exact(page, scored, "after a key") - 0.301) < 1e-12
    redrawn(page, "threshold", lambda: page.keyboard.press("PageDown"))
    assert abs(assert_exact(page, scored, "after PageDown") - 0.201) < 1e-12
    box = slider.bounding_box()
    redrawn(page, "threshold", lambda: page.mouse.click(box["x"] + box["width"] * 0.75, box["y"] + box["height"] / 2))
    assert 0.65 < assert_exact(page, scored, "after a click on the slider") < 0.85
    # a click on the curve picks the curve's point nearest to it: the one of largest recall
    plot = page.locator(".mlr-live svg[role=img]").first
    pbox = plot.bounding_box()
    redrawn(page, "threshold", lambda: page.mouse.click(pbox["x"] + pbox["width"] * 0.97, pbox["y"] + pbox["height"] * 0.6))
    assert_near_full_recall(page, scored, "after a click on the curve")
    finish(page, errors, timings="decision threshold")


def test_threshold_curve_on_a_phone(browser, serve, tmp_path, scored):
    """390 px wide, 2x pixels, touch: a tap on the slider and on the curve move the threshold and
    the page stays exact; no text under 9 CSS px; the page does not scroll sideways."""
    scores, labels = scored
    if not VENDORED.is_file():
        pytest.fail(f"assets/ lacks {VENDORED.name}: run `python tools/vendor_assets.py` first.")
    write_page([live.threshold_curve(scores, labels, threshold=0.5, positive="snow", negative="not snow",
                                     score_label="Pr(snow)")], tmp_path)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(serve + "/index.html", wait_until="load")
    page.wait_for_function("() => document.querySelector('.mlr-live[data-confusion]') !== null", timeout=20_000)
    sizes = page.evaluate(SMALLEST_TEXT_JS)
    small = [(text, round(px, 2)) for text, px in sizes if px < 9]
    assert sizes and not small, f"text under 9 CSS px at 390 px: {small[:8]}"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width} px)"
    parts = page.eval_on_selector_all(".mlr-live .mlr-figure > *", "ps => ps.map(p => p.getBoundingClientRect().top)")
    assert len(parts) == 2 and parts[1] > parts[0] + 100, f"the parts do not stack on a phone: {parts}"
    slider = page.locator(".mlr-live input[type=range]")
    box = slider.bounding_box()
    redrawn(page, "threshold", lambda: page.touchscreen.tap(box["x"] + box["width"] * 0.25, box["y"] + box["height"] / 2))
    assert 0.15 < assert_exact(page, scored, "after a tap on the slider") < 0.35
    plot = page.locator(".mlr-live svg[role=img]").first
    pbox = plot.bounding_box()
    redrawn(page, "threshold", lambda: page.touchscreen.tap(pbox["x"] + pbox["width"] * 0.97, pbox["y"] + pbox["height"] * 0.6))
    assert_near_full_recall(page, scored, "after a tap on the curve")
    assert not errors, errors
    context.close()
