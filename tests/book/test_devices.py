"""Test layer 7: the built book on a reader's devices.

Every page of _toc.yml is opened in headless Chromium as a phone (390x844, touch)
and as a desktop (1280x900), offline (any request to another machine is aborted
and reported). On each:

* the navigation works: on the phone, tapping the menu button opens the book's
  contents as a dialog with a link to every chapter, and Escape closes it (the
  "On this page" button likewise, where the page has one); on the desktop, the
  menu button collapses the sidebar and a second click brings it back;
* every slider of the live widgets is usable: it is named by its label, its
  label sits on one line and its readout is not cut; on the phone its track
  spans at least 75% of the text's width and a tap in its middle moves it
  there and redraws the widget;
* every live widget is sharp and readable: each canvas's backing store holds
  the screen's pixels (twice its CSS size on the 2x phone), and no widget text
  (ticks, titles, legends, colour bars, readouts) is under 9 CSS px;
* axe-core (installed by `make assets` with npm; never fetched from the
  network) finds no critical or serious accessibility violation;
* every control in a code cell, focused, shows its whole focus ring: a cell
  is drawn in its own box (book.css), and no ring reaches past its margin;
* the page logs no console error and no request fails;
* on the desktop, the header's download menu, a tooltip and the "back to top"
  button work, and no click makes the theme's Bootstrap search the page for its
  controls (tests/book/test_devices.py, check_theme_controls);
* on the desktop, a reader sees every number and every letter: no code cell, no
  printed output and no table scrolls sideways (but a printed table wider than
  the column, its rows kept whole, with the line under it that says so), and every output figure is shown at 80%
  of its width or more (its text is at least 9 pt at 90 dpi, see
  tests/harness/test_readable_notebooks.py, so at least 9 px on the screen);
* with JavaScript, each widget's picture for readers without it (its initial
  view, tests/book/test_devices_dark.py) goes away once the widget has drawn;
* one search box is shown, on the phone and on the desktop; headings that
  contain code keep the heading's size (no code chip);
* on the phone nothing is cut at the right edge: display math wider than the
  screen scrolls inside its own box, with a shadow at the edge that hides more,
  and code wraps; every output figure is shown at 71% of its width or more
  (its text at least 8 px): a wider one scrolls sideways in its own box, with
  a line saying so, and still links to its full-size picture;
* the landing page's own text links to every chapter (a card each) and to the
  PDF of the book.
* the same visit reads, before its first click, what tests/book/test_reading.py
  (phone and desktop) and tests/book/test_keyboard.py (desktop) check, and
  clicks the solutions' titles for test_reading.py near its end;
* last, on each chapter page, every solution and folded cell opened, nothing is
  cut at its right edge (tests/book/overflow.py's checks, reported by
  test_nothing_cut).

Dark mode, the pages without JavaScript and the search page's excerpts are
tests/book/test_devices_dark.py's.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import test_keyboard  # tests/book/test_keyboard.py: its checks read this visit (desktop)
import test_reading  # tests/book/test_reading.py: its checks read this visit (phone, desktop)
from overflow import OVERFLOW_JS, check_overflow  # tests/book/overflow.py
from test_live_widget import CANVAS_TEXT_JS, MIN_TEXT_PX, WIDGET_TEXT_JS  # tests/book/test_live_widget.py

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
MIN_TRACK_SHARE = 0.75  # of the text's width, on the phone
# Figure text is at least 9 pt at 90 dpi (11.25 px in the PNG): shown at 80% of
# its width or more, every letter is at least 9 px tall on the screen.
MIN_FIGURE_SCALE = 9 / (9 * 90 / 72)
# On the phone: at least 8 px (assets/figures.js lets a wider figure scroll sideways).
MIN_PHONE_FIGURE_SCALE = 8 / (9 * 90 / 72)

DEVICES = {
    "phone": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2),
    "desktop": dict(viewport={"width": 1280, "height": 900}),
}
# The same desktop when the system asks for dark mode (test_dark_mode).
CONTEXTS = {**DEVICES, "desktop-dark": dict(viewport={"width": 1280, "height": 900}, color_scheme="dark")}
TIMEOUT_MS = 20_000

VISIBLE_TOGGLES_JS = """(kind) => [...document.querySelectorAll("." + kind)]
  .map((b, i) => ({i, visible: b.offsetParent !== null && b.getBoundingClientRect().width > 0,
                   name: b.getAttribute("aria-label") || b.getAttribute("title") || b.textContent.trim()}))
  .filter((b) => b.visible)"""
DIALOG_JS = """(id) => { const d = document.getElementById(id);
  return d ? {open: d.open, links: [...d.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")),
              width: d.getBoundingClientRect().width} : null; }"""
VIEWS_RENDERED_JS = """() => [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')]
  .every((s) => { const host = s.nextElementSibling;
                  return host && host.matches(".mlr-widget.mlr-drawn") && host.firstElementChild !== null; })"""
SLIDERS_JS = """() => {
  const article = document.querySelector("article.bd-article");
  const style = getComputedStyle(article);
  const text = article.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [...document.querySelectorAll(".mlr-live input[type=range]")].map((input) => {
    const root = input.closest(".mlr-live"), label = input.labels[0], out = root.querySelector(`output[for="${input.id}"]`);
    const t = input.getBoundingClientRect(), r = root.getBoundingClientRect(), o = out.getBoundingClientRect();
    return {text, track: {x: t.x, y: t.y, width: t.width, height: t.height},
            label: label ? label.textContent.trim() : "", labelCut: !label || label.scrollWidth > label.clientWidth + 1,
            labelLines: label ? Math.round(label.getBoundingClientRect().height / parseFloat(getComputedStyle(label).lineHeight)) : 0,
            readout: out.textContent.trim(), readoutCut: o.right > r.right + 1 || out.scrollWidth > out.clientWidth + 1,
            value: Number(input.value), min: Number(input.min), max: Number(input.max),
            drawing: JSON.stringify(root.dataset)};
  });
}"""
READABLE_JS = """() => {
  const scrolls = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.scrollWidth > e.clientWidth + 1)
    .map((e) => `${e.scrollWidth} px in ${e.clientWidth} px: ${e.textContent.trim().slice(0, 50)}`);
  const figures = [...document.querySelectorAll(".cell_output img")]
    .filter((i) => !i.closest(".mlr-widget") && i.naturalWidth > 0 && i.offsetParent !== null)
    .map((i) => ({src: i.getAttribute("src").split("/").pop().slice(0, 16), natural: i.naturalWidth,
                  shown: i.getBoundingClientRect().width}));
  // A printed table keeps its rows on one line (tests/book/test_reading.py): wider than the
  // column, it may scroll, with the line under it that says so.
  const cued = (e) => e.matches("pre.printed-table") && e.nextElementSibling
    && e.nextElementSibling.matches(".scroll-hint") && e.nextElementSibling.offsetParent !== null;
  return {code: scrolls(".cell_input pre"), output: scrolls(".cell_output pre:not(.printed-table), .cell_output > .output")
            .concat([...document.querySelectorAll(".cell_output pre.printed-table")]
              .filter((e) => e.scrollWidth > e.clientWidth + 1 && !cued(e)).map((e) => `uncued table: ${e.textContent.trim().slice(0, 50)}`)),
          figures};
}"""
SEARCH_BOXES_JS = """() => [...document.querySelectorAll(".search-button-field, .search-button__button")]
  .filter((b) => b.offsetParent !== null && b.getBoundingClientRect().width > 0).length"""
CODE_HEADINGS_JS = """() => [...document.querySelectorAll("article :is(h1, h2, h3, h4, h5, h6) code")].map((c) => {
  const h = c.closest("h1, h2, h3, h4, h5, h6"), cs = getComputedStyle(c);
  return {text: h.textContent.trim().slice(0, 50), code: parseFloat(cs.fontSize), heading: parseFloat(getComputedStyle(h).fontSize),
          background: cs.backgroundColor}; })"""
# Display math and code on the phone, once MathJax has typeset the page.
CLIPPING_JS = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  const width = document.documentElement.clientWidth;
  const math = [...document.querySelectorAll("article mjx-container[display=true]")].map((m) => {
    const r = m.getBoundingClientRect(), cs = getComputedStyle(m);
    return {tex: (m.previousElementSibling && m.previousElementSibling.textContent || m.textContent).slice(0, 40),
            scrolls: m.scrollWidth > m.clientWidth + 1, overflow: cs.overflowX, cue: cs.backgroundImage.includes("gradient"),
            right: r.right, left: r.left, focusable: m.tabIndex >= 0};
  });
  // A printed table scrolls instead (its rows kept whole), with the line under it that says so.
  const cued = (p) => p.matches("pre.printed-table") && p.nextElementSibling
    && p.nextElementSibling.matches(".scroll-hint") && p.nextElementSibling.offsetParent !== null;
  const code = [...document.querySelectorAll("article .cell_input pre, article div.highlight pre")]
    .filter((p) => p.offsetParent !== null && p.scrollWidth > p.clientWidth + 1 && !cued(p))
    .map((p) => `${p.scrollWidth} px in ${p.clientWidth} px: ${p.textContent.trim().slice(0, 40)}`);
  const figures = [...document.querySelectorAll("article .cell_output img")]
    .filter((i) => !i.closest(".mlr-widget") && i.naturalWidth > 0 && i.offsetParent !== null)
    .map((i) => { const box = i.closest(".figure-scroll"), hint = box && box.nextElementSibling;
      return {src: i.getAttribute("src").split("/").pop().slice(0, 16), natural: i.naturalWidth, shown: i.getBoundingClientRect().width,
              link: !!i.closest("a.figure-full"), scrolls: !!box && box.scrollWidth > box.clientWidth + 1,
              focusable: !!box && box.tabIndex >= 0,
              hint: !!hint && hint.classList.contains("figure-scroll-hint") && hint.offsetParent !== null}; });
  return {width, math, code, figures, page: document.documentElement.scrollWidth};
}"""
# Cells are drawn inside their own box (book.css: `contain: paint`, with room
# outside it of `overflow-clip-margin`): every control in a cell, focused, has
# its focus ring (outline or box shadow) inside that room, not cut off.
FOCUS_RINGS_JS = r"""() => {
  const px = (v) => parseFloat(v) || 0;
  const ring = (cs) => {
    let e = cs.outlineStyle !== "none" ? px(cs.outlineWidth) + px(cs.outlineOffset) : 0;
    if (cs.boxShadow && cs.boxShadow !== "none")
      for (const s of cs.boxShadow.split(/,(?![^(]*\))/)) {
        if (/\binset\b/.test(s)) continue;
        const n = (s.replace(/rgba?\([^)]*\)/g, "").match(/-?[\d.]+px/g) || []).map(px);
        e = Math.max(e, Math.max(Math.abs(n[0] || 0), Math.abs(n[1] || 0)) + (n[2] || 0) + (n[3] || 0));
      }
    return e;
  };
  const out = [], before = document.activeElement;
  const focusable = "a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex='-1'])";
  for (const cell of document.querySelectorAll(".bd-content div.cell")) {
    const ccs = getComputedStyle(cell);
    if (!/paint|strict|content/.test(ccs.contain) && ccs.overflowX === "visible") continue;
    const margin = px(ccs.overflowClipMargin), c = cell.getBoundingClientRect();
    for (const el of cell.querySelectorAll(focusable)) {
      if (el.offsetParent === null && getComputedStyle(el).position !== "fixed") continue;
      // Inside a box that scrolls (a wide figure, a printed table), that box clips first, by design.
      let inner = false;
      for (let a = el.parentElement; a && a !== cell; a = a.parentElement) {
        const acs = getComputedStyle(a);
        if (acs.overflowX !== "visible" || acs.overflowY !== "visible") { inner = true; break; }
      }
      if (inner) continue;
      el.focus({preventScroll: true});
      if (document.activeElement !== el) continue;
      const e = ring(getComputedStyle(el)), r = el.getBoundingClientRect();
      const cut = Math.max(c.left - margin - (r.left - e), (r.right + e) - (c.right + margin),
                           c.top - margin - (r.top - e), (r.bottom + e) - (c.bottom + margin));
      if (cut > 0.5) out.push(`${el.tagName.toLowerCase()}${el.getAttribute("aria-label") ? " " + el.getAttribute("aria-label") : ""}: ${cut.toFixed(1)} px of its ${e.toFixed(1)} px ring`);
    }
  }
  if (before && before.focus) before.focus({preventScroll: true}); else document.activeElement.blur();
  return out;
}"""
SIDEBAR_JS = """() => { const s = document.getElementById("pst-primary-sidebar");
  return {hidden: getComputedStyle(s).visibility === "hidden", width: s.getBoundingClientRect().width,
          articleLeft: document.querySelector(".bd-main").getBoundingClientRect().left}; }"""


@pytest.fixture(params=list(DEVICES), scope="module")
def device(request):
    return request.param


class Opened:
    def __init__(self, browser, base, path, device):
        self.problems: list[str] = []
        self.context = browser.new_context(service_workers="block", **CONTEXTS[device])
        self.context.set_default_timeout(TIMEOUT_MS)
        self.context.add_init_script(CANVAS_TEXT_JS)  # records the text the widgets draw on canvases

        def route(route):
            if route.request.url.startswith(base + "/"):
                route.continue_()
            else:
                self.problems.append(f"request to another machine (blocked): {route.request.url}")
                route.abort()

        self.context.route("**/*", route)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("console", lambda msg: self.problems.append(f"console error: {msg.text}")
                     if msg.type == "error" else None)
        self.page.on("response", lambda r: self.problems.append(f"failed request: {r.status} {r.url}")
                     if r.status >= 400 else None)
        self.page.goto(f"{base}/{path}", wait_until="load")

    def close(self):
        self.context.close()


def chapter_links(book) -> set[str]:
    """File names (without folders) of the chapter pages the contents must link to."""
    return {p.rsplit("/", 1)[-1] for p in book.chapter_pages()}


def linked_files(hrefs: list[str]) -> set[str]:
    return {re.sub(r"[#?].*$", "", h).rsplit("/", 1)[-1] for h in hrefs}


def test_navigation_and_console(browser, book_server, book, device, toc_page):
    path = toc_page
    if not (book.build / path).is_file():
        pytest.fail(f"{path} is listed in _toc.yml but not built: run `make strict-book`.")
    opened = Opened(browser, book_server, path, device)
    page = opened.page
    try:
        widgets = bool(book.widget_views(path))
        if widgets:
            page.wait_for_function(VIEWS_RENDERED_JS)
            page.wait_for_timeout(300)  # names and alt texts follow the widgets' rendering
            shown = page.evaluate("() => [...document.querySelectorAll('img.widget-fallback')]"
                                  ".filter((i) => i.offsetParent !== null).length")
            assert shown == 0, f"{device}: {shown} fallback picture(s) still shown after the widgets drew"
        run_axe(page, device)  # on the page as it loads, before any transition starts
        cut = page.evaluate(FOCUS_RINGS_JS)  # before any click or tap: focus is shown as for the keyboard
        assert not cut, f"{device}: focus rings cut off at the edge of their cell:\n  " + "\n  ".join(cut)
        # Still before any click: what test_reading.py and test_keyboard.py check, read on this visit.
        reading = test_reading.read(page, device) if device in test_reading.CONTEXTS else None
        keys = test_keyboard.read_keys(page, close=True) if device == "desktop" else None
        primary = page.evaluate(VISIBLE_TOGGLES_JS, "primary-toggle")
        assert len(primary) == 1, f"{device}: expected one visible menu button, found {primary}"
        assert primary[0]["name"], f"{device}: the menu button has no accessible name"
        button = page.locator(".primary-toggle").nth(primary[0]["i"])
        if device == "phone":
            button.tap()
            page.wait_for_function("() => document.getElementById('pst-primary-sidebar-modal').open")
            dialog = page.evaluate(DIALOG_JS, "pst-primary-sidebar-modal")
            missing = chapter_links(book) - linked_files(dialog["links"]) - {path.rsplit("/", 1)[-1]}
            assert not missing, f"phone: the contents dialog has no link to {sorted(missing)}"
            assert dialog["width"] > 200, f"phone: the contents dialog is only {dialog['width']:.0f} px wide"
            page.keyboard.press("Escape")
            page.wait_for_function("() => !document.getElementById('pst-primary-sidebar-modal').open")
            secondary = page.evaluate(VISIBLE_TOGGLES_JS, "secondary-toggle")
            for toggle in secondary:
                page.locator(".secondary-toggle").nth(toggle["i"]).tap()
                page.wait_for_function("() => document.getElementById('pst-secondary-sidebar-modal').open")
                page.keyboard.press("Escape")
                page.wait_for_function("() => !document.getElementById('pst-secondary-sidebar-modal').open")
        else:
            before = page.evaluate(SIDEBAR_JS)
            assert not before["hidden"] and before["width"] > 150, f"desktop: the sidebar is not shown at first: {before}"
            button.click()
            page.wait_for_function("() => getComputedStyle(document.getElementById('pst-primary-sidebar')).visibility === 'hidden'")
            page.wait_for_timeout(500)  # the sidebar slides away
            collapsed = page.evaluate(SIDEBAR_JS)
            assert collapsed["articleLeft"] < before["articleLeft"] - 100, \
                f"desktop: collapsing the sidebar did not widen the text: {before} -> {collapsed}"
            button.click()
            page.wait_for_function("() => getComputedStyle(document.getElementById('pst-primary-sidebar')).visibility === 'visible'")
        if widgets:
            check_widget_pixels(page, device)
            check_sliders(page, device)
        boxes = page.evaluate(SEARCH_BOXES_JS)
        assert boxes == 1, f"{device}: {boxes} search boxes or buttons shown at once (expected one)"
        chips = [h for h in page.evaluate(CODE_HEADINGS_JS)
                 if h["code"] > h["heading"] + 0.5 or h["background"] not in ("rgba(0, 0, 0, 0)", "transparent")]
        assert not chips, f"{device}: code in headings drawn as code chips: {chips}"
        if device == "desktop":
            check_theme_controls(page, path)
            check_readable(page, path)
        else:
            check_not_clipped(page, path)
        if path == book.toc_pages()[0]:
            check_landing_links(page, book, device)
        if reading is not None:  # test_reading.py's clicks on the solutions' titles
            reading["solutions"] = test_reading.open_solutions(page)
        if path in book.chapter_pages():  # measured last: it opens every solution and folded cell
            OVERFLOW[device, path] = page.evaluate(OVERFLOW_JS)
        page.wait_for_timeout(200)  # late errors
        if reading is not None:
            reading["problems"] = list(opened.problems)
            test_reading._measured[path, device] = reading
        if keys is not None:
            test_keyboard._SEEN[path] = keys
        assert not opened.problems, f"{device}, {path}:\n  " + "\n  ".join(opened.problems)
    finally:
        opened.close()


#: (device, chapter page) -> what OVERFLOW_JS found at the end of test_navigation_and_console's
#: visit, which runs before test_nothing_cut on the same worker (one group per device).
OVERFLOW: dict[tuple[str, str], dict] = {}


def test_nothing_cut(browser, book_server, device, page_path):
    """tests/book/overflow.py's checks, on the navigation test's visit of the page (a visit of
    its own when that test did not get so far, or did not run)."""
    result = OVERFLOW.pop((device, page_path), None)
    if result is None:
        opened = Opened(browser, book_server, page_path, device)
        try:
            result = opened.page.evaluate(OVERFLOW_JS)
        finally:
            opened.close()
    check_overflow(result, device, page_path)


def check_theme_controls(page, path):
    """The theme's Bootstrap parts that the pages use work (assets/scripts/bootstrap.js keeps only
    those): the header's download menu opens on a click and closes with Escape, a header button's
    tooltip shows when the pointer rests on it, and the "back to top" button appears when the reader
    scrolls up a long page and takes them to the top. The menu's arrow keys reach its items, and a
    click elsewhere closes it. And a click costs the page little: no listener of the theme's
    searches the page for its controls at each click."""
    toggle = page.locator('button.dropdown-toggle[aria-label="Download this page"]')
    toggle.click()
    page.wait_for_selector(".dropdown-menu.show a", state="visible")
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("() => !!document.activeElement.closest('.dropdown-menu.show')")
    assert focused, f"{path}: ArrowDown in the open download menu did not reach its items"
    page.keyboard.press("Escape")
    page.wait_for_selector(".dropdown-menu.show", state="detached")
    toggle.click()
    page.wait_for_selector(".dropdown-menu.show a", state="visible")
    page.locator("article h1").first.click()
    page.wait_for_selector(".dropdown-menu.show", state="detached")
    page.locator(".theme-switch-button:visible").first.hover()
    page.wait_for_selector(".tooltip.show", state="visible")
    page.mouse.move(0, 0)
    session = page.context.new_cdp_session(page)
    document = session.send("Runtime.evaluate", {"expression": "document"})["result"]["objectId"]
    listeners = session.send("DOMDebugger.getEventListeners", {"objectId": document})["listeners"]
    session.detach()
    searching = sum(1 for item in listeners if item["type"] == "click" and item["useCapture"])
    # Bootstrap's data API listens to clicks on the document in the capture phase and searches
    # the page at each one (eleven such listeners in the theme's bundle, one in Bootstrap's dropdown)
    assert searching == 0, f"{path}: {searching} capture click listeners on the document (Bootstrap's data API?)"
    height = page.evaluate("() => document.documentElement.scrollHeight - innerHeight")
    if height > 3000:
        size = page.viewport_size
        page.set_viewport_size({"width": 1000, "height": size["height"]})  # the theme shows it below 1200 px
        page.evaluate("() => window.scrollTo(0, 2500)")
        page.wait_for_timeout(100)
        page.evaluate("() => window.scrollTo(0, 2000)")
        page.wait_for_selector("#pst-back-to-top", state="visible")
        page.locator("#pst-back-to-top").click()
        page.wait_for_function("() => window.scrollY === 0")
        page.set_viewport_size(size)
        page.wait_for_timeout(300)  # the layout settles at the desktop's width again


def check_not_clipped(page, path):
    """On the phone: wide display math scrolls in its own box (with a cue), code wraps,
    and the page itself does not scroll sideways."""
    found = page.evaluate(CLIPPING_JS)
    width = found["width"]
    cut = [f"{m['tex']!r}: {m['left']:.0f}..{m['right']:.0f} px" for m in found["math"]
           if m["right"] > width + 0.5 or m["left"] < -0.5]
    assert not cut, f"phone, {path}: display math cut at the screen's edge ({width} px):\n  " + "\n  ".join(cut)
    hidden = [f"{m['tex']!r}: overflow {m['overflow']}, cue {m['cue']}, focusable {m['focusable']}"
              for m in found["math"] if m["scrolls"] and not (m["overflow"] in ("auto", "scroll") and m["cue"] and m["focusable"])]
    assert not hidden, (f"phone, {path}: display math wider than the screen that does not scroll with a visible cue "
                        "(and the keyboard's focus):\n  " + "\n  ".join(hidden))
    assert not found["code"], f"phone, {path}: code that neither wraps nor fits:\n  " + "\n  ".join(found["code"])
    assert found["page"] <= width + 1, f"phone, {path}: the page is {found['page']} px wide on a {width} px screen"
    small = [f"{f['src']}: {f['natural']} px shown at {f['shown']:.0f} px ({f['shown'] / f['natural']:.0%})"
             for f in found["figures"] if f["shown"] < MIN_PHONE_FIGURE_SCALE * f["natural"] - 0.5]
    assert not small, (f"phone, {path}: figures shown below {MIN_PHONE_FIGURE_SCALE:.0%} of their width "
                       "(their text would be under 8 px):\n  " + "\n  ".join(small))
    unmarked = [f["src"] for f in found["figures"] if f["scrolls"] and not (f["hint"] and f["focusable"])]
    assert not unmarked, f"phone, {path}: figures that scroll sideways without the line that says so: {unmarked}"
    unlinked = [f["src"] for f in found["figures"] if not f["link"]]
    assert not unlinked, f"phone, {path}: figures without their link to the full-size picture: {unlinked}"


def check_landing_links(page, book, device):
    """The landing page's own text (not the navigation) links to every chapter, and to the PDF."""
    hrefs = page.evaluate("""() => [...document.querySelectorAll("article.bd-article a[href]")]
        .filter((a) => a.offsetParent !== null && a.getBoundingClientRect().width > 0).map((a) => a.getAttribute("href"))""")
    missing = chapter_links(book) - linked_files(hrefs)
    assert not missing, f"{device}: the landing page's text does not link to {sorted(missing)}"
    assert any(h.endswith(".pdf") for h in hrefs), f"{device}: the landing page does not link to the PDF"
    cards = page.evaluate("() => document.querySelectorAll('article .sd-card').length")
    chapters = {page.split("/")[1] for page in book.chapter_pages()}  # a chapter's folder, its pages together
    assert cards >= len(chapters), f"{device}: {cards} chapter cards on the landing page for {len(chapters)} chapters"


def check_readable(page, path):
    found = page.evaluate(READABLE_JS)
    assert not found["code"], f"desktop, {path}: code cells scroll sideways:\n  " + "\n  ".join(found["code"])
    assert not found["output"], f"desktop, {path}: printed outputs scroll sideways:\n  " + "\n  ".join(found["output"])
    small = [f"{f['src']}: {f['natural']} px shown at {f['shown']:.0f} px ({f['shown'] / f['natural']:.0%})"
             for f in found["figures"] if f["shown"] < MIN_FIGURE_SCALE * f["natural"] - 0.5]
    assert not small, (f"desktop, {path}: figures shown below {MIN_FIGURE_SCALE:.0%} of their width "
                       "(their text would be under 9 px):\n  " + "\n  ".join(small))


def check_sliders(page, device):
    """Every range control of the live widgets: named, its label on one line and its readout
    whole; on the phone, wide enough to drag, and a tap in its middle moves it there and redraws."""
    for number, slider in enumerate(page.evaluate(SLIDERS_JS), start=1):
        where = f"{device}, slider {number} ({slider['label']!r})"
        assert slider["label"], f"{where}: the slider has no label"
        assert not slider["labelCut"] and slider["labelLines"] <= 1, \
            f"{where}: the label is cut or wraps ({slider['labelLines']} lines)"
        assert slider["readout"] and not slider["readoutCut"], f"{where}: the readout {slider['readout']!r} is cut"
        if device != "phone":
            continue
        share = slider["track"]["width"] / slider["text"]
        assert share >= MIN_TRACK_SHARE, (f"{where}: the track is {slider['track']['width']:.0f} px, "
                                         f"{share:.0%} of the text's {slider['text']:.0f} px")
        control = page.locator(".mlr-live input[type=range]").nth(number - 1)
        control.focus()
        first = page.evaluate(SLIDERS_JS)[number - 1]
        control.press("Home")  # away from the middle, so that the tap moves it
        if first["value"] != first["min"]:  # the widget redraws on its next frame: wait for it
            wait_for_redraw(page, number - 1, first["drawing"], f"{where}: Home did not redraw the widget")
        before = page.evaluate(SLIDERS_JS)[number - 1]
        control.tap(position={"x": before["track"]["width"] / 2, "y": before["track"]["height"] / 2})
        wait_for_redraw(page, number - 1, before["drawing"], f"{where}: the tap did not redraw the widget")
        moved = page.evaluate(SLIDERS_JS)[number - 1]
        middle = (moved["min"] + moved["max"]) / 2
        assert abs(moved["value"] - middle) <= 0.1 * (moved["max"] - moved["min"]), \
            f"{where}: a tap in the middle of the track moved it to {moved['value']} of {moved['min']}..{moved['max']}"


def check_widget_pixels(page, device):
    """Each widget's canvases hold the screen's pixels, and none of its text is under 9 CSS px."""
    density = DEVICES[device].get("device_scale_factor", 1)
    problems = []
    for widget in page.evaluate(WIDGET_TEXT_JS):
        for c in widget["canvases"]:
            if c["backing"][0] < density * c["css"][0] - 1 or c["backing"][1] < density * c["css"][1] - 1:
                problems.append(f"{widget['title']}: a {c['backing'][0]}x{c['backing'][1]} canvas shown at "
                                f"{c['css'][0]:.0f}x{c['css'][1]:.0f} CSS px on a {density}x screen")
        problems += [f"{widget['title']}: {t['where']} text {t['text']!r} at {t['size']:.1f} px"
                     for t in widget["texts"] if t["size"] < MIN_TEXT_PX - 0.05][:5]
    assert not problems, f"{device}: widgets soft or too small to read:\n  " + "\n  ".join(problems)


def wait_for_redraw(page, index: int, drawing: str, message: str) -> None:
    """Wait (up to TIMEOUT_MS) until the widget of range control ``index`` has drawn something else than ``drawing``."""
    for _ in range(TIMEOUT_MS // 50):
        if page.evaluate(SLIDERS_JS)[index]["drawing"] != drawing:
            return
        page.wait_for_timeout(50)
    pytest.fail(message)


def run_axe(page, device):
    if not AXE.is_file():
        message = f"{AXE} is missing: run `make assets` (npm ci installs axe-core)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(f"!!! ACCESSIBILITY CHECK NOT RUN: {message} !!!")
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate("""async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
        .filter((v) => v.impact === "critical" || v.impact === "serious")
        .map((v) => `${v.impact} ${v.id} (${v.nodes.length}): ${v.help}; e.g. ${v.nodes[0].target.join(" ")}`)""")
    assert not violations, f"{device}: axe-core finds:\n  " + "\n  ".join(violations)
