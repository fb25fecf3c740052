"""Per-chapter budgets: execution time and peak memory of every chapter notebook, slider frames per page.

a. Every chapter notebook listed in ``_toc.yml`` (files under ``chapters/``)
   is executed top to bottom in a fresh ``python3`` kernel with nbclient (as
   ``tools/run_notebooks.py`` does; the notebook on disk is not written).
   Reported per notebook: wall time (kernel start + every cell) and the
   kernel process's peak memory, against the budgets of ``DESIGN.md``
   (≤ 90 s and ≤ 1 GB per notebook). Memory is measured two ways: a thread
   polls the kernel's PID with psutil every 50 ms and sums the resident set
   size (RSS) of the kernel and all its children; and the kernel's own
   high-water mark ``VmHWM`` is read from ``/proc/<pid>/status`` after every
   cell (it catches spikes shorter than the polling interval, but covers the
   kernel process only). The peak compared with the budget is the larger of
   the two.
b. Slider frames per page: for every chapter page of ``_build/html`` (or,
   when the page has not been built, the widget state stored in the
   notebook), the number of sliders, the frames behind each slider, the mean
   and largest PNG frame in KB, and the share of the page's bytes the frames
   take. Read from the embedded ``application/vnd.jupyter.widget-state+json``:
   a slider is a ``*SliderModel``, its frames are the ``ImageModel`` children
   of the ``StackModel`` it is ``jslink``-ed to, a frame's size is its decoded
   base64 buffer, and its share of the page counts the base64 text as stored.

Nothing is asserted. Prints a markdown section and writes
``_build/bench/notebooks.json``.

Run: ``.venv/bin/python benchmarks/bench_notebooks.py [--frames-only] [NOTEBOOK ...]``
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, bookfiles, fmt_time, markdown_for, report, row, section, skipped, timed  # noqa: E402

KB = 1024
MB = 1024 * KB
GB = 1024 * MB
TIME_BUDGET = 90.0  # seconds per notebook (DESIGN.md)
MEMORY_BUDGET = 1 * GB  # peak per notebook (DESIGN.md)
POLL_SECONDS = 0.05
CELL_TIMEOUT = 600  # seconds per cell, as tools/run_notebooks.py
WIDGET_MIME = "application/vnd.jupyter.widget-state+json"
EXECUTION = "a. Execution time and peak memory per chapter notebook"  # the title of its first section
_STATE_RE = re.compile(r"<script[^>]*application/vnd\.jupyter\.widget-state\+json[^>]*>(.*?)</script>", re.S)


# ---------------------------------------------------------------------------
# which notebooks
# ---------------------------------------------------------------------------


def chapter_notebooks(root: Path = ROOT) -> list[Path]:
    """The ``chapters/`` notebooks of ``_toc.yml``, in table-of-contents order (tools/bookfiles.py)."""
    return bookfiles.chapter_notebooks(root)


# ---------------------------------------------------------------------------
# a. execution time and peak memory
# ---------------------------------------------------------------------------


def _vm_hwm(pid: int) -> int | None:
    """``VmHWM`` (peak resident set size) of a live process, in bytes; None if unavailable."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * KB
    except (OSError, ValueError, IndexError):
        pass
    return None


class MemoryMonitor(threading.Thread):
    """Poll a process every ``interval`` s: peak RSS of it plus its children, and its VmHWM."""

    def __init__(self, pid: int, interval: float = POLL_SECONDS):
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.peak_total = 0  # kernel + children, summed at one instant
        self.peak_kernel = 0  # kernel alone (polled)
        self.peak_children = 0  # children alone (polled)
        self.max_children = 0  # most children seen at once
        self.hwm = 0  # kernel's VmHWM, last value read (monotonic)
        self.samples = 0
        self._halt = threading.Event()

    def read_hwm(self) -> None:
        hwm = _vm_hwm(self.pid)
        if hwm is not None:
            self.hwm = max(self.hwm, hwm)

    def run(self) -> None:
        import psutil

        try:
            process = psutil.Process(self.pid)
        except psutil.Error:
            return
        while not self._halt.is_set():
            try:
                kernel = process.memory_info().rss
                children = process.children(recursive=True)
            except psutil.Error:
                break
            child_rss = 0
            for child in children:
                try:
                    child_rss += child.memory_info().rss
                except psutil.Error:
                    pass
            self.peak_kernel = max(self.peak_kernel, kernel)
            self.peak_children = max(self.peak_children, child_rss)
            self.peak_total = max(self.peak_total, kernel + child_rss)
            self.max_children = max(self.max_children, len(children))
            self.read_hwm()
            self.samples += 1
            self._halt.wait(self.interval)

    def stop(self) -> None:
        self._halt.set()
        self.join(timeout=5)


