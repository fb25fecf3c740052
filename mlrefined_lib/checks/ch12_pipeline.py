"""Chapter 12, a preprocessing pipeline: the checks of its exercises."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from ._grading import CheckFailed, graded
from ._reference import _as_array, _call

__all__ = ["check_date_features", "check_encode_with_train_categories"]


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
