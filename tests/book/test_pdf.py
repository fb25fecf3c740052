"""The printed book: the print stylesheet and the PDF that `make pdf` writes.

Run after `make strict-book` and `make pdf` (tools/pdf.py prints every page of
_toc.yml with Chromium and joins them with pypdf into
_build/pdf/feature-engineering-refined.pdf, copied into _build/html/ for the
landing page's link). The PDF's text is read once per PDF (kept beside it),
and each page is opened printed once, for every check below that looks at it.
Checks:

* the PDF is there, newer than the pages it was printed from, and the copy the
  landing page links to is the same file;
* every chapter's title, with its number ("7. Standard normalization"), is in
  the PDF's text and is a bookmark (a chapter's sections are bookmarks under
  it);
* printed output is readable: printed at the paper's width, no output text
  (printed lines, a table's cells) is under 7 pt, and none is wider than the
  paper (a wide table's rows wrap instead, book.css);
* no code line is cut: printed at the paper's width, no code block scrolls
  sideways, and every line of every code block the printed page shows is in
  the PDF's text (spaces and line breaks aside: long lines wrap);
* every page carries its number; page 1 is the title page and the contents
  follow it, giving each page of the book with the number of the page it
  starts on; printed captions are black, in the text's weight;
* each page's solutions are printed together at its end, after a heading
  "Solutions", open, without the fold's chevron, and without the grading
  markers (### BEGIN/END SOLUTION); no printed code box is empty;
* no math the text did not mean: a stray `$` (money written "5k$", say) opens
  math that runs on through the sentence, in italics, without spaces, off the
  page. So no run of 24 lower-case letters or more (words glued together, as
  italic math prints a sentence), and no TeX command outside `$...$` or a
  string in code (the built pages' check is tests/book/test_reading.py's);
* each widget is printed as its picture, followed by one line giving the
  address of the page in the online book where it is live; the controls and
  the theme's duplicated title and contents list are not printed.
"""

from __future__ import annotations

import functools
import html
import json
import os
import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NAME = "feature-engineering-refined.pdf"
PDF = ROOT / "_build" / "pdf" / NAME
TEXT_CACHE = PDF.with_name(f"{NAME}.text.json")  # page_texts, read once per PDF
# A4 less tools/pdf.py's 14 mm side margins, in CSS pixels (96 per inch).
PRINT_WIDTH_PX = round((210 - 2 * 14) / 25.4 * 96)
H1 = re.compile(r"<h1>(.*?)</h1>", re.S)

PRINTED_CODE_JS = """() => {
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  const blocks = [...document.querySelectorAll("article pre")].filter(shown);
  return {
    cut: blocks.filter((p) => p.scrollWidth > p.clientWidth + 1)
      .map((p) => `${p.scrollWidth} px in ${p.clientWidth} px: ${p.textContent.trim().slice(0, 60)}`),
    code: blocks.filter((p) => p.closest(".cell_input")).map((p) => p.textContent),
  };
}"""
MIN_OUTPUT_PT = 7
PRINTED_OUTPUT_JS = """() => {
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll("article .cell_output pre, article .cell_output td, article .cell_output th")]
    .filter((e) => shown(e) && e.textContent.trim()).map((e) => ({
      pt: parseFloat(getComputedStyle(e).fontSize) * 0.75, right: e.getBoundingClientRect().right, width,
      scrolls: e.scrollWidth > e.clientWidth + 1, text: e.textContent.trim().slice(0, 50)}));
}"""
PRINTED_WIDGETS_JS = """() => {
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  return {
    views: document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]').length,
    pictures: [...document.querySelectorAll("img.widget-fallback")].filter(shown).length,
    notes: [...document.querySelectorAll(".widget-print-note")].filter(shown).map((n) => n.textContent.trim()),
    controls: [...document.querySelectorAll(
        ".widget-subarea, .mlr-live, .bd-header-article, .bd-sidebar-primary, .bd-sidebar-secondary, " +
        ".prev-next-area, #jb-print-docs-body, .theme-switch-button, .search-button-field")]
      .filter(shown).map((e) => e.className.toString().slice(0, 40)),
    title: (() => { const h = document.querySelector("article.bd-article h1");
                    return h && shown(h) ? h.textContent.replace(/#$/, "").trim() : null; })(),
  };
}"""


