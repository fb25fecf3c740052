"""The whole book as one PDF: each built page printed by Chromium, in _toc.yml order.

    python tools/pdf.py            # after `make book` (or `make strict-book`)

Serves ``_build/html`` on a loopback port, opens every page of the table of
contents in Debian's headless Chromium (driven by Playwright; every request to
another machine is refused), waits for the math and the widgets' pictures,
and prints it with the book's print stylesheet (``assets/book.css``: controls
hidden, each widget as its picture with the address of the page where it is
live, code wrapped). pypdf joins the pages into one file with a bookmark for
each page (a chapter, or a section of one), holding the bookmarks of its
headings. Each page's solutions are printed together at its end, in a section
"Solutions" (``assets/print.js``). After the title page (the landing page's
first) come the contents, every page with the number of the page it starts on,
then the landing page's text, and every page of the
book is numbered. The result is ``_build/pdf/feature-engineering-refined.pdf``, also
copied into ``_build/html/`` so that the landing page's link to it resolves.
"""

from __future__ import annotations

import html
import io
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import bookfiles  # noqa: E402  (tools/bookfiles.py: the table of contents and a local server)

BUILD = ROOT / "_build" / "html"
NAME = "feature-engineering-refined.pdf"
OUT = ROOT / "_build" / "pdf" / NAME
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PAPER = dict(format="A4", margin={"top": "16mm", "bottom": "16mm", "left": "14mm", "right": "14mm"})
TIMEOUT_MS = 60_000

