"""Sphinx extension: a static figure for each continuous widget, shown until the widget draws.

MyST-NB writes only one representation of an output, the widget view, which
shows nothing when scripts do not run, or until the widget scripts have
arrived. For every widget view whose notebook output also carries a PNG (the
widgets of mlrefined_lib.live put the initial view and its text description
there), this puts that PNG with its alt text right before the view, as an
``img.widget-fallback``: a reader without JavaScript keeps it, and
``book.css`` hides it once ``assets/widget-loader.js`` has drawn the widget. Views are matched by their order
in the notebook, not by model id: the build may execute the notebook again,
which gives the models new ids (when the counts differ, nothing is added).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
VIEW_SCRIPT = re.compile(r'<script type="application/vnd\.jupyter\.widget-view\+json">(.*?)</script>', re.S)


def _fallbacks(notebook: Path) -> list[tuple[str, str] | None]:
    """For each widget-view output in order: (base64 PNG, alt text) if it carries a PNG, else None."""
    found = []
    for cell in json.loads(notebook.read_text(encoding="utf-8")).get("cells", []):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW not in data:
                continue
            if "image/png" in data:
                png = data["image/png"]
                png = "".join(png) if isinstance(png, list) else png
                alt = output.get("metadata", {}).get("image/png", {}).get("alt") or "".join(data.get("text/plain", ""))
                found.append((png.replace("\n", ""), alt))
            else:
                found.append(None)
    return found


def _add_fallbacks(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if not body or WIDGET_VIEW not in body:
        return
    source = Path(app.env.doc2path(pagename))
    if source.suffix != ".ipynb" or not source.is_file():
        return
    fallbacks = _fallbacks(source)
    if not any(fallbacks) or len(VIEW_SCRIPT.findall(body)) != len(fallbacks):
        return
    position = iter(fallbacks)

    def add(match):
        fallback = next(position)
        if fallback is None:
            return match.group(0)
        png, alt = fallback
        return (f'<img class="widget-fallback" src="data:image/png;base64,{png}" '
                f'alt="{html.escape(alt, quote=True)}" />{match.group(0)}')

    context["body"] = VIEW_SCRIPT.sub(add, body)


def setup(app):
    app.connect("html-page-context", _add_fallbacks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
