"""Every live widget (mlrefined_lib.live) in a static page, in Chromium.

Each test writes a small page into tmp_path the way the book embeds widgets
(the book's loader, assets/widget-loader.js, with the widget state in the page),
serves it on a loopback port, and checks that what the page computes equals the
library to 1e-9: the path of the descent widgets equals
:func:`mlrefined_lib.gradient_descent` on every step for several learning
rates, blends and starting points, also after the reader moves the controls
(and likewise the mini-batch paths, the softmax grid, the lasso and ridge
minimizers, the polynomial fits, the weight-scale costs, the spectrogram, the
folds, fold scores and chosen degree of chapter 5, boosting's weights by round); that
the page runs the vendored front end, not the code stored in the widget state; and
that the controls are named and keep their keys from the page. It needs
`python tools/vendor_assets.py` to have filled assets/vendor (the book build does).
"""

from __future__ import annotations

import json
import re
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest
from ipywidgets.embed import embed_data

import mlrefined_lib as ml
from mlrefined_lib import datasets, live

import bookfiles  # tools/bookfiles.py (conftest.py puts tools/ on sys.path)

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "assets"
TOL = 1e-9
NEEDED = ["widget-loader.js", "vendor/mlrefined/quadratic_descent.js", "vendor/mlrefined/needs_kernel.js",
          "vendor/mlrefined/penalty_geometry.js", "vendor/mlrefined/polynomial_fits.js",
          "vendor/mlrefined/weight_scale.js", "vendor/mlrefined/spectrogram.js", "vendor/mlrefined/degree_folds.js",
          "vendor/mlrefined/boosting_rounds.js"]


