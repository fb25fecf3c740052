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
    errors: list = []
    try:
        from IPython.core.interactiveshell import InteractiveShell

        shell = InteractiveShell.instance()
        shell.history_manager.enabled = False
        for name in ("nocolor", "NoColor"):       # IPython 9 names it one way, IPython 8 the other
            try:
                shell.colors = name
                break
            except Exception:  # noqa: BLE001
                continue
        shell.displayhook.write_output_prompt = lambda: None
        shell._showtraceback = lambda kind, value, lines: errors.append(
            [kind.__name__, str(value)[:2000], [str(line)[:2000] for line in lines][-40:]])
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
        stubs = sys.modules.get("mlrefined_lib._ruled_out")      # the sandbox's library: ruled-out functions
        if stubs is not None and isinstance(getattr(stubs, "CALLS", None), list):
            stubs.CALLS.clear()          # count only the calls of this function
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
        if stubs is not None and getattr(stubs, "CALLS", None):
            reply = {"op": "raise", "type": "CheckFailed", "base": "AssertionError", "forbidden": True,
                     "message": (f"your function calls the library's `{str(stubs.CALLS[0])[:80]}`, which this "
                                 f"exercise rules out ({message.get('rule', '')}): write that step yourself.")}
            stubs.CALLS.clear()
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
            errors.clear()
            try:
                if shell is not None:
                    from IPython.utils.capture import capture_output

                    with capture_output() as captured:
                        result = run_cell(message["code"])
                        images = _figures()
                    error = result.error_in_exec or result.error_before_exec
                    reply = {"op": "done", "ok": error is None,
                             "error": None if error is None else [type(error).__name__, str(error)[:500]],
                             "outputs": _outputs(captured, images, errors)}
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


MAX_TEXT = 20000        # characters of a cell's printed text kept for the feedback
MAX_IMAGES = 8


def _figures() -> list[str]:  # pragma: no cover - runs in the child
    """The cell's open matplotlib figures as PNG (base64), then closed (as Jupyter's inline backend does)."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is None:
        return []
    import base64
    import io

    images = []
    for number in pyplot.get_fignums()[:MAX_IMAGES]:
        buffer = io.BytesIO()
        try:
            pyplot.figure(number).savefig(buffer, format="png", dpi=72, bbox_inches="tight")
            images.append(base64.b64encode(buffer.getvalue()).decode())
        except Exception:  # noqa: BLE001 - a figure that cannot be drawn is left out
            pass
    pyplot.close("all")
    return images


def _outputs(captured, images: list[str], errors: list) -> list[dict]:  # pragma: no cover - runs in the child
    """What a cell showed, as plain dicts: its printed text, displayed values and figures, its error."""
    outputs = []
    for name, text in (("stdout", captured.stdout), ("stderr", captured.stderr)):
        if text:
            outputs.append({"type": "stream", "name": name, "text": text[:MAX_TEXT]})
    for shown in captured.outputs[:MAX_IMAGES]:
        data = getattr(shown, "data", {}) or {}
        if isinstance(data.get("image/png"), str):
            outputs.append({"type": "image", "png": data["image/png"]})
        elif isinstance(data.get("text/plain"), str):
            outputs.append({"type": "text", "text": data["text/plain"][:MAX_TEXT]})
    outputs += [{"type": "image", "png": png} for png in images]
    outputs += [{"type": "error", "ename": kind, "evalue": value, "traceback": lines} for kind, value, lines in errors[:1]]
    return outputs


def _guard(scratch: str) -> None:  # pragma: no cover - runs in the child
    """From now on this process may write only inside ``scratch`` and may start no other program."""
    roots = [os.path.realpath(scratch) + os.sep]
    if scratch == "/home/student":       # in the sandbox: its other writable folders too
        roots += ["/tmp/", "/dev/shm/"]
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
            return (os.path.realpath(os.fsdecode(path)) + os.sep).startswith(tuple(roots))
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
