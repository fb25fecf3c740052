"""A notebook cell that fails must fail the build and the notebook runner,
and the message must name the notebook and the cell."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def broken_book(tmp_path_factory) -> Path:
    book = tmp_path_factory.mktemp("broken_book")
    (book / "_config.yml").write_text(
        "title: broken\nonly_build_toc_files: true\nexecute:\n  execute_notebooks: force\n"
        "sphinx:\n  config:\n    nb_execution_raise_on_error: true\n"
    )
    (book / "_toc.yml").write_text("format: jb-book\nroot: intro\nchapters:\n- file: broken_chapter\n")
    (book / "intro.md").write_text("# Intro\n")
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells = [
        nbformat.v4.new_code_cell("ratio = 1"),
        nbformat.v4.new_code_cell("print(ratio)\nvalue_of_the_failing_cell = 1 / 0"),
    ]
    nbformat.write(notebook, book / "broken_chapter.ipynb")
    return book


def test_book_build_fails_and_names_notebook_and_cell(broken_book):
    result = subprocess.run(
        [str(BIN / "jupyter-book"), "build", str(broken_book)], capture_output=True, text=True, timeout=300
    )
    output = result.stdout + result.stderr
    assert result.returncode != 0, "the build passed although a cell raised"
    assert "broken_chapter.ipynb" in output
    assert "value_of_the_failing_cell = 1 / 0" in output, "the failing cell's source is not shown"
    assert "ZeroDivisionError" in output


def test_notebook_runner_fails_and_names_notebook_and_cell(broken_book):
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "run_notebooks.py"), str(broken_book / "broken_chapter.ipynb")],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 1
    assert "broken_chapter.ipynb (cell 1)" in result.stderr
    assert "ZeroDivisionError" in result.stderr
    assert "0 passed, 1 failed" in result.stdout
