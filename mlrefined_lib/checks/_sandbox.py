"""The operating-system wall around a student's code while the course grades it.

The isolated grader (:mod:`._isolated`) starts the process that runs a
student's cells through :class:`Sandbox`, which wraps the command in
bubblewrap (``bwrap``, Debian's package ``bubblewrap``, the sandbox Flatpak
uses). Inside, the process

* runs as another, unprivileged user: as root, a user id of its own
  (``600000 + n``, one per sandbox running at the same time, so that the
  process limit of one sandbox is not shared with another), reached through
  ``setpriv`` with every capability dropped and ``no_new_privs`` set; as any
  other user, ``nobody`` in a user namespace of its own;
* has its own mount namespace, holding read-only ``/usr``, the Python
  installation and environment that grade, and a copy of this library made
  for the sandbox (:func:`library_copy`: the checks' reference answers left
  out, and the functions an exercise rules out replaced by stubs that raise),
  plus a home folder (holding the submission's own files, read-only), a
  private ``/tmp`` and ``/dev/shm``, writable folders in memory of a bounded
  size (``Limits.disk_bytes``), gone with the sandbox. Nothing else of the
  course exists there: no ``source/``, no
  ``gradebook.db``, no ``nbgrader_config.py``, no other submission;
* has no network (a network namespace with nothing in it), its own process
  namespace (no process of the grader can be seen, read or signalled), its
  own IPC and host name, and a session of its own (no terminal to write into);
* runs under limits of CPU time, memory (address space), processes, open
  files and file size (:class:`Limits`), and is killed with everything it
  started when the grader kills the sandbox (``--die-with-parent``; the
  process namespace ends with its first process).

:func:`availability` says whether a sandbox can start on this machine, and
why not when it cannot; the grader then refuses to grade unless told to
grade without one.
"""

from __future__ import annotations

import ast
import atexit
import contextlib
import fcntl
import importlib.util
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Limits", "Sandbox", "SandboxUnavailable", "availability", "library_copy"]

HOME = "/home/student"          # the sandbox's home folder and working directory
PACKAGE = __name__.split(".")[0]  # "mlrefined_lib"
_UID_BASE = 600000
_UID_SLOTS = 4096


class SandboxUnavailable(RuntimeError):
    """No sandbox can start here; the message says why and what the machine needs."""


@dataclass(frozen=True)
class Limits:
    """What one sandboxed process (and everything it starts) may use."""

    cpu_seconds: int = 660
    memory_bytes: int = 6 << 30      # address space of each process
    disk_bytes: int = 512 << 20      # each of its writable folders (home, /tmp, /dev/shm: in memory)
    processes: int = 64              # processes and threads of the sandbox's user
    open_files: int = 256
    file_bytes: int = 256 << 20      # the largest file it may write


def _bwrap() -> str | None:
    """The bubblewrap program (``MLREFINED_BWRAP`` names another, as the tests do to see a machine without one)."""
    if "MLREFINED_BWRAP" in os.environ:
        path = os.environ["MLREFINED_BWRAP"]
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    return shutil.which("bwrap") or (os.path.exists("/usr/bin/bwrap") and "/usr/bin/bwrap") or None


def _setpriv() -> str | None:
    return shutil.which("setpriv") or (os.path.exists("/usr/bin/setpriv") and "/usr/bin/setpriv") or None


def _package_dir() -> Path:
    return Path(importlib.util.find_spec(PACKAGE).submodule_search_locations[0]).resolve()


def _data_dir() -> Path | None:
    """Where the library's datasets live, if outside the package (in a clone, ``datasets/``)."""
    from ..datasets import data_dir

    try:
        path = data_dir().resolve()
    except FileNotFoundError:
        return None
    return None if path.is_relative_to(_package_dir()) else path


