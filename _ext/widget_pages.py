"""Sphinx extension: pages with widgets paint first, and every figure opens at full size.

MyST-NB writes a page's widget state (every live widget's data) into a script in
the page's ``<head>``, so a browser on a slow network shows nothing until all of
it has arrived. This extension, for each page:

- moves the widget state to the end of the page body, after the text
  (``assets/widget-loader.js`` draws the widgets as soon as it is parsed), and
  drops from it each anywidget's stored front end (``_esm`` and ``_css``): the
  loader imports the book's own copy and never reads them, so a page carries
  no code it does not run (about 30 KB per widget);
- wraps every output figure in a link to its PNG, so a reader can open any
  figure at full size.
"""

from __future__ import annotations

import json
import re

STATE_TYPE = "application/vnd.jupyter.widget-state+json"
OUTPUT_IMAGE = re.compile(r'(?P<img><img alt="[^"]*" src="(?P<src>[^"]*_images/[^"]+\.png)" />)')


def _rewrite(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if not body:
        return
    state_script = None
    scripts = []
    for script in context.get("script_files", []):
        if getattr(script, "attributes", {}).get("type") == STATE_TYPE:
            state_script = script
        else:
            scripts.append(script)
    if state_script is not None:
        context["script_files"] = scripts
        body += f'\n<script type="{STATE_TYPE}">{without_front_ends(state_script.attributes["body"])}</script>\n'
    body = OUTPUT_IMAGE.sub(
        lambda m: f'<a class="figure-full" href="{m.group("src")}" target="_blank" rel="noopener">{m.group("img")}</a>',
        body)
    context["body"] = body


def without_front_ends(state_json: str) -> str:
    """The widget state ``state_json`` without the anywidgets' stored ``_esm`` and ``_css``."""
    state = json.loads(state_json)
    for model in state.get("state", {}).values():
        if model.get("model_name") == "AnyModel":
            for key in ("_esm", "_css"):
                model.get("state", {}).pop(key, None)
    # "</" never closes the script early: JSON allows the escaped slash.
    return json.dumps(state, separators=(",", ":")).replace("</", "<\\/")


def setup(app):
    app.connect("html-page-context", _rewrite, priority=950)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
