"""Sphinx extension: a folded cell's toggle is named by the words it shows.

MyST-NB folds a cell tagged ``hide-input`` under a ``<summary>`` that shows
"Extra code: show source" but carries ``aria-label="Toggle hidden content"``.
A screen reader then announces a name the sighted reader does not see, which
axe-core reports as a serious problem (label-content-name-mismatch). Dropping
the label lets the visible text name the toggle.
"""

LABELLED = '<summary aria-label="Toggle hidden content">'


def _name_by_visible_text(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if body and LABELLED in body:
        context["body"] = body.replace(LABELLED, "<summary>")


def setup(app):
    app.connect("html-page-context", _name_by_visible_text)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
