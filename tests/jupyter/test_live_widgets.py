"""Every live widget works in a real kernel in JupyterLab 4 and Notebook 7.

The static book draws the widgets with its own loader; a student running the
notebooks gets them from anywidget's front end instead, talking to a kernel.
This test builds one widget of each of the fourteen kinds in a temporary notebook
(small data, the chapters' builders), opens it in the servers of
``conftest.py`` with Debian's Chromium, runs the cells, and checks, as a
student would use them:

* each widget draws (its controls and canvas or SVG) from the module that
  anywidget loaded, with no error in the browser's console;
* page to kernel: the Home key on a widget's first slider moves it to the
  lowest value, the widget redraws (its description changes), and the
  kernel's trait holds that value when a later cell prints it;
* dragging the start point of the gradient-descent plot with the pointer
  reaches the kernel too;
* kernel to page: setting each trait from Python moves the slider and
  redraws the widget.

A screenshot of each app is written to the test's temporary directory.
"""

from __future__ import annotations

import json
import math
import time
import urllib.request

import nbformat
import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

SETUP = """\
import json

import numpy as np

import mlrefined_lib as ml
from mlrefined_lib import datasets, widgets

rng = np.random.default_rng(3)
x = rng.uniform(0, 1, size=(50, 1)) * 7 + 2
y = 1.5 + 3.0 * x[:, 0] + rng.normal(size=50)
z = ml.standard_normalizer(x)[0](x)
live = {}"""