def write_page(widgets, directory: Path, *, tamper_esm: str | None = None, style: str = "") -> Path:
    """An HTML page embedding `widgets` as the book does; `tamper_esm` replaces the stored `_esm`,
    `style` is a style sheet for the page."""
    missing = [n for n in NEEDED if not (ASSETS / n).is_file()]
    if missing:
        pytest.fail(f"assets/ lacks {missing}: run `python tools/vendor_assets.py` first.")
    static = directory / "_static"
    if not static.exists():
        shutil.copytree(ASSETS, static)
    data = embed_data(views=widgets, drop_defaults=False)  # as a notebook stores it
    state = data["manager_state"]
    if tamper_esm is not None:
        for model in state["state"].values():
            if "_esm" in model["state"]:
                model["state"]["_esm"] = tamper_esm
    views = "\n".join(
        f'<div class="cell"><script type="application/vnd.jupyter.widget-view+json">{json.dumps(v)}</script></div>'
        for v in data["view_specs"])
    page = directory / "index.html"
    page.write_text(f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>live widget test</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{style}</style>
<script type="module" src="_static/widget-loader.js"></script>
<script type="application/vnd.jupyter.widget-state+json">{json.dumps(state)}</script>
</head><body>{views}</body></html>""")
    return page


@pytest.fixture
def serve(tmp_path):
    """Serve tmp_path on a free loopback port; yields the base URL."""
    with bookfiles.serve(tmp_path) as url:
        yield url


def open_page(browser, url: str, count: int, attribute: str = "data-path"):
    """Open the page served at `url` once `count` widgets carry `attribute`; returns the page and
    the list that collects its script errors and any request that leaves `url`."""
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(url) else (errors.append(r.request.url), r.abort())[1])
    page.goto(url + "/index.html", wait_until="load")
    page.wait_for_function(f"() => document.querySelectorAll('.mlr-live[{attribute}]').length === {count}", timeout=20_000)
    return page, errors


# Moves the range control whose label starts with `label` to `value`, as a reader's drag does.
SET_RANGE = """([label, value]) => {
  const input = [...document.querySelectorAll('.mlr-live input')].find(
    (i) => document.querySelector(`label[for="${i.id}"]`).textContent.startsWith(label));
  input.value = value; input.dispatchEvent(new Event('input', {bubbles: true}));
  input.dispatchEvent(new Event('change', {bubbles: true}));
}"""


def shown(page, key: str) -> str:
    """The first widget's ``data-<key>`` attribute."""
    return page.eval_on_selector(".mlr-live", f"e => e.dataset.{key}")


def redrawn(page, key: str, act) -> None:
    """Call `act()` (a reader's input) and wait until the first widget's ``data-<key>`` changes."""
    old = shown(page, key)
    act()
    page.wait_for_function(f"(old) => document.querySelector('.mlr-live').dataset.{key} !== old", arg=old)


def clicked(page, key: str, target, fx: float, fy: float = 0.5, dx: float = 0.0) -> None:
    """Click `target` (a locator) at the fractions (fx, fy) of its box and `dx` px further right;
    wait until the first widget's ``data-<key>`` changes."""
    box = target.bounding_box()
    redrawn(page, key, lambda: page.mouse.click(box["x"] + box["width"] * fx + dx, box["y"] + box["height"] * fy))


def plot(page):
    """The first widget's plot (the canvas the arrow keys and clicks move the start on)."""
    return page.locator(".mlr-live canvas[role=img]").first


def moved_start(page, keys: list[str], above: float, expected) -> np.ndarray:
    """Press `keys` on the focused plot; once the last key's redraw has moved the start's second
    weight above `above`, the drawn path, its start checked against `expected`."""
    plot(page).focus()
    for key in keys:
        page.keyboard.press(key)
    page.wait_for_function(f"() => JSON.parse(document.querySelector('.mlr-live').dataset.path)[0][1] > {above}")
    drawn = drawn_paths(page)[0]
    assert np.allclose(drawn[0], expected), drawn[0]
    return drawn


def finish(page, errors: list, timings: str = "") -> None:
    """The end of a test's page: print the medians of the first widget's input-to-frame and redraw
    times under the name `timings` if given (shown with -s); no script error and no request that
    left the server may have happened; then close the page."""
    if timings:
        measured = page.evaluate("document.querySelector('.mlr-live').__liveTimings")
        print(f"{timings}: input to frame median {sorted(t[0] for t in measured)[len(measured) // 2]:.1f} ms, "
              f"redraw median {sorted(t[1] for t in measured)[len(measured) // 2]:.2f} ms")
    assert not errors, errors
    page.close()


def drawn_paths(page) -> list[np.ndarray]:
    return [np.array(p) for p in page.eval_on_selector_all(".mlr-live", "els => els.map(e => JSON.parse(e.dataset.path))")]


def python_path(inputs, y, alpha, steps, start, *, bias=True) -> np.ndarray:
    """The library's gradient descent on the least-squares cost of `inputs`."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ml.DivergenceWarning)
        if bias:
            return ml.gradient_descent(ml.least_squares(inputs, y), np.array(start, float), alpha, steps).weights
        # No bias: centred data, so the bias stays 0 and the path lies in the (w1, w2) plane.
        run = ml.gradient_descent(ml.least_squares(inputs, y), np.concatenate([[0.0], start]), alpha, steps)
        return run.weights[:, 1:]


def assert_same(drawn: np.ndarray, expected: np.ndarray, what: str) -> None:
    assert drawn.shape == expected.shape, f"{what}: drawn path {drawn.shape}, Python {expected.shape}"
    error = np.abs(drawn - expected).max() / max(1.0, np.abs(expected).max())
    assert error <= TOL, f"{what}: the drawn path differs from gradient_descent by {error:.3g} (> {TOL})"


@pytest.fixture(scope="module")
def data():
    x, y = datasets.load_one_input_regression()
    z = ml.standard_normalizer(x)[0](x)
    rng = np.random.default_rng(0)
    x2 = rng.normal(size=(80, 2)) @ np.array([[1.0, 0.0], [2.7, 1.3]]).T
    x2 -= x2.mean(axis=0)
    y2 = x2 @ np.array([1.0, -0.5]) + 0.5 * rng.normal(size=80)
    y2 -= y2.mean()
    s2 = ml.standard_normalizer(x2)[0](x2)
    p2 = ml.pca_sphere(x2)[0](x2)
    return dict(x=x, y=y, z=z, x2=x2, y2=y2, s2=s2, p2=p2)


CASES = [  # (alpha, steps, start, blend)
    (0.1, 20, (0.0, 0.0), 0.0),
    (0.5, 40, (-2.0, 10.0), 0.35),
    (0.81, 25, (0.0, 0.0), 0.0),   # diverging on the raw input: the drawn path still matches
    (0.03, 100, (8.0, -1.0), 1.0),
]


def test_drawn_paths_equal_gradient_descent(browser, serve, tmp_path, data):
    x, y, z = data["x"], data["y"], data["z"]
    widgets = [live.quadratic_descent([x, z], y, xrange=(-3, 9), yrange=(-2, 12), alpha=a, steps=k, start=s, blend=b)
               for a, k, s, b in CASES]
    three = live.quadratic_descent([data["x2"], data["s2"], data["p2"]], data["y2"], xrange=(-3, 3), yrange=(-3, 3),
                                   bias=False, alpha=0.1, steps=15, start=(-2.5, 2.5), blend=1.5)
    write_page(widgets + [three], tmp_path)
    page, errors = open_page(browser, serve, len(widgets) + 1)
    paths = drawn_paths(page)
    for (alpha, steps, start, blend), drawn in zip(CASES, paths):
        expected = python_path((1 - blend) * x + blend * z, y, alpha, steps, start)
        assert_same(drawn, expected, f"alpha={alpha}, tau={blend}, start={start}")
    blended = 0.5 * data["s2"] + 0.5 * data["p2"]
    assert_same(paths[-1], python_path(blended, data["y2"], 0.1, 15, (-2.5, 2.5), bias=False),
                "raw -> standardized -> sphered at s = 1.5")
    finish(page, errors)


def test_controls_redraw_the_path_and_it_stays_exact(browser, serve, tmp_path, data):
    x, y, z = data["x"], data["y"], data["z"]
    widget = live.quadratic_descent([x, z], y, xrange=(-3, 9), yrange=(-2, 12), alpha=0.1, steps=20,
                                    blend_label="blend τ (0 = raw, 1 = standardized)")
    write_page([widget], tmp_path)
    page, errors = open_page(browser, serve, 1)
    for label, value, steps in [("learning rate", np.log10(0.3), 20), ("steps", 60, 60), ("blend", 0.7, 60)]:
        redrawn(page, "path", lambda: page.evaluate(SET_RANGE, [label, float(value)]))
        drawn = drawn_paths(page)[0]
        # The range controls round to their step: use the exact values the widget reports.
        alpha = float(shown(page, "alpha"))
        blend = float(shown(page, "blend"))
        assert abs(alpha - 0.3) < 0.01 and (label != "blend" or blend == 0.7)
        expected = python_path((1 - blend) * x + blend * z, y, alpha, steps, (0.0, 0.0))
        assert_same(drawn, expected, f"after moving {label}")
    # Keyboard: the focused plot moves the start; keys do not reach the page's own listeners.
    page.evaluate("window.__keysSeen = 0; document.addEventListener('keydown', () => window.__keysSeen++)")
    drawn = moved_start(page, ["ArrowRight", "ArrowRight", "ArrowUp"], 0.1, [0.24, 0.14])
    assert_same(drawn, python_path(0.3 * x + 0.7 * z, y, alpha, 60, drawn[0]), "after the arrow keys")
    assert page.evaluate("window.__keysSeen") == 0, "arrow keys leaked to the page (JupyterLab would take them)"
    # A click on the plot sets the start there.
    clicked(page, "path", plot(page), 0.5, 0.5)
    drawn = drawn_paths(page)[0]
    assert_same(drawn, python_path(0.3 * x + 0.7 * z, y, alpha, 60, drawn[0]), "after a click")
    finish(page, errors)


def test_controls_are_named_and_the_description_follows_the_path(browser, serve, tmp_path, data):
    widget = live.quadratic_descent(data["x"], data["y"], xrange=(-3, 9), yrange=(-2, 12), alpha=0.1, steps=20)
    write_page([widget], tmp_path)
    page, errors = open_page(browser, serve, 1)
    unnamed = page.evaluate("""() => [...document.querySelectorAll('.mlr-live input, .mlr-live button, .mlr-live canvas[tabindex]')]
        .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim())
        .map((e) => e.outerHTML.slice(0, 80))""")
    assert unnamed == []
    assert page.locator(".mlr-live canvas[role=img][aria-describedby]").count() == 1
    assert page.locator(".mlr-live [aria-live=polite]").count() == 1
    text = page.locator(".mlr-live [id^=mlr-desc]").inner_text()
    cost = ml.least_squares(data["x"], data["y"])(drawn_paths(page)[0][-1])
    assert f"after 20 steps" in text and f"cost {cost:.4g}" in text, text
    assert page.locator(".mlr-live input[aria-valuetext]").count() == 2
    finish(page, errors)


def test_the_page_never_runs_the_code_stored_in_the_widget_state(browser, serve, tmp_path, data):
    widget = live.quadratic_descent(data["x"], data["y"], xrange=(-3, 9), yrange=(-2, 12))
    write_page([widget], tmp_path, tamper_esm="window.__ranStoredCode = true; export default {render() {}};")
    page, errors = open_page(browser, serve, 1)
    assert page.evaluate("window.__ranStoredCode === undefined")
    assert_same(drawn_paths(page)[0], python_path(data["x"], data["y"], 0.1, 20, (0.0, 0.0)), "vendored front end")
    finish(page, errors)


def test_the_vendored_front_ends_equal_the_library_modules():
    """assets/vendor/mlrefined/ (and the built book's copy) hold exactly what Jupyter receives as `_esm`."""
    from mlrefined_lib import _esm

    names = sorted(p.name for p in (ASSETS / "vendor/mlrefined").glob("*.js"))
    assert names == _esm.module_names(), "assets/vendor/mlrefined/ is stale: rerun vendor_assets"
    built = ROOT / "_build/html/_static/vendor/mlrefined"
    for name in names:
        text = (ASSETS / "vendor/mlrefined" / name).read_text(encoding="utf-8")
        assert text == _esm.module_text(name), f"vendored {name} differs from the library's module: rerun vendor_assets"
        if (built / name).is_file():
            assert (built / name).read_text(encoding="utf-8") == text, f"the built book's {name} is stale: run `make book`"


def test_the_loader_imports_only_the_vendored_modules():
    """assets/widget-loader.js builds every module address from its own location and a fixed
    table of file names; it never evaluates text from the page (no eval, Function or blob URLs)."""
    loader = (ASSETS / "widget-loader.js").read_text(encoding="utf-8")
    code = re.sub(r"//.*", "", loader)
    assert "new URL(file, VENDOR)" in code and 'new URL("vendor/mlrefined/", import.meta.url)' in code
    for forbidden in ("eval(", "Function(", "createObjectURL", "data:text/javascript", "_esm"):
        assert forbidden not in code, f"widget-loader.js uses {forbidden!r}"
    from mlrefined_lib import _esm

    files = set(re.findall(r'"([a-z_]+\.js)"', code))
    assert files <= set(_esm.module_names()), f"the loader names modules that do not exist: {files - set(_esm.module_names())}"


def test_readers_without_javascript_see_the_png_with_alt_text(browser, tmp_path, data):
    """_ext/live_fallback.py puts each widget's PNG, with its alt text, right before its view
    (book.css hides it once the widget has drawn: tests/book/test_devices.py checks that)."""
    import importlib.util
    import types

    import nbformat

    spec = importlib.util.spec_from_file_location("live_fallback", ROOT / "_ext" / "live_fallback.py")
    fallback = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fallback)
    widget = live.quadratic_descent(data["x"], data["y"], xrange=(-3, 9), yrange=(-2, 12))
    bundle, metadata = widget._repr_mimebundle_()
    other = {"application/vnd.jupyter.widget-view+json": {"model_id": "abc", "version_major": 2, "version_minor": 0},
             "text/plain": "a frames slider"}
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("w", outputs=[
        nbformat.v4.new_output("display_data", data=other),
        nbformat.v4.new_output("display_data", data=bundle, metadata=metadata)])])
    source = tmp_path / "page.ipynb"
    nbformat.write(notebook, source)
    # The built page's views carry other model ids (the build may execute the notebook again).
    view = '<script type="application/vnd.jupyter.widget-view+json">{"model_id": "%s"}</script>'
    context = {"body": f"<div>{view % 'one'}</div><div>{view % 'two'}</div>"}
    app = types.SimpleNamespace(env=types.SimpleNamespace(doc2path=lambda name: str(source)))
    fallback._add_fallbacks(app, "page", "page.html", context, None)
    body = context["body"]
    assert body.count('<img class="widget-fallback"') == 1
    assert body.index("one") < body.index('<img class="widget-fallback"') < body.index("two"), \
        "the image is not right before the second view"
    page_file = tmp_path / "nojs.html"
    page_file.write_text(f'<!DOCTYPE html><html lang="en"><head><title>t</title></head><body>{context["body"]}</body></html>')
    browser_context = browser.new_context(java_script_enabled=False)
    page = browser_context.new_page()
    page.goto(page_file.as_uri())
    images = page.locator("img")
    assert images.count() == 1 and images.first.is_visible()
    assert images.first.get_attribute("alt") == widget.description()
    assert images.first.evaluate("i => i.complete && i.naturalWidth > 100")
    browser_context.close()


