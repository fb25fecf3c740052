"""Grading that does not trust the student's code: the checks run here, the student's cells in a sandbox.

The nbgrader course (``tools/nbgrader_export.py``, :mod:`._nbgrader`) grades with
:func:`grade_notebook`. This process imported the library and the checks before
any student code existed. The student's notebook (every code cell but the check
calls) runs in a child process behind an operating-system wall (:mod:`._sandbox`),
with a time limit; the child's own audit hook only makes honest mistakes fail
early (it lives in the student's process and is no wall). For each check call,
this process evaluates the call's arguments in the child (a literal is read
here), then runs the registered check itself. The student's function that the
check receives is a :class:`Remote`: each call sends its arguments to the child
as tagged JSON (numbers, strings, lists, tuples, dicts, NumPy arrays and
scalars, pandas Series and DataFrames; a function among the arguments becomes a
call-back), and the child returns tagged JSON only, over a channel bounded in
time and in bytes, parsed strictly into plain objects made here: no pickle, no
class of the student's, no object whose comparisons could lie. An error raised
in the student's function comes back as its type's name, the nearest built-in
exception class and its message, so the checks' hints read as in the book.
Arguments the student's function changed in place are written back.

Whatever the student's code does inside the child cannot change what the checks
here compute or decide; whatever it sends costs at most its own notebook's
points. The library functions that an exercise rules out (``forbids`` of
:func:`graded`) are looked for in the source of the exercise's solution cells
here, and that exercise's check is graded in a child whose library has them
replaced by stubs from the start (:func:`._sandbox.library_copy`).
"""

from __future__ import annotations

import ast
import base64
import builtins
import contextlib
import functools
import io
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable

import numpy as np

from ._grading import REGISTRY, CheckFailed
from ._outputs import clean_outputs
from ._sandbox import HOME, Limits, Sandbox, library_copy

__all__ = ["grade_notebook", "IsolatedNotebook", "Remote", "encode", "decode", "check_calls", "forbidden_uses"]

# Imported here, before any student code runs, because the checks import them when they run.
_LATE_IMPORTS = ("pandas", "sklearn.preprocessing", "sklearn.neighbors", "scipy.stats", "datetime", "math")
_CHILD = __name__.rsplit(".", 1)[0] + "._child"      # the module the child runs
if getattr(getattr(sys.modules.get("__main__"), "__spec__", None), "name", None) != _CHILD:
    for _name in _LATE_IMPORTS:
        try:
            __import__(_name)
        except ImportError:  # pragma: no cover - every one is a dependency of the book
            pass

MAX_DEPTH = 64
MAX_MESSAGE = 32 << 20        # bytes of one message from the child
MAX_TOTAL = 1 << 30           # bytes of all the messages of one child
MAX_WARNINGS = 20             # warnings of one call of the student's function that the check sees
_DTYPE = re.compile(r"^[<>|=]?[biufcmMU]\d+(\[[a-zA-Z0-9]+\])?$")
_INT = re.compile(r"^-?\d+$")


class ProtocolError(Exception):
    """The child sent something that is not a well-formed message."""


class ChildGone(Exception):
    """The child exited or ran out of time."""


# ------------------------------------------------------------------ tagged JSON


