"""Nothing on a chapter page is cut at its right edge (checked by
tests/book/test_devices.py's test_nothing_cut, in the same visit as its other checks).

Every chapter page, as a phone (390x844) and as a desktop (1280x900), has every
solution and every folded code cell opened, after MathJax has typeset the page.
One script then measures every inline and
display formula, every code and output block (printed text, tables, DataFrames)
of the article:

* on the desktop, none may be wider than the box that shows it: no formula, no
  line of code and no printed line scrolls sideways or is clipped (a reader
  sees the numbers the prose quotes without scrolling);
* on the phone, none may reach past the screen's edge or be clipped by a box
  around it (an exercise's, a solution's); one that is wider than the screen
  may scroll sideways in its own box, but only with the line under it that
  says so ("Scroll sideways to see the whole ... ->", assets/scroll-cues.js,
  assets/figures.js), shown;
* a code line that wraps on the phone continues indented past its own
  indentation (a hanging indent, assets/book.css), or past half the box for a
  line indented further: a wrapped line of a loop's body must not start at
  column 0, where it would read as top-level code.

Figures (their own scrolling box, tests/book/test_devices.py) and the widgets
are not measured here.
"""

from __future__ import annotations

# Opens what a reader can open (solutions, folded cells), waits for MathJax and for the scroll
# cues to be measured again, then returns every element that is cut or scrolls.
OVERFLOW_JS = r"""async () => {
  document.querySelectorAll("article .toggle-hidden").forEach((box) => box.classList.remove("toggle-hidden"));
  document.querySelectorAll("article details").forEach((d) => { d.open = true; });
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  window.dispatchEvent(new Event("resize"));  // the cues are measured again on a resize
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const article = document.querySelector("article.bd-article");
  const screen = document.documentElement.clientWidth;
  const shown = (e) => e.offsetParent !== null || getComputedStyle(e).position === "fixed";
  const isInline = (e) => getComputedStyle(e).display.startsWith("inline");
  // The line that says a box scrolls, shown: the next element after the box, or for a formula
  // in a sentence, after its paragraph or at the end of its list item.
  const isHint = (e) => !!e && e.matches(".scroll-hint, .figure-scroll-hint") && shown(e);
  const cued = (box) => {
    let at = isInline(box) ? box.parentElement.closest("p, li, dd, dt, td, th, div") : box;
    if (at !== box && isHint(at.lastElementChild)) return true;
    while (at && at !== article && !at.nextElementSibling) at = at.parentElement;
    return isHint(at && at.nextElementSibling);
  };
  const what = (e) => (e.matches("mjx-container") ? (e.getAttribute("display") ? "display formula" : "inline formula")
    : e.closest(".cell_input") ? "code" : e.closest(".cell_output") ? "output" : "code");
  const label = (e) => {
    const text = e.matches("mjx-container") ? ((e.querySelector("mjx-assistive-mml math") || {}).textContent || e.textContent)
      : e.textContent;
    const where = e.closest("div.exercise, div.solution, section[id]");
    const title = where && (where.querySelector(".admonition-title, h1, h2, h3, h4") || {}).textContent || "";
    return `${what(e)} in "${title.trim().slice(0, 40)}": ${text.replace(/\s+/g, " ").trim().slice(0, 50)}`;
  };
  const targets = [...article.querySelectorAll(
    "mjx-container, .cell_input pre, div.highlight pre, .cell_output pre, .cell_output .output, .cell_output table")]
    .filter((e) => shown(e) && !e.closest(".mlr-widget, .mlr-live, .jupyter-widgets"));
  const found = [];
  for (const e of targets) {
    const r = e.getBoundingClientRect();
    if (r.width === 0) continue;
    // Its own content wider than its box, when the box scrolls or clips it (a glyph's overhang
    // past a box that shows it is not cut).
    const own = getComputedStyle(e).overflowX === "visible" ? 0 : e.scrollWidth - e.clientWidth;
    if (own > 1) {
      found.push({kind: "scrolls", text: label(e), width: e.scrollWidth, box: e.clientWidth, cued: cued(e)});
      continue;
    }
    // Clipped or scrolled by a box around it (up to the page), or past the screen's edge.
    let right = screen, clipper = null;
    for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX !== "visible" || /paint|content|strict/.test(style.contain)) {
        const box = a.getBoundingClientRect();
        if (box.width <= 2) { right = null; break; }  // for screen readers only (a table's header on a phone)
        const edge = box.left + a.clientLeft + a.clientWidth;
        if (edge < right) { right = edge; clipper = a; }
      }
    }
    if (right === null) continue;
    if (r.right > right + 1 || r.left < -1) {
      const scroller = clipper && ["auto", "scroll"].includes(getComputedStyle(clipper).overflowX) ? clipper : null;
      found.push({kind: scroller ? "scrolls" : "cut", text: label(e), width: Math.round(r.width),
                  box: Math.round(right - Math.max(r.left, 0)), cued: scroller ? cued(scroller) : false});
    }
  }
  // Wrapped code lines (a line of code taller than one line) and where their continuation starts.
  const flat = [];
  for (const pre of article.querySelectorAll(".cell_input pre, div.highlight pre")) {
    if (!shown(pre) || pre.closest(".cell_output")) continue;
    const style = getComputedStyle(pre);
    if (!style.whiteSpace.startsWith("pre-wrap") && style.whiteSpace !== "break-spaces") continue;
    const lines = pre.querySelectorAll(":scope > .code-line");
    const lineHeight = parseFloat(style.lineHeight) || 1.4 * parseFloat(style.fontSize);
    const text = pre.textContent.split("\n");
    if (!lines.length) {
      // Without a box per line, a wrapped line cannot be indented: count the wrapped ones.
      const range = document.createRange();
      range.selectNodeContents(pre);
      const height = pre.scrollHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
      if (height > (text.filter((t, i) => i < text.length - 1 || t).length + 0.5) * lineHeight)
        flat.push(`${Math.round(height / lineHeight)} lines drawn for ${text.length} in: ${pre.textContent.trim().slice(0, 50)}`);
      continue;
    }
    for (const line of lines) {
      const rects = [...line.getClientRects()];
      if (rects.length === 0) continue;
      const lineRect = line.getBoundingClientRect();
      if (lineRect.height < 1.5 * lineHeight) continue;  // not wrapped
      const range = document.createRange();
      range.selectNodeContents(line);
      const boxes = [...range.getClientRects()].filter((b) => b.width > 0);
      const first = boxes[0], indent = line.textContent.match(/^ */)[0].length;
      const charWidth = first ? first.width / Math.max(1, (range.toString().split("\n")[0] || " ").length) : 8;
      const lineStart = pre.getBoundingClientRect().left + parseFloat(style.paddingLeft) + pre.clientLeft;
      const later = boxes.filter((b) => b.top > first.top + lineHeight / 2);
      const leftmost = Math.min(...later.map((b) => b.left));
      const half = (pre.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)) / 2;
      if (later.length && leftmost <= lineStart + Math.min(indent * charWidth + 1, half - 2))
        flat.push(`continues at ${Math.round(leftmost - lineStart)} px, indented ${indent} characters: ${line.textContent.trim().slice(0, 50)}`);
    }
  }
  return {screen, found, flat, page: document.documentElement.scrollWidth};
}"""