# ------------------------------------------------ the softmax widget (chapter 7, Example B)
@pytest.fixture(scope="module")
def classification():
    x, y = datasets.load_one_input_classification()
    z = ml.standard_normalizer(x)[0](x)
    return x, y, z


def softmax_widget(classification, **kw):
    x, y, z = classification
    kw.setdefault("xrange", (-8.0, 4.0))
    kw.setdefault("yrange", (-2.0, 8.0))
    kw.setdefault("levels", np.geomspace(0.005, 40.0, 20))
    return live.softmax_descent([x, z], y, blend_label="blend τ (0 = raw, 1 = standardized)", **kw)


def softmax_path(classification, blend, alpha, steps, start) -> np.ndarray:
    x, y, z = classification
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ml.DivergenceWarning)
        cost = ml.softmax((1 - blend) * x + blend * z, y)
        return ml.gradient_descent(cost, np.array(start, float), alpha, steps).weights


def assert_grid_equals_the_library(page, classification, blend, index=0):
    x, y, z = classification
    grid = page.evaluate(f"""() => {{ const g = document.querySelectorAll('.mlr-live')[{index}].__liveGrid;
        return {{xs: Array.from(g.xs), ys: Array.from(g.ys), values: Array.from(g.values)}}; }}""")
    xs, ys = np.array(grid["xs"]), np.array(grid["ys"])
    ws = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    expected = ml.softmax((1 - blend) * x + blend * z, y).batch(ws)
    error = np.abs(np.array(grid["values"]) - expected).max() / max(1.0, np.abs(expected).max())
    assert error <= TOL, f"the page's contour grid differs from softmax().batch by {error:.3g}"
    return error


SOFTMAX_CASES = [  # (alpha, steps, start, blend)
    (1.0, 100, (0.0, 0.0), 0.0),
    (1.0, 100, (0.0, 0.0), 0.55),
    (10.0, 25, (0.0, 0.0), 1.0),
    (3.0, 60, (-6.0, 6.5), 0.2),
    (20.0, 200, (2.0, -1.0), 0.9),
]


def test_softmax_paths_and_grid_equal_the_library(browser, serve, tmp_path, classification):
    widgets = [softmax_widget(classification, alpha=a, steps=k, start=s, blend=b) for a, k, s, b in SOFTMAX_CASES]
    write_page(widgets, tmp_path)
    page, errors = open_page(browser, serve, len(widgets))
    for index, ((alpha, steps, start, blend), drawn) in enumerate(zip(SOFTMAX_CASES, drawn_paths(page))):
        assert_same(drawn, softmax_path(classification, blend, alpha, steps, start),
                    f"softmax, alpha={alpha}, tau={blend}, start={start}")
        assert_grid_equals_the_library(page, classification, blend, index)
        text = page.locator(".mlr-live [id^=mlr-desc]").nth(index).inner_text()
        cost = ml.softmax((1 - blend) * classification[0] + blend * classification[2], classification[1])(drawn[-1])
        shown = float(re.search(r"after \d+ steps with α = [^:]+: cost ([-+.e\d]+)", text).group(1))
        assert shown == pytest.approx(cost, rel=2e-3), text
    finish(page, errors)


def test_softmax_controls_keys_and_pointer_keep_it_exact(browser, serve, tmp_path, classification):
    write_page([softmax_widget(classification, alpha=1.0, steps=100)], tmp_path)
    page, errors = open_page(browser, serve, 1)
    state = lambda: (float(shown(page, "alpha")), float(shown(page, "blend")))
    for label, value, steps in [("blend", 0.37, 100), ("learning rate", np.log10(4.0), 100), ("steps", 150, 150)]:
        redrawn(page, "path", lambda: page.evaluate(SET_RANGE, [label, float(value)]))
        alpha, blend = state()
        assert_same(drawn_paths(page)[0], softmax_path(classification, blend, alpha, steps, (0.0, 0.0)),
                    f"softmax after moving {label}")
        assert_grid_equals_the_library(page, classification, blend)
    drawn = moved_start(page, ["ArrowLeft", "ArrowLeft", "ArrowUp"], 0.05, [-0.24, 0.1])
    alpha, blend = state()
    assert_same(drawn, softmax_path(classification, blend, alpha, 150, drawn[0]), "softmax after the arrow keys")
    clicked(page, "path", plot(page), 0.3, 0.4)
    drawn = drawn_paths(page)[0]
    assert_same(drawn, softmax_path(classification, blend, alpha, 150, drawn[0]), "softmax after a click")
    finish(page, errors)


# ------------------------------------------------ the lasso and ridge geometry (chapter 11)
# The data: the fixture `centred` of tests/conftest.py (shared with tests/lib/test_live.py).


def geometry(page, index=0):
    values = page.evaluate(f"""() => {{ const e = document.querySelectorAll('.mlr-live')[{index}];
        return [JSON.parse(e.dataset.lasso), JSON.parse(e.dataset.ridge), Number(e.dataset.lam)]; }}""")
    return np.array(values[0]), np.array(values[1]), values[2]


def assert_minimizers(page, centred, what, index=0):
    """The page's lasso and ridge minimizers equal Python's closed forms (and ridge equals reg.ridge)."""
    from mlrefined_lib import regularization as reg

    x, y = centred
    lasso, ridge, lam = geometry(page, index)
    m, c = x.T @ x / len(y), x.T @ y / len(y)
    exact_lasso, exact_ridge = live.penalized_minimizers(m, c, lam)
    errors = [np.abs(lasso - exact_lasso).max(), np.abs(ridge - exact_ridge).max(),
              np.abs(ridge - reg.ridge(x, y, len(y) * lam)[1:]).max()]
    assert max(errors) <= TOL, f"{what}: page and library differ by {errors}"
    np.testing.assert_array_equal(lasso == 0, exact_lasso == 0)
    return lam, max(errors)


def test_penalty_geometry_minimizers_equal_the_library(browser, serve, tmp_path, centred):
    x, y = centred
    lams = [0.0, 0.4, 1.0, 2.2, 4.271159018554403, 5.0]  # the last two: at and past lambda_max
    widgets = [live.penalty_geometry(x, y, xrange=(-1, 3), yrange=(-1.5, 2.5), levels=np.linspace(0.3, 8, 16), lam=lam)
               for lam in lams]
    write_page(widgets, tmp_path)
    page, errors = open_page(browser, serve, len(widgets), "data-lasso")
    for index, lam in enumerate(lams):
        on_page, _ = assert_minimizers(page, centred, f"lambda = {lam}", index)
        assert on_page == lam
    assert geometry(page, 5)[0].tolist() == [0.0, 0.0]
    text = page.locator(".mlr-live [id^=mlr-desc]").nth(2).inner_text()
    lasso, ridge = widgets[2].minimizers()
    assert f"({lasso[0]:.3f}, {lasso[1]:.3f})" in text and f"({ridge[0]:.3f}, {ridge[1]:.3f})" in text, text
    finish(page, errors)


def test_penalty_geometry_slider_keys_and_pointer(browser, serve, tmp_path, centred):
    x, y = centred
    widget = live.penalty_geometry(x, y, xrange=(-1, 3), yrange=(-1.5, 2.5), levels=np.linspace(0.3, 8, 16), lam=1.0)
    write_page([widget], tmp_path)
    page, errors = open_page(browser, serve, 1, "data-lasso")
    slider = page.get_by_label("penalty λ (lambda)")
    assert slider.count() == 1
    redrawn(page, "lam", lambda: slider.fill("3.1"))
    lam, _ = assert_minimizers(page, centred, "after setting the slider")
    assert lam == pytest.approx(3.1, abs=0.01) and geometry(page)[0][1] == 0.0  # w2 is out of the model
    page.evaluate("window.__keysSeen = 0; document.addEventListener('keydown', () => window.__keysSeen++)")
    slider.focus()
    for key in ["ArrowLeft"] * 5:
        redrawn(page, "lam", lambda: page.keyboard.press(key))
    lam_keys, _ = assert_minimizers(page, centred, "after the arrow keys")
    assert lam_keys < lam
    assert page.evaluate("window.__keysSeen") == 0, "arrow keys leaked to the page"
    clicked(page, "lam", slider, 0.2)
    lam_click, _ = assert_minimizers(page, centred, "after a click on the slider")
    assert lam_click < lam_keys
    assert page.locator(".mlr-live input[aria-valuetext]").count() == 1
    assert page.locator(".mlr-live canvas[role=img][aria-label]").count() == 2
    finish(page, errors, timings="penalty geometry")


