"""The Colab venv holds Colab's versions, and the first cell would move nothing else on Colab.

Reads what ``tests/colab/colab_env.py`` built under ``.venv-colab`` (``make
test-colab`` runs it first; without it these tests are skipped, the CI target
always builds it):

* the venv holds exactly the ``[colab]`` versions of colab_versions.txt;
* pip's report for the first cell's install on Colab with no constraint (the
  newest releases, as a Colab user gets them) installs the library, the
  dataset packages Colab lacks and moves only the widget packages: nothing the
  kernel has imported (numpy, pandas) nor anything else of Colab's;
* the wheel built without a packaging warning (mlrefined_lib.static is a package).
"""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import colab_env  # noqa: E402

VERSIONS = colab_env.read_versions()
pytestmark = pytest.mark.skipif(not (colab_env.BASE / "bin" / "python").exists(),
                                reason="no .venv-colab: run python tests/colab/colab_env.py (make test-colab does)")


def test_the_venv_holds_colab_versions():
    installed = colab_env.freeze(colab_env.BASE / "bin" / "python")
    wrong = {name: (version, installed.get(name)) for name, version in VERSIONS["colab"].items()
             if installed.get(name) != version}
    assert not wrong, f"(wanted, found): {wrong}"
    assert "mlrefined-lib" not in installed


def test_unconstrained_install_on_colab_moves_only_the_widget_packages():
    report = json.loads((colab_env.OUT / "dry-run-colab.json").read_text())["install"]
    planned = {colab_env.canonical(item["metadata"]["name"]): item["metadata"]["version"] for item in report}
    assert "mlrefined-lib" in planned
    moved = {name: (VERSIONS["colab"][name], version) for name, version in planned.items()
             if name in VERSIONS["colab"] and name not in colab_env.MAY_MOVE}
    assert not moved, f"installing the book on Colab would replace Colab's packages (Colab's, new): {moved}"
    for name in colab_env.PRELOADED:
        assert name not in planned


def test_constrained_install_gets_the_first_cell_versions():
    report = json.loads((colab_env.OUT / "dry-run-constrained.json").read_text())["install"]
    planned = {colab_env.canonical(item["metadata"]["name"]): item["metadata"]["version"] for item in report}
    for name, version in VERSIONS["first cell"].items():
        assert planned.get(name) == version, (name, planned.get(name), version)


def test_wheel_builds_without_packaging_warnings():
    warnings = (colab_env.OUT / "wheel-build-warnings.txt").read_text()
    assert "mlrefined_lib.static" not in warnings and "absent from the `packages`" not in warnings, warnings


def test_notebooks_come_from_git_and_start_with_the_tools_cell():
    prepared = sorted(colab_env.RUN.glob("*/*.ipynb"))
    assert len(prepared) == len(colab_env.notebooks()) >= 14
    import nbformat

    wheel = next((colab_env.OUT / "wheel").glob("mlrefined_lib-*.whl"))
    for path in prepared:
        first = next(c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
        assert first.source == colab_env.first_cell.cell_source(requirement=colab_env.requirement(wheel))


def test_each_known_difference_finds_exactly_one_cell():
    """A stale entry of known_differences.txt fails here instead of hiding a cell."""
    import nbformat

    by_stem = {path.stem: path for path in colab_env.notebooks()}
    for stem, needle in colab_env.known_differences():
        assert stem in by_stem, f"known_differences.txt names {stem}, which is no chapter notebook"
        cells = [c for c in nbformat.read(by_stem[stem], as_version=4).cells
                 if c.cell_type == "code" and needle in c.source]
        assert len(cells) == 1, f"known_differences.txt: {stem}: {needle!r} finds {len(cells)} cells"
