"""Benchmark of the book build: clean build, cached rebuild, page sizes.

1. Clone the repository (``git clone -q <root> <tmp>``) and provision it
   untimed: the root's virtualenv is reused (``VENV=<root>/.venv``) and the
   vendored web assets (``assets/vendor``, or the CDN config written when npm
   is missing) are copied from the root, so neither pip nor npm runs inside
   the timing.
2. Time a clean build (no ``_build/`` at all: every notebook is executed),
   then the same command again (the cached rebuild: nothing changed, Sphinx's
   environment is up to date), then once more after touching every notebook
   (Sphinx re-reads them and myst-nb takes their outputs from the
   jupyter-cache).
3. Measure every built page ``_build/html/**/*.html``: the file itself, and
   the file plus the images it references from ``_images/``. Pages over 3 MB
   are flagged.

The build command is ``make -C <tmp> book VENV=<root>/.venv`` when the
Makefile has a ``book`` target and a ``VENV`` variable (the environment and
asset prerequisites are marked up to date with ``make -o``), otherwise
``<root>/.venv/bin/jupyter-book build <tmp> <flags>`` with the flags of the
Makefile's ``jupyter-book build`` line (``--keep-going`` by default).

Nothing is asserted. Prints a markdown section and writes
``_build/bench/book.json``; build logs go to ``_build/bench/book-*.log``.

Run: ``.venv/bin/python benchmarks/bench_book.py [--worktree] [--keep]``
"""

from __future__ import annotations

import argparse
import html.parser
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import OUT_DIR, ROOT, fmt_time, markdown_for, row, skipped, timed, write_json  # noqa: E402

KB = 1024
MB = 1024 * KB
PAGE_LIMIT = 3 * MB
DEFAULT_TIMEOUT = 3600  # seconds per build


# ---------------------------------------------------------------------------
# locating and cloning the book
# ---------------------------------------------------------------------------


def find_book_dir(base: Path) -> Path | None:
    """The folder holding ``_config.yml`` and ``_toc.yml``: ``base`` or one level below."""
    if (base / "_config.yml").is_file() and (base / "_toc.yml").is_file():
        return base
    skip = {"_build", "node_modules", "benchmarks", "tests"}
    for child in sorted(base.iterdir()):
        if child.is_dir() and not child.name.startswith(".") and child.name not in skip:
            if (child / "_config.yml").is_file() and (child / "_toc.yml").is_file():
                return child
    return None


