"""The book's search (Pagefind's index, built with the book; assets/search.js), in Chromium.

Run after `make strict-book`. For a few queries whose right place in the book
is known, on a phone (390 px) and a desktop (1280 px), light and dark, offline:

* the results come from Pagefind's index (not Sphinx's fallback), ranked, and
  the first is the right page; following its link lands on the section that
  teaches the words (the link's #fragment names an element inside that
  section), not on the page's top because its title holds a word;
* the excerpts are the text: no TeX source, no code, no buttons, and no hole
  where a formula was (the index holds each inline formula as text);
* the search field's magnifier does not cover the query's first letter;
* no request leaves the machine and the console stays clean.
"""

from __future__ import annotations

import html
import re
from urllib.parse import quote

import pytest

DEVICES = {
    "phone": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2),
    "desktop": dict(viewport={"width": 1280, "height": 900}),
    "phone-dark": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                       device_scale_factor=2, color_scheme="dark"),
    "desktop-dark": dict(viewport={"width": 1280, "height": 900}, color_scheme="dark"),
}
# query -> (the page that must come first, the id of the section its link must land in, or None for anywhere
# on it, and words its excerpt must hold, or None). Known answers: the section that teaches the words, not the
# page's top because its title holds one of them ("imputation MNAR", "standardize"), nor a page that mentions
# them in passing ("McNemar" is taught in chapter 5 and mentioned in chapter 6); an excerpt keeps the math
# that a sentence holds ("Any matrix W with ... whitens the data", not "Any matrix with whitens").
QUERIES = {
    "standardize": ("chapters/07_standard_normalization/standard_normalization.html", "the-widget-from-raw-to-standardized", None),
    "SMOTE": ("chapters/13_imbalance_thresholds/imbalance_thresholds.html", "what-smote-s-points-look-like", None),
    "sphering": ("chapters/09_pca_sphering/pca_sphering.html", None, None),
    "imputation": ("chapters/08_imputation/imputation.html", None, None),
    "imputation MNAR": ("chapters/08_imputation/imputation.html", "why-values-are-missing", None),
    "McNemar": ("chapters/05_validation/validation.html", "comparing-two-pipelines", None),
    "whitens": ("chapters/09_pca_sphering/pca_sphering.html", "pca-or-zca-whitening", "Any matrix Γ"),
}
JUNK = re.compile(r"\\\(|\\\[|\\frac|\$|\bdef |\bimport |np\.|\.ipynb|Binder|Colab|show source|Extra code")
TIMEOUT_MS = 20_000

RESULTS_JS = """async () => {
  const out = document.getElementById("search-results");
  for (let i = 0; i < 200 && !(out.dataset.engine && out.querySelector("li")); i++) await new Promise((ok) => setTimeout(ok, 50));
  const items = [...out.querySelectorAll(":scope > ul > li")];
  const input = document.querySelector(".bd-search-container form.bd-search input");
  const icon = input && input.closest("form").querySelector("i.fa-magnifying-glass, svg");
  const style = input && getComputedStyle(input);
  return {engine: out.dataset.engine || "sphinx",
          results: items.map((li) => ({href: li.querySelector("a").href, excerpt: (li.querySelector("p.context") || {}).textContent || ""})),
          textStart: input ? input.getBoundingClientRect().left + parseFloat(style.paddingLeft) : null,
          iconRight: icon ? icon.getBoundingClientRect().right : null,
          value: input ? input.value : null};
}"""