def _kernel_pid(km) -> int | None:
    provisioner = getattr(km, "provisioner", None)
    for owner in (provisioner, getattr(provisioner, "process", None), getattr(km, "kernel", None)):
        pid = getattr(owner, "pid", None)
        if isinstance(pid, int):
            return pid
    return None


def execute_notebook(path: Path, root: Path = ROOT) -> dict:
    """Execute ``path`` in a fresh kernel (not written back); time it and watch the kernel's memory."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebook = nbformat.read(path, as_version=4)
    state: dict = {"monitor": None, "kernel_ready": None}

    def on_start(notebook=None, **_):
        state["kernel_ready"] = time.perf_counter()
        pid = _kernel_pid(client.km)
        if pid is not None:
            state["monitor"] = MemoryMonitor(pid)
            state["monitor"].start()

    def on_cell_executed(**_):
        if state["monitor"] is not None:
            state["monitor"].read_hwm()

    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(path.parent)}},
        on_notebook_start=on_start,
        on_cell_executed=on_cell_executed,
    )
    error = ""
    load_start = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    start = time.perf_counter()
    try:
        client.execute()
    except CellExecutionError as exc:
        index = next(
            (i for i, c in enumerate(notebook.cells)
             if any(o.get("output_type") == "error" for o in c.get("outputs", []))),
            None,
        )
        error = f"cell {index}: {str(exc).strip().splitlines()[-1][:200] if str(exc).strip() else type(exc).__name__}"
    except Exception as exc:  # dead kernel, timeout, ...
        error = f"{type(exc).__name__}: {str(exc)[:200]}"
    wall = time.perf_counter() - start
    monitor = state["monitor"]
    if monitor is not None:
        monitor.stop()
    kernel_start = (state["kernel_ready"] - start) if state["kernel_ready"] else None
    result = {
        "notebook": str(path.relative_to(root)),
        "cells": len(notebook.cells),
        "code_cells": sum(c.cell_type == "code" for c in notebook.cells),
        "wall_seconds": wall,
        "kernel_start_seconds": kernel_start,
        "error": error,
        "peak_rss_polled_bytes": monitor.peak_total if monitor else None,
        "peak_rss_kernel_polled_bytes": monitor.peak_kernel if monitor else None,
        "peak_rss_children_polled_bytes": monitor.peak_children if monitor else None,
        "max_children": monitor.max_children if monitor else None,
        "vm_hwm_bytes": (monitor.hwm or None) if monitor else None,
        "samples": monitor.samples if monitor else 0,
        "load_start": load_start,
        "load_end": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }
    peaks = [v for v in (result["peak_rss_polled_bytes"], result["vm_hwm_bytes"]) if v]
    result["peak_bytes"] = max(peaks) if peaks else None
    # Widget state of the fresh run: the fallback for slider frames when no page is built.
    result["_widget_state"] = notebook.metadata.get("widgets", {}).get(WIDGET_MIME)
    return result


def _mb(nbytes) -> str:
    return "n/a" if nbytes is None else f"{nbytes / MB:,.0f} MB"


def _load(r: dict) -> str:
    if r.get("load_start") is None:
        return "n/a"
    return f"{r['load_start']:.2f} → {r['load_end']:.2f}"


def execution_section(results: list[dict]) -> dict:
    rows, detail = [], [
        "| Notebook | Code cells | Wall time | of which kernel start | Peak RSS, kernel + children (polled) "
        "| Kernel VmHWM | Peak children (polled) | Samples | Load (1 min) at start → end | Error |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for r in results:
        name = r["notebook"]
        t, peak = r["wall_seconds"], r["peak_bytes"]
        t_met = t <= TIME_BUDGET and not r["error"]
        t_why = "" if t_met else (
            f"execution failed ({r['error']}) after {t:.1f} s." if r["error"]
            else f"{t:.1f} s; profile its cells (slider frame rendering and large fits are the usual cost)."
        )
        rows.append(row(f"`{name}` wall time", t, fmt_time(t) + (" (failed)" if r["error"] else ""),
                        f"≤ {TIME_BUDGET:.0f} s", t_met, t_why))
        if peak is None:
            rows.append(row(f"`{name}` kernel peak memory", None, "not measured (kernel PID unknown)"))
        else:
            m_met = peak <= MEMORY_BUDGET
            m_why = "" if m_met else (
                f"peak {peak / MB:,.0f} MB (polled kernel + children {_mb(r['peak_rss_polled_bytes'])}, "
                f"VmHWM {_mb(r['vm_hwm_bytes'])}); use smaller samples or sparse feature matrices."
            )
            rows.append(row(f"`{name}` kernel peak memory", peak, _mb(peak), "≤ 1 GB (1,024 MB)", m_met, m_why))
        ks = "n/a" if r["kernel_start_seconds"] is None else fmt_time(r["kernel_start_seconds"])
        detail.append(
            f"| `{name}` | {r['code_cells']} | {fmt_time(t)} | {ks} | {_mb(r['peak_rss_polled_bytes'])} "
            f"| {_mb(r['vm_hwm_bytes'])} | {_mb(r['peak_rss_children_polled_bytes'])} "
            f"| {r['samples']} | {_load(r)} | {r['error'] or '—'} |"
        )
    notes = [
        "Each notebook runs once, in a fresh `python3` kernel started by nbclient (working folder: the "
        "notebook's), top to bottom, outputs not written back. Wall time counts the kernel start and every cell.",
        f"Memory: psutil polls the kernel PID every {POLL_SECONDS * 1000:.0f} ms and sums the RSS of the kernel and "
        "all its children at each poll; the kernel's `VmHWM` (peak RSS) is read from `/proc/<pid>/status` after every "
        "cell. The peak compared with the budget is the larger of the two. MB = 2^20 bytes, 1 GB = 1,024 MB.",
        "RSS counts shared pages (NumPy, BLAS and Python libraries) once per process.",
        "The load average beside each notebook shows whether other work shared the CPU during its run (a load "
        "above the core count means the wall time is inflated).",
    ]
    raw = [{k: v for k, v in r.items() if not k.startswith("_")} for r in results]
    return section(EXECUTION, rows, notes, raw, ["\n".join(detail)])


# ---------------------------------------------------------------------------
# b. slider frames per page
# ---------------------------------------------------------------------------


def _model_id(ref) -> str | None:
    if isinstance(ref, str) and ref.startswith("IPY_MODEL_"):
        return ref[len("IPY_MODEL_"):]
    return None


def _buffer_sizes(model: dict) -> tuple[int, int]:
    """(decoded bytes, stored base64 characters) of a widget model's buffers."""
    decoded = stored = 0
    for buffer in model.get("buffers", []) or []:
        data = buffer.get("data", "")
        if buffer.get("encoding", "base64") == "base64":
            stored += len(data)
            decoded += len(base64.b64decode(data))
        else:  # hex or raw text
            stored += len(data)
            decoded += len(data) // 2 if buffer.get("encoding") == "hex" else len(data)
    return decoded, stored


