"""Shared fixtures for test layers 4 (built-HTML checks) and 5 (browser test).

Both layers read the book as built by `make strict-book` in `_build/html`; they
never build it themselves. The helpers parse HTML with the standard library's
`html.parser` only.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import http.server
import json
import posixpath
import threading
import types
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "_build" / "html"
CHAPTER1 = "chapters/01_gradient_descent/gradient_descent.html"
# Pages Sphinx writes for every book; not listed in the table of contents.
GENERATED = {"search.html", "genindex.html", "py-modindex.html"}
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


# ----------------------------------------------------------------- parsing
@dataclass
class Page:
    """What the checks need from one built HTML page."""

    path: str  # relative to _build/html, with forward slashes
    ids: set = field(default_factory=set)
    # (tag, attribute, value, attrs dict) for every href/src on a, link, script, img
    refs: list = field(default_factory=list)
    # (attrs dict, text) for every <script>
    scripts: list = field(default_factory=list)
    styles: list = field(default_factory=list)  # text of inline <style> blocks

    def scripts_of_type(self, mime: str) -> list[str]:
        return [text for attrs, text in self.scripts if attrs.get("type") == mime]


class _Parser(HTMLParser):
    REF_TAGS = {"a": ("href",), "link": ("href",), "script": ("src",), "img": ("src",)}

    def __init__(self, page: Page):
        super().__init__(convert_charrefs=True)
        self.page = page
        self._in: tuple[str, dict] | None = None  # inside <script> or <style>
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = {k: (v or "") for k, v in attrs}
        if "id" in attrs:
            self.page.ids.add(attrs["id"])
        if tag == "a" and "name" in attrs:
            self.page.ids.add(attrs["name"])
        for attr in self.REF_TAGS.get(tag, ()):
            if attr in attrs:
                self.page.refs.append((tag, attr, attrs[attr].strip(), attrs))
        if tag in ("script", "style"):
            self._in, self._text = (tag, attrs), []

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in ("script", "style"):
            self.handle_endtag(tag)

    def handle_data(self, data):
        if self._in is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if self._in is not None and tag == self._in[0]:
            kind, attrs = self._in
            text = "".join(self._text)
            if kind == "script":
                self.page.scripts.append((attrs, text))
            else:
                self.page.styles.append(text)
            self._in = None


@functools.lru_cache(maxsize=None)
def parse_page(path: str) -> Page:
    page = Page(path=path)
    parser = _Parser(page)
    parser.feed((BUILD / path).read_text(encoding="utf-8"))
    parser.close()
    return page


def is_external(url: str) -> bool:
    """True for a URL that leaves the book (other host, or a non-file scheme)."""
    parts = urlsplit(url)
    return bool(parts.scheme) or url.startswith("//")


def is_remote(url: str) -> bool:
    """True for a URL fetched from another machine (http, https, or protocol-relative)."""
    return url.startswith("//") or urlsplit(url).scheme in ("http", "https", "ftp", "ws", "wss")


def resolve(page_path: str, url: str) -> tuple[str | None, str]:
    """Resolve an internal URL found in `page_path` to (path in _build/html, fragment).

    The path is None when the URL climbs out of the book.
    """
    parts = urlsplit(url)
    base = posixpath.dirname(page_path)
    target = unquote(parts.path)
    if not target:
        return page_path, parts.fragment
    joined = posixpath.normpath(posixpath.join(base, target))
    if joined == ".." or joined.startswith("../"):
        return None, parts.fragment
    if target.endswith("/") or (BUILD / joined).is_dir():
        joined = posixpath.join(joined, "index.html")
    return joined, parts.fragment


# ------------------------------------------------------------ widget state
@dataclass
class FrameSliderInfo:
    """One `frames_slider` widget read from a page's embedded widget state."""

    slider_id: str
    stack_id: str
    labels: list  # the slider's readouts, in order
    initial: int  # the slider's index when the page loads
    frame_sha256: list  # SHA-256 of each frame's PNG bytes, in stack order
    play_id: str | None


def widget_state(path: str) -> dict | None:
    blocks = parse_page(path).scripts_of_type(WIDGET_STATE)
    if not blocks:
        return None
    assert len(blocks) == 1, f"{path}: {len(blocks)} widget-state blocks (expected 1)"
    return json.loads(blocks[0])


def image_bytes(model: dict) -> bytes:
    for buffer in model.get("buffers", []):
        if buffer.get("path") == ["value"]:
            assert buffer.get("encoding") == "base64", buffer.get("encoding")
            return base64.b64decode(buffer["data"])
    raise AssertionError("an ImageModel has no base64 'value' buffer")


