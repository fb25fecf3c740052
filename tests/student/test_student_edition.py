"""Student edition (test layer 6): run after `make student`.

Checks that no solution survives, that every exercise got a stub, that each
check cell fails helpfully on the stub in the executed student edition, and
that the same check cells pass on the solutions in the book.
"""

from __future__ import annotations

import html
import importlib.util
import re
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
STUDENT = ROOT / "_build" / "student"
STUDENT_HTML = STUDENT / "html"
spec = importlib.util.spec_from_file_location("student_edition", ROOT / "tools" / "student_edition.py")
student_edition = importlib.util.module_from_spec(spec)
spec.loader.exec_module(student_edition)

# The chapter notebooks in the table of contents (what the student edition holds).
BOOK_NOTEBOOKS = [
    ROOT / f"{name}.ipynb"
    for name in student_edition.toc_files(yaml.safe_load((ROOT / "_toc.yml").read_text()))
    if (ROOT / f"{name}.ipynb").exists()
]
# Those with check cells (a chapter's opening page, whose sections are pages of their own, has none).
CHECKED_NOTEBOOKS = [
    path for path in BOOK_NOTEBOOKS
    if any("check" in c.metadata.get("tags", []) for c in nbformat.read(path, 4).cells)
]


def solution_lines(notebook) -> list[str]:
    """The non-trivial lines between BEGIN and END SOLUTION in a notebook."""
    lines = []
    for cell in notebook.cells:
        if cell.cell_type != "code" or student_edition.BEGIN not in cell.source:
            continue
        inside = False
        for line in cell.source.splitlines():
            if line.strip() == student_edition.BEGIN:
                inside = True
            elif line.strip() == student_edition.END:
                inside = False
            elif inside and len(line.strip()) > 12:
                lines.append(line.strip())
    return lines


def check_cells(notebook) -> list[int]:
    return [i for i, c in enumerate(notebook.cells) if c.cell_type == "code" and "check" in c.metadata.get("tags", [])]


def test_book_has_notebooks():
    assert BOOK_NOTEBOOKS, "no chapter notebooks found under chapters/"


def test_transform_replaces_block_with_stub_at_its_indentation():
    source = "def f(x):\n    ### BEGIN SOLUTION\n    y = x + 1\n    return y\n    ### END SOLUTION\n"
    assert student_edition.strip_solution_code(source) == f"def f(x):\n    {student_edition.STUB}"


@pytest.mark.parametrize("broken", [
    "### BEGIN SOLUTION\nx = 1\n",
    "x = 1\n### END SOLUTION\n",
    "### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION\n",
])
def test_transform_rejects_unbalanced_markers(broken):
    with pytest.raises(ValueError):
        student_edition.strip_solution_code(broken)


def markdown(*sources):
    return [nbformat.v4.new_markdown_cell(s) for s in sources]


def test_discussion_inside_a_code_solution_is_a_worked_answer():
    cells = markdown("Intro.", "```{solution-start} ex-a\n:class: dropdown\n```", "Why it works.",
                     "Because.\n\n```{solution-end}\n```", "After.")
    cells.insert(2, nbformat.v4.new_code_cell("x = 1"))
    assert student_edition.gated_prose(cells) == [None, ("ex-a", ""), ("ex-a", ""), ("ex-a", "Why it works."),
                                                  ("ex-a", "Because."), None]
    kept = student_edition.student_notebook(nbformat.v4.new_notebook(cells=cells)).cells
    assert [c.source for c in kept] == ["Intro.", "x = 1", "After."]


@pytest.mark.parametrize("cell", [
    "```{solution-start} ex-a\n```\n\n```{solution-end}\n```\nText after the end.",
    "Text before.\n```{solution-start} ex-a\n```",
    "```{solution-end}\n```",
])
def test_text_beside_a_marker_outside_the_pair_is_refused(cell):
    with pytest.raises(ValueError):
        student_edition.gated_prose(markdown(cell))


@pytest.mark.parametrize("book_path", BOOK_NOTEBOOKS, ids=lambda p: p.parent.name)
def test_student_notebook_has_no_solutions(book_path):
    student_path = STUDENT / book_path.relative_to(ROOT)
    assert student_path.exists(), f"{student_path} is missing: run `make student` first"
    book, student = nbformat.read(book_path, 4), nbformat.read(student_path, 4)
    text = nbformat.writes(student)
    assert student_edition.BEGIN not in text and student_edition.END not in text
    assert not re.search(r"```\{solution", text), "a worked answer or solution marker survived"
    # A solution line may also appear in the chapter's own code; it must not
    # appear more often in the student edition than outside the solutions.
    outside = "\n".join(student_edition.strip_solution_code(c.source) for c in book.cells if c.cell_type == "code")
    student_code = "\n".join(c.source for c in student.cells if c.cell_type == "code")
    for line in solution_lines(book):
        assert student_code.count(line) <= outside.count(line), f"solution code survived: {line!r}"
    solutions = sum(c.source.count(student_edition.BEGIN) for c in book.cells if c.cell_type == "code")
    assert text.count("raise NotImplementedError(") == solutions
    assert all(not c.get("outputs") for c in student.cells if c.cell_type == "code"), "outputs were not cleared"
    assert len(check_cells(student)) == len(check_cells(book))
    assert check_cells(book) or book_path not in CHECKED_NOTEBOOKS
    prose = "\n".join(c.source for c in student.cells if c.cell_type == "markdown")
    for gated in student_edition.gated_prose(book.cells):
        for line in (gated[1].splitlines() if gated else []):
            assert len(line.strip()) < 40 or line.strip() not in prose, f"a worked discussion survived: {line!r}"


def test_only_an_opening_page_has_no_check():
    unchecked = [path for path in BOOK_NOTEBOOKS if path not in CHECKED_NOTEBOOKS]
    assert len(CHECKED_NOTEBOOKS) >= 14, CHECKED_NOTEBOOKS
    for path in unchecked:
        assert not any("{exercise" in c.source for c in nbformat.read(path, 4).cells), f"{path}: exercises, no check"


@pytest.mark.parametrize("book_path", CHECKED_NOTEBOOKS, ids=lambda p: p.parent.name)
def test_checks_fail_helpfully_on_stubs(book_path):
    """In the executed student edition, each check cell shows CheckFailed with advice."""
    page = STUDENT_HTML / book_path.relative_to(ROOT).with_suffix(".html")
    assert page.exists(), f"{page} is missing: run `make student` (it executes and builds the edition)"
    cells = re.split(r'<div class="cell ', page.read_text(encoding="utf-8"))[1:]
    checks = [c for c in cells if c.startswith('tag_check') or ' tag_check ' in c.split('"', 1)[0]]
    expected = len(check_cells(nbformat.read(book_path, 4)))
    assert len(checks) == expected > 0, f"found {len(checks)} check cells in {page.name}, expected {expected}"
    for number, cell in enumerate(checks, 1):
        text = html.unescape(re.sub(r"<[^>]+>", "", cell))
        assert "CheckFailed" in text, f"check cell {number} did not fail with CheckFailed on the stub"
        assert "not written yet" in text and "NotImplementedError" in text, f"check cell {number}: unhelpful message"


@pytest.mark.parametrize("book_path", CHECKED_NOTEBOOKS, ids=lambda p: p.parent.name)
def test_checks_pass_on_solutions(book_path):
    book = nbformat.read(book_path, 4)
    for index in check_cells(book):
        outputs = book.cells[index].outputs
        assert not any(o.output_type == "error" for o in outputs)
        text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
        assert text.startswith("Correct"), f"check cell {index} of {book_path.name} printed {text!r}"
