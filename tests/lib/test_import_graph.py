"""No module of mlrefined_lib imports itself, directly or through others.

The imports of every module are read from its source with ``ast`` (those at
the top and those inside functions alike: a deferred import is still a
dependency), relative ones resolved against the package. The package's
``__init__`` imports every module to re-export it, so imports of the package
itself (``import mlrefined_lib``, ``from . import name`` where ``name`` is not a
module) count as edges to ``mlrefined_lib`` too, and any module doing that
forms a cycle with it.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "mlrefined_lib"
FOLDER = Path(__file__).resolve().parents[2] / PACKAGE


def module_names() -> dict[str, Path]:
    names = {}
    for path in sorted(FOLDER.rglob("*.py")):
        parts = list(path.relative_to(FOLDER.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_package(name: str, modules: dict[str, Path]) -> bool:
    return modules[name].name == "__init__.py"


def imports_of(name: str, modules: dict[str, Path]) -> set[str]:
    """The package's modules that module ``name`` imports (resolved, deduplicated)."""
    tree = ast.parse(modules[name].read_text(encoding="utf-8"), filename=str(modules[name]))
    here = name if _is_package(name, modules) else name.rpartition(".")[0]
    found = set()

    def add(target: str) -> None:
        # The longest known module that `target` names (a.b.c may be a function c of module a.b).
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == PACKAGE:
                    add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    add(f"{source}.{alias.name}")
                else:
                    add(source)
    return found


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of nodes (first == last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for child in sorted(graph.get(node, ())):
            if state.get(child) == 1:
                return path[path.index(child):] + [child]
            if child not in state:
                cycle = visit(child)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_the_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_imports_are_resolved():
    modules = module_names()
    assert f"{PACKAGE}.costs" in imports_of(PACKAGE, modules)
    assert f"{PACKAGE}._validation" in imports_of(f"{PACKAGE}.costs", modules)


def test_no_import_cycle_in_the_library():
    modules = module_names()
    graph = {name: imports_of(name, modules) for name in modules}
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle in mlrefined_lib: " + " -> ".join(cycle)
