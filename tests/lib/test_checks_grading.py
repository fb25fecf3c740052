"""The checks are fit for grading (nbgrader): short failures, warnings kept off
stderr, the student's own names in messages, the gaps of the first checks
closed (an in-place w0, a test after the step, shortcuts an exercise rules out),
and tampering (a check or a NumPy function replaced, the name `checks` rebound)
found, undone and failed. The same cheats graded by real nbgrader are in
tests/nbgrader/test_nbgrader_course.py.
"""

from __future__ import annotations

import traceback
import types
import warnings
from pathlib import Path

import numpy as np
import pytest

import mlrefined_lib as ml
from mlrefined_lib import checks
from mlrefined_lib.checks import _grading
from mlrefined_lib import regularization as reg
from mlrefined_lib.imputation import mean_imputer


CHECKS_DIR = str(Path(checks.__file__).resolve().parent)


def in_checks(filename: str) -> bool:
    return str(Path(filename).resolve()).startswith(CHECKS_DIR)


def right_gradient(x, y, w):
    x_ext = np.column_stack([np.ones(len(x)), x])
    return 2.0 / len(x) * x_ext.T @ (x_ext @ w - y)


def descend_until_flat(gradient, w0, alpha, tol, max_its):
    w, steps = np.array(w0, dtype=float), 0
    direction = gradient(w)
    while steps < max_its and np.linalg.norm(direction) > tol:
        w = w - alpha * direction
        direction = gradient(w)
        steps += 1
    return w, steps


# ------------------------------------------------------------ warnings and messages


def test_a_warning_in_a_correct_answer_never_reaches_stderr(capsys):
    def noisy_gradient(x, y, w):
        warnings.warn("overflow encountered in exp", RuntimeWarning)
        return right_gradient(x, y, w)

    with warnings.catch_warnings():
        warnings.simplefilter("error")           # a warning escaping the check would raise here
        checks.check_least_squares_gradient(noisy_gradient)
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith("Correct") and "RuntimeWarning" in out


def test_a_warning_is_named_in_a_failure_message():
    def noisy_wrong(x, y, w):
        warnings.warn("divide by zero", RuntimeWarning)
        return right_gradient(x, y, w) / 2

    with pytest.raises(checks.CheckFailed, match="half the right size.*RuntimeWarning: divide by zero"):
        checks.check_least_squares_gradient(noisy_wrong)


def failure_of(check, student):
    with pytest.raises(checks.CheckFailed) as info:
        check(student)
    return info.value


def test_failure_shows_one_line_in_ipython_without_source_or_path():
    failure = failure_of(checks.check_least_squares_gradient, lambda x, y, w: right_gradient(x, y, w) / 2)
    rendered = failure._render_traceback_()
    assert len(rendered) == 1 and "CheckFailed" in rendered[0] and "half the right size" in rendered[0]
    assert "checks" not in rendered[0].lower().replace("checkfailed", "") and "/" not in rendered[0].split(":", 1)[0]


def test_failure_traceback_holds_no_frame_of_the_check():
    failure = failure_of(checks.check_least_squares_gradient, lambda x, y, w: -right_gradient(x, y, w))
    frames = traceback.extract_tb(failure.__traceback__)
    # Only the wrapper's own frame (hidden by __tracebackhide__) may come from the checks,
    # never the check's body with its reference computation.
    inside = [f for f in frames if in_checks(f.filename)]
    assert [f.name for f in inside] == ["graded_check"]
    assert failure.__suppress_context__ and failure.__cause__ is None


def test_error_in_student_code_keeps_the_student_frames_only():
    def broken(x, y, w):
        return x.no_such_attribute

    with pytest.raises(AttributeError) as info:
        checks.check_least_squares_gradient(broken)
    frames = traceback.extract_tb(info.value.__traceback__)
    assert frames[-1].name == "broken"
    assert [f.name for f in frames if in_checks(f.filename)] == ["graded_check"]


