"""Sphinx extension: phones get each multi-panel figure in its narrow layout.

A notebook that calls ``mlrefined_lib.narrow.enable_narrow_figures()`` stores,
with each multi-panel figure's PNG, the same figure with its panels stacked
(base64 in the output's metadata, ``"narrow"`` under ``"image/png"``). MyST-NB
writes only the PNG, as ``_images/<sha256 of the PNG>.png``. For every such
output this writes the narrow PNG next to it (``_images/<its sha256>.png``)
and turns the figure's ``<img>`` into a ``<picture>`` whose ``<source>`` serves
it to screens no wider than 700 px (``mlrefined_lib.narrow.NARROW_MEDIA``):
the alt text stays, the link to the full-size figure
(``a.figure-full``, from ``_ext/widget_pages.py``) still opens the wide PNG,
and paper gets the wide figure (the media query asks for a screen).

Outputs are matched by the PNG's hash, so the order of outputs does not
matter, and the notebook read is the one the build executed (MyST-NB keeps it
in ``jupyter_execute/``), or the stored one when the build did not execute it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

# Kept equal to mlrefined_lib.narrow.NARROW_MEDIA (tests/lib/test_narrow.py checks it).
NARROW_MEDIA = "screen and (max-width: 700px)"


def _png(value) -> bytes:
    return base64.b64decode("".join(value) if isinstance(value, list) else value)


def narrow_versions(notebook: Path) -> dict[str, bytes]:
    """For each figure output with a narrow layout: sha256 of its PNG -> the narrow PNG."""
    found = {}
    for cell in json.loads(notebook.read_text(encoding="utf-8")).get("cells", []):
        for output in cell.get("outputs", []):
            narrow = output.get("metadata", {}).get("image/png", {}).get("narrow")
            png = output.get("data", {}).get("image/png")
            if narrow and png:
                found[hashlib.sha256(_png(png)).hexdigest()] = _png(narrow)
    return found


def picture(img: str, narrow_src: str) -> str:
    """An output's ``<img>`` tag inside a ``<picture>`` that serves ``narrow_src`` to narrow screens."""
    return f'<picture class="figure-narrow"><source media="{NARROW_MEDIA}" srcset="{narrow_src}" />{img}</picture>'


def add_narrow_sources(body: str, versions: dict[str, bytes], images: Path) -> tuple[str, int]:
    """Wrap each output image of ``body`` that has a narrow version; write those PNGs into ``images``.

    Returns the new body and how many figures were wrapped.
    """
    count = 0

    def wrap(match):
        nonlocal count
        narrow = versions.get(match.group("hash"))
        if narrow is None or match.group(0).startswith("<picture"):
            return match.group(0)
        name = hashlib.sha256(narrow).hexdigest() + ".png"
        target = images / name
        if not target.is_file():
            images.mkdir(parents=True, exist_ok=True)
            target.write_bytes(narrow)
        count += 1
        return picture(match.group("img"), match.group("prefix") + name)

    pattern = re.compile(r'(?:<picture[^>]*>(?:<source[^>]*>)*)?'
                         r'(?P<img><img [^>]*src="(?P<prefix>[^"]*_images/)(?P<hash>[0-9a-f]{64})\.png"[^>]*>)')
    return pattern.sub(wrap, body), count


def _executed_notebook(app, pagename: str) -> Path | None:
    source = Path(app.env.doc2path(pagename))
    if source.suffix != ".ipynb" or not source.is_file():
        return None
    config = getattr(app.env, "mystnb_config", None)
    folder = Path(getattr(config, "output_folder", "") or Path(app.outdir).parent / "jupyter_execute")
    executed = folder / f"{pagename}.ipynb"
    return executed if executed.is_file() else source


def _add_narrow_figures(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if not body or "_images/" not in body:
        return
    notebook = _executed_notebook(app, pagename)
    if notebook is None:
        return
    versions = narrow_versions(notebook)
    if versions:
        context["body"], _ = add_narrow_sources(body, versions, Path(app.outdir) / "_images")


def setup(app):
    # After _ext/widget_pages.py (priority 950) has linked each figure to its PNG.
    app.connect("html-page-context", _add_narrow_figures, priority=960)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
