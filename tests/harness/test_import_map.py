"""reference.md's import map agrees with the chapters' code (tools/import_map.py)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("import_map", ROOT / "tools" / "import_map.py")
import_map = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(import_map)


def test_the_map_is_up_to_date():
    text = import_map.REFERENCE.read_text()
    assert import_map.with_table(text, import_map.table()) == text, (
        "reference.md's import map is out of date: python tools/import_map.py")


def test_every_way_of_importing_a_name_is_seen():
    source = "\n".join([
        "import mlrefined_lib as ml",
        "from mlrefined_lib import plotting as p, widgets",
        "from mlrefined_lib.costs import least_squares as ls",
        "from mlrefined_lib.plotting import add_path",
        "def f():",
        "    return ml.standard_normalizer(x), p.figure_to_png(fig), widgets.weight_scale(), ls(w), add_path(ax)",
        "ml.k_fold",
        "other.pca",
    ])
    assert import_map.names_used(source) == {"standard_normalizer", "plotting.figure_to_png", "widgets.weight_scale",
                                              "least_squares", "plotting.add_path", "k_fold"}


def _rows() -> dict[str, tuple[str, str]]:
    rows = {}
    for line in import_map.REFERENCE.read_text().splitlines():
        match = re.match(r"\| \{py:obj\}`(?:ml\.)?(?P<name>[\w.]+) <[\w.]+>` \| `[\w.]+` \| (?P<first>[\d–]+)(?:; also (?P<rest>[\d, ]+))? \|$",
                         line)
        if match:
            rows[match["name"]] = (match["first"], match["rest"] or "")
    return rows


def test_the_chapter_that_teaches_a_name_is_the_first_to_call_it():
    # counted independently of the tool: `ml.NAME` in the code cells of each chapter, by a plain search
    rows = _rows()
    assert len(rows) > 100
    # (a name may also be imported by itself, so the map's chapter can only come earlier)
    first = {}
    for path in sorted(ROOT.glob("chapters/*/*.ipynb")):
        number = int(path.parent.name.split("_")[0])
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] == "code":
                for name in re.findall(r"(?<![\w.])ml\.([A-Za-z]\w*)", "".join(cell["source"])):
                    first[name] = min(first.get(name, number), number)
    assert first, "no chapter calls ml.NAME"
    for name, chapter in first.items():
        assert name in rows, f"ml.{name} is called in chapter {chapter} but missing from the import map"
        taught, also = rows[name]
        assert taught != "–" and int(taught) <= chapter, f"ml.{name}: the map says chapter {taught}, called in {chapter}"
        assert str(chapter) in [taught, *also.split(", ")], f"ml.{name}: chapter {chapter} missing from its row"