# name: (the cell that builds it, its first slider's trait, the value Home gives, a value set from Python)
WIDGETS = {
    "quadratic": ("""\
live["quadratic"] = widgets.quadratic_descent(
    [x, z], y, xrange=(-3, 9), yrange=(-2, 12), alpha=0.1, steps=20,
    alpha_range=(0.01, 1.0), stage_names=["raw", "standardized"])
live["quadratic"]""", "alpha", 0.01, 0.3),
    "softmax": ("""\
x1, y1 = datasets.load_one_input_classification()
z1 = ml.standard_normalizer(x1)[0](x1)
live["softmax"] = widgets.softmax_descent(
    [x1, z1], y1, xrange=(-8, 4), yrange=(-2, 8),
    levels=np.geomspace(0.005, 40.0, 20), alpha=1.0, steps=50)
live["softmax"]""", "alpha", 0.01, 3.0),
    "minibatch": ("""\
live["minibatch"] = widgets.minibatch_descent(
    x, y, xrange=(-3, 9), yrange=(-2, 12), levels=np.linspace(1, 50, 10),
    alpha=0.01, epochs=4, batch_size=7, seed=3, max_epochs=6)
live["minibatch"]""", "alpha", 0.001, 0.005),
    "weight_scale": ("""\
xs = rng.uniform(0, 5, size=(40, 1))
ys = (xs[:, 0] > 2.5).astype(float)
ys2 = (xs[:, 0] + rng.normal(size=40) > 2.5).astype(float)
u = np.array([-2.5, 1.0]) / np.hypot(2.5, 1.0)
live["weight_scale"] = widgets.weight_scale(
    (xs, ys, u, "x", "a", (0, 5)), (xs, ys2, u, "x", "b", (0, 5)),
    jitter=np.zeros(40), minimizer_norm=3.0, scale=7.0)
live["weight_scale"]""", "scale", 0.3, 20.0),
    "polynomial": ("""\
xp, xv = rng.uniform(-3, 3, size=(30, 1)), rng.uniform(-3, 3, size=(30, 1))
yp, yv = 0.5 * xp[:, 0] ** 2 + rng.normal(size=30), 0.5 * xv[:, 0] ** 2 + rng.normal(size=30)
fits = {}
for d in range(1, 9):
    design = np.column_stack([np.ones(30), ml.polynomial_features(xp / 3.0, d)])
    fits[d] = np.linalg.lstsq(design, yp, rcond=None)[0]
live["polynomial"] = widgets.polynomial_fits(
    fits, (xp, yp), (xv, yv), scale=3.0, true_curve=(xp[:, 0], yp), xlim=(-3, 3),
    ylim=(-2, 8), error_limits=(0.1, 1e4), noise_level=1.0, degree=4)
live["polynomial"]""", "degree", 1, 6),
    "spectrogram": ("""\
times = np.arange(4000) / 8000
tone = np.cos(2 * np.pi * 1000 * times) + 0.5 * np.cos(2 * np.pi * 1700 * times)
live["spectrogram"] = widgets.window_spectrogram(tone, 8000, window=256)
live["spectrogram"]""", "window", 32, 512),
    "penalty": ("""\
c = rng.normal(size=(60, 2)) @ np.array([[1.0, 0.0], [0.6, 0.8]])
c = c - c.mean(axis=0)
yc = c @ np.array([2.0, 0.6]) + 0.5 * rng.normal(size=60)
live["penalty"] = widgets.penalty_geometry(
    c, yc - yc.mean(), xrange=(-1, 3), yrange=(-1.5, 2.5),
    levels=np.linspace(0.3, 8, 16), lam=1.0)
live["penalty"]""", "lam", 0.0, 0.5),
    "degree_folds": ("""\
live["degree_folds"] = widgets.degree_folds(x, y, max_degree=4, k=5, seed=0)
live["degree_folds"]""", "k", 2, 8),
    "boosting": ("""\
xb = rng.normal(size=(60, 4))
yb = 1.0 + 2.0 * xb[:, 2] - xb[:, 0] + rng.normal(size=60)
fit_rounds = lambda m: (lambda a, b: ml.boost(a, b, rounds=m).full_weights())
mse = lambda w, a, b: float(np.mean((w[0] + a @ w[1:] - b) ** 2))
search = ml.grid_search(fit_rounds, mse, xb, yb, range(5), ml.k_fold(60, 5, seed=0))
live["boosting"] = widgets.boosting_rounds(ml.boost(xb, yb, rounds=4), search, ["a", "b", "c", "d"], rounds=2)
live["boosting"]""", "rounds", 0, 3),
    "category_codes": ("""\
groups = rng.choice(["O", "A", "B", "AB"], size=60)
live["category_codes"] = widgets.category_codes(
    groups, rng.normal(size=60), levels=["O", "A", "B", "AB"], codes=(1, 0, 2, 3))
live["category_codes"]""", "first_code", 0.0, 2.5),
    "threshold": ("""\
yt = rng.random(80) < 0.3
live["threshold"] = widgets.threshold_curve(
    np.clip(0.3 * yt + rng.uniform(0, 0.7, size=80), 0, 1), yt, threshold=0.5)
live["threshold"]""", "threshold", 0.0, 0.4),
    "missing_values": ("""\
wm = rng.uniform(1600, 5000, size=120)
live["missing_values"] = widgets.missing_values(0.03 * wm + rng.normal(scale=10, size=120), wm, percent=30)
live["missing_values"]""", "percent", 5, 50),
    "text_features": ("""\
live["text_features"] = widgets.text_features(
    ["bad", "dog", "good", "not"], [0.1, -2.0, 0.5, 1.5, -1.0], [2.0, 1.5, 1.2, 1.1],
    ["a good dog", "not bad"], text="A good dog, not a bad one")
live["text_features"]""", "text", "a bad dog", "not good"),
    "edge_histograms": ("""\
rr, cc = np.mgrid[0:28, 0:28]
live["edge_histograms"] = widgets.edge_histograms(
    [("disc", (np.hypot(rr - 13.5, cc - 13.5) < 9).astype(float)), ("noise", rng.random((28, 28)))],
    patch=7, block=2)
live["edge_histograms"]""", "patch", 2, 4),
}
TRAITS = {name: trait for name, (_, trait, _, _) in WIDGETS.items()}
PRINT = f"print(json.dumps({{k: getattr(w, {TRAITS!r}[k]) for k, w in live.items()}}))"
SET = "\n".join(f"live[{name!r}].{trait} = {value!r}" for name, (_, trait, _, value) in WIDGETS.items())
START = 'print(json.dumps(live["quadratic"].start))'
# Each widget's first control: a slider, or the text box of the text-features widget (typed into,
# key by key, instead of pressing Home: no key may reach the notebook).
CONTROL = "input[type=range], input[type=text]"
NAME = "live_widgets.ipynb"
# Errors that are not the widgets': the servers have no network.
FOREIGN = ("net::ERR", "Failed to load resource")


def notebook() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    sources = [SETUP, *(cell for cell, _, _, _ in WIDGETS.values()), PRINT, START, SET]
    nb.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    return nb


def close(a, b) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def run_cell(page, index: int) -> list[str]:
    """Run code cell ``index`` (Shift+Enter in its editor) and return its outputs' texts."""
    cell = page.locator(".jp-CodeCell").nth(index)
    before = cell.locator(".jp-InputPrompt").inner_text()
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    # The prompt shows a new execution count once the kernel has answered.
    try:
        page.wait_for_function(
            """([i, before]) => {
                const text = document.querySelectorAll('.jp-CodeCell')[i].querySelector('.jp-InputPrompt').textContent;
                return text !== before && /\\[\\d+\\]/.test(text);
            }""",
            arg=[index, before], timeout=60_000,
        )
    except playwright_api.TimeoutError:
        prompt = cell.locator(".jp-InputPrompt").inner_text()
        pytest.fail(f"cell {index} did not run within 60 s (its prompt reads {prompt!r})")
    return cell.locator(".jp-OutputArea-output").all_inner_texts()


