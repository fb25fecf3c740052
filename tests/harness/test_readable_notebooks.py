"""Code and figures a reader can read at the size the book shows them.

At 1280 px the book's text column shows 80 characters of code (13 px
monospace, see assets/book.css), and output figures at most 672 px wide. The
browser test (tests/book/test_devices.py) measures both on the built pages;
these checks, on the notebooks' sources, say which line or which call is to
blame:

* every code line is at most 80 characters;
* each chapter sets its figures' resolution and base font (90 dpi, 10 pt) in
  one place, and no figure text is set below 9 pt (9 pt at 90 dpi is 11.25 px,
  so a figure shown at 80% of its width or more keeps every letter at 9 px or
  more); the library's plotting functions keep the same floor.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(ROOT.glob("chapters/*/*.ipynb"))
MAX_LINE = 80
MIN_FONT_PT = 9
FIGURE_DPI = 90
BASE_FONT_PT = 10
FONT_ARGUMENT = re.compile(r"\b(?:fontsize|labelsize|title_fontsize)\s*=\s*([^,)\s]+)")
SMALL_NAMES = {"xx-small", "x-small", "small", "smaller"}


def code_cells(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def small_fonts(text: str) -> list[str]:
    """The font-size arguments in ``text`` that are below the floor."""
    found = []
    for value in FONT_ARGUMENT.findall(text):
        name = value.strip("\"'")
        try:
            too_small = float(name) < MIN_FONT_PT
        except ValueError:
            too_small = name in SMALL_NAMES
        if too_small:
            found.append(value)
    return found


@pytest.fixture(params=NOTEBOOKS, ids=lambda p: p.stem)
def notebook(request) -> Path:
    return request.param


def test_the_notebooks_are_found():
    assert len(NOTEBOOKS) >= 11, f"expected every chapter's notebook, found {len(NOTEBOOKS)}"


def test_code_lines_fit_the_text_column(notebook):
    long = [(len(line), line.strip()[:60]) for src in code_cells(notebook) for line in src.split("\n")
            if len(line) > MAX_LINE]
    assert not long, (f"{notebook.name}: {len(long)} code line(s) longer than {MAX_LINE} characters "
                      f"(they scroll sideways at 1280 px), e.g. {long[:3]}")


def test_figures_use_the_books_resolution_and_base_font(notebook):
    settings = [src for src in code_cells(notebook) if "rcParams.update" in src]
    assert settings, f"{notebook.name}: no cell sets plt.rcParams (figure.dpi and font.size)"
    text = settings[0]
    assert re.search(rf'"figure\.dpi":\s*{FIGURE_DPI}\b', text), f"{notebook.name}: figure.dpi is not {FIGURE_DPI}"
    size = re.search(r'"font\.size":\s*([\d.]+)', text)
    assert size and float(size.group(1)) >= BASE_FONT_PT, f"{notebook.name}: font.size is not at least {BASE_FONT_PT}"


def test_no_figure_text_below_the_floor(notebook):
    small = [value for src in code_cells(notebook) for value in small_fonts(src)]
    assert not small, f"{notebook.name}: font sizes below {MIN_FONT_PT} pt: {small}"


def test_library_plots_keep_the_floor():
    small = {}
    for module in sorted((ROOT / "mlrefined_lib").glob("*.py")):
        found = small_fonts(module.read_text(encoding="utf-8"))
        if found:
            small[module.name] = found
    assert not small, f"font sizes below {MIN_FONT_PT} pt in the library: {small}"


def test_the_font_check_can_fail():
    assert small_fonts('ax.legend(fontsize=8); ax.tick_params(labelsize="small")') == ["8", '"small"']
    assert small_fonts("ax.legend(fontsize=9, title_fontsize=10)") == []