# ------------------------------------------------ polynomial fits by degree (chapter 4)
@pytest.fixture(scope="module")
def polynomial_data():
    rng = np.random.default_rng(5)
    x, xv = rng.uniform(-3, 3, size=(30, 1)), rng.uniform(-3, 3, size=(30, 1))
    y = 0.5 * x[:, 0] ** 2 + x[:, 0] + 2 + rng.normal(size=30)
    yv = 0.5 * xv[:, 0] ** 2 + xv[:, 0] + 2 + rng.normal(size=30)
    fits = {}
    for d in range(1, 26):
        f = ml.polynomial_features(x / 3.0, d)
        fits[d] = np.linalg.lstsq(np.column_stack([np.ones(30), f]), y, rcond=None)[0]
    return x, y, xv, yv, fits


def polynomial_widget(polynomial_data, degree):
    x, y, xv, yv, fits = polynomial_data
    grid = np.linspace(-3.2, 3.2, 200)
    return live.polynomial_fits(fits, (x, y), (xv, yv), scale=3.0, true_curve=(grid, 0.5 * grid**2 + grid + 2),
                                xlim=(-3.2, 3.2), ylim=(-2.0, 13.0), error_limits=(0.1, 1e8), noise_level=1.0,
                                degree=degree)


def assert_polynomial(page, polynomial_data, what, index=0):
    """The drawn curve equals ml.model on the polynomial features; the errors equal the library's."""
    x, y, xv, yv, fits = polynomial_data
    shown = page.evaluate(f"""() => {{ const e = document.querySelectorAll('.mlr-live')[{index}];
        return [Number(e.dataset.degree), e.__liveCurve.x, e.__liveCurve.y, JSON.parse(e.dataset.errors)]; }}""")
    degree, cx, cy, errors = shown[0], np.array(shown[1]), np.array(shown[2]), np.array(shown[3])
    expected = ml.model(ml.polynomial_features(cx[:, None] / 3.0, degree), fits[degree])
    curve_error = np.abs(cy - expected).max() / max(1.0, np.abs(expected).max())
    assert curve_error <= TOL, f"{what}: the drawn curve differs from ml.model by {curve_error:.3g}"
    # The errors to 1e-9, or to the rounding bound of evaluating the polynomial when that is larger:
    # at degree 25 the terms w_k t^k are up to 6e7 times the value they sum to, and any two
    # summation orders (the page's, BLAS's) differ by about (degree + 1) eps times that.
    worst = 0.0
    for d in range(1, 26):
        for a, b, k in ((x, y, 0), (xv, yv, 1)):
            terms = np.column_stack([np.ones(len(a)), ml.polynomial_features(a / 3.0, d)]) * fits[d]
            value = terms.sum(axis=1)
            library = np.mean((ml.model(ml.polynomial_features(a / 3.0, d), fits[d]) - b) ** 2)
            bound = max(TOL, 2 * (d + 1) * np.finfo(float).eps * (np.abs(terms).sum(axis=1) / np.maximum(1.0, np.abs(value))).max())
            error = abs(errors[d - 1][k] - library) / max(1.0, library)
            assert error <= bound, f"{what}: the degree-{d} error differs from the library's by {error:.3g} (> {bound:.3g})"
            worst = max(worst, error)
    return degree, max(curve_error, worst)


def test_polynomial_curves_and_errors_equal_the_library(browser, serve, tmp_path, polynomial_data):
    degrees = [1, 2, 9, 25]
    write_page([polynomial_widget(polynomial_data, d) for d in degrees], tmp_path)
    page, errors = open_page(browser, serve, len(degrees), "data-degree")
    for index, degree in enumerate(degrees):
        assert assert_polynomial(page, polynomial_data, f"degree {degree}", index)[0] == degree
    assert page.locator(".mlr-live svg polyline").count() >= 4 * 4, "the curves are not drawn as SVG vectors"
    assert page.locator(".mlr-live img").count() == 0
    finish(page, errors)


def test_polynomial_slider_keys_and_pointer(browser, serve, tmp_path, polynomial_data):
    write_page([polynomial_widget(polynomial_data, 2)], tmp_path)
    page, errors = open_page(browser, serve, 1, "data-degree")
    slider = page.get_by_label("polynomial degree")
    redrawn(page, "degree", lambda: slider.fill("15"))
    assert assert_polynomial(page, polynomial_data, "after the slider")[0] == 15
    slider.focus()
    redrawn(page, "degree", lambda: page.keyboard.press("ArrowRight"))
    assert assert_polynomial(page, polynomial_data, "after a key")[0] == 16
    clicked(page, "degree", slider, 0, dx=4)
    assert assert_polynomial(page, polynomial_data, "after a click")[0] == 1
    text = page.locator(".mlr-live [id^=mlr-desc]").inner_text()
    assert text.startswith("Degree 1:") and "underfits" in text, text
    finish(page, errors, timings="polynomial fits")


# ------------------------------------------------ mini-batch gradient descent (chapter 2)
MINIBATCH_CASES = [  # (alpha, epochs, batch size, start)
    (0.1, 5, 1, (0.0, 0.0)),
    (0.1, 5, 7, (0.0, 0.0)),
    (0.3, 12, 32, (6.0, -1.0)),
    (0.05, 20, 100, (-3.0, 12.0)),
    (0.9, 3, 3, (0.0, 0.0)),  # grows without bound: the page follows the library step by step
]


def minibatch_widget(data, alpha, epochs, batch, start):
    return live.minibatch_descent(data["x"], data["y"], xrange=(-4, 8), yrange=(-2, 14), levels=np.linspace(1, 300, 18),
                                  alpha=alpha, epochs=epochs, batch_size=batch, start=start, alpha_range=(1e-3, 1.0))


def minibatch_path(data, alpha, epochs, batch, start) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ml.DivergenceWarning)
        return ml.minibatch_gradient_descent(ml.least_squares(data["x"], data["y"]), np.array(start, float), alpha,
                                             epochs, batch, seed=0, record_steps=True).step_weights


def test_minibatch_paths_equal_minibatch_gradient_descent(browser, serve, tmp_path, data):
    write_page([minibatch_widget(data, *case) for case in MINIBATCH_CASES], tmp_path)
    page, errors = open_page(browser, serve, len(MINIBATCH_CASES))
    for case, drawn in zip(MINIBATCH_CASES, drawn_paths(page)):
        assert_same(drawn, minibatch_path(data, *case), f"mini-batch {case}")
    finish(page, errors)


def test_minibatch_controls_keys_and_pointer_keep_it_exact(browser, serve, tmp_path, data):
    write_page([minibatch_widget(data, 0.1, 5, 1, (0.0, 0.0))], tmp_path)
    page, errors = open_page(browser, serve, 1)
    alpha_now = lambda: float(shown(page, "alpha"))
    settings = {"batch": 1, "epochs": 5}
    for label, value, key in [("batch size", 10, "batch"), ("epochs", 9, "epochs"), ("learning rate", np.log10(0.25), None)]:
        redrawn(page, "path", lambda: page.evaluate(SET_RANGE, [label, float(value)]))
        if key:
            settings[key] = int(value)
        assert int(shown(page, "batch")) == settings["batch"]
        assert_same(drawn_paths(page)[0], minibatch_path(data, alpha_now(), settings["epochs"], settings["batch"], (0, 0)),
                    f"mini-batch after moving {label}")
    batch = page.get_by_label("batch size b")
    batch.focus()
    redrawn(page, "path", lambda: page.keyboard.press("ArrowRight"))
    assert_same(drawn_paths(page)[0], minibatch_path(data, alpha_now(), 9, 11, (0, 0)), "mini-batch after a key")
    clicked(page, "path", plot(page), 0.3, 0.6)
    drawn = drawn_paths(page)[0]
    assert_same(drawn, minibatch_path(data, alpha_now(), 9, 11, drawn[0]), "mini-batch after a click")
    text = page.locator(".mlr-live [id^=mlr-desc]").inner_text()
    assert "(9 epochs of 10 steps, batch size 11)" in text, text
    finish(page, errors, timings="mini-batch")


