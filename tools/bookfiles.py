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
import gzip
import http.server
import io
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


#: Served gzip-compressed to a client that accepts it, as static hosts serve text.
COMPRESSED_SUFFIXES = frozenset({".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".xml", ".ipynb", ".md"})


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """A static file handler that logs nothing (test and benchmark output stays readable).

    Like a static host (GitHub Pages, Netlify, nginx with ``gzip on``), it sends
    text files gzip-compressed (level 6) to a client whose ``Accept-Encoding``
    names gzip, so that a browser on a throttled connection receives the bytes
    a reader's browser would; images and fonts, already compressed, go as they are.
    """

    def log_message(self, format, *args):  # noqa: A002 - the signature of the base class
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.suffix.lower() in COMPRESSED_SUFFIXES and path.is_file()):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(http.HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)


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


def gzipped_size(path: Path) -> int:
    """Bytes of ``path`` gzip-compressed at level 6, as a static host that compresses sends it."""
    return len(gzip.compress(path.read_bytes(), compresslevel=6, mtime=0))


def first_visit(browser, site: Path, base: str, page_path: str, viewport=(1280, 900)) -> dict[str, int]:
    """Every file of ``site`` that a first visit of ``page_path`` requests: {path: gzipped bytes}.

    ``browser`` is a Playwright browser and ``base`` the address :func:`serve`
    gives ``site``. The cache is off, and the page is scrolled to its end (so
    that lazy images load too) before the responses are counted.
    """
    from urllib.parse import unquote, urlsplit

    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    urls = []
    page.on("response", lambda response: urls.append(response.url))
    page.goto(f"{base}/{page_path}", wait_until="load", timeout=120_000)
    page.evaluate("""async () => {
        for (let y = 0; y < document.body.scrollHeight; y += innerHeight / 2) {
            scrollTo(0, y); await new Promise((r) => setTimeout(r, 30)); }
        scrollTo(0, document.body.scrollHeight); }""")
    page.wait_for_timeout(1500)
    context.close()
    files = {}
    for url in urls:
        if not url.startswith(base):
            continue
        path = Path(site) / unquote(urlsplit(url).path).lstrip("/")
        if path.is_dir():
            path = path / "index.html"
        if path.is_file():
            files[path.relative_to(site).as_posix()] = gzipped_size(path)
    return files


def between_markers(text: str, start: str, end: str, body: str, name: str) -> str:
    """``text`` with what lies between the marker lines ``start`` and ``end`` replaced by ``body``."""
    if text.count(start) != 1 or text.count(end) != 1 or text.index(start) > text.index(end):
        raise ValueError(f"{name} must hold {start} and {end} once each, in that order")
    head, rest = text.split(start)
    _, tail = rest.split(end)
    return f"{head}{start}\n{body}{end}{tail}"
