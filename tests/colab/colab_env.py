"""Prepare the Colab test layer: Colab's packages, the book's wheel, a Colab-like kernel.

    python tests/colab/colab_env.py            # build everything under .venv-colab/
    python tests/colab/colab_env.py --report   # after the notebook run: what each kernel installed

What it builds (``make test-colab`` then runs the tests of this folder and
nbval on the prepared notebooks):

``.venv-colab/base``
    A fresh venv of Python 3.11 with exactly the ``[colab]`` versions of
    ``tests/colab/colab_versions.txt`` (Colab's published ``pip freeze``); it is
    rebuilt only when its ``[colab]`` versions change. Never used directly: every notebook's
    kernel runs in its own hard-linked copy (below), which its first cell changes.
``.venv-colab/wheel/``
    The library's wheel, built from a copy of the sources.
``.venv-colab/wheelhouse/`` and ``first-cell-constraints.txt``
    What the first cell installs on top of Colab's packages (the wheel and the
    ``[first cell]`` versions, asked of pip with the constraint), so that each
    notebook's first cell installs them again quickly and without the network.
``.venv-colab/dry-run-colab.json``
    pip's report of what the first cell's install would change on Colab with no
    constraint at all (the newest releases): ``test_colab_env.py`` checks it.
``.venv-colab/kernels/colab-emulated``
    A kernel spec. Its kernel first copies ``base`` (hard links: a second or
    two) into ``.colab-venv`` next to the notebook, then starts IPython there
    having run ``import numpy`` and ``import pandas``, as Colab's runtime does
    before a notebook's first cell. pip (``%pip`` in the first cell) runs with
    ``PIP_NO_INDEX``, the wheelhouse and the constraint.
``.venv-colab/run/<chapter>-<notebook>/<notebook>.ipynb``
    Each chapter notebook (listed by ``git ls-files 'chapters/*.ipynb'`` now,
    not by a list kept here), copied out of the clone with its first code cell
    replaced by the cell ``tools/first_cell.py`` writes, installing the local
    wheel instead of the repository. That cell is tagged
    ``nbval-ignore-output`` (it prints a line and pip's warnings); every other
    cell's output is compared by nbval with the stored one.
``.venv-colab/nbval_sanitize.cfg``
    The book's sanitizers (``tests/nbval_sanitize.cfg``) and this layer's
    (``tests/colab/nbval_sanitize_versions.cfg``: the setup cells print the
    versions of numpy, pandas, ...; on Colab's they legitimately differ).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
VERSIONS = REPO / "tests" / "colab" / "colab_versions.txt"
OUT = REPO / ".venv-colab"
BASE = OUT / "base"
RUN = OUT / "run"
KERNEL_NAME = "colab-emulated"
PRELOADED = ("numpy", "pandas")  # what Colab's runtime has imported before the first cell
# Colab's packages that the first cell may move: none of them is imported before the
# first cell: the widget packages (the library requires ipywidgets 8; Colab ships 7).
MAY_MOVE = {"ipywidgets", "widgetsnbextension", "jupyterlab-widgets", "comm"}
KNOWN = REPO / "tests" / "colab" / "known_differences.txt"
QUIET = ["--quiet", "--disable-pip-version-check"]

sys.path.insert(0, str(REPO / "tools"))
import first_cell  # noqa: E402


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def read_versions(path: Path = VERSIONS) -> dict:
    """``{"date": ..., "python": ..., "colab": {name: version}, "first cell": {...}}``
    (names canonical: lower case, ``-``)."""
    result: dict = {"colab": {}, "first cell": {}}
    section = None
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        header = re.fullmatch(r"#\s*(date|python):\s*(\S+)", line)
        if header:
            result[header.group(1)] = header.group(2)
        if not line or line.startswith("#"):
            continue
        if re.fullmatch(r"\[(colab|first cell)\]", line):
            section = line[1:-1]
            continue
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)==([0-9][0-9A-Za-z.+!-]*)", line)
        if section is None or not match:
            raise ValueError(f"{path.name}:{number}: expected name==version under [colab] or [first cell]; found {raw!r}")
        result[section][canonical(match.group(1))] = match.group(2)
    for key in ("date", "python"):
        if key not in result:
            raise ValueError(f"{path.name}: no '# {key}:' line")
    return result


def pyproject_requirements() -> list[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    return list(project["dependencies"]) + list(project["optional-dependencies"]["book"])


def run(command, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run([str(c) for c in command], capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if "Location 'file:" not in line]
        sys.exit(f"colab_env: {' '.join(map(str, command[:5]))} ... failed:\n" + "\n".join(lines[-40:]))
    return result


def python311() -> str:
    wanted = read_versions()["python"]
    for candidate in (f"python{wanted}", "python3", sys.executable):
        found = shutil.which(candidate) or candidate
        try:
            out = subprocess.run([found, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                 capture_output=True, text=True).stdout.strip()
        except OSError:
            continue
        if out == wanted:
            return found
    sys.exit(f"colab_env: needs Python {wanted} (colab_versions.txt) as python{wanted}")


def freeze(python: Path) -> dict[str, str]:
    out = run([python, "-m", "pip", "list", "--format=json", "--disable-pip-version-check"]).stdout
    return {canonical(item["name"]): item["version"] for item in json.loads(out)}


def build_base() -> None:
    """The venv of Colab's versions (kept while colab_versions.txt is unchanged)."""
    versions = read_versions()
    digest = hashlib.sha256(json.dumps([versions["python"], versions["colab"]]).encode()).hexdigest()
    stamp = BASE / ".colab-versions.sha256"
    if stamp.is_file() and stamp.read_text() == digest:
        return
    shutil.rmtree(BASE, ignore_errors=True)
    run([python311(), "-m", "venv", BASE])
    pins = OUT / "colab-pins.txt"
    pins.write_text("".join(f"{name}=={version}\n" for name, version in versions["colab"].items()))
    run([BASE / "bin" / "python", "-m", "pip", "install", *QUIET, "-r", pins])
    installed = freeze(BASE / "bin" / "python")
    wrong = {name: installed.get(name) for name, version in versions["colab"].items() if installed.get(name) != version}
    if wrong:
        sys.exit(f"colab_env: the Colab venv did not get colab_versions.txt's versions: {wrong}")
    # compile once here, so that no kernel writes bytecode into the shared files
    run([BASE / "bin" / "python", "-m", "compileall", "-q", "-j", "2", BASE / "lib"])
    stamp.write_text(digest)


