"""Chapters show the idea, not the plumbing.

* No visible code cell outside exercise solutions runs past 30 lines of code
  (comments and blank lines aside): longer code belongs in the library.
* The visible code of cells that draw stays small in all: drawing code lives
  in ``mlrefined_lib.figures`` and ``mlrefined_lib.plotting``.
* Folded code is marked one way: a cell whose code is hidden behind the HTML
  book's toggle (tag ``hide-input``) starts with a comment ``# Extra code: ...``
  that says what it draws, and every such comment sits on a folded cell.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(ROOT.glob("chapters/*/*.ipynb"))
MAX_CELL_LINES = 30
# A quarter of the 2,539 visible drawing lines the chapters had before their
# drawing code moved to the library.
MAX_DRAWING_LINES = 634
DRAWS = re.compile(r"\b(plt\.|ax\.|axes\[|fig\.|\.plot\(|\.imshow\(|\.contour|\.bar\(|\.hist\(|\.scatter\(|"
                   r"subplots\(|set_xlabel|legend\()")


def code_lines(source: str) -> list[str]:
    return [line for line in source.splitlines() if line.strip() and not line.strip().startswith("#")]


def cells(path: Path):
    for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        if cell["cell_type"] == "code":
            yield index, "".join(cell["source"]), cell.get("metadata", {}).get("tags", [])


def visible(tags) -> bool:
    return not {"remove-input", "hide-input"} & set(tags)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_long_visible_cell(path):
    long = [f"cell {i}: {len(code_lines(src))} lines" for i, src, tags in cells(path)
            if visible(tags) and "solution" not in tags and len(code_lines(src)) > MAX_CELL_LINES]
    assert not long, f"{path.name}: visible code cells over {MAX_CELL_LINES} lines: {long}"


def test_visible_drawing_code_is_small():
    total = sum(len(code_lines(src)) for path in NOTEBOOKS for _, src, tags in cells(path)
                if visible(tags) and DRAWS.search(src))
    assert total <= MAX_DRAWING_LINES, f"{total} visible lines in cells that draw (at most {MAX_DRAWING_LINES})"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_folded_cells_say_what_they_draw(path):
    wrong = []
    for i, src, tags in cells(path):
        marked = src.lstrip().startswith("# Extra code:")
        if "hide-input" in tags and not marked:
            wrong.append(f"cell {i} is folded but does not start with '# Extra code: ...'")
        if marked and "hide-input" not in tags:
            wrong.append(f"cell {i} starts with '# Extra code:' but is not folded (tag hide-input)")
    assert not wrong, f"{path.name}: {wrong}"
