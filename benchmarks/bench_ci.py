"""`make test` on a clean clone, as CI runs it: the seconds of every layer and of the whole.

    .venv/bin/python benchmarks/bench_ci.py      # about 25 minutes

Clones the repository's HEAD into a temporary folder (``git clone -q``) and
runs ``CI=true bash .ci/run`` there, which builds every environment from the
package registries and runs `make test`, every layer, skipping none. `make
test` prints ``make test: LAYER took N s`` after each layer; this script reads
those lines. The target is CI's budget: 30 minutes for the whole clean-clone
run. Nothing is asserted. The log goes to ``_build/bench/ci.log``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import OUT_DIR, ROOT, markdown_for, row, section, timed  # noqa: E402

TARGET_S = 30 * 60
LAYER = re.compile(r"^make test: (?P<layer>.+?) took (?P<seconds>\d+) s$", re.M)


def measure(timeout: int = 3 * 3600) -> dict:
    """Run CI on a clean clone of HEAD; {"seconds", "layers": {layer: seconds}, "passed", "log"}."""
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="bench-ci-"))
    clone = folder / "clone"
    try:
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        started = time.perf_counter()
        done = subprocess.run(["bash", ".ci/run"], cwd=clone, env=dict(os.environ, CI="true"), text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        seconds = time.perf_counter() - started
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    (OUT_DIR / "ci.log").write_text(done.stdout)
    layers = {m["layer"]: int(m["seconds"]) for m in LAYER.finditer(done.stdout)}
    return {"seconds": seconds, "layers": layers, "passed": done.returncode == 0}


@timed
def run() -> dict:
    """The benchmark as a part of benchmarks/RESULTS.md (see run.py)."""
    m = measure()
    rows = [row("`make test` on a clean clone (CI=true bash .ci/run), wall time", m["seconds"],
                f"{m['seconds'] / 60:.1f} min" + ("" if m["passed"] else " (it FAILED: see _build/bench/ci.log)"),
                "≤ 30 min", m["seconds"] <= TARGET_S and m["passed"],
                "" if m["seconds"] <= TARGET_S else "the layers' seconds below show where the time goes")]
    rows += [row(f"layer `{layer}`", seconds, f"{seconds} s") for layer, seconds in m["layers"].items()]
    return {"title": "CI on a clean clone", "sections": [section("a. `make test` as CI runs it", rows, [
        "A clean clone of HEAD, every environment built from the package registries, every layer run "
        "(CI=true: none skipped). The layers' seconds are those `make test` prints."])]}


to_markdown = markdown_for("CI benchmark", digits=0)


if __name__ == "__main__":
    result = run()
    print(to_markdown(result))