def check_overflow(result: dict, device: str, page_path: str) -> None:
    """Fail with what OVERFLOW_JS found on one page, as the module's docstring asks."""
    describe = lambda f: f"{f['text']} ({f['width']} px in {f['box']} px)"  # noqa: E731
    cut = [describe(f) for f in result["found"] if f["kind"] == "cut"]
    assert not cut, f"{device}, {page_path}: {len(cut)} cut at the edge of their box:\n  " + "\n  ".join(cut)
    if device == "desktop":
        scrolls = [describe(f) for f in result["found"] if f["kind"] == "scrolls"]
        assert not scrolls, (f"desktop, {page_path}: {len(scrolls)} wider than their box (they scroll sideways):\n  "
                             + "\n  ".join(scrolls))
    else:
        uncued = [describe(f) for f in result["found"] if f["kind"] == "scrolls" and not f["cued"]]
        assert not uncued, (f"phone, {page_path}: {len(uncued)} scroll sideways without the line that says so:\n  "
                            + "\n  ".join(uncued))
        assert result["page"] <= result["screen"] + 1, \
            f"phone, {page_path}: the page is {result['page']} px wide on a {result['screen']} px screen"
        assert not result["flat"], (f"phone, {page_path}: {len(result['flat'])} wrapped code lines continue at or "
                                    "left of their own indentation:\n  " + "\n  ".join(result["flat"]))
