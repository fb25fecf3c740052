"""The nbgrader course (`make nbgrader`, tools/nbgrader_export.py), graded by real nbgrader.

Run by `make test-nbgrader`, which builds `.venv-nbgrader` (nbgrader and
requirements.txt, apart from the book's own venv) and sets NBGRADER_VENV.
The test writes a fresh course with the same tool as `make nbgrader`, runs
`nbgrader generate_assignment` on every chapter, then autogrades three
submissions of every chapter, in JOBS (at least 2) nbgrader processes at the
same time, each on its own copy of the course: the source notebooks (every
solution in place), which must earn every code point and run without an error
in any cell (the exercise notebooks keep every chapter cell their exercises
use); wrong answers (every function of every solution cell made to return
something else), which must earn none; and the unchanged release of three
chapters (RELEASE_CHAPTERS), which must earn none (that every check of every
chapter fails on its stub is tests/student's test of the executed student
edition; here nbgrader scores such a failure, and an unchanged answer cell). It also checks that the release holds no solution code and no
worked answer, and it autogrades tampered copies of one exercise notebook
(chapter 1's) in one autograde call: the release with, added to one
exercise's solution cell, one of the cheats of ``CHEATS`` (a check replaced on
the module, the name `checks` rebound, `np.allclose` replaced, the checks'
registry changed in place, what the check cells import replaced, NumPy's
private comparison helpers replaced, the answer read from the check's own
frames, the check's failure swallowed by an exception handler). Each must earn
no code point, and the check cell must show the isolated grader's hint. In
the same call it autogrades attacks on the grader itself (``ATTACKS``: the
gradebook, the course's files and notebooks, other processes, a shell, the
ruled-out functions reached at run time, the channel forged, flooded and left
hanging, a fork bomb, a memory hog), each between an honest submission and a
wrong one; none may earn a point or print "BREACH", the controls must score as
they should, and the course's files and stored cells must be unchanged. Last,
it autogrades on a machine where no sandbox can start (``MLREFINED_BWRAP``
names no program): autograde refuses, and grades with a warning only when told.

The course grades with mlrefined_lib/checks/_isolated.py (the checks run in
nbgrader's process, the student's cells in a sandboxed child, _sandbox.py). With
NBGRADER_WITHOUT_ISOLATION=1 the test removes that from the course's
nbgrader_config.py, so the checks run in the student's kernel as nbgrader
alone would run them: the tampering tests then fail (that is how one sees that
they can).

Without NBGRADER_VENV and without `.venv-nbgrader` the nbgrader part is
skipped; the checks of the exported notebooks themselves always run.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import nbformat
import pytest
import yaml

from mlrefined_lib.checks import _sandbox

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("nbgrader_export", ROOT / "tools" / "nbgrader_export.py")
nbgrader_export = importlib.util.module_from_spec(spec)
spec.loader.exec_module(nbgrader_export)
student_edition = nbgrader_export.student_edition

TOC_NOTEBOOKS = [
    ROOT / f"{name}.ipynb"
    for name in student_edition.toc_files(yaml.safe_load((ROOT / "_toc.yml").read_text()))
    if (ROOT / f"{name}.ipynb").exists() and name.startswith("chapters/")
]
# The notebooks the course assigns: those with exercises (a chapter's opening page may have none).
BOOK_NOTEBOOKS = [path for path in TOC_NOTEBOOKS if nbgrader_export.has_exercises(nbformat.read(path, 4))]
VENV = Path(os.environ.get("NBGRADER_VENV", ROOT / ".venv-nbgrader"))
GRADES = """
import json, sys
from nbgrader.api import Gradebook
rows = []
with Gradebook("sqlite:///gradebook.db") as gb:
    for assignment in gb.assignments:
        for submission in gb.assignment_submissions(assignment.name):
            for notebook in submission.notebooks:
                for grade in notebook.grades:
                    rows.append(dict(assignment=assignment.name, student=submission.student.id,
                                     notebook=notebook.name, cell=grade.name,
                                     auto=grade.auto_score, max=grade.max_score,
                                     kind="code" if grade.cell.cell_type == "code" else "answer"))
json.dump(rows, sys.stdout)
"""


def worked_answers(notebook) -> list[str]:
    """The worked answers' sentences (their longer lines) in a book notebook."""
    lines = []
    for cell, gated in zip(notebook.cells, student_edition.gated_prose(notebook.cells)):
        if cell.cell_type == "markdown":
            for match in nbgrader_export.SOLUTION.finditer(cell.source):
                _, body = nbgrader_export.split_options(match["body"])
                lines += [line.strip() for line in body.splitlines() if len(line.strip()) > 40]
            if gated:   # a discussion written inside a code solution's dropdown
                lines += [line.strip() for line in gated[1].splitlines() if len(line.strip()) > 40]
    return lines


