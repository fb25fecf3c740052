"""Sphinx extension: a table that a cell prints keeps each row on one line.

Printed output wraps (``assets/book.css``), so that a long sentence stays in
the column. A table printed with aligned columns must not: a row broken in two
puts its numbers under the wrong headers. For every printed output (a stream or
a plain-text result) this finds the lines that are rows of a table, those with
two or more spaces between words, in a block that has at least
:data:`MIN_ROWS` of them, and wraps each such line in a
``<span class="printed-row">`` that ``book.css`` keeps on one line; the other
lines of the block (sentences) still wrap. Two spaces after a sentence's full
stop (``within the noise.  (corrected s.e. 84.6)``) are no such gap: a line
whose only wide gap is that one is a sentence (:func:`is_row`). The block gets
the class ``printed-table`` and its widest row's length as ``--columns``: on
screen it scrolls sideways in its box when the rows are wider than the column,
with the line under it that says so (``assets/scroll-cues.js``); on paper its
letters shrink until its widest row fits the page, down to 7 pt, and a wider
row wraps (``data-print-wrap``).

Any printed output with a line longer than :data:`COLUMN_CHARACTERS` (what the
text column holds at a 1280 px window) gets the class ``full-width``: on a wide
screen it uses the margin beside the column, where the page's contents are
(the theme folds them away while such an output is in view).
"""

from __future__ import annotations

import html
import re

#: A block is a table when at least this many of its lines are rows.
MIN_ROWS = 2
#: A gap between two columns: three or more spaces, or two that do not follow the full stop of a
#: sentence (a word's letter or a bracket, then "."; a number's "0." is a column's end).
COLUMN_GAP = re.compile(r"\S {3,}\S|(?<=\S)(?<![A-Za-z)]\.) {2}(?=\S)")
#: Characters of 13 px monospace in the 688 px text column of a 1280 px window (its box's
#: padding and a few wider letters, such as "±" and "−", aside).
COLUMN_CHARACTERS = 84
#: Characters of the widest row that fits the paper at 7 pt (book.css's print rules).
PAPER_CHARACTERS = 116
OUTPUT_PRE = re.compile(
    r'(?P<open><div class="output (?:stream|text_plain)[^"]*"><div class="highlight"><pre)>'
    r"(?P<lead><span></span>)?(?P<text>.*?)</pre>", re.S)
TAG = re.compile(r"<[^>]+>")


def is_row(line: str) -> bool:
    """True for a line laid out in columns: a gap of two or more spaces between two words that is
    not a sentence's spacing after its full stop (:data:`COLUMN_GAP`). A row may hold words as
    well as numbers: ``distinct stems in the training reviews:     20267`` is a label and a
    value, aligned with the rows under it."""
    return bool(COLUMN_GAP.search(line.strip()))


def mark_table(inner: str) -> tuple[str, int] | None:
    """The inner HTML of a printed ``<pre>`` with its rows wrapped, and its widest row's
    length; None when the block is not a table. A block whose text carries markup
    (colours) is kept whole: every line of it is treated as a row."""
    lines = inner.split("\n")
    plain = [html.unescape(TAG.sub("", line)) for line in lines]
    rows = [i for i, line in enumerate(plain) if is_row(line)]
    if len(rows) < MIN_ROWS:
        return None
    if TAG.search(inner):
        return inner, max(len(line) for line in plain)
    for i in rows:
        lines[i] = f'<span class="printed-row">{lines[i]}</span>'
    return "\n".join(lines), max(len(plain[i]) for i in rows)


def widest_line(inner: str) -> int:
    """The length of the longest line of a printed ``<pre>``'s inner HTML, as shown."""
    return max(len(html.unescape(TAG.sub("", line))) for line in inner.split("\n"))


def mark_tables(body: str) -> tuple[str, int]:
    """``body`` with every printed table marked, and every output wider than the column marked
    ``full-width``; returns it and how many tables were marked."""
    count = 0

    def mark(match):
        nonlocal count
        opening = match.group("open")
        if widest_line(match.group("text")) > COLUMN_CHARACTERS:
            opening = opening.replace('<div class="output ', '<div class="output full-width ', 1)
        found = mark_table(match.group("text"))
        if found is None:
            return opening + match.group(0)[len(match.group("open")):]
        inner, columns = found
        count += 1
        whole = ' data-whole="1"' if inner is match.group("text") else ""
        wrap = ' data-print-wrap="1"' if columns > PAPER_CHARACTERS else ""
        return (f'{opening} class="printed-table" style="--columns: {columns}"{whole}{wrap}>'
                f'{match.group("lead") or ""}{inner}</pre>')

    return OUTPUT_PRE.sub(mark, body), count


def _mark(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if body and "cell_output" in body:
        context["body"], _ = mark_tables(body)


def setup(app):
    app.connect("html-page-context", _mark)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
