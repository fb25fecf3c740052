"""Write the student edition of the book: solutions out, stubs in.

    python tools/student_edition.py --out _build/student

For every chapter notebook listed in `_toc.yml` it

* drops the worked answers of conceptual exercises (```{solution} cells);
* drops the `{solution-start}` / `{solution-end}` markers around code
  solutions, keeping the code cell in between, and the prose of a worked
  discussion written inside that pair;
* replaces each block between `### BEGIN SOLUTION` and `### END SOLUTION` with
  a stub that raises NotImplementedError, at the block's indentation;
* tags every check cell (tag `check`), and every cell that runs a student's
  function (tag `uses-solution`), `raises-exception`, so that the student
  edition's HTML build shows the message a student sees before solving the
  exercise instead of failing;
* clears outputs, execution counts and stored widget state.

The other pages, `_config.yml` (with " (student edition)" added to the title),
`_toc.yml`, `assets/` and the book's local Sphinx extensions are copied unchanged, so `jupyter-book build OUT`
builds the edition. Exit status 1 if a solution survived the transformation.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

import nbformat
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bookfiles import source_file, toc_files  # noqa: E402  (tools/bookfiles.py; also read by nbgrader_export.py)

ROOT = Path(__file__).resolve().parents[1]
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
STUB = 'raise NotImplementedError("Exercise: replace this line with your code.")'
ANSWER = re.compile(r"^\s*```\{solution\}", re.MULTILINE)
MARKER = re.compile(r"^\s*```\{solution-(start|end)\}", re.MULTILINE)


def gated_prose(cells) -> list:
    """For each cell, the worked-answer prose it holds inside a ``{solution-start}`` / ``{solution-end}`` pair.

    A markdown cell between the two markers, or sharing its cell with one of them, is part of the
    dropdown the book shows after the code solution (a discussion the exercise asks for). Returns one
    entry per cell: ``(label, prose)`` for a cell inside a pair (the marker blocks cut out, ``prose``
    possibly empty), ``None`` for a cell outside every pair. Text before a start marker or after an
    end marker in the same cell is refused: it would be neither clearly inside nor outside.
    """
    found, label = [], None
    for cell in cells:
        if cell.cell_type != "markdown":
            found.append((label, "") if label is not None else None)
            continue
        entry = (label, []) if label is not None else None
        prior = []
        marker = None   # "start" or "end" while inside a marker's fence
        for line in cell.source.splitlines():
            start = re.match(r"^\s*`{3,}\{solution-start\}\s*(\S+)", line)
            if start or re.match(r"^\s*`{3,}\{solution-end\}", line):
                if start and label is not None or not start and label is None:
                    raise ValueError(f"unpaired solution marker: {line.strip()!r}")
                if start:
                    if entry is None and any(l.strip() for l in prior):
                        raise ValueError(f"text before a solution-start marker in its cell: {cell.source[:80]!r}")
                    label, entry = start.group(1), (start.group(1), [])
                marker = "start" if start else "end"
                continue
            if marker:
                if re.match(r"^\s*`{3,}\s*$", line):
                    if marker == "end":
                        label = None
                    marker = None
                continue   # the marker's options (:class: dropdown)
            if entry is not None and label is None and line.strip():
                raise ValueError(f"text after a solution-end marker in its cell: {cell.source[:80]!r}")
            (entry[1] if entry is not None else prior).append(line)
        found.append((entry[0], "\n".join(entry[1]).strip()) if entry is not None else None)
    return found


def strip_solution_code(source: str) -> str:
    """Replace every BEGIN/END SOLUTION block of a code cell with a stub."""
    lines, out, inside = source.splitlines(), [], False
    for line in lines:
        stripped = line.strip()
        if stripped == BEGIN:
            if inside:
                raise ValueError("nested '### BEGIN SOLUTION'")
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            out.append(indent + STUB)
        elif stripped == END:
            if not inside:
                raise ValueError("'### END SOLUTION' without a BEGIN")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise ValueError("'### BEGIN SOLUTION' without an END")
    return "\n".join(out)


def student_notebook(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The student version of one notebook (a new object; the input is unchanged)."""
    notebook = nbformat.from_dict(notebook)  # deep copy
    cells = []
    for cell, gated in zip(notebook.cells, gated_prose(notebook.cells)):
        source = cell.source
        if cell.cell_type == "markdown" and (ANSWER.search(source) or MARKER.search(source) or gated):
            continue
        if cell.cell_type == "code":
            tags = [t for t in cell.metadata.get("tags", []) if t != "solution"]
            if BEGIN in source:
                cell.source = strip_solution_code(source)
            if ("check" in tags or "uses-solution" in tags) and "raises-exception" not in tags:
                tags.append("raises-exception")
            if tags:
                cell.metadata["tags"] = tags
            else:
                cell.metadata.pop("tags", None)
        cells.append(cell)
    return with_cleared_cells(notebook, cells)


def with_cleared_cells(notebook: nbformat.NotebookNode, cells: list) -> nbformat.NotebookNode:
    """``notebook`` with ``cells`` as its cells, every code cell's outputs and execution count cleared and
    the stored widget state dropped (changed in place and returned).

    The last step of both editions, this one and the nbgrader course (``tools/nbgrader_export.py``).
    """
    for cell in cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    notebook.cells = cells
    notebook.metadata.pop("widgets", None)
    return notebook


def main(out: Path) -> int:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    config["title"] = f"{config['title']} (student edition)"
    (out / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    shutil.copy2(ROOT / "_toc.yml", out / "_toc.yml")
    shutil.copytree(ROOT / "assets", out / "assets")
    for name, folder in (config.get("sphinx", {}).get("local_extensions") or {}).items():
        (out / folder).mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / folder / f"{name}.py", out / folder / f"{name}.py")
    problems, stubs = [], 0
    for name in toc_files(toc):
        source = source_file(name)
        if source is None:
            problems.append(f"{name}: listed in _toc.yml but not found")
            continue
        target = out / source.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.suffix == ".ipynb":
            student = student_notebook(nbformat.read(source, as_version=4))
            text = nbformat.writes(student)
            if BEGIN in text or END in text or ANSWER.search(text):
                problems.append(f"{source.relative_to(ROOT)}: a solution survived")
            stubs += text.count("raise NotImplementedError(\\\"Exercise")
            nbformat.write(student, target)
        else:
            shutil.copy2(source, target)
    for problem in problems:
        print("student_edition:", problem, file=sys.stderr)
    print(f"student_edition: wrote {out} ({stubs} exercise stub(s))")
    return 1 if problems else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "student")
    sys.exit(main(parser.parse_args().out.resolve()))
