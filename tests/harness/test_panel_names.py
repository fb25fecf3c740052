"""Figure captions and the prose around figures and widgets name panels so that both layouts read true.

A phone stacks the panels of a figure (the narrow layout of mlrefined_lib.narrow) and of a widget, so
"left" and "right" are wrong there: a caption or a paragraph names a panel by its title, its order or
what it shows.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(ROOT.glob("chapters/*/*.ipynb"))

# "the left panel", "on the right", "(left)", "Left:", "Right, degree 10:" ... but not "left out",
# "right answer" and the like.
SIDE = re.compile(r"\b[Oo]n the (?:left|right)\b(?! (?:rows|order|track|scale|thing))|\b(?:left|right) (?:panel|plot|chart)\b|"
                  r"\((?:left|right)\)|^(?:Left|Right)\b[:,]|(?<=[.;] )(?:Left|Right)\b[:,]", re.MULTILINE)


def reader_texts(notebook: Path):
    """(where, text) for every caption and every markdown cell of ``notebook``."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "markdown":
            yield f"cell {index}", "".join(cell["source"])
        caption = cell.get("metadata", {}).get("mystnb", {}).get("figure", {}).get("caption")
        if caption:
            yield f"caption of cell {index}", caption


def test_the_pattern_finds_sides_and_spares_other_uses():
    found = [bool(SIDE.search(t)) for t in (
        "Left: the fits. Right: the errors.", "the left panel follows", "the cost (right)",
        "A line misses it. Right, degree 10: it does not.", "On the right is the cost.")]
    spared = [bool(SIDE.search(t)) for t in (
        "five rows are left out", "the right answer", "Read the figure from right to left.",
        "the points left over", "each one fitted on the right rows", "right one time in six")]
    assert all(found) and not any(spared), (found, spared)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_caption_or_paragraph_names_a_panel_by_its_side(notebook):
    bad = [f"{where}: {match.group(0)!r}" for where, text in reader_texts(notebook) for match in SIDE.finditer(text)]
    assert not bad, f"{notebook.name} names panels by side (a phone stacks them): {bad}"