@pytest.mark.parametrize("query", list(QUERIES))
@pytest.mark.parametrize("device", list(DEVICES))
def test_search_lands_on_the_right_section(browser, book_server, book, device, query):
    if not (book.build / "pagefind" / "pagefind.js").is_file():
        pytest.fail("the built book has no Pagefind index (pagefind/): run `make strict-book`")
    expected_page, expected_section, expected_words = QUERIES[query]
    problems = []
    context = browser.new_context(service_workers="block", **DEVICES[device])
    context.set_default_timeout(TIMEOUT_MS)

    def route(r):
        if r.request.url.startswith(book_server + "/"):
            r.continue_()
        else:
            problems.append(f"request to another machine (blocked): {r.request.url}")
            r.abort()

    context.route("**/*", route)
    try:
        page = context.new_page()
        page.on("console", lambda m: problems.append(f"console error: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.goto(f"{book_server}/search.html?q={quote(query)}", wait_until="load")
        found = page.evaluate(RESULTS_JS)
        assert found["engine"] == "pagefind", f"{device}, {query!r}: the results are not Pagefind's"
        assert found["results"], f"{device}, {query!r}: no result"
        first = found["results"][0]["href"]
        assert first.split("#")[0] == f"{book_server}/{expected_page}", \
            f"{device}, {query!r}: the first result is {first}, not {expected_page} (all: {[r['href'] for r in found['results']]})"
        if expected_words:
            assert expected_words in found["results"][0]["excerpt"], \
                f"{device}, {query!r}: the first excerpt lacks {expected_words!r}: {found['results'][0]['excerpt'][:160]!r}"
        bad = [r["excerpt"][:100] for r in found["results"] if JUNK.search(r["excerpt"])]
        assert not bad, f"{device}, {query!r}: excerpts with TeX source, code or buttons:\n  " + "\n  ".join(bad)
        assert found["value"] == query, f"{device}: the search field shows {found['value']!r}"
        assert found["iconRight"] is None or found["textStart"] >= found["iconRight"] - 0.5, \
            f"{device}: the magnifier (right edge {found['iconRight']:.0f} px) covers the query (from {found['textStart']:.0f} px)"
        if expected_section:
            page.locator("#search-results > ul > li > a").first.click()
            page.wait_for_load_state("load")
            landed = page.evaluate("""(section) => { const id = decodeURIComponent(location.hash.slice(1));
                const target = id && document.getElementById(id);
                return {hash: location.hash, inside: !!target && !!target.closest("section#" + CSS.escape(section))}; }""",
                                   expected_section)
            assert landed["inside"], f"{device}, {query!r}: the first result lands on {landed['hash']!r}, not in §{expected_section}"
        page.wait_for_timeout(200)
        assert not problems, f"{device}, {query!r}:\n  " + "\n  ".join(problems)
    finally:
        context.close()


#: A formula in a sentence, and the text the search index reads in its place (_ext/search_index.py).
FORMULA_FOR_SEARCH = re.compile(r'<span class="math notranslate nohighlight">\\\((?P<tex>.*?)\\\)</span>'
                                r'<span data-pagefind-index-attrs="data-math" data-math="(?P<text>[^"]*)"></span>', re.S)
#: TeX commands whose name is what the formula shows (\log draws "log").
READ_AS_WORDS = {"log", "exp", "min", "max", "ln", "sin", "cos", "Pr", "operatorname", "mathrm", "text", "textrm"}


def test_formulas_are_searched_as_what_they_show(book, book_pages):
    """A search excerpt reads each formula of a sentence from the index's text for it: no TeX
    command may be left there by name ("w leftarrow w", "the ell_1 penalty", "lvert w rvert"),
    no backslash, and braces the formula shows ("y \\in \\{0, 1\\}") kept."""
    bad, formulas = [], 0
    for page in book_pages:
        for m in FORMULA_FOR_SEARCH.finditer((book.build / page).read_text(encoding="utf-8")):
            formulas += 1
            tex, text = html.unescape(m.group("tex")), html.unescape(m.group("text"))
            names = set(re.findall(r"\\([A-Za-z]+)", tex)) - READ_AS_WORDS
            # A name the formula also spells in its letters (\text{min}, "sign") is not a leftover.
            plain = re.sub(r"\\[A-Za-z]+", " ", tex)
            left = sorted(n for n in names if re.search(rf"(?<![A-Za-z]){n}", text)
                          and not re.search(rf"(?<![A-Za-z\\]){n}", plain))
            shown_braces = tex.count(r"\{")
            if left or "\\" in text or text.count("{") != shown_braces:
                bad.append(f"{page}: {tex!r} is searched as {text!r}")
    assert formulas > 500, f"only {formulas} formulas with a search text found"
    assert not bad, f"{len(bad)} formulas searched as TeX rather than as what they show:\n  " + "\n  ".join(bad[:40])
