"""The stored outputs of the chapter notebooks hold nothing that depends on the machine.

nbval compares every printed line with a fresh run. A number that is really a
rounding error (say ``3.3e-16``, or the ``-`` of ``-0.``) comes out with other
digits, or another sign, on a CPU whose linear-algebra kernels add in another
order, and the comparison fails on that machine only. So the notebooks print
such quantities against a threshold (``below 1e-12: True``) or rounded with
``+ 0.0``; this test keeps it that way, and names the notebook, cell and line.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]

# A number in scientific notation with a decimal mantissa and an exponent of -11
# or below: 4.55e-13, 1.6e-14 (a threshold written 1e-12 has no decimal point).
ROUNDING_LEVEL = re.compile(r"(?<![\w.])\d\.\d+e-(1[1-9]|[2-9]\d|\d{3})\b")
# A zero with a minus sign, as NumPy and pandas print it: -0., -0.0, -0.000.
NEGATIVE_ZERO = re.compile(r"(?<![\w.])-0\.0*(?![0-9])")


def chapter_notebooks() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "chapters/*.ipynb"], cwd=ROOT, capture_output=True, text=True)
    paths = [ROOT / p for p in listed.stdout.split()] if listed.returncode == 0 else []
    return paths or sorted(ROOT.glob("chapters/*/*.ipynb"))


def output_lines(cell) -> list[str]:
    lines = []
    for output in cell.get("outputs", []):
        text = output.get("text") or output.get("data", {}).get("text/plain", "")
        lines += "".join(text).splitlines() if isinstance(text, list) else text.splitlines()
    return lines


def offending_lines(notebook) -> list[str]:
    found = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code" or "nbval-ignore-output" in cell.metadata.get("tags", []):
            continue
        for line in output_lines(cell):
            if ROUNDING_LEVEL.search(line) or NEGATIVE_ZERO.search(line):
                found.append(f"cell {index}: {line.strip()[:120]}")
    return found


@pytest.mark.parametrize("path", chapter_notebooks(), ids=lambda p: p.parent.name + "/" + p.name)
def test_no_rounding_noise_in_stored_outputs(path):
    problems = offending_lines(nbformat.read(path, as_version=4))
    assert not problems, (
        f"{path.relative_to(ROOT)} prints rounding errors, whose digits or sign vary between machines; print them "
        "against a threshold (e.g. f'below 1e-12: {x < 1e-12}') or rounded with np.round(x, 4) + 0.0:\n  "
        + "\n  ".join(problems)
    )


@pytest.mark.parametrize("path", chapter_notebooks(), ids=lambda p: p.parent.name + "/" + p.name)
def test_no_execution_timestamps(path):
    # Per-cell timestamps change at every run, so a re-executed chapter would differ on every
    # cell; tools/run_notebooks.py runs with record_timing=False.
    notebook = nbformat.read(path, as_version=4)
    stamped = [i for i, cell in enumerate(notebook.cells) if "execution" in cell.get("metadata", {})]
    assert not stamped, (
        f"{path.relative_to(ROOT)} stores execution timestamps in cells {stamped}: store outputs with "
        "make execute (tools/run_notebooks.py), which records none"
    )


@pytest.mark.parametrize(
    "line, bad",
    [
        ("cost after 100 steps 3.3384e-16", True),
        ("largest |bias|: lasso 7.4e-17, ridge 9.5e-17", True),
        ("gradient at w*: [-0. -0.]", True),
        (" [[ 2. -0.]", True),
        ("mean: -0.000", True),
        ("difference below 1e-10: True", False),
        ("along the contour +7.237e-08", False),
        ("weights [-0.5 -0.25]", False),
        ("alpha 1e-07", False),
        ("held-out means: [ 0.0028 -0.0021]", False),
    ],
)
def test_the_patterns(line, bad):
    cell = nbformat.v4.new_code_cell("")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=line + "\n")]
    notebook = nbformat.v4.new_notebook(cells=[cell])
    assert bool(offending_lines(notebook)) == bad


@pytest.mark.parametrize("path", chapter_notebooks(), ids=lambda p: p.stem)
def test_stored_widget_state_holds_the_librarys_front_end(path):
    """A downloaded notebook's saved widget state carries each live widget's front end as the library has it now."""
    import importlib

    notebook = nbformat.read(path, 4)
    state = notebook.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    stale = []
    for model in state.values():
        saved = model.get("state", {})
        widget = saved.get("_anywidget_id", "")
        if not widget.startswith("mlrefined_lib."):
            continue
        module, _, name = widget.rpartition(".")
        if saved.get("_esm") != getattr(importlib.import_module(module), name)._esm:
            stale.append(name)
    assert not stale, (f"{path.name}: the saved state of {stale} holds an older front end than the library's: "
                       f"`make execute NB={path.relative_to(ROOT)}`")