class Sandbox:
    """One sandbox: its home and ``/tmp`` folders on disk, its user id, its command line.

    ``library`` is the folder bound over the library's package inside (a :func:`library_copy`);
    ``files`` a folder whose files are copied into the home folder (the submission's own).
    """

    def __init__(self, *, library: Path, limits: Limits = Limits(), files: str | os.PathLike | None = None,
                 python: str | None = None):
        self.limits, self.library = limits, Path(library)
        self.python = python or sys.executable
        self.root = Path(tempfile.mkdtemp(prefix="sandbox-"))
        self.files = self.root / "files"          # the submission's files, read-only inside the home folder
        if files is not None and Path(files).is_dir():
            shutil.copytree(files, self.files, symlinks=True, ignore=_not_copied)
            for path in list(self.files.rglob("*")):       # a link could lead to any file of the machine
                if path.is_symlink():
                    path.unlink()
        self.files.mkdir(exist_ok=True)
        os.chmod(self.root, 0o755)
        for path in [self.files, *self.files.rglob("*")]:
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
        self._slot = None
        self.uid = None
        self.cgroups: list[Path] = []
        if os.geteuid() == 0:
            self._slot, self.uid = _claim_uid()
            self.cgroups = _make_cgroups(f"mlrefined-sandbox-{self.uid}", limits)

    def command(self, argv: list[str]) -> list[str]:
        """``argv`` (a program inside the sandbox and its arguments) wrapped in bubblewrap."""
        bwrap = _bwrap()
        if bwrap is None:
            raise SandboxUnavailable("bubblewrap (`bwrap`) is not installed")
        args = [bwrap, "--die-with-parent", "--new-session", "--unshare-ipc", "--unshare-pid", "--unshare-net",
                "--unshare-uts", "--unshare-cgroup-try", "--hostname", "sandbox"]
        if self.uid is None:
            args += ["--unshare-user", "--uid", "65534", "--gid", "65534"]
        args += ["--proc", "/proc", "--dev", "/dev"]
        args += ["--perms", "0755", "--dir", "/home"]
        for folder in ("/tmp", "/dev/shm", HOME):     # writable, in memory, of a bounded size
            args += ["--perms", "1777", "--size", str(self.limits.disk_bytes), "--tmpfs", folder]
        made = {"/", "/dev", "/proc", "/tmp", "/dev/shm", "/home", HOME}
        for source, target, mode in self._binds():
            for parent in reversed(Path(target).parents):
                if str(parent) not in made:
                    args += ["--perms", "0755", "--dir", str(parent)]
                    made.add(str(parent))
            made.add(target)
            if mode == "symlink":
                args += ["--symlink", source, target]
            else:
                args += ["--ro-bind" if mode == "ro" else "--bind", source, target]
        args += ["--chdir", HOME, "--"]
        if self.uid is not None:
            setpriv = _setpriv()
            if setpriv is None:
                raise SandboxUnavailable("`setpriv` (util-linux) is not installed")
            args += [setpriv, f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups", "--no-new-privs",
                     "--inh-caps=-all", "--bounding-set=-all", "--"]
        return args + list(argv)

    def _binds(self) -> list[tuple[str, str, str]]:
        binds = [("/usr", "/usr", "ro")]
        for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
            path = Path("/") / name
            if path.is_symlink():
                binds.append((os.readlink(path), str(path), "symlink"))
            elif path.is_dir():
                binds.append((str(path), str(path), "ro"))
        python = {Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve(),
                  Path(self.python).resolve().parent.parent, Path(os.path.abspath(self.python)).parent.parent}
        python = {p for p in python if not p.is_relative_to("/usr")}
        for path in sorted(python, key=lambda p: len(p.parts)):
            if not any(path.is_relative_to(b[1]) for b in binds if b[2] == "ro"):
                binds.append((str(path), str(path), "ro"))
        binds.append((str(self.library), str(_package_dir()), "ro"))
        data = _data_dir()
        if data is not None:
            binds.append((str(data), str(data), "ro"))
        for path in sorted(self.files.iterdir()):      # the submission's own files, read-only, in the home folder
            binds.append((str(path), f"{HOME}/{path.name}", "ro"))
        return binds

    def environment(self, extra: dict | None = None) -> dict:
        env = {"PATH": "/usr/bin:/bin", "HOME": HOME, "TMPDIR": "/tmp", "LANG": "C.UTF-8",
               "MPLCONFIGDIR": "/tmp", "IPYTHONDIR": "/tmp/ipython", "PYTHONDONTWRITEBYTECODE": "1",
               "PYTHONHASHSEED": "0"}
        for key in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):    # one thread unless set
            env[key] = os.environ.get(key, "1")
        if "OPENBLAS_CORETYPE" in os.environ:
            env["OPENBLAS_CORETYPE"] = os.environ["OPENBLAS_CORETYPE"]
        env.update(extra or {})
        return env

    def limit(self) -> None:
        """Set the limits (run in the child just before bubblewrap starts; everything inside inherits them).

        Where the machine offers control groups (as root), the child also joins the sandbox's own: its
        memory (the in-memory folders included) and its processes are then capped for the whole
        sandbox, not only for each process.
        """
        for group in self.cgroups:
            (group / "cgroup.procs").write_text(str(os.getpid()))
        limits = self.limits
        for kind, value in ((resource.RLIMIT_CPU, limits.cpu_seconds), (resource.RLIMIT_AS, limits.memory_bytes),
                            (resource.RLIMIT_NPROC, limits.processes), (resource.RLIMIT_NOFILE, limits.open_files),
                            (resource.RLIMIT_FSIZE, limits.file_bytes), (resource.RLIMIT_CORE, 0)):
            resource.setrlimit(kind, (value, value))

    def close(self) -> None:
        """End every process of the sandbox's user, remove the copy of the submission's files; free the user id.

        The grader kills the sandbox's first process before this; the kernel then ends the rest of its
        process namespace, which takes a moment. The user id is given to another sandbox only when
        no process of it is left (as root: any still alive after a moment is killed here).
        """
        if self.uid is not None:
            _end_processes_of(self.uid)
        for group in self.cgroups:
            _remove_cgroup(group)
        self.cgroups = []
        try:
            shutil.rmtree(self.root, ignore_errors=True)
        except RecursionError:  # pragma: no cover - the folder is the grader's own copy
            subprocess.run(["rm", "-rf", "--one-file-system", str(self.root)], check=False)
        finally:
            if self._slot is not None:
                with contextlib.suppress(OSError):
                    self._slot.close()
                self._slot = None


