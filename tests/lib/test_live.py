"""mlrefined_lib.live: the quadratic form the page draws equals the least-squares cost,
the path equals gradient_descent, bad input fails early, and the files it ships."""

from __future__ import annotations

import base64
import io
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from mlrefined_lib._esm import module_names, module_text
from PIL import Image

import mlrefined_lib as ml
from mlrefined_lib import live, widgets

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def data():
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 1, size=(50, 1)) * 7 + 2
    y = 1.5 + 3.0 * x[:, 0] + rng.normal(size=50)
    z = ml.standard_normalizer(x)[0](x)
    x2 = rng.normal(size=(60, 2)) @ np.array([[1.0, 0.0], [2.0, 0.7]]).T + 3.0
    y2 = x2 @ np.array([0.5, -1.0]) + rng.normal(size=60)
    return x, y, z, x2, y2


def make(x, y, **kw):
    kw.setdefault("xrange", (-3, 9))
    kw.setdefault("yrange", (-2, 12))
    return live.quadratic_descent(x, y, **kw)


@pytest.mark.parametrize("blend", [0.0, 0.3, 1.0])
def test_quadratic_form_equals_the_cost_of_the_blended_input(data, blend):
    x, y, z, _, _ = data
    widget = make([x, z], y, blend=blend)
    cost = ml.least_squares((1 - blend) * x + blend * z, y)
    h, b, c = widget.quadratic()
    np.testing.assert_allclose(h, cost.hessian(), rtol=1e-12, atol=1e-12)
    for w in np.random.default_rng(0).normal(size=(5, 2)) * 4:
        assert widget.cost(w) == pytest.approx(cost(w), rel=1e-11)
        np.testing.assert_allclose(h @ w + b, cost.gradient(w), rtol=1e-10, atol=1e-10)
    lstsq = np.linalg.lstsq(np.column_stack([np.ones(len(y)), (1 - blend) * x + blend * z]), y, rcond=None)[0]
    np.testing.assert_allclose(widget.optimum(), lstsq, rtol=1e-9, atol=1e-9)


def test_three_stages_without_bias_match_the_centred_cost(data):
    _, _, _, x2, y2 = data
    centred, yc = x2 - x2.mean(axis=0), y2 - y2.mean()
    stages = [centred, ml.standard_normalizer(x2)[0](x2), ml.pca_sphere(x2)[0](x2)]
    widget = live.quadratic_descent(stages, yc, bias=False, xrange=(-3, 3), yrange=(-3, 3), start=(-2.5, 2.5))
    for s in [0.0, 0.5, 1.0, 1.25, 2.0]:
        i = min(int(s), 1)
        t = s - i
        inputs = (1 - t) * stages[i] + t * stages[i + 1]
        full = ml.least_squares(inputs, yc)
        run = ml.gradient_descent(full, np.array([0.0, -2.5, 2.5]), 0.1, 15)
        # Centred data: the bias stays 0, so the 2-D path is the 3-D path's last two weights.
        np.testing.assert_allclose(widget.path(alpha=0.1, steps=15, blend=s), run.weights[:, 1:], rtol=0, atol=1e-10)
    # Sphered: the Hessian is 2 I.
    np.testing.assert_allclose(widget.quadratic(2.0)[0], 2 * np.eye(2), atol=1e-10)


