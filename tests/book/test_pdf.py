"""The printed book: the print stylesheet and the PDF that `make pdf` writes.

Run after `make strict-book` and `make pdf` (tools/pdf.py prints every page of
_toc.yml with Chromium and joins them with pypdf into
_build/pdf/feature-engineering-refined.pdf, copied into _build/html/ for the
landing page's link). Checks:

* the PDF is there, newer than the pages it was printed from, and the copy the
  landing page links to is the same file;
* every chapter's title, with its number ("7. Standard normalization"), is in
  the PDF's text and is a bookmark (a chapter's sections are bookmarks under
  it);
* no code line is cut: printed at the paper's width, no code block scrolls
  sideways, and every line of every code block the printed page shows is in
  the PDF's text (spaces and line breaks aside: long lines wrap);
* each widget is printed as its picture, followed by one line giving the
  address of the page in the online book where it is live; the controls and
  the theme's duplicated title and contents list are not printed.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NAME = "feature-engineering-refined.pdf"
PDF = ROOT / "_build" / "pdf" / NAME
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
def pdf_text(pdf) -> str:
    """The PDF's text with every space and line break removed."""
    return squeeze("".join(page.extract_text() or "" for page in pdf.pages))


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


def test_no_code_line_is_cut(browser, book_server, book, pdf_text):
    context = browser.new_context(viewport={"width": PRINT_WIDTH_PX, "height": 1000})
    try:
        page = context.new_page()
        page.emulate_media(media="print")
        cut, missing, lines = [], [], 0
        for path in book.toc_pages():
            page.goto(f"{book_server}/{path}", wait_until="load")
            found = page.evaluate(PRINTED_CODE_JS)
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
    finally:
        context.close()


def test_widgets_print_as_pictures_with_their_address(browser, book_server, book, pdf_text):
    """On every page with widgets: each printed as its picture, then "Interactive in the online
    book: <address of this page>"; no control printed; the heading keeps its chapter number."""
    canonical = re.compile(r'<link rel="canonical" href="([^"]+)"')
    context = browser.new_context(viewport={"width": PRINT_WIDTH_PX, "height": 1000})
    checked = 0
    try:
        page = context.new_page()
        page.emulate_media(media="print")
        for path in book.chapter_pages():
            views = book.widget_views(path)
            page.goto(f"{book_server}/{path}", wait_until="load")
            found = page.evaluate(PRINTED_WIDGETS_JS)
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
    finally:
        context.close()
