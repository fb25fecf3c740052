"""A preprocessing pipeline for real tables, step by step (chapter 12).

Chapters 6-11 teach one preprocessing step each. This module adds what is
needed to chain them on a raw table without leaking information from the
validation and test splits into the model:

* :func:`train_validation_test_split` splits a table into train / validation /
  test (stratified by a class column if asked, seeded);
* :func:`features_and_target` separates the input columns from the target;
* :func:`uncommon_features`, :func:`unseen_categories` and
  :func:`identifier_columns` find columns that should not reach a model as
  they are;
* :func:`decompose_datetimes` turns a date-time column into numbers (year,
  month, day, hour, minute, second, day of the week);
* :func:`random_oversample` and :func:`smote` balance the classes of a
  training split;
* :class:`Pipeline` chains *fitted steps*: each step is fitted on the
  training split only and then applied, unchanged, to any later table. The
  step constructors :func:`drop_columns`, :func:`date_parts_step`,
  :func:`impute`, :func:`one_hot_encode` and :func:`standardize` reuse the
  library's own :func:`~mlrefined_lib.imputation.mean_imputer`,
  :func:`~mlrefined_lib.histograms.one_hot` and
  :func:`~mlrefined_lib.normalizers.standard_normalizer`.

A *step* is a function ``fit(train_frame) -> transform``; ``transform(frame)``
returns a new DataFrame and carries the fitted values in
``transform.statistics`` (a dict). Tables are pandas DataFrames; nothing is
changed in place.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from ._validation import as_inputs, check_scalar
from .histograms import one_hot
from .imputation import mean_imputer
from .normalizers import _constant_features, standard_normalizer

__all__ = [
    "train_validation_test_split",
    "features_and_target",
    "uncommon_features",
    "unseen_categories",
    "identifier_columns",
    "decompose_datetimes",
    "DATE_PARTS",
    "random_oversample",
    "smote",
    "Pipeline",
    "drop_columns",
    "date_parts_step",
    "impute",
    "one_hot_encode",
    "standardize",
]

#: The parts :func:`decompose_datetimes` can take out of a date-time column.
DATE_PARTS = ("year", "month", "day", "hour", "minute", "second", "dayofweek")


# ---------------------------------------------------------------- checks


def _check_frame(frame, name: str = "frame") -> pd.DataFrame:
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"{name} must be a pandas DataFrame (a table with named columns); "
                         f"found {type(frame).__name__}.")
    return frame


def _check_columns(frame: pd.DataFrame, columns, name: str = "frame") -> list:
    if isinstance(columns, str) or not isinstance(columns, Sequence | pd.Index | np.ndarray):
        columns = [columns]
    columns = list(columns)
    unknown = [c for c in columns if c not in frame.columns]
    if unknown:
        known = list(frame.columns)
        shown = ", ".join(repr(c) for c in known[:12]) + (" ..." if len(known) > 12 else "")
        raise ValueError(f"unknown column name(s) {unknown} in {name}; its {len(known)} columns are {shown}.")
    return columns


def _check_fractions(fractions) -> np.ndarray:
    values = np.asarray(fractions, dtype=float)
    if values.ndim != 1 or values.size not in (2, 3):
        raise ValueError(f"fractions must give 2 (train, test) or 3 (train, validation, test) numbers; "
                         f"found {fractions!r}.")
    if not np.all(np.isfinite(values)) or np.any(values <= 0):
        raise ValueError(f"every split fraction must be a positive number; found {fractions!r}.")
    if abs(values.sum() - 1.0) > 1e-9:
        raise ValueError(f"split fractions must sum to 1; found {fractions!r}, which sums to {values.sum():.6g}.")
    return values


# ---------------------------------------------------------------- splitting


def _allocate(count: int, fractions: np.ndarray) -> np.ndarray:
    """Split ``count`` items into ``len(fractions)`` whole parts (largest remainders)."""
    exact = count * fractions
    parts = np.floor(exact).astype(int)
    short = count - parts.sum()
    order = np.argsort(-(exact - parts), kind="stable")
    parts[order[:short]] += 1
    return parts


def train_validation_test_split(frame, fractions=(0.6, 0.2, 0.2), *, target=None, stratify: bool = False,
                                seed: int = 0) -> tuple[pd.DataFrame, ...]:
    """Split a table's rows at random into train, validation and test (chapter 12).

    With ``stratify=True`` each class of the ``target`` column is split on its
    own with the same fractions (rounded to whole rows, the remainders going to
    the splits with the largest fractional parts), so that every split keeps
    the class shares of the whole table to within about one percentage point.

    Parameters
    ----------
    frame : pandas.DataFrame of P rows
    fractions : 2 or 3 positive numbers summing to 1
        (train, test) or (train, validation, test), e.g. (0.6, 0.2, 0.2).
    target : column name, optional
        The class column to stratify by (needed when ``stratify`` is True).
    stratify : bool
    seed : int
        Seed of the NumPy random generator: the same seed gives the same split.

    Returns
    -------
    splits : tuple of 2 or 3 DataFrames
        New tables (copies), the rows of each in their original order and with
        their original index, together holding every row exactly once.

    Raises
    ------
    ValueError
        If ``frame`` is not a DataFrame, the fractions do not sum to 1 (or are
        not 2 or 3 positive numbers), ``target`` is not a column, or
        ``stratify`` is asked for without a target.
    """
    frame = _check_frame(frame)
    values = _check_fractions(fractions)
    if target is not None:
        _check_columns(frame, [target])
    if stratify and target is None:
        raise ValueError("stratify=True needs target=<name of the class column> to stratify by.")
    rng = np.random.default_rng(seed)
    positions = np.arange(len(frame))
    if stratify:
        labels = frame[target].to_numpy()
        if pd.isna(frame[target]).any():
            raise ValueError(f"the target column {target!r} has {int(pd.isna(frame[target]).sum())} missing "
                             "value(s); drop those rows before a stratified split.")
        groups = [positions[labels == c] for c in pd.unique(labels)]
    else:
        groups = [positions]
    chosen: list[list[np.ndarray]] = [[] for _ in values]
    for group in groups:
        shuffled = rng.permutation(group)
        edges = np.cumsum(_allocate(len(group), values))[:-1]
        for s, part in enumerate(np.split(shuffled, edges)):
            chosen[s].append(part)
    return tuple(frame.iloc[np.sort(np.concatenate(parts))].copy() for parts in chosen)


def features_and_target(frame, target) -> tuple[pd.DataFrame, pd.Series]:
    """Separate a table into its input columns and its target column (chapter 12).

    Returns
    -------
    features : DataFrame, every column but ``target`` (a copy)
    target : Series, the target column (a copy)

    Raises
    ------
    ValueError
        If ``target`` is not a column of ``frame`` (the message lists them).
    """
    frame = _check_frame(frame)
    _check_columns(frame, [target])
    return frame.drop(columns=[target]), frame[target].copy()


# ---------------------------------------------------------------- columns to look at


def uncommon_features(frames, names: Sequence[str] | None = None) -> dict:
    """Columns present in some of the tables but not in all of them (chapter 12).

    A model can only use a feature that every split has. Encoding each split
    on its own, for example, gives a split without a rare category a column
    less than the others.

    Parameters
    ----------
    frames : sequence of DataFrames (the splits)
    names : sequence of str, optional
        A name for each table (default "split 0", "split 1", ...).

    Returns
    -------
    uncommon : dict
        ``{column: [names of the tables that lack it]}``, in order of first
        appearance; empty if every table has the same columns.
    """
    frames = list(frames)
    if len(frames) < 2:
        raise ValueError(f"uncommon_features compares at least 2 tables; found {len(frames)}.")
    for i, f in enumerate(frames):
        _check_frame(f, f"frames[{i}]")
    if names is None:
        names = [f"split {i}" for i in range(len(frames))]
    names = list(names)
    if len(names) != len(frames):
        raise ValueError(f"names must give one name per table: {len(frames)} tables, {len(names)} names.")
    seen: dict = {}
    for f in frames:
        for c in f.columns:
            seen.setdefault(c, None)
    uncommon = {}
    for c in seen:
        lacking = [name for name, f in zip(names, frames) if c not in f.columns]
        if lacking:
            uncommon[c] = lacking
    return uncommon


def _categorical_columns(frame: pd.DataFrame) -> list:
    return [c for c in frame.columns
            if frame[c].dtype == object or isinstance(frame[c].dtype, pd.StringDtype | pd.CategoricalDtype)]


def unseen_categories(train, other, columns=None) -> dict:
    """Categories of ``other`` that the training split never shows (chapter 12).

    Parameters
    ----------
    train, other : DataFrames
    columns : column names, optional
        By default every categorical (object, string or category) column of
        ``train``.

    Returns
    -------
    unseen : dict
        ``{column: sorted list of values}`` for each column with at least one
        value in ``other`` (missing values aside) that ``train`` lacks.
    """
    train, other = _check_frame(train, "train"), _check_frame(other, "other")
    columns = _categorical_columns(train) if columns is None else _check_columns(train, columns, "train")
    _check_columns(other, columns, "other")
    unseen = {}
    for c in columns:
        known = set(train[c].dropna().tolist())
        extra = sorted({v for v in other[c].dropna().tolist() if v not in known}, key=str)
        if extra:
            unseen[c] = extra
    return unseen


def identifier_columns(frame) -> list:
    """Columns that hold a different value in every row: identifiers (chapter 12).

    A row number, a parcel number or a customer code is unique per row, so it
    carries no pattern a model could use on new rows (only a way to memorize
    the old ones). Only integer, string and object columns without missing
    values are considered: a real-valued measurement or a time stamp can be
    unique per row and still be informative (decompose date-times with
    :func:`decompose_datetimes` instead of dropping them).

    Returns
    -------
    columns : list of column names, in table order
    """
    frame = _check_frame(frame)
    if len(frame) < 2:
        raise ValueError(f"identifier_columns needs at least 2 rows to tell; found {len(frame)}.")
    found = []
    for c in frame.columns:
        column = frame[c]
        kind = column.dtype
        eligible = (pd.api.types.is_integer_dtype(kind) or kind == object or isinstance(kind, pd.StringDtype))
        if eligible and not column.isna().any() and column.nunique() == len(frame):
            found.append(c)
    return found


def decompose_datetimes(frame, columns=None, parts: Sequence[str] = DATE_PARTS) -> pd.DataFrame:
    """Replace each date-time column by numeric columns of its parts (chapter 12).

    Column ``c`` becomes ``c_year``, ``c_month`` (1-12), ``c_day`` (1-31),
    ``c_hour``, ``c_minute``, ``c_second`` and ``c_dayofweek`` (Monday = 0,
    Sunday = 6), as many of them as ``parts`` asks for, at the place of ``c``.
    A missing time stamp (NaT) gives NaN parts.

    Parameters
    ----------
    frame : DataFrame
    columns : column names, optional
        By default every column of a datetime64 type.
    parts : sequence of names from :data:`DATE_PARTS`

    Returns
    -------
    DataFrame, a new table.

    Raises
    ------
    ValueError
        For an unknown column or part name, or a column that is not of a
        date-time type.
    """
    frame = _check_frame(frame)
    parts = list(parts)
    unknown = [p for p in parts if p not in DATE_PARTS]
    if unknown or not parts:
        raise ValueError(f"unknown date part(s) {unknown or parts}; choose from {list(DATE_PARTS)}.")
    if columns is None:
        columns = [c for c in frame.columns if pd.api.types.is_datetime64_any_dtype(frame[c])]
    columns = _check_columns(frame, columns)
    for c in columns:
        if not pd.api.types.is_datetime64_any_dtype(frame[c]):
            raise ValueError(f"column {c!r} is not a date-time column (dtype {frame[c].dtype}); "
                             "convert it first, e.g. frame[c] = pd.to_datetime(frame[c]).")
    pieces = []
    for c in frame.columns:
        if c in columns:
            stamps = frame[c].dt
            for p in parts:
                values = stamps.day_of_week if p == "dayofweek" else getattr(stamps, p)
                pieces.append(values.rename(f"{c}_{p}"))
        else:
            pieces.append(frame[c])
    return pd.concat(pieces, axis=1) if pieces else frame.copy()


# ---------------------------------------------------------------- class imbalance


def _check_labelled(x, y) -> tuple[np.ndarray, np.ndarray]:
    x = as_inputs(x)
    labels = np.asarray(y)
    if labels.ndim != 1:
        raise ValueError(f"y must be 1-D with shape (P,); found shape {labels.shape}.")
    if labels.shape[0] != x.shape[0]:
        raise ValueError(f"x and y disagree on the number of points: x has shape {x.shape} but y has shape "
                         f"{labels.shape}.")
    if pd.isna(labels).any():
        raise ValueError("y holds missing labels; drop those points first.")
    return x, labels


def random_oversample(x, y, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Balance the classes by repeating randomly chosen points (chapter 12).

    Every class smaller than the largest is raised to the largest class's
    count by drawing points of that class uniformly at random, with
    replacement, and appending copies of them.

    Parameters
    ----------
    x : array of shape (P, N), finite numbers
    y : array of shape (P,), class labels (numbers or strings)
    seed : int

    Returns
    -------
    x_resampled : array of shape (P + S, N)
        The original P points first, in their order, then the S copies.
    y_resampled : array of shape (P + S,)

    Raises
    ------
    ValueError
        For wrong shapes, NaN/inf in ``x``, missing labels, or a non-integer
        seed.
    """
    x, labels = _check_labelled(x, y)
    rng = np.random.default_rng(check_scalar(seed, "seed", numbers.Integral))
    classes, counts = np.unique(labels, return_counts=True)
    largest = counts.max()
    drawn = [rng.choice(np.flatnonzero(labels == c), size=largest - n, replace=True)
             for c, n in zip(classes, counts) if n < largest]
    extra = np.concatenate(drawn) if drawn else np.array([], dtype=int)
    return np.vstack([x, x[extra]]), np.concatenate([labels, labels[extra]])


