"""The built book by keyboard and screen reader.

Every page of _toc.yml is opened in headless Chromium on the desktop (1280x900):
in tests/book/test_devices.py's desktop visit of the page, before its first
click, when that ran first on the same worker (conftest.py groups them so).
Once MathJax has typeset it:

* no formula is a Tab stop (MathJax's menu would make each one a stop: 74 on
  chapter 8, before the keyboard reaches a widget) but one wider than the
  screen, which scrolls in its own box (assets/a11y.js); every formula keeps the
  hidden MathML that screen readers speak;
* every element of the page that the keyboard reaches (links, buttons, fold
  toggles, controls, boxes that scroll), focused as by the keyboard, shows
  a focus ring (an outline or a box shadow at least 2 px wide) and has an
  accessible name;
* every toggle that opens something names what it opens: no "Toggle hidden
  content", and a solution's toggle names its exercise ("Show solution to
  Exercise 3.5", "Hide ..." once open);
* on the desktop the sidebar opens at its top: the book's title and the
  search box are in view (the theme would scroll them away to show the
  current page's entry a quarter of the way down).
"""

from __future__ import annotations

import re

import pytest

MIN_RING_PX = 2

MATH_JS = """async () => {
  if (!window.MathJax) return null;
  await MathJax.startup.promise;
  const all = [...document.querySelectorAll("mjx-container")];
  return {count: all.length,
          // A formula wider than the screen scrolls in its own box: the keyboard must reach it.
          stops: all.filter((m) => m.scrollWidth <= m.clientWidth + 1)
                    .filter((m) => m.tabIndex >= 0 || m.querySelector("[tabindex]:not([tabindex='-1'])"))
                    .map((m) => m.textContent.slice(0, 40)),
          silent: all.filter((m) => !m.querySelector("mjx-assistive-mml math")).map((m) => m.textContent.slice(0, 40))};
}"""
# Focus each element of the text the keyboard reaches, as the keyboard does (the
# page has had no click, so focus() shows :focus-visible), and read its ring and name.
FOCUS_JS = r"""async () => {
  if (window.MathJax && MathJax.startup) await MathJax.startup.promise;
  const px = (v) => parseFloat(v) || 0;
  const ring = (cs) => {
    let e = cs.outlineStyle !== "none" ? px(cs.outlineWidth) : 0;
    if (cs.boxShadow && cs.boxShadow !== "none")
      for (const s of cs.boxShadow.split(/,(?![^(]*\))/)) {
        const n = (s.replace(/rgba?\([^)]*\)/g, "").match(/-?[\d.]+px/g) || []).map(px);
        e = Math.max(e, (n[2] || 0) / 2 + (n[3] || 0));
      }
    return e;
  };
  const name = (el) => {
    if (el.getAttribute("aria-label")) return el.getAttribute("aria-label").trim();
    if (el.getAttribute("aria-labelledby"))
      return el.getAttribute("aria-labelledby").split(/\s+/).map((id) => document.getElementById(id))
        .filter(Boolean).map((e) => e.textContent).join(" ").replace(/\s+/g, " ").trim();
    if (el.labels && el.labels.length) return el.labels[0].textContent.replace(/\s+/g, " ").trim();
    const img = el.querySelector("img[alt]");
    return (el.textContent.replace(/\s+/g, " ").trim() || (img && img.alt) || el.getAttribute("title") || "").trim();
  };
  const selector = "a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex='-1'])";
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    if (el.offsetParent === null || el.disabled || el.closest("[inert], [aria-hidden=true]")) continue;
    if (el.getBoundingClientRect().width === 0) continue;
    el.focus({preventScroll: true});
    if (document.activeElement !== el) continue;
    const cs = getComputedStyle(el);
    const solution = el.closest("div.solution");
    out.push({tag: el.tagName.toLowerCase(), cls: el.className && el.className.baseVal === undefined ? el.className : "",
              name: name(el), ring: ring(cs),
              toggle: el.matches("summary, [aria-expanded]"), expanded: el.getAttribute("aria-expanded"),
              solution: solution && el.matches(".toggle-button")
                ? solution.querySelector(".admonition-title").textContent.replace(/\s+/g, " ").trim() : null});
  }
  document.activeElement.blur();
  return out;
}"""


