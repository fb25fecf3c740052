"""Every multi-panel figure of the stored notebooks carries its narrow layout for phones.

Each chapter's setup cell calls ``mlrefined_lib.narrow.enable_narrow_figures()``,
so every figure output records its grid of panels (``"panel_grid"`` in the
metadata of its PNG) and, when its panels sit side by side and the figure is
too wide for a phone, the same figure with its panels stacked (``"narrow"``),
which the HTML book serves to narrow screens (``_ext/narrow_figures.py``). A
figure whose narrow layout could not be drawn records why (``"narrow_error"``):
this test names it. The narrow PNG keeps the figure's text at 8 px or more in
a 390 px phone's 342 px column (9-point text, 11.25 px in the PNG, see
test_readable_notebooks.py). Figures of one column that are still too wide
scroll sideways in the book at 72% of their width (assets/figures.js).
"""

from __future__ import annotations

import base64
import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
PHONE_COLUMN_PX = 342
# 9-point text at 90 dpi shown at 8 px: the widest PNG a phone's column shows readably.
MAX_PHONE_PNG_PX = PHONE_COLUMN_PX * (9 * 90 / 72) / 8


def chapter_notebooks() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "chapters/*.ipynb"], cwd=ROOT, capture_output=True, text=True)
    paths = [ROOT / p for p in listed.stdout.split()] if listed.returncode == 0 else []
    return paths or sorted(ROOT.glob("chapters/*/*.ipynb"))


def png_width(value) -> int:
    data = base64.b64decode("".join(value) if isinstance(value, list) else value)
    return int.from_bytes(data[16:20], "big")


def figures(path: Path):
    """(cell index, PNG width, the PNG's metadata) of every figure output."""
    for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "image/png" in data and WIDGET_VIEW not in data:
                yield index, png_width(data["image/png"]), output.get("metadata", {}).get("image/png", {})


@pytest.mark.parametrize("path", chapter_notebooks(), ids=lambda p: p.parent.name + "/" + p.name)
def test_every_multi_panel_figure_has_a_narrow_layout(path):
    problems = []
    for index, width, metadata in figures(path):
        where = f"cell {index} ({width} px)"
        if "narrow_error" in metadata:
            problems.append(f"{where}: no narrow layout: {metadata['narrow_error']}")
        elif "panel_grid" not in metadata:
            problems.append(f"{where}: shown without enable_narrow_figures() (no panel grid recorded)")
        elif metadata["panel_grid"][1] >= 2 and width > MAX_PHONE_PNG_PX and "narrow" not in metadata:
            problems.append(f"{where}: {metadata['panel_grid']} panels and no narrow layout")
        if "narrow" in metadata and png_width(metadata["narrow"]) > MAX_PHONE_PNG_PX:
            problems.append(f"{where}: the narrow layout is {png_width(metadata['narrow'])} px wide "
                            f"(at most {MAX_PHONE_PNG_PX:.0f})")
    assert not problems, f"{path.relative_to(ROOT)}:\n  " + "\n  ".join(problems)


def test_narrow_layouts_stay_light():
    """The narrow PNGs add little to the notebooks (and to the book, where a phone loads them instead)."""
    total = sum(len(base64.b64decode(metadata["narrow"])) for path in chapter_notebooks()
                for _, _, metadata in figures(path) if "narrow" in metadata)
    assert total < 1.5 * 2**20, f"{total / 2**20:.2f} MB of narrow layouts"
