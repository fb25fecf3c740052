"""``pip install "mlrefined-lib[book]"`` gives everything the chapters import,
and requirements.txt (what Binder installs) pins every one of those packages.

Fails when a chapter imports a package that is neither in the standard
library nor among the library's dependencies and its ``book`` extra, or when
a dependency or extra package has no ``==`` pin in requirements.txt.
"""

import json
import re
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[2]
# Import name -> distribution name, where the two differ.
DISTRIBUTION = {
    "sklearn": "scikit-learn",
    "skimage": "scikit-image",
    "imblearn": "imbalanced-learn",
    "PIL": "pillow",
    "IPython": "ipython",  # comes with ipywidgets
}
PROVIDED_BY = {"ipython": "ipywidgets"}


def project():
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def declared():
    names = [Requirement(line).name for line in project()["dependencies"]]
    names += [Requirement(line).name for line in project()["optional-dependencies"]["book"]]
    return {canonicalize_name(name) for name in names}


def chapter_imports():
    found = set()
    for path in sorted((REPO / "chapters").rglob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] != "code":
                continue
            for line in "".join(cell["source"]).splitlines():
                match = re.match(r"\s*(?:from|import)\s+([A-Za-z_]\w*)", line)
                if match:
                    found.add(match.group(1))
    return found


def test_chapters_import_only_what_the_book_extra_installs():
    have = declared() | {"mlrefined-lib"}
    missing = []
    for module in sorted(chapter_imports()):
        if module in sys.stdlib_module_names or module == "mlrefined_lib":
            continue
        dist = canonicalize_name(DISTRIBUTION.get(module, module))
        if dist not in have and canonicalize_name(PROVIDED_BY.get(dist, "-")) not in have:
            missing.append(f"{module} ({dist})")
    assert not missing, f"chapters import packages missing from pyproject's dependencies and [book] extra: {missing}"


def test_requirements_pin_every_declared_package():
    pins = set()
    for line in (REPO / "requirements.txt").read_text().splitlines():
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)==\S+", line.strip())
        if match:
            pins.add(canonicalize_name(match.group(1)))
    unpinned = sorted(declared() - pins)
    assert not unpinned, f"requirements.txt has no == pin for {unpinned}"