@pytest.mark.parametrize("alpha, steps, start", [(0.01, 5, (0, 0)), (0.05, 60, (4, -1)), (0.2, 30, (-2, 10))])
def test_path_equals_gradient_descent(data, alpha, steps, start):
    x, y, _, _, _ = data
    widget = make(x, y, alpha=alpha, steps=steps, start=start, alpha_range=(1e-3, 1.0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ml.DivergenceWarning)
        run = ml.gradient_descent(ml.least_squares(x, y), np.array(start, float), alpha, steps)
    path = widget.path()
    assert path.shape == (len(run.weights), 2)
    scale = max(1.0, np.abs(run.weights).max())
    assert np.abs(path - run.weights).max() / scale < 1e-9


def test_a_diverging_path_stops_before_overflow(data):
    x, y, _, _, _ = data
    widget = make(x, y, alpha=1.0, steps=1000, max_steps=1000)
    path = widget.path()
    assert 1 < len(path) < 1001 and np.all(np.isfinite(path))
    assert len(widget.path(steps=0)) == 1


def test_synced_values_and_config(data):
    x, y, z, _, _ = data
    widget = make([x, z], y, alpha=0.2, steps=7, start=(1, 2), blend=0.5, stage_names=["raw", "standardized"])
    assert (widget.alpha, widget.steps, widget.start, widget.blend) == (0.2, 7, [1.0, 2.0], 0.5)
    cfg = widget.config
    assert len(cfg["levels"]) == len(cfg["colors"]) and all(re.fullmatch("#[0-9a-f]{6}", c) for c in cfg["colors"])
    assert np.all(np.diff(cfg["levels"]) > 0)
    assert widget._anywidget_id == live.ANYWIDGET_ID
    assert widget._esm == module_text("quadratic_descent.js")
    assert widgets.quadratic_descent is live.quadratic_descent  # re-exported for the chapters


def test_output_carries_a_png_with_alt_text(data):
    x, y, _, _, _ = data
    widget = make(x, y)
    bundle, metadata = widget._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    png = base64.b64decode(bundle["image/png"])
    assert Image.open(io.BytesIO(png)).format == "PNG" and len(png) < 60_000
    alt = metadata["image/png"]["alt"]
    assert alt == bundle["text/plain"] and "cost after 20 steps" in alt and "distance to the optimum" in alt


def test_the_inputs_are_not_modified(data):
    x, y, z, _, _ = data
    before = [a.copy() for a in (x, y, z)]
    make([x, z], y).path()
    for a, b in zip((x, y, z), before):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("kwargs, message", [
    (dict(xrange=(1, 1)), "xrange"),
    (dict(yrange=(0, np.nan)), "yrange"),
    (dict(alpha=5.0), "alpha"),
    (dict(alpha=-1.0), "alpha"),
    (dict(alpha_range=(0.0, 1.0)), "alpha_range"),
    (dict(steps=-1), "steps"),
    (dict(steps=2.5), "steps"),
    (dict(steps=101), "steps"),
    (dict(max_steps=0), "max_steps"),
    (dict(start=(1.0,)), "start"),
    (dict(start=(np.inf, 0)), "start"),
    (dict(blend=1.5), "blend"),
    (dict(levels=[3.0, 1.0]), "levels"),
    (dict(stage_names=["one"]), "stage_names"),
])
def test_bad_settings_raise_value_error(data, kwargs, message, monkeypatch):
    x, y, z, _, _ = data
    built = []
    monkeypatch.setattr(live.descent, "blend_moments", lambda *a, **k: built.append(1) or {})
    if message == "levels":  # the levels are checked after the moments (they may come from them)
        monkeypatch.undo()
    with pytest.raises(ValueError, match=message):
        make([x, z], y, **kwargs)
    assert built == []  # nothing computed before the check


@pytest.mark.parametrize("inputs, y, message", [
    (lambda x, z, x2: [x, x2], None, r"inputs\[1\] must have shape"),
    (lambda x, z, x2: x2, None, r"shape \(P, 1\)"),
    (lambda x, z, x2: [x, z[:10]], None, "points but y has"),
    (lambda x, z, x2: [x, np.where(z > 0, np.nan, z)], None, "NaN"),
    (lambda x, z, x2: [], None, "non-empty"),
    (lambda x, z, x2: x, "nan", "y holds NaN"),
    (lambda x, z, x2: x, "2d", "1-D"),
])
def test_bad_data_raise_value_error(data, inputs, y, message):
    x, yy, z, x2, _ = data
    y_arg = {"nan": np.full_like(yy, np.nan), "2d": yy[:, None], None: yy}[y]
    with pytest.raises(ValueError, match=message):
        make(inputs(x, z, x2), y_arg)


def test_path_rejects_bad_arguments(data):
    x, y, _, _, _ = data
    widget = make(x, y)
    for kwargs in [dict(alpha=0.0), dict(alpha="big"), dict(steps=-2), dict(start=[1, 2, 3]), dict(blend=1.0)]:
        with pytest.raises(ValueError):
            widget.path(**kwargs)


def test_package_data_and_requirements_ship_the_front_end():
    text = (ROOT / "pyproject.toml").read_text()
    assert '"mlrefined_lib.static" = ["*.js"]' in text and '"mlrefined_lib.static"' in text.split("packages = ")[1].split("]")[0]
    import anywidget

    pinned = re.search(r"^anywidget==(\S+)", (ROOT / "requirements.txt").read_text(), re.M)
    assert pinned and pinned.group(1) == anywidget.__version__
    assert (live.STATIC / "needs_kernel.js").is_file()


# ------------------------------------------------ softmax_descent (chapter 7, Example B)
@pytest.fixture
def two_class():
    from mlrefined_lib import datasets

    x, y = datasets.load_one_input_classification()
    return x, y, ml.standard_normalizer(x)[0](x)


def make_softmax(x, y, z, **kw):
    kw.setdefault("xrange", (-8, 4))
    kw.setdefault("yrange", (-2, 8))
    kw.setdefault("levels", np.geomspace(0.005, 40.0, 20))
    return live.softmax_descent([x, z], y, **kw)


@pytest.mark.parametrize("blend, alpha, steps, start", [(0.0, 1.0, 100, (0, 0)), (0.4, 10.0, 30, (-3, 5))])
def test_softmax_path_equals_gradient_descent(two_class, blend, alpha, steps, start):
    x, y, z = two_class
    widget = make_softmax(x, y, z, blend=blend, alpha=alpha, steps=steps, start=start)
    cost = ml.softmax((1 - blend) * x + blend * z, y)
    np.testing.assert_array_equal(widget.path(), ml.gradient_descent(cost, np.array(start, float), alpha, steps).weights)
    assert widget.cost((1.0, 2.0)) == cost(np.array([1.0, 2.0]))
    assert widget.config["kind"] == "softmax" and widget._esm == module_text("quadratic_descent.js")
    assert widget._anywidget_id == live.SOFTMAX_ANYWIDGET_ID


def test_softmax_output_carries_a_png_with_alt_text(two_class):
    widget = make_softmax(*two_class)
    data, metadata = widget._repr_mimebundle_()
    assert Image.open(io.BytesIO(base64.b64decode(data["image/png"]))).size[0] > 200
    assert metadata["image/png"]["alt"] == data["text/plain"] == widget.description()
    assert "misclassified" in widget.description()


@pytest.mark.parametrize("kwargs, message", [
    ({"levels": [1.0, 0.5]}, "levels must be"),
    ({"levels": [0.0, 1.0]}, "levels must be"),
    ({"grid": (1, 50)}, "grid"),
    ({"alpha": 50.0}, "alpha"),
    ({"blend": 1.5}, "blend"),
])
def test_softmax_bad_settings_raise_value_error(two_class, kwargs, message):
    with pytest.raises(ValueError, match=message):
        make_softmax(*two_class, **kwargs)


def test_softmax_rejects_other_labels(two_class):
    x, y, z = two_class
    with pytest.raises(ValueError):
        make_softmax(x, (y + 1) / 2, z)


# ------------------------------------------------ penalty_geometry (chapter 11)
# The data: the fixture `centred` of tests/conftest.py (shared with tests/book/test_live_widget.py).


def test_penalized_minimizers_equal_the_library_solvers(centred):
    from mlrefined_lib import regularization as reg

    x, y = centred
    widget = live.penalty_geometry(x, y, xrange=(-1, 3), yrange=(-1.5, 2.5), levels=np.linspace(0.3, 8, 16))
    lams = np.linspace(0.0, widget.config["lam_range"][1], 41)
    lasso = np.array([widget.minimizers(lam)[0] for lam in lams])
    ridge = np.array([widget.minimizers(lam)[1] for lam in lams])
    path = reg.l1_path(x, y, lams)
    # The proximal solver stops at a step of 1e-8; the closed form is exact, zeros included.
    np.testing.assert_allclose(lasso, path.weights[:, 1:], atol=5e-8)
    np.testing.assert_array_equal(lasso == 0, path.weights[:, 1:] == 0)
    np.testing.assert_allclose(ridge, [reg.ridge(x, y, len(y) * lam)[1:] for lam in lams], rtol=1e-12, atol=1e-12)
    assert widget.config["lam_max"] == pytest.approx(reg.lambda_max(x, y), rel=1e-12)
    assert np.all(widget.minimizers(widget.config["lam_max"])[0] == 0)


def test_lasso_is_optimal_for_every_sign_pattern():
    """Subgradient optimality of the closed form, for costs whose minimizers lie in every quadrant."""
    rng = np.random.default_rng(1)
    for _ in range(200):
        a = rng.normal(size=(2, 2))
        m = a @ a.T + 0.05 * np.eye(2)
        c = rng.normal(size=2) * 2
        lam = rng.uniform(0, 3)
        w, _ = live.penalized_minimizers(m, c, lam)
        grad = 2 * m @ w - 2 * c
        for n in range(2):
            if w[n] != 0:
                assert grad[n] + lam * np.sign(w[n]) == pytest.approx(0, abs=1e-9)
            else:
                assert abs(grad[n]) <= lam + 1e-9


def test_penalty_geometry_png_and_bad_input(centred):
    x, y = centred
    widget = live.penalty_geometry(x, y, xrange=(-1, 3), yrange=(-1.5, 2.5), levels=np.linspace(0.3, 8, 16), lam=1.0)
    data, metadata = widget._repr_mimebundle_()
    assert metadata["image/png"]["alt"] == data["text/plain"] == widget.description()
    assert widget._anywidget_id == live.PENALTY_ANYWIDGET_ID
    with pytest.raises(ValueError, match="centred"):
        live.penalty_geometry(x + 1, y, xrange=(-1, 3), yrange=(-1, 3), levels=[1, 2])
    with pytest.raises(ValueError, match="lam"):
        live.penalty_geometry(x, y, xrange=(-1, 3), yrange=(-1, 3), levels=[1, 2], lam=100.0)


# ------------------------------------------------ polynomial_fits (chapter 4)
def test_polynomial_fits_curves_and_errors_equal_the_model():
    rng = np.random.default_rng(2)
    x, xv = rng.uniform(-3, 3, size=(30, 1)), rng.uniform(-3, 3, size=(30, 1))
    y, yv = 0.5 * x[:, 0] ** 2 + rng.normal(size=30), 0.5 * xv[:, 0] ** 2 + rng.normal(size=30)
    fits = {}
    for d in range(1, 13):
        f = ml.polynomial_features(x / 3.0, d)
        fits[d] = np.linalg.lstsq(np.column_stack([np.ones(30), f]), y, rcond=None)[0]
    widget = widgets.polynomial_fits(fits, (x, y), (xv, yv), scale=3.0, true_curve=(x[:, 0], y), xlim=(-3, 3),
                                     ylim=(-2, 8), error_limits=(0.1, 1e4), noise_level=1.0, degree=4)
    for d in (1, 4, 12):
        expected = ml.model(ml.polynomial_features(xv / 3.0, d), fits[d])
        np.testing.assert_allclose(widget.curve(xv[:, 0], d), expected, rtol=1e-10, atol=1e-10)
        assert widget.errors(d)[0] == pytest.approx(np.mean((ml.model(ml.polynomial_features(x / 3.0, d), fits[d]) - y) ** 2), rel=1e-10)
    data, metadata = widget._repr_mimebundle_()
    assert metadata["image/png"]["alt"] == data["text/plain"] == widget.description()
    assert widget._anywidget_id == live.POLYNOMIAL_ANYWIDGET_ID
    with pytest.raises(ValueError, match="degrees 1, 2"):
        widgets.polynomial_fits({2: fits[2]}, (x, y), (xv, yv), scale=3.0, true_curve=(x[:, 0], y), xlim=(-3, 3),
                                ylim=(-2, 8), error_limits=(0.1, 1e4), noise_level=1.0)
    with pytest.raises(ValueError, match="weights\\[2\\]"):
        widgets.polynomial_fits({1: fits[1], 2: fits[1]}, (x, y), (xv, yv), scale=3.0, true_curve=(x[:, 0], y),
                                xlim=(-3, 3), ylim=(-2, 8), error_limits=(0.1, 1e4), noise_level=1.0)


# ------------------------------------------------ minibatch_descent (chapter 2)
def test_minibatch_descent_ships_the_library_permutations(data):
    x, y, _, _, _ = data
    widget = widgets.minibatch_descent(x, y, xrange=(-3, 9), yrange=(-2, 12), levels=np.linspace(1, 50, 10),
                                       epochs=4, batch_size=7, seed=3, max_epochs=6)
    rng = np.random.default_rng(3)
    assert widget.config["permutations"] == [rng.permutation(len(y)).tolist() for _ in range(6)]
    run = ml.minibatch_gradient_descent(ml.least_squares(x, y), np.zeros(2), 0.1, 4, 7, seed=3, record_steps=True)
    np.testing.assert_array_equal(widget.path(), run.step_weights)
    assert widget._anywidget_id == live.MINIBATCH_ANYWIDGET_ID
    data_, metadata = widget._repr_mimebundle_()
    assert metadata["image/png"]["alt"] == data_["text/plain"] == widget.description()
    with pytest.raises(ValueError, match="batch_size"):
        widgets.minibatch_descent(x, y, xrange=(-3, 9), yrange=(-2, 12), levels=[1, 2], batch_size=len(y) + 1)
    with pytest.raises(ValueError, match="epochs"):
        widgets.minibatch_descent(x, y, xrange=(-3, 9), yrange=(-2, 12), levels=[1, 2], epochs=30, max_epochs=20)


# ------------------------------------------------ weight_scale (chapter 3)
def test_weight_scale_costs_and_mistakes_equal_the_library():
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 5, size=(40, 1))
    y = (x[:, 0] > 2.5).astype(float)
    y2 = (x[:, 0] + rng.normal(size=40) > 2.5).astype(float)
    u = np.array([-2.5, 1.0]) / np.hypot(2.5, 1.0)
    widget = widgets.weight_scale((x, y, u, "x", "a", (0, 5)), (x, y2, u, "x", "b", (0, 5)),
                                  jitter=np.zeros(40), minimizer_norm=3.0, scale=7.0)
    assert widget.costs() == [ml.cross_entropy(x, y)(7.0 * u), ml.cross_entropy(x, y2)(7.0 * u)]
    assert widget.mistakes() == [ml.misclassifications(x, y)(7.0 * u), ml.misclassifications(x, y2)(7.0 * u)]
    data_, metadata = widget._repr_mimebundle_()
    assert metadata["image/png"]["alt"] == data_["text/plain"] == widget.description()
    with pytest.raises(ValueError, match="unit vector"):
        widgets.weight_scale((x, y, 2 * u, "x", "a", (0, 5)), (x, y2, u, "x", "b", (0, 5)), jitter=np.zeros(40),
                             minimizer_norm=3.0)
    with pytest.raises(ValueError, match="labels must be 0 or 1"):
        widgets.weight_scale((x, 2 * y - 1, u, "x", "a", (0, 5)), (x, y2, u, "x", "b", (0, 5)), jitter=np.zeros(40),
                             minimizer_norm=3.0)


