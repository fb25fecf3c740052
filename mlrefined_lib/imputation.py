"""Missing values: where they are, and filling them with training statistics (chapter 8).

Two ideas live here:

* :func:`missingness` and :func:`missing_mask` say which entries of a table
  are missing, per column, so that one can decide what to do with each
  feature *before* filling anything in;
* :func:`mean_imputer` *fits* on the training split and returns a function
  that fills the gaps of any later data with the same training statistics
  (the column mean, median or most frequent value);
* :func:`knn_imputer` fills each gap with the average of that column over the
  k nearest *training* rows, distances taken over the coordinates observed in
  both rows;
* :func:`iterative_imputer` predicts each column from the others, round after
  round (chained equations);
* :func:`make_missing` hides values of a complete table completely at random
  (MCAR), depending on another column (MAR) or on the hidden value itself
  (MNAR), so that what an imputer does can be checked against the truth.

What counts as missing
----------------------
For numeric arrays an entry is missing when it is NaN. For object arrays
(categorical columns, or mixed tables such as ``np.asarray(dataframe)``) an
entry is missing when it is ``None``, a float NaN, or pandas' ``NA`` / ``NaT``.
Infinite values are never "missing": they are rejected, because no
statistic can be taken over them.

Nothing is changed in place: every function returns new arrays.
"""

from __future__ import annotations

import numbers
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from ._validation import check_choice, check_scalar

__all__ = ["missing_mask", "missingness", "mean_imputer", "knn_imputer", "STRATEGIES", "MECHANISMS", "make_missing",
           "iterative_imputer"]

STRATEGIES = ("mean", "median", "most_frequent")

_MISSING_TYPE_NAMES = ("NAType", "NaTType")


def _is_missing_scalar(value) -> bool:
    if value is None:
        return True
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
        return bool(np.isnan(value))
    return type(value).__name__ in _MISSING_TYPE_NAMES


def _column_names(x, names: Sequence | None, num_columns: int) -> list[str]:
    if names is None:
        names = getattr(x, "columns", None)  # a pandas DataFrame carries its own names
    if names is None:
        return [str(n) for n in range(num_columns)]
    names = [str(n) for n in names]
    if len(names) != num_columns:
        raise ValueError(f"names must give one name per column: x has {num_columns} column(s) but "
                         f"{len(names)} name(s) were given.")
    return names


def _as_table(x, name: str) -> np.ndarray:
    """Return ``x`` as a 2-D float array, or a 2-D object array if it is not numeric."""
    arr = np.asarray(x)
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D with shape (P, N): P points in rows, N features in columns; "
            f"found shape {arr.shape}. For one feature use {name}.reshape(-1, 1)."
        )
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must have at least one point and one feature; found shape {arr.shape}.")
    if arr.dtype.kind in "biuf":
        arr = arr.astype(float)
        infinite = np.isinf(arr)
        if infinite.any():
            column = int(np.flatnonzero(infinite.any(axis=0))[0])
            raise ValueError(
                f"{name} has {int(infinite[:, column].sum())} infinite value(s) in column {column}. "
                "Only NaN marks a missing entry; replace or drop the infinite values first."
            )
        return arr
    if arr.dtype.kind in "OUS":
        return arr.astype(object)
    raise ValueError(f"{name} must hold numbers, or categories in an object/str array; found dtype {arr.dtype}.")


def missing_mask(x) -> np.ndarray:
    """Boolean array of the same shape as ``x``: True where an entry is missing (chapter 8).

    Parameters
    ----------
    x : array of shape (P, N)
        Numbers (NaN is missing) or an object/str array (``None``, NaN, pandas
        ``NA`` and ``NaT`` are missing). A pandas DataFrame works too.

    Returns
    -------
    mask : bool array of shape (P, N)

    Raises
    ------
    ValueError
        If ``x`` is not 2-D or holds infinite numbers.
    """
    arr = _as_table(x, "x")
    if arr.dtype == object:
        return np.vectorize(_is_missing_scalar, otypes=[bool])(arr)
    return np.isnan(arr)


def missingness(x, names: Sequence | None = None):
    """Count the missing entries of each column of ``x`` (chapter 8).

    Parameters
    ----------
    x : array of shape (P, N) or a pandas DataFrame
        Numeric (NaN is missing) or object (``None``/NaN/``NA`` is missing).
    names : sequence of N str, optional
        Column names; by default a DataFrame's own column names, else 0 … N−1.

    Returns
    -------
    table : pandas.DataFrame with N rows, indexed by column name
        ``missing`` (int, the count of missing entries), ``fraction`` (that
        count divided by P) and ``observed`` (P minus ``missing``), in the
        column order of ``x``. Sort it with ``table.sort_values("fraction")``.
    """
    import pandas as pd

    mask = missing_mask(x)
    labels = _column_names(x, names, mask.shape[1])
    missing = mask.sum(axis=0).astype(int)
    table = pd.DataFrame(
        {"missing": missing, "fraction": missing / mask.shape[0], "observed": mask.shape[0] - missing},
        index=pd.Index(labels, name="feature"),
    )
    return table


