"""The book's files as the table of contents lists them, and a local server for a built folder.

One reader of ``_toc.yml`` for the tools, the tests and the benchmarks:

* :func:`toc_files` — every ``file:`` entry, in reading order, as written in
  ``_toc.yml`` but without a source suffix (``chapters/01_x/x``);
* :func:`source_file` — the notebook or Markdown file behind one entry;
* :func:`toc_pages` — the HTML page each entry becomes (``chapters/01_x/x.html``);
* :func:`chapter_notebooks` — the notebooks under ``chapters/`` that it lists.

The rule (the ``jb-book`` format of Jupyter Book 1): the ``root`` page first,
then the ``chapters`` of each of the ``parts`` (or the top-level
``chapters``), each entry followed by its ``sections``, depth first, which is
the order of the book's navigation. ``url:`` entries are not files and are
skipped; a ``glob:`` entry stands for the matching sources, sorted. An entry
may name its file with or without the ``.ipynb``/``.md`` suffix; the suffix is
dropped (and only a source suffix: ``notes.v2`` stays ``notes.v2``). An entry
listed twice is returned once.

:func:`serve` is a context manager that serves a folder on a free loopback
port, without request logs, and yields its base URL.

Scripts in ``tools/`` import this module directly; tests and benchmarks put
``tools/`` on ``sys.path`` first.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Suffixes of the sources a table-of-contents entry can name.
SOURCE_SUFFIXES = (".ipynb", ".md", ".rst")


def _read_toc(toc: dict | Path | str | None) -> tuple[dict, Path]:
    """The parsed table of contents and the folder its paths are relative to."""
    if isinstance(toc, dict):
        return toc, ROOT
    path = ROOT if toc is None else Path(toc)
    if path.is_dir():
        path = path / "_toc.yml"
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8")), path.parent


def _strip_suffix(name: str) -> str:
    for suffix in SOURCE_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def toc_files(toc: dict | Path | str | None = None, *, sections: bool = True) -> list[str]:
    """Every file entry of the table of contents, in reading order, without a source suffix.

    Parameters
    ----------
    toc : dict, path or None
        A parsed ``_toc.yml``, the path of one, or the folder holding it
        (default: the repository's).
    sections : bool
        Include the ``sections`` below each chapter (False: the root page and
        the chapters only).
    """
    parsed, base = _read_toc(toc)
    files: list[str] = []

    def add(name: str) -> None:
        name = _strip_suffix(str(name))
        if name not in files:
            files.append(name)

    def walk(entries) -> None:
        for entry in entries or []:
            if "file" in entry:
                add(entry["file"])
            elif "glob" in entry:
                matches = sorted({p for s in SOURCE_SUFFIXES for p in base.glob(entry["glob"] + s)})
                for match in matches:
                    add(match.relative_to(base).as_posix())
            if sections:
                walk(entry.get("sections"))
            walk(entry.get("chapters"))

    if "root" in parsed:
        add(parsed["root"])
    for part in parsed.get("parts") or []:
        walk(part.get("chapters"))
    walk(parsed.get("chapters"))
    return files


def source_file(name: str, root: Path = ROOT) -> Path | None:
    """The source (``.ipynb``, ``.md`` or ``.rst``) of table-of-contents entry ``name``, or None."""
    for suffix in SOURCE_SUFFIXES:
        path = root / f"{name}{suffix}"
        if path.is_file():
            return path
    return None


def toc_pages(root: Path = ROOT) -> list[str]:
    """The HTML pages the table of contents promises, in order (paths relative to the built folder)."""
    return [f"{name}.html" for name in toc_files(root)]


def chapter_notebooks(root: Path = ROOT) -> list[Path]:
    """The notebooks under ``chapters/`` that the table of contents lists, in its order."""
    found = []
    for name in toc_files(root):
        path = root / f"{name}.ipynb"
        if name.startswith("chapters/") and path.is_file():
            found.append(path)
    return found


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """A static file handler that logs nothing (test and benchmark output stays readable)."""

    def log_message(self, format, *args):  # noqa: A002 - the signature of the base class
        pass


@contextlib.contextmanager
def serve(folder: Path | str) -> Iterator[str]:
    """Serve ``folder`` over HTTP on 127.0.0.1 and a free port; yield the base URL (no trailing slash).

    A ``ThreadingHTTPServer`` in a daemon thread; it is shut down when the
    ``with`` block ends.
    """
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name=f"serve {folder}", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