def squeeze(text: str) -> str:
    """The text without spaces and line breaks, ligatures ("ﬁ") spelled out."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


@pytest.fixture(scope="module")
def pdf(book):
    if not PDF.is_file():
        pytest.fail(f"{PDF} is missing: run `make pdf` (after `make strict-book`).")
    stale = [p for p in book.toc_pages() if (book.build / p).stat().st_mtime > PDF.stat().st_mtime]
    if stale:
        pytest.fail(f"{PDF} is older than {stale[:3]}: run `make pdf` again.")
    from pypdf import PdfReader

    return PdfReader(PDF)


@pytest.fixture(scope="module")
def page_texts(pdf) -> list[str]:
    """The text of each page of the PDF, in order. Reading it takes about 20 s, so it is read
    once per PDF: kept in TEXT_CACHE beside the PDF, with the PDF's size and modification time
    (a new PDF is read again)."""
    stat = PDF.stat()
    key = {"pdf": NAME, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    try:
        cached = json.loads(TEXT_CACHE.read_text(encoding="utf-8"))
        if cached["key"] == key:
            return cached["texts"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    texts = [page.extract_text() or "" for page in pdf.pages]
    partial = TEXT_CACHE.with_name(f"{TEXT_CACHE.name}.{os.getpid()}")
    partial.write_text(json.dumps({"key": key, "texts": texts}), encoding="utf-8")
    partial.replace(TEXT_CACHE)  # whole or not at all, when two workers write it
    return texts


@pytest.fixture(scope="module")
def pdf_text(page_texts) -> str:
    """The PDF's text with every space and line break removed."""
    return squeeze("".join(page_texts))


@pytest.fixture(scope="module")
def printed(browser, book_server, book) -> dict[str, dict]:
    """Every page of the table of contents opened once as printed (print media, the paper's
    width), with what each test below measures on it: page -> {"widgets", "outputs",
    "captions", "code", "solutions"} (the chapter pages' measures only on chapter pages).
    The measures that only read the page come first, as on a freshly loaded page; the
    solutions' last, as bookGatherSolutions moves the solutions to the page's end."""
    chapters = set(book.chapter_pages())
    context = browser.new_context(viewport={"width": PRINT_WIDTH_PX, "height": 1000})
    found = {}
    try:
        page = context.new_page()
        page.emulate_media(media="print")
        for path in book.toc_pages():
            page.goto(f"{book_server}/{path}", wait_until="load")
            seen = {}
            if path in chapters:
                seen["widgets"] = page.evaluate(PRINTED_WIDGETS_JS)
                seen["outputs"] = page.evaluate(PRINTED_OUTPUT_JS)
                seen["captions"] = page.evaluate(CAPTIONS_JS)
            seen["code"] = page.evaluate(PRINTED_CODE_JS)
            seen["solutions"] = page.evaluate(PRINTED_SOLUTIONS_JS)
            found[path] = seen
    finally:
        context.close()
    return found


