"""Name a second OpenBLAS kernel for one of the test runs, so that nbval also runs under a kernel other than this machine's.

    python tools/blas_kernel.py            # prints the kernel's name (or nothing) and, on stderr, why
    python tools/blas_kernel.py --check K  # with OPENBLAS_CORETYPE=K set: exit 1 unless numpy runs that kernel

NumPy's and SciPy's OpenBLAS choose their kernels by processor (AVX-512, AVX2,
AVX, SSE on x86-64; NEON or SVE on ARM). The kernels add in other orders, so
rounding differs in the last bits, and a printed number that rounding decides
differs between machines. ``make test`` runs the Colab layer's notebooks under
the kernel named here: an older one, which every processor of the machine's
kind runs, and which is not the machine's own.

Nothing is printed (one run under the machine's own kernel, said on stderr) when

* ``OPENBLAS_CORETYPE`` is already set: some machines set it because their
  processor needs it (an older OpenBLAS computes wrong results or crashes on
  them), and it is never changed;
* numpy does not use OpenBLAS here (Apple's Accelerate, MKL);
* the machine's own kernel is already the older one, and no other fits.

``SECOND_BLAS_KERNEL=NAME`` (``make test SECOND_BLAS_KERNEL=Prescott``) names the
second kernel outright, for a maintainer who knows the processor runs it.
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

# The older kernel per machine kind: Prescott (SSE3) runs on every x86-64 processor,
# ARMV8 (plain NEON) on every 64-bit ARM one. OpenBLAS reports Prescott as Katmai.
OLDER = {"x86_64": "Prescott", "amd64": "Prescott", "aarch64": "ARMV8", "arm64": "ARMV8"}
# What OpenBLAS reports for each name asked for, where it is not the name itself.
REPORTED_AS = {"Prescott": "Katmai"}
# On x86-64, when the machine's own kernel is already the generic one: Nehalem (SSE4.2), if the processor has it.
SECOND_CHOICE = {"Prescott": ("Nehalem", "sse4_2")}


def numpy_openblas_kernels() -> list[str]:
    """The kernel (architecture) of every OpenBLAS that numpy and scipy loaded, as threadpoolctl reports it."""
    import numpy  # noqa: F401  (loads numpy's OpenBLAS)
    import scipy.linalg  # noqa: F401  (loads scipy's, where it has its own)
    import threadpoolctl

    return sorted({info.get("architecture") or "?" for info in threadpoolctl.threadpool_info()
                   if info.get("internal_api") == "openblas"})


def cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith(("flags", "Features")):
            return set(line.split(":", 1)[1].split())
    return set()


def choose() -> tuple[str, str]:
    """(kernel or "", the reason, one line)."""
    forced = os.environ.get("SECOND_BLAS_KERNEL")
    if forced:
        return forced, f"SECOND_BLAS_KERNEL={forced}: the second run uses {forced}, as asked"
    preset = os.environ.get("OPENBLAS_CORETYPE")
    if preset:
        return "", (f"OPENBLAS_CORETYPE={preset} is set on this machine (some processors need it); it is kept, "
                    "so every layer runs under that one kernel and no second kernel is tried")
    own = numpy_openblas_kernels()
    if not own:
        return "", "numpy does not use OpenBLAS here, so no second OpenBLAS kernel is tried"
    machine = platform.machine().lower()
    older = OLDER.get(machine)
    if older is None:
        return "", f"no older OpenBLAS kernel is known for a {machine} machine; one run under its own ({', '.join(own)})"
    if REPORTED_AS.get(older, older).lower() in {kernel.lower() for kernel in own}:  # ARM cores are reported in lower case
        second, flag = SECOND_CHOICE.get(older, ("", ""))
        if not second or flag not in cpu_flags():
            return "", f"this machine's own OpenBLAS kernel is already {older}; no other fits, so one run"
        older = second
    return older, f"this machine's OpenBLAS kernel is {', '.join(own)}; the second run uses {older}"


def main(arguments: list[str]) -> int:
    if arguments[:1] == ["--check"]:
        wanted = arguments[1]
        found = numpy_openblas_kernels()
        expected = REPORTED_AS.get(wanted, wanted)
        if not found or any(kernel.lower() != expected.lower() for kernel in found):
            print(f"blas_kernel: asked for OpenBLAS kernel {wanted} but numpy runs {found or 'no OpenBLAS'}",
                  file=sys.stderr)
            return 1
        print(f"blas_kernel: numpy and scipy run OpenBLAS's {', '.join(found)} kernel")
        return 0
    kernel, reason = choose()
    print(f"blas_kernel: {reason}", file=sys.stderr)
    print(kernel)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
