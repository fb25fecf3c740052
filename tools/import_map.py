"""Write the reference page's import map: every public name of the library, where it lives, which chapter teaches it.

    python tools/import_map.py           # rewrite the map between the markers
    python tools/import_map.py --check   # exit status 1 if reference.md differs from what the notebooks say

A chapter *uses* a name when one of its code cells calls it: as ``ml.NAME``
(the chapters ``import mlrefined_lib as ml``), ``module.NAME`` after
``from mlrefined_lib import module``, or ``NAME`` after
``from mlrefined_lib.module import NAME``. The chapter that *teaches* a name
is the first, in reading order, that uses it. Names no chapter calls are
listed too (the library's own building blocks), with no chapter.

The map sits in ``reference.md`` between ``<!-- import-map -->`` and
``<!-- /import-map -->``; ``make text`` writes it and
``tests/harness/test_import_map.py`` keeps it in step with the notebooks.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))
import bookfiles  # noqa: E402

START, END = "<!-- import-map -->", "<!-- /import-map -->"
REFERENCE = ROOT / "reference.md"
#: The library's modules the chapters import by name (``from mlrefined_lib import plotting``) whose names
#: the map lists. The exercises' checks (``mlrefined_lib.checks``) are listed on the instructors' page instead.
MODULES = ("datasets", "plotting", "widgets")


def _code(notebook) -> str:
    """The notebook's code cells as one Python source (IPython magics and shell lines dropped)."""
    lines = []
    for cell in notebook.cells:
        if cell.cell_type == "code":
            lines += [line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    return "\n".join(lines)


def names_used(source: str) -> set[str]:
    """The dotted names (``costs.least_squares`` style: module, name) a chapter's code reaches in the library.

    Returns ``"NAME"`` for the package's top-level names (however imported)
    and ``"module.NAME"`` for other names, reached through one of the
    library's modules.
    """
    tree = ast.parse(source)
    top_level = set(importlib.import_module("mlrefined_lib").__all__)
    package_aliases, module_aliases, direct = set(), {}, {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "mlrefined_lib":
                    package_aliases.add(alias.asname or alias.name)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "mlrefined_lib":
            for alias in node.names:
                if node.module == "mlrefined_lib" and alias.name in MODULES:
                    module_aliases[alias.asname or alias.name] = alias.name
                elif node.module == "mlrefined_lib":
                    direct[alias.asname or alias.name] = alias.name
                elif alias.name in top_level:
                    direct[alias.asname or alias.name] = alias.name
                else:
                    sub = node.module.split(".", 1)[1]
                    direct[alias.asname or alias.name] = f"{sub}.{alias.name}"
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in package_aliases:
                found.add(node.attr)
            elif node.value.id in module_aliases:
                found.add(f"{module_aliases[node.value.id]}.{node.attr}")
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in direct:
            found.add(direct[node.id])
    return found


def chapter_uses(root: Path = ROOT) -> list[tuple[int, set[str]]]:
    """(chapter number, names used) per chapter notebook, in reading order."""
    return [(int(path.parent.name.split("_")[0]), names_used(_code(nbformat.read(path, as_version=4))))
            for path in bookfiles.chapter_notebooks(root)]


def public_names() -> list[tuple[str, str]]:
    """(name as the chapters write it, where it is defined) for the package's ``__all__`` and :data:`MODULES`."""
    package = importlib.import_module("mlrefined_lib")
    rows = []
    for name in package.__all__:
        rows.append((name, _home(getattr(package, name), name, package.__name__)))
    for module_name in MODULES:
        module = importlib.import_module(f"mlrefined_lib.{module_name}")
        public = getattr(module, "__all__", None) or [n for n, v in vars(module).items()
                                                      if not n.startswith("_") and callable(v)
                                                      and getattr(v, "__module__", "").startswith(module.__name__)]
        for name in public:
            rows.append((f"{module_name}.{name}", _home(getattr(module, name), name, module.__name__)))
    return rows


def _home(value, name: str, where: str) -> str:
    """The dotted name the reference page documents ``value`` under.

    A function or class is documented where it is defined, except the
    widgets, which the page documents as ``mlrefined_lib.live``'s; a constant
    where it is first assigned (the library module holding that very object).
    """
    if callable(value):
        home = getattr(value, "__module__", "") or ""
        if home.startswith("mlrefined_lib.live."):
            return f"mlrefined_lib.live.{name}"
        if home.startswith("mlrefined_lib"):
            return f"{home}.{name}"
    for module_name, module in sorted(sys.modules.items()):
        if (module_name.startswith("mlrefined_lib.") and module_name != where
                and vars(module).get(name) is value and value.__class__.__module__ == "builtins"):
            return f"{module_name}.{name}"
    return f"{where}.{name}"


def _chapters(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def table(root: Path = ROOT) -> str:
    uses = chapter_uses(root)
    lines = [
        "Every name the chapters call, the module of `mlrefined_lib` that defines it, and the chapter that "
        "teaches it (the first to call it). The chapters write `import mlrefined_lib as ml` and call `ml.NAME`; the datasets, "
        "plotting and widgets are imported as modules (`from mlrefined_lib import plotting`), as are the "
        "exercises' checks (`mlrefined_lib.checks`, one per exercise). A name no chapter writes is a result's class "
        "or one of the library's building blocks.",
        "",
        "| Name | Module | Taught in chapter |",
        "|---|---|---|",
    ]
    for shown, home in public_names():
        chapters = sorted({number for number, names in uses if shown in names})
        module = home.rsplit(".", 1)[0].removeprefix("mlrefined_lib").lstrip(".") or "mlrefined_lib"
        written = f"ml.{shown}" if "." not in shown else shown
        used = (f"{chapters[0]}; also {_chapters(chapters[1:])}" if chapters[1:] else str(chapters[0])) if chapters else "–"
        lines.append(f"| {{py:obj}}`{written} <{home}>` | `{module}` | {used} |")
    return "\n".join(lines) + "\n"


def with_table(text: str, body: str) -> str:
    return bookfiles.between_markers(text, START, END, body, "reference.md")


def main(arguments: list[str]) -> int:
    text = REFERENCE.read_text()
    written = with_table(text, table())
    if "--check" in arguments:
        if written != text:
            print("import_map: reference.md's import map is out of date: python tools/import_map.py", file=sys.stderr)
            return 1
        return 0
    if written != text:
        REFERENCE.write_text(written)
        print("import_map: reference.md rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
