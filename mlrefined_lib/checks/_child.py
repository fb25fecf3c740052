"""The child process of the isolated grader (:mod:`._isolated`): runs a student's notebook, calls its functions.

Started as ``python -I -m mlrefined_lib.checks._child READ_FD WRITE_FD SCRATCH``. It imports the
library, installs an audit hook (:func:`_guard`: no writing outside SCRATCH, no other programs),
then answers the grader's messages: ``run`` a cell, ``eval`` an expression, ``call`` a function.
Nothing here is trusted by the grader: it only ever reads plain tagged JSON from this process.
"""

from __future__ import annotations

import builtins
import os
import sys
import warnings

import numpy as np

from ._isolated import ChildGone, ProtocolError, _builtin_base, _Channel, _exception_class, decode, encode


def main(read_fd: int, write_fd: int, scratch: str) -> None:  # pragma: no cover - runs in the child
    import traceback

    import mlrefined_lib  # noqa: F401 - the library, as the notebook's first cell imports it
    from mlrefined_lib.checks import _grading

    for fd in (read_fd, write_fd):
        os.set_inheritable(fd, False)
    channel = _Channel(read_fd, write_fd)
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    try:
        from IPython.core.interactiveshell import InteractiveShell

        shell = InteractiveShell.instance()
        shell.history_manager.enabled = False
        namespace = shell.user_ns
        run_cell = lambda code: shell.run_cell(code, store_history=False)  # noqa: E731
    except Exception:  # noqa: BLE001 - without IPython, plain exec
        shell = None

        def run_cell(code):
            exec(compile("\n".join(l for l in code.splitlines() if not l.lstrip().startswith(("%", "!"))),
                         "<cell>", "exec"), namespace)

    def student_traceback(error: BaseException) -> str:
        library = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        entries = [e for e in traceback.extract_tb(error.__traceback__)
                   if not e.filename.startswith(library) and "IPython" not in e.filename]
        return "".join(traceback.format_list(entries[-8:]))

    def failure(error: BaseException) -> dict:
        return {"op": "raise", "type": type(error).__name__, "base": _builtin_base(type(error)),
                "message": str(error)[:2000], "traceback": student_traceback(error)}

    def remote(ident: int, name: str):
        def call_back(*args):
            answer = channel.request({"op": "call", "id": ident, "args": [encode(a, channel.register) for a in args]},
                                     serve)
            if answer.get("op") == "return":
                return decode(answer.get("value"), remote)
            raise _exception_class(str(answer.get("type")), str(answer.get("base")))(str(answer.get("message")))

        call_back.__name__ = name
        return call_back

    def serve(message: dict) -> dict:
        try:
            if message.get("op") == "call" and "kwargs" not in message:
                raise ProtocolError("a call-back from the student's side")
            function = channel.functions[message["id"]]
            args = [decode(a, remote) for a in message["args"]]
            kwargs = {k: decode(v, remote) for k, v in message["kwargs"]}
        except Exception as error:  # noqa: BLE001
            return failure(error)
        forbidden = None
        if message.get("forbids"):
            forbidden = _grading._Forbidden(message["forbids"], message.get("rule", ""),
                                            getattr(function, "__globals__", {}))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = function(*args, **kwargs)
                reply = {"op": "return", "value": encode(result, channel.register)}
            except BaseException as error:  # noqa: BLE001 - whatever the student raised
                reply = failure(error)
            finally:
                if forbidden is not None:
                    forbidden.restore()
        if forbidden is not None and forbidden.calls:
            reply = {"op": "raise", "type": "CheckFailed", "base": "AssertionError", "forbidden": True,
                     "message": forbidden.message()}
        library = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        caught = [w for w in caught if not os.path.abspath(str(w.filename)).startswith(library)]
        reply["warnings"] = [{"type": w.category.__name__, "base": _builtin_base(w.category),
                              "message": str(w.message)[:500]} for w in caught[:20]]
        try:
            reply["after"] = [encode(a) if isinstance(a, (np.ndarray, list, dict)) or type(a).__name__ == "Series"
                              else None for a in args]
        except Exception:  # noqa: BLE001
            reply["after"] = None
        return reply

    _guard(scratch)
    channel.send({"op": "ready"})
    while True:
        try:
            message = channel.receive()
        except ChildGone:
            return
        op = message.get("op")
        if op == "run":
            try:
                if shell is not None:
                    result = run_cell(message["code"])
                    error = result.error_in_exec or result.error_before_exec
                    reply = {"op": "done", "ok": error is None,
                             "error": None if error is None else [type(error).__name__, str(error)[:500]]}
                else:
                    run_cell(message["code"])
                    reply = {"op": "done", "ok": True, "error": None}
            except BaseException as error:  # noqa: BLE001
                reply = {"op": "done", "ok": False, "error": [type(error).__name__, str(error)[:500]]}
        elif op == "eval":
            try:
                value = eval(compile(message["code"], "<check cell>", "eval"), namespace)  # noqa: S307
                reply = {"op": "value", "value": encode(value, channel.register)}
            except BaseException as error:  # noqa: BLE001
                reply = failure(error)
        elif op == "call":
            reply = serve(message)
        else:
            return
        try:
            channel.send(reply)
        except (ValueError, TypeError) as error:
            channel.send(failure(error))


def _guard(scratch: str) -> None:  # pragma: no cover - runs in the child
    """From now on this process may write only inside ``scratch`` and may start no other program."""
    root = os.path.realpath(scratch) + os.sep
    writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
    refused = {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
               "os.kill", "os.killpg", "pty.spawn", "os.setuid"}
    changes = {"os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.truncate", "os.link",
               "os.symlink", "os.utime", "shutil.rmtree", "shutil.move", "shutil.copyfile", "os.chdir", "os.chroot",
               "os.mkfifo", "os.mknod"}

    def inside(path) -> bool:
        if isinstance(path, int):
            return True
        try:
            return (os.path.realpath(os.fsdecode(path)) + os.sep).startswith(root)
        except (TypeError, ValueError):
            return False

    def hook(event: str, args: tuple) -> None:
        if event in refused:
            raise PermissionError(f"grading: {event} is not allowed while a notebook is graded")
        if event == "open" and len(args) >= 3:
            path, mode, flags = args[0], args[1], args[2]
            wants = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (isinstance(flags, int) and flags & writing)
            if wants and path is not None and not inside(path):
                raise PermissionError(f"grading: the notebook may not write to {path!r}")
        elif event in changes:
            paths = [a for a in args if isinstance(a, (str, bytes, os.PathLike))]
            if event == "os.chdir" or not all(inside(p) for p in paths):
                raise PermissionError(f"grading: {event} outside the scratch folder is not allowed")

    sys.addaudithook(hook)


if __name__ == "__main__":  # pragma: no cover - the child
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3])
