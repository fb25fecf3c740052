"""The library's wheel in a fresh venv outside the repository (shared by the tests here).

Builds the wheel from a copy of the sources and installs it into a fresh venv
together with the pinned core packages of requirements.txt (nothing from the
book's extra). Needs the package registry (pip's cache is reused). Outside CI,
a failed download skips the tests; with ``CI=true`` they fail instead.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[2]
CORE = ("numpy", "matplotlib", "autograd", "ipywidgets", "pillow", "pandas")  # the library's dependencies
NETWORK_ERRORS = ("NewConnectionError", "Connection", "Could not find a version", "No matching distribution", "timed out")


def pinned(names):
    """``name==version`` lines of requirements.txt for these packages."""
    pins = {}
    for line in (REPO / "requirements.txt").read_text().splitlines():
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)", line.strip())
        if match and match.group(1).lower() in names:
            pins[match.group(1).lower()] = line.strip()
    missing = sorted(set(names) - set(pins))
    assert not missing, f"requirements.txt pins no version of {missing}"
    return [pins[name] for name in names]


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def install_or_skip(command):
    result = run(command)
    if result.returncode != 0:
        offline = any(word in result.stderr for word in NETWORK_ERRORS)
        if offline and os.environ.get("CI", "").lower() != "true":
            pytest.skip(f"the package registry is not reachable: {result.stderr.strip().splitlines()[-1]}")
        pytest.fail(f"{' '.join(command[:4])} ... failed:\n{result.stderr[-3000:]}")
    return result


@pytest.fixture(scope="session")
def wheel_venv(tmp_path_factory):
    """``wheel``, ``venv``, ``python`` (its interpreter) and ``env`` (an environment
    without the clone on the path) of a venv holding the wheel and the core packages."""
    tmp_path = tmp_path_factory.mktemp("wheel")
    # 1. build the wheel from a copy of the sources (keeps build/ out of the clone)
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "mlrefined_lib", source / "mlrefined_lib", ignore=ignore)
    shutil.copytree(REPO / "datasets", source / "datasets", ignore=ignore)
    wheels = tmp_path / "wheels"
    install_or_skip([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "--disable-pip-version-check", "-w", str(wheels), str(source)])
    (wheel,) = wheels.glob("mlrefined_lib-*.whl")

    # 2. a fresh venv outside the repository: the wheel and the pinned core packages only
    venv = tmp_path / "venv"
    result = run([sys.executable, "-m", "venv", str(venv)])
    assert result.returncode == 0, result.stderr
    python = venv / "bin" / "python"
    install_or_skip([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheel), *pinned(CORE)])

    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    env["MPLBACKEND"] = "Agg"
    return SimpleNamespace(wheel=wheel, venv=venv, python=python, env=env)
