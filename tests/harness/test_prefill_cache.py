"""tools/prefill_cache.py: notebooks executed in parallel into Jupyter Book's cache, found there as the build looks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
from jupyter_cache import get_cache

ROOT = Path(__file__).resolve().parents[2]


def prefill(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "prefill_cache.py"), *args], capture_output=True,
                          text=True, timeout=600)


def _notebook(folder: Path, name: str, code: str) -> Path:
    path = folder / f"{name}.ipynb"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# A page"),
                                               nbformat.v4.new_code_cell(code)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, path)
    return path


def test_notebooks_are_executed_into_the_cache_and_found_as_the_build_looks(tmp_path):
    cache = tmp_path / "cache"
    first = _notebook(tmp_path, "first", "print(6 * 7)")
    second = _notebook(tmp_path, "second", "import os\nprint(os.environ['OPENBLAS_NUM_THREADS'])")
    failing = _notebook(tmp_path, "failing", "1 / 0")
    said = prefill(str(first), str(second), str(failing), "--jobs", "2", "--cache", str(cache))
    assert said.returncode == 0, said.stderr
    assert "failing.ipynb failed" in said.stderr
    store = get_cache(str(cache))
    # the build (myst-nb's cache mode) matches the notebook as it reads it from disk
    for path, printed in ((first, "42\n"), (second, "1\n")):
        record = store.match_cache_notebook(nbformat.read(path, as_version=4))
        _, merged = store.merge_match_into_notebook(nbformat.read(path, as_version=4))
        assert record is not None
        assert merged.cells[1].outputs[0]["text"] == printed
    try:
        store.match_cache_notebook(nbformat.read(failing, as_version=4))
        raise AssertionError("a failing notebook was cached")
    except KeyError:
        pass
    # a second run finds them and executes nothing
    again = prefill(str(first), str(second), "--cache", str(cache))
    assert "all 2 notebooks are in the cache" in again.stdout, again.stdout + again.stderr
