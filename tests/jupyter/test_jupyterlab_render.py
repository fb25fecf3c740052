"""Exercises render in live Jupyter: JupyterLab 4 and Notebook 7 with jupyterlab-myst.

Opens a temporary copy of chapter 7 in a real ``jupyter lab`` and a real
``jupyter notebook`` server (``conftest.py``) with Debian's Chromium driven by
Playwright. For the chapter's first exercise it checks the
rendered page, as a student would see it:

* the exercise has a title ("Exercise 1 (Circles for one input, ...)") and no
  raw MyST (``:label:``, ``:class: dropdown``, a ``{exercise}`` fence) is shown
  anywhere in the notebook's rendered Markdown;
* its math is typeset (KaTeX output; no ``$...$`` left in the text);
* its worked answer is a collapsed dropdown that opens on a click.

A screenshot of each is written to the test's temporary directory.
"""

from __future__ import annotations

from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
APPS = ["JupyterLab", "Notebook 7"]  # the servers of conftest.py

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "chapters" / "07_standard_normalization" / "standard_normalization.ipynb"
EXERCISE = "ex-ch7-circles"
TITLE = "Ellipses for two standardized features"
SOLUTION_TEXT = "which standardization does not touch"  # a phrase from its worked answer
RAW_MYST = (":label:", ":class: dropdown", "{exercise}", "{solution}", "{solution-start}")


@pytest.fixture(scope="module")
def pages(jupyter_servers, browser):
    """The chapter opened in both apps at once (they render in parallel), as {name: page}."""
    name = jupyter_servers.copy(NOTEBOOK)
    opened = {}
    for app in APPS:
        page = browser.new_page(viewport={"width": 1300, "height": 1000})
        page.goto(jupyter_servers.notebook_url(app, name), wait_until="commit")  # both load at once
        opened[app] = page
    yield opened, jupyter_servers.tmp
    for page in opened.values():
        page.close()


@pytest.mark.parametrize("app", list(APPS))
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
