"""What a first visit of each chapter page costs a reader on a slow connection.

Every file the page requests with an empty cache, scrolled to its end (lazy
images too), counted as a static host that compresses text sends it (gzip
level 6; PNG and WOFF2 barely shrink): at most 1.5 MB per chapter page. These
are sizes, not timings; `make bench` (benchmarks/bench_pages.py) reports them
beside the time until the first slider answers at 10 Mbit/s. The whole site,
as a host stores it, stays under 20 MB without the downloadable PDF.
"""

from __future__ import annotations

import bookfiles

MAX_FIRST_VISIT = 1_500_000  # bytes, gzip-compressed
MAX_SITE = 20_000_000  # bytes on disk, without the PDF


def test_first_visit_of_a_chapter_page_weighs_at_most_1_5_mb(page_path, browser, book_server, built_html):
    files = bookfiles.first_visit(browser, built_html, book_server, page_path)
    assert page_path in files, f"the visit of {page_path} did not fetch the page itself: {sorted(files)[:5]}"
    assert any(name.endswith((".css", ".js")) for name in files), "no stylesheet or script counted"
    total = sum(files.values())
    largest = sorted(files.items(), key=lambda item: -item[1])[:5]
    assert total <= MAX_FIRST_VISIT, (
        f"{page_path}: a first visit loads {total / 1e6:.2f} MB gzipped in {len(files)} files "
        f"(at most {MAX_FIRST_VISIT / 1e6:.1f} MB); the largest: "
        + ", ".join(f"{name} {size / 1e3:.0f} KB" for name, size in largest))


def test_the_site_without_the_pdf_weighs_at_most_20_mb(built_html):
    files = [p for p in built_html.rglob("*") if p.is_file() and p.suffix != ".pdf"]
    total = sum(p.stat().st_size for p in files)
    folders = {}
    for p in files:
        top = p.relative_to(built_html).parts[0]
        folders[top] = folders.get(top, 0) + p.stat().st_size
    largest = sorted(folders.items(), key=lambda item: -item[1])[:5]
    assert len(files) > 100 and total > 1_000_000, f"{built_html} holds {len(files)} files: is it a built book?"
    assert total <= MAX_SITE, (
        f"the site without the PDF weighs {total / 1e6:.2f} MB in {len(files)} files (at most {MAX_SITE / 1e6:.0f} MB; "
        "a build over an older one keeps stale figures: `make clean`); the largest folders: "
        + ", ".join(f"{name} {size / 1e6:.2f} MB" for name, size in largest))
