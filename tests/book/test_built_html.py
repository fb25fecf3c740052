"""Test layer 4: checks on the built HTML in _build/html (no browser).

Run after `make strict-book`:  .venv/bin/pytest tests/book/test_built_html.py -q
The helpers (HTML parsing with the standard library, widget-state reading) are
in conftest.py and reach the tests through the `book` fixture.
"""

from __future__ import annotations

import re
from collections import Counter

MAX_PAGE_BYTES = 3 * 1024 * 1024  # DESIGN.md: at most 3 MB per built page
MIN_CHAPTER1_FRAMES = 25
# The scripts the book serves itself (see _config.yml and tools/vendor_assets.py).
VENDORED = {
    "MathJax": "_static/vendor/mathjax/tex-chtml.js",
    "require.js": "_static/vendor/require.js",
    "the widget HTML manager": "_static/vendor/html-manager/embed-amd.js",
}
IMPORT = re.compile(r"""@import\s+(?:url\(\s*)?["']?([^"')\s;]+)""")


def test_every_toc_page_was_built(book, book_pages):
    missing = [p for p in book.toc_pages() if not (book.build / p).is_file()]
    assert not missing, f"pages listed in _toc.yml but not built: {missing}"
    missing = [p for p in ["index.html", *sorted(book.generated)] if not (book.build / p).is_file()]
    assert not missing, f"pages every Sphinx book has are missing: {missing}"


def test_internal_links_resolve(book, book_pages):
    """Every href/src of <a>, <link>, <script>, <img> that stays in the book points at a
    file, and a #fragment of a link to a book page names an id on that page."""
    broken = []
    checked = fragments = 0
    for page in book_pages:
        for tag, attr, url, _attrs in book.parse(page).refs:
            if not url or book.is_external(url):
                continue
            checked += 1
            target, fragment = book.resolve(page, url)
            where = f"{page}: <{tag} {attr}={url!r}>"
            if target is None:
                broken.append(f"{where} climbs out of the book")
            elif not (book.build / target).is_file():
                broken.append(f"{where} -> {target} does not exist")
            elif fragment and target.endswith(".html") and not target.startswith("_static/"):
                fragments += 1
                if fragment not in book.parse(target).ids:
                    broken.append(f"{where} -> no id {fragment!r} in {target}")
    assert checked > 50 and fragments > 10, f"only {checked} internal links ({fragments} with #fragments) found"
    assert not broken, f"{len(broken)} broken internal link(s):\n  " + "\n  ".join(broken)


def _remote_imports(book, page: str, seen: set) -> list[tuple[str, str]]:
    """(where, url) of every remote @import in a page's inline styles and the local
    stylesheets it loads (followed through their own local @imports)."""
    found, sheets = [], []
    for tag, _attr, url, attrs in book.parse(page).refs:
        if tag == "link" and "stylesheet" in attrs.get("rel", "").split() and not book.is_external(url):
            sheets.append(book.resolve(page, url)[0])
    for text in book.parse(page).styles:
        for url in IMPORT.findall(text):
            if book.is_remote(url):
                found.append((f"{page} <style>", url))
            elif not book.is_external(url):
                sheets.append(book.resolve(page, url)[0])
    while sheets:
        sheet = sheets.pop()
        if sheet is None or sheet in seen or not (book.build / sheet).is_file():
            continue  # a missing file is reported by test_internal_links_resolve
        seen.add(sheet)
        for url in IMPORT.findall((book.build / sheet).read_text(encoding="utf-8", errors="replace")):
            if book.is_remote(url):
                found.append((sheet, url))
            elif not book.is_external(url):
                sheets.append(book.resolve(sheet, url)[0])
    return found


def test_no_page_loads_a_remote_script_or_stylesheet(book, book_pages):
    remote = []
    seen_sheets: set = set()
    for page in book_pages:
        for tag, attr, url, attrs in book.parse(page).refs:
            if not book.is_remote(url):
                continue
            rel = set(attrs.get("rel", "").split())
            preloads = bool(rel & {"preload", "modulepreload"}) and attrs.get("as") in ("script", "style")
            if tag == "script" or (tag == "link" and ("stylesheet" in rel or preloads)):
                remote.append(f"{page}: <{tag} {attr}={url!r}>")
        remote += [f"{where}: @import {url!r}" for where, url in _remote_imports(book, page, seen_sheets)]
    assert seen_sheets, "no local stylesheet found: is the parser missing <link rel=stylesheet>?"
    assert not remote, "pages load scripts or stylesheets from other machines (the book must work offline):\n  " + (
        "\n  ".join(remote)
    )