def _most_frequent(values: np.ndarray):
    """Most frequent value; ties go to the smallest (as in scikit-learn)."""
    counts = Counter(values.tolist())
    top = max(counts.values())
    tied = [value for value, count in counts.items() if count == top]
    try:
        return min(tied)
    except TypeError:  # values of types that cannot be compared: the first one met
        return tied[0]


def mean_imputer(x_train, strategy: str = "mean", names: Sequence | None = None) -> Callable[[np.ndarray], np.ndarray]:
    """Fit the filling of missing entries with one training statistic per column (chapter 8).

    For column n with observed training entries (rows not in Ω_n), the fill
    value is

    * ``"mean"``: ``μ_n = 1/(P − |Ω_n|) Σ_{j ∉ Ω_n} x_{j,n}``;
    * ``"median"``: the median of the observed entries;
    * ``"most_frequent"``: the mode of the observed entries, ties going to the
      smallest value. This is the strategy for categorical columns.

    Parameters
    ----------
    x_train : array of shape (P, N)
        The training split. A numeric array marks missing entries with NaN. An
        object (or str) array, for example categorical columns, marks them with
        ``None``, NaN or pandas' ``NA``; it works with ``"most_frequent"``
        always, and with ``"mean"``/``"median"`` only if every observed entry
        is a number.
    strategy : {"mean", "median", "most_frequent"}
    names : sequence of N str, optional
        Column names for error messages (a DataFrame's own names by default).

    Returns
    -------
    impute : callable
        ``impute(x)`` returns a new array, a copy of any ``(Q, N)`` array ``x``
        with its missing entries replaced by the *training* statistics
        (float for numeric data, object for categorical data). The fitted
        values are in ``impute.statistics`` (shape ``(N,)``) and the strategy
        in ``impute.strategy``.

    Raises
    ------
    ValueError
        For an unknown strategy (the message lists the valid ones), input that
        is not 2-D, infinite values, a column with no observed training entry
        (the message names it), non-numeric data with ``"mean"``/``"median"``,
        and, at transform time, a different number of columns.
    """
    check_choice(strategy, STRATEGIES, "imputation strategy")
    train = _as_table(x_train, "x_train")
    labels = _column_names(x_train, names, train.shape[1])
    categorical = train.dtype == object
    if categorical and strategy != "most_frequent":
        try:
            train = np.array([[np.nan if _is_missing_scalar(v) else float(v) for v in row] for row in train])
        except (TypeError, ValueError):
            raise ValueError(
                f"strategy {strategy!r} needs numeric columns, but x_train holds non-numeric values "
                "(categories?). Use strategy='most_frequent' for categorical columns."
            ) from None
        categorical = False
    mask = missing_mask(train)
    empty = np.flatnonzero(mask.all(axis=0))
    if empty.size:
        listed = ", ".join(f"{c} ({labels[c]!r})" if labels[c] != str(c) else str(c) for c in empty)
        raise ValueError(
            f"mean_imputer: column(s) {listed} of x_train have no observed value (every entry is missing), "
            "so there is no training statistic to fill them with. Drop the column(s) first."
        )

    if categorical:
        statistics = np.empty(train.shape[1], dtype=object)
        for n in range(train.shape[1]):
            statistics[n] = _most_frequent(train[~mask[:, n], n])
    elif strategy == "mean":
        statistics = np.nanmean(train, axis=0)
    elif strategy == "median":
        statistics = np.nanmedian(train, axis=0)
    else:
        statistics = np.array([_most_frequent(train[~mask[:, n], n]) for n in range(train.shape[1])], dtype=float)

    num_columns = train.shape[1]

    def impute(x):
        arr = _as_table(x, "x")
        if arr.shape[1] != num_columns:
            raise ValueError(
                f"mean_imputer was fitted on {num_columns} feature(s) but got x of shape {arr.shape}."
            )
        if categorical:
            filled = arr.copy()
        elif arr.dtype == object:
            try:
                filled = np.array([[np.nan if _is_missing_scalar(v) else float(v) for v in row] for row in arr])
            except (TypeError, ValueError):
                raise ValueError("this imputer was fitted on numeric data but x holds non-numeric values.") from None
        else:
            filled = arr.copy()  # _as_table may return the caller's own float array
        gaps = missing_mask(filled)
        rows, columns = np.nonzero(gaps)
        filled[rows, columns] = statistics[columns]
        return filled

    impute.statistics = statistics.copy()
    impute.strategy = strategy
    return impute