# Printed when MathJax has typeset the page and every picture that will be
# printed (the widgets' first frames included) has arrived.
READY_JS = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  document.querySelectorAll("img").forEach((i) => { i.loading = "eager"; });
  await Promise.all([...document.images].map((i) => i.complete ? null
    : new Promise((ok) => { i.addEventListener("load", ok); i.addEventListener("error", ok); })));
  await document.fonts.ready;
  return true;
}"""
# The page's solutions, gathered in a section "Solutions" at its end (assets/print.js).
GATHER_SOLUTIONS_JS = "() => window.bookGatherSolutions ? window.bookGatherSolutions() : 0"
# The page's title (its first heading, with the chapter's number) and the text
# of every printed heading, in order: Chromium's own bookmarks take their titles
# from the printed lines (words at a line break run together), so the merged
# PDF's bookmarks take these instead.
HEADINGS_JS = """() => [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")]
  .filter((h) => h.offsetParent !== null || h.getClientRects().length > 0)
  .map((h) => { const copy = h.cloneNode(true); copy.querySelectorAll(".headerlink").forEach((a) => a.remove());
                return copy.textContent.replace(/\\s+/g, " ").trim(); })"""


def print_pages(build: Path = BUILD, pages: list[str] | None = None, log=print,
                jobs: int = 2) -> list[tuple[str, list[str], bytes]]:
    """(page, its printed headings (the first is its title), PDF bytes) for each page, in order.

    ``jobs`` browsers print at the same time, each every ``jobs``-th page (a page prints the
    same in any browser: each one loads it afresh).
    """
    pages = pages if pages is not None else bookfiles.toc_pages(ROOT)
    missing = [p for p in pages if not (build / p).is_file()]
    if missing:
        raise SystemExit(f"pdf: {build} lacks {missing[:3]}: run `make book` (or `make strict-book`) first.")
    jobs = max(1, min(jobs, len(pages)))
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            shares = list(pool.map(_print_share, [(build, pages[i::jobs]) for i in range(jobs)]))
        done = {entry[0]: entry for share in shares for entry in share}
        return [done[path] for path in pages]
    return _print_in_one_browser(build, pages, log)


def _print_share(job: tuple[Path, list[str]]) -> list[tuple[str, list[str], bytes]]:
    build, pages = job
    return _print_in_one_browser(build, pages, lambda line: print(line, flush=True))


def _print_in_one_browser(build: Path, pages: list[str], log) -> list[tuple[str, list[str], bytes]]:
    from playwright.sync_api import sync_playwright

    printed = []
    with bookfiles.serve(build) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(service_workers="block", viewport={"width": 1280, "height": 900})
        context.set_default_timeout(TIMEOUT_MS)
        context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(base + "/") else r.abort())
        page = context.new_page()
        for path in pages:
            start = time.perf_counter()
            page.goto(f"{base}/{path}", wait_until="load")
            page.emulate_media(media="print")
            page.evaluate(READY_JS)
            page.evaluate(GATHER_SOLUTIONS_JS)
            headings = page.evaluate(HEADINGS_JS) or [path]
            pdf = page.pdf(print_background=True, outline=True, tagged=True, **PAPER)
            page.emulate_media(media="screen")
            printed.append((path, headings, pdf))
            log(f"  {path}: {len(pdf) / 1e6:.1f} MB, {time.perf_counter() - start:.1f} s")
        browser.close()
    return printed


def page_counts(printed: list[tuple[str, list[str], bytes]]) -> list[int]:
    from pypdf import PdfReader

    return [len(PdfReader(io.BytesIO(pdf)).pages) for _, _, pdf in printed]


def contents_html(entries: list[tuple[str, int, bool]]) -> str:
    """The printed book's contents: each page's title and the number of the page it starts on
    (a section of a chapter indented under it)."""
    rows = "".join(
        f'<li class="{"section" if section else "chapter"}"><span class="title">{html.escape(title)}</span>'
        f'<span class="dots"></span><span class="number">{number}</span></li>'
        for title, number, section in entries)
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Contents</title><style>
  body {{ font-family: "DejaVu Sans", sans-serif; font-size: 11pt; color: #222; }}
  h1 {{ font-size: 20pt; font-weight: 500; margin: 0 0 1.2em; }}
  ul {{ list-style: none; margin: 0; padding: 0; }}
  li {{ display: flex; align-items: baseline; margin: 0.35em 0; break-inside: avoid; }}
  li.section {{ margin-left: 1.6em; font-size: 10pt; }}
  .dots {{ flex: 1; border-bottom: 1px dotted #888; margin: 0 0.4em; }}
  .number {{ min-width: 2em; text-align: right; }}
</style></head><body><h1>Contents</h1><ul>{rows}</ul></body></html>"""


def print_contents(printed: list[tuple[str, list[str], bytes]], sections: set[str]) -> bytes:
    """The contents pages, printed by Chromium after the landing page's title page: every page
    of the book with the number of its first page (numbers count from the title page, as the
    pages' own numbers do, see :func:`number_pages`)."""
    from playwright.sync_api import sync_playwright
    from pypdf import PdfReader

    counts = page_counts(printed)
    length, pdf = 1, b""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page()
        page.route("**/*", lambda r: r.abort())  # the contents page needs nothing from anywhere
        for _ in range(3):  # until the contents' own length is the one its numbers assumed
            entries, start = [], 1
            for index, ((path, headings, _), count) in enumerate(zip(printed, counts)):
                if index == 1:
                    start += length
                entries.append((headings[0], start, path.removesuffix(".html") in sections))
                start += count
            page.set_content(contents_html(entries[1:]), wait_until="load")
            pdf = page.pdf(**PAPER)
            found = len(PdfReader(io.BytesIO(pdf)).pages)
            if found == length:
                break
            length = found
        browser.close()
    return pdf


def number_pages(writer) -> None:
    """Print each page's number, counted from 1, centred in its bottom margin."""
    from pypdf import PageObject
    from pypdf.generic import DictionaryObject, NameObject, StreamObject

    font = writer._add_object(DictionaryObject({
        NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
        NameObject("/BaseFont"): NameObject("/Helvetica"), NameObject("/Encoding"): NameObject("/WinAnsiEncoding")}))
    for number, page in enumerate(writer.pages, start=1):
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        text = str(number)
        stream = StreamObject()
        # Helvetica's digits are 0.556 em wide: centred at 9 pt, 20 pt above the paper's edge.
        stream.set_data(f"BT /PageNumber 9 Tf 0.3 g {width / 2 - len(text) * 2.5:.1f} 20 Td ({text}) Tj ET".encode())
        overlay = PageObject.create_blank_page(width=width, height=height)
        overlay[NameObject("/Contents")] = writer._add_object(stream)
        overlay[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/PageNumber"): font})})
        page.merge_page(overlay)


def merge(printed: list[tuple[str, list[str], bytes]], sections: set[str], out: Path,
          contents: bytes | None = None) -> None:
    """One PDF with a bookmark for each page (its title, with the chapter's number) holding
    the bookmarks of its headings; a section's page goes under its chapter's bookmark. The
    contents pages (if given) follow the title page (the landing page's first), with a bookmark
    "Contents"; every page is numbered."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    chapter = None
    inserted = 0  # pages of contents inside the landing page's, after its title page
    for index, (path, headings, pdf) in enumerate(printed):
        first = len(writer.pages)
        reader = PdfReader(io.BytesIO(pdf))
        if index == 0 and contents:
            # The landing page's first page is the title page (assets/book.css); the contents follow it.
            writer.append(reader, pages=(0, 1), import_outline=False)
            contents_reader = PdfReader(io.BytesIO(contents))
            contents_page = len(writer.pages)
            writer.append(contents_reader, import_outline=False)
            inserted = len(contents_reader.pages)
            if len(reader.pages) > 1:
                writer.append(reader, pages=(1, len(reader.pages)), import_outline=False)
        else:
            writer.append(reader, import_outline=False)
        parent = chapter if path.removesuffix(".html") in sections and chapter is not None else None
        item = writer.add_outline_item(title=headings[0], page_number=first, parent=parent)
        if parent is None:
            chapter = item
        if index == 0 and contents:
            writer.add_outline_item(title="Contents", page_number=contents_page)
        entries = list(_flatten(reader.outline))
        if len(entries) == len(headings):  # Chromium's bookmarks are the printed headings, in order
            shift = inserted if index == 0 else 0
            _copy_outline(writer, reader, reader.outline, item, lambda n: first + n + (shift if n >= 1 else 0),
                          iter(headings), top=True)
    number_pages(writer)
    writer.add_metadata({"/Title": _book_title(), "/Creator": "tools/pdf.py (Chromium, pypdf)"})
    writer.page_mode = "/UseOutlines"
    # Each page was printed on its own: the fonts, logos and images that several
    # of them embed are kept once (about a tenth of the file).
    writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as handle:
        writer.write(handle)


def _flatten(outline):
    for entry in outline:
        if isinstance(entry, list):
            yield from _flatten(entry)
        else:
            yield entry


def _copy_outline(writer, reader, outline, parent, offset, titles, top: bool = False) -> None:
    """Copy a page's heading bookmarks below `parent`, titled from `titles` (in the same
    order); the page's first heading (its title) is `parent` itself. `offset` maps a page
    of the printed page to its page in the book."""
    last = None
    for entry in outline:
        if isinstance(entry, list):
            _copy_outline(writer, reader, entry, last if last is not None else parent, offset, titles)
            continue
        title = next(titles)
        if top:  # the page's title: already the page's bookmark
            top, last = False, parent
            continue
        number = reader.get_destination_page_number(entry)
        last = writer.add_outline_item(title=title, page_number=offset(number or 0), parent=parent)


def _book_title() -> str:
    import yaml

    return str(yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8")).get("title", "The book"))


def main() -> int:
    if not CHROMIUM.exists():
        print(f"pdf: {CHROMIUM} not found: install Debian's chromium (`apt-get install chromium`, "
              "or `make chromium` as root). Never `playwright install`.", file=sys.stderr)
        return 1
    start = time.perf_counter()
    chapters = set(bookfiles.toc_files(ROOT, sections=False))
    sections = set(bookfiles.toc_files(ROOT)) - chapters
    print(f"Printing {len(bookfiles.toc_pages(ROOT))} pages of {BUILD} with {CHROMIUM}:")
    printed = print_pages()
    merge(printed, sections, OUT, print_contents(printed, sections))
    shutil.copyfile(OUT, BUILD / NAME)
    from pypdf import PdfReader

    pages = len(PdfReader(OUT).pages)
    print(f"The book as PDF: {OUT} ({pages} pages, {OUT.stat().st_size / 1e6:.1f} MB, "
          f"{time.perf_counter() - start:.0f} s); copied to {BUILD / NAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
