"""Write the table of every exercise into instructors.md: chapter, difficulty, minutes, points, how it is graded.

    python tools/exercise_table.py           # rewrite the table between the markers
    python tools/exercise_table.py --check   # exit status 1 if instructors.md differs from what the notebooks say

The table is read from the chapter notebooks, in the order of ``_toc.yml`` (a
page without exercises has no row): each
exercise's first line (``★★ · about 20 min · 3 points``), and whether a check
cell grades its code, as the nbgrader course counts it
(``tools/nbgrader_export.py``: the points of a coding exercise go to its check,
those of a discussion or a question without code to the instructor who reads
the answer). It sits in ``instructors.md`` between ``<!-- exercises -->`` and
``<!-- /exercises -->``; ``tests/harness/test_exercise_table.py`` keeps the two
in step.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import bookfiles  # noqa: E402

_spec = importlib.util.spec_from_file_location("nbgrader_export", ROOT / "tools" / "nbgrader_export.py")
nbgrader_export = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(nbgrader_export)

START, END = "<!-- exercises -->", "<!-- /exercises -->"
INSTRUCTORS = ROOT / "instructors.md"
FIRST_LINE = re.compile(r"^\s*\**(?P<stars>★{1,3})\s*·\s*about\s+(?P<amount>\d+)\s+(?P<unit>min|hours?)\b")


def page_title(notebook) -> str:
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    raise ValueError("a chapter notebook without a '# ' title")


def exercises(path: Path) -> list[dict]:
    """Every exercise of one notebook, in order, with its stars, minutes and points."""
    notebook = nbformat.read(path, as_version=4)
    found = []
    for label, info in nbgrader_export.plan_exercises(notebook.cells).items():
        first = info["body"].strip().splitlines()[0]
        match = FIRST_LINE.match(first)
        if not match:
            shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
            raise ValueError(f"{shown}: exercise {label!r} should open with "
                             f"'★★ · about N min · P points' (or 'about N hours'), found {first!r}")
        found.append({"label": label, "title": info["title"], "stars": match["stars"],
                      "minutes": int(match["amount"]) * (1 if match["unit"] == "min" else 60), "check": info["code_points"],
                      "read": info["answer_points"]})
    return found


def chapters(root: Path = ROOT) -> list[tuple[str, str, list[dict]]]:
    """(chapter number, page title, exercises) per chapter notebook, in reading order."""
    rows = []
    for path in bookfiles.chapter_notebooks(root):
        number = str(int(path.parent.name.split("_")[0]))
        rows.append((number, page_title(nbformat.read(path, as_version=4)), exercises(path)))
    return rows


def graded(exercise: dict) -> str:
    if exercise["check"] and exercise["read"]:
        return f"check {exercise['check']}, read {exercise['read']}"
    return "check" if exercise["check"] else "read"


def table(root: Path = ROOT) -> str:
    rows = chapters(root)
    every = [e for _, _, found in rows for e in found]
    by_check = sum(e["check"] for e in every)
    points = by_check + sum(e["read"] for e in every)
    lines = [
        f"{len(every)} exercises, {points} points, about {sum(e['minutes'] for e in every) / 60:.0f} hours of "
        f"a student's time. A check grades {by_check} of the points; you read the answers that earn "
        f"the other {points - by_check} (\"read\"). Each chapter's exercises:",
        "",
        "| Chapter | Exercises | Minutes | Points | By a check |",
        "|---|--:|--:|--:|--:|",
    ]
    for number, title, found in rows:
        if not found:  # a chapter's opening page, whose sections are pages of their own
            continue
        lines.append(f"| {number}. {title} | {len(found)} | {sum(e['minutes'] for e in found)} | "
                     f"{sum(e['check'] + e['read'] for e in found)} | {sum(e['check'] for e in found)} |")
    lines += ["", "Every exercise, with its difficulty (★ to ★★★), minutes and points, and who grades its "
              "points (a check, or you reading the answer):", "",
              "| Ch. | Exercise | ★ | Min | Points | Graded by |", "|--:|---|---|--:|--:|---|"]
    for number, _, found in rows:
        for e in found:
            lines.append(f"| {number} | {{ref}}`{e['title']} <{e['label']}>` | {e['stars']} | {e['minutes']} | "
                         f"{e['check'] + e['read']} | {graded(e)} |")
    return "\n".join(lines) + "\n"


def with_table(text: str, body: str) -> str:
    return bookfiles.between_markers(text, START, END, body, "instructors.md")


def main(arguments: list[str]) -> int:
    text = INSTRUCTORS.read_text()
    written = with_table(text, table())
    if "--check" in arguments:
        if written != text:
            print("exercise_table: instructors.md's table of exercises is out of date: python tools/exercise_table.py",
                  file=sys.stderr)
            return 1
        return 0
    if written != text:
        INSTRUCTORS.write_text(written)
        print("exercise_table: instructors.md rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