def analyse_widget_state(states: list[dict]) -> dict:
    """Sliders, frames per slider and frame sizes from one or more widget-state documents."""
    models = {}
    for doc in states:
        models.update((doc or {}).get("state", {}))

    def name(mid):
        return models.get(mid, {}).get("model_name", "")

    sliders = [mid for mid in models if name(mid).endswith("SliderModel")]
    # slider -> linked Stack: a LinkModel whose two ends are a slider and a StackModel.
    slider_stacks: dict[str, set] = {mid: set() for mid in sliders}
    for mid, model in models.items():
        if name(mid) not in ("LinkModel", "DirectionalLinkModel"):
            continue
        st = model.get("state", {})
        ends = [_model_id((st.get(k) or [None])[0]) for k in ("source", "target")]
        for a, b in (ends, ends[::-1]):
            if a in slider_stacks and name(b) == "StackModel":
                slider_stacks[a].add(b)
    per_slider, frame_ids = [], []
    for mid in sliders:
        stacks = sorted(slider_stacks[mid])
        children = [c for s in stacks for c in map(_model_id, models[s]["state"].get("children", [])) if c]
        images = [c for c in children if name(c) == "ImageModel"]
        if not stacks:  # not linked to a stack: count its options as frames, sizes unknown
            st = models[mid].get("state", {})
            labels = st.get("_options_labels")
            count = len(labels) if labels else None
            per_slider.append({"slider": mid, "frames": count, "linked": False})
            continue
        per_slider.append({"slider": mid, "frames": len(images), "linked": True})
        frame_ids += [i for i in images if i not in frame_ids]
    sizes = [_buffer_sizes(models[i]) for i in frame_ids]
    decoded = [d for d, _ in sizes]
    all_images = [mid for mid in models if name(mid) == "ImageModel"]
    return {
        "sliders": len(sliders),
        "frames_per_slider": [s["frames"] for s in per_slider],
        "frames": len(frame_ids),
        "frame_bytes_mean": sum(decoded) / len(decoded) if decoded else None,
        "frame_bytes_max": max(decoded) if decoded else None,
        "frame_bytes_total": sum(decoded),
        "frame_stored_chars": sum(s for _, s in sizes),
        "images_total": len(all_images),
        "image_stored_chars_total": sum(_buffer_sizes(models[i])[1] for i in all_images),
    }


