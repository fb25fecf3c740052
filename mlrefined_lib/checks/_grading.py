"""What makes the checks fit for grading: :class:`CheckFailed`, the :func:`graded` decorator and its registry.

Every public ``check_*`` function is defined under ``@graded(...)``, so that,
in a notebook and under nbgrader's autograder,

* a failing check shows a one-line ``CheckFailed: ...`` message (IPython asks
  :meth:`CheckFailed._render_traceback_`), never the check's own source lines
  or a file path; the exception is raised afresh in the wrapper, whose frame
  carries ``__tracebackhide__`` (honoured by IPython and pytest), so no frame
  of the check itself is kept;
* an error raised in the student's own function (or in a library function
  that it called) keeps only the student's frames, so the traceback points at
  the line to fix; an error raised by the check itself on a malformed result
  becomes a CheckFailed;
* a warning raised while the check runs (for example a RuntimeWarning from an
  overflow in the student's function) is recorded instead of reaching stderr,
  which nbgrader counts as a failure; the check's own message mentions it;
* the library functions that the exercise rules out (``forbids``: "NumPy
  only", "do not call reg.ridge") are refused while the check runs, when the
  student's code calls them (the library's own calls go through);
* before the check runs, the attributes of NumPy's namespaces (``numpy``,
  ``numpy.linalg``, ``numpy.random``, ``numpy.fft``) and of the checks'
  modules are compared with a snapshot taken when the checks were imported.
  Anything replaced since (``np.allclose = lambda *a, **k: True``,
  ``checks.check_x = ...``) is put back and the check fails, naming it.

The nbgrader course (``tools/nbgrader_export.py``) calls the checks through
:func:`registered_check`, which looks the check up in the registry filled
here at decoration time, not through the notebook's name ``checks``. These
guards only raise the bar in the student's own kernel; the course's grades
come from :mod:`._isolated`, which runs the registered checks in a process
the student's code never ran in.
"""

from __future__ import annotations

import functools
import importlib
import sys
import types
import warnings
from collections.abc import Callable
from pathlib import Path

__all__ = ["CheckFailed", "graded", "registered_check", "REGISTRY"]

_LIBRARY = str(Path(__file__).resolve().parents[1])          # the mlrefined_lib folder
_LIBRARY_PACKAGE = __name__.split(".")[0]                    # "mlrefined_lib"
_CHECKS_PACKAGE = __name__.rsplit(".", 1)[0]                 # "mlrefined_lib.checks"
NUMPY_NAMESPACES = ("numpy", "numpy.linalg", "numpy.random", "numpy.fft")


class CheckFailed(AssertionError):
    """Raised by a check when the answer is wrong; the message says how.

    IPython (Jupyter, nbgrader) shows it as one line, ``CheckFailed: message``,
    without a traceback into this module.
    """

    def _render_traceback_(self) -> list[str]:
        return [f"\x1b[0;31m{type(self).__name__}\x1b[0m: {self}"]


CheckFailed.__module__ = _CHECKS_PACKAGE     # where notebooks and tracebacks name it: mlrefined_lib.checks


#: check name -> the graded check, filled by :func:`graded` when a chapter's module is imported.
REGISTRY: dict[str, Callable] = {}

# module name -> (module, {attribute: value}) as they were when the checks were imported.
_SNAPSHOTS: dict[str, tuple[types.ModuleType, dict]] = {}
_running = 0            # how many graded checks are running (a check may call another)


def _snapshot(module: types.ModuleType) -> None:
    _SNAPSHOTS[module.__name__] = (module, {k: v for k, v in vars(module).items() if not k.startswith("__")})


for _name in NUMPY_NAMESPACES:
    _snapshot(importlib.import_module(_name))
del _name


def seal(package: types.ModuleType) -> None:
    """Snapshot the checks' package and its modules (called once, at the end of its ``__init__``)."""
    for name, module in list(sys.modules.items()):
        if name == package.__name__ or name.startswith(package.__name__ + "."):
            _snapshot(module)


def _shown(module_name: str, attribute: str) -> str:
    if module_name == _CHECKS_PACKAGE:
        return f"checks.{attribute}"
    return f"{module_name}.{attribute}"


def restore_replaced() -> list[str]:
    """Put back every snapshot attribute replaced or deleted since import; return their names."""
    replaced = []
    for module_name, (module, saved) in _SNAPSHOTS.items():
        namespace = vars(module)
        for attribute, value in saved.items():
            if namespace.get(attribute, _MISSING) is not value:
                namespace[attribute] = value
                replaced.append(_shown(module_name, attribute))
    return replaced


_MISSING = object()


def _tampering_message(replaced: list[str]) -> str:
    names = ", ".join(f"`{name}`" for name in replaced[:5]) + (f" and {len(replaced) - 5} more" if len(replaced) > 5 else "")
    one = len(replaced) == 1
    return (f"{names} {'was' if one else 'were'} replaced after the checks were imported, so this check cannot "
            f"trust {'it' if one else 'them'}; {'it is' if one else 'they are'} restored now. Remove the code "
            "that replaces it and run the notebook again.")


# ------------------------------------------------------------ frames and warnings


def _in_library(filename: str) -> bool:
    try:
        return str(Path(filename).resolve()).startswith(_LIBRARY)
    except (OSError, ValueError):
        return False


