"""Test layer 4: checks on the built HTML in _build/html (no browser).

Run after `make strict-book`:  .venv/bin/pytest tests/book/test_built_html.py -q
The helpers (HTML parsing with the standard library, widget-state reading) are
in conftest.py and reach the tests through the `book` fixture.
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections import Counter

MAX_PAGE_BYTES = 3 * 1024 * 1024  # DESIGN.md: at most 3 MB per built page
# The scripts the book serves itself (see _config.yml and tools/vendor_assets.py).
VENDORED = {
    "MathJax": "_static/vendor/mathjax/tex-chtml.js",
    "the widget loader": "_static/widget-loader.js",
}
# What the static book no longer needs: the Jupyter widgets HTML manager and its AMD loader.
WIDGET_MANAGER = re.compile(r"embed-amd(\.min)?\.js$|/html-manager/|(^|/)require(\.min)?\.js$")
IMPORT = re.compile(r"""@import\s+(?:url\(\s*)?["']?([^"')\s;]+)""")


def test_every_toc_page_was_built(book, book_pages):
    missing = [p for p in book.toc_pages() if not (book.build / p).is_file()]
    assert not missing, f"pages listed in _toc.yml but not built: {missing}"
    missing = [p for p in ["index.html", *sorted(book.generated)] if not (book.build / p).is_file()]
    assert not missing, f"pages every Sphinx book has are missing: {missing}"


def _broken_links(book, page: str) -> tuple[list[str], int, int]:
    """(problems, internal links checked, of which with a #fragment to a book page)."""
    broken, checked, fragments = [], 0, 0
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
    return broken, checked, fragments


def test_internal_links_resolve(book, book_pages):
    """Every href/src of <a>, <link>, <script>, <img> that stays in the book points at a
    file, and a #fragment of a link to a book page names an id on that page (all pages;
    the chapter pages are also checked one by one below)."""
    broken, checked, fragments = [], 0, 0
    for page in book_pages:
        b, c, f = _broken_links(book, page)
        broken, checked, fragments = broken + b, checked + c, fragments + f
    assert checked > 50 and fragments > 10, f"only {checked} internal links ({fragments} with #fragments) found"
    assert not broken, f"{len(broken)} broken internal link(s):\n  " + "\n  ".join(broken)


def test_chapter_internal_links_resolve(book, page_path):
    broken, checked, _ = _broken_links(book, page_path)
    assert checked > 10, f"{page_path}: only {checked} internal links found"
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


def _remote_loads(book, page: str, seen_sheets: set) -> list[str]:
    remote = []
    for tag, attr, url, attrs in book.parse(page).refs:
        if not book.is_remote(url):
            continue
        rel = set(attrs.get("rel", "").split())
        preloads = bool(rel & {"preload", "modulepreload"}) and attrs.get("as") in ("script", "style")
        if tag == "script" or (tag == "link" and ("stylesheet" in rel or preloads)):
            remote.append(f"{page}: <{tag} {attr}={url!r}>")
    return remote + [f"{where}: @import {url!r}" for where, url in _remote_imports(book, page, seen_sheets)]


def test_no_page_loads_a_remote_script_or_stylesheet(book, book_pages):
    remote = []
    seen_sheets: set = set()
    for page in book_pages:
        remote += _remote_loads(book, page, seen_sheets)
    assert seen_sheets, "no local stylesheet found: is the parser missing <link rel=stylesheet>?"
    assert not remote, "pages load scripts or stylesheets from other machines (the book must work offline):\n  " + (
        "\n  ".join(remote)
    )


def test_chapter_loads_no_remote_script_or_stylesheet(book, page_path):
    remote = _remote_loads(book, page_path, set())
    assert not remote, "the page loads scripts or stylesheets from other machines (the book must work offline):\n  " + (
        "\n  ".join(remote)
    )


def _vendor_problems(book, page: str) -> tuple[list[str], list[str]]:
    """(what the page needs from _static/vendor/, what it needs but does not load)."""
    text = (book.build / page).read_text(encoding="utf-8")
    needs = []
    if 'class="math' in text:
        needs.append("MathJax")
    if book.widget_state(page) is not None or book.widget_views(page):
        needs.append("the widget loader")
    scripts = {book.resolve(page, url)[0] for tag, _a, url, _attrs in book.parse(page).refs if tag == "script"}
    return needs, [f"{page} does not load {name} from {VENDORED[name]}" for name in needs if VENDORED[name] not in scripts]


def test_pages_use_the_books_own_mathjax_and_widget_loader(book, book_pages):
    """A page that typesets math or embeds widgets loads the copies under _static/vendor/."""
    problems, checked = [], {}
    for page in book_pages:
        if page in book.generated:
            continue
        needs, missing = _vendor_problems(book, page)
        if needs:
            checked[page] = needs
            problems += missing
    assert any("MathJax" in n for n in checked.values()), "no page of the book has math: is the check broken?"
    assert not problems, "\n".join(problems)
    missing = [path for path in VENDORED.values() if not (book.build / path).is_file()]
    assert not missing, f"vendored scripts missing from the build (run `make assets`): {missing}"


def test_chapter_uses_the_books_own_scripts(book, page_path):
    _needs, problems = _vendor_problems(book, page_path)
    assert not problems, "\n".join(problems)


def test_no_page_loads_the_widget_manager_or_require_js(book, book_pages):
    """The static book draws its widgets with its own loader: no page loads embed-amd.js
    (the 4 MB Jupyter widgets HTML manager) or require.js, and the build ships neither."""
    loaded = [f"{page}: {url}" for page in book_pages for tag, _a, url, _attrs in book.parse(page).refs
              if tag == "script" and WIDGET_MANAGER.search(url.split("?")[0])]
    assert not loaded, "pages load the widget manager or require.js:\n  " + "\n  ".join(loaded)
    # (MathJax's TeX extension for \\require is also named require.js: not the AMD loader.)
    shipped = [p.relative_to(book.build).as_posix() for p in (book.build / "_static").rglob("*.js")
               if WIDGET_MANAGER.search("/" + p.relative_to(book.build).as_posix()) and "/mathjax/" not in p.as_posix()]
    assert not shipped, f"the build still ships {shipped}"


def test_the_theme_icons_are_the_books_own(book, book_pages):
    """_static/scripts/fontawesome.js is the book's small icon script (assets/scripts/, written by
    tools/vendor_assets.py), not the theme's 1.5 MB one, and it draws every icon a page names."""
    script = (book.build / "_static" / "scripts" / "fontawesome.js").read_text(encoding="utf-8")
    assert len(script) < 50_000, f"_static/scripts/fontawesome.js is {len(script)} bytes: the theme's copy, not the book's"
    drawn = set(re.findall(r'"(solid|brands) ([a-z0-9-]+)"', script))
    styles = {"fa-solid": "solid", "fas": "solid", "fa-brands": "brands", "fab": "brands"}
    helpers = {"fa-lg", "fa-fw", "fa-xs", "fa-sm", "fa-2x"}
    missing = set()
    for page in book_pages:
        text = (book.build / page).read_text(encoding="utf-8")
        for classes in re.findall(r'<i class="([^"]*\bfa[a-z-]*\b[^"]*)"', text):
            names = classes.split()
            style = next((styles[n] for n in names if n in styles), "solid")
            for name in names:
                if name.startswith("fa-") and name not in styles and name not in helpers:
                    if (style, name[3:]) not in drawn:
                        missing.add(f"{style} {name[3:]} ({page})")
    assert not missing, "icons the pages use but assets/scripts/fontawesome.js lacks (add them to ICONS in " \
        "tools/vendor_assets.py):\n  " + "\n  ".join(sorted(missing)[:20])


def test_page_weight(book, all_html):
    sizes = {page: (book.build / page).stat().st_size for page in all_html}
    report = "\n  ".join(f"{size / 2**20:6.3f} MB  {page}" for page, size in sorted(sizes.items(), key=lambda kv: -kv[1]))
    heavy = sorted(page for page, size in sizes.items() if size > MAX_PAGE_BYTES)
    assert not heavy, f"pages over the {MAX_PAGE_BYTES / 2**20:.0f} MB budget (DESIGN.md): {heavy}\n  {report}"


def test_chapter_page_weight(book, page_path):
    size = (book.build / page_path).stat().st_size
    assert size <= MAX_PAGE_BYTES, f"{page_path}: {size / 2**20:.3f} MB, over the {MAX_PAGE_BYTES / 2**20:.0f} MB budget"


def test_chapter_embeds_its_widget_state(book, page_path):
    """A page that displays widgets embeds the state of every model they need; a page
    with no widgets needs none (then there is nothing more to check)."""
    state, views = book.widget_state(page_path), book.widget_views(page_path)
    if state is None and not views:
        return
    assert state is not None, f"{page_path} displays widgets but embeds no <script type={book.widget_state_mime!r}>"
    assert state.get("version_major") == 2, "widget state version 2 (ipywidgets 8), as assets/widget-loader.js reads it"
    models = state["state"]
    # Every model that a model or a view refers to is embedded (else the page shows an error).
    refs = set(re.findall(r"IPY_MODEL_([0-9a-f]{32})", str([m["state"] for m in models.values()])))
    assert refs <= set(models), f"models referred to but not embedded: {sorted(refs - set(models))}"
    assert views, f"{page_path} embeds widget state but displays no widget view"
    assert set(views) <= set(models), f"views of models that are not embedded: {sorted(set(views) - set(models))}"
    # Every view is one of the book's live widgets: the static book draws nothing else.
    ids = {str(models[v]["state"].get("_anywidget_id", models[v]["model_name"])) for v in views}
    others = sorted(i for i in ids if not i.startswith("mlrefined_lib.live."))
    assert not others, f"{page_path} shows widgets that only a kernel can draw: {others}"


def test_the_book_has_sliders(book, built_html):
    """Guard against silently losing the sliders: the chapters show them as live widgets
    (mlrefined_lib.live, computed in the page)."""
    live = {}
    for p in book.chapter_pages():
        if not (built_html / p).is_file():
            continue
        models = (book.widget_state(p) or {}).get("state", {}).values()
        live[p] = sum(str(m["state"].get("_anywidget_id", "")).startswith("mlrefined_lib.live.") for m in models)
    assert sum(live.values()) >= 8, f"too few live widgets on the chapter pages: {live}"


def test_widget_descriptions_are_plain_text(book, book_pages):
    """The static page cannot typeset LaTeX in a widget's label (DESIGN.md)."""
    bad = {}
    for page in book_pages:
        for mid, m in ((book.widget_state(page) or {}).get("state") or {}).items():
            description = m["state"].get("description") or ""
            if re.search(r"[$\\]", description):
                bad[f"{page} {m['model_name']} {mid}"] = description
    assert not bad, f"widget descriptions with LaTeX: {bad}"


def test_only_the_mathjax_that_pages_load_is_shipped(book):
    """The pages load MathJax's tex-chtml.js (which autoloads TeX extensions and
    fetches its CHTML fonts); the other ~18 MB of the distribution is never fetched."""
    folder = book.build / "_static" / "vendor" / "mathjax"
    assert (folder / "tex-chtml.js").is_file(), "tex-chtml.js is missing: run `make assets`"
    components = sorted(p.name for p in folder.glob("*.js"))
    assert components == ["tex-chtml.js"], f"unused MathJax components shipped: {components}"
    allowed = ("tex-chtml.js", "input/tex/extensions/", "output/chtml/fonts/woff-v2/")
    others = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                    if p.is_file() and not p.relative_to(folder).as_posix().startswith(allowed))
    assert not others, f"MathJax files no page loads: {others[:10]} ({len(others)} in all)"
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    assert size < 3 * 2**20, f"the MathJax copy weighs {size / 2**20:.1f} MB"


def test_heavy_scripts_do_not_block_the_first_paint(book, book_pages):
    """MathJax and the widget loader are deferred (the loader is an ES module, deferred by
    nature): the text paints first."""
    heavy = ("vendor/mathjax/", "widget-loader.js")
    blocking = []
    for page in book_pages:
        for tag, _attr, url, attrs in book.parse(page).refs:
            deferred = "defer" in attrs or "async" in attrs or attrs.get("type") == "module"
            if tag == "script" and any(h in url for h in heavy) and not deferred:
                blocking.append(f"{page}: {url}")
    assert not blocking, "scripts that block the first paint:\n  " + "\n  ".join(blocking)


def test_widget_state_follows_the_text(book, page_path):
    """The widget state (every live widget's data) comes after the page's text, not in
    its <head>: a browser paints the text before the state has arrived."""
    text = (book.build / page_path).read_text(encoding="utf-8")
    start = text.find(f'<script type="{book.widget_state_mime}"')
    if start < 0:
        return
    assert start > text.find("</head>"), f"{page_path}: the widget state is in the page's <head>"
    last_section = text.rfind("<section")
    assert start > last_section, f"{page_path}: the widget state comes before the page's last section"


def test_each_live_widget_has_a_plain_image_of_its_initial_view(book, page_path):
    """Without JavaScript (or before the widget scripts arrive) a reader sees each continuous
    widget's initial view as a PNG, right before the widget, with the widget's text description
    as its alt text (_ext/live_fallback.py)."""
    state = (book.widget_state(page_path) or {}).get("state", {})
    live = [v for v in book.widget_views(page_path)
            if str(state.get(v, {}).get("state", {}).get("_anywidget_id", "")).startswith("mlrefined_lib.live.")]
    text = (book.build / page_path).read_text(encoding="utf-8")
    fallbacks = re.findall(r'<img class="widget-fallback" src="data:image/png;base64,([^"]+)" alt="([^"]+)" />'
                           r'<script type="application/vnd\.jupyter\.widget-view\+json">', text)
    assert len(fallbacks) == len(live), f"{len(live)} live widget(s) but {len(fallbacks)} fallback image(s)"
    for data, alt in fallbacks:
        assert base64.b64decode(data)[:8] == b"\x89PNG\r\n\x1a\n", "a fallback image is not a PNG"
        assert len(html.unescape(alt)) > 60, f"the alt text does not describe the figure: {alt!r}"


def test_every_output_figure_opens_at_full_size(book, page_path):
    """Every figure in a cell's output is a link to its own PNG."""
    text = (book.build / page_path).read_text(encoding="utf-8")
    figures = re.findall(r'<img alt="[^"]*" src="([^"]*_images/[^"]+\.png)" />', text)
    linked = re.findall(r'<a class="figure-full" href="([^"]+)"[^>]*>(?:<picture[^>]*><source [^>]*>)?'
                        r'<img alt="[^"]*" src="([^"]+)" />', text)
    assert len(linked) == len(figures), f"{len(figures) - len(linked)} of {len(figures)} figures are not links"
    assert all(href == src for href, src in linked), "a figure links to another file than its own"
    missing = [href for href, _ in linked if not ((book.build / page_path).parent / href).resolve().is_file()]
    assert not missing, f"figure links to missing files: {missing}"


def test_every_output_figure_has_alt_text_that_describes_it(book, page_path):
    """A screen reader reads each figure's alt text (the cell's ``mystnb.image.alt``, or the
    widget's description): never the file's name, and long enough to say what the figure shows."""
    text = (book.build / page_path).read_text(encoding="utf-8")
    figures = re.findall(r'<img alt="([^"]*)" src="([^"]*_images/[^"]+\.png)" />', text)
    bad = [f"{src.rsplit('/', 1)[-1][:16]}: {html.unescape(alt)[:60]!r}" for alt, src in figures
           if len(html.unescape(alt)) < 60 or "_images/" in alt or alt.endswith(".png")]
    assert not bad, f"{len(bad)} of {len(figures)} figures without a describing alt text:\n  " + "\n  ".join(bad)


CODE_BLOCK = re.compile(r'<div class="highlight-(?P<lang>[\w+-]+) notranslate"><div class="highlight"><pre>'
                        r"(?P<block>.*?)</pre>", re.S)
THEME_RULE = re.compile(r'^html\[data-theme="(?P<mode>light|dark)"\] (?P<rule>\.highlight[^{]*\{[^}]*\})', re.M)


def test_code_is_drawn_as_the_highlighter_draws_it_in_fewer_elements(book, page_path):
    """_ext/lean_code.py rewrote the page's code blocks: each character keeps the colour, weight
    and slant that Pygments' own markup gives it under the site's pygments.css in both modes,
    and no span is left that both modes draw as plain text."""
    import sys

    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name

    sys.path.insert(0, str(book.root / "_ext"))
    import lean_code

    css = (book.build / "_static" / "pygments.css").read_text(encoding="utf-8")
    per_mode = {"light": [], "dark": []}
    for match in THEME_RULE.finditer(css):
        per_mode[match.group("mode")].append(match.group("rule"))
    looks, plain = lean_code.looks_of(["\n".join(per_mode["light"]), "\n".join(per_mode["dark"])])
    assert looks and all(plain), "no highlighting rules found in _static/pygments.css"
    text = (book.build / page_path).read_text(encoding="utf-8")
    blocks = list(CODE_BLOCK.finditer(text))
    source = book.root / page_path.replace(".html", ".ipynb")
    shown = [c for c in json.loads(source.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"
             and not {"remove-cell", "remove-input"} & set(c.get("metadata", {}).get("tags", []))]
    if not shown:  # a chapter's opening page may show no code at all
        assert not blocks, f"{page_path}: highlighted code on a page whose notebook shows none"
        return
    assert blocks, f"{page_path}: no highlighted code block"
    plain_spans, differ = 0, []
    for match in blocks:
        block = match.group("block")
        source = html.unescape(re.sub(r"<[^>]+>", "", block))
        lexer = get_lexer_by_name(match.group("lang"), stripnl=False, ensurenl=False)
        fresh = highlight(source, lexer, HtmlFormatter(nowrap=True))
        if lean_code.drawn(block, looks, plain) != lean_code.drawn(fresh, looks, plain):
            differ.append(source[:60])
        plain_spans += sum(1 for m in lean_code.PIECE.finditer(block)
                           if m.group("cls") and m.group("cls") not in lean_code.STYLED_ELSEWHERE
                           and all(mode in (frozenset(), base) for mode, base
                                   in zip(looks.get(m.group("cls"), (frozenset(), frozenset())), plain)))
    assert not differ, f"{page_path}: {len(differ)} code blocks drawn unlike Pygments' own markup: {differ[:3]}"
    assert plain_spans == 0, f"{page_path}: {plain_spans} spans that both modes draw as plain text"


_SIDEBAR_LINK = re.compile(r'<li class="toctree-l(?P<level>\d)[^"]*"><a class="[^"]*reference internal[^"]*" '
                           r'href="(?P<href>[^"]*)">(?P<text>.*?)</a>', re.S)


def sidebar_numbering_problems(build, toc: dict) -> list[str]:
    """For each chapter of ``toc`` with pages below it (``sections:``), what its built sidebar
    numbers wrongly: on each such page, the chapter reads "N." and its pages "N.1.", "N.2.", ...
    in the table's order. Sphinx numbers a chapter page's own ``##`` sections before the pages
    below it, so a first page with sections of its own pushes them to N.9, N.10, ..."""
    import posixpath

    problems = []
    for part in toc.get("parts") or [{"chapters": toc.get("chapters") or []}]:
        for chapter in part.get("chapters") or []:
            sections = [s["file"] for s in chapter.get("sections") or [] if "file" in s]
            for page in sections:
                path = build / f"{page}.html"
                if not path.is_file():
                    problems.append(f"{page}.html is not built")
                    continue
                text = path.read_text(encoding="utf-8")
                nav = text[text.index("bd-docs-nav"):]
                links = [(m["level"], m["href"], html.unescape(re.sub(r"<[^>]+>", "", m["text"])).strip())
                         for m in _SIDEBAR_LINK.finditer(nav)]
                here = posixpath.dirname(page)
                named = {}
                for level, href, label in links:
                    target = page if href == "#" else posixpath.normpath(posixpath.join(here, href))
                    named.setdefault(target.removesuffix(".html"), label)
                number = re.match(r"(\d+)\. ", named.get(chapter["file"], ""))
                if number is None:
                    problems.append(f"{page}.html: the sidebar shows chapter {chapter['file']} as "
                                    f"{named.get(chapter['file'])!r}, not 'N. title'")
                    continue
                for k, section in enumerate(sections, 1):
                    want = f"{number[1]}.{k}. "
                    if not named.get(section, "").startswith(want):
                        problems.append(f"{page}.html: the sidebar shows {section} as {named.get(section)!r}, "
                                        f"not numbered {want.strip()}")
    return problems


def test_a_chapters_pages_are_numbered_from_one_in_the_sidebar(book):
    """Chapter 6's pages read 6.1-6.4 in the sidebar: its first page holds only the chapter's
    opening, with no numbered sections that would come before them."""
    import yaml

    toc = yaml.safe_load((book.root / "_toc.yml").read_text(encoding="utf-8"))
    with_pages = [c["file"] for p in toc["parts"] for c in p["chapters"] if c.get("sections")]
    assert "chapters/06_histogram_features/histogram_features" in with_pages, with_pages
    problems = sidebar_numbering_problems(book.build, toc)
    assert not problems, "\n".join(problems)
