"""Execute the book's notebooks into Jupyter Book's execution cache, several at a time.

    python tools/prefill_cache.py [--jobs N] chapters/NN_slug/notebook.ipynb ...

`make book` runs this before `jupyter-book build`. Jupyter Book 1 (myst-nb's
"cache" mode, `_config.yml`) executes the notebooks that its cache does not
hold one at a time; this tool executes them in parallel (N processes, by
default the number of usable cores) with the same function and the same
settings (the notebook's folder as working directory, the timeout and
`allow_errors` of `_config.yml`), and stores each result in the same cache
(`execute.cache`), keyed the same way (the hash of the notebook's code). The
build then finds every notebook in the cache and executes none: the pages are
the same as when the build executes them itself. A notebook the cache already
holds is skipped. Each kernel uses one BLAS thread, as the stored outputs do.

A notebook that fails is not stored; the build then executes it again itself
and reports the failure in its own words. Exit status 0 either way.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]


def _settings() -> dict:
    execute = (yaml.safe_load((ROOT / "_config.yml").read_text()) or {}).get("execute", {})
    return {"cache": ROOT / execute.get("cache", "_build/.jupyter_cache"),
            "timeout": execute.get("timeout", 30), "allow_errors": bool(execute.get("allow_errors", False)),
            "mode": execute.get("execute_notebooks", "auto")}


def _execute(path: str, timeout: int, allow_errors: bool):
    """Run in a worker: the executed notebook (as a dict), its seconds, and the error text if it failed."""
    from jupyter_cache.executors.utils import single_nb_execution

    notebook = nbformat.read(path, as_version=4)
    result = single_nb_execution(notebook, cwd=str(Path(path).parent), timeout=timeout,
                                 allow_errors=allow_errors, meta_override=True)
    return dict(result.nb), result.time, (result.exc_string if result.err is not None else None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--cache", type=Path, help="another cache folder than _config.yml's (for tests)")
    args = parser.parse_args(argv)
    settings = _settings()
    if args.cache is not None:
        settings["cache"] = args.cache
    if settings["mode"] != "cache":
        print(f"prefill_cache: _config.yml executes with {settings['mode']!r}, not 'cache': nothing to do")
        return 0
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache = get_cache(str(settings["cache"]))
    todo = []
    for path in args.notebooks:
        notebook = nbformat.read(path, as_version=4)
        try:
            cache.match_cache_notebook(notebook)
        except KeyError:
            todo.append(path.resolve())
    if not todo:
        print(f"prefill_cache: all {len(args.notebooks)} notebooks are in the cache")
        return 0
    # the longest first, by the size of their stored outputs (a rough guide to their run time)
    todo.sort(key=lambda p: -p.stat().st_size)
    os.environ.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(_execute, str(path), settings["timeout"], settings["allow_errors"]): path
                   for path in todo}
        for future in as_completed(futures):
            path = futures[future]
            name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
            try:
                executed, seconds, error = future.result()
            except Exception as exc:  # noqa: BLE001 - the build runs it again and reports it
                print(f"prefill_cache: {name} could not run ({exc}); the build will run it", file=sys.stderr)
                continue
            if error is not None:
                print(f"prefill_cache: {name} failed; the build will run it and report the error", file=sys.stderr)
                continue
            stage = cache.add_nb_to_project(str(path))
            cache.cache_notebook_bundle(CacheBundleIn(nbformat.from_dict(executed), stage.uri,
                                                      data={"execution_seconds": seconds}),
                                        check_validity=False, overwrite=True)
            print(f"prefill_cache: {name} executed in {seconds:.1f} s")
    print(f"prefill_cache: {len(todo)} notebooks in {time.perf_counter() - started:.0f} s with {args.jobs} processes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
