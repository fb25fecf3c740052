"""The built pages as a reader meets them, on a phone (390 px) and a desktop (1280 px).

Run after `make strict-book`. Each page is opened once per device in Debian's
headless Chromium (offline: a request to another machine is refused); what the
checks need is measured then, and each test reads its part. What is measured
here is layout; dark mode changes only colours (assets/book.css: the scroll
shadows of tables and equations, the figures' cards), which
tests/book/test_devices_dark.py checks with axe-core on every page.

* a table that a cell prints keeps every row on one line (a row broken in two
  puts its numbers under the wrong headers): measured on the text itself, line
  by line, for every printed block with two or more lines laid out in columns;
  a table wider than the column scrolls sideways in its box, reachable with
  the keyboard, with the line under it that says so;
* a display equation wider than the column scrolls in its own box with that
  same line under it (the cue the figures use), and is not cut at the screen's
  edge;
* a solution opens when its title is clicked (on its words, not only on its
  chevron), and each exercise has one solution box;
* on a phone, a table of the text (not a cell's output) fits the screen: it
  reflows, a card per row;
* the landing page's "Next" link reads on at most two lines on a phone.
"""

from __future__ import annotations

import pytest

CONTEXTS = {
    "phone": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2),
    "desktop": dict(viewport={"width": 1280, "height": 900}),
}
TIMEOUT_MS = 20_000

MEASURE_JS = r"""async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
  const shown = (e) => e.getClientRects().length > 0 && e.offsetParent !== null;
  const hintAfter = (e) => { const h = e.nextElementSibling;
    return !!h && h.classList.contains("scroll-hint") && shown(h) && /Scroll sideways/.test(h.textContent); };
  const width = document.documentElement.clientWidth;
  // Printed tables: the lines of a printed block laid out in columns (two or more spaces
  // between words), when it has two or more; each must be drawn on one line.
  const COLUMNS = /\S {2,}\S/;
  const tables = [];
  for (const pre of document.querySelectorAll("article .cell_output .output:not(.traceback) pre")) {
    if (!shown(pre)) continue;
    const nodes = [], walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    let text = "";
    while (walker.nextNode()) { nodes.push([walker.currentNode, text.length]); text += walker.currentNode.data; }
    const at = (offset) => { for (let i = nodes.length - 1; i >= 0; i--) if (nodes[i][1] <= offset)
      return [nodes[i][0], Math.min(offset - nodes[i][1], nodes[i][0].data.length)]; };
    const lines = text.split("\n"), rows = [];
    let start = 0;
    for (const line of lines) {
      if (COLUMNS.test(line)) {
        const range = document.createRange(), [a, ao] = at(start), [b, bo] = at(start + line.length);
        range.setStart(a, ao); range.setEnd(b, bo);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        rows.push({line: line.slice(0, 60), lines: tops.size});
      }
      start += line.length + 1;
    }
    if (rows.length < 2) continue;
    const r = pre.getBoundingClientRect();
    tables.push({first: lines[0].slice(0, 50), broken: rows.filter((x) => x.lines > 1).map((x) => x.line),
                 scrolls: pre.scrollWidth > pre.clientWidth + 1, hint: hintAfter(pre), focusable: pre.tabIndex >= 0,
                 left: r.left, right: r.right});
  }
  const math = [...document.querySelectorAll("article mjx-container[display=true]")].filter(shown).map((m) => {
    const r = m.getBoundingClientRect();
    return {tex: (m.querySelector("mjx-assistive-mml") || m).textContent.slice(0, 40),
            scrolls: m.scrollWidth > m.clientWidth + 1, hint: hintAfter(m) || hintAfter(m.closest("div.math") || m), overflow: getComputedStyle(m).overflowX,
            left: r.left, right: r.right};
  });
  const textTables = [...document.querySelectorAll("article table")].filter((t) => !t.closest(".cell_output") && shown(t))
    .map((t) => { const box = t.parentElement, r = t.getBoundingClientRect();
      return {head: t.querySelector("th") ? t.querySelector("th").textContent.trim() : "", right: r.right,
              scrolls: box.scrollWidth > box.clientWidth + 1 || t.scrollWidth > t.clientWidth + 1}; });
  const next = document.querySelector(".prev-next-area a.right-next .prev-next-title");
  const nextLines = next ? Math.round(next.getBoundingClientRect().height / parseFloat(getComputedStyle(next).lineHeight)) : null;
  return {width, tables, math, textTables, nextLines, errors: document.querySelectorAll("mjx-merror").length};
}"""
_measured: dict = {}


def measure(browser, base, path, context_name):
    key = (path, context_name)
    if key in _measured:
        return _measured[key]
    problems = []
    context = browser.new_context(service_workers="block", **CONTEXTS[context_name])
    context.set_default_timeout(TIMEOUT_MS)

    def route(r):
        if r.request.url.startswith(base + "/"):
            r.continue_()
        else:
            problems.append(f"request to another machine (blocked): {r.request.url}")
            r.abort()

    context.route("**/*", route)
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        page.goto(f"{base}/{path}", wait_until="load")
        found = page.evaluate(MEASURE_JS)
        found["solutions"] = open_solutions(page)
        found["problems"] = problems
    finally:
        context.close()
    _measured[key] = found
    return found


