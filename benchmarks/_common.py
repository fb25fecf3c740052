"""Small helpers shared by the benchmark scripts: timing, result rows, markdown.

A benchmark result is a *section*: a title, a list of rows and free-text notes.
Each row holds one measured figure, the target it is compared with (if any)
and whether the target was met. Nothing here asserts anything: the scripts
measure and report.
"""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

#: The repository root, taken from this file's location (never hard-coded).
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import bookfiles  # noqa: E402, F401  (tools/bookfiles.py: the table of contents and a local server)
#: Where the JSON outputs go (``_build/`` is gitignored).
OUT_DIR = ROOT / "_build" / "bench"


def best_time(fn: Callable[[], object], repeats: int = 5, warmup: int = 1) -> float:
    """Best wall time in seconds of ``fn()`` over ``repeats`` runs (``time.perf_counter``).

    ``warmup`` untimed calls come first, so one-off costs (imports, first
    allocations, BLAS thread start-up) are not counted.
    """
    for _ in range(warmup):
        fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def row(measure: str, value, display: str, target: str = "", met: bool | None = None, why: str = "") -> dict:
    """One line of a results table.

    ``met`` is True/False when the row has a target, None when it is
    informational; ``why`` is a one-line explanation, required when a target
    is missed.
    """
    return {"measure": measure, "value": value, "display": display, "target": target, "met": met, "why": why}


def fmt_time(seconds: float) -> str:
    """A duration with a sensible unit."""
    if seconds >= 1.0:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    if seconds >= 1e-6:
        return f"{seconds * 1e6:.1f} µs"
    return f"{seconds * 1e9:.1f} ns"


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown_table(rows: list[dict]) -> str:
    """Render rows as a markdown table with Target and Status columns."""
    lines = ["| Measure | Value | Target | Status |", "|---|---:|---|---|"]
    for r in rows:
        status = {True: "met", False: "**missed**", None: "—"}[r["met"]]
        lines.append(f"| {_cell(r['measure'])} | {_cell(r['display'])} | {_cell(r['target'] or '—')} | {status} |")
    missed = [r for r in rows if r["met"] is False]
    if missed:
        lines.append("")
        for r in missed:
            lines.append(f"- *Missed — {_cell(r['measure'])}:* {r['why'] or 'no explanation recorded.'}")
    return "\n".join(lines)


def section_markdown(section: dict, level: int = 3) -> str:
    """Render one section (title, optional status, table, notes)."""
    out = [f"{'#' * level} {section['title']}", ""]
    if section.get("status", "ok") != "ok":
        out += [f"*{section['status'].capitalize()}:* {section.get('reason', '')}", ""]
    if section.get("rows"):
        out += [markdown_table(section["rows"]), ""]
    for note in section.get("notes", []):
        out.append(f"- {note}")
    if section.get("notes"):
        out.append("")
    for extra in section.get("extra_markdown", []):
        out += [extra, ""]
    return "\n".join(out).rstrip() + "\n"


def section(title: str, rows: list[dict], notes: list[str], raw=None, tables: list[str] = ()) -> dict:
    """One benchmark section: its title, rows, notes, the raw figures for the JSON (if any), and
    optional markdown ``tables`` shown after the notes."""
    out = {"title": title, "rows": rows, "notes": notes}
    if tables:
        out["extra_markdown"] = list(tables)
    if raw is not None:
        out["raw"] = raw
    return out


def skipped(title: str, reason: str) -> dict:
    """A section that could not be measured, and why."""
    return {"title": title, "status": "skipped", "reason": reason, "rows": []}


def timed(run: Callable[..., dict]) -> Callable[..., dict]:
    """Decorate a script's ``run()``: the result it returns gets ``"seconds"``, the time the run took."""

    @functools.wraps(run)
    def timed_run(*args, **kwargs) -> dict:
        start = time.perf_counter()
        result = run(*args, **kwargs)
        result["seconds"] = time.perf_counter() - start
        return result

    return timed_run


def result_markdown(result: dict, level: int, what: str, digits: int = 1) -> str:
    """Render a script's result (title, its notes if any, sections, seconds) as markdown; the closing
    line says that ``what`` (e.g. "Library benchmarks") ran in so many seconds, to ``digits`` decimals."""
    parts = [f"{'#' * level} {result['title']}", ""]
    if result.get("notes"):
        parts += [f"- {note}" for note in result["notes"]] + [""]
    parts += [section_markdown(one, level + 1) for one in result["sections"]]
    parts.append(f"*{what} ran in {result['seconds']:.{digits}f} s.*\n")
    return "\n".join(parts)


def markdown_for(what: str, digits: int = 1) -> Callable[..., str]:
    """A script's ``to_markdown(result, level=2)``: :func:`result_markdown` with the closing line's ``what``."""

    def to_markdown(result: dict, level: int = 2) -> str:
        return result_markdown(result, level, what, digits)

    return to_markdown


def report(result: dict, markdown: str, json_name: str) -> int:
    """Print a script's ``markdown``, write its ``result`` to ``_build/bench/<json_name>``, say where; exit status 0."""
    print(markdown)
    path = write_json(result, json_name)
    print(f"JSON written to {path}", file=sys.stderr)
    return 0


def write_json(data, name: str) -> Path:
    """Write ``data`` as JSON to ``_build/bench/<name>`` (creating the folder)."""
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    path = OUT_DIR / name
    path.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
    return path
