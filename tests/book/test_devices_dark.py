"""Test layer 7, continued: the built book in dark mode, without JavaScript, and its search page.

Run after `make strict-book`, like tests/book/test_devices.py (whose page
opener, offline routing and axe-core run these tests share); in a file of its
own so that the two halves run on different workers.

* in dark mode (the system asks for it; the theme's switch is shown and works)
  the page is dark, every figure and live widget's plot sits on a light card,
  and axe-core again finds no critical or serious violation, with no console
  error;
* without JavaScript, each widget's place shows a picture with alt text: the
  widget's initial view;
* the search page's excerpts come from the text, not from the buttons above it
  or from collapsed cells.
"""

from __future__ import annotations

import re

import pytest
from test_devices import VIEWS_RENDERED_JS, Opened, run_axe  # tests/book/test_devices.py

# Colours as [r, g, b]; luminance per WCAG.
DARK_JS = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
  const lum = (c) => { const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                       return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const shown = (e) => e.getClientRects().length > 0 && e.offsetParent !== null;
  const cards = [...document.querySelectorAll(
      "article .cell_output img, article .mlr-live canvas, article .mlr-live svg[role=img]")]
    .filter((e) => shown(e) && e.getBoundingClientRect().width > 100 && !e.closest("a.reference"))
    .map((e) => { const cs = getComputedStyle(e);
                  return {what: e.tagName + "." + e.className + " " + (e.getAttribute("src") || "").split("/").pop().slice(0, 20),
                          background: cs.backgroundColor, light: rgb(cs.backgroundColor)[3] !== 0 && lum(cs.backgroundColor) > 0.8,
                          frame: cs.boxShadow}; });
  const sw = document.querySelector(".theme-switch-button");
  return {theme: document.documentElement.dataset.theme, mode: document.documentElement.dataset.mode,
          page: lum(getComputedStyle(document.body).backgroundColor), text: lum(getComputedStyle(document.querySelector("article")).color),
          switchShown: !!sw && shown(sw) && sw.getBoundingClientRect().width > 0, cards};
}"""

def test_dark_mode(browser, book_server, book, toc_page):
    """The system asks for dark: the page follows, its figures sit on light cards, axe-core
    finds no critical or serious violation, the console stays clean, and the theme's switch
    (shown) takes the page back to light."""
    path = toc_page
    if not (book.build / path).is_file():
        pytest.fail(f"{path} is listed in _toc.yml but not built: run `make strict-book`.")
    opened = Opened(browser, book_server, path, "desktop-dark")
    page = opened.page
    try:
        if book.widget_views(path):
            page.wait_for_function(VIEWS_RENDERED_JS)
            page.wait_for_timeout(300)
        page.evaluate("async () => { if (window.MathJax && MathJax.startup) await MathJax.startup.promise; }")
        found = page.evaluate(DARK_JS)
        assert found["theme"] == "dark", f"dark mode: the page's theme is {found['theme']!r} (mode {found['mode']!r})"
        assert found["page"] < 0.05 and found["text"] > 0.5, f"dark mode: page luminance {found['page']:.2f}, text {found['text']:.2f}"
        assert found["switchShown"], "dark mode: the theme's light/dark switch is not shown"
        glaring = [c for c in found["cards"] if not c["light"]]
        assert not glaring, f"dark mode, {path}: figures not on a light card: {glaring[:5]}"
        run_axe(page, "dark mode")
        page.locator(".theme-switch-button").first.click()  # the switch cycles through its modes
        for _ in range(2):
            if page.evaluate("() => document.documentElement.dataset.theme") == "light":
                break
            page.locator(".theme-switch-button").first.click()
        assert page.evaluate("() => document.documentElement.dataset.theme") == "light", \
            "dark mode: the theme's switch does not turn the page light"
        page.wait_for_timeout(200)  # late errors
        assert not opened.problems, f"dark mode, {path}:\n  " + "\n  ".join(opened.problems)
    finally:
        opened.close()


SEARCH_QUERIES = ["normalization", "histogram", "gradient descent"]


@pytest.mark.parametrize("query", SEARCH_QUERIES)
def test_search_excerpts_come_from_the_text(browser, book_server, book, query):
    """Sphinx's search shows an excerpt of each page found; it must come from the page's text,
    not from the buttons above it (Binder, Colab, .ipynb, .md) or from collapsed code."""
    opened = Opened(browser, book_server, f"search.html?q={query.replace(' ', '+')}", "desktop")
    page = opened.page
    try:
        page.wait_for_function("() => document.querySelectorAll('#search-results li p.context').length >= 3")
        page.wait_for_timeout(1500)  # every excerpt fetched
        excerpts = page.evaluate("() => [...document.querySelectorAll('#search-results li p.context')].map((p) => p.textContent)")
        junk = re.compile(r"\.ipynb|\.md\b|\.pdf|Binder|Colab|Show code cell|show source|Toggle|\bContents\b")
        bad = [e[:120] for e in excerpts if junk.search(e)]
        assert not bad, f"search {query!r}: excerpts taken from the page's buttons or hidden cells:\n  " + "\n  ".join(bad)
        assert not opened.problems, f"search {query!r}:\n  " + "\n  ".join(opened.problems)
    finally:
        opened.close()


def test_widgets_without_javascript(browser, book_server, book, toc_page):
    """With JavaScript off, every widget's place shows a picture with alt text: the
    widget's initial view."""
    views = book.widget_views(toc_page) if (book.build / toc_page).is_file() else ()
    if not views:
        return
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{book_server}/{toc_page}", wait_until="load")
        missing = page.evaluate("""() => [...document.querySelectorAll(
            'script[type="application/vnd.jupyter.widget-view+json"]')]
            .filter((s) => !(s.previousElementSibling && s.previousElementSibling.matches("img.widget-fallback")))
            .map((s) => s.textContent.slice(0, 80))""")
        assert not missing, f"{toc_page}: widget views with no picture before them: {missing}"
        fallbacks = page.locator("img.widget-fallback")
        for i in range(fallbacks.count()):
            image = fallbacks.nth(i)
            image.scroll_into_view_if_needed()
            page.wait_for_function("(i) => i.complete && i.naturalWidth > 0", arg=image.element_handle())
            box = image.bounding_box()
            assert box and box["width"] > 200, f"{toc_page}: fallback image {i} is shown {box} wide"
            alt = image.get_attribute("alt") or ""
            assert len(alt) > 20, f"{toc_page}: fallback image {i} has alt text {alt!r}"
    finally:
        context.close()
