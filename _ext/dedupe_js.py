"""Sphinx extension: write each script of a page once.

Sphinx 7.4 writes an inline script that an extension adds after the builder
starts twice (sphinx-thebe's settings, for example), so the browser reports
"Identifier ... has already been declared" on every page. This drops exact
duplicates from the page's script list.
"""


def _dedupe(app, pagename, templatename, context, doctree):
    seen, unique = set(), []
    for script in context.get("script_files", []):
        key = (getattr(script, "filename", None) or "", getattr(script, "priority", 0),
               tuple(sorted(getattr(script, "attributes", {}).items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    context["script_files"] = unique


def setup(app):
    app.connect("html-page-context", _dedupe, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