def _nan_euclidean(queries: np.ndarray, donors: np.ndarray) -> np.ndarray:
    """NaN-aware Euclidean distances, shape (Q, P): ``sqrt(N / n_common · Σ_common (a − b)²)``.

    The sum runs over the coordinates observed in both rows (``n_common`` of
    the ``N``); a pair with no coordinate in common gets NaN. This is
    scikit-learn's ``nan_euclidean`` distance.
    """
    num_features = queries.shape[1]
    donor_observed = ~np.isnan(donors)
    donor_values = np.where(donor_observed, donors, 0.0)
    distances = np.empty((queries.shape[0], donors.shape[0]))
    for start in range(0, queries.shape[0], 256):            # chunks keep the (Q, P, N) block small
        block = queries[start:start + 256]
        observed = ~np.isnan(block)
        both = observed[:, None, :] & donor_observed[None, :, :]
        difference = np.where(both, np.where(observed, block, 0.0)[:, None, :] - donor_values[None, :, :], 0.0)
        common = both.sum(axis=2)
        squared = (difference**2).sum(axis=2)
        with np.errstate(invalid="ignore", divide="ignore"):
            distances[start:start + 256] = np.where(common > 0, np.sqrt(squared * num_features / common), np.nan)
    return distances


def knn_imputer(x_train, k: int = 5, *, scale: bool = True) -> Callable[[np.ndarray], np.ndarray]:
    """Fit k-nearest-neighbour imputation on the training rows (chapter 8).

    A gap in column n of a row is filled with the mean of column n over the
    ``k`` training rows nearest to that row among the training rows whose
    column n is observed (uniform weights). Distances are NaN-aware Euclidean
    distances: over the coordinates observed in both rows, rescaled by
    ``N / (number of such coordinates)`` (scikit-learn's ``nan_euclidean``).
    Ties go to the training row that comes first.

    Parameters
    ----------
    x_train : array of shape (P, N)
        The training split, numeric, NaN marking the gaps. Only these rows are
        ever used as neighbours, and only their statistics set the scales.
    k : int
        Number of neighbours, ``1 <= k <= P``. If fewer than ``k`` training
        rows can serve (column n observed and at least one coordinate in
        common), the average is over those that can.
    scale : bool
        If True (the default), each coordinate is divided by its training
        standard deviation (NaN ignored) *before* distances are computed, so
        that a feature in thousands does not decide alone who the neighbours
        are. The filled values are in the original units either way.
        scikit-learn's ``KNNImputer`` does not scale: ``scale=False`` matches it
        (``metric="nan_euclidean"``, ``weights="uniform"``).

    Returns
    -------
    impute : callable
        ``impute(x)`` returns a filled copy of any ``(Q, N)`` array ``x``. A row
        with no coordinate in common with any usable training row is filled
        with the training column mean (as scikit-learn does). ``impute.k`` and
        ``impute.scales`` (shape ``(N,)``, ones when ``scale=False``) record
        the fit.

    Raises
    ------
    ValueError
        If ``x_train`` is not a 2-D numeric array, holds infinite values or a
        column with no observed entry (named), if ``k`` is not an integer in
        ``1 … P``, and, at transform time, for a different number of columns.
    """
    k = check_scalar(k, "k", numbers.Integral)  # its range, 1 … P, is checked below with P named
    train = _as_table(x_train, "x_train")
    if train.dtype == object:
        raise ValueError("knn_imputer needs numeric columns (distances are computed on them); x_train holds "
                         "non-numeric values. Encode categories first (chapter 6) or use mean_imputer(x, "
                         "'most_frequent').")
    if not 1 <= k <= train.shape[0]:
        raise ValueError(f"k must be between 1 and the number of training rows ({train.shape[0]}); found k = {k}.")
    mask = np.isnan(train)
    empty = np.flatnonzero(mask.all(axis=0))
    if empty.size:
        raise ValueError(f"knn_imputer: column(s) {empty.tolist()} of x_train have no observed value, so no "
                         "neighbour can fill them. Drop the column(s) first.")
    train = train.copy()
    column_means = np.nanmean(train, axis=0)
    if scale:
        scales = np.nanstd(train, axis=0)
        scales[scales == 0] = 1.0                              # a constant column: any scale will do
    else:
        scales = np.ones(train.shape[1])
    scaled_train = train / scales
    num_columns = train.shape[1]

    def impute(x):
        arr = _as_table(x, "x")
        if arr.dtype == object:
            raise ValueError("this imputer was fitted on numeric data but x holds non-numeric values.")
        if arr.shape[1] != num_columns:
            raise ValueError(f"knn_imputer was fitted on {num_columns} feature(s) but got x of shape {arr.shape}.")
        filled = arr.copy()
        gaps = np.isnan(arr)
        rows_with_gaps = np.flatnonzero(gaps.any(axis=1))
        if rows_with_gaps.size == 0:
            return filled
        distances = _nan_euclidean(arr[rows_with_gaps] / scales, scaled_train)
        for column in np.flatnonzero(gaps[rows_with_gaps].any(axis=0)):
            receivers = np.flatnonzero(gaps[rows_with_gaps, column])
            donors = np.flatnonzero(~mask[:, column])
            for receiver in receivers:
                candidate = distances[receiver, donors]
                usable = np.flatnonzero(~np.isnan(candidate))
                row = rows_with_gaps[receiver]
                if usable.size == 0:
                    filled[row, column] = column_means[column]
                    continue
                nearest = usable[np.argsort(candidate[usable], kind="stable")[:k]]
                filled[row, column] = train[donors[nearest], column].mean()
        return filled

    impute.k = k
    impute.scales = scales.copy()
    return impute


