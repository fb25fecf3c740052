"""Shared fixtures for test layers 4 (built-HTML checks) and 5 (browser test).

Both layers read the book as built by `make strict-book` in `_build/html`; they
never build it themselves. The helpers parse HTML with the standard library's
`html.parser` only.
"""

from __future__ import annotations

import functools
import json
import os
import posixpath
import sys
import types
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import bookfiles  # noqa: E402  (tools/bookfiles.py: the table of contents and a local server)

BUILD = ROOT / "_build" / "html"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
CHAPTERS_DIR = "chapters/"  # the pages whose widgets and math the tests check one by one
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
def page_id(path: str) -> str:
    """A short readable name for a page in test ids: its chapter folder, or its path."""
    stem = path.removesuffix(".html")
    if stem.startswith(CHAPTERS_DIR):
        return stem[len(CHAPTERS_DIR):].split("/")[0]
    return stem


def widget_state(path: str) -> dict | None:
    blocks = parse_page(path).scripts_of_type(WIDGET_STATE)
    if not blocks:
        return None
    assert len(blocks) == 1, f"{path}: {len(blocks)} widget-state blocks (expected 1)"
    return json.loads(blocks[0])


def widget_views(path: str) -> list[str]:
    """The model id of every widget view the page displays, in document order."""
    return [json.loads(text)["model_id"] for text in parse_page(path).scripts_of_type(WIDGET_VIEW)]


# ------------------------------------------------------------------ fixtures
def toc_pages() -> list[str]:
    """The HTML pages the table of contents (_toc.yml) promises, in order (tools/bookfiles.py reads it)."""
    return bookfiles.toc_pages(ROOT)


def toc_sources() -> dict[str, Path]:
    """Built page -> its source file (notebook or Markdown) for each TOC entry."""
    sources = {}
    for name in bookfiles.toc_files(ROOT):
        source = bookfiles.source_file(name, ROOT)
        if source is not None:
            sources[f"{name}.html"] = source
    return sources


def chapter_pages() -> list[str]:
    """The chapter pages the table of contents lists (files under chapters/), in order."""
    return [p for p in toc_pages() if p.startswith(CHAPTERS_DIR)]


def pytest_generate_tests(metafunc):
    """Parametrize by chapter page (argument `page_path`, or `chapter` for the browser's
    module-scoped page fixture), or by every page of the table of contents (`toc_page`)."""
    names = metafunc.fixturenames
    if "toc_page" in names:  # every page of the table of contents, by its path
        pages = toc_pages()
        metafunc.parametrize("toc_page", pages, ids=[p.removesuffix(".html") for p in pages])
    page_arg = "chapter" if "chapter" in names else "page_path" if "page_path" in names else None
    if page_arg is None:
        return
    pages = chapter_pages()
    metafunc.parametrize(page_arg, pages, ids=[page_id(p) for p in pages], indirect=[page_arg],
                         scope="module" if page_arg == "chapter" else None)


#: Modules whose tests split into one group per device (the parameter ``device``): each
#: group needs only its own device's module-scoped setup, so the two halves can run on
#: two workers. The phone and desktop visits of test_devices.py are the layer's longest run.
SPLIT_BY_DEVICE = {"test_devices.py"}
#: Modules whose checks read what test_devices.py's visit of the same page on the same device
#: measured (test_reading.py's ``_measured``, test_keyboard.py's ``_SEEN``): their tests of a page
#: on a device join that device's group, after test_devices.py's tests (collected first), so the
#: page is not opened again. Each falls back on a visit of its own when the cache misses.
#: module -> the device of a test whose parameters name none (a page of the table of contents).
READS_DEVICE_VISIT = {"test_reading.py": "desktop", "test_keyboard.py": "desktop"}
#: The longest groups, started first (the Makefile runs xdist with --no-loadscope-reorder, so
#: groups start in the order of the items): two workers then finish at about the same time.
LONGEST_FIRST = ("test_devices-desktop", "test_devices-phone", "test_devices_dark", "test_pdf")


