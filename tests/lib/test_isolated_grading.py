"""The isolated grader (mlrefined_lib/checks/_isolated.py): the checks run here, the student's code in a child.

Every check of the contract table (test_checks_contract.py) gives the same verdict through the child as
in the student's own process: the right answer passes, the known-wrong answer and the answer of the wrong
shape get their hints, the stub gets "not written yet". Tampering inside the child changes nothing; a
ruled-out library function is found in the source; the child has a time limit and may not write outside
its scratch folder; what it sends back is parsed strictly. The same grader under real nbgrader is tested
in tests/nbgrader/test_nbgrader_course.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mlrefined_lib.checks import _isolated
from mlrefined_lib.checks._isolated import ProtocolError, decode, encode, grade_notebook
from test_checks_contract import CONTRACT

HERE = Path(__file__).resolve().parent
SETUP = f"""import sys
sys.path.insert(0, {str(HERE)!r})
import numpy as np
import mlrefined_lib as ml
from mlrefined_lib import checks
import check_answers as right
from test_checks_contract import CONTRACT, stub
"""
VARIANTS = ("right", "wrong", "bad", "stub")


def code(source: str, solution: bool = False) -> dict:
    return {"cell_type": "code", "source": source, "metadata": {}} if not solution else \
        {"cell_type": "code", "source": "### BEGIN SOLUTION\n" + source + "\n### END SOLUTION", "metadata": {}}


def check_cell(name: str) -> dict:
    if CONTRACT[name].call is not None:
        return code(f"checks.{name}(student, right.PREDICTION_INPUTS, right.PREDICTION_EXPECTED)")
    return code(f"checks.{name}(student)")


@pytest.fixture(scope="module")
def contract_verdicts():
    cells, expected = [code(SETUP)], {}
    for name in sorted(CONTRACT):
        for variant in VARIANTS:
            student = "stub" if variant == "stub" else f"CONTRACT[{name!r}].{variant}"
            cells.append(code(f"student = {student}", solution=True))
            cells.append(check_cell(name))
            expected[len(cells) - 1] = (name, variant)
    # the checks' contracts through the channel; the sandbox itself is tests/lib/test_grading_sandbox.py's
    verdicts = grade_notebook(cells, timeout=600, sandbox=False)
    return {expected[i]: v for i, v in verdicts.items()}


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_every_check_keeps_its_contract_through_the_child(contract_verdicts, name):
    contract = CONTRACT[name]
    right = contract_verdicts[(name, "right")]
    assert right["passed"] and "Correct" in right["output"], right
    for variant, says in [("wrong", contract.wrong_says), ("bad", contract.bad_says), ("stub", "not written yet")]:
        verdict = contract_verdicts[(name, variant)]
        assert not verdict["passed"], (variant, verdict)
        assert verdict["error"][0] == "CheckFailed" and re.search(says, verdict["error"][1]), (variant, verdict)


def grade_one(solution: str, check: str = "checks.check_least_squares_gradient(least_squares_gradient)", **kw):
    cells = [code("import numpy as np\nimport mlrefined_lib as ml\nfrom mlrefined_lib import checks"),
             code(solution, solution=True), code(check)]
    return grade_notebook(cells, **kw)[2]


RIGHT = """def least_squares_gradient(x, y, w):
    x_ext = np.column_stack([np.ones(len(x)), x])
    return 2.0 / len(x) * x_ext.T @ (x_ext @ w - y)
"""
ZERO = "def least_squares_gradient(x, y, w):\n    return np.zeros(len(w))\n"
CHEATS = {
    "a check replaced": RIGHT.replace("2.0", "1.0") + "checks.check_least_squares_gradient = lambda *a: None\n",
    "the registry changed": ZERO + "from mlrefined_lib.checks._grading import REGISTRY\n"
                                   "REGISTRY.update({k: (lambda *a, **kw: None) for k in REGISTRY})\n",
    "np.allclose replaced": ZERO + "np.allclose = lambda *a, **k: True\n",
    "NumPy's private helpers replaced": ZERO + "import numpy._core.numeric as n\nn.isclose = lambda *a, **k: True\n",
    "the check's frames read": """def least_squares_gradient(x, y, w):
    import sys
    frame = sys._getframe(1)
    while frame is not None:
        if "expected" in frame.f_locals:
            return frame.f_locals["expected"]
        frame = frame.f_back
    return np.ones(len(w))
""",
    "an object that says it is equal": """class Liar(np.ndarray):
    def __eq__(self, other):
        return True
    def __array_function__(self, *args, **kwargs):
        return True

def least_squares_gradient(x, y, w):
    return np.zeros(len(w)).view(Liar)
