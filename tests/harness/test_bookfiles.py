"""tools/bookfiles.py: the one reader of _toc.yml, and the local server of a built folder."""

from __future__ import annotations

import sys
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import bookfiles  # noqa: E402


def test_reading_order_root_chapters_sections_and_suffixes(tmp_path):
    (tmp_path / "chapters").mkdir()
    for name in ("a.ipynb", "b.md", "c.ipynb", "g1.md", "g2.ipynb"):
        (tmp_path / "chapters" / name).write_text("{}")
    (tmp_path / "_toc.yml").write_text(
        "format: jb-book\nroot: intro.md\nparts:\n"
        "  - caption: One\n    chapters:\n"
        "      - file: chapters/a.ipynb\n        sections:\n          - file: chapters/b\n"
        "      - url: https://example.org\n        title: elsewhere\n"
        "      - file: notes.v2\n"
        "  - caption: Two\n    chapters:\n      - file: chapters/c\n      - glob: chapters/g*\n      - file: chapters/a\n"
    )
    assert bookfiles.toc_files(tmp_path) == [
        "intro", "chapters/a", "chapters/b", "notes.v2", "chapters/c", "chapters/g1", "chapters/g2"]
    assert bookfiles.toc_files(tmp_path, sections=False) == [
        "intro", "chapters/a", "notes.v2", "chapters/c", "chapters/g1", "chapters/g2"]
    assert bookfiles.toc_pages(tmp_path)[:2] == ["intro.html", "chapters/a.html"]
    assert [p.name for p in bookfiles.chapter_notebooks(tmp_path)] == ["a.ipynb", "c.ipynb", "g2.ipynb"]
    assert bookfiles.source_file("chapters/b", tmp_path) == tmp_path / "chapters" / "b.md"


def test_the_book_toc_starts_with_its_landing_page():
    files = bookfiles.toc_files()
    assert files[0] == "intro" and all(bookfiles.source_file(name) for name in files)


def test_serve_yields_a_loopback_url_and_stops(tmp_path):
    (tmp_path / "page.html").write_text("hello")
    with bookfiles.serve(tmp_path) as url:
        assert url.startswith("http://127.0.0.1:")
        assert urllib.request.urlopen(f"{url}/page.html", timeout=5).read() == b"hello"


def test_serve_compresses_text_for_a_client_that_accepts_gzip(tmp_path):
    import gzip

    text = "<p>" + "feature engineering " * 500 + "</p>"
    (tmp_path / "page.html").write_text(text)
    (tmp_path / "figure.png").write_bytes(b"\x89PNG not really")
    with bookfiles.serve(tmp_path) as url:
        request = urllib.request.Request(f"{url}/page.html", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.headers["Content-Encoding"] == "gzip"
            assert response.headers["Content-Type"].startswith("text/html")
            body = response.read()
        assert len(body) < len(text) / 10 and gzip.decompress(body).decode() == text
        with urllib.request.urlopen(f"{url}/page.html", timeout=5) as plain:  # no Accept-Encoding: as stored
            assert plain.headers["Content-Encoding"] is None and plain.read().decode() == text
        image = urllib.request.Request(f"{url}/figure.png", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(image, timeout=5) as response:
            assert response.headers["Content-Encoding"] is None and response.read() == b"\x89PNG not really"
        missing = urllib.request.Request(f"{url}/nope.html", headers={"Accept-Encoding": "gzip"})
        try:
            urllib.request.urlopen(missing, timeout=5)
            raise AssertionError("a missing file was served")
        except urllib.error.HTTPError as error:
            assert error.code == 404
