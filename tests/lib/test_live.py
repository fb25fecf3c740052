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
    assert widget._esm == live.ESM_PATH.read_text()
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
    monkeypatch.setattr(live, "blend_moments", lambda *a, **k: built.append(1) or {})
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
    # The static book maps the widget to its vendored copy by this id.
    assert live.ANYWIDGET_ID in (ROOT / "assets/live-widgets.js").read_text()
