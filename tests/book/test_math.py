"""Math that the text did not mean: a stray `$` (money written "5k$", say) opens math
that runs on through the sentence, in italics, without spaces, off the page.

Run after `make strict-book` (and `make pdf` for the PDF's check). On every page
of the table of contents, once MathJax has typeset it, in Chromium:

* no math span is a sentence: a TeX source without any TeX command (no `\\`)
  that holds a run of 15 letters or more (spaces aside) or four words of three
  letters or more;
* the page's visible text outside math, code and printed output shows no TeX
  command (`\\lambda`), no `\\(`/`\\[` and no `$` opening math;
* MathJax reports no error (no `mjx-merror` node).

And in the PDF's text: no run of 24 lower-case letters or more (words glued
together, as italic math prints a sentence), and no TeX command outside
`$...$` or a string in code.
"""

from __future__ import annotations

import re

import pytest

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
  return {count: items.length, sentences, raw, errors: document.querySelectorAll("mjx-merror").length};
}"""
GLUED = re.compile(r"(?<![A-Za-z])[a-z]{24,}")
TEX = re.compile(r"(?<![$\\{\"'])\\(lambda|alpha|beta|gamma|delta|sigma|mu|frac|sum|mathbf|mathrm|text|sqrt|cdot|ell"
                 r"|hat|tilde|bar|lVert|rVert|le|ge|times|log|exp|top|in)\b")


def test_no_accidental_math_on_the_page(browser, book_server, book, toc_page):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{book_server}/{toc_page}", wait_until="load")
        found = page.evaluate(MATH_JS)
    finally:
        context.close()
    if found is None:
        pytest.skip(f"{toc_page} loads no MathJax")
    assert not found["sentences"], (f"{toc_page}: math spans that read as sentences (a stray $?):\n  "
                                    + "\n  ".join(found["sentences"]))
    assert not found["raw"], f"{toc_page}: TeX shown as text outside math:\n  " + "\n  ".join(found["raw"])
    assert not found["errors"], f"{toc_page}: {found['errors']} MathJax error(s)"


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