# ------------------------------------------------ the cost of scaled weights (chapter 3)
@pytest.fixture(scope="module")
def scale_problems():
    rng = np.random.default_rng(4)
    length = np.r_[rng.uniform(1.0, 1.9, 50), rng.uniform(3.0, 6.9, 100)][:, None]
    width = np.r_[rng.uniform(0.1, 1.2, 50), rng.uniform(1.0, 2.5, 100)][:, None]
    is_first = np.r_[np.ones(50), np.zeros(100)]
    is_wide = (width[:, 0] + 0.4 * rng.normal(size=150) > 1.7).astype(float)
    direction = np.array([2.45, -1.0]) / np.hypot(2.45, 1.0)
    w_star = np.array([-14.0, 8.5])
    return dict(separable=(length, is_first, direction, "petal length (cm)", "setosa", (0.5, 7.2)),
                overlapping=(width, is_wide, w_star / np.linalg.norm(w_star), "petal width (cm)", "virginica", (0.0, 2.7)),
                jitter=rng.uniform(-0.03, 0.03, 150), minimizer_norm=float(np.linalg.norm(w_star)))


def assert_scale_costs(page, problems, what, index=0):
    """The page's costs and mistakes at w = s u, and its cost curves along both rays, equal the library's."""
    shown = page.evaluate(f"""() => {{ const e = document.querySelectorAll('.mlr-live')[{index}];
        return [Number(e.dataset.scale), JSON.parse(e.dataset.costs), JSON.parse(e.dataset.errors), e.__liveRays]; }}""")
    scale, costs, mistakes, rays = shown
    worst = 0.0
    for k, name in enumerate(["separable", "overlapping"]):
        x, y, u = problems[name][:3]
        cost = ml.cross_entropy(x, y)
        for value, expected in [(costs[k], cost(scale * u))] + [
                (c, e) for c, e in zip(rays["costs"][k], cost.batch(np.outer(rays["scales"], u)))]:
            worst = max(worst, abs(value - expected) / max(1.0, abs(expected)))
        assert mistakes[k] == ml.misclassifications(x, y)(scale * u)
    assert worst <= TOL, f"{what}: the page's costs differ from cross_entropy by {worst:.3g}"
    return scale, worst


def test_weight_scale_costs_equal_the_library(browser, serve, tmp_path, scale_problems):
    scales = [0.3, 1.0, 5.0, 24.6, 100.0]
    write_page([live.weight_scale(scale=s, **scale_problems) for s in scales], tmp_path)
    page, errors = open_page(browser, serve, len(scales), "data-scale")
    for index, s in enumerate(scales):
        assert assert_scale_costs(page, scale_problems, f"||w|| = {s}", index)[0] == s
    assert page.locator(".mlr-live img").count() == 0
    finish(page, errors)


def test_weight_scale_slider_keys_and_pointer(browser, serve, tmp_path, scale_problems):
    write_page([live.weight_scale(scale=5.0, **scale_problems)], tmp_path)
    page, errors = open_page(browser, serve, 1, "data-scale")
    slider = page.get_by_label("weight norm ||w|| (log scale)")
    redrawn(page, "scale", lambda: slider.fill(str(np.log10(60.0))))
    scale, _ = assert_scale_costs(page, scale_problems, "after the slider")
    assert scale == pytest.approx(60.0, rel=0.01)
    slider.focus()
    redrawn(page, "scale", lambda: page.keyboard.press("ArrowLeft"))
    assert assert_scale_costs(page, scale_problems, "after a key")[0] < scale
    clicked(page, "scale", slider, 0.1)
    assert assert_scale_costs(page, scale_problems, "after a click")[0] < 2.0
    text = page.locator(".mlr-live [id^=mlr-desc]").inner_text()
    assert text.startswith("At ||w|| = ") and "mistakes" in text, text
    finish(page, errors, timings="weight scale")


# ------------------------------------------------ spectrogram window length (chapter 6)
@pytest.fixture(scope="module")
def mix():
    rate = 8000
    times = np.arange(rate) / rate
    signal = 0.5 * np.cos(2 * np.pi * 1000 * times) + 0.5 * np.cos(2 * np.pi * 1100 * times)
    for click in (0.30, 0.35, 0.70):
        signal[int(click * rate)] += 8.0
    return signal, rate


def assert_spectrogram(page, mix, what, index=0):
    """The page's magnitudes equal ml.spectrogram's (relative to the largest) on every frame and bin."""
    signal, rate = mix
    shown = page.evaluate(f"""() => {{ const s = document.querySelectorAll('.mlr-live')[{index}].__liveSpectrogram;
        return [s.window, s.hop, s.frames, s.bins, Array.from(s.magnitudes)]; }}""")
    window, hop, frames, bins, magnitudes = shown
    _, _, expected = ml.spectrogram(signal, rate, window=window, hop=hop)
    assert hop == window // 8 and expected.shape == (bins, frames), (what, expected.shape, bins, frames)
    error = np.abs(np.array(magnitudes).reshape(frames, bins).T - expected).max() / expected.max()
    assert error <= TOL, f"{what}: the page's spectrogram differs from ml.spectrogram by {error:.3g}"
    return window, error


def test_spectrogram_equals_the_library_for_any_window(browser, serve, tmp_path, mix):
    windows = [32, 45, 256, 300, 1000, 2048]  # powers of two (radix 2) and others (Bluestein)
    write_page([live.window_spectrogram(*mix, window=w) for w in windows], tmp_path)
    page, errors = open_page(browser, serve, len(windows), "data-window")
    for index, window in enumerate(windows):
        assert assert_spectrogram(page, mix, f"window {window}", index)[0] == window
    finish(page, errors)


def test_spectrogram_slider_keys_and_pointer(browser, serve, tmp_path, mix):
    write_page([live.window_spectrogram(*mix, window=256)], tmp_path)
    page, errors = open_page(browser, serve, 1, "data-window")
    slider = page.get_by_label("window length (samples, log scale)")
    redrawn(page, "window", lambda: slider.fill(str(np.log2(1500))))
    window, _ = assert_spectrogram(page, mix, "after the slider")
    assert abs(window - 1500) < 20  # the control moves in steps of 1/48 octave
    slider.focus()
    for _ in range(3):
        redrawn(page, "window", lambda: page.keyboard.press("ArrowLeft"))
    assert assert_spectrogram(page, mix, "after the arrow keys")[0] < 1500
    clicked(page, "window", slider, 0, dx=6)
    assert assert_spectrogram(page, mix, "after a click")[0] < 40
    text = page.locator(".mlr-live [id^=mlr-desc]").inner_text()
    assert text.startswith("Window ") and "Short frames" in text, text
    finish(page, errors)


def test_a_drag_draws_coarser_then_exactly_on_release(browser, serve, tmp_path, mix, classification):
    """While a reader drags the window length or the blend, the picture is drawn coarser (a hop of
    W // 2; half the contour grid); on release it is drawn, and kept for tests, exactly."""
    write_page([live.window_spectrogram(*mix, window=256)], tmp_path)
    page, errors = open_page(browser, serve, 1, "data-window")
    slider = page.get_by_label("window length (samples, log scale)")
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 4, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.6, y, steps=6)
    page.wait_for_timeout(300)
    coarse = page.evaluate("""() => { const r = document.querySelector('.mlr-live');
        return [r.querySelector('.mlr-description').textContent, r.__liveSpectrogram.window]; }""")
    assert re.search(r"\(hop (\d+)\)", coarse[0]), coarse
    window_dragged = int(re.search(r"Window (\d+) samples \(hop (\d+)\)", coarse[0])[1])
    hop_dragged = int(re.search(r"\(hop (\d+)\)", coarse[0])[1])
    assert hop_dragged == window_dragged // 2, coarse        # coarse while the pointer is down
    assert coarse[1] != window_dragged                        # and not kept as the exact picture
    page.mouse.up()
    page.wait_for_function("w => document.querySelector('.mlr-live').__liveSpectrogram.window === w",
                           arg=window_dragged)
    window, _ = assert_spectrogram(page, mix, "after a drag")
    assert window == window_dragged
    finish(page, errors)

    write_page([softmax_widget(classification, alpha=1.0, steps=100)], tmp_path)
    page, errors = open_page(browser, serve, 1)
    blend = page.get_by_label(re.compile("^blend"))
    box = blend.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 4, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.45, y, steps=6)
    page.wait_for_timeout(300)
    page.mouse.up()
    page.wait_for_function("() => { const r = document.querySelector('.mlr-live');"
                           " return r.__liveGrid && Number(r.dataset.blend) > 0; }")
    page.wait_for_timeout(200)
    assert_grid_equals_the_library(page, classification, float(shown(page, "blend")))
    finish(page, errors)