def _make_cgroups(name: str, limits: Limits) -> list[Path]:
    """Control groups (cgroup v1 ``memory`` and ``pids``, or v2) capping a whole sandbox; [] where none can be made."""
    made = []
    try:
        own = {}
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for controller in controllers.split(","):
                own[controller] = path
        v1 = [("memory", "memory.limit_in_bytes", limits.memory_bytes), ("pids", "pids.max", limits.processes)]
        if all(Path("/sys/fs/cgroup", c).is_dir() and c in own for c, *_ in v1):
            for controller, limit_file, value in v1:
                group = Path("/sys/fs/cgroup", controller, own[controller].lstrip("/"), name)
                group.mkdir(exist_ok=True)
                made.append(group)
                (group / limit_file).write_text(str(value))
        elif (Path("/sys/fs/cgroup/cgroup.controllers").is_file() and "" in own
              and {"memory", "pids"} <= set(Path("/sys/fs/cgroup/cgroup.controllers").read_text().split())):
            group = Path("/sys/fs/cgroup", own[""].lstrip("/"), name)
            group.mkdir(exist_ok=True)
            made.append(group)
            (group / "memory.max").write_text(str(limits.memory_bytes))
            (group / "memory.swap.max").write_text("0")
            (group / "pids.max").write_text(str(limits.processes))
        return made
    except (OSError, ValueError):
        for group in made:
            with contextlib.suppress(OSError):
                group.rmdir()
        return []


