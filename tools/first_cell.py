"""Write the first code cell of every chapter notebook: install what is missing.

    python tools/first_cell.py           # insert or update the cell in every notebook
    python tools/first_cell.py --check   # exit status 1 if a notebook or the landing page differs

A notebook opened alone (on Colab, or in any Python without the book's
packages) runs this cell first. When the book's library or one of the packages
of its ``[book]`` extra cannot be imported, the cell installs the library with
that extra from the repository named in ``_config.yml`` (``repository.url``),
so with its data files and every dataset package the chapters import. Where
everything is importable (Binder, ``make lab``, the book's tests) it does
nothing and prints nothing.

On Colab the kernel has already imported numpy and pandas before the first
cell runs. pyproject.toml's lower bounds accept Colab's versions (the Colab
test layer, ``tests/colab``, proves it), so pip moves only the widget packages
and adds the missing ones, and the notebook runs on without a restart. Should
pip ever change a package that the kernel has already imported (another
runtime, older versions), the cell says in one line that the runtime must be
restarted and how, and stops with an error, so that "Run all" goes no further
and no later cell fails with a confusing import error.

The cell is the same in every notebook. Its tags ``remove-input`` and
``remove-output`` leave it out of the HTML book (where it would be an empty
box), while a student in Jupyter or on Colab sees and runs it. The tool also writes the Colab line of
the landing page (``intro.md``), between the markers ``<!-- colab -->`` and
``<!-- /colab -->``, from the same URL. ``tests/harness/test_first_cell.py``
checks that every notebook and the landing page agree with this tool.
"""

from __future__ import annotations

import re
import sys
import textwrap
import tomllib
from pathlib import Path

import nbformat
import yaml
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[1]
# Both tags: the HTML book leaves the cell out altogether (it prints nothing there);
# Jupyter and Colab ignore them and show it.
TAGS = ["remove-input", "remove-output"]
CELL_ID = "install-if-missing"
LIBRARY = "mlrefined_lib"
# Import name of each package of the [book] extra whose import name is not its
# distribution name (with "-" read as "_").
IMPORT_NAME = {"scikit-learn": "sklearn", "scikit-image": "skimage", "imbalanced-learn": "imblearn"}
COLAB_START, COLAB_END = "<!-- colab -->", "<!-- /colab -->"


def repository_url(root: Path = REPO) -> str:
    """``repository.url`` of ``_config.yml``, without a trailing slash."""
    config = yaml.safe_load((root / "_config.yml").read_text())
    url = str((config.get("repository") or {}).get("url") or "").rstrip("/")
    if not url.startswith("https://"):
        raise ValueError(f"_config.yml: repository.url should be an https:// address; found {url!r}")
    return url


def repository_branch(root: Path = REPO) -> str:
    config = yaml.safe_load((root / "_config.yml").read_text())
    return str((config.get("repository") or {}).get("branch") or "main")


def needed_modules(root: Path = REPO) -> list[str]:
    """The library and the import names of the packages of its ``[book]`` extra."""
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    names = [Requirement(line).name.lower() for line in project["optional-dependencies"]["book"]]
    return [LIBRARY] + [IMPORT_NAME.get(name, name.replace("-", "_")) for name in names]


def install_command(root: Path = REPO, expanded: bool = False, requirement: str | None = None) -> str:
    """The line the cell runs when something is missing. In the cell, IPython fills
    in ``{repository}`` (set before); ``expanded`` spells it out. ``requirement``
    replaces the whole requirement (the Colab test layer installs a local wheel)."""
    where = repository_url(root) if expanded else "{repository}"
    requirement = requirement or f"{LIBRARY}[book] @ git+{where}"
    return f'%pip install --quiet "{requirement}"'


#: What the cell says when pip has changed a package the kernel had already imported.
RESTART = (
    "pip changed {changed}, which this runtime had already imported. Restart it "
    "(Colab: Runtime > Restart session; Jupyter: Kernel > Restart), then run the "
    "notebook again from the top: this cell will then do nothing."
)


def cell_source(root: Path = REPO, requirement: str | None = None) -> str:
    """The cell's code. ``requirement`` swaps the install target (tests only)."""
    # One name a line and every line at most 80 characters, as `ruff format
    # --line-length 80` writes it (the book's code style), so that formatting
    # the notebooks leaves this cell unchanged.
    modules = "".join(f'    "{name}",\n' for name in needed_modules(root))
    restart = "".join(f'            "{part}"\n' for part in _wrap(RESTART, 64))
    return (
        "# Colab, or a Python without the book's packages: install them (nothing\n"
        "# happens otherwise).\n"
        "import importlib\n"
        "import importlib.metadata as metadata\n"
        "import importlib.util\n"
        "import sys\n"
        "\n"
        f"needed = [\n{modules}]\n"
        f'repository = "{repository_url(root)}"\n'
        "if not all(importlib.util.find_spec(name) for name in needed):\n"
        "    # Colab has imported numpy and pandas already: if pip changed them,\n"
        "    # the kernel would mix old code in memory with new files on disk.\n"
        "    imported = {\n"
        "        name\n"
        "        for module, names in metadata.packages_distributions().items()\n"
        "        if module in sys.modules\n"
        "        for name in names\n"
        "    }\n"
        "\n"
        "    def version(name):\n"
        "        try:\n"
        "            return metadata.version(name)\n"
        "        except metadata.PackageNotFoundError:\n"
        "            return None\n"
        "\n"
        "    before = {name: version(name) for name in imported}\n"
        "    print(\"Installing the book's library and packages (about a minute)...\")\n"
        f"    {install_command(root, requirement=requirement)}\n"
        "    importlib.invalidate_caches()\n"
        "    changed = sorted(n for n in imported if version(n) != before[n])\n"
        "    if changed:\n"
        "\n"
        "        class RestartNeeded(Exception):\n"
        "            def _render_traceback_(self):  # IPython: the message only\n"
        "                return [str(self)]\n"
        "\n"
        "        raise RestartNeeded(\n"
        f"{restart}"
        '            .format(changed=", ".join(changed))\n'
        "        )"
    )


