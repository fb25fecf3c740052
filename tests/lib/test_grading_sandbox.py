"""The grading sandbox (mlrefined_lib/checks/_sandbox.py) and the grader's channel to it (_isolated.py).

The sandbox needs Linux and bubblewrap (`make test` installs Debian's
`bubblewrap` as root). Where none can start, the sandbox tests are skipped
with the reason, except under CI (CI=true), where they fail.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from mlrefined_lib.checks import _isolated, _sandbox
from mlrefined_lib.checks._grading import REGISTRY
from mlrefined_lib.checks._grading import CheckFailed
from mlrefined_lib.checks._isolated import ChildGone, IsolatedNotebook, ProtocolError, _Channel, grade_notebook

ROOT = Path(__file__).resolve().parents[2]


def needs_sandbox():
    usable, why = _sandbox.availability()
    if not usable:
        if os.environ.get("CI"):
            pytest.fail(f"no grading sandbox can start here: {why}")
        pytest.skip(f"SKIPPED: no grading sandbox can start here: {why}")


# ------------------------------------------------------------------ the channel


def test_a_message_longer_than_the_bound_is_refused_before_it_is_parsed():
    read_fd, write_fd = os.pipe()
    channel = _Channel(read_fd, os.open(os.devnull, os.O_WRONLY), deadline=time.monotonic() + 30)

    def flood():
        block = b"x" * (1 << 20)
        try:
            for _ in range((_isolated.MAX_MESSAGE >> 20) + 8):
                os.write(write_fd, block)
        except OSError:
            pass

    writer = threading.Thread(target=flood)
    writer.start()
    with pytest.raises(ProtocolError, match="longer than"):
        channel.receive()
    os.close(read_fd)
    writer.join()
    os.close(write_fd)
    assert len(channel.buffer) <= _isolated.MAX_MESSAGE + (1 << 20)


def test_messages_beyond_the_total_bound_are_refused(monkeypatch):
    monkeypatch.setattr(_isolated, "MAX_TOTAL", 10_000)
    read_fd, write_fd = os.pipe()
    channel = _Channel(read_fd, os.open(os.devnull, os.O_WRONLY), deadline=time.monotonic() + 30)
    os.write(write_fd, b'{"op":"x"}\n' * 2000)
    with pytest.raises(ProtocolError, match="add up to more than"):
        for _ in range(2000):
            channel.receive()
    os.close(read_fd)
    os.close(write_fd)


def test_a_reader_that_never_reads_costs_the_deadline_not_forever():
    read_fd, write_fd = os.pipe()
    channel = _Channel(os.open(os.devnull, os.O_RDONLY), write_fd, deadline=time.monotonic() + 1.0)
    started = time.monotonic()
    with pytest.raises(ChildGone, match="time limit"):
        channel.send({"op": "run", "code": "x" * (4 << 20)})    # far more than a pipe holds
    assert time.monotonic() - started < 10
    os.close(read_fd)
    os.close(write_fd)


@pytest.mark.parametrize("line", [b"[1, 2]\n", b"{\"op\": 3}\n", b"NaN\n", b"\xff\xfe\n", b"{" * 100000 + b"\n"])
def test_malformed_messages_are_protocol_errors(line):
    read_fd, write_fd = os.pipe()
    channel = _Channel(read_fd, os.open(os.devnull, os.O_WRONLY), deadline=time.monotonic() + 10)
    threading.Thread(target=lambda: (os.write(write_fd, line), os.close(write_fd))).start()
    with pytest.raises(ProtocolError):
        channel.receive()
    os.close(read_fd)


def test_the_grader_builds_no_library_object_from_the_childs_data():
    """A cost sent by the child would be built here at a size the child chooses (its Hessian is N x N)."""
    from mlrefined_lib import costs

    message = _isolated.encode(costs.least_squares(__import__("numpy").zeros((1, 3)), __import__("numpy").zeros(1)))
    assert message["t"] == "cost"
    with pytest.raises(ProtocolError, match="library object"):
        _isolated.decode({"t": "list", "v": [message]}, costs=False)
    assert isinstance(_isolated.decode(message), costs.Cost)      # the child may build what the grader sent


# ------------------------------------------------------------------ the library the sandbox sees


def test_every_ruled_out_function_is_a_stub_in_the_sandbox_copy():
    ruled = {check.forbids for check in REGISTRY.values() if check.forbids}
    assert len(ruled) >= 15
    for forbids in ruled:
        copy = _sandbox.library_copy(forbids)
        text = "\n".join(path.read_text() for path in copy.rglob("*.py"))
        for name in forbids:
            assert f"def {name}(*args, **kwargs):" in text, name
            assert f"ruled_out({name!r})" in text, name
        assert sorted(p.name for p in (copy / "checks").iterdir()) == sorted(_sandbox._CHECKS_KEPT)
    # the package itself is untouched
    assert "def least_squares(x, y)" in (ROOT / "mlrefined_lib" / "costs.py").read_text()


def test_a_misspelt_ruled_out_name_is_an_error():
    with pytest.raises(ValueError, match="no function named"):
        _sandbox.library_copy(("least_squaress",))


# ------------------------------------------------------------------ the sandbox itself

PROBE = r"""
import json, os, resource, socket, sys
report = {"uid": os.getuid(), "cwd": os.getcwd(), "pids": sorted(p for p in os.listdir("/proc") if p.isdigit()),
          "root": sorted(os.listdir("/")), "clone": os.path.exists(sys.argv[1]), "secret": os.path.exists(sys.argv[2])}
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[3])), timeout=2)
    report["network"] = True