def slider_frames(notebooks: list[Path], html_root: Path, root: Path = ROOT, executed: dict | None = None) -> list[dict]:
    """One record per chapter: from its built page if there is one, else from notebook widget state."""
    import nbformat

    executed = executed or {}
    records = []
    for path in notebooks:
        rel = path.relative_to(root)
        page = html_root / rel.with_suffix(".html")
        record = {"notebook": str(rel), "page": str(page.relative_to(root)) if page.is_file() else None}
        if page.is_file():
            text = page.read_text(encoding="utf-8", errors="replace")
            states = [json.loads(m) for m in _STATE_RE.findall(text) if m.strip()]
            built = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(page.stat().st_mtime))
            record.update(source=f"built page ({built})", page_bytes=page.stat().st_size)
        else:
            state = executed.get(str(rel))
            source = "widget state of this run's execution"
            if state is None:
                nb = nbformat.read(path, as_version=4)
                state = nb.metadata.get("widgets", {}).get(WIDGET_MIME)
                source = "widget state stored in the notebook"
            states = [state] if state else []
            record.update(source=source + " (page not built)", page_bytes=None)
        record.update(analyse_widget_state(states))
        if record["page_bytes"]:
            record["frame_share"] = record["frame_stored_chars"] / record["page_bytes"]
        else:
            record["frame_share"] = None
        records.append(record)
    return records