def _remove_cgroup(group: Path, seconds: float = 10.0) -> None:
    """Remove a sandbox's control group once it is empty (its last processes, bubblewrap's own among
    them, may take a moment to end; any still listed after a moment is killed)."""
    import signal
    import time

    deadline, tries = time.monotonic() + seconds, 0
    while time.monotonic() < deadline:
        try:
            group.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            tries += 1
            if tries >= 10:
                with contextlib.suppress(OSError, ValueError):
                    for pid in (group / "cgroup.procs").read_text().split():
                        with contextlib.suppress(OSError):
                            os.kill(int(pid), signal.SIGKILL)
            time.sleep(0.05)


def _process_uids() -> dict[int, int]:
    """Every live process's real user id, by pid (a process that ends while it is read is left out)."""
    found = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            line = next(line for line in status.read_text().splitlines() if line.startswith("Uid:"))
            found[int(status.parent.name)] = int(line.split()[1])
        except (OSError, StopIteration, ValueError):
            continue
    return found


def _processes_of(uid: int) -> list[int]:
    """The pids of ``uid``'s live processes."""
    return [pid for pid, owner in _process_uids().items() if owner == uid]


def _sandbox_processes() -> dict[int, int]:
    """Live processes of any sandbox user id, as {pid: uid}."""
    return {pid: uid for pid, uid in _process_uids().items() if _UID_BASE <= uid < _UID_BASE + _UID_SLOTS}


def _end_processes_of(uid: int, seconds: float = 10.0) -> None:
    """Wait until no process of ``uid`` is left, killing those still there after a moment."""
    import signal
    import time

    deadline = time.monotonic() + seconds
    waited = 0
    while time.monotonic() < deadline:
        left = _processes_of(uid)
        if not left:
            return
        if waited >= 4:
            for pid in left:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)
        waited += 1


def _not_copied(folder: str, names: list[str]) -> list[str]:
    """Notebooks (the child gets cells, not files), checkpoints and links are not copied into a sandbox."""
    return [n for n in names if n.endswith(".ipynb") or n == ".ipynb_checkpoints"
            or os.path.islink(os.path.join(folder, n))]


def _claim_uid():
    """A user id no other sandbox on this machine uses now (held by a lock until the sandbox closes)."""
    folder = Path(tempfile.gettempdir()) / "mlrefined-sandbox-uids"
    folder.mkdir(mode=0o700, exist_ok=True)
    for slot in range(_UID_SLOTS):
        handle = open(folder / f"{slot}.lock", "a")     # noqa: SIM115 - held until the sandbox closes
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            continue
        return handle, _UID_BASE + slot
    raise SandboxUnavailable(f"all {_UID_SLOTS} sandbox user ids are in use")


_AVAILABLE: dict[str, tuple[bool, str]] = {}


def availability(python: str | None = None) -> tuple[bool, str]:
    """(whether a sandbox starts here, why not): a trial run of ``python -I -c pass`` inside one."""
    python = python or sys.executable
    if python in _AVAILABLE:
        return _AVAILABLE[python]
    if not sys.platform.startswith("linux"):
        result = (False, f"the sandbox needs Linux (this is {sys.platform})")
    elif _bwrap() is None:
        result = (False, "bubblewrap is not installed (Debian and Ubuntu: `apt-get install bubblewrap`)")
    elif os.geteuid() == 0 and _setpriv() is None:
        result = (False, "`setpriv` (util-linux) is not installed")
    else:
        box = Sandbox(library=_package_dir(), python=python)
        try:
            done = subprocess.run(box.command([python, "-I", "-c", f"import numpy, {PACKAGE}.checks._child"]),
                                  env=box.environment(),
                                  preexec_fn=box.limit, capture_output=True, text=True, timeout=120)
            if done.returncode == 0:
                result = (True, "")
            else:
                why = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
                hint = "" if os.geteuid() == 0 else \
                    " (as a user other than root, bubblewrap needs unprivileged user namespaces)"
                result = (False, f"bubblewrap could not start a sandbox: {why[0]}{hint}")
        except (OSError, subprocess.SubprocessError, SandboxUnavailable) as error:
            result = (False, f"bubblewrap could not start a sandbox: {error}")
        finally:
            box.close()
    _AVAILABLE[python] = result
    return result


