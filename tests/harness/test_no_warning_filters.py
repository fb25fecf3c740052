"""The book shows its warnings: no chapter silences one.

A warning that a reader would see when running a cell is either avoided (the
library's ``warn=False`` where divergence is an expected answer, read from
``stop_reason``; ``partial_fit`` for one pass of ``SGDRegressor``) or shown
(``catch_warnings(record=True)`` and the message printed). A filter that
ignores warnings, in a cell or in a solution, would hide the next real one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(ROOT.glob("chapters/*/*.ipynb"))
SILENCES = re.compile(r"""(simplefilter|filterwarnings)\(\s*["']ignore["']|warnings\.filterwarnings\(|-W\s*ignore""")


def silencing_lines(source: str) -> list[str]:
    """The start of each call in ``source`` that silences warnings (a call may span lines)."""
    return [source[m.start():].splitlines()[0].strip() for m in SILENCES.finditer(source)]


def test_the_pattern_finds_the_filters_it_must_refuse():
    assert silencing_lines('warnings.simplefilter("ignore", ml.DivergenceWarning)')
    assert silencing_lines("warnings.filterwarnings('ignore')")
    assert silencing_lines('with warnings.catch_warnings():\n    warnings.simplefilter(\n        "ignore"\n    )')
    assert silencing_lines('warnings.simplefilter("always")') == []
    assert silencing_lines("run = ml.gradient_descent(g, w0, alpha, steps, warn=False)") == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.parent.name + "/" + p.name)
def test_no_cell_silences_a_warning(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = [(index, line) for index, cell in enumerate(cells) if cell["cell_type"] == "code"
             for line in silencing_lines("".join(cell["source"]))]
    assert not found, f"{path.relative_to(ROOT)} silences warnings in cells {found}: avoid the warning or show it"
