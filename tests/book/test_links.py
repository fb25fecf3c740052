"""Links a reader reaches for, in the built pages (no browser).

* Every "chapter N" in the prose of a page of _toc.yml ("Chapter N",
  "chapters N and M", "chapters N-M") is a link to chapter N, except on
  chapter N's own page. The chapters' numbers are read from the book's own
  contents (the sidebar's "N. Title" entries), not from the extension that
  writes the links (_ext/chapter_links.py). Prose is the article's text
  outside links, code, math, headings, code cells and their outputs.
* Every mention of a library function as inline code (`ml.ridge`,
  `ml.ridge(x, y, lam)`) whose name has an entry on the reference page
  (an id `mlrefined_lib.<module>.ridge`) links to that entry.
"""

from __future__ import annotations

import posixpath
import re
from html.parser import HTMLParser

import pytest

SEP = r"(?:,\s*|\s*[-\u2013]\s*|,?\s+(?:and|or|to)\s+)"
MENTION = re.compile(r"\b[Cc]hapters?\s+(\d+)\b")
# A plural mention linked at its first number: the numbers after it must be links too.
PLURAL_TAIL = re.compile(r"\x01[Cc]hapters\s+\d+\x02(?:" + SEP + r"\x01\d+\x02)*" + SEP + r"(\d+)\b")
LINK_TEXT = re.compile(r"^(?:[Cc]hapters?\s+)?(\d+)$")
ML = re.compile(r"^ml\.([A-Za-z_][\w.]*)(?:\(.*\))?$", re.S)
SKIP_TAGS = {"code", "pre", "script", "style", "h1", "h2", "h3", "h4", "h5", "h6", "mjx-container"}
SKIP_CLASSES = {"math", "cell_input", "cell_output", "admonition-title", "highlight"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Prose(HTMLParser):
    """The article's prose as one string, each link's text between \\x01 and \\x02 (its
    hrefs in `links`, in order); skipped parts are a \\x03. Also every inline `<code>`
    of the article (outside code cells and headings) with the href of the link around it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool, str | None]] = []  # (tag, skipped, href)
        self.article = 0
        self.text: list[str] = []
        self.links: list[tuple[str, str]] = []  # (text, href)
        self.codes: list[tuple[str, str | None]] = []
        self._link_text: list[str] | None = None
        self._code: list[str] | None = None

    def _skipped(self):
        return bool(self.stack) and self.stack[-1][1]

    def _href(self):
        for tag, _, href in reversed(self.stack):
            if tag == "a":
                return href
        return None

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        attrs = dict(attrs)
        classes = set((attrs.get("class") or "").split())
        if tag == "article" and "bd-article" in classes:
            self.article += 1
        inherited = self._skipped()
        skip = inherited or tag in SKIP_TAGS or bool(classes & SKIP_CLASSES)
        if tag == "code" and self.article and not inherited:
            self._code = []
        href = attrs.get("href") if tag == "a" else None
        if tag == "a" and self.article and not skip:
            self.text.append("\x01")
            self._link_text = []
        if skip and not inherited and self.article:
            self.text.append("\x03")
        self.stack.append((tag, skip, href))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack:
            top, skip, href = self.stack.pop()
            if top == "code" and self._code is not None:
                self.codes.append(("".join(self._code).strip(), self._href()))
                self._code = None
            if top == "a" and self._link_text is not None and not skip:
                self.text.append("\x02")
                self.links.append(("".join(self._link_text).strip(), href or ""))
                self._link_text = None
            if top == "article" and self.article:
                self.article -= 1
            if top == tag:
                break

    def handle_data(self, data):
        if not self.article:
            return
        if self._code is not None:
            self._code.append(data)
        if self._skipped():
            return
        self.text.append(data)
        if self._link_text is not None:
            self._link_text.append(data)


def parse(path):
    prose = Prose()
    prose.feed(path.read_text(encoding="utf-8"))
    return prose


@pytest.fixture(scope="module")
def chapters(book) -> dict[int, str]:
    """Chapter number -> built page, from the sidebar's contents on the landing page."""
    found = {}
    html = (book.build / book.toc_pages()[0]).read_text(encoding="utf-8")
    for href, number in re.findall(r'<li class="toctree-l1[^"]*"><a class="reference internal" href="([^"#]+)"[^>]*>\s*(\d+)\.\s', html):
        found[int(number)] = href
    assert len(found) >= 10, f"the landing page's contents list only chapters {sorted(found)}"
    return found


def target(page: str, href: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), href.split("#")[0]))


def test_every_chapter_mention_is_a_link(book, chapters, toc_page):
    prose = parse(book.build / toc_page)
    own = {n for n, p in chapters.items() if p == toc_page}
    text = "".join(prose.text)
    unlinked = re.sub(r"\x01[^\x02]*\x02", "\x00", text)
    plain = [m for m in MENTION.finditer(unlinked) if int(m.group(1)) in chapters and int(m.group(1)) not in own]
    tails = [m for m in PLURAL_TAIL.finditer(text) if int(m.group(1)) in chapters and int(m.group(1)) not in own]
    problems = [f"not a link: ...{unlinked[max(0, m.start() - 40):m.end() + 10]!r}" for m in plain]
    problems += [f"not a link: {m.group(1)} in ...{text[max(0, m.start() - 10):m.end()]!r}" for m in tails]
    for words, href in prose.links:
        m = LINK_TEXT.match(words)
        if not m or int(m.group(1)) not in chapters:
            continue
        # A bare number links to a chapter only after "chapters N and" (a page's top, no anchor).
        if words[0].isdigit() and ("#" in href or not target(toc_page, href).startswith("chapters/")):
            continue
        if target(toc_page, href) != chapters[int(m.group(1))]:
            problems.append(f"{words!r} links to {href}, not to {chapters[int(m.group(1))]}")
    assert not problems, f"{toc_page}: {len(problems)} chapter mentions:\n  " + "\n  ".join(problems[:20])


def test_library_functions_link_to_the_reference(book, toc_page):
    reference = "reference.html"
    if toc_page == reference:
        pytest.skip("the reference page is where the links go")
    ids = book.parse(reference).ids
    by_name: dict[str, set[str]] = {}
    for anchor in ids:
        parts = anchor.split(".")
        if parts[0] == "mlrefined_lib" and len(parts) >= 3:
            by_name.setdefault(parts[-1], set()).add(anchor)
    problems = []
    for code, href in parse(book.build / toc_page).codes:
        m = ML.match(code)
        if not m:
            continue
        anchors = by_name.get(m.group(1).split(".")[-1])
        if not anchors:
            continue
        if href is None:
            problems.append(f"{code[:40]!r}: no link (reference.html#{sorted(anchors)[0]})")
        elif target(toc_page, href) != reference or href.split("#")[-1] not in anchors:
            problems.append(f"{code[:40]!r} links to {href}, not to reference.html#{sorted(anchors)[0]}")
    assert not problems, f"{toc_page}: {len(problems)} library functions:\n  " + "\n  ".join(problems[:20])
