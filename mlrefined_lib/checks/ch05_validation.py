"""Chapter 5, validation: the checks of its exercises."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from ._grading import CheckFailed, graded
from ._reference import _as_number, _call

__all__ = ["check_contiguous_folds", "check_one_standard_error_rule"]


@graded(forbids=('k_fold', 'time_folds'), rule='NumPy only, not ml.k_fold')
def check_contiguous_folds(student: Callable) -> None:
    """Check ``student(num_points, k) -> list of (train, validation)`` index pairs (chapter 5).

    The folds should be k contiguous blocks in row order, the first
    ``num_points % k`` of them one row longer, each train part the sorted
    complement of its validation block: the folds of scikit-learn's
    ``KFold(k)`` without shuffling, which is the reference.
    """
    from sklearn.model_selection import KFold

    cases = [(10, 2), (10, 3), (7, 7), (23, 5), (100, 10), (5, 2)]
    for num_points, k in cases:
        got = _call(student, "contiguous_folds", num_points, k)
        where = f"contiguous_folds({num_points}, {k})"
        try:
            pairs = [(np.asarray(t), np.asarray(v)) for t, v in got]
        except (TypeError, ValueError):
            raise CheckFailed(f"{where} should return a list of (train, validation) pairs of index arrays; "
                              f"found {type(got).__name__}.") from None
        if len(pairs) != k:
            raise CheckFailed(f"{where} returned {len(pairs)} folds; it should return k = {k}.")
        expected = list(KFold(k).split(np.zeros((num_points, 1))))
        sizes = [v.size for _, v in pairs]
        if sorted(np.concatenate([v.ravel() for _, v in pairs]).tolist()) != list(range(num_points)):
            raise CheckFailed(f"{where}: the validation blocks should hold every row 0..{num_points - 1} exactly "
                              "once; some row is missing or repeated.")
        for i, ((train, val), (train_ref, val_ref)) in enumerate(zip(pairs, expected)):
            if val.ravel().tolist() != val_ref.tolist():
                ref_sizes = [len(e[1]) for e in expected]
                if sizes != ref_sizes and sorted(sizes) == sorted(ref_sizes):
                    hint = "the sizes are right but not their order: the first num_points % k blocks are the longer ones."
                elif max(sizes) - min(sizes) > 1:
                    hint = (f"block sizes {sizes} differ by more than one; spread the num_points % k extra rows "
                            "over the first blocks, one each.")
                else:
                    hint = "each validation block should be the next run of consecutive rows, in order."
                raise CheckFailed(f"{where}: validation block {i} is wrong; {hint}")
            if train.ravel().tolist() != train_ref.tolist():
                raise CheckFailed(f"{where}: the training part of fold {i} should be every row not in its "
                                  "validation block, in increasing order.")
    print(f"Correct: your folds are those of scikit-learn's KFold for {len(cases)} pairs (P, k).")


@graded(forbids=('grid_search',), rule='NumPy only, not ml.grid_search')
def check_one_standard_error_rule(student: Callable) -> None:
    """Check ``student(means, standard_errors) -> int``: the one-standard-error choice (chapter 5).

    ``means`` and ``standard_errors`` are cross-validation errors of
    candidates listed from the simplest to the most complex. The answer is the
    index of the first candidate whose mean is at most the smallest mean plus
    that best candidate's standard error.
    """
    rng = np.random.default_rng(5)
    cases = [
        (np.array([3.0, 2.0, 1.5, 1.4, 1.45]), np.array([0.3, 0.2, 0.15, 0.12, 0.2])),
        (np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.5, 0.5])),
        (np.array([5.0, 4.0, 3.0, 2.0]), np.array([0.1, 0.1, 0.1, 0.1])),
        (np.array([2.0, 1.0, 1.1, 1.2]), np.array([1.5, 0.05, 0.5, 0.5])),
        (np.array([1.3, 1.2, 1.0, 1.25]), np.array([0.01, 0.01, 0.25, 0.01])),
    ]
    for _ in range(20):
        means = rng.uniform(1, 2, size=8)
        cases.append((means, rng.uniform(0.01, 0.3, size=8)))
    for means, errors in cases:
        best = int(np.argmin(means))
        expected = int(np.flatnonzero(means <= means[best] + errors[best])[0])
        got = _call(student, "one_standard_error_choice", means.copy(), errors.copy())
        value = _as_number(got, "one_standard_error_choice", "an index (a whole number)", int)
        if value == expected:
            continue
        where = f"for means {np.round(means, 3).tolist()} and standard errors {np.round(errors, 3).tolist()}"
        if value == best:
            hint = "that is the smallest mean; the rule picks the simplest candidate within one standard error of it."
        elif value == int(np.flatnonzero(means <= means[best] + errors)[0]) and value != expected:
            hint = "compare with the best candidate's own standard error, not each candidate's."
        elif value == int(np.flatnonzero(means <= means[best] + errors[best])[-1]):
            hint = "the candidates are listed simplest first: take the first one within the band, not the last."
        elif 0 <= value < len(means) and means[value] > means[best] + errors[best]:
            hint = f"candidate {value} has mean {means[value]:.3f}, more than one standard error above the best."
        else:
            hint = "take the first index whose mean is at most min(means) + standard_errors[argmin(means)]."
        raise CheckFailed(f"one_standard_error_choice returned {got!r} {where}; {hint}")
    print(f"Correct: your choice agrees with the rule on {len(cases)} lists of candidates.")