def open_solutions(page) -> list[dict]:
    """Click the words of each solution's title; report whether its content then shows."""
    results = []
    titles = page.locator("article div.solution > .admonition-title")
    for i in range(titles.count()):
        title = titles.nth(i)
        box = page.locator("article div.solution").nth(i)
        name = " ".join(title.inner_text().split())[:70]
        title.scroll_into_view_if_needed()
        words = title.bounding_box()
        # A point on the title's words: a quarter of the way in, half-way down (the chevron is at the right end).
        page.mouse.click(words["x"] + min(words["width"] * 0.25, 160), words["y"] + words["height"] / 2)
        page.wait_for_timeout(150)
        shown = box.evaluate("""(b) => { const c = b.querySelector(":scope > section") || b.children[1];
                                          return !!c && c.getClientRects().length > 0 && c.getBoundingClientRect().height > 5; }""")
        results.append({"title": name, "opened": shown, "url": page.url})
    return results


def pages():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    import bookfiles

    return [p for p in bookfiles.toc_pages(Path(__file__).resolve().parents[2]) if p.startswith("chapters/")]


CHAPTERS = pages()


@pytest.fixture(params=CHAPTERS, ids=[p.split("/")[1] + "/" + p.rsplit("/", 1)[-1].removesuffix(".html") for p in CHAPTERS],
                scope="module")
def reading_page(request, book):
    if not (book.build / request.param).is_file():
        pytest.fail(f"{request.param} is listed in _toc.yml but not built: run `make strict-book`.")
    return request.param


@pytest.fixture(params=list(CONTEXTS), scope="module")
def device(request):
    return request.param


@pytest.fixture
def seen(browser, book_server, reading_page, device):
    return measure(browser, book_server, reading_page, device)


def test_printed_tables_keep_their_rows_whole(seen, reading_page, device):
    broken = [f"{t['first']!r}: {row!r}" for t in seen["tables"] for row in t["broken"]]
    assert not broken, f"{device}, {reading_page}: printed table rows broken over two lines:\n  " + "\n  ".join(broken[:15])
    unmarked = [f"{t['first']!r} (hint {t['hint']}, focusable {t['focusable']})" for t in seen["tables"]
                if t["scrolls"] and not (t["hint"] and t["focusable"])]
    assert not unmarked, (f"{device}, {reading_page}: printed tables that scroll sideways without the line that says so "
                          "(or out of the keyboard's reach):\n  " + "\n  ".join(unmarked))
    cut = [t["first"] for t in seen["tables"] if t["right"] > seen["width"] + 0.5]
    assert not cut, f"{device}, {reading_page}: printed tables cut at the screen's edge: {cut}"


def test_wide_equations_scroll_with_the_figures_cue(seen, reading_page, device):
    cut = [f"{m['tex']!r}: {m['left']:.0f}..{m['right']:.0f} px" for m in seen["math"]
           if m["right"] > seen["width"] + 0.5 or m["left"] < -0.5]
    assert not cut, f"{device}, {reading_page}: display math cut at the screen's edge:\n  " + "\n  ".join(cut)
    unmarked = [m["tex"] for m in seen["math"] if m["scrolls"] and not (m["hint"] and m["overflow"] in ("auto", "scroll"))]
    assert not unmarked, (f"{device}, {reading_page}: display math wider than the column without the line under it "
                          "that says it scrolls:\n  " + "\n  ".join(unmarked))


def test_a_solution_opens_from_its_title(seen, reading_page, device):
    shut = [s["title"] for s in seen["solutions"] if not s["opened"]]
    assert not shut, f"{device}, {reading_page}: solutions that a click on their title leaves shut:\n  " + "\n  ".join(shut)
    assert not seen["problems"], f"{device}, {reading_page}:\n  " + "\n  ".join(seen["problems"])


def test_each_exercise_has_one_solution_box(seen, reading_page, device):
    if device != "desktop":
        pytest.skip("the same boxes on every device")
    titles = [s["title"] for s in seen["solutions"]]
    twice = sorted({t for t in titles if titles.count(t) > 1})
    assert not twice, f"{reading_page}: exercises with two solution boxes: {twice}"


def test_text_tables_fit_a_phone(seen, reading_page, device):
    if device != "phone":
        pytest.skip("a desktop has room for the tables")
    wide = [f"{t['head']!r}: right edge {t['right']:.0f} px, scrolls {t['scrolls']}" for t in seen["textTables"]
            if t["scrolls"] or t["right"] > seen["width"] + 0.5]
    assert not wide, f"{device}, {reading_page}: tables of the text wider than the screen:\n  " + "\n  ".join(wide)


@pytest.mark.parametrize("mode", ["phone"])
def test_the_landing_pages_next_link_reads_on_two_lines(browser, book_server, book, mode):
    found = measure(browser, book_server, book.toc_pages()[0], mode)
    assert found["nextLines"] is not None, "the landing page has no link to the next page"
    assert found["nextLines"] <= 2, f"{mode}: the landing page's Next link takes {found['nextLines']} lines"
