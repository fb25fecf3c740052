"""nbgrader's autograde step with the checks' outcomes decided by the isolated grader (:mod:`._isolated`).

The course that ``tools/nbgrader_export.py`` writes sets, in its ``nbgrader_config.py``::

    from mlrefined_lib.checks._nbgrader import autograde_preprocessors
    c.Autograde.autograde_preprocessors = autograde_preprocessors()

which is nbgrader's own list with its ``Execute`` step replaced by :class:`IsolatedExecute`. That step

1. grades the notebook with :func:`._isolated.grade_notebook`: the checks run in nbgrader's process
   (which imported them with this module, before any student code existed), the student's cells in
   a child process;
2. runs nbgrader's own execution (the student's notebook in a kernel, for the outputs an instructor
   and the feedback show), with each graded check cell's check calls left out (the rest of the
   cell runs);
3. puts each graded check cell's source back and replaces its outputs with the isolated verdict:
   what the check printed when it passed, or one ``CheckFailed: ...`` line (or the student's error)
   when it failed. nbgrader's ``SaveAutoGrades`` then scores the cell from those outputs alone, so
   the gradebook's code scores are the isolated grader's.

This module needs nbgrader; nothing else in the library imports it.
"""

from __future__ import annotations

import ast

import nbformat
from nbgrader.preprocessors import Execute

from ._isolated import check_calls, grade_notebook

__all__ = ["IsolatedExecute", "autograde_preprocessors"]


def _graded_check_cell(cell) -> bool:
    meta = cell.metadata.get("nbgrader", {})
    return cell.cell_type == "code" and bool(meta.get("grade")) and not meta.get("solution")


def _without_check_calls(source: str) -> str:
    """``source`` with its check-call statements left out (``pass`` if nothing is left)."""
    try:
        statements = check_calls(source)
    except SyntaxError:
        return source
    kept = [ast.get_source_segment(source, s) or ast.unparse(s) for s, name in statements if name is None]
    return "\n".join(kept) or "pass"


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


class IsolatedExecute(Execute):
    """nbgrader's Execute, with the graded check cells decided by the isolated grader."""

    def preprocess(self, nb, resources):
        cells = [{"cell_type": c.cell_type, "source": c.source, "metadata": {"nbgrader": dict(c.metadata.get("nbgrader", {}))}}
                 for c in nb.cells]
        graded = {i for i, c in enumerate(nb.cells) if _graded_check_cell(c)}
        timeout = self.timeout if isinstance(self.timeout, (int, float)) and self.timeout > 0 else 600
        verdicts = grade_notebook(cells, timeout=float(timeout), is_check=lambda index, cell: index in graded)
        saved = {}
        for index in verdicts:
            saved[index] = nb.cells[index].source
            nb.cells[index].source = _without_check_calls(saved[index])
        try:
            nb, resources = super().preprocess(nb, resources)
        finally:
            for index, source in saved.items():
                nb.cells[index].source = source
        for index, verdict in verdicts.items():
            nb.cells[index].outputs = verdict_outputs(verdict)
        passed = sum(v["passed"] for v in verdicts.values())
        self.log.info("Isolated grading: %d of %d check cells passed", passed, len(verdicts))
        return nb, resources


def autograde_preprocessors() -> list:
    """nbgrader's autograde preprocessors, with :class:`IsolatedExecute` in place of its Execute."""
    from nbgrader.converters.autograde import Autograde

    default = list(Autograde.class_traits()["autograde_preprocessors"].default())
    if Execute not in default:
        raise RuntimeError("this nbgrader's autograde has no Execute step to replace")
    return [IsolatedExecute if step is Execute else step for step in default]
