"""The library runs with its data from a plain install, without the clone.

Builds the wheel from a copy of the sources, installs it into a fresh venv
outside the repository together with the pinned core packages of
requirements.txt (nothing from the book's extra), and from an empty
temporary directory imports the library and calls every loader that reads
files from ``datasets/``. This is what a notebook opened alone (Colab, a
plain ``pip install``) needs from the library's data.

Needs the package registry (pip's cache is reused). Outside CI, a failed
download skips the test; with ``CI=true`` it fails instead.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CORE = ("numpy", "matplotlib", "autograd", "ipywidgets", "pillow", "pandas")  # the library's dependencies
NETWORK_ERRORS = ("NewConnectionError", "Connection", "Could not find a version", "No matching distribution", "timed out")

PROBE = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    import mlrefined_lib
    from mlrefined_lib import datasets

    report = {"library": mlrefined_lib.__file__, "data_dir": str(datasets.data_dir()), "shapes": {}}
    for name in ("one_input_regression", "one_input_classification", "five_input_hyperplane"):
        x, y = getattr(datasets, "load_" + name)()
        report["shapes"][name] = [list(x.shape), list(y.shape)]
    words = datasets.load_spoken_words()
    report["spoken_words"] = len(words)
    report["spoken_rates"] = sorted({w.rate for w in words})
    report["spoken_peak"] = max(float(abs(w.signal).max()) for w in words)
    report["modules"] = sorted(m.split(".")[0] for m in sys.modules)
    print(json.dumps(report))
    """
)


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


def test_wheel_installs_with_its_data(tmp_path):
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
    assert wheel.stat().st_size < 1_500_000, f"the wheel is {wheel.stat().st_size} bytes"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "Provides-Extra: book" in metadata
    assert re.search(r'^Requires-Dist: scikit-learn\S* ?; extra == "book"$', metadata, re.M), metadata
    assert "mlrefined_lib/data/one_input_regression.csv" in names

    # 2. a fresh venv outside the repository: the wheel and the pinned core packages only
    venv = tmp_path / "venv"
    result = run([sys.executable, "-m", "venv", str(venv)])
    assert result.returncode == 0, result.stderr
    python = venv / "bin" / "python"
    install_or_skip([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheel), *pinned(CORE)])

    # 3. from an empty directory, with nothing of the clone on the path
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    env["MPLBACKEND"] = "Agg"
    result = run([str(python), "-c", PROBE], cwd=workdir, env=env)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])

    library = Path(report["library"])
    assert library.is_relative_to(venv) and not library.is_relative_to(REPO), report["library"]
    assert Path(report["data_dir"]) == library.parent / "data"
    assert report["shapes"] == {
        "one_input_regression": [[100, 1], [100]],
        "one_input_classification": [[12, 1], [12]],
        "five_input_hyperplane": [[200, 5], [200]],
    }
    assert report["spoken_words"] == len(list((REPO / "datasets" / "spoken_words").glob("*.wav"))) == 34
    assert report["spoken_rates"] == [16_000]
    assert 0.5 < report["spoken_peak"] < 1.0
    assert "scipy" not in report["modules"]  # the loaders need only the core packages
