"""tools/blas_kernel.py: the second OpenBLAS kernel of `make test`, and the check that numpy really runs it."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "blas_kernel.py"


def run(*arguments: str, coretype: str | None = None, forced: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "SECOND_BLAS_KERNEL")}
    if coretype is not None:
        env["OPENBLAS_CORETYPE"] = coretype
    if forced is not None:
        env["SECOND_BLAS_KERNEL"] = forced
    return subprocess.run([sys.executable, str(TOOL), *arguments], env=env, capture_output=True, text=True,
                          timeout=120)


def has_avx2() -> bool:
    try:
        return " avx2 " in Path("/proc/cpuinfo").read_text().replace("\n", " ")
    except OSError:
        return False


def test_a_kernel_the_machine_sets_is_kept():
    found = run(coretype="Haswell")
    assert found.returncode == 0
    assert found.stdout.strip() == ""
    assert "OPENBLAS_CORETYPE=Haswell is set" in found.stderr and "kept" in found.stderr


def test_a_maintainer_may_name_the_second_kernel_outright():
    found = run(coretype="Haswell", forced="Nehalem")
    assert found.returncode == 0
    assert found.stdout.strip() == "Nehalem"
    assert "as asked" in found.stderr


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"), reason="the x86-64 choice")
def test_an_older_kernel_than_the_machines_own_on_x86_64():
    found = run()
    assert found.returncode == 0, found.stderr
    own = found.stderr
    if "already Prescott" in own:
        assert found.stdout.strip() in ("", "Nehalem")
    else:
        assert found.stdout.strip() == "Prescott", own
        assert "Katmai" not in own  # the machine's own kernel is not the older one


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64") or not has_avx2(),
                    reason="the Sandybridge kernel needs an x86-64 processor with AVX")
def test_the_check_passes_on_the_kernel_asked_for_and_fails_on_another():
    assert run("--check", "Prescott", coretype="Prescott").returncode == 0
    assert run("--check", "Sandybridge", coretype="Sandybridge").returncode == 0
    wrong = run("--check", "Prescott", coretype="Sandybridge")
    assert wrong.returncode == 1
    assert "asked for OpenBLAS kernel Prescott but numpy runs ['Sandybridge']" in wrong.stderr


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64") or not has_avx2(),
                    reason="the Haswell kernel needs an x86-64 processor with AVX2")
def test_the_two_kernels_round_differently():
    """The point of the second run: the same solve gives other last digits under the older kernel."""
    code = ("import numpy as np; a = np.random.default_rng(0).normal(size=(300, 300)); "
            "print(repr(float(np.linalg.solve(a, a.sum(1)).sum())))")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    sums = {kernel: subprocess.run([sys.executable, "-c", code], env={**env, "OPENBLAS_CORETYPE": kernel},
                                   capture_output=True, text=True, timeout=120, check=True).stdout
            for kernel in ("Haswell", "Prescott")}
    assert sums["Haswell"] != sums["Prescott"]
