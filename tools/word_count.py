"""Count the words of the book's prose, per chapter and in total, against the word budget.

    python tools/word_count.py            # a table: words per chapter and page, and the total
    python tools/word_count.py --check    # exit status 1 if the total passes BUDGET

The prose under the budget is what a student reads as the book's sentences:

* ``intro.md``, the root page;
* the Markdown cells of every chapter notebook (``bookfiles.chapter_notebooks``,
  the pages of chapter 6 counted together as chapter 6), exercises and their
  written solutions included.

The pages "for instructors and contributors" (``instructors.md`` without its
generated table of exercises, ``reference.md``) are counted by the same rules
and printed below the total, but are outside the budget: they are not read by
a student, and the reference is mostly ``automodule`` directives.

What is not prose, and is not counted:

* code: fenced blocks (```` ``` ```` or ``~~~``) that are not MyST directives,
  MyST ``{eval-rst}`` and ``{code-cell}`` blocks (``reference.md``'s
  ``automodule`` lines), the code cells of the notebooks;
* display math (``$$ ... $$`` and ``{math}`` blocks) counts as nothing: it is
  read as a formula, not as words;
* inline math ``$...$`` and inline code ```` `...` ```` count as **one word**
  each: in the sentence "the weight $w_n$ of feature $n$" each stands where a
  word would;
* the line that opens a directive (```` ```{exercise} ````, ``:::{grid}``:
  only a title written after the directive's name counts, not the label after
  ``{solution}``), its option lines
  (``:label: ex-ch5-folds``) and the fences that close it; the body of a
  directive (an exercise, a solution, a card) is prose and counts;
* HTML comments (``<!-- ... -->``) and HTML tags;
* the table of every exercise in ``instructors.md``, between
  ``<!-- exercises -->`` and ``<!-- /exercises -->`` (``make text`` writes it);
* the addresses of links and images (a link's text counts, an image's alt
  text does not);
* Markdown marks: ``#`` of headings, ``*``, ``|`` and ``---`` of tables, list
  bullets. A word is what is left between spaces if it holds a letter or a
  digit, so "—" and "·" are not words.

``BUDGET`` is the one place the book's limit is written;
``tests/harness/test_word_budget.py`` fails when the total passes it.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import bookfiles  # noqa: E402

#: The most words the book's prose may hold (issue 43: "The whole prose stays within 72,000 words").
BUDGET = 72_000

#: The Markdown page counted with the chapters, and the pages counted outside the budget.
PAGES = ("intro.md",)
OUTSIDE = ("instructors.md", "reference.md")

_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,}|:{3,})\s*(?P<info>.*)$")
_DIRECTIVE = re.compile(r"^\{(?P<name>[\w:-]+)\}\s*(?P<title>.*)$")
#: Directives whose body is code or markup, not prose.
_NOT_PROSE = {"eval-rst", "code-cell", "code-block", "code", "math", "raw", "automodule", "autofunction"}
#: Directives whose argument is a label, not a title.
_LABEL_ARGUMENT = {"solution", "solution-start", "solution-end"}
_OPTION = re.compile(r"^\s*:[\w-]+:(\s|$)")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_DISPLAY_MATH = re.compile(r"\$\$.*?\$\$", re.DOTALL)
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)[^$\n]+?(?<!\\)\$")
_INLINE_CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_ROLE = re.compile(r"\{[\w:-]+\}(?=`)")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_WORD = re.compile(r"\w")


def _strip_blocks(text: str) -> str:
    """The text without code blocks, display-math blocks, directive lines and option lines."""
    kept: list[str] = []
    stack: list[tuple[str, bool]] = []  # (closing fence, whether the body is prose)
    in_options = False
    for line in text.splitlines():
        match = _FENCE.match(line)
        if stack and match and match.group("fence").startswith(stack[-1][0][0]) \
                and len(match.group("fence")) >= len(stack[-1][0]) and not match.group("info").strip():
            stack.pop()
            in_options = False
            continue
        prose = all(body for _, body in stack)
        if match and prose:
            fence, info = match.group("fence"), match.group("info").strip()
            directive = _DIRECTIVE.match(info)
            if directive:
                body = directive.group("name") not in _NOT_PROSE
                stack.append((fence, body))
                in_options = body
                if body and directive.group("title") and directive.group("name") not in _LABEL_ARGUMENT:
                    kept.append(directive.group("title"))
                continue
            if fence[0] != ":":  # a plain fenced block is code (a ``:::`` line without a directive is text)
                stack.append((fence, False))
                continue
        if not prose:
            continue
        if in_options and _OPTION.match(line):
            continue
        in_options = False
        kept.append(line)
    return "\n".join(kept)


def words(markdown: str) -> int:
    """The number of prose words in one piece of MyST Markdown (rules in the module's docstring)."""
    text = _COMMENT.sub(" ", markdown)
    text = _strip_blocks(text)
    text = _DISPLAY_MATH.sub(" ", text)
    text = _INLINE_MATH.sub(" MATH ", text)
    text = _ROLE.sub("", text)
    text = _INLINE_CODE.sub(" CODE ", text)
    text = _IMAGE.sub(" ", text)
    text = _LINK.sub(r" \1 ", text)
    text = _TAG.sub(" ", text)
    return sum(1 for token in text.split() if _WORD.search(token))


def page_text(path: Path) -> str:
    """The Markdown of one page, without instructors.md's generated table of exercises."""
    text = path.read_text(encoding="utf-8")
    start, end = "<!-- exercises -->", "<!-- /exercises -->"
    if start in text and end in text:
        text = text[: text.index(start)] + text[text.index(end) + len(end):]
    return text


def notebook_words(path: Path) -> int:
    notebook = nbformat.read(path, as_version=4)
    return sum(words(cell.source) for cell in notebook.cells if cell.cell_type == "markdown")


def counts(root: Path | None = None, *, per_notebook: bool = False) -> dict[str, int]:
    """Words of the prose under the budget, in reading order.

    One entry per page and per chapter (``"ch. 6"``: the pages of a chapter
    together), or with ``per_notebook`` per notebook (its path).
    """
    root = ROOT if root is None else Path(root)
    found: dict[str, int] = {name: words(page_text(root / name)) for name in PAGES}
    for path in bookfiles.chapter_notebooks(root):
        key = str(path.relative_to(root)) if per_notebook else f"ch. {int(path.parent.name.split('_')[0])}"
        found[key] = found.get(key, 0) + notebook_words(path)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit status 1 if the total passes the budget")
    parser.add_argument("--notebooks", action="store_true", help="one row per notebook instead of per chapter")
    args = parser.parse_args(argv)
    rows = counts(per_notebook=args.notebooks)
    outside = {name: words(page_text(ROOT / name)) for name in OUTSIDE}
    overall = sum(rows.values())
    width = max(map(len, [*rows, *outside]))
    for name, count in rows.items():
        print(f"{name:<{width}}  {count:>6,}")
    print(f"{'total':<{width}}  {overall:>6,}  (budget {BUDGET:,}, {BUDGET - overall:+,} left)")
    for name, count in outside.items():
        print(f"{name:<{width}}  {count:>6,}  (outside the budget)")
    if args.check and overall > BUDGET:
        print(f"the prose holds {overall:,} words, over the budget of {BUDGET:,}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