except OSError:
    report["network"] = False
report["limits"] = {name: resource.getrlimit(getattr(resource, name))[0]
                    for name in ("RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_NPROC", "RLIMIT_NOFILE", "RLIMIT_FSIZE")}
try:
    with open("/tmp/big", "wb") as handle:
        handle.write(b"x" * (int(sys.argv[4]) + 1))
    report["big_file"] = True
except OSError:
    report["big_file"] = False
import mlrefined_lib
try:
    mlrefined_lib.least_squares
    mlrefined_lib.least_squares(1, 2)
    report["ruled_out"] = "ran"
except Exception as error:
    report["ruled_out"] = type(error).__name__
print(json.dumps(report))
"""


def test_the_sandbox_sees_nothing_of_the_course_and_runs_under_limits(tmp_path):
    needs_sandbox()
    secret = tmp_path / "gradebook.db"
    secret.write_text("grades")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    limits = _sandbox.Limits(cpu_seconds=60, file_bytes=1 << 20)
    box = _sandbox.Sandbox(library=_sandbox.library_copy(("least_squares",)), limits=limits)
    try:
        command = box.command([sys.executable, "-I", "-c", PROBE, str(ROOT / "chapters"), str(secret),
                               str(server.getsockname()[1]), str(limits.file_bytes)])
        done = subprocess.run(command, env=box.environment(), preexec_fn=box.limit, capture_output=True, text=True,
                              timeout=120)
    finally:
        box.close()
        server.close()
    assert done.returncode == 0, done.stderr[-3000:]
    import json

    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["uid"] not in (0, os.getuid())
    assert report["cwd"] == _sandbox.HOME
    assert not report["clone"] and not report["secret"], report
    assert len(report["pids"]) <= 3, report["pids"]          # its own process namespace
    assert not report["network"]
    assert report["limits"] == {"RLIMIT_CPU": 60, "RLIMIT_AS": limits.memory_bytes, "RLIMIT_NPROC": limits.processes,
                                "RLIMIT_NOFILE": limits.open_files, "RLIMIT_FSIZE": limits.file_bytes}
    assert not report["big_file"]
    assert report["ruled_out"] == "RuledOut"


HOG = r"""
import os, select
ready_r, ready_w = os.pipe()     # each child says it holds its memory
go_r, go_w = os.pipe()           # then waits until all three hold theirs at once
children = []
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        block = bytearray(400 << 20)
        block[::4096] = b"x" * len(block[::4096])        # touch every page
        os.write(ready_w, b"x")
        os.read(go_r, 1)
        os._exit(0)
    children.append(pid)
held = 0
while held < 3 and select.select([ready_r], [], [], 8)[0]:
    held += len(os.read(ready_r, 3))
os.write(go_w, b"xxx")
done = 0
for pid in children:
    _, status = os.waitpid(pid, 0)
    done += os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