# ------------------------------------------------ on a phone: sharp, readable, honest
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
# The book's text column on a 390 px phone is about 358 px wide (tests/book/test_devices.py opens the built pages).
PHONE_STYLE = "body { margin: 0; padding: 0 16px; }"
DESKTOP = dict(viewport={"width": 1280, "height": 900})
DESKTOP_STYLE = "body { margin: 0 auto; max-width: 680px; }"  # about the book's text column on a desktop
MIN_TEXT_PX = 9  # no widget text under 9 CSS px

# Records what every canvas draws as text, in that canvas's own pixels (font size times the
# transform's scale), and carries it along when one canvas is drawn onto another; a canvas
# whose size is set is cleared, and so is its record.
CANVAS_TEXT_JS = """(() => {
  const records = new WeakMap();
  window.__canvasText = (canvas) => records.get(canvas) || [];
  const list = (canvas) => { if (!records.has(canvas)) records.set(canvas, []); return records.get(canvas); };
  const scale = (ctx) => { const m = ctx.getTransform(); return Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)); };
  const P = CanvasRenderingContext2D.prototype, fillText = P.fillText, drawImage = P.drawImage;
  P.fillText = function (text, ...rest) {
    list(this.canvas).push({text: String(text), size: parseFloat(/([\\d.]+)px/.exec(this.font)[1]) * scale(this)});
    return fillText.call(this, text, ...rest);
  };
  P.drawImage = function (source, ...a) {
    if (source instanceof HTMLCanvasElement && records.has(source)) {
      const sw = a.length >= 8 ? a[2] : source.width, dw = a.length >= 8 ? a[6] : a.length >= 4 ? a[2] : source.width;
      for (const r of records.get(source)) list(this.canvas).push({text: r.text, size: r.size * dw / sw * scale(this)});
    }
    return drawImage.call(this, source, ...a);
  };
  for (const side of ["width", "height"]) {
    const d = Object.getOwnPropertyDescriptor(HTMLCanvasElement.prototype, side);
    Object.defineProperty(HTMLCanvasElement.prototype, side, {configurable: true, get: d.get,
      set(v) { records.delete(this); d.set.call(this, v); }});
  }
})();"""

# Every text a reader sees in each widget, with its size in CSS px: HTML text (computed font
# size), SVG text (font size times the SVG's scale on the screen) and canvas text (as drawn,
# times the canvas's CSS width over its backing width); and each canvas's backing store
# against its CSS size.
WIDGET_TEXT_JS = """() => [...document.querySelectorAll('.mlr-live')].map((root) => {
  const texts = [];
  const visible = (e) => e.getClientRects().length > 0 && !e.closest('.mlr-hidden');
  for (const e of root.querySelectorAll('*')) {
    if (!visible(e) || e instanceof SVGElement || e.tagName === 'CANVAS') continue;
    const own = [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join(' ').trim();
    if (own) texts.push({where: 'html ' + e.tagName.toLowerCase(), text: own.slice(0, 30), size: parseFloat(getComputedStyle(e).fontSize)});
  }
  for (const t of root.querySelectorAll('svg text')) {
    if (!visible(t) || !t.textContent.trim()) continue;
    const m = t.getScreenCTM();
    texts.push({where: 'svg', text: t.textContent.slice(0, 30), size: parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b)});
  }
  const canvases = [...root.querySelectorAll('canvas')].filter(visible).map((c) => {
    const r = c.getBoundingClientRect();
    for (const rec of window.__canvasText(c)) texts.push({where: 'canvas', text: rec.text.slice(0, 30), size: rec.size * r.width / c.width});
    return {css: [r.width, r.height], backing: [c.width, c.height], top: r.top, bottom: r.bottom};
  });
  texts.sort((a, b) => a.size - b.size);
  return {title: root.querySelector('.mlr-title').textContent, width: root.getBoundingClientRect().width, texts, canvases};
})"""


def phone_page(browser, url: str, count: int, device: dict = PHONE):
    """The page served at `url` on a 390 px phone with 2x pixels (or on `device`), once `count`
    widgets have drawn (each has written its description)."""
    context = browser.new_context(**device)
    context.add_init_script(CANVAS_TEXT_JS)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "/index.html", wait_until="load")
    page.wait_for_function(f"() => [...document.querySelectorAll('.mlr-live [id^=mlr-desc]')]"
                           f".filter((p) => p.textContent).length === {count}", timeout=20_000)
    page.wait_for_timeout(300)  # a relayout at the widget's own width, if any
    return page, errors


def every_widget(data, classification, centred, polynomial_data, scale_problems, mix):
    """One widget of each kind, as the chapters build them."""
    x, y, z = classification
    return [
        live.quadratic_descent(data["x"], data["y"], xrange=(-3, 9), yrange=(-2, 12), alpha=0.15, steps=20),
        minibatch_widget(data, 0.1, 5, 1, (0.0, 0.0)),
        softmax_widget(classification, alpha=1.0, steps=100),
        live.quadratic_descent([data["x2"], data["s2"], data["p2"]], data["y2"], xrange=(-3, 3), yrange=(-3, 3),
                               bias=False, alpha=0.1, steps=15, start=(-2.5, 2.5),
                               blend_label="blend τ (0 = raw, 1 = standardized, 2 = sphered)",
                               stage_names=["raw", "standardized", "sphered"]),
        live.penalty_geometry(*centred, xrange=(-1, 3), yrange=(-1.5, 2.5), levels=np.linspace(0.3, 8, 16), lam=1.0),
        polynomial_widget(polynomial_data, 2),
        live.weight_scale(scale=5.0, **scale_problems),
        live.window_spectrogram(*mix, window=64),
    ]


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_canvases_are_sharp_and_no_text_is_under_9_px(browser, serve, tmp_path, data, classification, centred,
                                                        polynomial_data, scale_problems, mix, device):
    """On a 390 px phone with 2x pixels, every canvas's backing store is at least twice its CSS size,
    no text of any widget (ticks, titles, legends, colour bar, readouts, controls) is under 9 CSS px,
    and each plot spans the column (the cost plot of a descent widget under the contours, not a
    sliver beside them). In the book's desktop column (680 px) no text is under 9 px either."""
    widgets = every_widget(data, classification, centred, polynomial_data, scale_problems, mix)
    write_page(widgets, tmp_path, style=PHONE_STYLE if device == "phone" else DESKTOP_STYLE)
    page, errors = phone_page(browser, serve, len(widgets), PHONE if device == "phone" else DESKTOP)
    found = page.evaluate(WIDGET_TEXT_JS)
    soft, small, slivers = [], [], []
    density = 2 if device == "phone" else 1
    for widget in found:
        for c in widget["canvases"]:
            if c["backing"][0] < density * c["css"][0] - 1 or c["backing"][1] < density * c["css"][1] - 1:
                soft.append(f"{widget['title']}: {c['backing'][0]}x{c['backing'][1]} backing for "
                            f"{c['css'][0]:.0f}x{c['css'][1]:.0f} CSS px")
            if device == "phone" and (c["css"][1] > 1.2 * c["css"][0] or c["css"][0] < 0.9 * widget["width"]):
                slivers.append(f"{widget['title']}: a canvas {c['css'][0]:.0f}x{c['css'][1]:.0f} in {widget['width']:.0f} px")
        small += [f"{widget['title']}: {t['where']} {t['text']!r} at {t['size']:.1f} px"
                  for t in widget["texts"] if t["size"] < MIN_TEXT_PX - 0.05]
        assert len(widget["texts"]) > 5, widget
    print(f"{device}: smallest text per widget (CSS px):", [(w["title"], round(w["texts"][0]["size"], 1)) for w in found])
    problems = ((["canvases drawn below the screen's pixel density:"] + soft if soft else [])
                + ([f"widget text under {MIN_TEXT_PX} CSS px on the {device}:"] + small if small else [])
                + (["plots that do not span the phone's column:"] + slivers if slivers else []))
    assert not problems, "\n  ".join(problems)
    assert not errors, errors
    page.context.close()


def descriptions(page) -> list[str]:
    return page.eval_on_selector_all(".mlr-live [id^=mlr-desc]", "ps => ps.map((p) => p.textContent)")