def solution_code(notebook) -> list[str]:
    lines = []
    for cell in notebook.cells:
        if cell.cell_type == "code" and student_edition.BEGIN in cell.source:
            inside = False
            for line in cell.source.splitlines():
                inside = (inside or line.strip() == student_edition.BEGIN) and line.strip() != student_edition.END
                if inside and line.strip() != student_edition.BEGIN and len(line.strip()) > 12:
                    lines.append(line.strip())
    return lines


WRONG = """


# (test) every function of this cell returns something else than it computed
def _wrong(value):
    import numpy

    if isinstance(value, tuple):
        return tuple(_wrong(v) for v in value)
    if isinstance(value, list):
        return [_wrong(v) for v in value]
    if isinstance(value, (bool, numpy.bool_)):
        return not value
    if isinstance(value, (int, numpy.integer)):
        return value + 1
    if isinstance(value, (float, numpy.floating)):
        return value * 1.5 + 0.25
    if isinstance(value, numpy.ndarray) and value.dtype.kind in "iuf":
        return value + 1 if value.dtype.kind in "iu" else value * 1.5 + 0.25
    return value


for _name in {names}:
    globals()[_name] = (lambda f: lambda *a, **k: _wrong(f(*a, **k)))(globals()[_name])
"""


#: The chapters whose unchanged release is autograded (a short one, one with text answers, the longest).
RELEASE_CHAPTERS = ("01_gradient_descent", "08_imputation", "12_pipeline")