def wait_for_kernel(base: str, timeout: float = 60) -> None:
    """Wait until the notebook's kernel is idle, as the server reports it, then a moment for the page to connect."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with urllib.request.urlopen(base + "api/sessions", timeout=5) as response:
            sessions = json.load(response)
        if any(s["path"].endswith(NAME) and s["kernel"]["execution_state"] == "idle" for s in sessions):
            time.sleep(1.0)
            return
        time.sleep(0.3)
    pytest.fail(f"no idle kernel for {NAME} within {timeout} s: {sessions}")


def descriptions(page) -> list[str]:
    return page.locator(".mlr-live .mlr-description").all_inner_texts()


def wait_for_redraw(page, before: list[str], what: str) -> None:
    """Wait until every widget's description differs from ``before`` (each redraws on its next frame)."""
    try:
        page.wait_for_function(
            """(before) => {
                const now = [...document.querySelectorAll('.mlr-live .mlr-description')].map(e => e.innerText);
                return now.length === before.length && now.every((t, i) => t !== before[i]);
            }""",
            arg=before, timeout=30_000,
        )
    except playwright_api.TimeoutError:
        same = [name for name, a, b in zip(WIDGETS, before, descriptions(page)) if a == b]
        pytest.fail(f"{what}: no redraw in {same}")


@pytest.mark.parametrize("app", ["JupyterLab", "Notebook 7"])
def test_every_widget_talks_to_the_kernel(jupyter_servers, browser, app):
    nbformat.write(notebook(), jupyter_servers.root / NAME)
    page = browser.new_page(viewport={"width": 1300, "height": 1000})
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(jupyter_servers.notebook_url(app, NAME, workspace="live"))
        page.locator(".jp-CodeCell").first.wait_for(timeout=60_000)
        wait_for_kernel(jupyter_servers.bases[app])
        # What the app logs while it loads is its own (Notebook 7's core throws a TypeError
        # reading a settings schema): no widget exists before the cells run.
        errors.clear()
        count = len(WIDGETS)
        for index in range(1 + count):
            run_cell(page, index)
        try:
            page.wait_for_function(f"document.querySelectorAll('.mlr-live').length === {count}", timeout=60_000)
        except playwright_api.TimeoutError:
            page.screenshot(path=str(jupyter_servers.tmp / f"{app}-live-failed.png"))
            pytest.fail(f"{app}: {page.locator('.mlr-live').count()} of {count} widgets drew; console: {errors}")
        roots = page.locator(".mlr-live")
        for i, name in enumerate(WIDGETS):
            root = roots.nth(i)
            assert root.locator(CONTROL).count() >= 1, f"{app}: {name} has no slider"
            assert root.locator("canvas, svg").count() >= 1, f"{app}: {name} drew no plot"
        drawn = descriptions(page)
        assert len(drawn) == count and all(drawn), f"{app}: descriptions {drawn}"

        # Page to kernel: the Home key on each first slider, then the kernel prints the traits.
        for i, (name, (_, _, lowest, _)) in enumerate(WIDGETS.items()):
            control = roots.nth(i).locator(CONTROL).first
            if isinstance(lowest, str):  # a text box: clear it, then type key by key
                control.fill("")
                control.press_sequentially(lowest)
            else:
                control.press("Home")
        wait_for_redraw(page, drawn, f"{app}: after Home")
        printed = json.loads(run_cell(page, 1 + count)[-1])
        for name, (_, trait, lowest, _) in WIDGETS.items():
            assert printed[name] == lowest if isinstance(lowest, str) else close(printed[name], lowest), f"{app}: the kernel has {name}.{trait} = {printed[name]}, the page {lowest}"

        # The start point, dragged on the gradient-descent plot, reaches the kernel.
        canvas = roots.nth(0).locator("canvas").first
        canvas.scroll_into_view_if_needed()
        box = canvas.bounding_box()
        page.mouse.move(box["x"] + box["width"] * 0.4, box["y"] + box["height"] * 0.5)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.3, steps=5)
        page.mouse.up()
        start = json.loads(run_cell(page, 2 + count)[-1])
        assert start != [0.0, 0.0] and all(math.isfinite(v) for v in start), f"{app}: start {start}"

        # Kernel to page: set every trait from Python; every widget redraws and its slider moves.
        sliders = [roots.nth(i).locator(CONTROL).first.input_value() for i in range(count)]
        before = descriptions(page)
        run_cell(page, 3 + count)
        wait_for_redraw(page, before, f"{app}: after setting the traits from Python")
        after = [roots.nth(i).locator(CONTROL).first.input_value() for i in range(count)]
        still = [name for name, a, b in zip(WIDGETS, sliders, after) if a == b]
        assert not still, f"{app}: the slider did not follow the kernel in {still}"
        page.screenshot(path=str(jupyter_servers.tmp / f"{app}-live.png"), full_page=True)
        ours = [e for e in errors if not any(f in e for f in FOREIGN)]
        assert not ours, f"{app}: console errors {ours}"
    finally:
        page.close()
