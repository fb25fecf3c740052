"""Exercises render in live Jupyter: JupyterLab 4 and Notebook 7 with jupyterlab-myst.

Starts a real ``jupyter lab`` and a real ``jupyter notebook`` server (each on a
free port, serving a temporary copy of chapter 7, with autosave off so that
nothing is written back) and opens the notebook in both with Debian's
Chromium driven by Playwright. For the chapter's first exercise it checks the
rendered page, as a student would see it:

* the exercise has a title ("Exercise 1 (Circles for one input, ...)") and no
  raw MyST (``:label:``, ``:class: dropdown``, a ``{exercise}`` fence) is shown
  anywhere in the notebook's rendered Markdown;
* its math is typeset (KaTeX output; no ``$...$`` left in the text);
* its worked answer is a collapsed dropdown that opens on a click.

A screenshot of each is written to the test's temporary directory.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "chapters" / "07_standard_normalization" / "standard_normalization.ipynb"
EXERCISE = "ex-ch7-circles"
TITLE = "Circles for one input, ellipses for two"
SOLUTION_TEXT = "correlation matrix"  # a phrase from its worked answer
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
JUPYTER = Path(sys.executable).with_name("jupyter")
# JupyterLab settings for the test servers: every cell in the DOM (no windowing,
# so that the exercise near the end is rendered), and never save the notebook.
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": '{"windowingMode": "none"}',
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": '{"autosave": false}',
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": '{"fetchNews": "false"}',
}
RAW_MYST = (":label:", ":class: dropdown", "{exercise}", "{solution}", "{solution-start}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_up(url: str, process: subprocess.Popen, log: Path, timeout: float = 45) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server stopped (exit {process.returncode}):\n{log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url + "api/status", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    pytest.fail(f"the server at {url} did not answer within {timeout} s:\n{log.read_text()[-2000:]}")


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """{"JupyterLab": url of the notebook, "Notebook 7": url of the notebook}."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is not installed (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(f"!!! JUPYTERLAB RENDERING TEST NOT RUN: {message} !!!")
    tmp = tmp_path_factory.mktemp("jupyter")
    root = tmp / "root"
    root.mkdir()
    shutil.copy(NOTEBOOK, root / NOTEBOOK.name)
    settings = tmp / "settings"
    for name, text in SETTINGS.items():
        (settings / name).parent.mkdir(parents=True, exist_ok=True)
        (settings / name).write_text(text)
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(settings), JUPYTER_CONFIG_DIR=str(tmp / "config"),
               JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"))
    started, urls = [], {}
    try:
        for name, app, path in [("JupyterLab", "lab", "lab/tree/"), ("Notebook 7", "notebook", "notebooks/")]:
            port = free_port()
            log = tmp / f"{app}.log"
            command = [str(JUPYTER), app, "--no-browser", f"--port={port}", "--ServerApp.port_retries=0",
                       "--ServerApp.token=", "--ServerApp.password=", f"--ServerApp.root_dir={root}",
                       "--ServerApp.open_browser=False"]
            if hasattr(os, "geteuid") and os.geteuid() == 0:
                command.append("--allow-root")
            with open(log, "w") as handle:
                process = subprocess.Popen(command, env=env, stdout=handle, stderr=subprocess.STDOUT)
            started.append(process)
            base = f"http://127.0.0.1:{port}/"
            urls[name] = (base, base + path + NOTEBOOK.name, process, log)
        for base, _, process, log in urls.values():
            wait_until_up(base, process, log)
        yield {name: value[1] for name, value in urls.items()}, tmp
    finally:
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture(scope="module")
def pages(servers):
    """Both notebooks opened at once (they render in parallel), as {name: page}."""
    urls, tmp = servers
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        opened = {}
        for name, url in urls.items():
            page = browser.new_page(viewport={"width": 1300, "height": 1000})
            page.goto(url, wait_until="commit")  # both pages load at the same time
            opened[name] = page
        yield opened, tmp
        browser.close()


@pytest.mark.parametrize("app", ["JupyterLab", "Notebook 7"])
def test_exercise_renders_with_title_math_and_collapsed_answer(pages, app):
    opened, tmp = pages
    page = opened[app]
    exercise = page.locator(f"aside#{EXERCISE}")
    try:
        exercise.wait_for(state="visible", timeout=45_000)
    except playwright_api.TimeoutError:
        page.screenshot(path=str(tmp / f"{app}-failed.png"))
        cells = page.locator(".jp-MarkdownCell").filter(has_text=f":label: {EXERCISE}")
        shown = cells.first.inner_text()[:400] if cells.count() else "(no such cell)"
        pytest.fail(f"{app}: exercise {EXERCISE} was not rendered as an exercise; the cell shows:\n{shown}")
    exercise.evaluate("e => e.scrollIntoView({block: 'start'})")

    # a title: the number and the title of the exercise
    title = exercise.locator(".myst-exercise-title").inner_text()
    assert title.startswith("Exercise") and TITLE in title, f"{app}: title {title!r}"

    # typeset math, and no TeX source left in the text
    assert exercise.locator(".katex, mjx-container").count() >= 2, f"{app}: no typeset math in the exercise"
    body = exercise.inner_text()
    assert "$" not in body and "\\ge" not in body, f"{app}: math shown as source: {body!r}"

    # no raw MyST anywhere in the rendered Markdown of the notebook
    markdown = page.locator(".jp-MarkdownCell .jp-RenderedMarkdown, .jp-MarkdownCell .myst")
    text = "\n".join(markdown.all_inner_texts())
    assert len(text) > 10_000, f"{app}: only {len(text)} characters of rendered Markdown"
    raw = [token for token in RAW_MYST if token in text]
    assert not raw, f"{app}: raw MyST shown: {raw}"

    # the worked answer, in the next cell, is a collapsed dropdown
    cell_class = "contains(concat(' ', normalize-space(@class), ' '), ' jp-Cell ')"
    cell = exercise.locator(f"xpath=ancestor::div[{cell_class}][1]")
    solution = cell.locator(f"xpath=following-sibling::div[{cell_class}][1]").locator("details")
    assert solution.count() == 1, f"{app}: the cell after the exercise holds no dropdown"
    assert "Solution to" in solution.locator("summary").inner_text()
    assert solution.get_attribute("open") is None, f"{app}: the worked answer is open"
    answer = solution.get_by_text(SOLUTION_TEXT).first
    assert not answer.is_visible(), f"{app}: the worked answer is visible before a click"
    page.screenshot(path=str(tmp / f"{app}.png"))
    solution.locator("summary").click()
    answer.wait_for(state="visible", timeout=5_000)
