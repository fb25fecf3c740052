"""Sphinx extension: the book's search index, built by Pagefind with the book.

Each page's own text is marked for Pagefind (``data-pagefind-body`` around the
page's body; Sphinx's generated pages, the search page and the indexes, are
left out), and when the HTML build has finished, Pagefind (installed from the
Python package ``pagefind[bin]``, see requirements-dev.txt) indexes the built
pages into ``pagefind/``. It skips what is not the text: code cells and
their printed output, the source of the math, the buttons and the print-only
copies of the title. Headings carry their section's id, so that a result can
lead to its section. ``assets/search.js`` searches that index on the search
page, in the browser.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

from sphinx.errors import ExtensionError

#: What Pagefind leaves out of the index and the excerpts.
NOT_TEXT = [
    ".cell_input", ".cell_output", "div.highlight", "pre", ".math", "mjx-container", "script", "style",
    ".headerlink", ".toggle-details", "details.hide", ".widget-print-note", ".scroll-hint", ".figure-scroll-hint",
    ".live-teaser", "img",
]
#: Files of Pagefind's bundle that no page loads.
UNUSED = ("pagefind-ui.*", "pagefind-component-ui.*", "pagefind-modular-ui.*", "pagefind-highlight.js")
#: A section's heading, right after the section's opening tag: the heading gets the section's id
#: as its own, ``<id>-heading`` (the section keeps its id, so every link to it still lands).
SECTION_HEADING = re.compile(r'(<section id="(?P<id>[^"]+)">\s*<h(?P<level>[1-6]))>')


#: Inline math as the page writes it: ``<span class="math notranslate nohighlight">\(W\)</span>``.
INLINE_MATH = re.compile(r'(<span class="math notranslate nohighlight">\\\((?P<tex>.*?)\\\)</span>)', re.S)
#: TeX commands read as the symbol they draw.
SYMBOLS = {
    **{name: chr(code) for name, code in [
        ("alpha", 0x3b1), ("beta", 0x3b2), ("gamma", 0x3b3), ("delta", 0x3b4), ("epsilon", 0x3b5),
        ("varepsilon", 0x3b5), ("zeta", 0x3b6), ("eta", 0x3b7), ("theta", 0x3b8), ("kappa", 0x3ba),
        ("lambda", 0x3bb), ("mu", 0x3bc), ("nu", 0x3bd), ("xi", 0x3be), ("pi", 0x3c0), ("rho", 0x3c1),
        ("sigma", 0x3c3), ("tau", 0x3c4), ("phi", 0x3c6), ("varphi", 0x3c6), ("chi", 0x3c7), ("psi", 0x3c8),
        ("omega", 0x3c9), ("Gamma", 0x393), ("Delta", 0x394), ("Theta", 0x398), ("Lambda", 0x39b),
        ("Xi", 0x39e), ("Pi", 0x3a0), ("Sigma", 0x3a3), ("Upsilon", 0x3a5), ("Phi", 0x3a6), ("Psi", 0x3a8),
        ("Omega", 0x3a9)]},
    "top": "\u1d40", "times": "\u00d7", "cdot": "\u00b7", "le": "\u2264", "leq": "\u2264", "ge": "\u2265",
    "geq": "\u2265", "ne": "\u2260", "neq": "\u2260", "in": "\u2208", "notin": "\u2209", "sum": "\u2211",
    "prod": "\u220f", "infty": "\u221e", "approx": "\u2248", "sim": "~", "to": "\u2192", "rightarrow": "\u2192",
    "lVert": "\u2016", "rVert": "\u2016", "|": "\u2016", "mid": "|", "ldots": "\u2026", "dots": "\u2026",
    "cdots": "\u22ef", "pm": "\u00b1", "sqrt": "\u221a", "partial": "\u2202", "nabla": "\u2207", "star": "*",
    "ast": "*", "log": "log", "exp": "exp", "min": "min", "max": "max",
    "leftarrow": "\u2190", "gets": "\u2190", "Leftarrow": "\u21d0", "Rightarrow": "\u21d2", "implies": "\u21d2",
    "mapsto": "\u21a6", "ell": "\u2113", "lvert": "|", "rvert": "|", "vert": "|", "lfloor": "\u230a",
    "rfloor": "\u230b", "lceil": "\u2308", "rceil": "\u2309", "cap": "\u2229", "cup": "\u222a",
    "ln": "ln", "sin": "sin", "cos": "cos", "Pr": "Pr",
    # accents and fonts written without braces (\\tilde X): the letter alone
    **dict.fromkeys(["operatorname", "mathrm", "mathbf", "mathit", "mathcal", "mathbb", "boldsymbol", "hat",
                     "tilde", "bar", "widehat", "widetilde", "overline", "vec", "displaystyle"], ""),
}
SPACING = re.compile(r"\\(?:left|right|[Bb]igg?[lr]?)\b|\\(?:begin|end)\s*\{[a-z]*\}|\\[,;:! ]|\\q?quad\b|&")
#: A matrix in a sentence, read between brackets (its rows split by ROW_BREAK).
MATRIX = re.compile(r"\\begin\s*\{[bpvBV]?matrix\}(.*?)\\end\s*\{[bpvBV]?matrix\}", re.S)
#: A matrix's or an aligned formula's row break: read as a semicolon.
ROW_BREAK = re.compile(r"\\\\")
#: \binom{n}{k}, read as "(n choose k)".
BINOM = re.compile(r"\\binom\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
FRAC = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
#: A fraction of two digits or letters written without braces (\tfrac12).
SHORT_FRAC = re.compile(r"\\[dt]?frac\s*([0-9A-Za-z])\s*([0-9A-Za-z])")
#: A root of a group (\sqrt{10}), read as √(10); a root of one letter (\sqrt3) needs no brackets.
ROOT = re.compile(r"\\sqrt\s*\{([^{}]*)\}")
#: An escaped character that the formula shows as itself (30\%).
ESCAPED = re.compile(r"\\([%&$#_])")
WRAPPED = re.compile(r"\\(?:operatorname|mathrm|mathbf|mathit|mathcal|mathbb|boldsymbol|text|textrm|hat|tilde|bar|"
                     r"widehat|widetilde|overline|vec|texttt)\s*\{([^{}]*)\}")
COMMAND = re.compile(r"\\([A-Za-z]+|\|)")


def readable_math(tex: str) -> str:
    """Inline TeX as text a search excerpt can show: ``W \\Sigma W^\\top`` -> ``W \u03a3 W^\u1d40``."""
    text = re.sub(r"\^\s*\{?\s*\\top\s*\}?", "\u1d40", SPACING.sub(" ", ROW_BREAK.sub("; ", MATRIX.sub(r"[\1]", tex))))
    # Braces the formula shows (a set, \{0, 1\}) are kept: held aside while the grouping braces go.
    text = text.replace("\\{", "\x01").replace("\\}", "\x02")
    for _ in range(3):  # nested fractions and wrappers, from the inside out
        # \x03 keeps a command before the group apart from its letters (\cdot\text{contrast})
        text = WRAPPED.sub("\x03\\1", ROOT.sub("\u221a(\\1)", text))
        text = BINOM.sub(r"(\1 choose \2)", FRAC.sub(r"(\1)/(\2)", SHORT_FRAC.sub(r"\1/\2", text)))
    text = COMMAND.sub(lambda m: SYMBOLS.get(m.group(1), m.group(1)), ESCAPED.sub(r"\1", text))
    text = re.sub(r"[{}\x03]", "", text).replace("\x01", "{").replace("\x02", "}")
    return re.sub(r"\s+", " ", text).strip()


def _math_for_search(m: re.Match) -> str:
    """Inline math, then an empty element whose attribute Pagefind indexes as the math's text
    (the math's own TeX is left out of the index): a search excerpt reads "any matrix W with
    ..." instead of "any matrix with ...". Nothing is shown or spoken."""
    words = html.escape(readable_math(html.unescape(m.group("tex"))), quote=True)
    return f'{m.group(1)}<span data-pagefind-index-attrs="data-math" data-math="{words}"></span>' if words else m.group(1)


def mark_body(body: str) -> str:
    """The page's body inside Pagefind's ``data-pagefind-body``, each section's heading with an id,
    each inline formula followed by its text for the index."""
    body = SECTION_HEADING.sub(lambda m: f'{m.group(1)} id="{m.group("id")}-heading">', body)
    body = INLINE_MATH.sub(_math_for_search, body)
    return f"<div data-pagefind-body>{body}</div>"


def _mark(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if body and doctree is not None and pagename not in ("search", "genindex", "py-modindex"):
        context["body"] = mark_body(body)


def _index(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    command = [sys.executable, "-m", "pagefind", "--site", str(app.outdir), "--quiet",
               "--exclude-selectors", ", ".join(NOT_TEXT)]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    except OSError as error:
        raise ExtensionError(f"search_index: could not run Pagefind ({error})") from error
    if result.returncode != 0 or not (Path(app.outdir) / "pagefind" / "pagefind.js").is_file():
        raise ExtensionError("search_index: Pagefind did not build the search index (is `pagefind[bin]` installed? "
                             f"run `make venv`):\n{result.stdout}{result.stderr}")
    # Pagefind's ready-made interfaces: assets/search.js draws the results itself.
    for unused in UNUSED:
        for path in (Path(app.outdir) / "pagefind").glob(unused):
            path.unlink()


def setup(app):
    app.connect("html-page-context", _mark, priority=990)
    # _ext/lean_site.py tidies _static/ only: it leaves pagefind/ alone.
    app.connect("build-finished", _index)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
