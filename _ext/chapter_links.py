"""Sphinx extension: "chapter 5" in the prose links to chapter 5, and `ml.ridge` to its reference.

The prose names chapters by number ("as chapter 5 showed", "chapters 4 and
5", "Chapters 9-11"). A reader expects each to be a link, and writing them
all by hand would break whenever the chapters are renumbered. This extension
finds them once the book's numbers are known: a chapter is a page that the
table of contents numbers with one number (Sphinx's ``toc_secnumbers``), so
the links follow _toc.yml's order.

Left alone: text already inside a link, code, math, a heading, a code cell
or its output, and a page's mentions of its own chapter (a link to the page
one is reading goes nowhere).

The library's functions written as inline code, ```ml.ridge``` or
```ml.ridge(x, y, lam)```, link to their entry on the reference page
(reference.md, written by autodoc): the name is looked up in the library
(``import mlrefined_lib as ml``), so ``ml.ridge`` finds
``mlrefined_lib.regularization.ridge`` wherever the function is defined.
"""

from __future__ import annotations

import importlib
import re

from docutils import nodes

CHAPTER = re.compile(
    r"\b(?P<word>[Cc]hapters?)(?P<gap>\s+)(?P<first>\d+)"
    r"(?P<rest>(?:(?:,\s*|\s*[-\u2013]\s*|,?\s+(?:and|or|to)\s+)\d+\b)*)\b")
MORE = re.compile(r"\d+")
ML_CODE = re.compile(r"^ml\.(?P<name>[A-Za-z_][\w.]*)(?:\(.*\))?$", re.S)
SKIP_NODES = (nodes.reference, nodes.literal, nodes.literal_block, nodes.math, nodes.math_block,
              nodes.title, nodes.raw, nodes.FixedTextElement, nodes.target)
SKIP_CLASSES = {"cell_input", "cell_output", "admonition-title"}


def chapter_docs(env) -> dict[int, str]:
    """Chapter number -> docname: the pages the table of contents numbers with one number."""
    chapters = {}
    for docname, numbers in env.toc_secnumbers.items():
        top = numbers.get("")
        if top and len(top) == 1:
            chapters[top[0]] = docname
    return chapters


def _skipped(node) -> bool:
    while node is not None:
        if isinstance(node, SKIP_NODES):
            return True
        if isinstance(node, nodes.Element) and SKIP_CLASSES & set(node.get("classes", ())):
            return True
        node = node.parent
    return False


def _join_texts(parent) -> None:
    """Join each run of neighbouring text nodes of ``parent`` into one."""
    children, run = [], []
    for child in parent.children:
        if isinstance(child, nodes.Text):
            run.append(str(child))
            continue
        if run:
            children.append(nodes.Text("".join(run)))
            run = []
        children.append(child)
    if run:
        children.append(nodes.Text("".join(run)))
    if len(children) != len(parent.children):
        parent.children = []
        parent.extend(children)


def _link(text: str, uri: str) -> nodes.reference:
    return nodes.reference(text, text, refuri=uri, internal=True, classes=["chapter-link"])


def _chapter_nodes(text: str, docname: str, chapters: dict, uri) -> list[nodes.Node] | None:
    """``text`` cut into text and links, or None when it names no other chapter."""
    out, last, linked = [], 0, False
    for m in CHAPTER.finditer(text):
        # (start, end, number) of each number the mention names; the first takes the word with it.
        spans = [(m.start("word"), m.end("first"), int(m.group("first")))]
        if m.group("word").endswith("s"):  # "chapters 4 and 5": each number is a link
            base = m.start("rest")
            spans += [(base + n.start(), base + n.end(), int(n.group())) for n in MORE.finditer(m.group("rest"))]
        for start, end, number in spans:
            target = chapters.get(number)
            if target is None or target == docname:
                continue
            out.append(nodes.Text(text[last:start]))
            out.append(_link(text[start:end], uri(target)))
            last, linked = end, True
    if not linked:
        return None
    out.append(nodes.Text(text[last:]))
    return [n for n in out if not (isinstance(n, nodes.Text) and not n.astext())]


def _library_object(name: str):
    """The fully qualified name that ``ml.<name>`` refers to, or None."""
    try:
        obj = importlib.import_module("mlrefined_lib")
        for part in name.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        return None
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    return f"{module}.{qualname}" if module and qualname else None


def _link_prose(app, doctree, docname):
    if app.builder.format != "html":
        return
    env = app.env
    chapters = chapter_docs(env)

    def uri(target, anchor=""):
        return app.builder.get_relative_uri(docname, target) + (f"#{anchor}" if anchor else "")

    # A line break in the source can split "chapter\n4" into two text nodes: join neighbours first.
    for parent in {id(t.parent): t.parent for t in doctree.findall(nodes.Text) if "hapter" in t}.values():
        _join_texts(parent)
    for text in list(doctree.findall(nodes.Text)):
        if "hapter" not in text or _skipped(text.parent):
            continue
        parts = _chapter_nodes(str(text), docname, chapters, uri)
        if parts:
            text.parent.replace(text, parts)

    objects = env.get_domain("py").objects
    for literal in list(doctree.findall(nodes.literal)):
        m = ML_CODE.match(literal.astext())
        if not m or isinstance(literal.parent, nodes.reference) or _skipped(literal.parent):
            continue
        full = _library_object(m.group("name"))
        entry = objects.get(full) if full else None
        if entry is None or entry.docname == docname:
            continue
        link = nodes.reference("", "", refuri=uri(entry.docname, entry.node_id), internal=True,
                               classes=["library-link"])
        literal.parent.replace(literal, link)
        link.append(literal)


def setup(app):
    app.connect("doctree-resolved", _link_prose)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
