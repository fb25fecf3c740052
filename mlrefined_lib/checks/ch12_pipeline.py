"""Chapter 12, a preprocessing pipeline: the checks of its exercises."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from ._grading import CheckFailed, graded
from ._reference import _as_array, _call

__all__ = ["check_date_features", "check_encode_with_train_categories", "check_matching_threshold",
           "check_smote_one_class"]


@graded
def check_date_features(student: Callable) -> None:
    """Check ``student(stamps) -> (P, 4) array`` of year, month, hour, day of week (chapter 12).

    ``stamps`` is a pandas Series of date-times. Column 3 should count days
    of the week from Monday = 0 to Sunday = 6 and months should run 1-12. The
    reference is Python's own ``datetime`` module, stamp by stamp; the check
    recognizes a Sunday-first week, a 1-based week, 0-based months and a
    missing hour.
    """
    import datetime

    import pandas as pd

    rng = np.random.default_rng(111)
    start = datetime.datetime(2009, 12, 27, 0, 0, 0)
    stamps = pd.Series([start + datetime.timedelta(hours=int(h)) for h in np.sort(rng.integers(0, 24 * 800, 60))])
    saved = stamps.copy()
    result = _call(student, "date_features", stamps)
    if not stamps.equals(saved):
        raise CheckFailed("date_features changed the Series it was given; build new columns instead.")
    got = _as_array(result, "date_features", (len(stamps), 4))
    python = [s.to_pydatetime() for s in stamps]
    expected = np.array([[s.year, s.month, s.hour, s.weekday()] for s in python], dtype=float)
    if np.array_equal(got, expected):
        print("Correct: year, month (1-12), hour and day of the week (Monday = 0) for all 60 time stamps.")
        return
    names = ["year", "month", "hour", "day of the week"]
    wrong = [n for i, n in enumerate(names) if not np.array_equal(got[:, i], expected[:, i])]
    day = got[:, 3]
    if wrong == ["day of the week"]:
        if np.array_equal(day, [s.isoweekday() % 7 for s in python]):
            raise CheckFailed("the day of the week counts from Sunday = 0; the chapter (and pandas' "
                              "dt.day_of_week) counts from Monday = 0 to Sunday = 6.")
        if np.array_equal(day, [s.isoweekday() for s in python]):
            raise CheckFailed("the day of the week runs 1-7 (isoweekday); use 0-6 with Monday = 0 (dt.day_of_week).")
        if np.array_equal(day, [s.day for s in python]):
            raise CheckFailed("column 3 holds the day of the month; the exercise asks for the day of the week "
                              "(dt.day_of_week).")
    if "month" in wrong and np.array_equal(got[:, 1], expected[:, 1] - 1):
        raise CheckFailed("the months run 0-11; keep the calendar's 1-12 (dt.month).")
    if "hour" in wrong and not got[:, 2].any():
        raise CheckFailed("the hour column is all zeros: was the time of day dropped (e.g. by .dt.date)? "
                          "Use dt.hour on the full time stamps.")
    raise CheckFailed(f"these columns are not right: {', '.join(wrong)}. Return the columns year, month, hour, "
                      "day of the week, in that order, one row per time stamp.")


@graded
def check_encode_with_train_categories(student: Callable) -> None:
    """Check ``student(train_values, new_values) -> (encoded_new, categories)`` (chapter 12).

    ``categories`` should be the sorted distinct training values, and
    ``encoded_new`` of shape ``(Q, K)`` the one-hot rows of the new values in
    those columns, with an all-zero row for a value the training split never
    showed. The reference is scikit-learn's
    ``OneHotEncoder(handle_unknown="ignore")`` fitted on the training values.
    """
    from sklearn.preprocessing import OneHotEncoder

    train = ["oak", "pine", "ash", "oak", "elm", "pine", "oak"]
    new = ["pine", "birch", "oak", "ash", "birch"]          # "birch" never appears in training
    saved = (list(train), list(new))
    result = _call(student, "encode_with_train_categories", train, new)
    if (list(train), list(new)) != saved:
        raise CheckFailed("encode_with_train_categories changed the lists it was given.")
    if not (isinstance(result, tuple) and len(result) == 2):
        raise CheckFailed("return a pair (encoded_new, categories).")
    encoded, categories = result
    categories = list(np.asarray(categories).tolist())
    reference = OneHotEncoder(handle_unknown="ignore", sparse_output=False).fit(np.array(train)[:, None])
    expected_categories = reference.categories_[0].tolist()
    if set(categories) == set(new):
        raise CheckFailed("the categories come from the new split; learn them from the training split only, "
                          "so that every split gets the same columns.")
    if set(categories) == set(train) | set(new):
        raise CheckFailed("the categories include 'birch', which only the new split has: that peeks at data the "
                          "model is not trained on and gives a column that is zero on every training point. "
                          "Learn the categories from the training split only.")
    if categories != expected_categories:
        raise CheckFailed(f"categories should be the sorted distinct training values {expected_categories}; "
                          f"found {categories}.")
    got = _as_array(encoded, "encoded_new", (len(new), len(expected_categories)))
    expected = reference.transform(np.array(new)[:, None])
    if np.array_equal(got, expected):
        print("Correct: training categories only, and each unseen 'birch' becomes a row of zeros.")
        return
    if np.array_equal(np.delete(got, [1, 4], axis=0), np.delete(expected, [1, 4], axis=0)):
        raise CheckFailed("the seen values are right, but an unseen value ('birch') should give a row of zeros: "
                          "it belongs to none of the training categories.")
    raise CheckFailed("the rows are not one-hot rows in the training categories' columns: row q should be 1 in "
                      "the column of new_values[q] and 0 elsewhere.")


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
    """Check ``student(members, count, k, seed) -> (count, N) array`` of SMOTE points for one class (chapter 12).

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
    """Check ``student(theta, trained_share, true_share) -> float`` (chapter 12).

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
