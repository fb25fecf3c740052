"""nbgrader's autograde step, with every cell of a submission run behind an operating-system wall.

The course that ``tools/nbgrader_export.py`` writes sets, in its ``nbgrader_config.py``::

    from mlrefined_lib.checks._nbgrader import autograde_preprocessors
    c.Autograde.autograde_preprocessors = autograde_preprocessors()

which is nbgrader's own list with its ``Execute`` step replaced by :class:`IsolatedExecute`. That step
never starts a Jupyter kernel. It grades the notebook with :func:`._isolated.grade_notebook`: the
checks run in nbgrader's process (which imported them with this module, before any student code
existed); every cell of the student's notebook runs in a child process inside a sandbox
(:mod:`._sandbox`), which sees no file of the course and no other process. Then

1. each code cell's outputs become what the cell printed, displayed and raised in the sandbox (text,
   figures as PNG, the error), which the feedback shows;
2. each graded check cell's outputs are replaced by the verdict: what the check printed when it
   passed, or one ``CheckFailed: ...`` line (or the student's error) when it failed. nbgrader's
   ``SaveAutoGrades`` then scores the cell from those outputs alone, so the gradebook's code scores
   are the isolated grader's;
3. every markdown cell loses its HTML tags and script links (:func:`inert_markdown`): the feedback
   and the formgrader show the student's markdown as HTML, to the student and to the instructor.

Where no sandbox can start (no bubblewrap, no user namespaces), the step refuses to grade, and the
log says why. ``c.IsolatedExecute.without_sandbox = True`` grades anyway, in a plain child process;
every notebook graded so then opens with a warning cell, which the feedback shows.

This module needs nbgrader; nothing else in the library imports it.
"""

from __future__ import annotations

import ast
import re

import nbformat
from nbgrader.preprocessors import Execute
from traitlets import Bool

from ._isolated import check_calls, grade_notebook
from ._sandbox import SandboxUnavailable, availability

WITHOUT_SANDBOX = ("**Graded without a sandbox.** The instructor graded this notebook with the course's "
                   "sandbox turned off (`without_sandbox`): the student's code ran with the grader's "
                   "rights, so these grades are only as trustworthy as that code.")

__all__ = ["IsolatedExecute", "autograde_preprocessors", "WITHOUT_SANDBOX"]


def _graded_check_cell(cell) -> bool:
    meta = cell.metadata.get("nbgrader", {})
    return cell.cell_type == "code" and bool(meta.get("grade")) and not meta.get("solution")


def verdict_outputs(verdict: dict) -> list:
    """The outputs that stand for a verdict in the autograded notebook (an error output if it failed)."""
    outputs = []
    if verdict.get("output"):
        outputs.append(nbformat.v4.new_output("stream", name="stdout", text=verdict["output"]))
    if verdict["passed"]:
        if not outputs:
            outputs.append(nbformat.v4.new_output("stream", name="stdout", text="Correct.\n"))
        return outputs
    name, message = verdict["error"]
    lines = [line for line in verdict.get("traceback", "").splitlines() if line.strip()]
    outputs.append(nbformat.v4.new_output("error", ename=name, evalue=message,
                                          traceback=lines + [f"{name}: {message}"]))
    return outputs


_TAG = re.compile(r"<(?=[A-Za-z/!?])")
_SCRIPT_URL = re.compile(r"(?i)\b(?:j\s*a\s*v\s*a|v\s*b)\s*s\s*c\s*r\s*i\s*p\s*t\s*:")


def inert_markdown(source: str) -> str:
    """``source`` (a markdown cell the student may have written) with no HTML tag and no script link left.

    The feedback files and the formgrader render the graded notebook's markdown as HTML, for the
    student and for the instructor: a ``<script>``, an ``onerror=`` or a ``javascript:`` link in an
    answer would run there. Tags become text (``&lt;``), script links lose their scheme.
    """
    return _SCRIPT_URL.sub("blocked:", _TAG.sub("&lt;", source))


def cell_outputs(outputs: list[dict], count: int) -> list:
    """nbformat outputs from the sandbox's (already checked) outputs of one cell."""
    made = []
    for item in outputs:
        if item["type"] == "stream":
            made.append(nbformat.v4.new_output("stream", name=item["name"], text=item["text"]))
        elif item["type"] == "text":
            made.append(nbformat.v4.new_output("display_data", data={"text/plain": item["text"]}))
        elif item["type"] == "image":
            made.append(nbformat.v4.new_output("display_data", data={"image/png": item["png"],
                                                                    "text/plain": "<Figure>"}))
        elif item["type"] == "error":
            made.append(nbformat.v4.new_output("error", ename=item["ename"], evalue=item["evalue"],
                                               traceback=item["traceback"] or [f"{item['ename']}: {item['evalue']}"]))
    return made


class IsolatedExecute(Execute):
    """nbgrader's Execute, replaced: every cell runs in the sandbox, the check cells are decided here."""

    without_sandbox = Bool(False, help="Grade even where no sandbox can start (the student's code then runs "
                                       "with the grader's rights); every such notebook opens with a warning.").tag(config=True)

    def preprocess(self, nb, resources):
        sandbox = True
        usable, why = availability()
        if not usable:
            if not self.without_sandbox:
                raise SandboxUnavailable(
                    f"no sandbox can start on this machine, so the course will not run student code: {why}. "
                    "See instructors.md; c.IsolatedExecute.without_sandbox = True grades without one.")
            self.log.warning("Grading WITHOUT a sandbox (%s)", why)
            sandbox = False
        cells = [{"cell_type": c.cell_type, "source": c.source, "metadata": {"nbgrader": dict(c.metadata.get("nbgrader", {}))}}
                 for c in nb.cells]
        graded = {i for i, c in enumerate(nb.cells) if _graded_check_cell(c)}
        timeout = self.timeout if isinstance(self.timeout, (int, float)) and self.timeout > 0 else 600
        folder = resources.get("metadata", {}).get("path") or None
        outputs: dict[int, list] = {}
        verdicts = grade_notebook(cells, timeout=float(timeout), is_check=lambda index, cell: index in graded,
                                  cwd=folder, sandbox=sandbox, outputs=outputs)
        count = 0
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "markdown":
                cell.source = inert_markdown(cell.source)
            if cell.cell_type != "code":
                continue
            count += 1
            cell.execution_count = count
            if index in verdicts:
                cell.outputs = verdict_outputs(verdicts[index])
            elif index in outputs:
                cell.outputs = cell_outputs(outputs[index], count)
            else:
                cell.outputs = [nbformat.v4.new_output("stream", name="stderr",
                                                       text="(not run: the notebook stopped before this cell)\n")]
        if not sandbox:
            nb.cells.insert(0, nbformat.v4.new_markdown_cell(WITHOUT_SANDBOX))
        passed = sum(v["passed"] for v in verdicts.values())
        self.log.info("Isolated grading%s: %d of %d check cells passed", "" if sandbox else " (NO SANDBOX)",
                      passed, len(verdicts))
        return nb, resources


def autograde_preprocessors() -> list:
    """nbgrader's autograde preprocessors, with :class:`IsolatedExecute` in place of its Execute."""
    from nbgrader.converters.autograde import Autograde

    default = list(Autograde.class_traits()["autograde_preprocessors"].default())
    if Execute not in default:
        raise RuntimeError("this nbgrader's autograde has no Execute step to replace")
    return [IsolatedExecute if step is Execute else step for step in default]