# ------------------------------------------------ window_spectrogram (chapter 6)
def test_window_spectrogram_ships_the_signal_and_its_fallback():
    rate = 8000
    times = np.arange(4000) / rate
    signal = np.cos(2 * np.pi * 1000 * times)
    widget = widgets.window_spectrogram(signal, rate, window=300)
    assert widget.config["signal"] == signal.tolist() and len(widget.config["colors"]) == 256
    frequencies, frame_times, magnitudes = widget.spectrogram()
    expected = ml.spectrogram(signal, rate, window=300, hop=37)
    np.testing.assert_array_equal(magnitudes, expected[2])
    data_, metadata = widget._repr_mimebundle_()
    assert metadata["image/png"]["alt"] == data_["text/plain"] == widget.description()
    with pytest.raises(ValueError, match="window"):
        widgets.window_spectrogram(signal, rate, window=5000)
    with pytest.raises(ValueError, match="1-D"):
        widgets.window_spectrogram(np.zeros((10, 2)), rate)


def test_frames_slider_is_gone():
    assert not hasattr(widgets, "frames_slider") and not hasattr(widgets, "FrameSlider")


def test_module_text_is_the_shared_code_then_the_widget_file():
    assert "needs_kernel.js" in module_names() and "_shared.js" not in module_names()
    for name in module_names():
        assert module_text(name).endswith((live.STATIC / name).read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="expected one of .*got 'nope.js'"):
        module_text("nope.js")