def test_readouts_say_what_the_picture_shows(browser, serve, tmp_path, data, classification):
    """Mini-batch steps of one point make the cost rise now and then while it falls over the run:
    the readout says so, and does not blame α; a run of 0 steps is the start alone, not a cost that
    fell at every step; full-batch steps whose cost rises still say α is too large."""
    widgets = [minibatch_widget(data, 0.1, 5, 1, (0.0, 0.0)),
               minibatch_widget(data, 0.1, 0, 4, (0.0, 0.0)),
               live.quadratic_descent(data["x"], data["y"], xrange=(-3, 9), yrange=(-2, 12), alpha=0.1, steps=0),
               softmax_widget(classification, alpha=1.0, steps=0),
               live.quadratic_descent(data["x"], data["y"], xrange=(-3, 9), yrange=(-2, 12), alpha=0.81, steps=25)]
    write_page(widgets, tmp_path, style=PHONE_STYLE)
    page, errors = phone_page(browser, serve, len(widgets))
    texts = descriptions(page)
    cost = ml.least_squares(data["x"], data["y"])
    costs = np.array([cost(w) for w in minibatch_path(data, 0.1, 5, 1, (0.0, 0.0))])
    rises = int(np.sum(np.diff(costs) > 1e-12))
    assert rises > 0 and costs[-1] < costs[0], "the case no longer shows noisy mini-batch steps"
    assert "too large" not in texts[0] and f"rose at {rises} of {len(costs) - 1} steps" in texts[0], texts[0]
    assert f"from {costs[0]:.4g} to {costs[-1]:.4g}" in texts[0], texts[0]
    for text in texts[1:4]:
        assert "fell at every step" not in text and "no steps taken" in text, text
    full = [cost(w) for w in python_path(data["x"], data["y"], 0.81, 25, (0.0, 0.0))]
    assert np.any(np.diff(full) > 0) and "too large" in texts[4], texts[4]
    assert not errors, errors
    page.context.close()


def test_a_path_that_leaves_the_softmax_plot_ends_with_a_marker_and_contours_are_lines(
        browser, serve, tmp_path, classification):
    """Chapter 7's softmax widget: where the path leaves the frame for good, the page marks the point
    on the frame (as Python finds it) and writes where the path ends; its contour lines are vector
    segments on the level sets of the library's softmax cost."""
    alpha, steps, start, blend = 20.0, 100, (0.0, 0.0), 0.2
    write_page([softmax_widget(classification, alpha=alpha, steps=steps, start=start, blend=blend)], tmp_path,
               style=PHONE_STYLE)
    page, errors = phone_page(browser, serve, 1)
    path = softmax_path(classification, blend, alpha, steps, start)
    (x0, x1), (y0, y1) = (-8.0, 4.0), (-2.0, 8.0)
    inside = (path[:, 0] >= x0) & (path[:, 0] <= x1) & (path[:, 1] >= y0) & (path[:, 1] <= y1)
    assert inside[0] and not inside[-1], "the case no longer leaves the plot"
    i = np.flatnonzero(inside)[-1]
    a, d = path[i], path[i + 1] - path[i]
    t = min([(x1 - a[0]) / d[0] if d[0] > 0 else (x0 - a[0]) / d[0] if d[0] < 0 else 1,
             (y1 - a[1]) / d[1] if d[1] > 0 else (y0 - a[1]) / d[1] if d[1] < 0 else 1, 1])
    exit = json.loads(shown(page, "exit"))
    assert np.allclose(exit["at"], a + t * d, atol=1e-9) and np.allclose(exit["end"], path[-1], atol=1e-9), exit
    drawn = [r["text"] for r in page.evaluate("() => window.__canvasText(document.querySelector('.mlr-live canvas'))")]
    label = f"ends off the plot at ({path[-1][0]:.3g}, {path[-1][1]:.3g})"
    assert label in drawn, (label, drawn[-5:])
    assert "leaves the plot" in descriptions(page)[0]
    # The contour lines: segments whose ends lie on the level sets of ml.softmax.
    contours = page.evaluate("() => document.querySelector('.mlr-live').__liveContours")
    x, y, z = classification
    cost = ml.softmax((1 - blend) * x + blend * z, y)
    worst, lines = 0.0, 0
    for level, seg in zip(contours["levels"], contours["segments"]):
        ends = np.array(seg).reshape(-1, 2)
        if len(ends):
            lines += 1
            worst = max(worst, np.abs(np.log(cost.batch(ends) / level)).max())
    assert lines >= 10, f"only {lines} contour levels drawn as lines"
    assert worst < 0.02, f"a contour line strays from its level by {worst:.3g} in log cost"
    assert not errors, errors
    page.context.close()


def test_widget_labels_follow_the_notation(browser, serve, tmp_path, data, classification, centred,
                                            polynomial_data, scale_problems, mix):
    """t counts steps (not k or K), α is the learning rate, λ the penalty only, τ the blend."""
    widgets = every_widget(data, classification, centred, polynomial_data, scale_problems, mix)
    write_page(widgets, tmp_path, style=PHONE_STYLE)
    page, errors = phone_page(browser, serve, len(widgets))
    words = [t["text"] for w in page.evaluate(WIDGET_TEXT_JS) for t in w["texts"]]
    words += page.eval_on_selector_all(".mlr-live label", "ls => ls.map((l) => l.textContent)")
    bad = [w for w in words if re.search(r"(^|[^\w^])[kK]($|[^\w])|\^k|λ.*blend|blend.*λ", w)]
    assert not bad, f"labels against the notation: {bad}"
    assert any("step t" in w for w in words) and any("α" in w for w in words) and any("λ" in w for w in words)
    assert not errors, errors
    page.context.close()


# ------------------------------------------------ the degree chosen by k-fold cross-validation (chapter 5)
@pytest.fixture(scope="module")
def fold_data():
    rng = np.random.default_rng(21)
    x = rng.uniform(-1.4, 3.1, size=40)
    y = 38 - 8.5 * x + 2.0 * x**2 + rng.normal(scale=3.5, size=40)
    return x, y


def folds_widget(fold_data, k, seed):
    return live.degree_folds(*fold_data, max_degree=7, k=k, seed=seed, xlabel="input x", ylabel="output y")


def assert_degree_folds(page, fold_data, what, index=0):
    """The page's folds are shuffled_folds(P, k, seed); its fold scores, means, standard errors and
    both choices are grid_search's on them (least squares by np.linalg.lstsq, written here), and
    its fit of the chosen degree on all points is lstsq's, all to 1e-9. Returns (k, seed)."""
    x, y = fold_data
    shown = page.evaluate(f"""() => {{ const d = document.querySelectorAll('.mlr-live')[{index}].dataset;
        return [d.k, d.seed, d.folds, d.scores, d.means, d.errors, d.best, d.chosen, d.fit]; }}""")
    k, seed = int(shown[0]), int(shown[1])
    folds, scores, means, errors, fit = (np.array(json.loads(v)) for v in (shown[2], *shown[3:6], shown[8]))
    best, chosen = int(shown[6]), int(shown[7])
    expected_folds = live.shuffled_folds(len(x), k, seed)
    assert [np.flatnonzero(folds == i).tolist() for i in range(k)] == [v.tolist() for _, v in expected_folds], \
        f"{what}: the page's folds are not shuffled_folds({len(x)}, {k}, {seed})"
    t = x[:, None] / np.abs(x).max()
    powers = ml.polynomial_features(t, 7)

    def fit_for(d):
        return lambda a, b: np.linalg.lstsq(np.column_stack([np.ones(len(a)), a[:, :d]]), b, rcond=None)[0]

    def mse(w, a, b):
        return np.mean((w[0] + a[:, : len(w) - 1] @ w[1:] - b) ** 2)

    search = ml.grid_search(fit_for, mse, powers, y, range(1, 8), expected_folds)
    for name, got, want in (("fold scores", scores, np.array([r.scores for r in search.results])),
                            ("means", means, search.means), ("standard errors", errors, search.standard_errors)):
        assert got.shape == want.shape, f"{what}: {name} of shape {got.shape}, the library's {want.shape}"
        error = np.abs(got - want).max() / max(1.0, np.abs(want).max())
        assert error <= TOL, f"{what}: the page's {name} differ from grid_search's by {error:.3g}"
    assert (best, chosen) == (search.best_param, search.one_standard_error_param), what
    w = fit_for(chosen)(powers, y)
    want = w[0] + powers[:, :chosen] @ w[1:]
    assert np.abs(fit - want).max() / max(1.0, np.abs(want).max()) <= TOL, f"{what}: the chosen fit differs"
    return k, seed


def test_degree_folds_equal_grid_search_on_the_same_folds(browser, serve, tmp_path, fold_data):
    cases = [(2, 0), (5, 3), (10, 0), (10, 1), (40, 0)]
    write_page([folds_widget(fold_data, k, s) for k, s in cases], tmp_path)
    page, errors = open_page(browser, serve, len(cases), "data-scores")
    for index, case in enumerate(cases):
        assert assert_degree_folds(page, fold_data, f"k={case[0]}, seed={case[1]}", index) == case
    assert page.locator(".mlr-live img, .mlr-live canvas").count() == 0, "the plots are not SVG vectors"
    finish(page, errors)