def build_wheel() -> Path:
    source = OUT / "source"
    shutil.rmtree(source, ignore_errors=True)
    shutil.rmtree(OUT / "wheel", ignore_errors=True)
    source.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "mlrefined_lib", source / "mlrefined_lib", ignore=ignore)
    shutil.copytree(REPO / "datasets", source / "datasets", ignore=ignore)
    result = run([sys.executable, "-m", "pip", "wheel", "--no-deps", *QUIET, "-w", OUT / "wheel", source])
    noise = [line for line in result.stderr.splitlines() if "warn" in line.lower() and "Location 'file:" not in line]
    (OUT / "wheel-build-warnings.txt").write_text("\n".join(noise))
    (wheel,) = (OUT / "wheel").glob("mlrefined_lib-*.whl")
    shutil.rmtree(source)
    return wheel


def requirement(wheel: Path) -> str:
    """What the layer's first cell installs: the book's extra, from the local wheel."""
    return f"mlrefined_lib[book] @ {wheel.as_uri()}"


def dry_run(wheel: Path, report: Path, constraint: Path | None) -> list[dict]:
    command = [BASE / "bin" / "python", "-m", "pip", "install", "--dry-run", *QUIET, "--report", report, requirement(wheel)]
    if constraint:
        command[5:5] = ["--constraint", constraint]
    run(command)
    return json.loads(report.read_text())["install"]


def build_wheelhouse(wheel: Path) -> Path:
    constraints = OUT / "first-cell-constraints.txt"
    constraints.write_text("".join(f"{n}=={v}\n" for n, v in read_versions()["first cell"].items()))
    wheelhouse = OUT / "wheelhouse"
    shutil.rmtree(wheelhouse, ignore_errors=True)
    wheelhouse.mkdir()
    shutil.copy(wheel, wheelhouse)
    planned = dry_run(wheel, OUT / "dry-run-constrained.json", constraints)
    pins = [f"{item['metadata']['name']}=={item['metadata']['version']}" for item in planned
            if canonical(item["metadata"]["name"]) != "mlrefined-lib"]
    if pins:
        run([BASE / "bin" / "python", "-m", "pip", "download", "--no-deps", *QUIET, "-d", wheelhouse, *pins])
    dry_run(wheel, OUT / "dry-run-colab.json", None)
    return wheelhouse


def write_kernel(wheelhouse: Path) -> Path:
    """A kernel spec whose kernel runs in a fresh copy of Colab's venv, numpy and pandas imported."""
    script = OUT / "colab-kernel.sh"
    exec_lines = "[" + ", ".join(f"'import {name}'" for name in PRELOADED) + "]"
    script.write_text(
        "#!/bin/sh\n"
        "# Started by jupyter_client in the notebook's folder: a fresh copy of Colab's venv there.\n"
        "set -e\n"
        'venv="$PWD/.colab-venv"\n'
        'rm -rf "$venv"\n'
        f'cp -al "{BASE}" "$venv"\n'
        f'export PIP_NO_INDEX=1 PIP_FIND_LINKS="{wheelhouse}" PIP_CONSTRAINT="{OUT / "first-cell-constraints.txt"}"\n'
        "export PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1 MPLBACKEND=module://matplotlib_inline.backend_inline\n"
        "unset PYTHONPATH PYTHONHOME\n"
        f'exec "$venv/bin/python" -m ipykernel_launcher -f "$1" "--IPKernelApp.exec_lines={exec_lines}" 2>>"$PWD/kernel.log"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    spec = OUT / "kernels" / "kernels" / KERNEL_NAME
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(script), "{connection_file}"],
        "display_name": "Python 3 (Colab's versions, numpy and pandas imported)",
        "language": "python",
    }, indent=1))
    return spec


