"""The landing page's live teaser (_ext/live_teaser.py): chapter 1's widget, drawn in the page."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "_ext"))
import live_teaser  # noqa: E402

LANDING = "intro.html"
SOURCE = ROOT / "chapters/01_gradient_descent/gradient_descent.ipynb"


def test_the_teaser_is_chapter_1s_first_widget_with_its_picture(built_html):
    text = (built_html / LANDING).read_text(encoding="utf-8")
    assert 'data-from="' not in text, "the placeholder was left in the page"
    view, models, picture = live_teaser.first_widget(json.loads(SOURCE.read_text(encoding="utf-8")))
    teaser = re.search(r'<div class="live-teaser">(.*?)</div>', text, re.S)
    assert teaser, "no teaser on the landing page"
    assert f'"model_id": "{view["model_id"]}"' in teaser.group(1)
    assert 'class="widget-fallback"' in teaser.group(1) and f'alt="{picture[1][:40]}' in teaser.group(1)
    state = json.loads(re.search(r'<script type="application/vnd\.jupyter\.widget-state\+json">(.*?)</script>',
                                 text, re.S).group(1))["state"]
    assert set(state) == set(models) and len(state) == 2  # the widget and its layout
    assert all("_esm" not in model["state"] for model in state.values()), "the page carries the stored front end"
    assert re.search(r'<script async="async" type="module" src="_static/widget-loader\.js', text)


def test_a_notebook_without_a_widget_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="no widget with saved state"):
        live_teaser.first_widget({"cells": [{"cell_type": "code", "outputs": []}], "metadata": {}})


def test_the_teaser_draws_and_answers_on_a_phone(browser, book_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(f"{book_server}/{LANDING}", wait_until="load")
    page.wait_for_selector(".live-teaser .mlr-widget.mlr-drawn .mlr-live", timeout=15_000)
    assert not page.locator(".live-teaser img.widget-fallback").is_visible(), "the still picture stays once drawn"
    width = page.locator(".live-teaser").evaluate("(e) => e.getBoundingClientRect().width")
    assert width <= 390, f"the teaser is {width:.0f} px wide on a 390 px phone"
    slider = page.locator(".live-teaser input[type=range]").first
    before = page.locator(".live-teaser .mlr-live").evaluate("(e) => JSON.stringify(e.dataset)")
    slider.focus()
    slider.press("End")
    page.wait_for_function(
        "(old) => JSON.stringify(document.querySelector('.live-teaser .mlr-live').dataset) !== old", arg=before,
        timeout=5_000)
    assert not errors, errors
    context.close()


def test_without_javascript_the_teaser_is_its_picture(browser, book_server):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{book_server}/{LANDING}", wait_until="load")
    picture = page.locator(".live-teaser img.widget-fallback")
    assert picture.is_visible() and "gradient-descent steps" in picture.get_attribute("alt")
    assert picture.evaluate("(img) => img.complete && img.naturalWidth > 0")
    context.close()
