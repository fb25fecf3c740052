"""Write the book's exercises as an nbgrader course.

    python tools/nbgrader_export.py --out _build/nbgrader

writes ``OUT/nbgrader_config.py`` and, for every chapter notebook listed in
``_toc.yml`` that holds an exercise, ``OUT/source/<chapter>/<notebook>.ipynb``:
one nbgrader assignment per chapter folder. A page without exercises (the
opening page of a chapter whose sections are pages of their own) has nothing
to grade and is left out.

Each notebook is an *exercise notebook*: the chapter's title and setup cell,
every cell from the first exercise to the end, and the chapter's earlier code
cells that those cells use (found by following the names they read back to
the cells that bind or change them). Its exercise cells print what they print
in the book, and it runs in a fraction of the chapter's time, which is what
autograding a class costs. ``--whole-chapters`` assigns whole chapters
instead. In each notebook

* every code cell that holds ``### BEGIN SOLUTION`` / ``### END SOLUTION``
  becomes an nbgrader solution cell (``generate_assignment`` replaces the
  block with ``raise NotImplementedError()``);
* every check cell (tag ``check``) becomes a locked, autograded test cell
  worth the exercise's code points; its ``checks.check_x(...)`` calls become
  ``registered_check("check_x", globals())(...)`` (see :func:`graded_check_source`),
  so that rebinding ``checks`` or ``checks.check_x`` in a solution cell earns nothing;
* every worked answer (a MyST ``{solution}`` dropdown, or the discussion
  written inside a code solution's ``{solution-start}`` / ``{solution-end}``
  pair) becomes a manually graded answer cell: the prose sits between nbgrader's markdown solution
  markers, so the released notebook shows "YOUR ANSWER HERE" instead;
* the ``{solution-start}`` / ``{solution-end}`` markers are dropped and each
  ``{exercise}`` directive becomes a plain heading with its text, so nothing
  of MyST's exercise syntax is left;
* outputs, execution counts and stored widget state are cleared.

``nbgrader_config.py`` replaces autograde's execution step with
``mlrefined_lib.checks._nbgrader.IsolatedExecute``: the check cells are decided
in nbgrader's process, with the student's cells run in a sandboxed child
process (``mlrefined_lib/checks/_isolated.py``, ``_sandbox.py``), and each
check cell's outputs (so its score and its feedback) are that verdict.

Points come from the exercise's first line, for example
``★★ · about 20 min · 3 points`` (all for the check, or all for the answer of
a question without code) or ``★★ · about 25 min · 4 points (1 for the
discussion)`` when a coding exercise also has a worked answer in prose.
The parsing of solutions and of the table of contents is the student
edition's (``tools/student_edition.py``). Exit status 1 if an exercise could
not be turned into nbgrader cells.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import shutil
import sys
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("student_edition", ROOT / "tools" / "student_edition.py")
student_edition = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(student_edition)

BEGIN, END = student_edition.BEGIN, student_edition.END
ANSWER, MARKER = student_edition.ANSWER, student_edition.MARKER
EXERCISE = re.compile(r"^(?P<fence>`{3,}|~{3,})\{exercise\}[ \t]*(?P<title>[^\n]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$",
                      re.MULTILINE | re.DOTALL)
SOLUTION = re.compile(r"^(?P<fence>`{3,}|~{3,})\{solution\}[ \t]*(?P<label>\S+)[^\n]*\n(?P<body>.*?)^(?P=fence)[ \t]*$",
                      re.MULTILINE | re.DOTALL)
OPTION = re.compile(r"^:(?P<key>[\w-]+):[ \t]*(?P<value>[^\n]*)\n", re.MULTILINE)
POINTS = re.compile(r"(?P<total>\d+)\s+points?(?:\s*\((?P<discussion>\d+)\s+for the discussion\))?")
STARS = re.compile(r"^\s*\**(★{1,3})")

CONFIG = '''"""nbgrader configuration of the course written by tools/nbgrader_export.py."""

c = get_config()  # noqa: F821  (provided by nbgrader)

c.CourseDirectory.course_id = "feature-engineering-refined"
# One assignment per chapter folder of source/; a chapter's notebooks are graded together.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"
# Whole chapters run when autograding; the slowest takes under a minute here.
c.ExecutePreprocessor.timeout = 600
c.Execute.timeout = 600

# Grades no submission can forge: autograde's Execute step is replaced by one that starts no
# kernel. Every student cell runs in a child process inside a sandbox (bubblewrap: another user,
# none of the course's files, no network, no view of other processes, limits); every check cell is
# decided in this process (which imports the checks now, before any student code exists); nbgrader
# then scores the check cells from that verdict (mlrefined_lib/checks/_nbgrader.py). Where no
# sandbox can start, autograde refuses; c.IsolatedExecute.without_sandbox = True grades anyway,
# with a warning in every graded notebook.
# Feedback files show what students wrote: their markdown is sanitized (no script, no event
# handler, no javascript: link runs for whoever opens the feedback).
c.HTMLExporter.sanitize_html = True

from mlrefined_lib.checks._nbgrader import autograde_preprocessors  # noqa: E402

c.Autograde.autograde_preprocessors = autograde_preprocessors()
'''


CHECK_CALL = re.compile(r"\bchecks\.(?P<name>check_\w+)\s*\(")
GRADED_IMPORT = ("# Graded apart from this notebook's process (see nbgrader_config.py); here, the checks as registered.\n"
                 "from mlrefined_lib.checks._grading import registered_check\n")


def graded_check_source(source: str) -> str:
    """A check cell's source for the course: each ``checks.check_x(`` becomes ``registered_check("check_x", globals())(``.

    ``registered_check`` looks the check up in the registry that ``@graded`` fills when the library is
    imported, fails if the notebook's name ``checks`` no longer is the checks' package, and the check
    itself fails if a check or a NumPy function was replaced since import (``mlrefined_lib.checks._grading``).
    """
    if not CHECK_CALL.search(source):
        raise ValueError(f"a check cell calls no checks.check_*: {source[:80]!r}")
    return GRADED_IMPORT + CHECK_CALL.sub(lambda m: f'registered_check("{m["name"]}", globals())(', source)


def split_options(body: str) -> tuple[dict, str]:
    """The ``:key: value`` lines at the top of a directive body, and the rest."""
    options = {}
    while True:
        match = OPTION.match(body)
        if not match:
            return options, body.lstrip("\n")
        options[match["key"]] = match["value"].strip()
        body = body[match.end():]


def exercise_points(body: str, has_code: bool, has_answer: bool) -> tuple[int, int]:
    """(code points, answer points) stated on the exercise's first line."""
    first = body.strip().splitlines()[0] if body.strip() else ""
    match = POINTS.search(first) if STARS.match(first) else None
    if not match:
        raise ValueError(f"the exercise's first line should state its points, found {first!r}")
    total = int(match["total"])
    if has_code and has_answer:
        discussion = int(match["discussion"] or 1)
        return total - discussion, discussion
    return (total, 0) if has_code else (0, total)


