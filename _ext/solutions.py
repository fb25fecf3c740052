"""Sphinx extension: a solution box opens from its title, and shows no grading markers.

sphinx-exercise titles a solution "Solution to Exercise 7.2 (Measure it)" with
the exercise's name as a link to the exercise. sphinx-togglebutton folds the
box and opens it when its title is clicked, but a click on the title's words
follows that link instead, and the box stays shut. The exercise stands right
above its solution, so the title keeps the words without the link: a click
anywhere on it opens the box.

The solution cells of the notebooks mark the graded part of their code with
``### BEGIN SOLUTION`` and ``### END SOLUTION`` (the student edition and
nbgrader cut there). A reader of the book has no use for them: the page shows
the code without those two lines (the downloadable notebook keeps them).
"""

from __future__ import annotations

import re

SOLUTION_TITLE = re.compile(
    r'(<div class="solution[^"]*"[^>]*>\s*<p class="admonition-title">[^<]*)'
    r'<a class="reference internal" href="[^"]*">(?P<words>.*?)</a>', re.S)
MARKER = re.compile(r'(?P<lead><pre><span></span>)?[ \t]*<span class="c1">### (?:BEGIN|END) SOLUTION</span>\n')


def plain_solution_titles(body: str) -> str:
    """``body`` with each solution's title as words, without the link to its exercise."""
    return SOLUTION_TITLE.sub(lambda m: m.group(1) + m.group("words"), body)


def without_markers(body: str) -> str:
    """``body`` without the code lines ``### BEGIN SOLUTION`` and ``### END SOLUTION``."""
    return MARKER.sub(lambda m: m.group("lead") or "", body)


def _rewrite(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if body and ("solution" in body or "SOLUTION" in body):
        context["body"] = without_markers(plain_solution_titles(body))


def setup(app):
    app.connect("html-page-context", _rewrite)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