def frames_section(records: list[dict], html_root: Path, root: Path = ROOT) -> dict:
    table = [
        "| Chapter page | Source | Page (KB) | Sliders | Frames per slider | Mean frame (KB) | Largest frame (KB) "
        "| Frames on the page (KB, base64) | Frames' share of the page |",
        "|---|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    rows = []
    for r in records:
        label = r["page"] or r["notebook"]
        chapter = Path(r["notebook"]).parent.name
        fps = ", ".join("?" if f is None else str(f) for f in r["frames_per_slider"]) or "—"
        mean = "—" if r["frame_bytes_mean"] is None else f"{r['frame_bytes_mean'] / KB:,.1f}"
        big = "—" if r["frame_bytes_max"] is None else f"{r['frame_bytes_max'] / KB:,.1f}"
        page_kb = "—" if not r["page_bytes"] else f"{r['page_bytes'] / KB:,.1f}"
        share = "—" if r["frame_share"] is None else f"{100 * r['frame_share']:.0f} %"
        table.append(
            f"| `{label}` | {r['source']} | {page_kb} | {r['sliders']} | {fps} | {mean} | {big} "
            f"| {r['frame_stored_chars'] / KB:,.1f} | {share} |"
        )
        if r["frames"]:
            rows.append(row(
                f"`{chapter}`: {r['sliders']} slider(s), {r['frames']} frames, mean / largest frame",
                [r["frame_bytes_mean"], r["frame_bytes_max"]],
                f"{r['frame_bytes_mean'] / KB:,.1f} KB / {r['frame_bytes_max'] / KB:,.1f} KB"
                + (f"; {100 * r['frame_share']:.0f} % of its {r['page_bytes'] / KB:,.0f} KB page" if r["frame_share"] is not None else ""),
            ))
    notes = [
        f"Pages read from `{html_root.relative_to(root) if html_root.is_relative_to(root) else html_root}` as it is "
        "now (the last build of the working tree, not necessarily of HEAD); a chapter whose page is missing is read "
        "from its notebook's widget state instead, and then has no page size.",
        "A frame's size is its decoded PNG; on the page it is stored as base64 (4/3 larger), which is what the share "
        "counts. KB = 1,024 bytes. Budget (DESIGN.md): ≤ 3 MB per page (checked in the book build section), "
        "slider frames small.",
    ]
    return section("b. Slider frames per chapter page", rows, notes, records, ["\n".join(table)])


# ---------------------------------------------------------------------------
# driver
# ---------------------------------------------------------------------------


@timed
def run(execute: bool = True, notebooks: list[Path] | None = None, html_root: Path | None = None) -> dict:
    """Execute every chapter notebook (unless ``execute`` is False) and read slider frames; return a part."""
    notebooks = notebooks if notebooks is not None else chapter_notebooks()
    html_root = html_root or ROOT / "_build" / "html"
    sections = []
    executed = {}
    if not notebooks:
        sections.append(skipped(EXECUTION, "no `chapters/` notebook in `_toc.yml`."))
    elif execute:
        results = []
        for path in notebooks:
            print(f"  executing {path.relative_to(ROOT)} ...", file=sys.stderr, flush=True)
            result = execute_notebook(path)
            print(f"    {result['wall_seconds']:.1f} s, peak {_mb(result['peak_bytes'])}"
                  + (f", FAILED {result['error']}" if result["error"] else ""), file=sys.stderr, flush=True)
            if result.get("_widget_state"):
                executed[result["notebook"]] = result["_widget_state"]
            results.append(result)
        sections.append(execution_section(results))
    else:
        sections.append(skipped(EXECUTION, "run with `--skip-notebooks` (or `--frames-only`)."))
    sections.append(frames_section(slider_frames(notebooks, html_root, executed=executed), html_root))
    return {"title": "Chapter notebooks", "sections": sections}


to_markdown = markdown_for("Notebook benchmarks")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="notebooks to run (default: the chapters of _toc.yml)")
    parser.add_argument("--frames-only", action="store_true", help="do not execute; only read slider frames")
    parser.add_argument("--json", default="notebooks.json", help="file name under _build/bench/")
    args = parser.parse_args(argv)
    notebooks = [p.resolve() for p in args.notebooks] or None
    result = run(execute=not args.frames_only, notebooks=notebooks)
    return report(result, to_markdown(result), args.json)


if __name__ == "__main__":
    raise SystemExit(main())
