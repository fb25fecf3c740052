"""The continuous descent widget (mlrefined_lib.live) in a static page, in Chromium.

The test writes a small page into tmp_path the way the book embeds widgets
(require.js, the book's require config, assets/live-widgets.js and the vendored
html-manager, with the widget state in the page), serves it on a loopback port,
and checks that the path each widget draws equals
:func:`mlrefined_lib.gradient_descent` to 1e-9 on every step for several learning
rates, blends and starting points, also after the reader moves the controls; that
the page runs the vendored front end, not the code stored in the widget state; and
that the controls are named and keep their keys from the page. It needs
`python tools/vendor_assets.py` to have filled assets/vendor (the book build does).
"""

from __future__ import annotations

import json
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
NEEDED = ["vendor/require.js", "vendor/html-manager/embed-amd.js", "vendor/anywidget/index.js",
          "vendor/mlrefined/quadratic_descent.js", "vendor/mlrefined/needs_kernel.js"]


def write_page(widgets, directory: Path, *, tamper_esm: str | None = None) -> Path:
    """An HTML page embedding `widgets` as the book does; `tamper_esm` replaces the stored `_esm`."""
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
<script defer src="_static/vendor/require.js"></script>
<script defer src="_static/widgets-require-config.js"></script>
<script defer src="_static/live-widgets.js"></script>
<script defer src="_static/vendor/html-manager/embed-amd.js"></script>
<script type="application/vnd.jupyter.widget-state+json">{json.dumps(state)}</script>
</head><body>{views}</body></html>""")
    return page


@pytest.fixture
def serve(tmp_path):
    """Serve tmp_path on a free loopback port; yields the base URL."""
    with bookfiles.serve(tmp_path) as url:
        yield url


def open_page(browser, url: str, count: int):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(url) else (errors.append(r.request.url), r.abort())[1])
    page.goto(url + "/index.html", wait_until="load")
    page.wait_for_function(f"() => document.querySelectorAll('.mlr-live[data-path]').length === {count}", timeout=20_000)
    return page, errors


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
        assert_same(drawn, expected, f"alpha={alpha}, lambda={blend}, start={start}")
    blended = 0.5 * data["s2"] + 0.5 * data["p2"]
    assert_same(paths[-1], python_path(blended, data["y2"], 0.1, 15, (-2.5, 2.5), bias=False),
                "raw -> standardized -> sphered at s = 1.5")
    assert not errors, errors
    page.close()


def test_controls_redraw_the_path_and_it_stays_exact(browser, serve, tmp_path, data):
    x, y, z = data["x"], data["y"], data["z"]
    widget = live.quadratic_descent([x, z], y, xrange=(-3, 9), yrange=(-2, 12), alpha=0.1, steps=20,
                                    blend_label="lambda (0 = raw, 1 = standardized)")
    write_page([widget], tmp_path)
    page, errors = open_page(browser, serve, 1)
    set_range = """([label, value]) => {
      const input = [...document.querySelectorAll('.mlr-live input')].find(
        (i) => document.querySelector(`label[for="${i.id}"]`).textContent.startsWith(label));
      input.value = value; input.dispatchEvent(new Event('input', {bubbles: true}));
      input.dispatchEvent(new Event('change', {bubbles: true}));
    }"""
    wait = "(old) => document.querySelector('.mlr-live').dataset.path !== old"
    for label, value, steps in [("learning rate", np.log10(0.3), 20), ("steps", 60, 60), ("lambda", 0.7, 60)]:
        old = page.eval_on_selector(".mlr-live", "e => e.dataset.path")
        page.evaluate(set_range, [label, float(value)])
        page.wait_for_function(wait, arg=old)
        drawn = drawn_paths(page)[0]
        # The range controls round to their step: use the exact values the widget reports.
        alpha = float(page.eval_on_selector(".mlr-live", "e => e.dataset.alpha"))
        blend = float(page.eval_on_selector(".mlr-live", "e => e.dataset.blend"))
        assert abs(alpha - 0.3) < 0.01 and (label != "lambda" or blend == 0.7)
        expected = python_path((1 - blend) * x + blend * z, y, alpha, steps, (0.0, 0.0))
        assert_same(drawn, expected, f"after moving {label}")
    # Keyboard: the focused plot moves the start; keys do not reach the page's own listeners.
    page.evaluate("window.__keysSeen = 0; document.addEventListener('keydown', () => window.__keysSeen++)")
    canvas = page.locator(".mlr-live canvas[role=img]").first
    canvas.focus()
    for key in ["ArrowRight", "ArrowRight", "ArrowUp"]:
        page.keyboard.press(key)
    # Wait for the last key's redraw (ArrowUp), not just the first one's.
    page.wait_for_function("() => JSON.parse(document.querySelector('.mlr-live').dataset.path)[0][1] > 0.1")
    drawn = drawn_paths(page)[0]
    assert np.allclose(drawn[0], [0.24, 0.14]), drawn[0]
    assert_same(drawn, python_path(0.3 * x + 0.7 * z, y, alpha, 60, drawn[0]), "after the arrow keys")
    assert page.evaluate("window.__keysSeen") == 0, "arrow keys leaked to the page (JupyterLab would take them)"
    # A click on the plot sets the start there.
    box = canvas.bounding_box()
    old = page.eval_on_selector(".mlr-live", "e => e.dataset.path")
    page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
    page.wait_for_function(wait, arg=old)
    drawn = drawn_paths(page)[0]
    assert_same(drawn, python_path(0.3 * x + 0.7 * z, y, alpha, 60, drawn[0]), "after a click")
    assert not errors, errors
    page.close()


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
    assert not errors, errors
    page.close()


def test_the_page_never_runs_the_code_stored_in_the_widget_state(browser, serve, tmp_path, data):
    widget = live.quadratic_descent(data["x"], data["y"], xrange=(-3, 9), yrange=(-2, 12))
    write_page([widget], tmp_path, tamper_esm="window.__ranStoredCode = true; export default {render() {}};")
    page, errors = open_page(browser, serve, 1)
    assert page.evaluate("window.__ranStoredCode === undefined")
    assert_same(drawn_paths(page)[0], python_path(data["x"], data["y"], 0.1, 20, (0.0, 0.0)), "vendored front end")
    assert not errors, errors
    page.close()


def test_the_vendored_front_ends_equal_the_installed_packages():
    import anywidget

    copies = {
        ASSETS / "vendor/anywidget/index.js": Path(anywidget.__file__).parent / "nbextension/index.js",
        ASSETS / "vendor/mlrefined/quadratic_descent.js": live.ESM_PATH,
    }
    for vendored, source in copies.items():
        if not vendored.is_file():
            pytest.fail(f"{vendored.relative_to(ROOT)} is missing: run `python tools/vendor_assets.py`.")
        assert vendored.read_bytes() == source.read_bytes(), f"{vendored} differs from {source}: rerun vendor_assets"
    built = ROOT / "_build/html/_static/vendor/anywidget/index.js"
    if built.is_file():
        assert built.read_bytes() == copies[ASSETS / "vendor/anywidget/index.js"].read_bytes()


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