def _nearest_neighbours(points: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k nearest other points of each point, nearest first."""
    squared = (points**2).sum(axis=1)
    distances = squared[:, None] + squared[None, :] - 2.0 * points @ points.T
    np.fill_diagonal(distances, np.inf)
    if k >= len(points) - 1:
        return np.argsort(distances, axis=1, kind="stable")[:, :k]
    nearest = np.argpartition(distances, k - 1, axis=1)[:, :k]          # the k smallest, in no order
    order = np.argsort(np.take_along_axis(distances, nearest, axis=1), axis=1, kind="stable")
    return np.take_along_axis(nearest, order, axis=1)


def smote(x, y, k: int = 5, seed: int = 0, *, return_parents: bool = False) -> tuple:
    """SMOTE: balance the classes with synthetic points between neighbours (chapter 13).

    For every class smaller than the largest, each new point is made by
    choosing a point ``a`` of the class at random, one of its ``k`` nearest
    neighbours ``b`` *within the class* at random (Euclidean distance), and a
    number ``t`` uniform in [0, 1), and taking ``a + t (b − a)``: a point on
    the segment from ``a`` to ``b`` (Chawla et al., 2002). New points are made
    until the class has as many points as the largest class. Distances are
    taken on ``x`` as given, so scale the features first (chapter 7).

    Parameters
    ----------
    x : array of shape (P, N), finite numbers
    y : array of shape (P,), class labels
    k : int >= 1
        Number of nearest neighbours of the same class to choose from.
    seed : int
    return_parents : bool, default False
        Also return each synthetic point's two parents (the same points are
        drawn either way).

    Returns
    -------
    x_resampled : array of shape (P + S, N)
        The original P points first, in their order, then the S synthetic ones
        (class by class, in sorted label order).
    y_resampled : array of shape (P + S,)
    parents : int array of shape (S, 2), only if ``return_parents``
        Row ``s`` holds the indices into ``x`` of the synthetic point
        ``P + s``'s ``a`` and ``b``.

    Raises
    ------
    ValueError
        For wrong shapes, NaN/inf, missing labels, ``k`` not a positive
        integer, or a class to be raised with fewer than ``k + 1`` points (the
        message names the class and its count).
    TypeError
        For ``return_parents`` not a bool (``0`` and ``1`` included).
    """
    x, labels = _check_labelled(x, y)
    k = check_scalar(k, "k", numbers.Integral, min_val=1)  # the number of neighbours
    rng = np.random.default_rng(check_scalar(seed, "seed", numbers.Integral))
    if not isinstance(return_parents, (bool, np.bool_)):
        raise TypeError(f"return_parents must be True or False; found {return_parents!r} "
                        f"of type {type(return_parents).__name__}.")
    classes, counts = np.unique(labels, return_counts=True)
    largest = counts.max()
    too_small = [(c, n) for c, n in zip(classes, counts) if n < largest and n < k + 1]
    if too_small:
        listed = ", ".join(f"{c.item() if hasattr(c, 'item') else c!r} has {n}" for c, n in too_small)
        raise ValueError(f"smote needs at least k + 1 = {k + 1} points in every class it raises (each point and "
                         f"its k neighbours); class {listed} point(s). Use a smaller k or random_oversample.")
    new_x, new_y, parents = [x], [labels], [np.empty((0, 2), dtype=int)]
    for c, n in zip(classes, counts):
        if n == largest:
            continue
        rows = np.flatnonzero(labels == c)
        members = x[rows]
        neighbours = _nearest_neighbours(members, int(k))
        count = largest - n
        start = rng.integers(n, size=count)
        chosen = neighbours[start, rng.integers(int(k), size=count)]
        steps = rng.random(count)[:, None]
        new_x.append(members[start] + steps * (members[chosen] - members[start]))
        new_y.append(np.full(count, c, dtype=labels.dtype))
        parents.append(np.column_stack([rows[start], rows[chosen]]))
    if return_parents:
        return np.vstack(new_x), np.concatenate(new_y), np.vstack(parents)
    return np.vstack(new_x), np.concatenate(new_y)


# ---------------------------------------------------------------- fitted steps and the pipeline

Step = Callable[[pd.DataFrame], Callable[[pd.DataFrame], pd.DataFrame]]


def _fitted(transform: Callable, statistics: dict, name: str) -> Callable:
    transform.statistics = statistics
    transform.step = name
    return transform


def drop_columns(columns) -> Step:
    """Step that removes the given columns (identifiers, uncommon features; chapter 12)."""
    columns = [columns] if isinstance(columns, str) else list(columns)

    def fit(train):
        _check_columns(_check_frame(train, "the training table"), columns, "the training table")

        def transform(frame):
            _check_columns(_check_frame(frame), columns)
            return frame.drop(columns=columns)

        return _fitted(transform, {}, "drop_columns")

    return fit


def date_parts_step(columns=None, parts: Sequence[str] = DATE_PARTS) -> Step:
    """Step that applies :func:`decompose_datetimes` (nothing to fit; chapter 12)."""
    parts = list(parts)

    def fit(train):
        _check_frame(train, "the training table")
        if columns is None:
            names = [c for c in train.columns if pd.api.types.is_datetime64_any_dtype(train[c])]
        else:
            names = _check_columns(train, columns, "the training table")
        decompose_datetimes(train.iloc[:1], names, parts)  # checks the columns' types and the parts

        def transform(frame):
            return decompose_datetimes(frame, names, parts)

        return _fitted(transform, {}, "date_parts")

    return fit


def impute(columns, strategy: str = "median") -> Step:
    """Step that fills missing entries with training statistics (chapter 8's ``mean_imputer``).

    ``strategy`` is "mean", "median" or "most_frequent" (the one for
    categorical columns). ``transform.statistics`` maps each column to its
    fill value.
    """
    columns = [columns] if isinstance(columns, str) else list(columns)

    def fit(train):
        _check_columns(_check_frame(train, "the training table"), columns, "the training table")
        block = train[columns]
        categorical = strategy == "most_frequent" and bool(_categorical_columns(block))
        values = block.astype(object).to_numpy() if categorical else block.to_numpy(dtype=float)
        filler = mean_imputer(values, strategy, names=columns)

        def transform(frame):
            _check_columns(_check_frame(frame), columns)
            out = frame.copy()
            new = frame[columns]
            new = new.astype(object).to_numpy() if categorical else new.to_numpy(dtype=float)
            filled = filler(new)
            for i, c in enumerate(columns):
                out[c] = filled[:, i] if not categorical else pd.Series(filled[:, i], index=frame.index, dtype=object)
            return out

        return _fitted(transform, dict(zip(columns, filler.statistics.tolist())), f"impute ({strategy})")

    return fit


def one_hot_encode(columns) -> Step:
    """Step that one-hot encodes categorical columns with the *training* categories (chapter 12).

    Column ``c`` with training categories ``v_1 < ... < v_K`` becomes the K
    columns ``c=v_1``, ..., ``c=v_K`` (chapter 6's :func:`~mlrefined_lib.histograms.one_hot`), placed
    at the end of the table. **A category that the training split never
    showed becomes a row of zeros** in that column's block (the model then
    uses its bias alone for that feature), so validation and test tables
    always get exactly the training columns. Missing entries must be imputed
    first: the encoder raises a ValueError on them.
    ``transform.statistics`` maps each column to its list of categories.
    """
    columns = [columns] if isinstance(columns, str) else list(columns)

    def fit(train):
        _check_columns(_check_frame(train, "the training table"), columns, "the training table")
        categories = {c: one_hot(train[c].astype(object).to_numpy())[1] for c in columns}

        def transform(frame):
            _check_columns(_check_frame(frame), columns)
            blocks = [frame.drop(columns=columns)]
            for c in columns:
                encoded, _ = one_hot(frame[c].astype(object).to_numpy(), categories[c], handle_unknown="ignore")
                blocks.append(pd.DataFrame(encoded, index=frame.index, columns=[f"{c}={v}" for v in categories[c]]))
            return pd.concat(blocks, axis=1)

        return _fitted(transform, categories, "one_hot_encode")

    return fit


def standardize(columns) -> Step:
    """Step that standard-normalizes columns with the *training* mean and standard deviation (chapter 7).

    Built on :func:`~mlrefined_lib.normalizers.standard_normalizer`, with its
    rule for a constant feature: a column whose training standard deviation is
    0, or rounding noise (at most 1e-12 of its mean), raises a ValueError that
    names it; drop such columns first (:func:`drop_columns`).
    ``transform.statistics`` maps each column to its ``(mean, std)``.
    """
    columns = [columns] if isinstance(columns, str) else list(columns)

    def fit(train):
        _check_columns(_check_frame(train, "the training table"), columns, "the training table")
        block = as_inputs(train[columns].to_numpy(dtype=float), "the training columns")
        constant = [columns[i] for i in _constant_features(block)]
        if constant:
            raise ValueError(f"standardize: column(s) {constant} are constant on the training split; "
                             "drop them first (they carry no information), e.g. with drop_columns.")
        normalize, _ = standard_normalizer(block)
        mean, std = normalize.mean, normalize.std

        def transform(frame):
            _check_columns(_check_frame(frame), columns)
            out = frame.copy()
            # normalize's arithmetic, (x − μ)/σ, also on rows that still hold NaN (an imputer may come later)
            out[columns] = (frame[columns].to_numpy(dtype=float) - mean) / std
            return out

        return _fitted(transform, {c: (float(m), float(s)) for c, m, s in zip(columns, mean, std)}, "standardize")

    return fit


class Pipeline:
    """A list of steps fitted, in order, on the training split only (chapter 12).

    Parameters
    ----------
    steps : sequence of (name, step) pairs
        Each ``step`` is a function ``fit(train_frame) -> transform`` such as
        those made by :func:`impute`, :func:`one_hot_encode` or
        :func:`standardize`. Step ``i`` is fitted on the training table as
        transformed by steps ``0 … i−1``.

    Examples
    --------
    >>> pipe = Pipeline([("fill", impute(["a"])), ("scale", standardize(["a"]))])
    >>> train_ready = pipe.fit_transform(train)       # doctest: +SKIP
    >>> test_ready = pipe.transform(test)              # doctest: +SKIP

    Only :meth:`fit` looks at data to learn from; :meth:`transform` applies
    the fitted values unchanged, so no validation or test row can change
    them. :attr:`statistics` shows everything that was learned.
    """

    def __init__(self, steps):
        steps = list(steps)
        if not steps:
            raise ValueError("a Pipeline needs at least one (name, step) pair.")
        names = []
        for i, item in enumerate(steps):
            if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str) and callable(item[1])):
                raise ValueError(f"steps[{i}] must be a pair (name, step) with a str name and a callable step; "
                                 f"found {item!r}.")
            names.append(item[0])
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ValueError(f"step names must be unique; {repeated} repeat.")
        self.steps = steps
        self._fitted: list | None = None

    def fit(self, train) -> Pipeline:
        """Fit every step on the training table, in order; return the pipeline."""
        current = _check_frame(train, "train")
        fitted = []
        for name, step in self.steps:
            transform = step(current)
            fitted.append((name, transform))
            current = transform(current)
        self._fitted = fitted
        return self

    def transform(self, frame) -> pd.DataFrame:
        """Apply the fitted steps, unchanged, to any table with the training columns."""
        if self._fitted is None:
            raise ValueError("this Pipeline is not fitted yet: call pipeline.fit(train) first.")
        current = _check_frame(frame)
        for _, transform in self._fitted:
            current = transform(current)
        return current

    def fit_transform(self, train) -> pd.DataFrame:
        """``fit(train)`` then ``transform(train)``."""
        return self.fit(train).transform(train)

    @property
    def statistics(self) -> dict:
        """``{step name: fitted values}`` of every step (empty dicts for steps with nothing to fit)."""
        if self._fitted is None:
            raise ValueError("this Pipeline is not fitted yet: call pipeline.fit(train) first.")
        return {name: transform.statistics for name, transform in self._fitted}

    def __repr__(self) -> str:
        state = "fitted" if self._fitted is not None else "not fitted"
        return f"Pipeline([{', '.join(name for name, _ in self.steps)}], {state})"
