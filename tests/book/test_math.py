"""Math that the text did not mean: a stray `$` (money written "5k$", say) opens math
that runs on through the sentence, in italics, without spaces, off the page.

Run after `make pdf`. In the PDF's text: no run of 24 lower-case letters or more
(words glued together, as italic math prints a sentence), and no TeX command
outside `$...$` or a string in code. The built pages' check is
tests/book/test_reading.py's (it shares the visit that measures each page's
layout).
"""

from __future__ import annotations

import re

import pytest

GLUED = re.compile(r"(?<![A-Za-z])[a-z]{24,}")
TEX = re.compile(r"(?<![$\\{\"'])\\(lambda|alpha|beta|gamma|delta|sigma|mu|frac|sum|mathbf|mathrm|text|sqrt|cdot|ell"
                 r"|hat|tilde|bar|lVert|rVert|le|ge|times|log|exp|top|in)\b")


def test_no_accidental_math_in_the_pdf(book):
    pdf = book.root / "_build" / "pdf" / "feature-engineering-refined.pdf"
    if not pdf.is_file():
        pytest.fail(f"{pdf} is missing: run `make pdf` (after `make strict-book`).")
    from pypdf import PdfReader

    glued, tex = [], []
    for number, page in enumerate(PdfReader(pdf).pages, start=1):
        text = page.extract_text() or ""
        glued += [f"page {number}: {m.group(0)[:60]}" for m in GLUED.finditer(text)]
        tex += [f"page {number}: {text[max(0, m.start() - 30):m.end() + 20]!r}" for m in TEX.finditer(text)]
    assert not glued, "words glued together as italic math prints a sentence:\n  " + "\n  ".join(glued[:10])
    assert not tex, "TeX commands printed as text:\n  " + "\n  ".join(tex[:10])