@functools.lru_cache(maxsize=None)
def page_title(build: Path, page: str) -> str:
    """The page's heading as the HTML gives it, section number included ("7. Standard normalization")."""
    # The article's heading (the one with a link to itself), not the theme's print-only copy.
    match = [h for h in H1.findall((build / page).read_text(encoding="utf-8")) if "headerlink" in h]
    assert match, f"{page} has no <h1>"
    text = re.sub(r"<a class=\"headerlink\".*?</a>", "", match[0], flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", text)).split())


def test_the_landing_page_links_to_the_pdf(book, pdf):
    links = [url for tag, _attr, url, _attrs in book.parse("intro.html").refs if tag == "a" and url.endswith(".pdf")]
    assert NAME in links, f"intro.html links to no {NAME} (links to PDFs: {links})"
    copy = book.build / NAME
    assert copy.is_file() and copy.read_bytes() == PDF.read_bytes(), \
        f"{copy} is not the PDF that `make pdf` wrote to {PDF}"


def test_every_chapter_title_is_in_the_pdf_and_a_bookmark(book, pdf, pdf_text):
    titles = {page: page_title(book.build, page) for page in book.chapter_pages()}
    assert all(re.match(r"\d+(\.\d+)*\. ", t) for t in titles.values()), f"chapter titles without numbers: {titles}"
    missing = [t for t in titles.values() if squeeze(t) not in pdf_text]
    assert not missing, f"chapter titles not in the PDF's text: {missing}"

    def marks(outline, depth=0):
        for entry in outline:
            if isinstance(entry, list):
                yield from marks(entry, depth + 1)
            else:
                yield depth, " ".join(str(entry.title).split())

    found = list(marks(pdf.outline))
    top = {title for depth, title in found if depth == 0}
    anywhere = {title for _, title in found}
    chapters = [t for p, t in titles.items() if re.match(r"\d+\. ", t)]  # chapters, not sections (6.1. ...)
    assert len(chapters) >= 12, f"only {len(chapters)} numbered chapters: {chapters}"
    missing = [t for t in chapters if t not in top]
    assert not missing, f"chapters without a top-level bookmark: {missing} (top level: {sorted(top)})"
    missing = [t for t in titles.values() if t not in anywhere]
    assert not missing, f"pages without a bookmark: {missing}"
    assert len(found) > 5 * len(chapters), f"only {len(found)} bookmarks: the headings' bookmarks are missing"


def test_no_code_line_is_cut(printed, book, pdf_text):
    cut, missing, lines = [], [], 0
    for path in book.toc_pages():
        found = printed[path]["code"]
        cut += [f"{path}: {c}" for c in found["cut"]]
        for block in found["code"]:
            for line in block.splitlines():
                if squeeze(line):
                    lines += 1
                    if squeeze(line) not in pdf_text:
                        missing.append(f"{path}: {line.strip()[:90]}")
    assert not cut, f"code blocks wider than the paper ({PRINT_WIDTH_PX} px):\n  " + "\n  ".join(cut[:20])
    assert lines > 1000, f"only {lines} printed code lines found"
    assert not missing, (f"{len(missing)} of {lines} printed code lines are not in the PDF's text:\n  "
                         + "\n  ".join(missing[:20]))


def test_printed_output_is_readable(printed, book):
    """No printed output shrinks under 7 pt or runs past the paper (the PDF itself is not needed)."""
    small, wide, seen = [], [], 0
    for path in book.chapter_pages():
        for out in printed[path]["outputs"]:
            seen += 1
            if out["pt"] < MIN_OUTPUT_PT - 0.05:
                small.append(f"{path}: {out['pt']:.1f} pt: {out['text']}")
            if out["scrolls"] or out["right"] > out["width"] + 1:
                wide.append(f"{path}: {out['text']}")
    assert seen > 300, f"only {seen} printed outputs found"
    assert not small, f"{len(small)} printed outputs under {MIN_OUTPUT_PT} pt:\n  " + "\n  ".join(small)
    assert not wide, f"{len(wide)} printed outputs wider than the paper:\n  " + "\n  ".join(wide)


def test_widgets_print_as_pictures_with_their_address(printed, book_server, book, pdf_text):
    """On every page with widgets: each printed as its picture, then "Interactive in the online
    book: <address of this page>"; no control printed; the heading keeps its chapter number."""
    canonical = re.compile(r'<link rel="canonical" href="([^"]+)"')
    checked = 0
    for path in book.chapter_pages():
        views = book.widget_views(path)
        found = printed[path]["widgets"]
        assert not found["controls"], f"{path}: printed controls: {found['controls']}"
        assert found["title"] == page_title(book.build, path), \
            f"{path}: the printed title is {found['title']!r}, not {page_title(book.build, path)!r}"
        if not views:
            continue
        checked += 1
        match = canonical.search((book.build / path).read_text(encoding="utf-8"))
        address = match.group(1) if match else f"{book_server}/{path}"
        assert found["pictures"] == len(views), \
            f"{path}: {found['pictures']} pictures printed for {len(views)} widgets"
        expected = f"Interactive in the online book: {address}"
        assert found["notes"] == [expected] * len(views), f"{path}: notes {found['notes']}, expected {expected!r}"
        assert squeeze(expected) in pdf_text, f"{path}: {expected!r} is not in the PDF"
    assert checked >= 5, f"only {checked} chapter pages with widgets"
GLUED = re.compile(r"(?<![A-Za-z])[a-z]{24,}")
TEX = re.compile(r"(?<![$\\{\"'])\\(lambda|alpha|beta|gamma|delta|sigma|mu|frac|sum|mathbf|mathrm|text|sqrt|cdot|ell"
                 r"|hat|tilde|bar|lVert|rVert|le|ge|times|log|exp|top|in)\b")
MARKER_LINE = re.compile(r"^\s*### (BEGIN|END) SOLUTION\s*$", re.M)
CONTENTS_LINE = re.compile(r"^(?P<title>.+?)\s+(?P<number>\d+)\s*$")


def contents_entries(page_texts: list[str]) -> dict[str, int]:
    """The contents pages' entries: title (squeezed) -> the page number they give."""
    start = next((i for i, text in enumerate(page_texts[:20]) if text.lstrip().startswith("Contents")), None)
    assert start is not None, "no page of the PDF's first 20 starts with 'Contents'"
    entries = {}
    for text in page_texts[start:start + 5]:
        for line in text.splitlines()[:-1]:  # the last line is the page's own number
            match = CONTENTS_LINE.match(line.strip())
            if match:
                entries[squeeze(match.group("title"))] = int(match.group("number"))
        if not text.lstrip().startswith("Contents") and entries:
            break
    return entries


def test_every_page_is_numbered(page_texts):
    unnumbered = [i for i, text in enumerate(page_texts, start=1)
                  if not re.search(rf"(^|\n)\s*{i}\s*$", text)]
    assert not unnumbered, (f"{len(unnumbered)} of {len(page_texts)} pages do not end with their number, "
                            f"e.g. pages {unnumbered[:10]}")


def test_the_contents_give_each_pages_number(book, page_texts):
    entries = contents_entries(page_texts)
    titles = [page_title(book.build, page) for page in book.toc_pages()[1:]]
    missing = [t for t in titles if squeeze(t) not in entries]
    assert not missing, f"pages missing from the contents: {missing} (found {list(entries)[:5]}...)"
    wrong = [f"{t!r}: contents say page {entries[squeeze(t)]}" for t in titles
             if squeeze(t) not in squeeze(page_texts[entries[squeeze(t)] - 1])]
    assert not wrong, "contents entries whose page does not hold the title:\n  " + "\n  ".join(wrong)
    numbers = [entries[squeeze(t)] for t in titles]
    assert numbers == sorted(numbers), f"the contents' page numbers are not in order: {numbers}"


def test_solutions_are_gathered_at_each_pages_end_without_markers(book, page_texts):
    """Each page's solutions are printed once each, after its "Solutions" heading and
    nowhere before it, and no code line of the PDF is a grading marker."""
    markers = [i for i, text in enumerate(page_texts, start=1) if MARKER_LINE.search(text)]
    assert not markers, f"grading markers (### BEGIN/END SOLUTION) printed on pages {markers}"
    entries = contents_entries(page_texts)
    pages = book.toc_pages()
    starts = [entries[squeeze(page_title(book.build, p))] for p in pages[1:]] + [len(page_texts) + 1]
    checked = 0
    for path, start, end in zip(pages[1:], starts, starts[1:]):
        boxes = len(re.findall(r'<div class="solution[ "]', (book.build / path).read_text(encoding="utf-8")))
        if not boxes:
            continue
        checked += 1
        texts = page_texts[start - 1:end - 1]
        heading = next((i for i, text in enumerate(texts) if re.match(r"\s*Solutions\s*\n", text)), None)
        assert heading is not None, f"{path}: no page of its PDF pages {start}-{end - 1} starts with 'Solutions'"
        before = [start + i for i, text in enumerate(texts[:heading]) if "Solution to Exercise" in text]
        assert not before, f"{path}: solutions printed before its 'Solutions' section, on pages {before}"
        printed = sum(squeeze(text).count("SolutiontoExercise") for text in texts[heading:])
        assert printed >= boxes, f"{path}: {printed} solutions printed for {boxes} solution boxes"
    assert checked >= 10, f"only {checked} pages with solutions"


PRINTED_SOLUTIONS_JS = """() => {
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden"
    && parseFloat(getComputedStyle(e).opacity) > 0;
  const gathered = window.bookGatherSolutions ? window.bookGatherSolutions() : -1;
  const boxes = [...document.querySelectorAll("article div.solution")];
  return {gathered, boxes: boxes.length,
          outside: boxes.filter((b) => !b.closest("section.print-solutions")).length,
          chevrons: boxes.filter((b) => [...b.querySelectorAll("button.toggle-button, .tb-icon")].some(shown)).length,
          shut: boxes.filter((b) => { const c = b.querySelector(":scope > section");
                                      return !c || !shown(c) || c.getBoundingClientRect().height < 5; }).length,
          empty: [...document.querySelectorAll("article .cell_input, article .cell_output, article div.highlight, article pre")]
            .filter((e) => shown(e) && e.getBoundingClientRect().height > 4 && !e.textContent.trim()
                           && !e.querySelector("img, svg, canvas, picture"))
            .map((e) => e.className + ": " + e.outerHTML.slice(0, 80))};
}"""


def test_printed_solutions_are_open_without_chevrons_and_no_code_box_is_empty(printed, book):
    checked = 0
    for path in book.toc_pages():
        found = printed[path]["solutions"]
        assert not found["empty"], f"{path}: empty boxes printed:\n  " + "\n  ".join(found["empty"][:5])
        if not found["boxes"]:
            continue
        checked += 1
        assert found["gathered"] == found["boxes"] and not found["outside"], \
            f"{path}: {found['outside']} of {found['boxes']} solutions not in the printed 'Solutions' section"
        assert not found["chevrons"], f"{path}: {found['chevrons']} printed solutions show a chevron"
        assert not found["shut"], f"{path}: {found['shut']} printed solutions are shut"
    assert checked >= 10, f"only {checked} pages with solutions"


def test_the_contents_follow_the_title_page(book, page_texts):
    """Page 1 is the title page (the book's title and subtitle, nothing more), and the contents
    start on page 2, before the landing page's text."""
    title = squeeze(page_title(book.build, book.toc_pages()[0]))
    first = [line for line in page_texts[0].splitlines()[:-1] if line.strip()]  # the last line is its number
    assert title in squeeze(page_texts[0]), f"page 1 does not hold the book's title: {page_texts[0][:120]!r}"
    assert len(first) <= 4, f"page 1 is not a title page: {len(first)} lines, e.g. {first[:6]}"
    assert page_texts[1].lstrip().startswith("Contents"), f"page 2 is not the contents: {page_texts[1][:80]!r}"


CAPTIONS_JS = """() => [...document.querySelectorAll("figure figcaption")].map((c) => {
  const cs = getComputedStyle(c.querySelector("p") || c);
  return {text: c.textContent.trim().slice(0, 40), weight: Number(cs.fontWeight), color: cs.color}; })"""


def test_printed_captions_are_readable(printed, book):
    """Printed, a figure's caption is in the text's weight (400 or more) and in black: the
    theme's light grey captions print thin and pale."""
    problems, checked = [], 0
    for path in book.chapter_pages():
        for c in printed[path]["captions"]:
            checked += 1
            if c["weight"] < 400 or c["color"] not in ("rgb(0, 0, 0)", "rgba(0, 0, 0, 1)"):
                problems.append(f"{path}: {c['text']!r}: weight {c['weight']}, colour {c['color']}")
    assert checked >= 10, f"only {checked} captions"
    assert not problems, f"{len(problems)} thin or grey printed captions:\n  " + "\n  ".join(problems[:10])


def test_no_accidental_math_in_the_pdf(page_texts):
    glued, tex = [], []
    for number, text in enumerate(page_texts, start=1):
        glued += [f"page {number}: {m.group(0)[:60]}" for m in GLUED.finditer(text)]
        tex += [f"page {number}: {text[max(0, m.start() - 30):m.end() + 20]!r}" for m in TEX.finditer(text)]
    assert not glued, "words glued together as italic math prints a sentence:\n  " + "\n  ".join(glued[:10])
    assert not tex, "TeX commands printed as text:\n  " + "\n  ".join(tex[:10])