def _git(args: list[str], cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def clone(root: Path, dest: Path) -> str:
    """``git clone -q root dest``; returns the cloned commit."""
    subprocess.run(["git", "clone", "-q", str(root), str(dest)], check=True)
    return _git(["rev-parse", "--short", "HEAD"], dest).strip()


def overlay_worktree(root: Path, dest: Path) -> int:
    """Copy the root's uncommitted changes (modified and untracked, not ignored) into ``dest``.

    Returns the number of files copied or removed.
    """
    changed = 0
    listed = _git(["ls-files", "-z", "--cached", "--others", "--exclude-standard"], root).split("\0")
    for rel in filter(None, listed):
        src, dst = root / rel, dest / rel
        if not src.is_file():
            continue
        if dst.is_file() and dst.stat().st_size == src.stat().st_size and dst.read_bytes() == src.read_bytes():
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
        changed += 1
    for rel in filter(None, _git(["ls-files", "-z", "--deleted"], root).split("\0")):
        if (dest / rel).is_file():
            (dest / rel).unlink()
            changed += 1
    return changed


def dirty_files(root: Path) -> list[str]:
    return [line[3:] for line in _git(["status", "--porcelain"], root).splitlines() if line.strip()]


# ---------------------------------------------------------------------------
# the build command
# ---------------------------------------------------------------------------


def _make_targets(text: str) -> set[str]:
    return {m.group(1) for m in re.finditer(r"^([A-Za-z0-9_.-]+)\s*:(?!=)", text, re.M)}


def _make_variable(text: str, name: str) -> str | None:
    m = re.search(rf"^\s*{name}\s*(?:\?|:|::)?=\s*(.*?)\s*$", text, re.M)
    return m.group(1) if m else None


def _jb_flags_from_makefile(text: str) -> list[str]:
    """Flags of the Makefile's book recipe, with ``$(JB_FLAGS)`` expanded; skips other make variables."""
    jb_flags = _make_variable(text, "JB_FLAGS") or ""
    recipe = re.search(r"^book\s*:.*\n((?:\t.*\n?)+)", text, re.M)
    lines = recipe.group(1).splitlines() if recipe else text.splitlines()
    for line in lines:
        if re.search(r"(jupyter-book|\bjb)\s+build\b", line):
            after = re.split(r"\bbuild\b", line, maxsplit=1)[1].replace("$(JB_FLAGS)", jb_flags)
            tokens = shlex.split(after)
            flags, i = [], 0
            while i < len(tokens):
                tok = tokens[i]
                if tok.startswith("-") and "$" not in tok:
                    flags.append(tok)
                    if tok in ("--builder", "-b", "--toc", "--config") and i + 1 < len(tokens) and "$" not in tokens[i + 1]:
                        flags.append(tokens[i + 1])
                        i += 1
                i += 1
            return flags
    return ["--keep-going"]


def provision(root: Path, book: Path, clone_root: Path, makefile: str | None) -> list[str]:
    """Untimed setup of the clone; returns notes on what was done."""
    notes = []
    vendor_src = root / "assets" / "vendor"
    vendor_dst = clone_root / "assets" / "vendor"
    if vendor_src.is_dir() and not vendor_dst.exists():
        shutil.copytree(vendor_src, vendor_dst, symlinks=True)
        (vendor_dst / ".stamp").touch()  # newer than its prerequisites in the clone
        notes.append("assets/vendor copied from the repository root (untimed).")
    cdn = root / "_build" / "_config.cdn.yml"
    if cdn.is_file():
        (clone_root / "_build").mkdir(exist_ok=True)
        shutil.copy2(cdn, clone_root / "_build" / cdn.name)
        notes.append("_build/_config.cdn.yml copied from the root: the root has no npm assets, pages use CDNs.")
    if not vendor_dst.exists() and not cdn.is_file() and makefile and "assets" in _make_targets(makefile):
        result = subprocess.run(
            ["make", "-C", str(clone_root), "assets", f"PYTHON={root / '.venv' / 'bin' / 'python'}"],
            capture_output=True,
            text=True,
        )
        notes.append(f"`make assets` run in the clone, untimed (exit {result.returncode}).")
    return notes


def build_command(root: Path, book: Path, clone_root: Path, makefile: str | None, direct: bool) -> list[str]:
    venv = root / ".venv"
    if makefile and not direct and "book" in _make_targets(makefile) and _make_variable(makefile, "VENV") is not None:
        cmd = ["make", "-C", str(clone_root), "book", f"VENV={venv}"]
        # Mark the environment and asset prerequisites up to date: the clone's
        # requirements files are newer than the root venv's stamp, and make
        # would otherwise reinstall into the root venv inside the timing.
        stamp = _make_variable(makefile, "STAMP")
        if stamp and stamp.startswith("$(VENV)/"):
            cmd += ["-o", str(venv / stamp[len("$(VENV)/") :])]
        if (clone_root / "assets" / "vendor" / ".stamp").exists():
            cmd += ["-o", "assets/vendor/.stamp"]
        return cmd
    flags = _jb_flags_from_makefile(makefile) if makefile else ["--keep-going"]
    cmd = [str(venv / "bin" / "jupyter-book"), "build", str(book), *flags]
    cdn = clone_root / "_build" / "_config.cdn.yml"
    if cdn.is_file() and "--config" not in flags:
        cmd += ["--config", str(cdn)]
    return cmd


def _build_env(root: Path, clone_root: Path) -> dict:
    env = dict(os.environ)
    venv = root / ".venv"
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    # Kernels import the clone's mlrefined_lib, not the root's editable install.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(clone_root), env.get("PYTHONPATH", "")]))
    return env


def _log_stats(text: str) -> dict:
    executed = [float(s) for s in re.findall(r"Executed notebook in ([0-9.]+) seconds", text)]
    env = re.search(r"updating environment: .*?(\d+) added, (\d+) changed, (\d+) removed", text)
    return {
        "notebooks_executed": len(executed),
        "notebook_seconds": sum(executed),
        "notebooks_from_cache": len(re.findall(r"Using cached notebook", text)),
        "docs_read": (int(env.group(1)) + int(env.group(2))) if env else None,
        "warnings": len(re.findall(r"\bWARNING:", text)),  # Sphinx's format, not the kernels' "WARNING |"
    }


def timed_build(cmd: list[str], cwd: Path, env: dict, log: Path, timeout: int) -> dict:
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
        seconds = time.perf_counter() - start
        output, code = proc.stdout + proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as exc:
        seconds = time.perf_counter() - start
        output = (exc.stdout or b"").decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        code = "timeout"
    output = re.sub(r"\x1b\[[0-9;]*m", "", output)  # no colour codes in logs and reports
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(f"$ {shlex.join(cmd)}\n\n{output}", encoding="utf-8")
    return {"seconds": seconds, "returncode": code, "log": str(log), **_log_stats(output), "tail": output[-1500:]}


# ---------------------------------------------------------------------------
# page sizes
# ---------------------------------------------------------------------------


class _Refs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if not value:
                continue
            if name in ("src", "href", "data"):
                self.refs.add(value)
            elif name == "srcset":
                self.refs.update(part.split()[0] for part in value.split(",") if part.strip())


def page_sizes(html_root: Path) -> list[dict]:
    """Size of every ``*.html`` under ``html_root``, alone and with its ``_images/``."""
    images_dir = (html_root / "_images").resolve()
    pages = []
    for page in sorted(html_root.rglob("*.html")):
        if "_static" in page.relative_to(html_root).parts:
            continue
        size = page.stat().st_size
        text = page.read_text(encoding="utf-8", errors="replace")
        parser = _Refs()
        parser.feed(text)
        inline_images = sum(len(m) for m in re.findall(r"data:image/[^\"')\s]+", text))
        widget_state = sum(
            len(m) for m in re.findall(r"<script[^>]*application/vnd\.jupyter\.widget-state\+json[^>]*>(.*?)</script>", text, re.S)
        )
        images = set()
        for ref in parser.refs:
            parts = urlsplit(ref)
            if parts.scheme or parts.netloc or "_images/" not in parts.path:
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            if target.is_file() and images_dir in target.parents:
                images.add(target)
        image_bytes = sum(p.stat().st_size for p in images)
        pages.append(
            {
                "page": str(page.relative_to(html_root)),
                "html_bytes": size,
                "images": len(images),
                "image_bytes": image_bytes,
                "total_bytes": size + image_bytes,
                "inline_image_bytes": inline_images,
                "widget_state_bytes": widget_state,
                "over_limit": size > PAGE_LIMIT,
            }
        )
    return pages


def pages_markdown(pages: list[dict]) -> str:
    lines = [
        "| Page | HTML (KB) | Images from `_images/` | HTML + images (KB) | Over 3 MB? |",
        "|---|---:|---:|---:|---|",
    ]
    for p in sorted(pages, key=lambda p: -p["html_bytes"]):
        flag = "**yes**" if p["over_limit"] else ("html + images only" if p["total_bytes"] > PAGE_LIMIT else "no")
        lines.append(
            f"| `{p['page']}` | {p['html_bytes'] / KB:,.1f} | {p['images']} | {p['total_bytes'] / KB:,.1f} | {flag} |"
        )
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# the benchmark
# ---------------------------------------------------------------------------


def _sizes_section(pages: list[dict], where: str) -> dict:
    if not pages:
        return {
            "title": "d. Built page sizes",
            "status": "skipped",
            "reason": f"no HTML pages found under {where}.",
            "rows": [],
        }
    largest = max(pages, key=lambda p: p["html_bytes"])
    over = [p for p in pages if p["over_limit"]]
    total_html = sum(p["html_bytes"] for p in pages)
    met = not over
    why = "" if met else (
        f"{len(over)} page(s) over 3 MB; in `{largest['page']}` inline (base64) images take "
        f"{largest['inline_image_bytes'] / KB:,.0f} KB and embedded widget state {largest['widget_state_bytes'] / KB:,.0f} KB "
        f"of {largest['html_bytes'] / KB:,.0f} KB: fewer or smaller slider frames (lower dpi) would shrink it."
    )
    rows = [
        row("pages built", len(pages), f"{len(pages)}"),
        row(f"largest page (`{largest['page']}`), HTML only", largest["html_bytes"], f"{largest['html_bytes'] / KB:,.1f} KB",
            "≤ 3 MB (3,072 KB) per page", met, why),
        row("largest page, HTML + referenced `_images/`",
            max(p["total_bytes"] for p in pages), f"{max(p['total_bytes'] for p in pages) / KB:,.1f} KB"),
        row("largest page: inline base64 images / embedded widget state",
            [largest["inline_image_bytes"], largest["widget_state_bytes"]],
            f"{largest['inline_image_bytes'] / KB:,.1f} KB / {largest['widget_state_bytes'] / KB:,.1f} KB"),
        row("all pages, HTML only", total_html, f"{total_html / KB:,.1f} KB"),
    ]
    return {
        "title": "d. Built page sizes",
        "rows": rows,
        "notes": [f"Measured in {where}. KB = 1,024 bytes, MB = 1,024 KB. Scripts and styles under `_static/` are not counted."],
        "extra_markdown": [pages_markdown(pages)],
        "pages": pages,
    }


@timed
def run(worktree: bool = False, keep: bool = False, direct: bool = False, sizes_only: bool = False,
        timeout: int = DEFAULT_TIMEOUT, root: Path = ROOT) -> dict:
    """Run the book benchmark; returns {"title", "sections", "seconds", ...}."""
    result = {"title": "Book build", "sections": [], "notes": []}

    if sizes_only:
        book = find_book_dir(root)
        html_root = (book or root) / "_build" / "html"
        result["sections"].append(_sizes_section(page_sizes(html_root) if html_root.is_dir() else [],
                                                 f"the repository's own `{html_root.relative_to(root)}` (no build run)"))
        return result

    tmp = Path(tempfile.mkdtemp(prefix="bench-book-"))
    clone_root = tmp / "repo"
    try:
        commit = clone(root, clone_root)
        dirty = dirty_files(root)
        overlaid = None
        if worktree:
            overlaid = overlay_worktree(root, clone_root)
        book = find_book_dir(clone_root)
        if book is None and not worktree and find_book_dir(root) is not None:
            overlaid = overlay_worktree(root, clone_root)
            book = find_book_dir(clone_root)
            result["notes"].append(
                f"The book sources are not committed yet (commit {commit} has no `_config.yml`): the working tree "
                "was built instead, uncommitted changes included."
            )
        if book is None:
            reason = f"no `_config.yml` + `_toc.yml` in commit {commit} nor in the working tree; nothing to build."
            for title in [t for _, t, _ in BUILDS] + ["d. Built page sizes"]:
                result["sections"].append(skipped(title, reason))
            return result

        source = f"commit {commit}" + (f" + {overlaid} uncommitted file(s) from the working tree" if overlaid else "")
        if dirty and not overlaid:
            result["notes"].append(f"The working tree has {len(dirty)} uncommitted change(s), not included (commit {commit} was built).")
        makefile_path = clone_root / "Makefile"
        makefile = makefile_path.read_text() if makefile_path.is_file() else None
        result["notes"] += provision(root, book, clone_root, makefile)
        cmd = build_command(root, book, clone_root, makefile, direct)
        env = _build_env(root, clone_root)
        shown = shlex.join(cmd).replace(str(tmp), "<tmp>")
        result["notes"].append(f"Built: {source}, in a temporary clone. Command (run three times): `{shown}`.")
        result["notes"].append(
            f"Execution mode: {_execution_mode(book)}; one notebook kernel at a time; "
            "kernels import the clone's `mlrefined_lib` (PYTHONPATH)."
        )

        builds = {}
        for name in ("clean", "cached", "touched"):
            if name == "touched":
                # Sphinx now re-reads every notebook, and myst-nb must find
                # each one in the jupyter-cache (same content, new mtime).
                for nb in _notebooks(book):
                    os.utime(nb)
            builds[name] = timed_build(cmd, clone_root, env, OUT_DIR / f"book-{name}.log", timeout)
            if builds[name]["returncode"] != 0:
                break
        result["builds"] = builds
        result["sections"] += _build_sections(builds)
        html_root = book / "_build" / "html"
        pages = page_sizes(html_root) if html_root.is_dir() else []
        result["sections"].append(_sizes_section(pages, "the temporary clone's fresh `_build/html`"))
        if keep:
            result["notes"].append(f"Clone kept at {clone_root}.")
    finally:
        if not keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return result


def _notebooks(book: Path) -> list[Path]:
    return [p for p in book.rglob("*.ipynb") if not ({"_build", ".ipynb_checkpoints", "node_modules"} & set(p.relative_to(book).parts))]


def _execution_mode(book: Path) -> str:
    text = (book / "_config.yml").read_text(encoding="utf-8")
    m = re.search(r"^\s*execute_notebooks:\s*['\"]?(\w+)", text, re.M)
    return f"`execute_notebooks: {m.group(1)}`" if m else "`execute_notebooks` not set (Jupyter Book's default, auto)"


BUILDS = (
    ("clean", "a. Clean build (fresh clone, no `_build/`)",
     "Every notebook is executed; Sphinx reads every document."),
    ("cached", "b. Cached rebuild (same command again, nothing changed)",
     "Sphinx's environment is up to date, so no document is re-read and the jupyter-cache is not even consulted: "
     "the time is start-up, writing the HTML and copying static files."),
    ("touched", "c. Rebuild after touching every notebook (jupyter-cache hit)",
     "Each notebook's mtime changed but not its content: Sphinx re-reads it and myst-nb takes its outputs from the "
     "jupyter-cache instead of executing it."),
)


# Budgets for the book build on the 2-core machine (the foundation's targets).
WALL_TIME_TARGETS = {"clean": 180.0, "cached": 20.0}


def _build_sections(builds: dict) -> list[dict]:
    sections = []
    clean = builds.get("clean")
    for key, title, explanation in BUILDS:
        b = builds.get(key)
        if b is None:
            sections.append({"title": title, "status": "skipped", "reason": "an earlier build failed.", "rows": []})
            continue
        limit = WALL_TIME_TARGETS.get(key)
        if limit is None:
            wall = row("wall time", b["seconds"], fmt_time(b["seconds"]))
        else:
            met = b["seconds"] <= limit
            wall = row("wall time", b["seconds"], fmt_time(b["seconds"]), f"≤ {limit:.0f} s", met,
                       "" if met else "slower than the budget on this machine; see the notebook times above.")
        rows = [
            wall,
            row("exit status", b["returncode"], str(b["returncode"])),
            row("notebooks executed (time inside the kernels)", b["notebooks_executed"],
                f"{b['notebooks_executed']} ({b['notebook_seconds']:.1f} s)"),
            row("notebooks taken from the jupyter-cache", b["notebooks_from_cache"], str(b["notebooks_from_cache"])),
            row("documents re-read by Sphinx", b["docs_read"], "—" if b["docs_read"] is None else str(b["docs_read"])),
            row("Sphinx warnings in the log", b["warnings"], str(b["warnings"])),
        ]
        if key != "clean" and clean and b["seconds"]:
            ratio = clean["seconds"] / b["seconds"]
            rows.insert(1, row("clean build ÷ this rebuild", ratio, f"{ratio:.1f}×"))
        log = Path(b["log"])
        log_shown = log.relative_to(ROOT) if ROOT in log.parents else log
        section = {"title": title, "rows": rows, "notes": [explanation, f"Log: `{log_shown}`."]}
        if b["returncode"] != 0:
            section["status"] = "failed"
            section["reason"] = f"the build exited with {b['returncode']}; last lines of the log:\n\n```\n{b['tail'][-800:]}\n```"
        sections.append(section)
    return sections


to_markdown = markdown_for("Book benchmark", digits=0)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worktree", action="store_true",
                        help="build the working tree (uncommitted changes included) instead of HEAD")
    parser.add_argument("--keep", action="store_true", help="keep the temporary clone")
    parser.add_argument("--direct", action="store_true", help="call jupyter-book directly even if the Makefile could be used")
    parser.add_argument("--sizes-only", action="store_true", help="no build: measure the root's existing _build/html")
    parser.add_argument("--timeout", type=int, default=DEFAULT_TIMEOUT, help="seconds per build (default 3600)")
    args = parser.parse_args(argv)
    result = run(worktree=args.worktree, keep=args.keep, direct=args.direct, sizes_only=args.sizes_only, timeout=args.timeout)
    print(to_markdown(result))
    print(f"JSON written to {write_json(result, 'book.json')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
