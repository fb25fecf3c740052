"""Chapter 13, class imbalance, thresholds and calibration: the checks of its exercises."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from ._grading import CheckFailed, graded
from ._reference import _as_array, _call

__all__ = ["check_matching_threshold", "check_smote_one_class"]


def _segment_origins(points: np.ndarray, members: np.ndarray, neighbours: np.ndarray, tol: float = 1e-8):
    """For each point, True if it lies on a segment from a member to one of its listed neighbours."""
    found = []
    for p in points:
        ok = False
        for a, row in zip(members, neighbours):
            d = members[row] - a                                   # (k, N)
            lengths = (d**2).sum(axis=1)
            t = np.where(lengths > 0, (d @ (p - a)) / np.where(lengths > 0, lengths, 1.0), 0.0)
            close = np.all(np.abs(a + t[:, None] * d - p) <= tol * (1 + np.abs(p)), axis=1)
            if np.any(close & (t >= -tol) & (t <= 1 + tol)):
                ok = True
                break
        found.append(ok)
    return np.array(found)


@graded
def check_smote_one_class(student: Callable) -> None:
    """Check ``student(members, count, k, seed) -> (count, N) array`` of SMOTE points for one class (chapter 13).

    Every new point should lie on a segment from a member to one of that
    member's ``k`` nearest *other* members; the points should not be copies of
    the members; the input should not change; and the points should spread
    over many members. Neighbours come from scikit-learn's
    ``NearestNeighbors``, independently of the library's :func:`~mlrefined_lib.pipeline.smote`.
    """
    from sklearn.neighbors import NearestNeighbors

    rng = np.random.default_rng(112)
    members = rng.normal(size=(30, 2)) * [3.0, 1.0]
    saved = members.copy()
    k, count = 3, 60
    result = _call(student, "smote_one_class", members, count, k, 0)
    if not np.array_equal(members, saved):
        raise CheckFailed("smote_one_class changed the points it was given; build new ones.")
    got = _as_array(result, "smote_one_class", (count, 2))
    nearest = NearestNeighbors(n_neighbors=k + 1).fit(members).kneighbors(members, return_distance=False)
    copies = np.array([np.any(np.all(np.isclose(members, p, rtol=0, atol=1e-12), axis=1)) for p in got])
    if copies.any():
        raise CheckFailed(f"{int(copies.sum())} of the {count} new points are exact copies of members. Is each "
                          "point among its own neighbours (its distance to itself is 0)? Leave it out, e.g. skip "
                          "the first column of the argsort. Or is the random step u sometimes 0?")
    if _segment_origins(got, members, nearest[:, 1:]).all():
        if len(np.unique(np.round(got, 8), axis=0)) < count // 2:
            raise CheckFailed("many new points coincide: draw a new member, neighbour and step u for each point.")
        print(f"Correct: all {count} new points lie on segments from a member to one of its {k} nearest neighbours.")
        return
    everyone = np.argsort(((members[:, None] - members[None]) ** 2).sum(axis=2), axis=1, kind="stable")[:, 1:]
    if _segment_origins(got, members, everyone).all():
        raise CheckFailed("each new point lies between two members, but not always between a member and one of "
                          f"its {k} NEAREST other members: sort the distances from the member, leave the member "
                          "itself out, and take the k smallest.")
    on_lines = []
    for p in got:
        hit = False
        for a, row in zip(members, nearest[:, 1:]):
            d = members[row] - a
            t = (d @ (p - a)) / (d**2).sum(axis=1)
            if np.any(np.all(np.abs(a + t[:, None] * d - p) <= 1e-8 * (1 + np.abs(p)), axis=1)):
                hit = True
                break
        on_lines.append(hit)
    if all(on_lines):
        raise CheckFailed("some new points lie on the line through a member and a neighbour but outside the "
                          "segment between them: draw the step u uniformly from [0, 1).")
    raise CheckFailed(f"the new points are not all of the form a + u (b - a) with a a member, b one of its {k} "
                      "nearest other members and u in [0, 1).")


def _shifted(p: float, trained: float, true: float) -> float:
    """Bayes' rule for a new share of class 1, written here apart from the library's ``prior_shift``."""
    up, down = p * true / trained, (1 - p) * (1 - true) / (1 - trained)
    return up / (up + down)


@graded(forbids=("prior_shift",), rule="work with the odds, not ml.prior_shift")
def check_matching_threshold(student: Callable) -> None:
    """Check ``student(theta, trained_share, true_share) -> float`` (chapter 13).

    A model fitted where class 1 had share ``trained_share`` and used where it
    has share ``true_share``: the answer is the threshold on its *raw*
    probability that calls class 1 on exactly the rows whose prior-shifted
    probability is at least ``theta``. The reference solves
    ``shifted(t) = theta`` by bisection (the shift is increasing in t), with
    Bayes' rule written in this module. Cases include no shift at all and a
    class that is rarer, and one that is commoner, than in training.
    """
    cases = [(0.5, 0.5, 0.04), (0.3, 0.2, 0.05), (0.5, 0.25, 0.25), (0.1, 0.5, 0.3), (0.7, 0.3, 0.6),
             (0.25, 0.2, 0.016)]
    for theta, trained, true in cases:
        result = _call(student, "matching_threshold", theta, trained, true)
        try:
            got = float(result)
        except (TypeError, ValueError):
            raise CheckFailed(f"matching_threshold should return one number; found {type(result).__name__} "
                              f"{np.shape(result)}.") from None
        low, high = 0.0, 1.0
        for _ in range(200):
            middle = (low + high) / 2
            low, high = (middle, high) if _shifted(middle, trained, true) < theta else (low, middle)
        expected = (low + high) / 2
        if abs(got - expected) <= 1e-9:
            continue
        where = (f"for theta = {theta:g}, trained_share = {trained:g} and true_share = {true:g} your threshold "
                 "does not call class 1 on the same rows as theta on the shifted probabilities")
        hints = [
            (_shifted(theta, trained, true), "you applied the shift to theta; the threshold on the raw "
                                             "probability undoes it (a rarer class needs a HIGHER raw threshold)."),
            (theta, "you returned theta unchanged; when the shares differ, the threshold must move."),
            (theta * trained / true, "you scaled the probability theta by the ratio of the shares; Bayes' rule "
                                     "scales the odds theta / (1 - theta), then turn the odds back into a "
                                     "probability."),
        ]
        for wrong, hint in hints:
            if abs(got - wrong) <= 1e-9:
                raise CheckFailed(f"{where}: {hint}")
        raise CheckFailed(f"{where}. Write the shifted odds of a raw probability t, set them equal to the odds of "
                          "theta and solve for t.")
    print(f"Correct: on all {len(cases)} cases your threshold on the raw probability calls class 1 exactly where "
          "the shifted probability reaches theta.")