def encode(value, register: Callable | None = None, depth: int = 0):
    """``value`` as tagged JSON; callables become ``{"t": "callable"}`` through ``register`` (their id)."""
    if depth > MAX_DEPTH:
        raise ValueError("the value is nested too deeply")
    if value is None:
        return {"t": "none"}
    if isinstance(value, bool):
        return {"t": "bool", "v": bool(value)}
    if isinstance(value, int):
        return {"t": "int", "v": str(int(value))}
    if isinstance(value, float):
        return {"t": "float", "v": float(value).hex()}
    if isinstance(value, str):
        return {"t": "str", "v": str(value)}
    if isinstance(value, np.ndarray):
        return _encode_array(np.asarray(value), register, depth)
    if isinstance(value, np.generic):
        array = np.asarray(value)
        if array.dtype.kind not in "biufcmMU":
            return encode(value.item(), register, depth + 1)
        return {"t": "scalar", "dtype": array.dtype.str, "v": base64.b64encode(array.tobytes()).decode()}
    if isinstance(value, (list, tuple)):
        return {"t": "tuple" if isinstance(value, tuple) else "list",
                "v": [encode(item, register, depth + 1) for item in value]}
    if isinstance(value, dict):
        return {"t": "dict", "v": [[encode(k, register, depth + 1), encode(v, register, depth + 1)]
                                   for k, v in value.items()]}
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(value, pandas.Series):
        return {"t": "series", "v": encode(value.to_numpy(), register, depth + 1),
                "index": encode(value.index.to_numpy(), register, depth + 1),
                "name": encode(value.name, register, depth + 1)}
    if pandas is not None and isinstance(value, pandas.DataFrame):
        return {"t": "frame", "columns": [encode(c, register, depth + 1) for c in value.columns],
                "v": [encode(value.iloc[:, i].to_numpy(), register, depth + 1) for i in range(value.shape[1])],
                "index": encode(value.index.to_numpy(), register, depth + 1)}
    if isinstance(value, np.random.Generator):
        return {"t": "generator", "bits": type(value.bit_generator).__name__,
                "state": encode(value.bit_generator.state, None, depth + 1)}
    from ..costs import Cost

    if isinstance(value, Cost):     # a cost of the library (a check passes one): rebuilt from its data there
        return {"t": "cost", "class": type(value).__name__, "x": encode(np.asarray(value.x), None, depth + 1),
                "y": encode(np.asarray(value.y), None, depth + 1)}
    if isinstance(value, (range, set, frozenset)):
        return {"t": "list", "v": [encode(item, register, depth + 1) for item in value]}
    if callable(value) and register is not None:
        return {"t": "callable", "id": register(value), "name": str(getattr(value, "__name__", "function"))}
    return {"t": "other", "type": type(value).__name__}


def _encode_array(array: np.ndarray, register, depth: int) -> dict:
    if array.dtype.kind in "biufcmMU":
        return {"t": "array", "dtype": array.dtype.str, "shape": list(array.shape),
                "v": base64.b64encode(np.ascontiguousarray(array).tobytes()).decode()}
    return {"t": "array", "dtype": "object", "shape": list(array.shape),
            "v": [encode(item, register, depth + 1) for item in array.ravel().tolist()]}


_OTHER_TYPES: dict[str, type] = {}


def _other(name: str):
    """A plain object whose type is named ``name`` (what the student returned, for the checks' messages)."""
    if not name.isidentifier():
        name = "object"
    if name not in _OTHER_TYPES:
        _OTHER_TYPES[name] = type(name, (), {"__module__": "student", "__slots__": ()})
    return _OTHER_TYPES[name]()


def _expect(obj, kind, what):
    if type(obj) is not kind:
        raise ProtocolError(f"{what} should be a {kind.__name__}")
    return obj