def test_error_in_a_library_call_made_by_the_student_points_at_the_student():
    def one_hot_by_hand(values, categories):
        return ml.standard_normalizer(np.array([[np.nan]]))   # the library refuses NaN: a ValueError

    with pytest.raises(ValueError) as info:
        checks.check_one_hot_by_hand(one_hot_by_hand)
    frames = traceback.extract_tb(info.value.__traceback__)
    assert frames[-1].name == "one_hot_by_hand"
    assert not isinstance(info.value, checks.CheckFailed)


def test_a_wrong_type_inside_the_check_becomes_a_short_failure():
    with pytest.raises(checks.CheckFailed):
        checks.check_least_squares_gradient(lambda x, y, w: {"not": "an array"})


def test_stub_message_is_unchanged():
    def stub(x, y, w):
        raise NotImplementedError("Exercise: replace this line with your code.")

    with pytest.raises(checks.CheckFailed, match="not written yet.*NotImplementedError"):
        checks.check_least_squares_gradient(stub)


# ----------------------------------------------------------------- chapter 7: names


def test_largest_alpha_message_uses_the_students_name():
    def largest_grid_alpha(x, gammas):
        return 1.0

    failure = failure_of(checks.check_largest_convergent_alpha, largest_grid_alpha)
    assert "largest_grid_alpha returned" in str(failure) and "largest_convergent_alpha" not in str(failure)


# ---------------------------------------------------------- chapter 1: descend_until_flat


def test_descend_until_flat_right_answer_passes(capsys):
    checks.check_descend_until_flat(descend_until_flat)
    assert capsys.readouterr().out.startswith("Correct")


def test_descend_until_flat_catches_in_place_update_of_w0():
    def in_place(gradient, w0, alpha, tol, max_its):
        w, steps = w0, 0                       # no copy: w0 itself moves
        while steps < max_its and np.linalg.norm(gradient(w)) > tol:
            w -= alpha * gradient(w)
            steps += 1
        return w, steps

    with pytest.raises(checks.CheckFailed, match="changed the w0"):
        checks.check_descend_until_flat(in_place)


def test_descend_until_flat_catches_test_after_the_step():
    def test_after_step(gradient, w0, alpha, tol, max_its):
        w, steps = np.array(w0, dtype=float), 0
        while steps < max_its:
            w = w - alpha * gradient(w)
            steps += 1
            if np.linalg.norm(gradient(w)) <= tol:
                break
        return w, steps

    with pytest.raises(checks.CheckFailed, match="should take none"):
        checks.check_descend_until_flat(test_after_step)


# ------------------------------------------------------------- shortcuts ruled out


def test_ridge_mean_form_may_not_call_reg_ridge():
    def ridge_mean_form(x, y, lam):
        return reg.ridge(x, y, lam * len(x))

    with pytest.raises(checks.CheckFailed, match="`ridge`.*do not call reg.ridge"):
        checks.check_ridge_mean_form(ridge_mean_form)
    assert reg.ridge is ml.ridge and reg.ridge.__module__ == "mlrefined_lib.regularization"


def test_training_medians_may_not_use_mean_imputer():
    def fill_with_training_medians(x_train, x_new):
        fill = mean_imputer(x_train)          # a name imported into the student's namespace
        return fill(x_train), fill(x_new)

    with pytest.raises(checks.CheckFailed, match="`mean_imputer`"):
        checks.check_train_median_impute(fill_with_training_medians)
    assert mean_imputer.__module__ == "mlrefined_lib.imputation"


def test_one_hot_by_hand_may_not_call_ml_one_hot():
    def one_hot_by_hand(values, categories):
        return ml.one_hot(np.asarray(values, dtype=object), list(categories))[0]

    with pytest.raises(checks.CheckFailed, match="`one_hot`"):
        checks.check_one_hot_by_hand(one_hot_by_hand)


def test_gradient_may_not_use_the_library_cost():
    def least_squares_gradient(x, y, w):
        return ml.least_squares(x, y).gradient(w)

    with pytest.raises(checks.CheckFailed, match="`least_squares`.*NumPy only"):
        checks.check_least_squares_gradient(least_squares_gradient)