# ------------------------------------------------ the ids the static book knows the widgets by
WIDGET_CLASSES = [getattr(live, name) for name in live.__all__ if name[0].isupper()]


def test_every_widget_is_exported_with_its_constant():
    ids = {live.ANYWIDGET_ID, live.SOFTMAX_ANYWIDGET_ID, live.MINIBATCH_ANYWIDGET_ID, live.PENALTY_ANYWIDGET_ID,
           live.POLYNOMIAL_ANYWIDGET_ID, live.WEIGHT_SCALE_ANYWIDGET_ID, live.SPECTROGRAM_ANYWIDGET_ID,
           live.DEGREE_FOLDS_ANYWIDGET_ID, live.BOOSTING_ANYWIDGET_ID,
           live.CATEGORY_CODES_ANYWIDGET_ID, live.THRESHOLD_ANYWIDGET_ID,
           live.MISSING_VALUES_ANYWIDGET_ID,
           live.TEXT_FEATURES_ANYWIDGET_ID,
           live.EDGE_HISTOGRAMS_ANYWIDGET_ID}
    assert ids == {cls.anywidget_id for cls in WIDGET_CLASSES} and len(WIDGET_CLASSES) == len(ids)
    assert all(getattr(widgets, name) is getattr(live, name) for name in live.__all__ if hasattr(widgets, name))
    for path in (live.ESM_PATH, live.PENALTY_ESM_PATH, live.POLYNOMIAL_ESM_PATH, live.WEIGHT_SCALE_ESM_PATH,
                 live.SPECTROGRAM_ESM_PATH, live.DEGREE_FOLDS_ESM_PATH, live.BOOSTING_ESM_PATH,
                 live.CATEGORY_CODES_ESM_PATH, live.THRESHOLD_ESM_PATH,
                 live.MISSING_VALUES_ESM_PATH,
                 live.TEXT_FEATURES_ESM_PATH,
                 live.EDGE_HISTOGRAMS_ESM_PATH):
        assert path.is_file() and path.parent == live.STATIC


@pytest.mark.parametrize("cls", WIDGET_CLASSES, ids=lambda cls: cls.__name__)
def test_anywidget_id_is_the_public_name_and_the_loader_knows_it(cls):
    """The id stays "mlrefined_lib.live.<class>" whichever module of the package defines the class:
    the static book's loader (and every stored notebook) finds the widget's front end by it."""
    assert cls.anywidget_id == f"mlrefined_lib.live.{cls.__name__}"
    assert cls()._anywidget_id == cls.anywidget_id
    loader = (ROOT / "assets/widget-loader.js").read_text(encoding="utf-8")
    mapped = re.search(rf'\["{re.escape(cls.anywidget_id)}", "([\w.]+\.js)"\]', loader)
    assert mapped, f"assets/widget-loader.js does not map {cls.anywidget_id}"
    assert cls._esm == module_text(mapped.group(1))