def decode(obj, remote: Callable | None = None, depth: int = 0, costs: bool = True):
    """Plain Python, NumPy and pandas objects from tagged JSON; ``remote(id, name)`` makes a call-back.

    ``costs=False`` (what the grader reads from the child) refuses the ``cost`` tag: a library object
    is built only from data the grader sent, never from the child's (its size would be the child's to set).
    """
    if depth > MAX_DEPTH:
        raise ProtocolError("a value is nested too deeply")
    _expect(obj, dict, "a value")
    tag = obj.get("t")
    if tag == "none":
        return None
    if tag == "bool":
        return bool(_expect(obj.get("v"), bool, "a bool"))
    if tag == "int":
        text = _expect(obj.get("v"), str, "an int")
        if not _INT.match(text) or len(text) > 4000:
            raise ProtocolError("malformed int")
        return int(text)
    if tag == "float":
        try:
            return float.fromhex(_expect(obj.get("v"), str, "a float"))
        except ValueError:
            raise ProtocolError("malformed float") from None
    if tag == "str":
        return str(_expect(obj.get("v"), str, "a str"))
    if tag in ("list", "tuple"):
        items = [decode(item, remote, depth + 1, costs) for item in _expect(obj.get("v"), list, "a list")]
        return tuple(items) if tag == "tuple" else items
    if tag == "dict":
        result = {}
        for pair in _expect(obj.get("v"), list, "a dict"):
            if type(pair) is not list or len(pair) != 2:
                raise ProtocolError("malformed dict")
            key = decode(pair[0], remote, depth + 1, costs)
            if not isinstance(key, (str, int, float, bool, tuple, type(None))):
                raise ProtocolError("unhashable dict key")
            result[key] = decode(pair[1], remote, depth + 1, costs)
        return result
    if tag == "array":
        return _decode_array(obj, remote, depth, costs)
    if tag == "scalar":
        dtype = _dtype(obj.get("dtype"))
        data = _bytes(obj.get("v"))
        if len(data) != dtype.itemsize:
            raise ProtocolError("malformed scalar")
        return np.frombuffer(data, dtype=dtype)[0]
    if tag == "series":
        import pandas as pd

        values = decode(obj.get("v"), remote, depth + 1, costs)
        index = decode(obj.get("index"), remote, depth + 1, costs)
        name = decode(obj.get("name"), remote, depth + 1, costs)
        if type(values) is not np.ndarray or type(index) is not np.ndarray or len(values) != len(index):
            raise ProtocolError("malformed Series")
        return pd.Series(values, index=pd.Index(index), name=name if isinstance(name, (str, int)) else None)
    if tag == "frame":
        import pandas as pd

        columns = [decode(c, remote, depth + 1, costs) for c in _expect(obj.get("columns"), list, "columns")]
        values = [decode(v, remote, depth + 1, costs) for v in _expect(obj.get("v"), list, "columns")]
        index = decode(obj.get("index"), remote, depth + 1, costs)
        if len(columns) != len(values) or type(index) is not np.ndarray or \
                any(type(v) is not np.ndarray or len(v) != len(index) for v in values) or \
                any(not isinstance(c, (str, int)) for c in columns):
            raise ProtocolError("malformed DataFrame")
        return pd.DataFrame(dict(zip(columns, values)), index=pd.Index(index), columns=columns)
    if tag == "callable":
        if remote is None:
            raise ProtocolError("a function where none may be")
        ident = _expect(obj.get("id"), int, "a function id")
        return remote(ident, str(_expect(obj.get("name"), str, "a name")))
    if tag == "generator":
        bits = str(obj.get("bits"))
        if bits not in ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64"):
            raise ProtocolError("unknown bit generator")
        generator = np.random.Generator(getattr(np.random, bits)())
        try:
            generator.bit_generator.state = decode(obj.get("state"), None, depth + 1)
        except (TypeError, ValueError, KeyError):
            raise ProtocolError("malformed generator state") from None
        return generator
    if tag == "cost":
        if not costs:
            raise ProtocolError("a library object where only plain values may be")
        from .. import costs

        kind = getattr(costs, str(obj.get("class")), None) if str(obj.get("class")).startswith("_") else None
        x, y = decode(obj.get("x"), None, depth + 1), decode(obj.get("y"), None, depth + 1)
        if not (isinstance(kind, type) and issubclass(kind, costs.Cost) and kind.__module__ == costs.__name__) \
                or type(x) is not np.ndarray or type(y) is not np.ndarray:
            raise ProtocolError("malformed cost")
        return kind(x, y)
    if tag == "other":
        return _other(_expect(obj.get("type"), str, "a type name"))
    raise ProtocolError(f"unknown tag {tag!r}")


def _dtype(text) -> np.dtype:
    if type(text) is not str or not _DTYPE.match(text):
        raise ProtocolError("malformed dtype")
    return np.dtype(text)


def _bytes(text) -> bytes:
    if type(text) is not str:
        raise ProtocolError("malformed data")
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        raise ProtocolError("malformed data") from None


def _decode_array(obj, remote, depth, costs=True) -> np.ndarray:
    shape = _expect(obj.get("shape"), list, "a shape")
    if len(shape) > 32 or any(type(n) is not int or n < 0 for n in shape):
        raise ProtocolError("malformed shape")
    size = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if obj.get("dtype") == "object":
        items = [decode(item, remote, depth + 1, costs) for item in _expect(obj.get("v"), list, "items")]
        if len(items) != size:
            raise ProtocolError("malformed array")
        array = np.empty(size, dtype=object)
        array[:] = items if size else []
        return array.reshape(shape)
    dtype = _dtype(obj.get("dtype"))
    data = _bytes(obj.get("v"))
    if len(data) != size * dtype.itemsize:
        raise ProtocolError("malformed array")
    return np.frombuffer(data, dtype=dtype).reshape(shape).copy()


# ------------------------------------------------------------------ the channel


