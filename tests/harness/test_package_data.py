"""Every data file in datasets/ is matched by pyproject.toml's package-data, so it
ships in the wheel (as mlrefined_lib/data/...). Fails when a file of a new
kind (say ``.npz``) or in a new subfolder is added without a pattern, or when
the mapping of ``mlrefined_lib.data`` to ``datasets`` is removed."""

import fnmatch
import subprocess
import tomllib
from pathlib import Path, PurePosixPath

REPO = Path(__file__).resolve().parents[2]


def test_every_data_file_ships_in_the_wheel():
    tool = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages = {name: tool["package-dir"][name] for name in tool["packages"] if name.startswith("mlrefined_lib.data")}
    assert packages.get("mlrefined_lib.data") == "datasets", packages
    listed = subprocess.run(["git", "ls-files", "datasets"], cwd=REPO, capture_output=True, text=True, check=True)
    files = [PurePosixPath(line) for line in listed.stdout.splitlines()]
    if not files:  # not a git checkout
        files = [PurePosixPath(p.relative_to(REPO).as_posix()) for p in (REPO / "datasets").rglob("*") if p.is_file()]
    unshipped = []
    for path in files:
        if path.suffix == ".py":  # the generators ship as modules of the package
            continue
        folder = path.parent.as_posix()
        package = next((name for name, where in packages.items() if where == folder), None)
        patterns = tool["package-data"].get(package, []) if package else []
        if not any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns):
            unshipped.append(path.as_posix())
    assert not unshipped, f"not in pyproject.toml's package-data, so missing from the wheel: {unshipped}"


def test_every_subpackage_ships_in_the_wheel():
    """pyproject.toml lists packages one by one: a new folder of modules (such as
    ``mlrefined_lib/live/``) that is not listed would be left out of the wheel."""
    tool = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    library = REPO / "mlrefined_lib"
    folders = {library} | {init.parent for init in library.rglob("__init__.py")}
    found = {".".join(folder.relative_to(REPO).parts) for folder in folders if "__pycache__" not in folder.parts}
    missing = sorted(found - set(tool["packages"]))
    assert not missing, f"packages of mlrefined_lib missing from pyproject.toml's packages: {missing}"
