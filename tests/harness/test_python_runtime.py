"""runtime.txt (what Binder installs), the Makefile's Binder check and
pyproject.toml's requires-python name one Python.

These fail when: runtime.txt is missing or not one ``python-X.Y`` line;
requires-python does not admit X.Y (Binder would then pick another Python);
the Makefile's Binder check (``test-binder``, the nbval run) no longer builds its venv with Python X.Y read
from runtime.txt, or no longer stops when the interpreter it finds is
another version; the Python running the tests is not X.Y.
"""

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet

REPO = Path(__file__).resolve().parents[2]


def runtime_version() -> str:
    text = (REPO / "runtime.txt").read_text()
    match = re.fullmatch(r"python-(\d+\.\d+)\n?", text)
    assert match, f"runtime.txt should be one line like 'python-3.11'; found {text!r}"
    return match.group(1)


def test_requires_python_admits_the_runtime():
    version = runtime_version()
    spec = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["requires-python"]
    assert SpecifierSet(spec).contains(f"{version}.0"), f"requires-python {spec!r} rejects Python {version}"


def test_tests_run_on_the_runtime_python():
    found = "%d.%d" % sys.version_info[:2]
    assert found == runtime_version(), f"runtime.txt pins Python {runtime_version()}; the tests run on {found}"


def test_makefile_header_names_the_runtime():
    assert f"Needs only Python {runtime_version()}," in (REPO / "Makefile").read_text()


needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def dry_run(folder: Path, *args: str) -> list[str]:
    out = subprocess.run(["make", "-n", "-s", "test-binder", *args], cwd=folder, capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


@needs_make
def test_binder_venv_uses_the_runtime_python():
    version = runtime_version()
    lines = dry_run(REPO)
    assert f"python{version} -m venv .venv-binder" in lines
    check = next(line for line in lines if "sys.version_info" in line)
    assert f'found == "{version}"' in check


@needs_make
def test_binder_check_stops_on_another_python(tmp_path):
    """A runtime.txt that names another Python makes test-binder fail before building anything."""
    shutil.copy(REPO / "Makefile", tmp_path / "Makefile")
    (tmp_path / "runtime.txt").write_text("python-3.99\n")
    run = subprocess.run(
        ["make", "-s", "test-binder", f"BINDER_PYTHON={sys.executable}"], cwd=tmp_path, capture_output=True, text=True
    )
    assert run.returncode != 0
    assert "runtime.txt asks for Python 3.99" in run.stderr
    assert not (tmp_path / ".venv-binder").exists()