def write_sanitizer() -> Path:
    """nbval's sanitizers of the book (tests/nbval_sanitize.cfg) and this layer's own."""
    path = OUT / "nbval_sanitize.cfg"
    parts = [REPO / "tests" / "nbval_sanitize.cfg", REPO / "tests" / "colab" / "nbval_sanitize_versions.cfg"]
    path.write_text("\n".join(part.read_text().strip() + "\n" for part in parts))
    return path


def notebooks() -> list[Path]:
    """The chapter notebooks, asked of git at run time (the folders may be renamed)."""
    out = subprocess.run(["git", "ls-files", "chapters/*.ipynb"], cwd=REPO, capture_output=True, text=True)
    paths = [REPO / line for line in out.stdout.splitlines() if line.strip()] if out.returncode == 0 else []
    return sorted(path for path in paths if path.is_file()) or first_cell.notebooks()


def known_differences() -> list[tuple[str, str]]:
    """(notebook stem, a line of the cell's code) of each cell whose output legitimately
    differs on Colab's versions (tests/colab/known_differences.txt): it still runs, and
    must not fail, but its output is not compared."""
    entries = []
    for line in KNOWN.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            stem, needle = line.split(":", 1)
            entries.append((stem.strip(), needle.strip()))
    return entries


def prepare_notebooks(wheel: Path) -> list[Path]:
    import nbformat

    shutil.rmtree(RUN, ignore_errors=True)
    source = first_cell.cell_source(requirement=requirement(wheel))
    written = []
    for path in notebooks():
        notebook = nbformat.read(path, as_version=4)
        code = [cell for cell in notebook.cells if cell.cell_type == "code"]
        if not code or not first_cell.is_first_cell(code[0]):
            sys.exit(f"colab_env: {path.relative_to(REPO)} does not start with the first cell of tools/first_cell.py")
        code[0].source = source
        for cell in code[1:]:
            if any(needle in cell.source for stem, needle in known_differences() if stem == path.stem):
                cell.metadata.setdefault("tags", [])
                cell.metadata["tags"] = list(cell.metadata["tags"]) + ["nbval-ignore-output"]
        code[0].metadata.setdefault("tags", [])
        code[0].metadata["tags"] = list(code[0].metadata["tags"]) + ["nbval-ignore-output"]
        # one folder per notebook: its kernel's copy of the venv lives there
        target = RUN / f"{path.parent.name}-{path.stem}" / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, target)
        written.append(target)
    return written


def report() -> int:
    """After the run: every notebook's kernel installed the wheel into its own copy of Colab's venv,
    and Colab's packages (but the widget packages) are where they were."""
    colab = read_versions()["colab"]
    failures = []
    notebooks_run = sorted(RUN.glob("*/*.ipynb"))
    for path in notebooks_run:
        venv = path.parent / ".colab-venv"
        name = f"{path.parent.name}/{path.name}"
        if not (venv / "bin" / "python").exists():
            failures.append(f"{name}: its kernel made no copy of Colab's venv")
            continue
        installed = freeze(venv / "bin" / "python")
        if "mlrefined-lib" not in installed:
            failures.append(f"{name}: the first cell did not install the library")
        moved = {n: (v, installed.get(n)) for n, v in colab.items() if n not in MAY_MOVE | {"anywidget"} and installed.get(n) != v}
        if moved:
            failures.append(f"{name}: the first cell moved Colab's packages {moved}")
    for line in failures:
        print("colab layer:", line, file=sys.stderr)
    if not failures:
        print(f"colab layer: {len(notebooks_run)} notebooks, each installed the wheel into its own copy of Colab's venv; "
              "no Colab package moved but those that may (MAY_MOVE)")
    for path in RUN.glob("*/.colab-venv"):
        shutil.rmtree(path, ignore_errors=True)
    return 1 if failures or not notebooks_run else 0


def main(arguments: list[str]) -> int:
    if "--report" in arguments:
        return report()
    OUT.mkdir(exist_ok=True)
    build_base()
    wheel = build_wheel()
    wheelhouse = build_wheelhouse(wheel)
    spec = write_kernel(wheelhouse)
    written = prepare_notebooks(wheel)
    write_sanitizer()
    print(f"colab layer: Colab's venv of {read_versions()['date']} in {BASE.relative_to(REPO)}, kernel "
          f"{KERNEL_NAME} in {spec.parent.parent.relative_to(REPO)}, {len(written)} notebooks in {RUN.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    os.chdir(REPO)
    sys.exit(main(sys.argv[1:]))
