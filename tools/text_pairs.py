"""Write or check the text pair of every chapter notebook.

    python tools/text_pairs.py           # (re)write text/NN_slug/name.md for every notebook
    python tools/text_pairs.py --check   # exit status 1 if a pair is missing, stale or orphaned

The notebooks under ``chapters/`` are what the book builds from and what
nbval compares (they carry the outputs). Their JSON is hard to review: one
re-execution changes thousands of lines. So every notebook has a text pair,
``text/<chapter folder>/<name>.md``: its cells as MyST markdown (jupytext's
``md:myst`` format), code and prose only, no outputs. A change to a chapter
reads as a diff of that file. The book does not build from ``text/``
(``_config.yml`` excludes it), so no page is found twice.

Edit the notebook, then run this tool (``make text``);
``tests/harness/test_text_pairs.py`` fails when a pair is out of sync.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import jupytext
import nbformat

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"
TEXT = ROOT / "text"
FORMAT = "md:myst"


def notebooks() -> list[Path]:
    """Every chapter notebook, in folder order."""
    return sorted(CHAPTERS.glob("*/*.ipynb"))


def pair_of(notebook: Path) -> Path:
    """``text/<chapter folder>/<name>.md`` for ``chapters/<chapter folder>/<name>.ipynb``."""
    return TEXT / notebook.parent.name / (notebook.stem + ".md")


def text_of(notebook: Path) -> str:
    """The notebook's cells as MyST markdown, without outputs or run-time metadata."""
    nb = nbformat.read(notebook, as_version=4)
    nb.metadata = {key: nb.metadata[key] for key in ("kernelspec",) if key in nb.metadata}
    for cell in nb.cells:
        cell.metadata = {key: value for key, value in cell.metadata.items() if key == "tags"}
    text = jupytext.writes(nb, fmt=FORMAT)
    return text if text.endswith("\n") else text + "\n"


def problems() -> list[str]:
    """What is out of sync: missing or stale pairs, and text files with no notebook."""
    found = []
    expected = set()
    for notebook in notebooks():
        pair = pair_of(notebook)
        expected.add(pair)
        if not pair.exists():
            found.append(f"{pair.relative_to(ROOT)} is missing")
        elif pair.read_text(encoding="utf-8") != text_of(notebook):
            found.append(f"{pair.relative_to(ROOT)} differs from {notebook.relative_to(ROOT)}")
    for orphan in sorted(set(TEXT.glob("*/*.md")) - expected):
        found.append(f"{orphan.relative_to(ROOT)} has no notebook")
    return found


def write() -> int:
    """Rewrite every pair whose text changed and remove orphans; return how many files changed."""
    changed = 0
    expected = set()
    for notebook in notebooks():
        pair = pair_of(notebook)
        expected.add(pair)
        text = text_of(notebook)
        if not pair.exists() or pair.read_text(encoding="utf-8") != text:
            pair.parent.mkdir(parents=True, exist_ok=True)
            pair.write_text(text, encoding="utf-8")
            changed += 1
    for orphan in set(TEXT.glob("*/*.md")) - expected:
        orphan.unlink()
        changed += 1
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report pairs out of sync; change nothing")
    args = parser.parse_args(argv)
    if args.check:
        found = problems()
        for line in found:
            print(line, file=sys.stderr)
        if found:
            print("Run `make text` (python tools/text_pairs.py) to re-sync.", file=sys.stderr)
        return 1 if found else 0
    print(f"text pairs: {write()} file(s) written or removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