# ------------------------------------------------------------------ the library the sandbox sees

_COPIES: dict[frozenset, Path] = {}
_RULED_OUT = '''"""Stubs of the library functions an exercise rules out (written by checks/_sandbox.py)."""

CALLS = []


class RuledOut(Exception):
    """A ruled-out library function was called."""


def ruled_out(name):
    CALLS.append(name)
    raise RuledOut(f"the library's `{name}` is ruled out in this exercise: write that step yourself.")
'''
_CHECKS_INIT = '''"""The checks run in the grader's process; in the grading sandbox only their error type is here."""

from ._grading import CheckFailed

__all__ = ["CheckFailed"]
'''
# The checks' modules that the sandbox keeps: the child, the tagged JSON it speaks, the error type.
_CHECKS_KEPT = {"__init__.py", "_child.py", "_isolated.py", "_grading.py", "_outputs.py", "_sandbox.py"}


def library_copy(forbids=()) -> Path:
    """A copy of the library's package for the sandbox: no reference answers, ``forbids`` stubbed.

    The checks' chapter modules and their reference computations are left out (the checks run in
    the grader). Every function named in ``forbids``, wherever the library defines it, and every
    private class that such a function builds (``least_squares`` returns a ``_LeastSquares``), has
    its body replaced by a call to ``_ruled_out.ruled_out(name)``: the real code exists nowhere in
    the sandbox, so no reference kept, no name built at run time and no helper of the library reaches it.
    Copies are made once per set of names and removed when this process exits.
    """
    key = frozenset(forbids)
    if key in _COPIES and _COPIES[key].exists():
        return _COPIES[key]
    source = _package_dir()
    root = Path(tempfile.mkdtemp(prefix="graded-library-"))
    os.chmod(root, 0o755)
    atexit.register(shutil.rmtree, root, True)
    target = root / PACKAGE
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    checks = target / "checks"
    for path in checks.iterdir():
        if path.name not in _CHECKS_KEPT:
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    (checks / "__init__.py").write_text(_CHECKS_INIT)
    (target / "_ruled_out.py").write_text(_RULED_OUT)
    found = set()
    for path in sorted(target.rglob("*.py")):
        if key and checks not in path.parents:
            text = path.read_text()
            if any(name in text for name in key):
                patched, names = _stub(text, key)
                if names:
                    path.write_text(patched)
                    found |= names
    missing = key - found
    if missing:
        raise ValueError(f"the library defines no function named {sorted(missing)} to rule out")
    for path in [root, *root.rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    _COPIES[key] = root / PACKAGE
    return _COPIES[key]


def _stub(text: str, forbids: frozenset) -> tuple[str, set]:
    """``text`` (a module's source) with the ruled-out functions' bodies (and their private classes') replaced."""
    tree = ast.parse(text)
    stubbed, owner = set(), {}
    defined_classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in forbids:
            for call in ast.walk(node):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                        and call.func.id.startswith("_") and call.func.id in defined_classes:
                    owner.setdefault(call.func.id, node.name)
    body = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in forbids:
            body.append(_stub_function(node.name, node.name))
            stubbed.add(node.name)
        elif isinstance(node, ast.ClassDef) and node.name in owner:
            stub = ast.parse(f"class {node.name}:\n    pass\n").body[0]
            stub.body = [_stub_function("__new__", owner[node.name]), _stub_function("__init__", owner[node.name])]
            body.append(stub)
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in forbids for t in node.targets):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id in forbids:
                    body.append(_stub_function(target.id, target.id))
                    stubbed.add(target.id)
        else:
            body.append(node)
    if not stubbed:
        return text, set()
    tree.body = body
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n", stubbed


def _stub_function(name: str, ruled: str) -> ast.FunctionDef:
    return ast.parse(f"def {name}(*args, **kwargs):\n"
                     f"    __import__({PACKAGE + '._ruled_out'!r}, fromlist=['ruled_out']).ruled_out({ruled!r})\n"
                     ).body[0]
