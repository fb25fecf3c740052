"""Test layer 5: the built book in a real browser, offline.

Debian's chromium (/usr/bin/chromium) driven by Playwright's Python package; never
`playwright install`. The book is served from _build/html on a loopback port and
every request to any other host is aborted and recorded. Every chapter page of
_toc.yml is opened once (a module-scoped fixture parametrized by page; pytest runs
each page's tests together, in file order): math typeset; then every continuous
widget (mlrefined_lib.live) draws and each of its controls, moved with the keyboard,
redraws it (tests/book/test_live_widget.py checks what they compute); last, no
JavaScript errors and nothing requested from another machine.

Screenshots go to _build/screenshots/ (not committed).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

TIMEOUT_MS = 20_000
FRAME_TIMEOUT_S = 5.0  # key press to a redrawn widget takes a few ms; allow a slow machine

# Problems of the built book that are not this test's to fix, each matched by a
# regular expression on a page error or on the URL of a failed (HTTP >= 400)
# request. The other tests tolerate exactly these; delete an entry as soon as
# its problem is fixed.
KNOWN_ISSUES: dict[str, tuple[str, str, str]] = {
    # name: ("pageerror" | "http", regex, why it is harmless). Empty: the book has none.
}
# Console errors that say nothing about the book's content or widgets.
IRRELEVANT_CONSOLE_ERRORS = [
    # Reported as failed requests (with their URL) instead.
    r"^Failed to load resource: the server responded with a status of",
]

# JavaScript run in the page ------------------------------------------------------------
VIEW_SCRIPTS = 'script[type="application/vnd.jupyter.widget-view+json"]'
# True once every widget view is drawn: assets/widget-loader.js puts a div.mlr-widget right
# after each view's <script>, renders the widget in it and then marks it mlr-drawn.
VIEWS_RENDERED_JS = """() => [...document.querySelectorAll('%s')].every((s) => {
  const host = s.nextElementSibling;
  return host && host.matches(".mlr-widget.mlr-drawn") && host.firstElementChild !== null;
})""" % VIEW_SCRIPTS
# The views that were not drawn, by position and model id.
UNDRAWN_JS = """() => [...document.querySelectorAll('%s')].flatMap((s, i) => {
  const host = s.nextElementSibling;
  return host && host.matches(".mlr-widget.mlr-drawn") ? []
    : [`widget view ${i + 1} (${JSON.parse(s.textContent).model_id}) was not drawn`];
})""" % VIEW_SCRIPTS
PROSE_TEXT_JS = """() => {
  const article = document.querySelector("article.bd-article") || document.querySelector("main") || document.body;
  const clone = article.cloneNode(true);
  clone.querySelectorAll("pre, code, script, style, mjx-container, .cell_input, .mlr-widget")
    .forEach((e) => e.remove());
  return clone.textContent;
}"""
RAW_TEX = re.compile(r"\$\$|\\\(|\\\)|\\\[|\\\]|\\begin\{|\\frac|\$[^$\n]*\\[A-Za-z]+[^$\n]*\$")


# Browser, pages ---------------------------------------------------------------------
@dataclass
class Visit:
    """One page opened in its own browser context, with what happened while it was open."""

    url: str
    page: object = None
    context: object = None
    page_errors: list = field(default_factory=list)
    console_errors: list = field(default_factory=list)
    failed: list = field(default_factory=list)  # "404 http://127.0.0.1:.../x.woff"
    aborted: list = field(default_factory=list)  # requests to other machines, all blocked
    websockets: list = field(default_factory=list)
    path: str = ""
    setup_error: str = ""  # what the page fixture waited for in vain
    dom_problems: list = field(default_factory=list)  # widget views that were not drawn

    def problems(self) -> list[str]:
        return ([f"page error: {e}" for e in self.page_errors]
                + [f"console error: {e}" for e in self.console_errors]
                + [f"failed request: {e}" for e in self.failed])


def known_issue(problem: str) -> str | None:
    for name, (kind, pattern, _why) in KNOWN_ISSUES.items():
        prefix = {"pageerror": "page error: ", "http": "failed request: "}[kind]
        if problem.startswith(prefix) and re.search(pattern, problem[len(prefix):]):
            return name
    return None


def open_page(browser, base: str, path: str) -> Visit:
    visit = Visit(url=f"{base}/{path}")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    context.set_default_timeout(TIMEOUT_MS)

    def route(route):
        url = route.request.url
        if url.startswith(base + "/"):
            route.continue_()
        else:
            visit.aborted.append(url)
            route.abort()

    context.route("**/*", route)
    page = context.new_page()
    def on_console(msg):
        if msg.type == "error" and not any(re.search(p, msg.text) for p in IRRELEVANT_CONSOLE_ERRORS):
            visit.console_errors.append(msg.text)

    def on_response(response):
        if response.status >= 400:
            visit.failed.append(f"{response.status} {response.url}")

    page.on("pageerror", lambda error: visit.page_errors.append(str(error)))
    page.on("console", on_console)
    page.on("response", on_response)
    page.on("websocket", lambda ws: visit.websockets.append(ws.url))
    visit.page, visit.context = page, context
    page.goto(visit.url, wait_until="load")
    return visit


def wait_for_math(page) -> None:
    page.wait_for_selector("mjx-container", state="attached")
    page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise"
                           " && MathJax.startup.promise.then(() => true)")


@pytest.fixture(scope="module")
def chapter(request, browser, book_server, book):
    """One chapter page (the parameter), loaded once: math typeset and widgets drawn
    where the page has them."""
    path = request.param
    if not (book.build / path).is_file():
        pytest.fail(f"{path} is listed in _toc.yml but not built: run `make strict-book`.")
    visit = open_page(browser, book_server, path)
    visit.path = path
    page = visit.page
    try:
        if page.locator(".math").count():
            wait_for_math(page)
        if book.widget_views(path):
            page.wait_for_function(VIEWS_RENDERED_JS)
            visit.dom_problems = page.evaluate(UNDRAWN_JS)
    except Exception as exc:  # the tests below say what is missing; keep the page for them
        visit.setup_error = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
    yield visit
    visit.context.close()


# Tests, per chapter page, in order ---------------------------------------------------------
def test_math_is_typeset(chapter):
    page = chapter.page
    counts = page.evaluate("""() => ({
        math: document.querySelectorAll(".math").length,
        raw: [...document.querySelectorAll(".math")].filter((e) => !e.querySelector("mjx-container"))
               .map((e) => e.textContent.slice(0, 80)),
        containers: document.querySelectorAll("mjx-container").length,
        errors: [...document.querySelectorAll("mjx-merror")].map((e) => e.textContent.slice(0, 80)),
    })""")
    assert counts["containers"] >= counts["math"], counts
    assert not counts["raw"], f"math elements MathJax did not typeset: {counts['raw'][:5]}"
    assert not counts["errors"], f"TeX errors on the page: {counts['errors']}"
    prose = page.evaluate(PROSE_TEXT_JS)
    raw = [prose[max(m.start() - 40, 0): m.end() + 40].replace("\n", " ") for m in RAW_TEX.finditer(prose)]
    assert not raw, f"raw TeX visible in the text: {raw[:5]}"


def test_live_widgets_draw_and_every_control_redraws(chapter, book):
    """Every continuous widget of the page (mlrefined_lib.live, computed in the page) draws, and
    each of its range controls, moved with the keyboard (End, else Home), makes it draw anew:
    the widget's data attributes (its path, minimizers, degree, ...) change."""
    state = (book.widget_state(chapter.path) or {}).get("state", {})
    views = [v for v in book.widget_views(chapter.path)
             if str(state.get(v, {}).get("state", {}).get("_anywidget_id", "")).startswith("mlrefined_lib.live.")]
    if not views:
        return
    page = chapter.page
    assert not chapter.setup_error, f"the page's widgets did not render: {chapter.setup_error}"
    page.wait_for_function(f"() => document.querySelectorAll('.mlr-live').length === {len(views)}")
    page.wait_for_function("() => [...document.querySelectorAll('.mlr-live')].every((e) => Object.keys(e.dataset).length)")
    controls = page.locator(".mlr-live input[type=range]")
    snapshot = "(e) => JSON.stringify(e.closest('.mlr-live').dataset)"
    changed = "([e, old]) => JSON.stringify(e.closest('.mlr-live').dataset) !== old"
    stuck = []
    for i in range(controls.count()):
        control = controls.nth(i)
        control.scroll_into_view_if_needed()
        label = control.evaluate("(e) => e.labels[0].textContent")
        control.focus()
        for key in ("End", "Home"):
            before = control.evaluate(snapshot)
            control.press(key)
            try:
                page.wait_for_function(changed, arg=[control.element_handle(), before], timeout=FRAME_TIMEOUT_S * 1000)
                break
            except PlaywrightTimeoutError:
                continue
        else:
            stuck.append(label)
    assert not stuck, f"moving these controls did not redraw their widget: {stuck}"
    shots = book.root / "_build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    for i, widget in enumerate(page.locator(".mlr-live").all(), start=1):
        widget.scroll_into_view_if_needed()
        widget.screenshot(path=str(shots / f"{book.page_id(chapter.path)}-live{i}.png"))


