"""Execute notebooks top to bottom in a fresh kernel and report the first failure.

    python tools/run_notebooks.py chapters/01_gradient_descent/gradient_descent.ipynb ...
    python tools/run_notebooks.py --write chapters/NN_slug/*.ipynb   # store the outputs
    python tools/run_notebooks.py --jobs 2 chapters/*/*.ipynb        # two notebooks at a time

Used by `make test-binder` to show that an environment with only
requirements.txt installed (what Binder builds) runs every chapter, and by
`make execute` to re-execute notebooks and store their outputs (nbval compares
them). Without --write the notebooks on disk are not modified. Exit status 1
names the notebook and the failing cell.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError


def merge_streams(notebook) -> None:
    """Join each cell's consecutive outputs to the same stream (in place): a kernel flushes a print
    that waits for a slow computation in two pieces or one, by timing alone, and the stored
    notebook should not change with that."""
    for cell in notebook.cells:
        merged = []
        for output in cell.get("outputs", []):
            if (merged and output.get("output_type") == "stream" and merged[-1].get("output_type") == "stream"
                    and merged[-1].get("name") == output.get("name")):
                merged[-1]["text"] += output["text"]
            else:
                merged.append(output)
        if "outputs" in cell:
            cell["outputs"] = merged


def run(path: Path, write: bool = False) -> bool:
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        store_widget_state=True,
        record_timing=False,  # no per-cell timestamps: a re-run changes only what it computes
        resources={"metadata": {"path": str(path.parent)}},
    )
    start = time.perf_counter()
    try:
        client.execute()
    except CellExecutionError as error:
        index = next((i for i, c in enumerate(notebook.cells) if c.get("outputs") and any(o.get("output_type") == "error" for o in c.outputs)), None)
        print(f"FAILED {path} (cell {index}):\n{error}", file=sys.stderr)
        return False
    print(f"ok     {path} ({time.perf_counter() - start:.1f} s)")
    if write:
        merge_streams(notebook)
        nbformat.write(notebook, path)
    return True


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if {"-h", "--help"} & set(arguments):
        print(__doc__)
        sys.exit(0)
    jobs = 1
    if "--jobs" in arguments:
        at = arguments.index("--jobs")
        value = arguments[at + 1] if at + 1 < len(arguments) else ""
        if not value.isdigit() or int(value) < 1:
            sys.exit(f"run_notebooks: --jobs needs a positive integer; found {value!r}")
        jobs = int(value)
        del arguments[at : at + 2]
    unknown = [a for a in arguments if a.startswith("-") and a != "--write"]
    if unknown:
        sys.exit(f"run_notebooks: unknown option(s) {unknown}; the options are --write and --jobs N")
    write = "--write" in arguments
    paths = [Path(p) for p in arguments if p != "--write"]
    if not paths:
        sys.exit("run_notebooks: no notebooks given")
    if jobs == 1:
        results = [run(p, write) for p in paths]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(run, paths, [write] * len(paths)))
    print(f"{sum(results)} passed, {len(results) - sum(results)} failed")
    sys.exit(0 if all(results) else 1)
