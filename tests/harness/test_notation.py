"""One symbol, one meaning: the preface's Notation table and the chapters' math agree.

The source of the book's notation is the table under ``## Notation`` in
``intro.md``: each math span in its first column names one symbol (the span's
first symbol; ``$x_p$`` names ``x``, its subscript only shows how it is
indexed), and the second column is that symbol's meaning.

A chapter folder declares, in ``notation.yml``, the symbols its math uses
beyond the table, each with its meaning::

    symbols:
      L: the Lipschitz constant of the gradient
      \\tilde y: the labels recoded to -1/+1

What counts as a symbol, read from every math span of a page's markdown cells
(``$...$``, ``$$...$$``, ``\\begin{align}`` blocks, the ``{math}`` directive and
role, also inside exercises, solutions and other directives; the spans are
found by MyST's own parser, with the book's extensions):

* a Latin letter, wherever it stands, subscripts and superscripts included
  (``x_{pn}`` uses ``x``, ``p`` and ``n``); a prime adds nothing (``x'`` is
  ``x``);
* a Greek letter command (``\\alpha``); ``\\epsilon`` and ``\\varepsilon``, and
  the other ``var`` forms, are one symbol;
* a decorated letter is a symbol of its own, written as its decoration and the
  letter: ``\\tilde X``, ``\\hat p``, ``\\bar x``, ``\\mathcal N``, ``\\vec v``
  (``\\widetilde`` counts as ``\\tilde``, ``\\widehat`` as ``\\hat``,
  ``\\overline`` as ``\\bar``); a decoration over several letters decorates the
  first;
* a bold letter (``\\mathbf``, ``\\boldsymbol``, ``\\bm``) is written
  ``\\mathbf w``; the book writes vectors and matrices in plain type, so a bold
  letter is a fault wherever it appears.

Not symbols: digits; any other command (``\\frac``, ``\\sum``, ``\\log``,
``\\max``, ``\\top``, ``\\Pr``, ``\\nabla``); the number ``\\pi``; the words inside ``\\text``,
``\\mathrm``, ``\\operatorname`` and their kin (so ``\\operatorname{sig}`` and
``\\text{model}`` are names, not letters); the sets ``\\mathbb R``, ``\\mathbb
Z`` and ``\\mathbb N``; Euler's number ``e`` when it carries an exponent
(``e^{-m}``), and the ``d`` of a differential written ``\\mathrm{d}``.

The checks: every symbol of a page's math is in the table or declared by its
chapter; a chapter declares no symbol that the table defines; two chapters
that declare the same symbol give it the same meaning, word for word; a
declared symbol is used; no bold letter. There is no list of exceptions:
``symbols`` is the only key ``notation.yml`` accepts, so a chapter that wants a
symbol in a second meaning renames it in its math (or writes a quantity as a
word, ``\\text{period}``). A new chapter folder needs its own ``notation.yml``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from bookfiles import chapter_notebooks  # noqa: E402

GREEK = {
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "vartheta",
    "iota", "kappa", "varkappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "varpi", "rho", "varrho",
    "sigma", "varsigma", "tau", "upsilon", "phi", "varphi", "chi", "psi", "omega",
    "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega",
}
#: Decorations that make a symbol of their own, by the name the test writes them with.
DECORATIONS = {
    "tilde": "tilde", "widetilde": "tilde", "hat": "hat", "widehat": "hat", "bar": "bar",
    "overline": "bar", "vec": "vec", "dot": "dot", "ddot": "ddot", "check": "check", "breve": "breve",
    "mathcal": "mathcal", "mathscr": "mathcal", "mathfrak": "mathfrak",
    "mathbf": "mathbf", "boldsymbol": "mathbf", "bm": "mathbf", "mathbfit": "mathbf", "pmb": "mathbf",
}
#: Commands whose braced argument is words or a layout setting, not letters of the math.
WORDS = {
    "text", "textrm", "textit", "textbf", "texttt", "textsf", "mathrm", "mathit", "mathsf", "mathtt",
    "operatorname", "mbox", "hbox", "label", "tag", "ref", "eqref", "begin", "end", "color",
    "textcolor", "hspace", "vspace", "mathbb",
}
#: Commands with a second braced argument of words.
WORDS_TWICE = {"textcolor"}
SETS = {"R", "Z", "N", "Q", "C"}


def _group(latex: str, i: int) -> tuple[str, int]:
    """The argument that starts at ``latex[i]`` (a braced group, a command or one character), and the index after it."""
    while i < len(latex) and latex[i].isspace():
        i += 1
    if i >= len(latex):
        return "", i
    if latex[i] == "{":
        depth, j = 0, i
        while j < len(latex):
            depth += {"{": 1, "}": -1}.get(latex[j], 0)
            if depth == 0:
                return latex[i + 1:j], j + 1
            j += 1
        return latex[i + 1:], len(latex)
    if latex[i] == "\\":
        m = re.match(r"\\([A-Za-z]+|.)", latex[i:])
        return m.group(0), i + len(m.group(0))
    return latex[i], i + 1


def symbols(latex: str) -> list[str]:
    """Every symbol of one math span, in order, repeats kept (see the module's docstring for what counts)."""
    found, i = [], 0
    while i < len(latex):
        c = latex[i]
        if c == "\\":
            m = re.match(r"\\([A-Za-z]+\*?|.)", latex[i:])
            name = m.group(1).rstrip("*")
            i += len(m.group(0))
            if name == "pi":
                pass   # the number
            elif name in GREEK:
                found.append("\\" + re.sub(r"^var(?=epsilon|theta|kappa|pi|rho|sigma|phi)", "", name))
            elif name in WORDS:
                argument, i = _group(latex, i)
                if name == "mathbb" and argument.strip() not in SETS:
                    found.append("\\mathbb " + argument.strip())
                if name in WORDS_TWICE:
                    _, i = _group(latex, i)
            elif name in DECORATIONS:
                argument, i = _group(latex, i)
                inner = symbols(argument)
                if inner:
                    base = inner[0].split(" ")[-1]
                    found.append(f"\\{DECORATIONS[name]} {base}")
                    found.extend(inner[1:])
        elif c.isascii() and c.isalpha():
            exponent = latex[i + 1:].lstrip().startswith("^")
            if not (c == "e" and exponent):
                found.append(c)
            i += 1
        else:
            i += 1
    return found


def _parser():
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    extensions = set(config["parse"]["myst_enable_extensions"])
    return create_md_parser(MdParserConfig(enable_extensions=extensions), RendererHTML)


_MD = None
CODE_DIRECTIVES = {"code", "code-block", "code-cell", "sourcecode", "literalinclude", "raw"}


def math_spans(markdown: str) -> list[str]:
    """The LaTeX of every math span in ``markdown``, as MyST reads it (directives' bodies parsed in turn)."""
    global _MD
    _MD = _MD or _parser()
    spans = []
    for token in _MD.parse(markdown):
        if token.type in ("math_block", "math_block_label", "amsmath"):
            spans.append(token.content)
        elif token.type in ("fence", "colon_fence"):
            directive = re.match(r"\{([\w-]+)\}", token.info.strip())
            if directive and directive.group(1) == "math":
                spans.append(re.sub(r"^:\w+:.*$", "", token.content, flags=re.MULTILINE))
            elif directive and directive.group(1) not in CODE_DIRECTIVES:
                spans.extend(math_spans(token.content))
        for child in token.children or []:
            if child.type in ("math_inline", "math_inline_double"):
                spans.append(child.content)
            elif child.type == "myst_role" and child.meta.get("name") == "math":
                spans.append(child.content)
    return spans


def table(text: str) -> dict[str, str]:
    """The Notation table of the preface's text: each symbol and its meaning."""
    section = re.search(r"^## Notation\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL).group(1)
    found = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 2 or cells[0] in ("symbol", "---"):
            continue
        for span in re.findall(r"\$([^$]+)\$", cells[0]):
            named = symbols(span)
            if not named:
                continue   # a name such as sig or Pr, not a symbol of the math
            assert found.get(named[0], cells[1]) == cells[1], f"the Notation table gives {named[0]} two rows"
            found[named[0]] = cells[1]
    return found


def page_symbols(path: Path) -> dict[str, str]:
    """Each symbol of a page's math, with the first span it appears in (where to look)."""
    if path.suffix == ".ipynb":
        cells = [cell.source for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "markdown"]
    else:
        cells = [path.read_text()]
    found = {}
    for source in cells:
        for span in math_spans(source):
            for symbol in symbols(span):
                found.setdefault(symbol, span.strip())
    return found


def declarations(folder: Path) -> dict[str, str]:
    """A chapter folder's declared symbols, each with its meaning (empty without notation.yml)."""
    path = folder / "notation.yml"
    data = yaml.safe_load(path.read_text()) if path.is_file() else {}
    data = data or {}
    unknown = set(data) - {"symbols"}
    assert not unknown, (f"{path}: unknown keys {sorted(unknown)} (expected only symbols; "
                         "a symbol wanted in a second meaning is renamed, not listed)")
    return {str(k): str(v) for k, v in (data.get("symbols") or {}).items()}


def problems(notation: dict[str, str], chapters: dict[str, tuple[dict, dict]]) -> list[str]:
    """Every way the chapters break the notation.

    ``notation`` is the table (symbol to meaning); ``chapters`` maps a chapter's name to
    ``(used, declared)``: the symbols its math uses (symbol to a span that shows it) and the
    symbols its ``notation.yml`` declares (symbol to meaning).
    """
    found = []
    meanings: dict[str, dict[str, str]] = {}
    for name, (_, declared) in chapters.items():
        for symbol, meaning in declared.items():
            meanings.setdefault(symbol, {})[name] = meaning
    for name, (used, declared) in chapters.items():
        for symbol, span in used.items():
            if symbol.startswith("\\mathbf "):
                found.append(f"{name}: bold {symbol} in ${span}$; the book writes vectors and matrices in plain type")
            elif symbol not in notation and symbol not in declared:
                found.append(f"{name}: {symbol} in ${span}$ is neither in the Notation table nor in notation.yml")
        for symbol, meaning in declared.items():
            if symbol in notation:
                found.append(f"{name}: notation.yml declares {symbol} ({meaning!r}), "
                             f"which the Notation table defines ({notation[symbol]!r})")
            if symbol not in used:
                found.append(f"{name}: notation.yml declares {symbol}, which its math does not use")
    for symbol, by_chapter in sorted(meanings.items()):
        if len(set(by_chapter.values())) > 1:
            said = "; ".join(f"{name}: {meaning!r}" for name, meaning in by_chapter.items())
            found.append(f"{symbol} has more than one meaning ({said})")
    return found


def book() -> tuple[dict[str, str], dict[str, tuple[dict, dict]]]:
    """The book's Notation table and, per chapter folder (and the preface), its symbols and declarations."""
    intro = ROOT / "intro.md"
    notation = table(intro.read_text())
    chapters = {"intro.md": (page_symbols(intro), {})}
    folders: dict[Path, dict[str, str]] = {}
    for notebook in chapter_notebooks():
        for symbol, span in page_symbols(notebook).items():
            folders.setdefault(notebook.parent, {}).setdefault(symbol, span)
    for folder, used in folders.items():
        chapters[folder.relative_to(ROOT).as_posix()] = (used, declarations(folder))
    return notation, chapters


def test_the_book_keeps_one_meaning_per_symbol():
    notation, chapters = book()
    assert len(notation) > 15 and len(chapters) > 10
    found = problems(notation, chapters)
    assert not found, f"{len(found)} breaks of the notation:\n" + "\n".join(found)


def test_every_chapter_folder_has_its_declarations():
    folders = {notebook.parent for notebook in chapter_notebooks()}
    missing = sorted(folder.name for folder in folders if not (folder / "notation.yml").is_file())
    assert not missing, f"chapter folders without notation.yml: {missing}"


@pytest.mark.parametrize("latex, expected", [
    (r"\tilde X^\top \tilde X w = \tilde X^\top y", ["\\tilde X", "\\tilde X", "w", "\\tilde X", "y"]),
    (r"x_{pn}' + \varepsilon", ["x", "p", "n", "\\epsilon"]),
    (r"\widehat{p}_k \ne \overline{x}", ["\\hat p", "k", "\\bar x"]),
    (r"\operatorname{sig}(m) = \frac{1}{1 + e^{-m}}", ["m", "m"]),
    (r"\text{model}(x_p, w)\in\mathbb{R}", ["x", "p", "w"]),
    (r"d_{\max} / d_{\min} \quad \textcolor{red}{word}", ["d", "d"]),
    (r"\mathbf{w}^\top \boldsymbol{\mu} + \mathcal{N}", ["\\mathbf w", "\\mathbf \\mu", "\\mathcal N"]),
    (r"\hat{\mathbf{y}}", ["\\hat y"]),
    (r"e + \sum_{j=1}^J", ["e", "j", "J"]),
])
def test_what_counts_as_a_symbol(latex, expected):
    assert symbols(latex) == expected


def test_the_spans_are_found_where_myst_finds_them():
    markdown = (
        "A $x_p$ and a price of $200 and no more.\n\n"
        "```{exercise}\n:label: ex\nFind $\\alpha$.\n```\n\n"
        "```python\ny = \"$K$\"\n```\n\n"
        ":::{note}\n$$\\tilde X$$\n:::\n\n"
        "```{math}\n:label: eq\nL\n```\n\n{math}`\\kappa` and `$t$` in code.\n"
    )
    assert math_spans(markdown) == ["x_p", "\\alpha", "\\tilde X", "\nL\n", "\\kappa"]


def test_the_table_is_read_symbol_by_symbol():
    text = ("## Notation\n\n| symbol | meaning |\n|---|---|\n"
            "| $P$, $p$ | points, and an index |\n| $\\operatorname{sig}$ | the logistic function $1/(1+e^{-m})$ |\n"
            "| $d_n$, $D$ | eigenvalues |\n\n## Next\n| $Q$ | not the table |\n")
    assert table(text) == {"P": "points, and an index", "p": "points, and an index",
                           "d": "eigenvalues", "D": "eigenvalues"}


def test_each_break_is_found():
    notation = {"P": "the number of points", "k": "the number of folds"}
    fine = ({"P": "P", "K": "K"}, {"K": "the number of classes"})
    assert problems(notation, {"a": fine, "b": fine}) == []
    cases = {
        "is neither in the Notation table": {"a": ({"P": "P", "L": "L"}, {})},
        "which the Notation table defines": {"a": ({"k": "k"}, {"k": "a class"})},
        "K has more than one meaning": {"a": fine, "b": ({"K": "K"}, {"K": "the number of steps"})},
        "which its math does not use": {"a": ({}, {"L": "labels"})},
        "plain type": {"a": ({"\\mathbf w": "\\mathbf{w}"}, {"\\mathbf w": "the weights"})},
    }
    for message, chapters in cases.items():
        found = problems(notation, chapters)
        assert len(found) >= 1 and any(message in line for line in found), (message, found)


def test_a_second_meaning_cannot_be_listed_as_an_exception(tmp_path):
    (tmp_path / "notation.yml").write_text("symbols:\n  L: labels\nclashes:\n  k: a class\n")
    with pytest.raises(AssertionError, match=r"unknown keys \['clashes'\]"):
        declarations(tmp_path)
    (tmp_path / "notation.yml").write_text("symbols:\n  L: labels\n")
    assert declarations(tmp_path) == {"L": "labels"}