def test_no_javascript_errors(chapter):
    time.sleep(0.2)  # late errors from deferred scripts
    unexplained = [p for p in chapter.problems() if known_issue(p) is None]
    if chapter.setup_error:
        unexplained.append(f"the page did not finish loading its math or widgets: {chapter.setup_error}")
    unexplained += [f"widget DOM: {p}" for p in chapter.dom_problems]
    assert not unexplained, f"errors in the browser on {chapter.path}:\n  " + "\n  ".join(unexplained)


def test_no_request_left_the_machine(chapter):
    # Nothing is expected: MathJax, the widgets' modules and fonts are all local.
    # (The theme's launch buttons and thebe would fetch from Binder/unpkg only when clicked.)
    assert not chapter.aborted, "requests to other machines (blocked):\n  " + "\n  ".join(chapter.aborted)
    assert not chapter.websockets, f"web sockets opened: {chapter.websockets}"


# The book's other pages -------------------------------------------------------------------
def test_other_pages_load_offline_without_errors(browser, book_server, book):
    problems = []
    for path in book.toc_pages():
        if path in book.chapter_pages():
            continue  # opened and checked above
        visit = open_page(browser, book_server, path)
        try:
            if visit.page.locator(".math").count():
                wait_for_math(visit.page)
                raw = visit.page.locator(".math:not(:has(mjx-container))").count()
                if raw:
                    problems.append(f"{path}: {raw} math element(s) not typeset")
            time.sleep(0.3)  # late errors from deferred scripts
            problems += [f"{path}: {p}" for p in visit.problems() if known_issue(p) is None]
            problems += [f"{path}: blocked request to {url}" for url in visit.aborted]
        finally:
            visit.context.close()
    assert not problems, "\n  ".join(["problems on the book's pages:", *problems])
