"""Sphinx extension: a table of the text reflows on a phone.

A table written in a page's text (Markdown, not a cell's output) with four or
five columns is too wide for a phone: its last columns are hidden to the right
and its rows grow tall. This gives each cell of such a table the name of its
column (``data-label``, from the table's header row) and the table the class
``reflow``; on a narrow screen ``assets/book.css`` then shows each row as a
small card, one line per cell, "column name: value". Wide screens and paper
keep the table as it is.
"""

from __future__ import annotations

import html
import re

TABLE = re.compile(r'<table class="table">(?P<inner>.*?)</table>', re.S)
HEAD = re.compile(r"<thead>(.*?)</thead>", re.S)
TH = re.compile(r"<th[^>]*>(.*?)</th>", re.S)
ROW = re.compile(r"(<tr[^>]*>)(.*?)(</tr>)", re.S)
TD = re.compile(r"<td(?P<attrs>[^>]*)>")
TAG = re.compile(r"<[^>]+>")


def reflow(body: str) -> str:
    """``body`` with every text table that has a header row marked to reflow on narrow screens."""

    def one(match):
        inner = match.group("inner")
        head = HEAD.search(inner)
        if head is None:
            return match.group(0)
        names = [" ".join(html.unescape(TAG.sub("", th)).split()) for th in TH.findall(head.group(1))]
        if not names or not any(names):
            return match.group(0)
        start, end = head.end(), len(inner)

        def label_row(row):
            cells = iter(names)

            def label(td):
                name = next(cells, "")
                return f'<td{td.group("attrs")} data-label="{html.escape(name, quote=True)}">'

            return row.group(1) + TD.sub(label, row.group(2)) + row.group(3)

        body_rows = ROW.sub(label_row, inner[start:end])
        return f'<table class="table reflow">{inner[:start]}{body_rows}</table>'

    return TABLE.sub(one, body)


def _rewrite(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if body and '<table class="table">' in body:
        context["body"] = reflow(body)


def setup(app):
    app.connect("html-page-context", _rewrite)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
