"""The built pages as a reader meets them, on a phone (390 px) and a desktop (1280 px).

Run after `make strict-book`. Each page is opened once per device in Debian's
headless Chromium (offline: a request to another machine is refused); what the
checks need is measured then, and each test reads its part (the math, the
figures and the layout share that one visit). That visit is
tests/book/test_devices.py's of the same page on the same device, when it ran
first on the same worker (conftest.py groups them so): the layout is read as
the page loads, the solutions' titles are clicked at its end. What is measured
here is layout; dark mode changes only colours (assets/book.css: the scroll
shadows of tables and equations, the figures' cards), which
tests/book/test_devices_dark.py checks with axe-core on every page.

* a table that a cell prints keeps every row on one line (a row broken in two
  puts its numbers under the wrong headers): measured on the text itself, line
  by line, for every printed block with two or more lines laid out in columns
  (two or more spaces between words; two spaces after a sentence's full stop,
  as in "within the noise.  (corrected s.e. 84.6)", are a sentence's spacing);
  a table wider than the column scrolls sideways in its box, reachable with
  the keyboard, with the line under it that says so;
* a display equation wider than the column scrolls in its own box with that
  same line under it (the cue the figures use), and is not cut at the screen's
  edge;
* a solution opens when its title is clicked (on its words, not only on its
  chevron), and each exercise has one solution box;
* on a phone, a table of the text (not a cell's output) fits the screen: it
  reflows, a card per row;
* the landing page's "Next" link reads on at most two lines on a phone;
* multi-panel figures: on the phone every output figure that has a narrow
  layout (a ``<picture>``, _ext/narrow_figures.py) shows it, and every output
  figure's text is at least 8 px (its rendered width over its natural width,
  times 11.25 px: 9-point text at 90 dpi, the smallest the notebooks set,
  tests/harness/test_readable_notebooks.py); on the desktop the same figures
  show their wide PNG, and the link to the full-size figure opens the wide PNG
  on both;
* no math that the text did not mean, on every page of the table of contents
  once MathJax has typeset it: a stray `$` (money written "5k$", say) opens
  math that runs on through the sentence. No math span is a sentence (a TeX
  source without any TeX command that holds a run of 15 letters or more,
  spaces aside, or four words of three letters or more); the page's visible
  text outside math, code and printed output shows no TeX command (`\\lambda`),
  no `\\(`/`\\[` and no `$` opening math; MathJax reports no error, and an
  undefined macro (`\\alphad`) is one: the book's MathJax configuration drops
  the package that would draw it as red TeX instead. (The PDF's text is
  checked by tests/book/test_pdf.py.)
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
  // between words, but for two after a sentence's full stop), when it has two or more; each
  // must be drawn on one line.
  const COLUMNS = /\S {3,}\S|(?<=\S)(?<![A-Za-z)]\.) {2}(?=\S)/;
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
FIGURES_JS = """async () => {
  const images = [...document.querySelectorAll("article .cell_output img")]
    .filter((i) => !i.classList.contains("widget-fallback") && !i.closest(".jupyter-widgets, .widget-subarea"));
  await Promise.all(images.map((i) => i.complete ? null : new Promise((done) => {
    i.addEventListener("load", done, {once: true}); i.addEventListener("error", done, {once: true}); })));
  return images.map((i) => { const source = i.closest("picture") && i.closest("picture").querySelector("source");
    const link = i.closest("a.figure-full");
    return {src: new URL(i.getAttribute("src"), location.href).href, current: i.currentSrc,
            narrow: source ? new URL(source.getAttribute("srcset"), location.href).href : null,
            link: link ? new URL(link.getAttribute("href"), location.href).href : null,
            natural: i.naturalWidth, shown: i.getBoundingClientRect().width, alt: i.getAttribute("alt")}; });
}"""
MATH_JS = r"""async () => {
  if (!window.MathJax) return null;
  if (MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  const items = [...MathJax.startup.document.math].map((m) => m.math);
  const sentences = items.filter((tex) => {
    if (/\\[a-zA-Z]/.test(tex)) return false;
    const runs = (tex.replace(/\s+/g, "").match(/[A-Za-z]+/g) || []).map((w) => w.length);
    return Math.max(0, ...runs) >= 15 || (tex.match(/[A-Za-z]{3,}/g) || []).length >= 4;
  }).map((tex) => tex.replace(/\s+/g, " ").slice(0, 90));
  const skip = "mjx-container, code, pre, script, style, .highlight, .math, .cell_output, .cell_input";
  const walker = document.createTreeWalker(document.querySelector("article") || document.body, NodeFilter.SHOW_TEXT);
  const raw = [];
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.parentElement.closest(skip) || node.parentElement.getClientRects().length === 0) continue;
    if (/\\[a-zA-Z]{2,}|\\[(\[]|\$[^\s$]/.test(node.data)) raw.push(node.data.replace(/\s+/g, " ").trim().slice(0, 90));
  }
  const errors = [...document.querySelectorAll("mjx-merror")].map((e) => e.getAttribute("data-mjx-error") || e.textContent);
  return {count: items.length, sentences, raw, errors};
}"""
SMALLEST_TEXT_PX = 9 * 90 / 72  # 9-point figure text at 90 dpi
MIN_PHONE_TEXT_PX = 8
#: (page, device) -> what measure() found. tests/book/test_devices.py's visit of a page on the
#: same device (the same browser context) fills it: read() as the page loads, open_solutions()
#: at the end of that visit; conftest.py runs the tests below after it, on the same worker.
_measured: dict = {}


def measure(browser, base, path, context_name):
    """What the page shows as ``context_name``: test_devices.py's visit's findings, or a visit of its own."""
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
        found = read(page, context_name)
        found["solutions"] = open_solutions(page)
        found["problems"] = problems
    finally:
        context.close()
    _measured[key] = found
    return found


def read(page, context_name) -> dict:
    """What the checks read on a page as loaded (before any click): its layout, figures and math."""
    found = page.evaluate(MEASURE_JS)
    found["figures"] = page.evaluate(FIGURES_JS)
    found["tex"] = page.evaluate(MATH_JS) if context_name == "desktop" else None
    return found


SOLUTION_SHOWN_JS = """(b) => { const c = b.querySelector(":scope > section") || b.children[1];
                        return !!c && c.getClientRects().length > 0 && c.getBoundingClientRect().height > 5; }"""
OPEN_MS = 2_000


def open_solutions(page) -> list[dict]:
    """Click the words of each solution's title; report whether its content then shows."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
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
        try:  # shown at once, or within OPEN_MS (a transition)
            page.wait_for_function(SOLUTION_SHOWN_JS, arg=box.element_handle(), timeout=OPEN_MS)
            shown = True
        except PlaywrightTimeout:
            shown = False
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


def test_figures_show_the_layout_for_the_screen(seen, reading_page, device):
    """Narrow layouts and readable text on the phone, the wide PNG on the desktop, and each
    figure's full-size link to its wide PNG on both."""
    if not seen["figures"]:
        pytest.skip(f"{reading_page} shows no figure")
    problems = []
    for figure in seen["figures"]:
        name = figure["src"].rsplit("/", 1)[-1][:12]
        if figure["link"] != figure["src"]:
            problems.append(f"{name}: the full-size link opens {figure['link']}")
        if device == "desktop":
            if figure["current"] != figure["src"]:
                problems.append(f"{name}: at 1280 px the figure does not show its wide PNG")
            continue
        if figure["narrow"] and figure["current"] != figure["narrow"]:
            problems.append(f"{name}: the phone shows {figure['current']}, not the narrow layout")
        text = figure["shown"] / figure["natural"] * SMALLEST_TEXT_PX if figure["natural"] else 0
        if text < MIN_PHONE_TEXT_PX:
            problems.append(f"{name}: text at {text:.1f} px ({figure['natural']} px shown at {figure['shown']:.0f})")
    assert not problems, f"{reading_page}, {device}:\n  " + "\n  ".join(problems)


def test_no_accidental_math_on_the_page(browser, book_server, book, toc_page):
    if not (book.build / toc_page).is_file():
        pytest.fail(f"{toc_page} is listed in _toc.yml but not built: run `make strict-book`.")
    found = measure(browser, book_server, toc_page, "desktop")["tex"]
    if found is None:
        pytest.skip(f"{toc_page} loads no MathJax")
    assert not found["sentences"], (f"{toc_page}: math spans that read as sentences (a stray $?):\n  "
                                    + "\n  ".join(found["sentences"]))
    assert not found["raw"], f"{toc_page}: TeX shown as text outside math:\n  " + "\n  ".join(found["raw"])
    assert not found["errors"], f"{toc_page}: MathJax errors (an undefined macro?):\n  " + "\n  ".join(found["errors"])


# A formula with a macro that does not exist, typeset on a built page as the book's
# MathJax configuration (_config.yml, mathjax3_config) typesets every formula.
UNDEFINED_MACRO_JS = r"""async () => {
  await MathJax.startup.promise;
  const p = document.createElement("p");
  p.textContent = "\\(\\alphad + 1\\)";
  document.querySelector("article").append(p);
  await MathJax.typesetPromise([p]);
  const errors = [...p.querySelectorAll("mjx-merror")].map((e) => e.getAttribute("data-mjx-error"));
  p.remove();
  return errors;
}"""


def test_an_undefined_macro_is_an_error(browser, book_server, book):
    """MathJax's default (its noundefined package) draws an undefined macro as red TeX, which
    no check above sees; the book drops that package, so a typo is an <mjx-merror>."""
    path = book.chapter_pages()[0]
    page = browser.new_page()
    try:
        page.goto(f"{book_server}/{path}", wait_until="load")
        errors = page.evaluate(UNDEFINED_MACRO_JS)
    finally:
        page.close()
    assert errors == ["Undefined control sequence \\alphad"], (
        f"{path}: \\alphad typeset as {errors}, not as MathJax's error for an undefined macro "
        "(is noundefined dropped in _config.yml's mathjax3_config?)")