def frame_sliders(path: str) -> list[FrameSliderInfo]:
    """Every slider whose index is jslinked to a Stack's selected_index on the page."""
    state = (widget_state(path) or {}).get("state", {})
    ref = "IPY_MODEL_"
    sliders = []
    for model in state.values():
        if model["model_name"] != "LinkModel":
            continue
        (src, src_attr), (dst, dst_attr) = model["state"]["source"], model["state"]["target"]
        src, dst = src.removeprefix(ref), dst.removeprefix(ref)
        pair = {state[src]["model_name"]: (src, src_attr), state[dst]["model_name"]: (dst, dst_attr)}
        if "StackModel" not in pair or pair["StackModel"][1] != "selected_index":
            continue
        (slider_id, slider_attr), = [v for k, v in pair.items() if k != "StackModel"]
        stack_id = pair["StackModel"][0]
        slider = state[slider_id]["state"]
        stack = state[stack_id]["state"]
        frames = [image_bytes(state[c.removeprefix(ref)]) for c in stack["children"]]
        labels = slider.get("_options_labels") or [str(v) for v in range(slider["min"], slider["max"] + 1)]
        play_id = None
        for other in state.values():
            if other["model_name"] == "LinkModel":
                ends = [e[0].removeprefix(ref) for e in (other["state"]["source"], other["state"]["target"])]
                if slider_id in ends:
                    (peer,) = [e for e in ends if e != slider_id] or [None]
                    if peer and state[peer]["model_name"] == "PlayModel":
                        play_id = peer
        sliders.append(FrameSliderInfo(
            slider_id=slider_id, stack_id=stack_id, labels=list(labels), initial=int(slider[slider_attr]),
            frame_sha256=[hashlib.sha256(f).hexdigest() for f in frames], play_id=play_id,
        ))
    return sliders


# ------------------------------------------------------------------ fixtures
def toc_pages() -> list[str]:
    """The HTML pages the table of contents (_toc.yml) promises, in order."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                files.append(node["file"])
            for key in ("parts", "chapters", "sections"):
                for child in node.get(key, []) or []:
                    walk(child)

    walk(toc)
    return [f"{Path(f).with_suffix('').as_posix()}.html" for f in files]


def toc_sources() -> dict[str, Path]:
    """Built page -> its source file (notebook or Markdown) for each TOC entry."""
    sources = {}
    for page in toc_pages():
        stem = ROOT / page[: -len(".html")]
        found = [p for p in (stem.with_suffix(s) for s in (".ipynb", ".md", ".rst")) if p.exists()]
        if found:
            sources[page] = found[0]
    return sources


@pytest.fixture(scope="session")
def built_html() -> Path:
    """_build/html, checked to exist and to be newer than the book's sources."""
    if not (BUILD / "index.html").exists():
        pytest.fail(f"{BUILD} has no built book: run `make strict-book` first (the HTML tests do not build it).")
    stale = [
        f"{src.relative_to(ROOT)} is newer than {page}"
        for page, src in toc_sources().items()
        if (BUILD / page).exists() and src.stat().st_mtime > (BUILD / page).stat().st_mtime + 1
    ]
    if stale:
        pytest.fail("the built book is stale: run `make strict-book` first.\n  " + "\n  ".join(stale))
    return BUILD


@pytest.fixture(scope="session")
def book(built_html) -> types.SimpleNamespace:
    """The helpers above and the paths, for the test modules (which do not import conftest)."""
    return types.SimpleNamespace(
        root=ROOT, build=built_html, chapter1=CHAPTER1, generated=GENERATED,
        widget_state_mime=WIDGET_STATE, widget_view_mime=WIDGET_VIEW,
        parse=parse_page, resolve=resolve, is_external=is_external, is_remote=is_remote,
        widget_state=widget_state, frame_sliders=frame_sliders, toc_pages=toc_pages,
    )


@pytest.fixture(scope="session")
def all_html(built_html) -> list[str]:
    """Every .html file of the built book (paths relative to _build/html), assets included."""
    return sorted(p.relative_to(built_html).as_posix() for p in built_html.rglob("*.html"))


@pytest.fixture(scope="session")
def book_pages(built_html, all_html) -> list[str]:
    """The book's own pages: every .html outside _static/, _sources/ and _images/."""
    return [p for p in all_html if not p.startswith(("_static/", "_sources/", "_images/"))]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - keep the test output clean
        pass


@pytest.fixture(scope="session")
def book_server(built_html):
    """Serve _build/html on a free loopback port; yields the base URL (no trailing slash)."""
    handler = functools.partial(_QuietHandler, directory=str(built_html))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="book-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