# ---------------------------------------------------------------- why values are missing, and chained equations

MECHANISMS = ("MCAR", "MAR", "MNAR")


def make_missing(x, column: int, share: float, mechanism: str = "MCAR", *, driver: int | None = None,
                 strength: float = 2.0, seed: int | None = 0) -> np.ndarray:
    """Hide a share of one column's values, by one of the three mechanisms (chapter 8).

    Exactly ``round(share · P)`` rows of ``column`` become NaN in a copy of ``x``:

    * ``"MCAR"`` (missing completely at random): every row is equally likely;
    * ``"MAR"`` (missing at random): a row is more likely to lose its value the
      larger its value of another, observed column ``driver``;
    * ``"MNAR"`` (missing not at random): the larger the hidden value itself,
      the more likely it is hidden.

    For MAR and MNAR, row p is drawn (without replacement) with probability
    proportional to ``1 / (1 + exp(−strength · z_p))``, ``z`` the standardized
    driving column; ``strength = 0`` gives MCAR.

    Parameters
    ----------
    x : array of shape (P, N), numeric
        The table; ``column`` (and ``driver``) must have no NaN.
    column : int
        The column to make gappy.
    share : float in (0, 1)
        The share of rows to hide.
    mechanism : {"MCAR", "MAR", "MNAR"}
    driver : int, optional
        The column that drives MAR (required for MAR, not allowed otherwise,
        and not ``column`` itself).
    strength : float >= 0
        How strongly the driving value decides.
    seed : int or None

    Returns
    -------
    array of shape (P, N)
        A copy of ``x`` with NaN in the hidden entries.

    Raises
    ------
    ValueError
        For a table that is not numeric, a column that already holds NaN, a column out of
        range, a share outside (0, 1), an unknown mechanism, or a driver that
        does not fit the mechanism.
    """
    table = _as_table(x, "x")
    if table.dtype == object:
        raise ValueError("make_missing needs a numeric table; x holds non-numeric values.")
    num_points, num_columns = table.shape
    column = check_scalar(column, "column", numbers.Integral, min_val=0, max_val=num_columns - 1)
    if np.isnan(table[:, column]).any():
        raise ValueError(f"make_missing hides values of a complete column; column {column} of x already holds "
                         f"{int(np.isnan(table[:, column]).sum())} NaN, so the truth is not known there.")
    share = check_scalar(share, "share", numbers.Real, min_val=0, max_val=1, include_boundaries="neither")
    check_choice(mechanism, MECHANISMS, "mechanism")
    strength = check_scalar(strength, "strength", numbers.Real, min_val=0)
    check_scalar(seed, "seed", numbers.Integral, allow_none=True)
    if mechanism == "MAR":
        if driver is None:
            raise ValueError("MAR hides values depending on another observed column: give driver=<column>.")
        driver = check_scalar(driver, "driver", numbers.Integral, min_val=0, max_val=num_columns - 1)
        if driver == column:
            raise ValueError(f"driver must be another column than column = {column}: a value hidden because "
                             "of itself is MNAR, not MAR.")
        if np.isnan(table[:, driver]).any():
            raise ValueError(f"the driver column {driver} must be observed in every row (MAR depends on observed "
                             "values); it holds NaN.")
    elif driver is not None:
        raise ValueError(f"driver is only used by MAR; found driver = {driver!r} with mechanism {mechanism!r}.")
    count = int(round(share * num_points))
    if not 1 <= count < num_points:
        raise ValueError(f"share = {share} of {num_points} rows hides {count} values; hide at least one and "
                         "keep at least one.")
    rng = np.random.default_rng(seed)
    if mechanism == "MCAR":
        weights = np.ones(num_points)
    else:
        values = table[:, driver if mechanism == "MAR" else column]
        spread = values.std()
        z = (values - values.mean()) / spread if spread > 0 else np.zeros(num_points)
        weights = 1 / (1 + np.exp(-strength * z))
    hidden = rng.choice(num_points, size=count, replace=False, p=weights / weights.sum())
    gappy = table.copy()
    gappy[hidden, column] = np.nan
    return gappy


