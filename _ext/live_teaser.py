"""Sphinx extension: a live widget of a chapter, shown on another page as a teaser.

A Markdown page asks for one with raw HTML::

    <div class="live-teaser" data-from="chapters/01_gradient_descent/gradient_descent.ipynb"></div>

and gets, in its place, the first live widget of that notebook (its stored
outputs: the widget view, its still picture with alt text for readers without
JavaScript) and the widget's saved state at the end of the page, as a chapter
page has them (``_ext/widget_pages.py``, ``_ext/live_fallback.py``), with
``assets/widget-loader.js``, which draws it. When the stored notebook keeps
no outputs (the student edition), the copy the build executed serves. A page
that asks for a notebook without a widget fails the build with a message that
says so.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from sphinx.errors import ExtensionError

STATE_TYPE = "application/vnd.jupyter.widget-state+json"
VIEW_TYPE = "application/vnd.jupyter.widget-view+json"
PLACEHOLDER = re.compile(r'<div class="live-teaser" data-from="(?P<source>[^"]+)"></div>')
LOADER = ("widget-loader.js", {"type": "module", "async": "async"})


def first_widget(notebook: dict) -> tuple[dict, dict, tuple[str, str] | None]:
    """The first widget view of ``notebook``, the saved state of its models, and its (base64 PNG, alt text)."""
    state = notebook.get("metadata", {}).get("widgets", {}).get(STATE_TYPE, {}).get("state", {})
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(VIEW_TYPE)
            if not view or view.get("model_id") not in state:
                continue
            models, todo = {}, [view["model_id"]]
            while todo:  # the model and every model its state refers to (its layout)
                model_id = todo.pop()
                if model_id in models or model_id not in state:
                    continue
                models[model_id] = state[model_id]
                todo += re.findall(r'"IPY_MODEL_([0-9a-f]+)"', json.dumps(state[model_id].get("state", {})))
            png = output["data"].get("image/png")
            picture = None
            if png:
                png = "".join(png) if isinstance(png, list) else png
                alt = output.get("metadata", {}).get("image/png", {}).get("alt") or "".join(
                    output["data"].get("text/plain", ""))
                picture = (png.replace("\n", ""), alt)
            return view, models, picture
    raise ValueError("it has no widget with saved state (run it and save its widget state)")


def first_widget_of(app, relative: str):
    """:func:`first_widget` of the stored notebook ``relative``, or, when it keeps no outputs (the
    student edition clears them), of the copy the build executed (MyST-NB keeps it in ``jupyter_execute/``)."""
    source = Path(app.srcdir) / relative
    try:
        return first_widget(json.loads(source.read_text(encoding="utf-8")))
    except ValueError:
        config = getattr(app.env, "mystnb_config", None)
        folder = Path(getattr(config, "output_folder", "") or Path(app.outdir).parent / "jupyter_execute")
        executed = folder / Path(relative).with_suffix(".ipynb")
        if not executed.is_file():
            raise
        return first_widget(json.loads(executed.read_text(encoding="utf-8")))


def _teaser(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if not body or "live-teaser" not in body:
        return
    match = PLACEHOLDER.search(body)
    if match is None:
        return
    try:
        view, models, picture = first_widget_of(app, match.group("source"))
    except (OSError, ValueError) as error:
        raise ExtensionError(f"live_teaser: {pagename} asks for a widget from {match.group('source')}, "
                             f"but {error}") from error
    from widget_pages import without_front_ends  # _ext/ is on the path of local extensions

    still = ""
    if picture is not None:
        png, alt = picture
        still = f'<img class="widget-fallback" src="data:image/png;base64,{png}" alt="{html.escape(alt, quote=True)}" />'
    teaser = (f'<div class="live-teaser">{still}'
              f'<script type="{VIEW_TYPE}">{json.dumps(view)}</script></div>')
    state = json.dumps({"version_major": 2, "version_minor": 0, "state": models})
    context["body"] = (body[:match.start()] + teaser + body[match.end():]
                       + f'\n<script type="{STATE_TYPE}">{without_front_ends(state)}</script>\n')
    app.add_js_file(LOADER[0], **LOADER[1])


def setup(app):
    # Before _ext/dedupe_js.py (900) copies the page's script list, so that the loader is in it.
    app.connect("html-page-context", _teaser, priority=800)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