class _Channel:
    """Newline-separated JSON messages over two pipes; a call waits for its answer, serving call-backs meanwhile.

    Bounded both ways in time (``deadline``: a child that stops reading or writing costs its
    notebook the rest of the time limit, never more) and, on the reading side, in size: a message
    longer than ``MAX_MESSAGE`` bytes, or more than ``MAX_TOTAL`` bytes in all, is refused before
    any of it is parsed.
    """

    def __init__(self, read_fd: int, write_fd: int, deadline: float | None = None):
        self.read_fd, self.write_fd, self.deadline = read_fd, write_fd, deadline
        self.buffer = bytearray()
        self.received = 0
        self.functions: list[Callable] = []
        if deadline is not None:
            os.set_blocking(write_fd, False)

    def register(self, function: Callable) -> int:
        self.functions.append(function)
        return len(self.functions) - 1

    def _left(self) -> float | None:
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise ChildGone("time limit")
        return left

    def send(self, message: dict) -> None:
        data = json.dumps(message, allow_nan=False, separators=(",", ":")).encode() + b"\n"
        view = memoryview(data)
        while view:
            left = self._left()
            if left is not None and not select.select([], [self.write_fd], [], left)[1]:
                raise ChildGone("time limit")
            try:
                written = os.write(self.write_fd, view[: 1 << 16])
            except BlockingIOError:
                continue
            except OSError:
                raise ChildGone("the other side closed the channel") from None
            view = view[written:]

    def receive(self) -> dict:
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                break
            if len(self.buffer) > MAX_MESSAGE:
                raise ProtocolError(f"a message is longer than {MAX_MESSAGE >> 20} MiB")
            left = self._left()
            if left is not None and not select.select([self.read_fd], [], [], left)[0]:
                raise ChildGone("time limit")
            chunk = os.read(self.read_fd, 1 << 20)
            if not chunk:
                raise ChildGone("the other side closed the channel")
            self.received += len(chunk)
            if self.received > MAX_TOTAL:
                raise ProtocolError(f"the messages add up to more than {MAX_TOTAL >> 20} MiB")
            self.buffer += chunk
        if end > MAX_MESSAGE:
            raise ProtocolError(f"a message is longer than {MAX_MESSAGE >> 20} MiB")
        line = bytes(self.buffer[:end])
        del self.buffer[: end + 1]
        try:
            message = json.loads(line, parse_constant=_no_constant)
        except (ValueError, RecursionError):
            raise ProtocolError("a message is not JSON") from None
        if type(message) is not dict or type(message.get("op")) is not str:
            raise ProtocolError("a message has no op")
        return message

    def request(self, message: dict, serve: Callable) -> dict:
        """Send ``message``; serve incoming calls with ``serve(message) -> reply`` until the answer arrives."""
        self.send(message)
        while True:
            answer = self.receive()
            if answer["op"] == "call":
                self.send(serve(answer))
            else:
                return answer


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


# ------------------------------------------------------------------ the grader's side

_STUDENT_FILE = "<your function>"


def _raise_as_student(error: BaseException):
    """Raise ``error`` from a frame outside the library, so the checks treat it as the student's."""
    code = compile("raise error", _STUDENT_FILE, "exec")
    exec(code, {"error": error})  # noqa: S102 - a fixed statement


@functools.lru_cache(maxsize=256)
def _exception_class(name: str, base: str) -> type:
    found = getattr(builtins, base, None)
    if not (isinstance(found, type) and issubclass(found, Exception)):
        found = Exception
    if name == "CheckFailed":
        return CheckFailed
    if name == found.__name__ or not name.isidentifier() or len(name) > 100:
        return found
    return type(name, (found,), {"__module__": "student"})


class StudentError(Exception):
    """An error the student's code raised in the child (type name, message and the student's traceback)."""

    def __init__(self, type_name: str, message: str, traceback_text: str):
        super().__init__(f"{type_name}: {message}" if message else type_name)
        self.type_name, self.message, self.traceback_text = type_name, message, traceback_text


class Remote:
    """A function that lives in the child: calling it sends the arguments there and decodes the answer."""

    def __init__(self, session: "IsolatedNotebook", ident: int, name: str):
        self._session, self._id, self.__name__ = session, ident, name
        self.forbids, self.rule = (), ""
        self.__qualname__ = name

    def __repr__(self) -> str:
        return f"<function {self.__name__} (in the student's notebook)>"

    def __call__(self, *args, **kwargs):
        return self._session.call(self, args, kwargs)


