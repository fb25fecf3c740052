"""Sphinx extension: highlighted code in fewer elements, every character coloured as before.

Pygments wraps every token of a code block in a ``<span>``: names,
punctuation and whitespace too, which both of the theme's styles (light and
dark) draw exactly as the plain text around them. On the longest chapter pages
these spans were two thirds of all the page's elements, and every element
costs the browser on every click (the theme's Bootstrap searches the whole page
for its controls at each click) and at every layout. In each highlighted block
of a page, this

- turns a span into plain text when both styles draw its class as plain text
  (no rule, or only the block's own text colour);
- joins neighbouring spans whose classes both styles draw alike into one span
  (an f-string's prefix, quotes and braces, for instance).

Classes that another stylesheet styles (:data:`STYLED_ELSEWHERE`) are left as
they are. Then, in code (not in printed output), each line becomes a box of its
own, ``<span class="code-line">``, with its indentation in ``--indent``:
``book.css`` continues a wrapped line past that indentation (:func:`hang`). Each character keeps its colour, weight and slant in both modes:
``tests/harness/test_lean_code.py`` checks this character by character.
"""

from __future__ import annotations

import functools
import html
import re

#: Classes that stylesheets other than the highlighting styles use: Pygments' prompt ``gp``
#: (not selectable), ``hll`` (highlighted lines) and ``linenos``, and this module's own line
#: boxes, ``code-line`` (:func:`hang`; ``book.css`` gives them their hanging indent): a line box
#: around plain text, ``boost_table(dia_boost, dia_names, dia_corr)``, is drawn as a block, not
#: as plain text.
STYLED_ELSEWHERE = frozenset({"gp", "hll", "linenos", "code-line"})

BLOCK = re.compile(r'(<div class="highlight"><pre>)(.*?)(</pre>)', re.S)
SPAN = re.compile(r'<span class="(?P<cls>[\w-]+)">(?P<text>[^<]*)</span>')
RULE = re.compile(r"^\.highlight(?: \.(?P<cls>[\w-]+))? \{ *(?P<body>[^}]*?) *\}", re.M)
# A span, bare text, or any other tag (skipped) of a highlighted block.
PIECE = re.compile(r'<span class="(?P<cls>[\w-]+)">(?P<text>[^<]*)</span>|(?P<bare>[^<]+)|<[^>]*>')


def _declarations(body: str) -> frozenset:
    return frozenset(" ".join(part.split()) for part in body.split(";") if part.strip())


def looks_of(stylesheets: list[str]) -> tuple[dict[str, tuple], tuple]:
    """Per class, how each stylesheet draws it, and how each draws plain text.

    ``stylesheets`` are Pygments' style definitions for ``.highlight`` (one per
    mode). A class's look is the tuple of its declarations in each stylesheet;
    plain text's look is the text colour of the block itself.
    """
    per_mode, plain = [], []
    for css in stylesheets:
        rules = {m.group("cls"): _declarations(m.group("body")) for m in RULE.finditer(css)}
        block = rules.pop(None, frozenset())
        per_mode.append(rules)
        plain.append(frozenset(d for d in block if d.startswith("color:")))
    classes = set().union(*per_mode)
    looks = {cls: tuple(rules.get(cls, frozenset()) for rules in per_mode) for cls in classes}
    return looks, tuple(plain)


def drawn(block: str, looks: dict[str, tuple], plain: tuple) -> list[tuple]:
    """Each character of a highlighted block with how each mode draws it: the oracle the tests
    compare a block with before and after :func:`lean` (a class with no rule, or with only the
    block's text colour, is drawn as plain text)."""
    out, none = [], tuple(frozenset() for _ in plain)
    for match in PIECE.finditer(block):
        cls = match.group("cls")
        text = match.group("text") if cls else match.group("bare")
        if text is None:
            continue
        look = tuple(mode if mode not in (frozenset(), base) else base
                     for mode, base in zip(looks.get(cls, none) if cls else none, plain))
        out.extend((char, look) for char in html.unescape(text))
    return out