""",
}


def test_the_right_answer_passes_and_zero_fails():
    assert grade_one(RIGHT)["passed"]
    verdict = grade_one(ZERO)
    assert not verdict["passed"] and "your gradient is not right" in verdict["error"][1]


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_tampering_in_the_child_changes_no_verdict(cheat):
    verdict = grade_one(CHEATS[cheat])
    assert not verdict["passed"], verdict


def test_a_ruled_out_function_is_found_in_the_source_even_when_not_called():
    solution = RIGHT + "\n\ndef unused(x, y):\n    return ml.least_squares(x, y)\n"
    verdict = grade_one(solution)
    assert not verdict["passed"] and "`least_squares`" in verdict["error"][1] and "NumPy only" in verdict["error"][1]
    hidden = RIGHT.replace("return", "getattr(ml, 'least_squares')\n    return")
    assert not grade_one(hidden)["passed"]


def test_a_ruled_out_function_called_at_run_time_is_refused_in_the_child():
    solution = ("f = ml\ndef least_squares_gradient(x, y, w):\n"
                "    return getattr(f, ''.join(['least_', 'squares']))(x, y).gradient(w)\n")
    verdict = grade_one(solution)
    assert not verdict["passed"] and "rules out" in verdict["error"][1], verdict


def test_an_error_in_the_students_function_keeps_its_type_message_and_line():
    verdict = grade_one("def least_squares_gradient(x, y, w):\n    return x @ w\n")
    assert not verdict["passed"] and verdict["error"][0] == "ValueError", verdict
    assert "return x @ w" in verdict["traceback"]


def test_the_child_has_a_time_limit():
    verdict = grade_one("while True:\n    pass\n", timeout=5)
    assert not verdict["passed"] and "time limit" in verdict["error"][1]


def test_the_child_may_not_write_outside_its_folder_or_start_programs(tmp_path):
    target = tmp_path / "written.txt"
    solution = RIGHT + (f"open({str(target)!r}, 'w').write('x')\n")
    grade_one(solution)
    assert not target.exists()
    started = tmp_path / "started.txt"
    grade_one(RIGHT + f"import os\nos.system('touch {started}')\n")
    assert not started.exists()


def test_a_function_argument_becomes_a_call_back():
    solution = ("def descend_until_flat(gradient, w0, alpha, tol, max_its):\n"
                "    w, steps = np.array(w0, dtype=float), 0\n"
                "    while steps < max_its and np.linalg.norm(gradient(w)) > tol:\n"
                "        w, steps = w - alpha * gradient(w), steps + 1\n"
                "    return w, steps\n")
    assert grade_one(solution, "checks.check_descend_until_flat(descend_until_flat)")["passed"]
    in_place = solution.replace("w, steps = np.array(w0, dtype=float), 0", "w, steps = w0, 0").replace(
        "w, steps = w - alpha * gradient(w), steps + 1", "w -= alpha * gradient(w)\n        steps += 1")
    verdict = grade_one(in_place, "checks.check_descend_until_flat(descend_until_flat)")
    assert not verdict["passed"] and "changed the w0" in verdict["error"][1]


@pytest.mark.parametrize("value", [
    None, True, 3, -2**70, 1.5, float("nan"), float("-inf"), "text", [1, "a"], (1.0, (2, None)), {"a": 1, 2: [3]},
    np.arange(6, dtype=np.int32).reshape(2, 3), np.array([1.5, np.nan]), np.array(["a", "bc"]),
    np.array([], dtype=float), np.float32(2.5), np.int64(7), np.array(["2020-01-01"], dtype="datetime64[ns]"),
])
def test_values_survive_the_channel(value):
    back = decode(json.loads(json.dumps(encode(value))))
    assert type(back) is type(value)
    if isinstance(value, np.ndarray):
        assert back.dtype == value.dtype and back.shape == value.shape
        np.testing.assert_array_equal(back, value)
    elif isinstance(value, float) and np.isnan(value):
        assert np.isnan(back)
    else:
        assert back == value


def test_pandas_values_survive_the_channel():
    series = pd.Series(pd.to_datetime(["2021-03-04 05:00", "2022-01-01 00:00"]), name="stamps")
    back = decode(json.loads(json.dumps(encode(series))))
    assert type(back) is pd.Series and back.equals(series)
    frame = pd.DataFrame({"a": [1.0, 2.0], "b": ["x", "y"]})
    back = decode(json.loads(json.dumps(encode(frame))))
    assert type(back) is pd.DataFrame and back.equals(frame)


@pytest.mark.parametrize("message", [
    {"t": "pickle", "v": ""}, {"t": "array", "dtype": "O", "shape": [1], "v": ""},
    {"t": "array", "dtype": "<f8", "shape": [2], "v": "AAAAAAAAAAA="}, {"t": "int", "v": "1e5"},
    {"t": "float", "v": 1.0}, {"t": "callable", "id": 0, "name": "f"}, [1, 2], {"t": "list", "v": "abc"},
])
def test_malformed_values_are_refused(message):
    with pytest.raises(ProtocolError):
        decode(message)


def test_an_unknown_object_comes_back_as_a_plain_object_named_like_it():
    back = decode(encode(iter([1])))
    assert type(back).__name__ == "list_iterator" and not isinstance(back, (list, np.ndarray))
    assert _isolated._other("list_iterator") != back