def wrong_answers(notebook):
    """The source notebook with every function that a solution cell defines returning a wrong value."""
    notebook = nbformat.from_dict(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution"):
            names = [n.name for n in ast.parse(cell.source).body if isinstance(n, ast.FunctionDef)]
            if names:
                cell.source += WRONG.replace("{names}", repr(names))
    return notebook


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """A fresh export (the same tool `make nbgrader` runs)."""
    out = tmp_path_factory.mktemp("course") / "course"
    assert nbgrader_export.main(out) == 0
    if os.environ.get("NBGRADER_WITHOUT_ISOLATION") == "1":
        config = out / "nbgrader_config.py"
        config.write_text(config.read_text().replace("c.Autograde.autograde_preprocessors", "# c.Autograde.autograde_preprocessors"))
    return out


def exported(course: Path, book_path: Path) -> Path:
    return course / "source" / book_path.parent.name / book_path.name


# ------------------------------------------------------------ the exported notebooks


def test_every_chapter_notebook_is_exported(course):
    assert BOOK_NOTEBOOKS
    for book_path in BOOK_NOTEBOOKS:
        assert exported(course, book_path).exists(), book_path
    assert "course_id" in (course / "nbgrader_config.py").read_text()
    # a page without exercises (chapter 6's opening page) has nothing to grade: no notebook
    without = [path for path in TOC_NOTEBOOKS if path not in BOOK_NOTEBOOKS]
    assert all(not exported(course, path).exists() for path in without), without
    exported_names = sorted(str(p.relative_to(course / "source")) for p in (course / "source").glob("*/*.ipynb"))
    assert exported_names == sorted(f"{p.parent.name}/{p.name}" for p in BOOK_NOTEBOOKS)


def test_a_page_without_exercises_is_told_apart():
    assert nbgrader_export.has_exercises(nbformat.read(BOOK_NOTEBOOKS[0], 4))
    opening = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# A chapter\n\nIts opening.")])
    assert not nbgrader_export.has_exercises(opening)


@pytest.mark.parametrize("book_path", BOOK_NOTEBOOKS, ids=lambda p: p.stem)
def test_exported_notebook_has_nbgrader_cells_and_no_myst_wrappers(course, book_path):
    book = nbformat.read(book_path, 4)
    source = nbformat.read(exported(course, book_path), 4)
    text = nbformat.writes(source)
    assert "{solution" not in text and "{exercise}" not in text, "MyST exercise or solution syntax survived"
    assert "widgets" not in source.metadata
    assert all(not c.outputs and c.execution_count is None for c in source.cells if c.cell_type == "code")
    meta = [c.metadata.get("nbgrader", {}) for c in source.cells]
    ids = [m["grade_id"] for m in meta if m]
    assert len(ids) == len(set(ids)), "grade ids must be unique"
    solutions = [c for c, m in zip(source.cells, meta) if m.get("solution") and c.cell_type == "code"]
    checks = [c for c, m in zip(source.cells, meta) if m.get("grade") and c.cell_type == "code"]
    answers = [c for c, m in zip(source.cells, meta) if m.get("grade") and c.cell_type == "markdown"]
    assert len(solutions) == sum(student_edition.BEGIN in c.source for c in book.cells if c.cell_type == "code")
    assert all(c.metadata.nbgrader["locked"] and c.metadata.nbgrader["points"] > 0 for c in checks)
    assert len(checks) == sum("check" in c.metadata.get("tags", []) for c in book.cells)
    gated = [g for c, g in zip(book.cells, student_edition.gated_prose(book.cells)) if c.cell_type == "markdown"]
    assert len(answers) == sum(len(list(nbgrader_export.SOLUTION.finditer(c.source)))
                               for c in book.cells if c.cell_type == "markdown") + sum(bool(g and g[1]) for g in gated)
    for cell in answers:
        assert cell.metadata.nbgrader["solution"] and cell.metadata.nbgrader["points"] > 0
        assert student_edition.BEGIN in cell.source and student_edition.END in cell.source
    for cell in source.cells:
        if student_edition.BEGIN in cell.source:
            assert cell.metadata.get("nbgrader", {}).get("solution"), "a solution region in a non-solution cell"


@pytest.mark.parametrize("book_path", BOOK_NOTEBOOKS, ids=lambda p: p.stem)
def test_every_exercise_states_difficulty_time_and_points(book_path):
    for cell in nbformat.read(book_path, 4).cells:
        if cell.cell_type == "markdown":
            for match in nbgrader_export.EXERCISE.finditer(cell.source):
                _, body = nbgrader_export.split_options(match["body"])
                first = body.strip().splitlines()[0]
                assert re.fullmatch(r"★{1,3} · about \d+ (min|hours?) · (1 point|\d+ points)( \(\d+ for the discussion\)| \(graded by hand\))?", first), \
                    f"{match['title']!r}: first line {first!r}"


# ------------------------------------------------------------------ real nbgrader


def nbgrader(course: Path, *args: str, env: dict | None = None) -> subprocess.Popen:
    env = dict(os.environ, **(env or {}), PATH=f"{VENV / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("PYTHONPATH", None)
    env.pop("JUPYTER_PATH", None)
    return subprocess.Popen([str(VENV / "bin" / "nbgrader"), *args], cwd=course, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def finish(process: subprocess.Popen, what: str, timeout: int = 900) -> str:
    output, _ = process.communicate(timeout=timeout)
    assert process.returncode == 0, f"{what} failed:\n{output[-4000:]}"
    assert "[ERROR]" not in output and "| ERROR]" not in output, f"{what} reported errors:\n{output[-4000:]}"
    return output


def grades(course: Path) -> list[dict]:
    output = subprocess.run([str(VENV / "bin" / "python"), "-c", GRADES], cwd=course, check=True, text=True,
                            capture_output=True).stdout
    return json.loads(output)


@pytest.fixture(scope="module")
def released(course) -> float:
    """`nbgrader generate_assignment` of every chapter; the seconds it took."""
    if not (VENV / "bin" / "nbgrader").exists():
        if "NBGRADER_VENV" in os.environ:
            pytest.fail(f"NBGRADER_VENV={VENV} has no nbgrader")
        pytest.skip("no .venv-nbgrader: run `make test-nbgrader`")
    started = time.perf_counter()
    finish(nbgrader(course, "generate_assignment", "*"), "nbgrader generate_assignment")
    return time.perf_counter() - started


@pytest.fixture(scope="module")
def graded(course, released, tmp_path_factory):
    generated = time.perf_counter()
    # Three submissions (the solutions, the unchanged release, wrong answers), graded by JOBS
    # autograde processes at the same time, each on its own copy of the course (and gradebook)
    # with a share of the chapters and students: every chapter of every submission is autograded once.
    jobs = max(2, int(os.environ.get("JOBS", "2")))
    chapters = sorted({p.parent.name for p in BOOK_NOTEBOOKS})
    work = tmp_path_factory.mktemp("graded")
    submissions = {"solutions": lambda nb: nb, "release": None, "wrong": wrong_answers}
    pairs = [(student, chapter) for student in submissions for chapter in chapters
             if student != "release" or chapter in RELEASE_CHAPTERS]
    running = []
    for number in range(jobs):
        copy = work / f"share-{number}"
        shutil.copytree(course, copy)
        for student, chapter in pairs[number::jobs]:
            for book_path in BOOK_NOTEBOOKS:
                if book_path.parent.name == chapter:
                    target = copy / "submitted" / student / chapter / book_path.name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    make = submissions[student]
                    if make is None:
                        shutil.copy2(course / "release" / chapter / book_path.name, target)
                    else:
                        nbformat.write(make(nbformat.read(course / "source" / chapter / book_path.name, 4)), target)
        running.append((copy, nbgrader(copy, "autograde", "*")))
    results = {student: [] for student in submissions}
    results["errors"] = []
    for copy, process in running:
        finish(process, f"nbgrader autograde ({copy.name})")
        for row in grades(copy):
            results[row["student"]].append(row)
        for path in sorted((copy / "autograded" / "solutions").glob("*/*.ipynb")):
            for index, cell in enumerate(nbformat.read(path, 4).cells):
                if cell.cell_type == "code" and "raises-exception" not in cell.metadata.get("tags", []):
                    results["errors"] += [f"{path.parent.name}/{path.name} cell {index}: {o.ename}: {o.evalue}"
                                          for o in cell.outputs if o.output_type == "error"]
    done = time.perf_counter()
    print(f"\nnbgrader: generate_assignment {released:.0f} s, "
          f"autograde of three submissions ({len(running)} processes) {done - generated:.0f} s")
    return results


def test_solutions_earn_every_code_point(graded):
    code = [g for g in graded["solutions"] if g["kind"] == "code"]
    assert len(code) == sum(
        "check" in c.metadata.get("tags", []) for p in BOOK_NOTEBOOKS for c in nbformat.read(p, 4).cells)
    missed = [f"{g['notebook']}/{g['cell']}: {g['auto']} of {g['max']}" for g in code if g["auto"] != g["max"]]
    assert not missed, f"the solutions lost points: {missed}"


def test_solutions_run_without_errors(graded):
    """Every cell of the graded solutions runs: the exercise notebooks hold every cell their exercises use."""
    assert not graded["errors"], graded["errors"]


def test_exercise_notebook_keeps_setup_and_every_exercise_cell():
    for book_path in BOOK_NOTEBOOKS:
        book = nbformat.read(book_path, 4)
        kept = nbgrader_export.exercise_cells(book.cells)
        first_code = next(i for i, c in enumerate(book.cells) if c.cell_type == "code")
        start = next(i for i, c in enumerate(book.cells)
                     if c.cell_type == "markdown" and nbgrader_export.EXERCISE.search(c.source))
        assert first_code in kept and set(range(start, len(book.cells))) <= set(kept)
        assert len(kept) < len(book.cells)


def test_unchanged_release_earns_no_code_point(graded):
    assert {g["assignment"] for g in graded["release"]} == set(RELEASE_CHAPTERS)
    code = [g for g in graded["release"] if g["kind"] == "code"]
    assert code and all(g["max"] > 0 for g in code)
    earned = [f"{g['notebook']}/{g['cell']}: {g['auto']}" for g in code if g["auto"] != 0]
    assert not earned, f"the unchanged release earned points: {earned}"
    answers = [g for g in graded["release"] if g["kind"] == "answer"]
    assert answers and all(g["auto"] == 0 for g in answers), "an unchanged answer cell should score 0"


def test_wrong_answers_earn_no_code_point(graded):
    code = [g for g in graded["wrong"] if g["kind"] == "code"]
    assert len(code) == len([g for g in graded["solutions"] if g["kind"] == "code"])
    earned = [f"{g['notebook']}/{g['cell']}: {g['auto']}" for g in code if g["auto"] != 0]
    assert not earned, f"wrong answers earned points: {earned}"


def test_release_holds_no_solution(graded, course):
    for book_path in BOOK_NOTEBOOKS:
        book = nbformat.read(book_path, 4)
        release = nbformat.read(course / "release" / book_path.parent.name / book_path.name, 4)
        text = nbformat.writes(release)
        assert student_edition.BEGIN not in text and student_edition.END not in text
        code = "\n".join(c.source for c in release.cells if c.cell_type == "code")
        outside = "\n".join(student_edition.strip_solution_code(c.source) for c in book.cells if c.cell_type == "code")
        for line in solution_code(book):
            assert code.count(line) <= outside.count(line), f"{book_path.name}: solution code survived: {line!r}"
        prose = "\n".join(c.source for c in release.cells if c.cell_type == "markdown")
        for line in worked_answers(book):
            assert line not in prose, f"{book_path.name}: a worked answer survived: {line!r}"


# ------------------------------------------------------------ tampered submissions

TAMPERED_CHAPTER = "01_gradient_descent"
TAMPERED_CHECK = "check_least_squares_gradient"
# student -> (the solution cell handed in, from the release's cell and its function's name;
#             what the check cell's failure must say)
STUB_SAYS = "is not written yet"
WRONG_ZERO = "def {name}(x, y, w):\n    return np.zeros(len(w))\n\n\n"
CHEATS = {
    # the three the course defeated before it graded apart
    "tamper-module": (lambda cell, name: cell + f'\nchecks.{TAMPERED_CHECK} = lambda *a, **k: print("Correct")\n',
                      STUB_SAYS),
    "tamper-name": (lambda cell, name: cell + f"\nimport types\n\nchecks = types.SimpleNamespace({TAMPERED_CHECK}="
                                            "lambda *a, **k: None)\n",
                    STUB_SAYS),
    "tamper-numpy": (lambda cell, name: WRONG_ZERO.format(name=name) + "np.allclose = lambda *a, **k: True\n",
                     "your gradient is not right"),
    # the kinds that earned points when the checks ran in the student's kernel
    "tamper-registry": (lambda cell, name: cell + "\nfrom mlrefined_lib.checks._grading import REGISTRY; "
                                                "REGISTRY.update({k: (lambda *a, **kw: None) for k in REGISTRY})\n",
                        STUB_SAYS),
    "tamper-import": (lambda cell, name: cell + "\nimport mlrefined_lib.checks._grading as g; "
                                              "g.registered_check = lambda *a, **k: (lambda *a, **k: None)\n",
                      STUB_SAYS),
    "tamper-numpy-private": (lambda cell, name: WRONG_ZERO.format(name=name)
                             + "import numpy._core.numeric as numeric\n\n"
                             "numeric.isclose = lambda a, b, *r, **k: np.ones(np.broadcast(a, b).shape, dtype=bool)\n"
                             "numeric.array_equal = lambda *a, **k: True\n",
                             "your gradient is not right"),
    "tamper-frames": (lambda cell, name: f"def {name}(x, y, w):\n    import sys\n\n    frame = sys._getframe(1)\n"
                                         "    while frame is not None:\n"
                                         "        if \"expected\" in frame.f_locals:\n"
                                         "            return frame.f_locals[\"expected\"]\n"
                                         "        frame = frame.f_back\n"
                                         "    return np.ones(len(w))\n",
                      "your gradient is not right"),
    "tamper-swallow": (lambda cell, name: cell + "\nget_ipython().set_custom_exc((BaseException,), "
                                               "lambda shell, etype, value, tb, tb_offset=None: None)\n",
                       STUB_SAYS),
}


# Attacks on the grader itself, each written only in the student's own cells (the solution cell of the
# tampered exercise, and for some a cell the student adds before it). Each runs when its cell runs,
# then leaves the stub in place (or a wrong function); it prints "BREACH: ..." if a step that the
# sandbox must stop succeeds. COURSE is the course folder's absolute path (an attacker may know it).
ATTACK_PRELUDE = "import glob, os, signal, sys\nCOURSE = {course!r}\n"
ATTACKS = {
    # write scores into the gradebook, zero another student's, rewrite the stored check cells
    "attack-gradebook": """
import sqlite3
for path in [COURSE + "/gradebook.db", "../../../gradebook.db", *glob.glob("/**/gradebook.db", recursive=True)]:
    if os.path.exists(path):
        try:
            db = sqlite3.connect(path)
            db.execute("UPDATE grade SET manual_score = 99, extra_credit = 99")
            db.execute("UPDATE source_cell SET source = 'pass'")
            db.commit()
            print("BREACH: wrote into", path)
        except Exception as error:
            print("gradebook refused:", type(error).__name__)
""",
    # the course's files: its config (also through readline, which raises no audit event), the
    # instructor's source notebook (its solutions), other students' submissions
    "attack-course-files": """
import readline
for path in [COURSE + "/nbgrader_config.py", "../../../nbgrader_config.py"]:
    try:
        readline.write_history_file(path)
        print("BREACH: readline wrote", path)
    except Exception:
        pass
    try:
        with open(path, "a") as handle:
            handle.write("c.Autograde.autograde_preprocessors = []\\n")
        print("BREACH: appended to", path)
    except Exception:
        pass
for path in glob.glob(COURSE + "/source/**/*.ipynb", recursive=True) + glob.glob(COURSE + "/submitted/**/*.ipynb", recursive=True):
    print("BREACH: can see", path)
for folder, _, files in os.walk("/"):
    if folder.startswith(("/proc", "/sys", "/usr", "/dev", sys.prefix, sys.base_prefix)):
        continue
    for file in files:
        if file.endswith(".ipynb"):
            print("BREACH: a notebook at", os.path.join(folder, file))
""",
    # other processes: the grader's memory, signals to everything visible (also by pidfd)
    "attack-processes": """
mine = os.getpid()
for entry in os.listdir("/proc"):
    if entry.isdigit() and int(entry) != mine:
        pid = int(entry)
        try:
            with open(f"/proc/{{pid}}/mem", "rb") as handle:
                handle.read(1)
            print("BREACH: read the memory of", pid)
        except Exception:
            pass
        try:
            os.kill(pid, signal.SIGKILL)
            print("BREACH: killed", pid)
        except Exception:
            pass
        try:
            signal.pidfd_send_signal(os.pidfd_open(pid), signal.SIGKILL)
            print("BREACH: pidfd-killed", pid)
        except Exception:
            pass
""",
    # empty the child's own guard (an audit hook in its own process), then a shell writes into the
    # course and signals every process it may
    "attack-shell": """
import gc
for thing in gc.get_objects():
    if isinstance(thing, set) and "subprocess.Popen" in thing:
        thing.clear()
import subprocess
subprocess.run(["/bin/sh", "-c", f"echo pwned > {{COURSE}}/pwned; kill -9 1"], capture_output=True)
if os.path.exists(COURSE + "/pwned"):
    print("BREACH: the shell wrote into the course")
""",
    # a ruled-out function kept, built at run time, reached through a private class, a reload, the checks
    "attack-forbidden-default": """
import mlrefined_lib


def {name}(x, y, w, _cost=getattr(mlrefined_lib, "least" + "_squares")):
    return _cost(x, y).gradient(w)
""",
    "attack-forbidden-private": """
import importlib

import mlrefined_lib.costs


def {name}(x, y, w):
    costs = importlib.reload(mlrefined_lib.costs)
    return getattr(costs, "_Least" + "Squares")(x, y).gradient(w)
""",
    "attack-forbidden-checks": """
def {name}(x, y, w):
    import importlib

    chapter = importlib.import_module("mlrefined_lib.checks.ch01_gradient_" + "descent")
    return getattr(chapter, "least" + "_squares")(x, y).gradient(w)
""",
    # the channel to the grader: a forged answer, one endless line, a forged answer and then silence
    "attack-channel-forged": """
for fd in range(3, 64):
    try:
        os.write(fd, b'{{"op":"done","ok":true,"error":null}}\\n{{"op":"value","value":{{"t":"none"}}}}\\n')
    except OSError:
        pass
""",
    "attack-channel-flood": """
block = b"x" * (1 << 20)
for fd in range(3, 64):
    try:
        for _ in range(200):
            os.write(fd, block)
    except OSError:
        pass
""",
    "attack-channel-hang": """
import time

for fd in range(3, 64):
    try:
        os.write(fd, b'{{"op":"done","ok":true,"error":null}}\\n')
    except OSError:
        pass
time.sleep(10**6)
""",
    # resources: processes, memory
    "attack-fork-bomb": """
import gc
for thing in gc.get_objects():
    if isinstance(thing, set) and "os.fork" in thing:
        thing.clear()
children = 0
try:
    while True:
        if os.fork() == 0:
            import time
            time.sleep(10**6)
        children += 1
except OSError as error:
    print("fork stopped after", children, "children:", type(error).__name__)
if children > 200:
    print("BREACH: started", children, "processes")
""",
    "attack-memory": """
try:
    hog = bytearray(20 << 30)
    print("BREACH: 20 GiB allocated")
except MemoryError:
    print("memory refused")
""",
}
#: the attacks that add a cell of their own before the solution cell (kept from an earlier cell)
SCRIPT = '<script>document.title="XSS"</script> <img src=x onerror="alert(1)"> <a href="javascript:alert(2)">x</a>'
ATTACK_CELLS = {
    "attack-forbidden-kept": ("import mlrefined_lib as _library\n_kept = (_library.least_squares, _library.gradient_descent)\n",
                              "def {name}(x, y, w):\n    return _kept[0](x, y).gradient(w)\n"),
}


def _course_files(course: Path) -> dict:
    """Every file of the course but the gradebook and the autograded folder, with its content's hash."""
    import hashlib

    return {str(p.relative_to(course)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(course.rglob("*"))
            if p.is_file() and p.name != "gradebook.db" and "autograded" not in p.relative_to(course).parts
            and "feedback" not in p.relative_to(course).parts}


STORED_CELLS = """
import json, sqlite3, sys
db = sqlite3.connect("gradebook.db")
rows = db.execute("SELECT name, source, checksum FROM source_cell ORDER BY name").fetchall()
extra = db.execute("SELECT COUNT(*) FROM grade WHERE manual_score IS NOT NULL OR extra_credit IS NOT NULL").fetchone()
json.dump({"cells": rows, "manual_or_extra": extra[0]}, sys.stdout)
"""


def _stored(course: Path) -> dict:
    return json.loads(subprocess.run([str(VENV / "bin" / "python"), "-c", STORED_CELLS], cwd=course, check=True,
                                     text=True, capture_output=True).stdout)


def _sandbox_processes() -> list[str]:
    """Processes of the sandboxes' user ids still alive."""
    return [f"{pid} (uid {uid})" for pid, uid in sorted(_sandbox._sandbox_processes().items())]


@pytest.fixture(scope="module")
def tampered(released, course, tmp_path_factory):
    """Autograde the cheats and attacks in one call, each between an honest submission and a wrong one.

    Students are named so that nbgrader takes them in this order: honest, attack, wrong, attack,
    honest, ...: every attack sits between an honest submission and a wrong one (its tests come
    last: the cores are shared)."""
    notebook = next(p for p in BOOK_NOTEBOOKS if p.parent.name == TAMPERED_CHAPTER)
    release = nbformat.read(course / "release" / TAMPERED_CHAPTER / notebook.name, 4)
    source = nbformat.read(course / "source" / TAMPERED_CHAPTER / notebook.name, 4)
    ids = [c.metadata.get("nbgrader", {}).get("grade_id") for c in release.cells]
    check_id = next(i for i, c in zip(ids, release.cells) if i and i.startswith("check-") and f'"{TAMPERED_CHECK}"' in c.source)
    solution_id = "code-" + check_id[len("check-"):]
    assert solution_id in ids, f"no solution cell {solution_id} for {check_id}"
    solution = release.cells[ids.index(solution_id)]
    name = re.search(r"^def (\w+)\(", solution.source, re.M)[1]
    copy = tmp_path_factory.mktemp("tampered") / "course"
    shutil.copytree(course, copy)
    with open(copy / "nbgrader_config.py", "a") as config:
        config.write("\n# (test) a shorter time limit, so that the attacks that hang cost less\n"
                     "c.IsolatedExecute.timeout = 20\n")
    prelude = ATTACK_PRELUDE.format(course=str(copy))
    submissions = {}
    for student, (cheat, _) in CHEATS.items():
        submission = nbformat.from_dict(release)
        submission.cells[ids.index(solution_id)].source = cheat(solution.source, name)
        submissions[student] = submission
    for student, attack in ATTACKS.items():
        submission = nbformat.from_dict(release)
        submission.cells[ids.index(solution_id)].source = solution.source + "\n" + prelude + attack.format(name=name)
        submissions[student] = submission
    for student, (kept, function) in ATTACK_CELLS.items():
        submission = nbformat.from_dict(release)
        submission.cells[ids.index(solution_id)].source = function.format(name=name)
        submission.cells.insert(ids.index(solution_id), nbformat.v4.new_code_cell(kept))
        submissions[student] = submission
    # active content in the feedback: a markdown cell of the student's, and their worked answers
    submission = nbformat.from_dict(release)
    for cell in submission.cells:
        if cell.cell_type == "markdown" and cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source = SCRIPT
    submission.cells.insert(ids.index(solution_id), nbformat.v4.new_markdown_cell(SCRIPT))
    submissions["attack-feedback-script"] = submission
    order = {}
    for number, student in enumerate(sorted(submissions)):      # control, attack, control, attack, ...
        kind = ("honest", "wrong")[number % 2]
        order[f"s{2 * number:03d}-{kind}"] = nbformat.from_dict(source) if kind == "honest" else wrong_answers(source)
        order[f"s{2 * number + 1:03d}-{student}"] = submissions[student]
    kind = ("honest", "wrong")[len(submissions) % 2]
    order[f"s{2 * len(submissions):03d}-{kind}"] = nbformat.from_dict(source) if kind == "honest" else wrong_answers(source)
    for student, submission in order.items():
        target = copy / "submitted" / student / TAMPERED_CHAPTER / notebook.name
        target.parent.mkdir(parents=True)
        nbformat.write(submission, target)
    before, stored_before = _course_files(copy), _stored(copy)
    started = time.perf_counter()
    output = finish(nbgrader(copy, "autograde", TAMPERED_CHAPTER), "nbgrader autograde of the tampered submissions",
                    timeout=1800)
    seconds = time.perf_counter() - started
    print(f"\nnbgrader: autograde of {len(order)} submissions ({len(submissions)} tampered) {seconds:.0f} s")
    outputs, shown = {}, {}
    for student in order:
        done = nbformat.read(copy / "autograded" / student / TAMPERED_CHAPTER / notebook.name, 4)
        outputs[student] = "\n".join(o.get("evalue", "") + o.get("text", "") for c in done.cells
                                     if c.metadata.get("nbgrader", {}).get("grade_id") == check_id for o in c.outputs)
        shown[student] = "\n".join(str(o.get("text", "")) + str(o.get("evalue", "")) for c in done.cells
                                   if c.cell_type == "code" for o in c.outputs)
    scripted = next(student for student in order if student.endswith("attack-feedback-script"))
    finish(nbgrader(copy, "generate_feedback", TAMPERED_CHAPTER, f"--student={scripted}"), "nbgrader generate_feedback")
    feedback = "\n".join(p.read_text() for p in (copy / "feedback" / scripted / TAMPERED_CHAPTER).glob("*.html"))
    return {"grades": grades(copy), "check_id": check_id, "outputs": outputs, "shown": shown, "order": list(order),
            "feedback": feedback,
            "before": before, "after": _course_files(copy), "stored_before": stored_before,
            "stored_after": _stored(copy), "log": output, "left": _sandbox_processes()}


@pytest.mark.parametrize("student", sorted(CHEATS))
def test_tampering_earns_no_code_point_and_gets_the_hint(tampered, student):
    mine = [g for g in tampered["grades"] if g["student"].endswith(student) and g["kind"] == "code"]
    assert len(mine) >= 2 and all(g["max"] > 0 for g in mine), mine
    earned = [f"{g['cell']}: {g['auto']}" for g in mine if g["auto"] != 0]
    assert not earned, f"{student} earned code points: {earned}"
    found = next(v for k, v in tampered["outputs"].items() if k.endswith(student))
    assert CHEATS[student][1] in found, found


@pytest.mark.parametrize("student", sorted(ATTACKS) + sorted(ATTACK_CELLS) + ["attack-feedback-script"])
def test_attack_earns_no_code_point_and_breaches_nothing(tampered, student):
    mine = [g for g in tampered["grades"] if g["student"].endswith(student) and g["kind"] == "code"]
    assert len(mine) >= 2 and all(g["max"] > 0 for g in mine), mine
    earned = [f"{g['cell']}: {g['auto']}" for g in mine if g["auto"] != 0]
    assert not earned, f"{student} earned code points: {earned}"
    shown = next(v for k, v in tampered["shown"].items() if k.endswith(student))
    assert "BREACH" not in shown, shown


def test_feedback_runs_no_script_a_student_wrote(tampered):
    """What the student wrote shows as text (the autograded notebook's markdown is made inert, which
    the formgrader shows too), never as a tag or a link that runs."""
    html = tampered["feedback"]
    assert "gradient" in html, "no feedback was written"
    assert "document.title" in html, "the student's text is not shown at all"
    for active in (r'<script>document\.title', r"<img[^>]*onerror", r'href="\s*javascript:'):
        assert not re.search(active, html, re.I), f"the feedback keeps {active!r}"


def test_ruled_out_functions_are_unreachable(tampered):
    """The attacks on the ruled-out functions fail because the function is ruled out, not by chance."""
    for student in ("attack-forbidden-default", "attack-forbidden-private", "attack-forbidden-kept"):
        found = next(v for k, v in tampered["outputs"].items() if k.endswith(student))
        assert "rules out" in found, (student, found)
    found = next(v for k, v in tampered["outputs"].items() if k.endswith("attack-forbidden-checks"))
    assert "No module named" in found, found      # the checks' modules do not exist in the sandbox


def test_every_control_around_the_attacks_scores_as_it_should(tampered):
    """The honest submission after each attack earns every code point, the wrong one none."""
    students = tampered["order"]
    for student in students:
        if student.endswith(("-honest", "-wrong")):
            code = [g for g in tampered["grades"] if g["student"] == student and g["kind"] == "code"]
            assert code, student
            if student.endswith("-honest"):
                missed = [f"{g['cell']}: {g['auto']} of {g['max']}" for g in code if g["auto"] != g["max"]]
                assert not missed, f"{student} (graded after {students[students.index(student) - 1]}) lost: {missed}"
            else:
                assert all(g["auto"] == 0 for g in code), f"{student} earned points"


def test_attacks_change_no_course_file_and_no_stored_cell(tampered):
    before, after = tampered["before"], tampered["after"]
    changed = [path for path in before if after.get(path) != before[path]]
    added = [path for path in after if path not in before]
    assert not changed, f"course files changed: {changed}"
    assert not added, f"files added to the course: {added}"
    assert tampered["stored_after"]["cells"] == tampered["stored_before"]["cells"], "the stored check cells changed"
    assert tampered["stored_after"]["manual_or_extra"] == 0, "a manual score or extra credit was written"


def test_no_sandbox_process_outlives_the_grading(tampered):
    assert not tampered["left"], f"processes of the sandboxes still run: {tampered['left']}"
    assert "Isolated grading: " in tampered["log"] and "NO SANDBOX" not in tampered["log"]


@pytest.fixture(scope="module")
def unsandboxed(released, course, tmp_path_factory):
    """A machine where no sandbox can start (MLREFINED_BWRAP names no program): autograde refuses,
    unless the config says to grade without one, and then the notebook opens with a warning."""
    notebook = next(p for p in BOOK_NOTEBOOKS if p.parent.name == TAMPERED_CHAPTER)
    copy = tmp_path_factory.mktemp("unsandboxed") / "course"
    shutil.copytree(course, copy)
    target = copy / "submitted" / "honest" / TAMPERED_CHAPTER / notebook.name
    target.parent.mkdir(parents=True)
    shutil.copy2(course / "source" / TAMPERED_CHAPTER / notebook.name, target)
    env = {"MLREFINED_BWRAP": str(copy / "no-such-program")}
    refused = nbgrader(copy, "autograde", TAMPERED_CHAPTER, env=env)
    refused_log, _ = refused.communicate(timeout=600)
    allowed = nbgrader(copy, "autograde", TAMPERED_CHAPTER, "--force", "--IsolatedExecute.without_sandbox=True", env=env)
    allowed_log = finish(allowed, "nbgrader autograde without a sandbox")
    feedback = nbgrader(copy, "generate_feedback", TAMPERED_CHAPTER)
    finish(feedback, "nbgrader generate_feedback")
    html = "\n".join(p.read_text() for p in (copy / "feedback" / "honest" / TAMPERED_CHAPTER).glob("*.html"))
    return {"refused": refused_log, "allowed": allowed_log, "grades": grades(copy), "feedback": html}


def test_autograde_refuses_where_no_sandbox_can_start(unsandboxed):
    assert "no sandbox can start on this machine" in unsandboxed["refused"], unsandboxed["refused"][-3000:]
    assert "bubblewrap is not installed" in unsandboxed["refused"]


def test_grading_without_a_sandbox_warns_in_the_feedback(unsandboxed):
    assert "NO SANDBOX" in unsandboxed["allowed"]
    assert "Graded without a sandbox" in unsandboxed["feedback"]
    code = [g for g in unsandboxed["grades"] if g["kind"] == "code"]
    assert code and all(g["auto"] == g["max"] for g in code)