def lean(block: str, looks: dict[str, tuple], plain: tuple) -> str:
    """One highlighted block (the inside of its ``<pre>``), unwrapped and joined as described above."""
    empty = tuple(frozenset() for _ in plain)

    def look(cls: str):
        if cls in STYLED_ELSEWHERE:
            return None  # never unwrapped, never joined
        found = looks.get(cls, empty)
        return "plain" if all(mode in (frozenset(), base) for mode, base in zip(found, plain)) else found

    out: list[str] = []
    last_look, last_end = None, 0  # the look of the span that ends out[-1], if it does
    for match in SPAN.finditer(block):
        between = block[last_end:match.start()]
        if between:
            out.append(between)
            last_look = None
        cls, text = match.group("cls"), match.group("text")
        this = look(cls)
        if this == "plain":
            out.append(text)
            last_look = None
        elif this is not None and this == last_look:
            out[-1] = out[-1][: -len("</span>")] + text + "</span>"
        else:
            out.append(match.group(0))
            last_look = this
        last_end = match.end()
    out.append(block[last_end:])
    return "".join(out)


LINE_TAG = re.compile(r"<(/?)span\b[^>]*>")
#: A code line this long or shorter (indentation included) fits every code box of the book on
#: the narrowest phone (320 px: the narrowest box, in a solution, holds 22 characters of 13 px
#: monospace; 30 at 390 px), so it never wraps and needs no box of its own.
SHORT_LINE = 20


def hang(block: str) -> str:
    """One highlighted block (the inside of its ``<pre>``) with each line that may wrap (longer
    than :data:`SHORT_LINE`) wrapped in ``<span class="code-line">``, which carries
    ``style="--indent: N"`` when the line starts with N spaces. Blank and short lines stay bare
    text: a box there would be an element that changes nothing. A span that runs over the edge
    of a boxed line (a docstring) is closed at the end of that line and opened again on the
    next, so that the lines nest. Each line's newline stays inside its box, so the text (and
    what the copy button copies) is unchanged."""
    plain = html.unescape(re.sub(r"<[^>]*>", "", block)).split("\n")
    boxed = [len(line) > SHORT_LINE for line in plain]
    indents = [len(line) - len(line.lstrip(" ")) for line in plain]

    def opening(number: int) -> str:
        if not boxed[number]:
            return ""
        indent = indents[number]
        return f'<span class="code-line" style="--indent: {indent}">' if indent else '<span class="code-line">'

    number = 0
    out, stack = [opening(0)], []
    for piece in re.split(r"(<[^>]*>)", block):
        if not piece:
            continue
        if piece.startswith("<"):
            tag = LINE_TAG.fullmatch(piece)
            if tag and tag.group(1):
                stack.pop()
            elif tag and not piece.endswith("/>"):
                stack.append(piece)
            out.append(piece)
            continue
        for i, text in enumerate(piece.split("\n")):
            if i:
                out.append("\n")
                if boxed[number] or boxed[number + 1]:
                    out.append("</span>" * len(stack) + ("</span>" if boxed[number] else ""))
                    out.append(opening(number + 1) + "".join(stack))
                number += 1
            out.append(text)
    if boxed[number]:
        out.append("</span>")
    # Spans opened again on a line and closed at once, with nothing in them, are dropped.
    return re.sub(r'<span class="[^"]*"></span>', "", "".join(out))


@functools.lru_cache(maxsize=None)
def _theme_looks(light: str, dark: str) -> tuple[dict[str, tuple], tuple]:
    from pygments.formatters import HtmlFormatter

    return looks_of([HtmlFormatter(style=name).get_style_defs(".highlight") for name in (light, dark)])


def _styles(app) -> tuple[str, str]:
    """The light and dark Pygments styles the theme writes into ``pygments.css``, chosen as it chooses
    them: the book's theme options, else the theme's own defaults (``theme.conf``)."""
    from pydata_sphinx_theme.utils import get_theme_options_dict

    options = get_theme_options_dict(app)
    defaults = app.builder.theme.get_options() if hasattr(app.builder, "theme") else {}
    return tuple(options.get(f"pygments_{mode}_style") or defaults[f"pygments_{mode}_style"]
                 for mode in ("light", "dark"))


def _rewrite(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if not body or '<div class="highlight"><pre>' not in body:
        return
    looks, plain = _theme_looks(*_styles(app))

    def rewrite(match):
        inner = lean(match.group(2), looks, plain)
        wrapper = body[body.rfind("<div ", 0, match.start()):match.start()]
        if 'class="output' not in wrapper:  # code, not printed output
            inner = hang(inner)
        return match.group(1) + inner + match.group(3)

    context["body"] = BLOCK.sub(rewrite, body)


def setup(app):
    app.connect("html-page-context", _rewrite)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
