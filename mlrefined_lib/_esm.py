"""The front-end modules of the live widgets, as a browser receives them.

Each widget's front end is an ES module in ``mlrefined_lib/static/``. Code
that several widgets share lives once, in ``static/_shared.js``; a widget's
module as sent to the browser is that shared code followed by the widget's
own file. Jupyter receives the text through the widget's ``_esm`` trait (it
imports it from memory, so a module cannot import a sibling file), and the
static book serves the same text from ``_static/vendor/mlrefined/``, written
by ``tools/vendor_assets.py`` with :func:`module_text`. This module imports
nothing from the rest of the library, so tools can load it on its own.
"""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
SHARED = "_shared.js"


def module_names() -> list[str]:
    """The widget modules of ``static/`` (every ``.js`` file but the shared code), sorted."""
    return sorted(p.name for p in STATIC.glob("*.js") if p.name != SHARED)


def module_text(name: str) -> str:
    """The ES module ``name`` (a file name in ``static/``) as the browser receives it."""
    if name == SHARED or not (STATIC / name).is_file():
        raise ValueError(f"module_text: expected one of {module_names()}, got {name!r}")
    shared = STATIC / SHARED
    prefix = shared.read_text(encoding="utf-8") + "\n" if shared.is_file() else ""
    return prefix + (STATIC / name).read_text(encoding="utf-8")