def test_the_library_itself_may_use_a_ruled_out_function():
    # check_descend_until_flat hands the student g.gradient, built by least_squares inside the library;
    # the library's own calls are never refused, and the functions come back unchanged.
    checks.check_ridge_mean_form(lambda x, y, lam: np.linalg.solve(
        *(lambda a: (a.T @ a / len(x) + lam * np.diag([0.0] + [1.0] * x.shape[1]), a.T @ y / len(x)))(
            np.column_stack([np.ones(len(x)), x]))))
    assert ml.ridge(np.eye(3), np.ones(3), 1.0).shape == (4,)


# ------------------------------------------------------------------ the decorator


def test_graded_declares_what_an_exercise_rules_out():
    assert checks.check_contiguous_folds.forbids == ("k_fold", "time_folds")
    assert checks.check_contiguous_folds.rule == "NumPy only, not ml.k_fold"
    assert checks.check_descend_until_flat.forbids == ()


def test_graded_refuses_a_rule_without_its_reason_and_a_second_check_of_one_name():
    with pytest.raises(ValueError, match="rule="):
        _grading.graded(forbids=("ridge",))(lambda student: None)
    with pytest.raises(ValueError, match="registered already"):
        _grading.graded(checks.check_sgd_epoch.__wrapped__)


def test_no_check_module_is_long():
    for path in Path(CHECKS_DIR).glob("*.py"):
        assert len(path.read_text().splitlines()) <= 900, path.name


# ------------------------------------------------------------------ tampering


def test_a_replaced_check_is_restored_and_the_next_check_fails(capsys):
    original = checks.check_least_squares_gradient
    checks.check_least_squares_gradient = lambda *a, **k: print("Correct")
    try:
        with pytest.raises(checks.CheckFailed, match="`checks.check_least_squares_gradient` was replaced"):
            _grading.registered_check("check_least_squares_gradient", {"checks": checks})(right_gradient)
        assert checks.check_least_squares_gradient is original
        checks.check_least_squares_gradient(right_gradient)       # restored: runs as before
        assert capsys.readouterr().out.startswith("Correct")
    finally:
        checks.check_least_squares_gradient = original


def test_a_rebound_name_checks_fails_the_graded_call():
    namespace = {"checks": types.SimpleNamespace(check_sgd_epoch=lambda *a, **k: None)}
    with pytest.raises(checks.CheckFailed, match="name `checks` was rebound \\(to a SimpleNamespace\\)"):
        _grading.registered_check("check_sgd_epoch", namespace)
    assert namespace["checks"] is checks
    assert _grading.registered_check("check_sgd_epoch", namespace) is checks.check_sgd_epoch
    assert _grading.registered_check("check_sgd_epoch", {}) is checks.check_sgd_epoch


@pytest.mark.parametrize("module, attribute", [(np, "allclose"), (np.linalg, "norm"), (np.random, "default_rng")])
def test_a_replaced_numpy_function_is_restored_and_named(module, attribute, capsys):
    original = getattr(module, attribute)
    setattr(module, attribute, lambda *a, **k: True)
    try:
        with pytest.raises(checks.CheckFailed, match=f"`{module.__name__}.{attribute}` was replaced"):
            checks.check_least_squares_gradient(lambda x, y, w: np.zeros(len(w)))
        assert getattr(module, attribute) is original
        checks.check_least_squares_gradient(right_gradient)
        assert capsys.readouterr().out.startswith("Correct")
    finally:
        setattr(module, attribute, original)


def test_a_replaced_name_inside_a_chapter_module_is_restored():
    from mlrefined_lib.checks import ch01_gradient_descent as chapter

    original = chapter._finite_difference_gradient
    chapter._finite_difference_gradient = lambda g, w: right_gradient
    try:
        with pytest.raises(checks.CheckFailed, match="ch01_gradient_descent._finite_difference_gradient"):
            checks.check_least_squares_gradient(right_gradient)
        assert chapter._finite_difference_gradient is original
    finally:
        chapter._finite_difference_gradient = original


def test_an_unknown_check_name_fails():
    with pytest.raises(checks.CheckFailed, match="no check named"):
        _grading.registered_check("check_nothing")
