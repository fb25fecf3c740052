"""instructors.md's table of every exercise agrees with the chapter notebooks (tools/exercise_table.py)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("exercise_table", ROOT / "tools" / "exercise_table.py")
exercise_table = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(exercise_table)


def test_instructors_page_holds_the_current_table():
    text = (ROOT / "instructors.md").read_text()
    assert exercise_table.with_table(text, exercise_table.table()) == text, (
        "instructors.md's table of exercises is out of date: python tools/exercise_table.py")


def test_every_exercise_of_the_book_is_a_row():
    # counted independently of the tool: every {exercise} directive of every chapter's text pair
    directives = sum(len(re.findall(r"^`{3,}\{exercise\}", path.read_text(), re.MULTILINE))
                     for path in (ROOT / "text").glob("*/*.md"))
    rows = [line for line in exercise_table.table().splitlines() if re.match(r"\| \d+ \| \{ref\}", line)]
    assert len(rows) == directives > 90


def test_the_totals_add_up():
    every = [e for _, _, found in exercise_table.chapters() for e in found]
    summary = exercise_table.table().splitlines()[0]
    points = sum(e["check"] + e["read"] for e in every)
    assert f"{len(every)} exercises, {points} points" in summary
    assert all(e["minutes"] > 0 and e["check"] + e["read"] > 0 for e in every)


def test_a_first_line_without_minutes_is_named(tmp_path):
    import nbformat

    cell = nbformat.v4.new_markdown_cell("```{exercise} Odd\n:label: ex-odd\n\n★ · 3 points\n\nText\n```")
    path = tmp_path / "odd.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), path)
    with pytest.raises(ValueError, match="ex-odd.*should open with"):
        exercise_table.exercises(path)


def test_the_markers_are_required():
    with pytest.raises(ValueError, match="must hold"):
        exercise_table.with_table("no markers here", "table")