def nbgrader_meta(grade_id: str, *, solution: bool, grade: bool, locked: bool, points: int | None = None) -> dict:
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3,
            "solution": solution, "task": False}
    if grade:
        meta["points"] = points
    return meta


def plan_exercises(cells) -> dict:
    """label -> title, body, whether it has code and a worked answer (a first pass over the cells)."""
    exercises, current = {}, None
    for cell, gated in zip(cells, student_edition.gated_prose(cells)):
        if gated and gated[1] and gated[0] in exercises:
            exercises[gated[0]]["answer"] = True
        if cell.cell_type == "markdown":
            for match in EXERCISE.finditer(cell.source):
                options, body = split_options(match["body"])
                current = options.get("label") or f"exercise-{len(exercises) + 1}"
                exercises[current] = {"title": match["title"].strip(), "body": body, "code": False, "answer": False}
            for match in SOLUTION.finditer(cell.source):
                if match["label"] in exercises:
                    exercises[match["label"]]["answer"] = True
        elif current and "check" in cell.metadata.get("tags", []):
            exercises[current]["code"] = True
    for label, info in exercises.items():
        info["code_points"], info["answer_points"] = exercise_points(info["body"], info["code"], info["answer"])
    return exercises


def exercise_markdown(match: re.Match) -> str:
    _, body = split_options(match["body"])
    return f"### Exercise: {match['title'].strip()}\n\n{body.rstrip()}\n"