def test_pages_use_the_books_own_mathjax_requirejs_and_widget_manager(book, book_pages):
    """A page that typesets math or embeds widgets loads the copies under _static/vendor/
    (chapter 1 must do both)."""
    problems, checked = [], {}
    for page in book_pages:
        if page in book.generated:
            continue
        text = (book.build / page).read_text(encoding="utf-8")
        needs = []
        if 'class="math' in text or page == book.chapter1:
            needs.append("MathJax")
        if book.widget_state(page) is not None or page == book.chapter1:
            needs += ["require.js", "the widget HTML manager"]
        if not needs:
            continue
        checked[page] = needs
        scripts = {book.resolve(page, url)[0] for tag, _a, url, _attrs in book.parse(page).refs if tag == "script"}
        problems += [f"{page} does not load {name} from {VENDORED[name]}" for name in needs if VENDORED[name] not in scripts]
    assert book.chapter1 in checked
    assert not problems, "\n".join(problems)
    missing = [path for path in VENDORED.values() if not (book.build / path).is_file()]
    assert not missing, f"vendored scripts missing from the build (run `make assets`): {missing}"


def test_page_weight(book, all_html):
    sizes = {page: (book.build / page).stat().st_size for page in all_html}
    report = "\n  ".join(f"{size / 2**20:6.3f} MB  {page}" for page, size in sorted(sizes.items(), key=lambda kv: -kv[1]))
    heavy = sorted(page for page, size in sizes.items() if size > MAX_PAGE_BYTES)
    assert not heavy, f"pages over the {MAX_PAGE_BYTES / 2**20:.0f} MB budget (DESIGN.md): {heavy}\n  {report}"


def test_chapter1_embeds_its_widget_state(book):
    state = book.widget_state(book.chapter1)
    assert state is not None, f"{book.chapter1} embeds no <script type={book.widget_state_mime!r}>"
    assert state.get("version_major") == 2, "html-manager 1.x reads widget state version 2 (ipywidgets 8)"
    models = state["state"]
    counts = Counter(m["model_name"] for m in models.values())
    assert counts["ImageModel"] >= MIN_CHAPTER1_FRAMES, f"only {counts['ImageModel']} Image models: {dict(counts)}"
    # Every model that a model or a view refers to is embedded (else the page shows an error).
    refs = set(re.findall(r"IPY_MODEL_([0-9a-f]{32})", str([m["state"] for m in models.values()])))
    assert refs <= set(models), f"models referred to but not embedded: {sorted(refs - set(models))}"
    views = [
        re.search(r'"model_id":\s*"([0-9a-f]+)"', v).group(1)
        for v in book.parse(book.chapter1).scripts_of_type(book.widget_view_mime)
    ]
    assert views, "the chapter displays no widget view"
    assert set(views) <= set(models), f"views of models that are not embedded: {sorted(set(views) - set(models))}"


def test_chapter1_slider_frames_are_distinct(book):
    sliders = book.frame_sliders(book.chapter1)
    assert sliders, "chapter 1 has no slider jslinked to a Stack's selected_index"
    for s in sliders:
        assert len(s.frame_sha256) == len(s.labels) >= MIN_CHAPTER1_FRAMES, (len(s.frame_sha256), len(s.labels))
        assert len(set(s.frame_sha256)) == len(s.frame_sha256), "two frames of the slider are the same picture"
        assert len(set(s.labels)) == len(s.labels), f"repeated readouts: {s.labels}"
        assert 0 <= s.initial < len(s.labels)
    assert any(s.play_id for s in sliders), "chapter 1's slider has no Play button (frames_slider(..., play=True))"


def test_widget_descriptions_are_plain_text(book, book_pages):
    """The static page cannot typeset LaTeX in a widget's label (DESIGN.md)."""
    bad = {}
    for page in book_pages:
        for mid, m in ((book.widget_state(page) or {}).get("state") or {}).items():
            description = m["state"].get("description") or ""
            if re.search(r"[$\\]", description):
                bad[f"{page} {m['model_name']} {mid}"] = description
    assert not bad, f"widget descriptions with LaTeX: {bad}"
