"""The widgets of chapter 5 (the degree chosen by k-fold cross-validation) and chapter 10
(boosting round by round): what they ship and compute in Python. The page's side is
tested in Chromium by tests/book/test_live_widget.py."""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest
from PIL import Image

import mlrefined_lib as ml
from mlrefined_lib import live, widgets


def reference_mulberry32(seed: int, count: int) -> list[int]:
    """mulberry32 written again with NumPy's wrapping uint32 arithmetic (not the library's code)."""
    out, a = [], np.uint32(seed)
    with np.errstate(over="ignore"):
        for _ in range(count):
            a = np.uint32(a + np.uint32(0x6D2B79F5))
            t = a
            t = np.uint32((t ^ (t >> np.uint32(15))) * (t | np.uint32(1)))
            t = np.uint32(t ^ np.uint32(t + np.uint32((t ^ (t >> np.uint32(7))) * (t | np.uint32(61)))))
            out.append(int(t ^ (t >> np.uint32(14))))
    return out


def test_the_shuffle_follows_an_independent_mulberry32():
    for seed in (0, 1, 12345, 2**32 - 1):
        draws = reference_mulberry32(seed, 30)
        order = list(range(31))
        for i, r in zip(range(30, 0, -1), draws):
            j = (r * (i + 1)) >> 32
            order[i], order[j] = order[j], order[i]
        assert live.shuffled_order(31, seed).tolist() == order


def test_shuffled_order_is_a_uniform_permutation():
    for num_points in (1, 2, 7, 40):
        for seed in range(5):
            assert sorted(live.shuffled_order(num_points, seed)) == list(range(num_points))
    assert not np.array_equal(live.shuffled_order(40, 0), live.shuffled_order(40, 1))
    assert np.array_equal(live.shuffled_order(40, 3), live.shuffled_order(40, 3))
    # Where row 0 lands, over 6000 seeds: each of 6 places about 1000 times (sd about 29).
    places = np.bincount([int(np.flatnonzero(live.shuffled_order(6, s) == 0)[0]) for s in range(6000)], minlength=6)
    assert np.all(np.abs(places - 1000) < 150), places


@pytest.mark.parametrize("num_points, k", [(40, 2), (40, 3), (40, 10), (41, 7), (40, 40)])
def test_shuffled_folds_partition_the_rows_like_k_fold(num_points, k):
    folds = live.shuffled_folds(num_points, k, seed=4)
    reference = ml.k_fold(num_points, k, seed=4)
    assert [len(v) for _, v in folds] == [len(v) for _, v in reference]
    validated = np.concatenate([v for _, v in folds])
    assert sorted(validated) == list(range(num_points))
    for train, valid in folds:
        assert np.all(np.diff(train) > 0) and np.all(np.diff(valid) > 0)
        assert sorted(np.concatenate([train, valid])) == list(range(num_points))
    order = live.shuffled_order(num_points, 4)
    assert np.array_equal(np.sort(order[: len(folds[0][1])]), folds[0][1])


@pytest.fixture(scope="module")
def cars():
    rng = np.random.default_rng(11)
    x = rng.uniform(-1.5, 3.0, size=36)
    y = 40 - 9 * x + 2.2 * x**2 + rng.normal(scale=3.0, size=36)
    return x, y


@pytest.mark.parametrize("k, seed", [(2, 0), (5, 3), (10, 0), (36, 0)])
def test_degree_folds_search_is_grid_search_on_the_shown_folds(cars, k, seed):
    """The widget's search equals grid_search written here on the raw powers of x (not x / scale):
    the polynomials of each degree are the same models, so the scores agree to rounding."""
    x, y = cars
    widget = widgets.degree_folds(x, y, max_degree=6, k=k, seed=seed)
    powers = ml.polynomial_features(x[:, None], 6)

    def fit_for(d):
        return lambda a, b: np.linalg.lstsq(np.column_stack([np.ones(len(a)), a[:, :d]]), b, rcond=None)[0]

    def error(w, a, b):
        return np.mean((w[0] + a[:, : len(w) - 1] @ w[1:] - b) ** 2)

    expected = ml.grid_search(fit_for, error, powers, y, range(1, 7), live.shuffled_folds(36, k, seed))
    got = widget.search()
    assert np.allclose(got.means, expected.means, rtol=1e-8)
    assert np.allclose(got.standard_errors, expected.standard_errors, rtol=1e-6)
    assert got.one_standard_error_param == expected.one_standard_error_param
    assert [len(r.scores) for r in got.results] == [k] * 6
    assert widget.config["scale"] == np.abs(x).max()
    assert f"k = {k}" in widget.description()


