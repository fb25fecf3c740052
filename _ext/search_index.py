"""Sphinx extension: the book's search index, built by Pagefind with the book.

Each page's own text is marked for Pagefind (``data-pagefind-body`` around the
page's body; Sphinx's generated pages, the search page and the indexes, are
left out), and when the HTML build has finished, Pagefind (installed from the
Python package ``pagefind[bin]``, see requirements-dev.txt) indexes the built
pages into ``pagefind/``. It skips what is not the text: code cells and
their printed output, the source of the math, the buttons and the print-only
copies of the title. Headings carry their section's id, so that a result can
lead to its section. ``assets/search.js`` searches that index on the search
page, in the browser.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from sphinx.errors import ExtensionError

#: What Pagefind leaves out of the index and the excerpts.
NOT_TEXT = [
    ".cell_input", ".cell_output", "div.highlight", "pre", ".math", "mjx-container", "script", "style",
    ".headerlink", ".toggle-details", "details.hide", ".widget-print-note", ".scroll-hint", ".figure-scroll-hint",
    ".live-teaser", "img",
]
#: Files of Pagefind's bundle that no page loads.
UNUSED = ("pagefind-ui.*", "pagefind-component-ui.*", "pagefind-modular-ui.*", "pagefind-highlight.js")
#: A section's heading, right after the section's opening tag: the heading gets the section's id
#: as its own, ``<id>-heading`` (the section keeps its id, so every link to it still lands).
SECTION_HEADING = re.compile(r'(<section id="(?P<id>[^"]+)">\s*<h(?P<level>[1-6]))>')


def mark_body(body: str) -> str:
    """The page's body inside Pagefind's ``data-pagefind-body``, each section's heading with an id."""
    body = SECTION_HEADING.sub(lambda m: f'{m.group(1)} id="{m.group("id")}-heading">', body)
    return f"<div data-pagefind-body>{body}</div>"


def _mark(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if body and doctree is not None and pagename not in ("search", "genindex", "py-modindex"):
        context["body"] = mark_body(body)


def _index(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    command = [sys.executable, "-m", "pagefind", "--site", str(app.outdir), "--quiet",
               "--exclude-selectors", ", ".join(NOT_TEXT)]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    except OSError as error:
        raise ExtensionError(f"search_index: could not run Pagefind ({error})") from error
    if result.returncode != 0 or not (Path(app.outdir) / "pagefind" / "pagefind.js").is_file():
        raise ExtensionError("search_index: Pagefind did not build the search index (is `pagefind[bin]` installed? "
                             f"run `make venv`):\n{result.stdout}{result.stderr}")
    # Pagefind's ready-made interfaces: assets/search.js draws the results itself.
    for unused in UNUSED:
        for path in (Path(app.outdir) / "pagefind").glob(unused):
            path.unlink()


def setup(app):
    app.connect("html-page-context", _mark, priority=990)
    # _ext/lean_site.py tidies _static/ only: it leaves pagefind/ alone.
    app.connect("build-finished", _index)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
