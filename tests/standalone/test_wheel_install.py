"""The library runs with its data from a plain install, without the clone.

Builds the wheel from a copy of the sources, installs it into a fresh venv
(the ``wheel_venv`` fixture of conftest.py) outside the repository together with the pinned core packages of
requirements.txt (nothing from the book's extra), and from an empty
temporary directory imports the library and calls every loader that reads
files from ``datasets/``. This is what a notebook opened alone (Colab, a
plain ``pip install``) needs from the library's data.

Needs the package registry (pip's cache is reused). Outside CI, a failed
download skips the test; with ``CI=true`` it fails instead.
"""

import json
import re
import subprocess
import textwrap
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

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


def test_wheel_installs_with_its_data(tmp_path, wheel_venv):
    # 1. the wheel (built from a copy of the sources by the wheel_venv fixture)
    wheel, venv, python = wheel_venv.wheel, wheel_venv.venv, wheel_venv.python
    assert wheel.stat().st_size < 1_500_000, f"the wheel is {wheel.stat().st_size} bytes"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "Provides-Extra: book" in metadata
    assert re.search(r'^Requires-Dist: scikit-learn\S* ?; extra == "book"$', metadata, re.M), metadata
    assert "mlrefined_lib/data/one_input_regression.csv" in names

    # 2. the fixture installed it into a fresh venv, with the pinned core packages only

    # 3. from an empty directory, with nothing of the clone on the path
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    result = subprocess.run([str(python), "-c", PROBE], cwd=workdir, env=wheel_venv.env, capture_output=True, text=True)
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
