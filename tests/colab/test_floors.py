"""A lower bound of pyproject.toml never claims more than the Colab layer tests.

Every requirement of the library (its dependencies and its ``[book]`` extra)
has a lower bound (``>=``), and that bound is exactly the version that the
Colab layer installs: Colab's version (``[colab]`` of colab_versions.txt),
or, for a package the first cell installs or moves, the version of
``[first cell]``. The Colab version must also satisfy the requirement unless
the package is one that the first cell may move, so that pip leaves Colab's
packages alone. This reads files only; it needs no venv.
"""

import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

sys.path.insert(0, str(Path(__file__).resolve().parent))
import colab_env  # noqa: E402

VERSIONS = colab_env.read_versions()
REQUIREMENTS = [Requirement(line) for line in colab_env.pyproject_requirements()]


def layer_version(name):
    """The version of ``name`` that the layer's notebooks run with."""
    name = colab_env.canonical(name)
    return VERSIONS["first cell"].get(name) or VERSIONS["colab"].get(name)


def test_the_versions_file_names_its_date_and_python():
    assert VERSIONS["date"][:4].isdigit() and len(VERSIONS["date"]) == 10, VERSIONS["date"]
    assert VERSIONS["python"] == "3.11"
    assert VERSIONS["colab"]["numpy"] and VERSIONS["colab"]["pandas"]


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=lambda r: r.name)
def test_lower_bound_is_the_layer_version(requirement):
    floors = [spec for spec in requirement.specifier if spec.operator == ">="]
    assert len(floors) == 1, f"{requirement}: needs exactly one lower bound (>=)"
    tested = layer_version(requirement.name)
    assert tested, f"{requirement.name} is in pyproject.toml but not in colab_versions.txt, so its floor is untested"
    assert Version(floors[0].version) == Version(tested), (
        f"{requirement}: its lower bound should be {tested}, the version the Colab layer tests "
        f"(a lower floor is untested; a higher one makes pip upgrade Colab's package)")
    assert requirement.specifier.contains(tested), f"{requirement} excludes the tested {tested}"


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=lambda r: r.name)
def test_colab_versions_satisfy_the_requirements(requirement):
    """What Colab ships is kept (pip has nothing to upgrade), but the few that may move."""
    name = colab_env.canonical(requirement.name)
    if name not in VERSIONS["colab"] or name in colab_env.MAY_MOVE:
        return
    assert requirement.specifier.contains(VERSIONS["colab"][name]), (
        f"{requirement} would make pip replace Colab's {name} {VERSIONS['colab'][name]} in a running kernel")


def test_only_packages_colab_has_not_imported_may_move():
    moved = {name for name in VERSIONS["first cell"] if name in VERSIONS["colab"]}
    assert moved <= colab_env.MAY_MOVE, moved - colab_env.MAY_MOVE
    assert not set(colab_env.PRELOADED) & colab_env.MAY_MOVE
