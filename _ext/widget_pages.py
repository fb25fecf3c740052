"""Sphinx extension: pages with widgets paint first, every figure opens at full
size, and the built site keeps only files a reader can fetch.

MyST-NB writes a page's widget state (every live widget's data) into a script in
the page's ``<head>``, so a browser on a slow network shows nothing until all of
it has arrived. This extension, for each page:

- moves the widget state to the end of the page body, after the text
  (``assets/widget-loader.js`` reads it from anywhere in the document);
- wraps every output figure in a link to its PNG, so a reader can open any
  figure at full size.

When the build has finished, it deletes from the output what no page requests:
the themes' source maps (``*.map``, a browser's developer tools fetch them
only on request), the licence notes of the theme's Font Awesome script (which
``assets/scripts/fontawesome.js`` replaces), the theme's translation
catalogues (read while building), and the Font Awesome web fonts that no rule
of the theme's stylesheet uses (the TrueType copies, which a browser that
reads WOFF2 never fetches, and the regular style).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

STATE_TYPE = "application/vnd.jupyter.widget-state+json"
OUTPUT_IMAGE = re.compile(r'(?P<img><img alt="[^"]*" src="(?P<src>[^"]*_images/[^"]+\.png)" />)')
UNUSED = ("**/*.map", "scripts/fontawesome.js.LICENSE.txt", "locales",
          "vendor/fontawesome/webfonts/*.ttf", "vendor/fontawesome/webfonts/fa-regular-400.*")


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
        body += f'\n<script type="{STATE_TYPE}">{state_script.attributes["body"]}</script>\n'
    body = OUTPUT_IMAGE.sub(
        lambda m: f'<a class="figure-full" href="{m.group("src")}" target="_blank" rel="noopener">{m.group("img")}</a>',
        body)
    context["body"] = body


def _remove_unused(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    for pattern in UNUSED:
        for path in static.glob(pattern):
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def setup(app):
    app.connect("html-page-context", _rewrite, priority=950)
    app.connect("build-finished", _remove_unused)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