def _student_frames(tb):
    """The entries of traceback ``tb`` outside this library (the student's code), as a new traceback."""
    kept = []
    while tb is not None:
        if not _in_library(tb.tb_frame.f_code.co_filename):
            kept.append(tb)
        tb = tb.tb_next
    new = None
    for entry in reversed(kept):
        new = types.TracebackType(new, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return new


def _warning_note(caught) -> str:
    """One sentence on the first warning raised outside the library, or ''."""
    outside = [w for w in caught if not _in_library(w.filename)]
    if not outside:
        return ""
    first = outside[0]
    more = f" (and {len(outside) - 1} more)" if len(outside) > 1 else ""
    text = str(first.message).splitlines()[0] if str(first.message) else ""
    return f"your function raised a {first.category.__name__}: {text}{more}."


# ------------------------------------------------------ library functions ruled out


class _Forbidden:
    """While active, calls from outside the library to the named library functions are refused and recorded."""

    def __init__(self, names, rule, student_globals):
        self.rule, self.calls, self.patches = rule, [], []
        package = sys.modules[_LIBRARY_PACKAGE]
        modules = [m for n, m in list(sys.modules.items())
                   if n == _LIBRARY_PACKAGE or n.startswith(_LIBRARY_PACKAGE + ".")]
        for name in names:
            original = getattr(package, name, None)
            if original is None:
                continue
            guard = self._guard(name, original)
            for namespace in [vars(m) for m in modules] + [student_globals]:
                for key, value in list(namespace.items()):
                    if value is original:
                        self.patches.append((namespace, key, original))
                        namespace[key] = guard

    def _guard(self, name, original):
        @functools.wraps(original)
        def guard(*args, **kwargs):
            if _in_library(sys._getframe(1).f_code.co_filename):
                return original(*args, **kwargs)
            self.calls.append(name)
            raise CheckFailed(self.message())

        return guard

    def message(self) -> str:
        return (f"your function calls the library's `{self.calls[0]}`, which this exercise rules out "
                f"({self.rule}): write that step yourself.")

    def restore(self):
        for namespace, key, original in reversed(self.patches):
            namespace[key] = original


# ------------------------------------------------------------------ the decorator


def graded(check: Callable | None = None, *, forbids: tuple[str, ...] = (), rule: str = "") -> Callable:
    """Make ``check`` a graded check and register it under its name.

    Use as ``@graded`` or ``@graded(forbids=("k_fold", "time_folds"), rule="NumPy only, not ml.k_fold")``:
    ``forbids`` names the library functions (attributes of ``mlrefined_lib``) that the exercise rules
    out, ``rule`` is how the exercise says so (quoted in the failure message).
    """
    if check is None:
        return functools.partial(graded, forbids=tuple(forbids), rule=rule)
    if forbids and not rule:
        raise ValueError(f"{check.__name__}: say which rule of the exercise `forbids` enforces (rule=...)")
    if check.__name__ in REGISTRY:
        raise ValueError(f"a check named {check.__name__} is registered already")
    forbids = tuple(forbids)

    @functools.wraps(check)
    def graded_check(*args, **kwargs):
        __tracebackhide__ = True  # noqa: F841  (read by IPython and pytest)
        global _running
        if _running == 0:
            replaced = restore_replaced()
            if replaced:
                raise CheckFailed(_tampering_message(replaced))
        _running += 1
        try:
            forbidden = None
            if forbids and args and callable(args[0]):
                forbidden = _Forbidden(forbids, rule, getattr(args[0], "__globals__", {}))
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    try:
                        result = check(*args, **kwargs)
                    finally:
                        if forbidden is not None:
                            forbidden.restore()
                    if forbidden is not None and forbidden.calls:
                        raise CheckFailed(forbidden.message())
                except CheckFailed as failure:
                    message = forbidden.message() if forbidden is not None and forbidden.calls else str(failure)
                    note = _warning_note(caught)
                    if note and note not in message:
                        message = f"{message} Note: {note}"
                    problem = type(failure)(message)
                except Exception as error:  # noqa: BLE001
                    if _student_frames(error.__traceback__) is None:   # raised by the check itself
                        problem = CheckFailed(
                            f"the check could not use what your function returned ({type(error).__name__}: "
                            f"{error}). Compare its type and shape with what the exercise asks for."
                        )
                    else:
                        error.__suppress_context__ = True
                        raise error.with_traceback(_student_frames(error.__traceback__))
                else:
                    note = _warning_note(caught)
                    if note:
                        print(f"Note: {note} The answer is still accepted; see whether you can avoid it.")
                    return result
            raise problem from None
        finally:
            _running -= 1

    graded_check.__tracebackhide__ = True
    graded_check.forbids, graded_check.rule = forbids, rule
    REGISTRY[check.__name__] = graded_check
    return graded_check


def registered_check(name: str, namespace: dict | None = None) -> Callable:
    """The graded check ``name`` from the registry: what the nbgrader course's check cells call.

    ``registered_check("check_x", globals())(f)`` runs the check registered at import, whatever the
    notebook has bound to ``checks`` or to ``checks.check_x`` since. With ``namespace`` (the
    notebook's globals), a name ``checks`` there that is no longer the checks' package fails the
    check (and is put back).
    """
    __tracebackhide__ = True  # noqa: F841
    if name not in REGISTRY:
        raise CheckFailed(f"there is no check named {name!r}.")
    package = _SNAPSHOTS.get(_CHECKS_PACKAGE, (None,))[0]
    if namespace is not None and package is not None and "checks" in namespace and namespace["checks"] is not package:
        found = type(namespace["checks"]).__name__
        namespace["checks"] = package
        raise CheckFailed(f"the notebook's name `checks` was rebound (to a {found}) after "
                          "`from mlrefined_lib import checks`; it is restored now. Remove the code that rebinds "
                          "it and run the notebook again.")
    return REGISTRY[name]


registered_check.__tracebackhide__ = True