print(done)
"""


def test_a_sandbox_s_memory_is_capped_as_a_whole_not_per_process():
    """Three processes of 400 MB each, under a 700 MB limit: each alone fits, together they do not."""
    needs_sandbox()
    limits = _sandbox.Limits(cpu_seconds=60, memory_bytes=700 << 20)
    box = _sandbox.Sandbox(library=_sandbox.library_copy(()), limits=limits)
    try:
        if not box.cgroups:
            if os.environ.get("CI"):
                pytest.fail("no control group could be made for the sandbox")
            pytest.skip("SKIPPED: this machine offers no control groups to the grader; memory is capped per process")
        groups = list(box.cgroups)
        done = subprocess.run(box.command([sys.executable, "-I", "-c", HOG]), env=box.environment(),
                              preexec_fn=box.limit, capture_output=True, text=True, timeout=120)
    finally:
        box.close()
    finished = int(done.stdout.strip() or 0) if done.returncode == 0 else 0
    assert finished < 3, (done.returncode, done.stdout, done.stderr[-500:])
    assert groups and all(not group.exists() for group in groups)


def _cells(*sources: str) -> list[dict]:
    return [{"cell_type": "code", "source": s, "metadata": {}} for s in sources]


GRADIENT = ("import numpy as np\n\ndef least_squares_gradient(x, y, w):\n"
            "    x_ext = np.column_stack([np.ones(len(x)), x])\n    return 2 / len(x) * x_ext.T @ (x_ext @ w - y)\n")
CHECK = "from mlrefined_lib import checks\nchecks.check_least_squares_gradient(least_squares_gradient)"


def test_a_hang_costs_its_notebook_the_time_limit_and_leaves_nothing_running():
    needs_sandbox()
    if os.geteuid() != 0:
        pytest.skip("SKIPPED: the sandbox's own user ids exist only when the grader runs as root")
    started = time.monotonic()
    hang = ("import gc, os, time\nfor thing in gc.get_objects():\n"     # the child's own guard emptied first
            "    if isinstance(thing, set) and 'os.fork' in thing:\n        thing.clear()\n"
            "for _ in range(3):\n    os.fork()\ntime.sleep(1000)")
    child = IsolatedNotebook(timeout=8)
    uid = child.box.uid
    try:
        with pytest.raises(CheckFailed, match="time limit"):
            child.run(GRADIENT + "\n" + hang)
        assert len(_sandbox._processes_of(uid)) >= 4          # the child and its three forks ran as the sandbox's user
    finally:
        child.close()
    assert time.monotonic() - started < 60
    assert not _sandbox._processes_of(uid)          # close() returns only when every process of the sandbox is gone
    # the next notebook is graded as usual
    (verdict,) = grade_notebook(_cells(GRADIENT, CHECK), timeout=60).values()
    assert verdict["passed"], verdict


def test_a_flood_on_the_channel_fails_that_notebook_only():
    needs_sandbox()
    flood = "import os\nfor fd in range(3, 40):\n    try:\n        os.write(fd, b'x' * (100 << 20))\n    except OSError:\n        pass\n"
    (verdict,) = grade_notebook(_cells(GRADIENT, flood, CHECK), timeout=60).values()
    assert not verdict["passed"] and "longer than" in verdict["error"][1], verdict
    (verdict,) = grade_notebook(_cells(GRADIENT, CHECK), timeout=60).values()
    assert verdict["passed"], verdict


def test_a_flood_of_warnings_costs_the_grader_little():
    """The child's own channel code replaced: every reply carries 200,000 warnings."""
    needs_sandbox()
    bomb = ("import mlrefined_lib.checks._isolated as _iso\n_send = _iso._Channel.send\n"
            "def _flood(self, message, _send=_send):\n"
            "    if message.get('op') == 'return':\n"
            "        message['warnings'] = [{'type': f'W{i}', 'base': 'Warning', 'message': 'x' * 50}\n"
            "                               for i in range(200000)]\n"
            "    return _send(self, message)\n_iso._Channel.send = _flood\n")
    started = time.monotonic()
    (verdict,) = grade_notebook(_cells(GRADIENT, bomb, CHECK), timeout=120).values()
    assert verdict["passed"], verdict
    assert time.monotonic() - started < 60
    assert _isolated._exception_class.cache_info().currsize <= 256


def test_outputs_come_back_checked():
    needs_sandbox()
    outputs = {}
    grade_notebook(_cells("print('hello')", "1/0", "import matplotlib.pyplot as plt\nplt.plot([1, 2])"),
                   timeout=60, outputs=outputs)
    assert outputs[0] == [{"type": "stream", "name": "stdout", "text": "hello\n"}]
    assert outputs[1][-1]["type"] == "error" and outputs[1][-1]["ename"] == "ZeroDivisionError"
    assert any(o["type"] == "image" for o in outputs[2])
    assert _isolated.clean_outputs([{"type": "image", "png": "bm90IGEgcG5n"}, {"type": "html", "text": "<script>"},
                                    "x", {"type": "stream", "name": "stdin", "text": "x"}]) == []