def test_degree_folds_slider_button_keys_and_pointer(browser, serve, tmp_path, fold_data):
    write_page([folds_widget(fold_data, 10, 0)], tmp_path)
    page, errors = open_page(browser, serve, 1, "data-scores")
    slider = page.get_by_label("number of folds k")
    button = page.get_by_role("button", name="new folds: draw the folds again from the next seed")
    assert slider.count() == 1 and button.count() == 1
    redrawn(page, "k", lambda: slider.fill("4"))
    assert assert_degree_folds(page, fold_data, "after the slider") == (4, 0)
    redrawn(page, "seed", lambda: button.click())
    assert assert_degree_folds(page, fold_data, "after new folds") == (4, 1)
    button.focus()
    redrawn(page, "seed", lambda: page.keyboard.press("Enter"))
    redrawn(page, "seed", lambda: page.keyboard.press("Space"))
    assert assert_degree_folds(page, fold_data, "after Enter and Space") == (4, 3)
    slider.focus()
    redrawn(page, "k", lambda: page.keyboard.press("ArrowRight"))
    assert assert_degree_folds(page, fold_data, "after a key") == (5, 3)
    redrawn(page, "k", lambda: page.keyboard.press("End"))
    assert assert_degree_folds(page, fold_data, "leave-one-out") == (40, 3)
    assert "leave-one-out" in page.locator(".mlr-live [id^=mlr-desc]").inner_text()
    clicked(page, "k", slider, 0, dx=4)
    assert assert_degree_folds(page, fold_data, "after a click")[0] == 2
    finish(page, errors, timings="degree by k-fold cross-validation")


# ------------------------------------------------ boosting round by round (chapter 10)
@pytest.fixture(scope="module")
def boosted():
    rng = np.random.default_rng(8)
    x = rng.normal(size=(120, 7))
    y = 1.0 + 2.5 * x[:, 3] - 1.2 * x[:, 0] + 0.6 * x[:, 5] + rng.normal(size=120)
    names = ["age", "bmi", "bp", "s1", "s2", "s3", "s5"]
    path = ml.boost(x, y, rounds=7)

    def boosted_for(rounds):
        return lambda a, b: ml.boost(a, b, rounds=rounds).full_weights()

    def mse(w, a, b):
        return np.mean((w[0] + a @ w[1:] - b) ** 2)

    search = ml.grid_search(boosted_for, mse, x, y, range(8), ml.k_fold(120, 6, seed=2))
    return path, search, names


def assert_rounds(page, boosted, what, index=0):
    path, search, _ = boosted
    shown = page.evaluate(f"""() => {{ const d = document.querySelectorAll('.mlr-live')[{index}].dataset;
        return [d.rounds, d.weights, d.costs]; }}""")
    m, weights, costs = int(shown[0]), np.array(json.loads(shown[1])), np.array(json.loads(shown[2]))
    assert np.abs(weights - path.full_weights(m)).max() <= TOL, f"{what}: the weights differ from full_weights({m})"
    want = [path.costs[m], search.means[m], search.standard_errors[m]]
    assert np.abs(costs - want).max() / max(want) <= TOL, f"{what}: the costs differ"
    return m


def test_boosting_rounds_equal_the_library(browser, serve, tmp_path, boosted):
    path, search, names = boosted
    write_page([live.boosting_rounds(path, search, names, rounds=m) for m in (0, 1, 3, 7)], tmp_path)
    page, errors = open_page(browser, serve, 4, "data-weights")
    for index, m in enumerate((0, 1, 3, 7)):
        assert assert_rounds(page, boosted, f"round {m}", index) == m
    bars = page.evaluate("""() => [...document.querySelectorAll('.mlr-live')].map((e) =>
        [...e.querySelectorAll('svg rect[fill="#2c7bb6"], svg rect[fill="#d7191c"]')].filter((r) => Number(r.getAttribute('width')) > 0).length)""")
    assert bars == [0, 1, 3, 7], f"the weight bars shown per round: {bars}"
    finish(page, errors)


def test_boosting_rounds_slider_keys_and_pointer(browser, serve, tmp_path, boosted):
    path, search, names = boosted
    write_page([live.boosting_rounds(path, search, names, rounds=0)], tmp_path)
    page, errors = open_page(browser, serve, 1, "data-weights")
    slider = page.get_by_label("boosting rounds m")
    redrawn(page, "rounds", lambda: slider.fill("2"))
    assert assert_rounds(page, boosted, "after the slider") == 2
    text = page.locator(".mlr-live [id^=mlr-desc]").inner_text()
    assert f"Round 2 adds {names[path.order[1]]}" in text and f"{path.costs[2]:.4g}" in text, text
    slider.focus()
    redrawn(page, "rounds", lambda: page.keyboard.press("ArrowRight"))
    assert assert_rounds(page, boosted, "after a key") == 3
    clicked(page, "rounds", slider, 1, dx=-4)
    assert assert_rounds(page, boosted, "after a click") == 7
    finish(page, errors, timings="boosting rounds")


# ------------------------------------------------ both on a phone: touch, sharpness, text size
SMALLEST_TEXT_JS = """() => {
  const sizes = [];
  for (const node of document.querySelectorAll('.mlr-live *')) {
    if (!node.childNodes.length || ![...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())) continue;
    if (node.getClientRects().length === 0) continue;
    const px = parseFloat(getComputedStyle(node).fontSize);
    const svg = node.closest('svg');
    if (svg && node.namespaceURI === 'http://www.w3.org/2000/svg') {
      sizes.push([node.textContent, px * svg.getScreenCTM().a]);  // the viewBox's scale on the screen
    } else sizes.push([node.textContent, px]);
  }
  return sizes;
}"""


@pytest.mark.parametrize("which", ["folds", "boosting"])
def test_new_widgets_on_a_phone(browser, serve, tmp_path, fold_data, boosted, which):
    """390 px wide, 2x pixels, touch: a tap moves each control and the page stays exact; no text
    under 9 CSS px; vector plots (any canvas would need a backing store at the pixel density)."""
    widget = folds_widget(fold_data, 10, 0) if which == "folds" else live.boosting_rounds(*boosted, rounds=1)
    write_page([widget], tmp_path)
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(serve + "/index.html", wait_until="load")
    key = "scores" if which == "folds" else "weights"
    page.wait_for_function(f"() => document.querySelector('.mlr-live[data-{key}]') !== null", timeout=20_000)
    sizes = page.evaluate(SMALLEST_TEXT_JS)
    small = [(text, round(px, 2)) for text, px in sizes if px < 9]
    assert sizes and not small, f"text under 9 CSS px at 390 px: {small[:8]}"
    for canvas in page.eval_on_selector_all(".mlr-live canvas", "cs => cs.map(c => [c.width, c.getBoundingClientRect().width])"):
        assert canvas[0] >= 2 * canvas[1] - 1, f"a canvas is drawn below the pixel density: {canvas}"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width} px)"
    slider = page.locator(".mlr-live input[type=range]").first
    box = slider.bounding_box()
    trait = "k" if which == "folds" else "rounds"
    redrawn(page, trait, lambda: page.touchscreen.tap(box["x"] + box["width"] * 0.5, box["y"] + box["height"] / 2))
    if which == "folds":
        k, _ = assert_degree_folds(page, fold_data, "after a tap on the slider")
        assert 15 <= k <= 27, k
        button = page.get_by_role("button", name="new folds: draw the folds again from the next seed")
        redrawn(page, "seed", lambda: button.tap())
        assert assert_degree_folds(page, fold_data, "after a tap on new folds")[1] == 1
    else:
        assert assert_rounds(page, boosted, "after a tap") in (3, 4)
    assert not errors, errors
    context.close()


def test_new_widgets_show_a_picture_with_alt_text_without_javascript(fold_data, boosted):
    """The output of each carries its PNG, with the description as alt text (what
    _ext/live_fallback.py puts in a <noscript> of the built page)."""
    import base64
    import io

    from PIL import Image

    for widget in (folds_widget(fold_data, 5, 2), live.boosting_rounds(*boosted, rounds=3)):
        bundle, metadata = widget._repr_mimebundle_()
        image = Image.open(io.BytesIO(base64.b64decode(bundle["image/png"])))
        assert image.width >= 600 and metadata["image/png"]["alt"] == widget.description()
