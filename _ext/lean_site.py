"""Sphinx extension: the built site keeps only what a reader fetches, at the size it needs.

When an HTML build has finished, this

- stores each output figure (``_images/*.png``) with a palette of 256
  colours when that makes the file smaller and the picture stays the same to
  the eye: matplotlib's figures are flat colours and antialiased edges, so the
  "maximum coverage" palette keeps pure white white and every pixel within
  :data:`MAX_ERROR` levels (of 255) of the original (checked here, image by
  image; a figure that would differ more stays as it was). This halves the
  figures. The notebooks keep matplotlib's own PNGs;
- removes from the downloadable notebooks (``_sources/**/*.ipynb``) the
  narrow figure layouts that the page build reads (``"narrow"`` in an output's
  metadata, :mod:`mlrefined_lib.narrow`): the reader's notebook draws them
  again when it runs;
- deletes from ``_static/`` what no page requests: the themes' source maps
  (``*.map``, which a browser's developer tools fetch only on request), the
  licence notes of the theme's Font Awesome and Bootstrap scripts (which
  ``assets/scripts/fontawesome.js`` and ``assets/scripts/bootstrap.js``
  replace, each with its own notice), the theme's translation
  catalogues (read while building), and the Font Awesome web fonts that no rule
  of the theme's stylesheet uses (the TrueType copies, which a browser that
  reads WOFF2 never fetches, and the regular style).

Sphinx copies the static files (``html_static_path``) only at the end of a
build that wrote a page. So that ``make book`` shows a changed stylesheet or
script when no page changed, a build whose static files differ from the copies
in ``_static/`` writes the landing page again (:func:`_static_changed`).
"""

from __future__ import annotations

import base64
import filecmp
import io
import json
import shutil
from pathlib import Path

UNUSED = ("**/*.map", "scripts/fontawesome.js.LICENSE.txt", "scripts/bootstrap.js.LICENSE.txt", "locales",
          "vendor/fontawesome/webfonts/*.ttf", "vendor/fontawesome/webfonts/fa-regular-400.*")
#: The largest difference, in levels of 0-255 on any channel, that a palette
#: may make to any pixel of a figure.
MAX_ERROR = 24
COLOURS = 256


def palette_png(data: bytes) -> bytes | None:
    """``data`` (a PNG) with a 256-colour palette, or None when that is not smaller or not faithful.

    Faithful: every pixel within :data:`MAX_ERROR` levels on every channel,
    and the pure white pixels still pure white. Pictures with transparency, and
    those already stored with a palette, are left alone.
    """
    import numpy as np
    from PIL import Image

    image = Image.open(io.BytesIO(data))
    if image.mode not in ("RGB", "RGBA"):
        return None
    if image.mode == "RGBA":
        if image.getchannel("A").getextrema()[0] < 255:
            return None
        image = image.convert("RGB")
    reduced = image.quantize(COLOURS, method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE)
    before = np.asarray(image, dtype=np.int16)
    after = np.asarray(reduced.convert("RGB"), dtype=np.int16)
    white = (before == 255).all(axis=2)
    if np.abs(before - after).max() > MAX_ERROR or not (after[white] == 255).all():
        return None
    out = io.BytesIO()
    reduced.save(out, "PNG", optimize=True)
    return out.getvalue() if out.tell() < len(data) else None


def without_narrow_layouts(notebook: dict) -> int:
    """Remove the narrow figure layouts from ``notebook``'s outputs in place; return how many."""
    removed = 0
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            png = output.get("metadata", {}).get("image/png")
            if isinstance(png, dict) and png.pop("narrow", None) is not None:
                removed += 1
    return removed


def with_palette_figures(notebook: dict, palette=palette_png) -> int:
    """Store ``notebook``'s PNG outputs through ``palette`` (in place) where it gives a smaller file; return how many."""
    changed = 0
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            encoded = output.get("data", {}).get("image/png")
            if not isinstance(encoded, str):
                continue
            smaller = palette(base64.b64decode(encoded))
            if smaller is not None:
                output["data"]["image/png"] = base64.b64encode(smaller).decode("ascii")
                changed += 1
    return changed


def _cached(function):
    """``function`` of bytes, computed once per distinct input (a figure is both in _images and in a download)."""
    seen: dict[bytes, bytes | None] = {}

    def once(data: bytes):
        if data not in seen:
            seen[data] = function(data)
        return seen[data]

    return once


def _figures(outdir: Path, palette=palette_png) -> None:
    for path in (outdir / "_images").glob("*.png"):
        smaller = palette(path.read_bytes())
        if smaller is not None:
            path.write_bytes(smaller)


def _sources(outdir: Path, palette=palette_png) -> None:
    for path in (outdir / "_sources").rglob("*.ipynb"):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        if without_narrow_layouts(notebook) + with_palette_figures(notebook, palette):
            path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _static(outdir: Path) -> None:
    for pattern in UNUSED:
        for path in (outdir / "_static").glob(pattern):
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def _lean(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    palette = _cached(palette_png)
    _figures(outdir, palette)
    _sources(outdir, palette)
    _static(outdir)


def _static_changed(app, env, added, changed, removed):
    """The root document, to be read and written again, when one of the book's static files differs from its copy."""
    if app.builder.format != "html":
        return []
    out = Path(app.outdir) / "_static"
    for folder in app.config.html_static_path:
        if Path(folder).is_absolute():
            continue  # an extension's own files (which it may render from templates), not the book's
        source = Path(app.confdir) / folder
        for path in (source.rglob("*") if source.is_dir() else ()):
            if not path.is_file() or path.name.startswith(".") or path.name == "README.md":
                continue
            copy = out / path.relative_to(source)
            if not copy.is_file() or (path.stat().st_mtime > copy.stat().st_mtime
                                      and not filecmp.cmp(path, copy, shallow=False)):
                return [] if env.config.root_doc in changed else [env.config.root_doc]
    return []


def setup(app):
    app.connect("build-finished", _lean)
    app.connect("env-get-outdated", _static_changed)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