def test_degree_folds_output_carries_a_png_with_alt_text(cars):
    x, y = cars
    x_before, y_before = x.copy(), y.copy()
    widget = widgets.degree_folds(x[:, None], y, max_degree=5, k=36, xlabel="horsepower")
    assert np.array_equal(x, x_before) and np.array_equal(y, y_before)
    bundle, metadata = widget._repr_mimebundle_()
    png = base64.b64decode(bundle["image/png"])
    assert Image.open(io.BytesIO(png)).format == "PNG" and len(png) < 80_000
    alt = metadata["image/png"]["alt"]
    assert alt == bundle["text/plain"] and "leave-one-out" in alt and "one-standard-error rule chooses" in alt
    assert widget.k == 36 and widget.seed == 0 and widget.config["error_limits"][0] == 0


@pytest.mark.parametrize("kwargs, message", [
    (dict(k=1), "k"),
    (dict(k=37), "k"),
    (dict(seed=-1), "seed"),
    (dict(max_degree=18), "distinct points"),
    (dict(scale=0.0), "scale"),
    (dict(error_limits=(3, 1)), "error_limits"),
])
def test_degree_folds_bad_settings_raise_value_error(cars, kwargs, message):
    with pytest.raises(ValueError, match=message):
        widgets.degree_folds(*cars, **kwargs)


def test_degree_folds_bad_data_raise_value_error(cars):
    x, y = cars
    with pytest.raises(ValueError, match="shape"):
        widgets.degree_folds(x[:-1], y)
    with pytest.raises(ValueError, match="finite"):
        widgets.degree_folds(np.where(x > 2, np.nan, x), y)
    with pytest.raises(ValueError, match="k = 5 folds is larger"):
        live.shuffled_folds(4, 5, 0)


@pytest.fixture(scope="module")
def boosted():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(90, 6))
    y = 2 + 3 * x[:, 1] - 1.5 * x[:, 4] + 0.5 * x[:, 0] + rng.normal(size=90)
    path = ml.boost(x, y, rounds=5)

    def boosted_for(rounds):
        return lambda a, b: ml.boost(a, b, rounds=rounds).full_weights()

    def error(w, a, b):
        return np.mean((w[0] + a @ w[1:] - b) ** 2)

    search = ml.grid_search(boosted_for, error, x, y, range(6), ml.k_fold(90, 5, seed=1))
    return path, search, [f"f{n}" for n in range(6)]


def test_boosting_rounds_ship_the_path_and_the_search(boosted):
    path, search, names = boosted
    widget = widgets.boosting_rounds(path, search, names, rounds=2)
    cfg = widget.config
    assert cfg["order"] == path.order.tolist() and cfg["train"] == path.costs.tolist()
    assert cfg["cv_means"] == search.means.tolist() and cfg["cv_errors"] == search.standard_errors.tolist()
    assert (cfg["best"], cfg["chosen"]) == (search.best_param, search.one_standard_error_param)
    for m in range(6):
        assert np.array_equal(widget.full_weights(m), path.full_weights(m))
    bundle, metadata = widget._repr_mimebundle_()
    png = base64.b64decode(bundle["image/png"])
    assert Image.open(io.BytesIO(png)).format == "PNG" and len(png) < 80_000
    alt = metadata["image/png"]["alt"]
    assert alt == bundle["text/plain"] and "after round 2" in alt and f"f{path.order[1]}" in alt


def test_boosting_rounds_bad_input_raise_value_error(boosted):
    path, search, names = boosted
    with pytest.raises(ValueError, match=r"rounds 0, 1, ..., 4 of path, in order; found params \[0, 1, 2, 3, 4, 5\]"):
        widgets.boosting_rounds(ml.boost(np.eye(8, 6), np.arange(8.0), rounds=4), search, names)
    with pytest.raises(ValueError, match="one name per feature"):
        widgets.boosting_rounds(path, search, names[:-1])
    with pytest.raises(ValueError, match="rounds"):
        widgets.boosting_rounds(path, search, names, rounds=6)