class IsolatedNotebook:
    """A child process that runs a student's notebook cells and calls its functions on request."""

    def __init__(self, *, timeout: float = 600.0, cwd: str | None = None, python: str | None = None,
                 forbids=(), sandbox: bool = True):
        self.timeout, self.box = timeout, None
        python = python or sys.executable
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        if sandbox:
            self.box = Sandbox(library=library_copy(forbids), files=cwd, python=python,
                               limits=Limits(cpu_seconds=int(timeout) + 60))
            command = self.box.command([python, "-I", "-m", _CHILD, str(to_child_r), str(from_child_w), HOME])
            env, start, folder = self.box.environment(), self.box.limit, None
        else:       # the instructor chose to grade without a sandbox: a plain child (see _nbgrader)
            self.scratch = tempfile.mkdtemp(prefix="isolated-grading-")
            command = [python, "-I", "-m", _CHILD, str(to_child_r), str(from_child_w), self.scratch]
            env = {key: value for key, value in os.environ.items()
                   if key in ("PATH", "LANG", "LC_ALL", "HOME", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")}
            env.update(MPLBACKEND="Agg", MPLCONFIGDIR=self.scratch, IPYTHONDIR=self.scratch, TMPDIR=self.scratch,
                       PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
            start, folder = None, cwd or self.scratch
        env["MPLBACKEND"] = "Agg"
        try:
            self.process = subprocess.Popen(
                command, cwd=folder, env=env, pass_fds=(to_child_r, from_child_w), preexec_fn=start,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except BaseException:
            for fd in (to_child_r, to_child_w, from_child_r, from_child_w):
                os.close(fd)
            if self.box is not None:
                self.box.close()
            raise
        os.close(to_child_r)
        os.close(from_child_w)
        self.channel = _Channel(from_child_r, to_child_w, deadline=time.monotonic() + timeout)
        self.dead: str | None = None
        try:
            self._expect(self.channel.receive(), "ready")
        except (ChildGone, ProtocolError) as error:
            with contextlib.suppress(CheckFailed):     # every check will say so
                self._fail(error)

    # the lifetime of the child
    def close(self) -> None:
        """Kill the child and everything it started (the sandbox's process namespace ends with it)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for fd in (self.channel.read_fd, self.channel.write_fd):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self.box is not None:
            self.box.close()
        else:
            shutil.rmtree(self.scratch, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _fail(self, error: Exception):
        if self.dead is None:
            if isinstance(error, ChildGone) and str(error) == "time limit":
                self.dead = f"the notebook did not finish within the time limit ({self.timeout:g} s)"
            elif isinstance(error, ChildGone):
                self.dead = "the notebook's process ended before grading finished"
            else:
                self.dead = f"the notebook's process sent something unreadable ({error})"
            if self.process.poll() is None:
                self.process.kill()
        raise CheckFailed(f"{self.dead}, so this check could not run.")

    @staticmethod
    def _expect(message: dict, op: str) -> dict:
        if message.get("op") != op:
            raise ProtocolError(f"expected {op!r}, got {message.get('op')!r}")
        return message

    def _alive(self):
        if self.dead is not None:
            raise CheckFailed(f"{self.dead}, so this check could not run.")

    def _request(self, message: dict) -> dict:
        self._alive()
        try:
            return self.channel.request(message, self._serve)
        except (ChildGone, ProtocolError) as error:
            self._fail(error)

    def _serve(self, message: dict) -> dict:
        """Run a call-back that the child asked for (a function the check passed to the student's)."""
        try:
            ident = message.get("id")
            if type(ident) is not int or not 0 <= ident < len(self.channel.functions):
                raise ProtocolError("unknown function")
            args = [decode(a, costs=False) for a in _expect(message.get("args"), list, "arguments")]
            result = self.channel.functions[ident](*args)
            return {"op": "return", "value": encode(result, self.channel.register)}
        except ProtocolError:
            raise
        except Exception as error:  # noqa: BLE001 - reported to the student's code as an exception
            return {"op": "raise", "type": type(error).__name__, "base": _builtin_base(type(error)),
                    "message": str(error)}

    # what the grader asks
    def run(self, code: str) -> dict:
        """Run a cell's code in the child's notebook namespace; the outcome (``ok``, ``error``)."""
        return self._expect(self._request({"op": "run", "code": code}), "done")

    def evaluate(self, expression: str):
        """The value of ``expression`` in the child's namespace (a function becomes a :class:`Remote`)."""
        answer = self._request({"op": "eval", "code": expression})
        if answer["op"] == "raise":
            raise StudentError(str(answer.get("type")), str(answer.get("message")), str(answer.get("traceback", "")))
        self._expect(answer, "value")
        try:
            return decode(answer.get("value"), self._remote, costs=False)
        except ProtocolError as error:
            self._fail(error)

    def _remote(self, ident: int, name: str) -> Remote:
        return Remote(self, ident, name)

    def call(self, function: Remote, args: tuple, kwargs: dict):
        register = self.channel.register
        message = {"op": "call", "id": function._id,
                   "args": [encode(a, register) for a in args],
                   "kwargs": [[k, encode(v, register)] for k, v in kwargs.items()],
                   "forbids": list(function.forbids), "rule": function.rule}
        answer = self._request(message)
        try:
            for warning in _expect(answer.get("warnings", []), list, "warnings")[:MAX_WARNINGS]:
                if type(warning) is not dict:
                    continue
                category = _exception_class(str(warning.get("type"))[:100], str(warning.get("base"))[:40])
                if not issubclass(category, Warning):
                    category = UserWarning
                warnings.warn_explicit(str(warning.get("message"))[:500], category, _STUDENT_FILE, 1)
            after = answer.get("after")
            if type(after) is list and len(after) == len(args):
                for original, changed in zip(args, after):
                    if changed is not None:
                        _write_back(original, decode(changed, costs=False))
            if answer["op"] == "return":
                return decode(answer.get("value"), self._remote, costs=False)
            self._expect(answer, "raise")
        except ProtocolError as error:
            self._fail(error)
        type_name, message = str(answer.get("type")), str(answer.get("message"))
        if answer.get("forbidden"):
            raise CheckFailed(message)
        error = _exception_class(type_name, str(answer.get("base")))(message)
        error.student_traceback = str(answer.get("traceback", ""))
        if isinstance(error, NotImplementedError):
            raise error
        _raise_as_student(error)


def _builtin_base(kind: type) -> str:
    for base in kind.__mro__:
        if getattr(builtins, base.__name__, None) is base and issubclass(base, BaseException):
            return base.__name__
    return "Exception"


def _write_back(original, changed) -> None:
    """Put into ``original`` (an argument the check passed) what the student's function changed in place."""
    pandas = sys.modules.get("pandas")
    if type(original) is np.ndarray and type(changed) is np.ndarray:
        if original.shape == changed.shape and not np.array_equal(original, changed, equal_nan=original.dtype.kind in "fc"):
            with contextlib.suppress(ValueError, TypeError):
                original[...] = changed
    elif type(original) is list and type(changed) is list and original != changed:
        original[:] = changed
    elif type(original) is dict and type(changed) is dict and original != changed:
        original.clear()
        original.update(changed)
    elif pandas is not None and type(original) is pandas.Series and type(changed) is pandas.Series:
        if len(original) == len(changed) and not original.equals(changed):
            with contextlib.suppress(ValueError, TypeError):
                original.iloc[:] = changed.to_numpy()


# ------------------------------------------------------------------ check cells


def check_calls(source: str) -> list[tuple[ast.stmt, str | None]]:
    """A check cell's top-level statements, each with the check it calls (``None`` if it calls none).

    A check call is ``checks.check_x(...)`` (the book) or ``registered_check("check_x", ...)(...)``
    (the nbgrader course), as a statement of its own.
    """
    tree = ast.parse(source)
    found = []
    for statement in tree.body:
        name = None
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            name = _check_name(statement.value.func)
        found.append((statement, name))
    return found


def _check_name(func) -> str | None:
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "checks" \
            and func.attr.startswith("check_"):
        return func.attr
    if isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id == "registered_check" \
            and func.args and isinstance(func.args[0], ast.Constant) and isinstance(func.args[0].value, str):
        return func.args[0].value
    return None


def _is_grading_import(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.ImportFrom) and (statement.module or "").startswith("mlrefined_lib.checks") \
        and all(alias.name == "registered_check" for alias in statement.names)


def _mlrefined_aliases(sources: list[str]) -> tuple[set, set]:
    """(names bound to mlrefined_lib or a module of it, names imported from it) in the notebook's code."""
    modules, names = set(), set()
    for source in sources:
        tree = _parse(source)
        for node in ast.walk(tree) if tree else ():
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "mlrefined_lib":
                        modules.add(alias.asname or alias.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "mlrefined_lib":
                for alias in node.names:
                    (modules if alias.name[:1].islower() and "." not in alias.name else names).add(
                        alias.asname or alias.name)
                    names.add(alias.asname or alias.name)
    return modules, names


def _parse(source: str):
    lines = [(line[: len(line) - len(line.lstrip())] + "pass" if line.lstrip().startswith(("%", "!")) else line)
             for line in source.splitlines()]
    try:
        return ast.parse("\n".join(lines))
    except SyntaxError:
        return None


def forbidden_uses(solution: str, forbids, modules: set, names: set) -> list[str]:
    """The ruled-out library functions that ``solution`` (source text) refers to.

    A reference is ``<alias>.name`` with ``<alias>`` bound to ``mlrefined_lib`` or one of its modules,
    ``name`` imported from the library, an import of it, or the string ``"name"`` (as in ``getattr``).
    """
    tree = _parse(solution)
    found = []
    if tree is None:
        return found
    own = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    own |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    own |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    names = set(names) - own
    for node in ast.walk(tree):
        hit = None
        if isinstance(node, ast.Attribute) and node.attr in forbids:
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and (base.id in modules or base.id == "mlrefined_lib"):
                hit = node.attr
        elif isinstance(node, ast.Name) and node.id in forbids and node.id in names and isinstance(node.ctx, ast.Load):
            hit = node.id
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "mlrefined_lib":
            hit = next((a.name for a in node.names if a.name in forbids), None)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in forbids:
            hit = node.value
        if hit and hit not in found:
            found.append(hit)
    return found


def _forbidden_message(name: str, rule: str) -> str:
    return (f"your code refers to the library's `{name}`, which this exercise rules out ({rule}): "
            "write that step yourself.")


class Verdict(dict):
    """``passed`` (bool), ``output`` (what the checks printed) and ``error`` (the failure's name and message)."""


def grade_notebook(cells: list[dict], *, timeout: float = 600.0, cwd: str | None = None,
                   python: str | None = None, is_check: Callable | None = None, sandbox: bool = True,
                   outputs: dict | None = None) -> dict:
    """Grade a notebook's check cells in this process, its other code in a sandboxed child; ``{index: Verdict}``.

    ``cells`` are the notebook's cells as dicts (``cell_type``, ``source``, ``metadata``). A check cell
    is a code cell that calls a check (see :func:`check_calls`); with nbgrader metadata, the solution
    cells are those marked ``solution``. The check cells' sources must be the instructor's (nbgrader
    puts them back before grading). Every other code cell runs in the child, in order; a check cell's
    statements that call no check run there too. ``is_check(index, cell)`` says which cells are graded
    check cells (by default, every cell that calls a check).

    A check cell whose checks rule out library functions (``forbids``) is graded in a child of its
    own, whose library has those functions replaced by stubs (:func:`._sandbox.library_copy`) from
    before the first cell runs: the notebook's cells up to it run there again. ``outputs``, if given,
    receives each code cell's outputs in the main child (see :func:`clean_outputs`). ``cwd`` is the
    folder whose files the child finds in its working directory; ``sandbox=False`` runs the child
    without the operating-system wall (the instructor's explicit choice; see :mod:`._nbgrader`), with
    every check in that one child, where a call of a ruled-out function is refused while the check
    runs (a guard in the student's own process, which a determined student gets round).
    Nothing the child does makes this function raise: a child that hangs, crashes or sends nonsense
    fails the checks still to run, with a message that says so.
    """
    verdicts: dict[int, Verdict] = {}
    sources = [_source(c) for c in cells if c.get("cell_type") == "code"]
    modules, names = _mlrefined_aliases(sources)
    modules.add("ml")
    graded, forbids = {}, {}
    for index, cell in enumerate(cells):
        if cell.get("cell_type") != "code":
            continue
        try:
            statements = check_calls(_source(cell))
        except SyntaxError:
            continue
        if any(name for _, name in statements) and (is_check is None or is_check(index, cell)):
            graded[index] = statements
            forbids[index] = tuple(sorted({f for _, name in statements if name and name in REGISTRY
                                           for f in REGISTRY[name].forbids})) if sandbox else ()
    solutions, previous = {}, -1
    for index in graded:
        solutions[index] = "\n\n".join(_source(c) for c in cells[previous + 1:index]
                                        if c.get("cell_type") == "code" and _is_solution(c))
        previous = index
    options = dict(timeout=timeout, cwd=cwd, python=python, sandbox=sandbox)
    main_failure = None
    try:
        with IsolatedNotebook(**options) as child:
            for index, cell in enumerate(cells):
                if cell.get("cell_type") != "code":
                    continue
                source = _source(cell)
                if index in graded and not forbids[index]:
                    verdicts[index] = _grade_safely(child, source, graded[index], solutions[index], modules, names)
                    continue
                if index in graded:          # graded in its own child below; its other statements run here
                    source = _without_checks(source, graded[index])
                with contextlib.suppress(CheckFailed):
                    done = child.run(source)
                    if outputs is not None:
                        outputs[index] = clean_outputs(done.get("outputs"))
            main_failure = child.dead
    except Exception as error:  # noqa: BLE001 - the grading of this notebook fails, never the next one's
        main_failure = f"the grader could not run the notebook ({type(error).__name__}: {error})"
    for index in graded:
        if index in verdicts:
            continue
        if main_failure is not None:
            verdicts[index] = Verdict(passed=False, output="",
                                      error=("CheckFailed", f"{main_failure}, so this check could not run."))
            continue
        try:
            with IsolatedNotebook(forbids=forbids[index], **options) as child:
                for before, cell in enumerate(cells[:index]):
                    if cell.get("cell_type") == "code":
                        source = _source(cell)
                        if before in graded:
                            source = _without_checks(source, graded[before])
                        with contextlib.suppress(CheckFailed):
                            child.run(source)
                verdicts[index] = _grade_safely(child, _source(cells[index]), graded[index], solutions[index],
                                                modules, names)
        except Exception as error:  # noqa: BLE001
            verdicts[index] = Verdict(passed=False, output="", error=(
                "CheckFailed", f"the grader could not run this check ({type(error).__name__}: {error})."))
    for index in graded:
        if index not in verdicts:
            verdicts[index] = Verdict(passed=False, output="", error=("CheckFailed", "this check did not run."))
    return dict(sorted(verdicts.items()))


def _without_checks(source: str, statements) -> str:
    """A check cell's source without its check calls and its grading imports (``pass`` if nothing is left)."""
    kept = [ast.get_source_segment(source, s) or ast.unparse(s) for s, name in statements
            if name is None and not _is_grading_import(s)]
    return "\n".join(kept) or "pass"


def _grade_safely(child, source, statements, solution, modules, names) -> "Verdict":
    try:
        return _grade_cell(child, source, statements, solution, modules, names)
    except Exception as error:  # noqa: BLE001 - whatever came back from the child, this cell only fails
        return Verdict(passed=False, output="", error=(
            "CheckFailed", f"the grader could not finish this check ({type(error).__name__}: {error})."))


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _is_solution(cell: dict) -> bool:
    meta = cell.get("metadata", {}).get("nbgrader")
    if meta is not None:
        return bool(meta.get("solution"))
    return "### BEGIN SOLUTION" in _source(cell)


class _ThreadOutput(io.TextIOBase):
    """What the checks print, captured."""

    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(str(text))
        return len(text)

    def getvalue(self) -> str:
        return "".join(self.parts)


def _grade_cell(child: IsolatedNotebook, source: str, statements, solution: str, modules, names) -> Verdict:
    captured = _ThreadOutput()
    for statement, name in statements:
        if name is None:
            if _is_grading_import(statement):
                continue
            try:
                done = child.run(ast.get_source_segment(source, statement) or ast.unparse(statement))
            except CheckFailed as failure:
                return Verdict(passed=False, output=captured.getvalue(), error=("CheckFailed", str(failure)))
            error = done.get("error")
            if not done.get("ok"):      # an error in the cell's other code fails it, as in nbgrader (the child says so)
                kind, message = (error if type(error) is list and len(error) == 2 else ["Error", ""])
                return Verdict(passed=False, output=captured.getvalue(), error=(str(kind), str(message)))
            continue
        check = REGISTRY.get(name)
        try:
            if check is None:
                raise CheckFailed(f"there is no check named {name!r}.")
            uses = forbidden_uses(solution, check.forbids, modules, names) if check.forbids else []
            if uses:
                raise CheckFailed(_forbidden_message(uses[0], check.rule))
            call = statement.value
            args = [_argument(child, source, node) for node in call.args]
            kwargs = {k.arg: _argument(child, source, k.value) for k in call.keywords if k.arg}
            if args and isinstance(args[0], Remote):
                args[0].forbids, args[0].rule = check.forbids, check.rule
            with contextlib.redirect_stdout(captured):
                check(*args, **kwargs)
        except CheckFailed as failure:
            return Verdict(passed=False, output=captured.getvalue(), error=("CheckFailed", str(failure)))
        except StudentError as error:
            return Verdict(passed=False, output=captured.getvalue(), error=(error.type_name, error.message),
                           traceback=error.traceback_text)
        except Exception as error:  # noqa: BLE001 - an error raised in the student's function
            return Verdict(passed=False, output=captured.getvalue(), error=(type(error).__name__, str(error)),
                           traceback=getattr(error, "student_traceback", ""))
    return Verdict(passed=True, output=captured.getvalue(), error=None)


def _argument(child: IsolatedNotebook, source: str, node: ast.expr):
    """A check call's argument: a literal read here, anything else evaluated in the child."""
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    return child.evaluate(ast.get_source_segment(source, node) or ast.unparse(node))