def _wrap(text: str, width: int) -> list[str]:
    """``text`` cut into string literals of at most ``width`` characters."""
    return textwrap.wrap(text, width, drop_whitespace=False, break_on_hyphens=False)


def first_cell(root: Path = REPO) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(source=cell_source(root), metadata={"tags": list(TAGS)})
    cell.id = CELL_ID
    return cell


def is_first_cell(cell) -> bool:
    """Whether a cell is (an earlier version of) this tool's cell."""
    return cell.cell_type == "code" and "importlib.util.find_spec" in cell.source and "%pip install" in cell.source


def notebooks(root: Path = REPO) -> list[Path]:
    return sorted(path for path in (root / "chapters").rglob("*.ipynb") if ".ipynb_checkpoints" not in path.parts)


def position(cells) -> int:
    """Where the cell goes: before the first code cell (the setup cell), and
    before the "## Setup" heading and its prose if they open the setup cell."""
    index = next((i for i, cell in enumerate(cells) if cell.cell_type == "code"), len(cells))
    start = index
    while start > 0 and cells[start - 1].cell_type == "markdown":
        start -= 1
        if cells[start].source.lstrip().startswith("## Setup"):
            return start
    return index


def update(path: Path, root: Path = REPO) -> bool:
    """Insert, refresh or move the first cell of one notebook; return whether it changed."""
    notebook = nbformat.read(path, as_version=4)
    before = nbformat.writes(notebook)
    old = [cell for cell in notebook.cells if is_first_cell(cell)]
    cell = old[0] if old else first_cell(root)  # keeps its id and stored (empty) output
    notebook.cells = [c for c in notebook.cells if not is_first_cell(c)]
    cell.source = cell_source(root)
    cell.metadata["tags"] = list(TAGS)
    notebook.cells.insert(position(notebook.cells), cell)
    if nbformat.writes(notebook) == before:
        return False
    nbformat.write(notebook, path)
    return True


def colab_line(root: Path = REPO) -> str:
    """The landing page's paragraph on Colab, with a real link to chapter 1."""
    url = repository_url(root)
    chapter = notebooks(root)[0].relative_to(root).as_posix()
    github = url.removeprefix("https://github.com/")
    return (
        f"{COLAB_START}\n"
        "  On Colab (for example [chapter 1 on Colab]"
        f"(https://colab.research.google.com/github/{github}/blob/{repository_branch(root)}/{chapter}))\n"
        "  the notebook arrives alone, without the book's library and data. Its first\n"
        "  code cell installs them, with the packages that hold the chapters'\n"
        "  datasets, from the book's repository:\n"
        "\n"
        "  ```\n"
        f"  {install_command(root, expanded=True)}\n"
        "  ```\n"
        "\n"
        "  It runs only when something is missing, so elsewhere it does nothing.\n"
        f"  {COLAB_END}"
    )


def update_landing_page(root: Path = REPO) -> bool:
    path = root / "intro.md"
    text = path.read_text()
    pattern = re.compile(re.escape(COLAB_START) + ".*?" + re.escape(COLAB_END), re.S)
    if not pattern.search(text):
        raise ValueError(f"{path}: expected a paragraph between {COLAB_START} and {COLAB_END}; found none")
    new = pattern.sub(lambda _: colab_line(root), text, count=1)
    if new == text:
        return False
    path.write_text(new)
    return True


def main(arguments: list[str], root: Path = REPO) -> int:
    if {"-h", "--help"} & set(arguments):
        print(__doc__)
        return 0
    if "--check" not in arguments:
        for path in notebooks(root):
            if update(path, root):
                print(f"updated {path.relative_to(root)}")
        if update_landing_page(root):
            print("updated intro.md")
        return 0
    stale = []
    for path in notebooks(root):
        code = [cell for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"]
        if not code or code[0].source != cell_source(root) or code[0].metadata.get("tags") != TAGS:
            stale.append(path.relative_to(root).as_posix())
    if colab_line(root) not in (root / "intro.md").read_text():
        stale.append("intro.md")
    for name in stale:
        print(f"stale: {name} (run python tools/first_cell.py)", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