def open_page(browser, base, path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{base}/{path}", wait_until="load")
    page.wait_for_timeout(200)  # the theme and assets/a11y.js name their parts after load
    return page


#: page -> what one visit found, for the module's two tests. tests/book/test_devices.py's
#: desktop visit of the page (the same 1280x900 screen, no click before) fills it with
#: read_keys(); conftest.py runs the two tests after it, on the same worker.
_SEEN: dict[str, dict] = {}


def read_keys(page, close: bool = False) -> dict:
    """On a page that has had no click: its formulas (MATH_JS), then every element the keyboard
    reaches (FOCUS_JS), then Enter on the first solution's toggle (with ``close``, Enter again
    closes it, for the visit's later checks)."""
    math = page.evaluate(MATH_JS)
    focused = page.evaluate(FOCUS_JS)
    # Open the first solution: its toggle's name follows.
    opened = None
    if any(f["solution"] for f in focused):
        toggle = page.locator("div.solution .toggle-button").first
        toggle.focus()
        page.keyboard.press("Enter")
        page.wait_for_timeout(100)
        opened = page.evaluate("""() => { const b = document.querySelector("div.solution .toggle-button");
          return {name: b.getAttribute("aria-label"), expanded: b.getAttribute("aria-expanded"),
                  title: b.closest("div.solution").querySelector(".admonition-title").textContent.trim(),
                  shown: !b.closest("div.solution").classList.contains("toggle-hidden")}; }""")
        if close and opened["shown"]:
            toggle.focus()
            page.keyboard.press("Enter")
            page.wait_for_function("""() => document.querySelector("div.solution .toggle-button")
                .closest("div.solution").classList.contains("toggle-hidden")""")
            page.evaluate("() => document.activeElement.blur()")
    return {"math": math, "focused": focused, "opened": opened}


def keyboard_visit(browser, base, book, path) -> dict:
    """One visit of a page for both tests (read_keys), unless test_devices.py's made it."""
    if path in _SEEN:
        return _SEEN[path]
    if not (book.build / path).is_file():
        pytest.fail(f"{path} is listed in _toc.yml but not built: run `make strict-book`.")
    page = open_page(browser, base, path)
    try:
        seen = read_keys(page)
    finally:
        page.close()
    _SEEN[path] = seen
    return seen


def test_formulas_are_no_tab_stops(browser, book_server, book, toc_page):
    math = keyboard_visit(browser, book_server, book, toc_page)["math"]
    if math is None or not math["count"]:
        pytest.skip(f"{toc_page} has no formula")
    assert not math["stops"], (f"{toc_page}: {len(math['stops'])} of {math['count']} formulas are Tab stops, e.g. "
                               + ", ".join(repr(t) for t in math["stops"][:5]))
    assert not math["silent"], (f"{toc_page}: {len(math['silent'])} formulas without the MathML a screen reader "
                                "speaks, e.g. " + ", ".join(repr(t) for t in math["silent"][:5]))


def solution_name(title: str, expanded: str | None) -> re.Pattern:
    """What a solution's toggle must say, from its box's title ("Solution to Exercise 3.5 (...)")."""
    number = re.search(r"Exercise\s+([\d.]+)", title)
    assert number, f"a solution titled {title!r} names no exercise"
    verb = "Hide" if expanded == "true" else "Show"
    return re.compile(rf"^{verb} solution to Exercise {re.escape(number.group(1))}\b")


def test_focus_rings_and_names(browser, book_server, book, toc_page):
    seen = keyboard_visit(browser, book_server, book, toc_page)
    focused, opened = seen["focused"], seen["opened"]
    problems = []
    for f in focused:
        what = f"{f['tag']}{'.' + f['cls'].split()[0] if f['cls'].strip() else ''} {f['name'][:50]!r}"
        if f["ring"] < MIN_RING_PX:
            problems.append(f"{what}: focus ring {f['ring']:.1f} px")
        if not f["name"]:
            problems.append(f"{what}: no accessible name")
        if f["toggle"] and re.search(r"toggle hidden content", f["name"], re.I):
            problems.append(f"{what}: a toggle named for no content")
        if f["solution"] is not None and not solution_name(f["solution"], f["expanded"]).match(f["name"]):
            problems.append(f"{what}: does not name the solution it opens ({f['solution'][:40]!r})")
    assert not problems, f"{toc_page}: {len(problems)} of {len(focused)} focusable elements:\n  " + "\n  ".join(problems[:25])
    if opened is not None:
        assert opened["shown"] and opened["expanded"] == "true", f"{toc_page}: Enter on a solution's toggle did not open it"
        assert solution_name(opened["title"], "true").match(opened["name"] or ""), \
            f"{toc_page}: the open solution's toggle is named {opened['name']!r}"


SIDEBAR_JS = """() => { const s = document.querySelector("div.bd-sidebar-primary"), box = s.getBoundingClientRect();
  const seen = (e) => { const r = e && e.getBoundingClientRect(); return !!r && r.top >= box.top - 1 && r.bottom <= box.bottom + 1; };
  const active = [...document.querySelectorAll(".bd-docs-nav .active > a")].pop();
  return {top: s.scrollTop, title: seen(s.querySelector(".navbar-brand")), search: seen(s.querySelector(".search-button-field, form.bd-search")),
          active: active ? seen(active) : true, entry: active ? active.textContent.trim() : null}; }"""


def test_the_sidebar_opens_at_its_top(browser, book_server, book):
    """The last chapter's page: the theme would scroll its entry a quarter of the way down."""
    path = book.chapter_pages()[-1]
    page = open_page(browser, book_server, path)
    try:
        page.wait_for_timeout(300)
        seen = page.evaluate(SIDEBAR_JS)
    finally:
        page.close()
    assert seen["title"] and seen["search"] and seen["top"] == 0, \
        f"{path}: the sidebar opens scrolled down {seen['top']} px, its title or search out of view: {seen}"