def iterative_imputer(x_train, rounds: int = 10) -> Callable[[np.ndarray], np.ndarray]:
    """Fit imputation by chained equations on the training rows (chapter 8).

    Start from the training column means; then, round after round, visit the
    columns from the fewest gaps to the most (ties in column order) and fit a
    least-squares line (with a bias) that predicts the column from all the
    others, on the training rows where it is observed, using the current
    filled values of the others; replace that column's gaps with the line's
    predictions. The fitted lines of every round are kept, and any later table
    is filled by replaying them in the same order (after filling its gaps with
    the training means). This is scikit-learn's ``IterativeImputer`` with
    ``estimator=LinearRegression()``, ``initial_strategy="mean"``,
    ``imputation_order="ascending"`` and ``tol=0`` (no early stop), with
    ``max_iter=rounds``.

    Parameters
    ----------
    x_train : array of shape (P, N), numeric, NaN marking the gaps
    rounds : int >= 1

    Returns
    -------
    impute : callable
        ``impute(x)`` returns a filled copy of any ``(Q, N)`` array.
        ``impute.rounds``, ``impute.order`` (the visiting order) and
        ``impute.weights`` (shape ``(rounds, N, N)``: row n of round r holds
        the bias and the weights of the other columns that predict column n)
        record the fit.

    Raises
    ------
    ValueError
        If ``x_train`` is not numeric, holds infinite values or a column with
        no observed value (named), if rounds is not a positive integer, and,
        at transform time, for a different number of columns.
    """
    rounds = check_scalar(rounds, "rounds", numbers.Integral, min_val=1)
    train = _as_table(x_train, "x_train")
    if train.dtype == object:
        raise ValueError("iterative_imputer needs numeric columns (it fits lines between them); x_train holds "
                         "non-numeric values. Encode categories first (chapter 6).")
    mask = np.isnan(train)
    empty = np.flatnonzero(mask.all(axis=0))
    if empty.size:
        raise ValueError(f"iterative_imputer: column(s) {empty.tolist()} of x_train have no observed value, so "
                         "nothing can be learned about them. Drop the column(s) first.")
    means = np.nanmean(train, axis=0)
    num_columns = train.shape[1]
    order = np.argsort(mask.sum(axis=0), kind="stable")
    weights = np.zeros((rounds, num_columns, num_columns))

    def others(n: int) -> np.ndarray:
        return np.delete(np.arange(num_columns), n)

    def design(filled: np.ndarray, rows: np.ndarray, n: int) -> np.ndarray:
        return np.column_stack([np.ones(rows.size), filled[np.ix_(rows, others(n))]])

    filled = np.where(mask, means, train)
    for round_ in range(rounds):
        for n in order:
            observed, gaps = np.flatnonzero(~mask[:, n]), np.flatnonzero(mask[:, n])
            w = np.linalg.lstsq(design(filled, observed, n), train[observed, n], rcond=None)[0]
            weights[round_, n] = w
            if gaps.size:
                filled[gaps, n] = design(filled, gaps, n) @ w

    def impute(x):
        arr = _as_table(x, "x")
        if arr.dtype == object:
            raise ValueError("this imputer was fitted on numeric data but x holds non-numeric values.")
        if arr.shape[1] != num_columns:
            raise ValueError(f"iterative_imputer was fitted on {num_columns} feature(s) but got x of shape "
                             f"{arr.shape}.")
        gaps_of = np.isnan(arr)
        out = np.where(gaps_of, means, arr)
        for round_ in range(rounds):
            for n in order:
                gaps = np.flatnonzero(gaps_of[:, n])
                if gaps.size:
                    out[gaps, n] = design(out, gaps, n) @ weights[round_, n]
        return out

    impute.rounds = rounds
    impute.order = order.copy()
    impute.weights = weights.copy()
    return impute
