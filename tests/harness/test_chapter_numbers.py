"""Chapter numbers stay consistent: folders, table of contents, labels and text.

Sphinx numbers the chapters by their order in ``_toc.yml``; the folders carry
the same number (``chapters/NN_slug``), the exercise labels of a chapter are
``ex-chNN-...`` and every "chapter N" written in a notebook, a page or the
library names a chapter that exists. Citations of other books ("...
University Press, chapter 9") are not the book's own chapters and are skipped.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import bookfiles  # noqa: E402  (tools/bookfiles.py reads the table of contents)

CITATION = re.compile(r"Press|edition|Springer|Wadsworth|O'Reilly")
MENTION = re.compile(r"(?i)\bchapters?\s+(\d+(?:\s*(?:–|-|to|and|,\s*and|,)\s*\d+)*)")


def toc_chapters() -> list[str]:
    """The chapter entries of _toc.yml under chapters/ (not their sections), in order."""
    return [name for name in bookfiles.toc_files(ROOT, sections=False) if name.startswith("chapters/")]


CHAPTERS = toc_chapters()


def test_folders_are_numbered_in_toc_order():
    folders = [f.split("/")[1] for f in CHAPTERS]
    numbers = [int(f.split("_")[0]) for f in folders]
    assert numbers == list(range(1, len(folders) + 1)), f"chapter folders in _toc.yml order: {folders}"
    on_disk = sorted(p.name for p in (ROOT / "chapters").iterdir() if p.is_dir())
    assert on_disk == sorted(folders), f"folders not in _toc.yml: {set(on_disk) ^ set(folders)}"


def texts():
    """(where, text) for every markdown cell, code cell and page the reader sees, and the library."""
    for path in sorted((ROOT / "chapters").glob("*/*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for i, cell in enumerate(cells):
            yield f"{path.relative_to(ROOT)} cell {i}", "".join(cell["source"])
    for path in [ROOT / "intro.md", ROOT / "instructors.md", ROOT / "README.md", ROOT / "datasets/README.md",
                 *sorted((ROOT / "mlrefined_lib").rglob("*.py"))]:
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")


def test_every_chapter_mention_exists():
    last = len(CHAPTERS)
    bad = []
    for where, text in texts():
        for line in text.splitlines():
            if CITATION.search(line):
                continue
            for match in MENTION.finditer(line):
                numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
                if any(n < 1 or n > last for n in numbers):
                    bad.append(f"{where}: {match.group(0)!r}")
    assert not bad, f"mentions of chapters that do not exist (the book has {last}):\n" + "\n".join(bad)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda f: f.split("/")[1])
def test_exercise_labels_carry_their_chapter_number(chapter):
    folder = ROOT / Path(chapter).parent
    number = int(folder.name.split("_")[0])
    wrong = []
    for path in sorted(folder.glob("*.ipynb")):
        text = "".join("".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"])
        for label in re.findall(r":label:\s*(ex-ch(\d+)-[\w-]+)", text):
            if int(label[1]) != number:
                wrong.append(f"{path.name}: {label[0]}")
    assert not wrong, f"exercise labels of chapter {number} with another chapter's number: {wrong}"



def section_headings(path: Path) -> list[str]:
    """The ``##``-and-deeper headings of a notebook's Markdown cells (outside fenced blocks)."""
    found = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        fenced = False
        for line in "".join(cell["source"]).splitlines():
            if re.match(r"\s*(```|~~~|:::)", line):  # a fence opens or closes a block
                fenced = not fenced
            elif not fenced and re.match(r"#{2,6} ", line):
                found.append(line)
    return found


def test_a_chapter_with_pages_below_it_has_no_sections_of_its_own():
    """Sphinx numbers a chapter page's own sections (6.1, 6.2, ...) before the pages listed under it
    in _toc.yml, which would then read 6.9, 6.10, ...: such a first page holds only the opening."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    with_pages = [entry["file"] for part in toc["parts"] for entry in part["chapters"] if entry.get("sections")]
    assert "chapters/06_histogram_features/histogram_features" in with_pages, with_pages
    found = {name: section_headings(ROOT / f"{name}.ipynb") for name in with_pages}
    bad = {name: headings for name, headings in found.items() if headings}
    assert not bad, f"first pages with sections of their own (move them to a page below): {bad}"