class _Groups:
    """Group the tests for pytest-xdist's ``--dist loadgroup`` (the Makefile's test-html):
    a module's tests stay on one worker and in order, as with ``--dist loadfile``, except
    that the modules of SPLIT_BY_DEVICE give one group per device. A plugin of its own,
    so that it runs before xdist reads the groups (tryfirst), while the page order below
    runs after every other hook (trylast)."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, items):
        for item in items:
            group = item.module.__name__.rsplit(".", 1)[-1]
            callspec = getattr(item, "callspec", None)
            params = callspec.params if callspec else {}
            if f"{group}.py" in SPLIT_BY_DEVICE and "device" in params:
                group = f"{group}-{params['device']}"
            elif f"{group}.py" in READS_DEVICE_VISIT and ({"device", "mode", "toc_page"} & set(params)):
                device = params.get("device", params.get("mode", READS_DEVICE_VISIT[f"{group}.py"]))
                group = f"test_devices-{device}"
            item.add_marker(pytest.mark.xdist_group(group))


def pytest_configure(config):
    config.pluginmanager.register(_Groups(), "book-test-groups")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """Run the browser tests page by page, each page's tests in file order (math first,
    then the widgets' tests, the error checks last), so each chapter page is loaded once
    and the error checks see everything the interactions caused. pytest's own grouping by
    module-scoped parameter keeps pages together but not the order within a page."""
    pages = {p: i for i, p in enumerate(chapter_pages())}

    def key(pair):
        position, item = pair
        callspec = getattr(item, "callspec", None)
        page = callspec.params.get("chapter") if callspec else None
        if page is None:
            return (position, 0, 0, 0)
        first = min(pos for pos, other in enumerate(items) if other.module is item.module)
        return (first, pages.get(page, len(pages)), item.function.__code__.co_firstlineno)

    items[:] = [item for _, item in sorted(enumerate(items), key=key)]

    def rank(item):
        mark = item.get_closest_marker("xdist_group")
        name = mark.args[0] if mark else None
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: the order above holds within each rank


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
        root=ROOT, build=built_html, generated=GENERATED,
        widget_state_mime=WIDGET_STATE, widget_view_mime=WIDGET_VIEW,
        parse=parse_page, resolve=resolve, is_external=is_external, is_remote=is_remote,
        widget_state=widget_state, widget_views=widget_views,
        toc_pages=toc_pages, chapter_pages=chapter_pages, page_id=page_id,
    )


@pytest.fixture
def page_path(request, built_html) -> str:
    """One chapter page (the parameter), checked to be built."""
    if not (built_html / request.param).is_file():
        pytest.fail(f"{request.param} is listed in _toc.yml but not built: run `make strict-book`.")
    return request.param


@pytest.fixture(scope="session")
def all_html(built_html) -> list[str]:
    """Every .html file of the built book (paths relative to _build/html), assets included."""
    return sorted(p.relative_to(built_html).as_posix() for p in built_html.rglob("*.html"))


@pytest.fixture(scope="session")
def book_pages(built_html, all_html) -> list[str]:
    """The book's own pages: every .html outside _static/, _sources/ and _images/."""
    return [p for p in all_html if not p.startswith(("_static/", "_sources/", "_images/"))]


@pytest.fixture(scope="session")
def book_server(built_html):
    """Serve _build/html on a free loopback port; yields the base URL (no trailing slash)."""
    with bookfiles.serve(built_html) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium, headless, driven by Playwright (skipped loudly when missing, never in CI)."""
    def unavailable(reason: str):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason} -- CI=true, so the browser test must run, not be skipped.")
        pytest.skip(f"!!! BROWSER TEST (layer 5) NOT RUN: {reason} !!!")

    if not CHROMIUM.exists():
        unavailable(f"{CHROMIUM} not found; install Debian's chromium (`apt-get install chromium`, "
                    "or `make chromium` as root). Never `playwright install`.")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        unavailable(f"Playwright's Python package is missing ({exc}); run `make venv`.")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()