def nbgrader_notebook(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The nbgrader source version of one chapter notebook (a new object; the input is unchanged)."""
    notebook = nbformat.from_dict(notebook)  # deep copy
    exercises = plan_exercises(notebook.cells)
    cells, current, seen = [], None, set()

    def unique(grade_id: str) -> str:
        base, n = grade_id, 1
        while grade_id in seen:
            n += 1
            grade_id = f"{base}-{n}"
        seen.add(grade_id)
        return grade_id

    def answer_cell(label: str, body: str):
        info = exercises.get(label)
        if info is None:
            raise ValueError(f"a worked answer for {label!r} follows no exercise of that label")
        answer = nbformat.v4.new_markdown_cell(
            f"**Your answer** ({info['title']}):\n\n{BEGIN}\n\n{body.strip()}\n\n{END}")
        answer.metadata["nbgrader"] = nbgrader_meta(unique(f"answer-{label}"), solution=True, grade=True,
                                                    locked=False, points=info["answer_points"])
        return answer

    for cell, gated in zip(notebook.cells, student_edition.gated_prose(notebook.cells)):
        cell.metadata.pop("nbgrader", None)
        if cell.cell_type == "markdown" and gated is not None:
            # the discussion inside a code solution's dropdown (or a bare marker): an answer cell, or nothing
            if gated[1]:
                cells.append(answer_cell(gated[0], gated[1]))
            continue
        if cell.cell_type == "markdown":
            source = cell.source
            labels = [split_options(m["body"])[0].get("label") for m in EXERCISE.finditer(source)]
            if labels:
                current = labels[-1]
            answers = list(SOLUTION.finditer(source))
            if answers:
                for match in answers:
                    _, body = split_options(match["body"])
                    cells.append(answer_cell(match["label"], body))
                rest = SOLUTION.sub("", source).strip()
                if not rest:
                    continue
                source = rest
            cell.source = EXERCISE.sub(exercise_markdown, source)
        elif cell.cell_type == "code":
            tags = cell.metadata.get("tags", [])
            if BEGIN in cell.source:
                student_edition.strip_solution_code(cell.source)  # raises ValueError on unbalanced markers
                cell.metadata["nbgrader"] = nbgrader_meta(unique(f"code-{current}"), solution=True, grade=False,
                                                          locked=False)
            elif "check" in tags:
                if current is None:
                    raise ValueError("a check cell comes before any exercise")
                cell.metadata["nbgrader"] = nbgrader_meta(unique(f"check-{current}"), solution=False, grade=True,
                                                          locked=True, points=exercises[current]["code_points"])
                cell.source = graded_check_source(cell.source)
        cells.append(cell)
    return student_edition.with_cleared_cells(notebook, cells)


# ------------------------------------------------------------ exercise notebooks


def _code_ast(source: str):
    """The syntax tree of a code cell, IPython magics and shell lines left out (None if it does not parse)."""
    import ast

    lines = [(line[: len(line) - len(line.lstrip())] + "pass" if line.lstrip().startswith(("%", "!")) else line)
             for line in source.splitlines()]
    try:
        return ast.parse("\n".join(lines))
    except SyntaxError:
        return None


def _names(source: str) -> tuple[set, set, set]:
    """(names bound, names mutated in place, names read) by a code cell, at any depth."""
    import ast

    tree = _code_ast(source)
    bound, mutated, read = set(), set(), set()
    if tree is None:
        return bound, mutated, read
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (bound if isinstance(node.ctx, ast.Store) else read).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            base = node.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if isinstance(base, ast.Name):
                mutated.add(base.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            mutated.add(node.target.id)
    return bound, mutated, read


def has_exercises(notebook: nbformat.NotebookNode) -> bool:
    """Whether a notebook holds an ``{exercise}`` directive (the notebooks the course assigns)."""
    return any(cell.cell_type == "markdown" and EXERCISE.search(cell.source) for cell in notebook.cells)


def exercise_cells(cells) -> list[int]:
    """Indices of the cells an exercise notebook keeps, in order.

    The chapter's title, its first code cell (the setup), every cell from the
    first exercise to the end, and, before the exercises, each code cell that
    last binds (or later changes in place) a name that a kept cell reads,
    followed back to the cells those read in turn.
    """
    start = next(i for i, c in enumerate(cells) if c.cell_type == "markdown" and EXERCISE.search(c.source))
    code = {i: _names(c.source) for i, c in enumerate(cells) if c.cell_type == "code"}
    keep = {0, min(code)} | set(range(start, len(cells)))
    todo = sorted(i for i in keep if i in code)
    while todo:
        i = todo.pop()
        for name in code[i][2] - code[i][0]:
            binders = [j for j in code if j < i and name in code[j][0]]
            if not binders or max(binders) >= start:      # a builtin, or bound by an exercise cell
                continue
            last = max(binders)
            for j in [last] + [j for j in code if last < j < min(i, start) and name in code[j][1]]:
                if j not in keep:
                    keep.add(j)
                    todo.append(j)
    return sorted(keep)


def exercise_notebook(notebook: nbformat.NotebookNode, chapter_path: str) -> nbformat.NotebookNode:
    """The exercise notebook of one chapter: only the cells its exercises need (a new object)."""
    notebook = nbformat.from_dict(notebook)
    kept = [notebook.cells[i] for i in exercise_cells(notebook.cells)]
    title = kept[0].source.splitlines()[0] if kept[0].cell_type == "markdown" else ""
    note = nbformat.v4.new_markdown_cell(
        "These are the exercises of the chapter, with the chapter's code cells that they use "
        f"(`{chapter_path}` in the book). Read the chapter first; run this notebook from the top.")
    heading = [kept[0]] if title.startswith("#") else []
    if heading:
        heading[0] = nbformat.v4.new_markdown_cell(title + ": exercises")
    notebook.cells = heading + [note] + kept[1:]
    return notebook


def main(out: Path, whole_chapters: bool = False) -> int:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    if out.exists():
        shutil.rmtree(out)
    (out / "source").mkdir(parents=True)
    (out / "nbgrader_config.py").write_text(CONFIG)
    problems, totals = [], {"notebooks": 0, "solution": 0, "check": 0, "answer": 0, "points": 0}
    for name in student_edition.toc_files(toc):
        path = ROOT / f"{name}.ipynb"
        if not path.exists() or path.parent.parent != ROOT / "chapters":
            continue
        try:
            book = nbformat.read(path, as_version=4)
            if not has_exercises(book):
                continue
            if not whole_chapters:
                book = exercise_notebook(book, str(path.relative_to(ROOT)))
            converted = nbgrader_notebook(book)
        except ValueError as error:
            problems.append(f"{path.relative_to(ROOT)}: {error}")
            continue
        text = nbformat.writes(converted)
        if ANSWER.search(text) or MARKER.search(text) or "{exercise}" in text:
            problems.append(f"{path.relative_to(ROOT)}: MyST exercise or solution syntax survived")
        target = out / "source" / path.parent.name / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(converted, target)
        totals["notebooks"] += 1
        for cell in converted.cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("solution") and cell.cell_type == "code":
                totals["solution"] += 1
            elif meta.get("grade") and cell.cell_type == "code":
                totals["check"] += 1
            elif meta.get("grade"):
                totals["answer"] += 1
            totals["points"] += meta.get("points", 0) or 0
    for problem in problems:
        print("nbgrader_export:", problem, file=sys.stderr)
    print(f"nbgrader_export: wrote {out} ({totals['notebooks']} notebooks, {totals['solution']} solution cells, "
          f"{totals['check']} autograded checks, {totals['answer']} manually graded answers, {totals['points']} points)")
    return 1 if problems else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "nbgrader")
    parser.add_argument("--whole-chapters", action="store_true",
                        help="assign whole chapters instead of exercise notebooks")
    arguments = parser.parse_args()
    sys.exit(main(arguments.out.resolve(), arguments.whole_chapters))
