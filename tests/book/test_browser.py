"""Test layer 5: the built book in a real browser, offline.

Debian's chromium (/usr/bin/chromium) driven by Playwright's Python package; never
`playwright install`. The book is served from _build/html on a loopback port and
every request to any other host is aborted and recorded. Every chapter page of
_toc.yml is opened once (a module-scoped fixture parametrized by page; pytest runs
each page's tests together, in file order): math typeset; then, for each frames
slider found in the page's widget state (test ids name the page and the slider, in
DOM order), it renders one frame matching its readout, keys / mouse / its Play
button change the picture to the expected frame, the other sliders stay put; last,
no JavaScript errors and nothing requested from another machine. A chapter without
sliders gets only the page-level tests.

Screenshots go to _build/screenshots/ (not committed).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import pytest

TIMEOUT_MS = 20_000
FRAME_TIMEOUT_S = 5.0  # key press to new frame takes 5-20 ms; allow a slow machine

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
# True once every widget view is rendered: the manager inserts a div.widget-subarea
# just before each view's <script> and attaches the view in it.
VIEWS_RENDERED_JS = """() => [...document.querySelectorAll('%s')].every((s) => {
  const sub = s.previousElementSibling;
  return sub && sub.classList.contains("widget-subarea") && sub.firstElementChild !== null;
})""" % VIEW_SCRIPTS
# Mark each rendered widget's element with its model id (data-test-model), walking from
# each view down through Box children, which a Box view lays out as its own DOM children
# in order. Returns the places where the DOM does not mirror the widget state.
TAG_MODELS_JS = """(tree) => {
  const problems = [];
  const tag = (el, id, where) => {
    if (!el.hasAttribute("data-test-model")) el.setAttribute("data-test-model", id);
    const children = tree[id];
    if (!children) return;
    const kids = [...el.children];
    if (kids.length !== children.length) {
      problems.push(`${where}: Box ${id} has ${children.length} children in the state, ${kids.length} in the page`);
      return;
    }
    children.forEach((child, i) => tag(kids[i], child, where));
  };
  [...document.querySelectorAll('%s')].forEach((s, i) => {
    const id = JSON.parse(s.textContent).model_id;
    const sub = s.previousElementSibling;
    if (!sub || !sub.classList.contains("widget-subarea") || !sub.firstElementChild) {
      problems.push(`widget view ${i + 1} (${id}) was not rendered`);
      return;
    }
    tag(sub.firstElementChild, id, `widget view ${i + 1}`);
  });
  return problems;
}""" % VIEW_SCRIPTS
# The readout and handle of one slider element, and the visible frames of one Stack element.
FRAME_STATE_JS = """async ([sliderId, stackId]) => {
  const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const slider = document.querySelector(`[data-test-model="${sliderId}"]`);
  const stack = document.querySelector(`[data-test-model="${stackId}"]`);
  if (!slider || !stack) return {readout: null, index: null, images: [], missing: true};
  const visible = [...stack.querySelectorAll("img.widget-image")]
    .filter((img) => img.offsetParent !== null && img.getBoundingClientRect().width > 0);
  const images = [];
  for (const img of visible) {
    const bytes = await (await fetch(img.src)).arrayBuffer();
    images.push({src: img.src.slice(0, 80), sha256: hex(await crypto.subtle.digest("SHA-256", bytes)),
                 decoded: img.complete && img.naturalWidth > 0});
  }
  const readout = slider.querySelector(".widget-readout");
  const handle = slider.querySelector(".noUi-handle");
  return {readout: readout && readout.textContent.trim(),
          index: handle && Number(handle.getAttribute("aria-valuenow")), images};
}"""
PROSE_TEXT_JS = """() => {
  const article = document.querySelector("article.bd-article") || document.querySelector("main") || document.body;
  const clone = article.cloneNode(true);
  clone.querySelectorAll("pre, code, script, style, mjx-container, .cell_input, .widget-subarea, .jupyter-widgets")
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
    dom_problems: list = field(default_factory=list)  # where the DOM does not mirror the widget state

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


def model(model_id: str) -> str:
    """CSS selector of the element rendering a widget model (see TAG_MODELS_JS)."""
    return f'[data-test-model="{model_id}"]'


@pytest.fixture(scope="module")
def chapter(request, browser, book_server, book):
    """One chapter page (the parameter), loaded once: math typeset and widgets rendered
    where the page has them, each widget's element marked with its model id."""
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
            visit.dom_problems = page.evaluate(TAG_MODELS_JS, book.box_tree(path))
            for s in book.frame_sliders(path):
                page.locator(f"{model(s.slider_id)} .noUi-handle").first.wait_for(state="visible")
                page.locator(f"{model(s.stack_id)} img.widget-image").first.wait_for(state="visible")
    except Exception as exc:  # the tests below say what is missing; keep the page for them
        visit.setup_error = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
    yield visit
    visit.context.close()


@pytest.fixture
def slider(chapter, slider_index, book):
    """The frames slider under test, located in the loaded page."""
    info = book.frame_sliders(chapter.path)[slider_index]
    where = f"{chapter.path}, slider {info.number} ({info.description!r})"
    assert not chapter.setup_error, f"{where}: the page's widgets did not render: {chapter.setup_error}"
    assert not chapter.dom_problems, f"{where}: the page does not mirror its widget state: {chapter.dom_problems}"
    for what, mid in [("slider", info.slider_id), ("Stack", info.stack_id)] + ([("Play button", info.play_id)] if info.play_id else []):
        assert chapter.page.locator(model(mid)).count(), f"{where}: its {what} ({mid}) is not on the page"
    return info


def frame_state(page, info) -> dict:
    return page.evaluate(FRAME_STATE_JS, [info.slider_id, info.stack_id])


def wait_for_frame(page, info, index: int) -> dict:
    """Poll until the readout and the visible picture are those of frame `index`."""
    deadline = time.monotonic() + FRAME_TIMEOUT_S
    while True:
        state = frame_state(page, info)
        shown = [img["sha256"] for img in state["images"]]
        if state["readout"] == info.labels[index] and shown == [info.frame_sha256[index]]:
            return state
        if time.monotonic() > deadline:
            return state
        time.sleep(0.02)


def shown_frame(info, state) -> int | None:
    """Which frame of the slider the page shows (None: none, several, or an unknown picture)."""
    shown = [img["sha256"] for img in state["images"]]
    return info.frame_sha256.index(shown[0]) if len(shown) == 1 and shown[0] in info.frame_sha256 else None


def consistent(info, state) -> bool:
    """The picture shown is the frame whose value the readout shows."""
    return state["readout"] in info.labels and shown_frame(info, state) == info.labels.index(state["readout"])


def others(book, chapter, info) -> dict:
    """What the page's other frames sliders show (to check a slider moves only its own Stack)."""
    return {o.number: frame_state(chapter.page, o) for o in book.frame_sliders(chapter.path) if o.number != info.number}


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


def test_slider_and_its_frame_render(chapter, slider, slider_index, book):
    page, info = chapter.page, slider
    assert page.locator(f"{model(info.slider_id)} .noUi-handle").first.is_visible()
    if info.play_id:
        assert page.locator(f"{model(info.play_id)} button").first.is_visible(), "the Play button is not shown"
    state = wait_for_frame(page, info, info.initial)
    assert len(state["images"]) == 1, f"the Stack should show exactly one frame: {state['images']}"
    assert state["images"][0]["decoded"], "the frame image did not decode"
    assert state["readout"] == info.labels[info.initial], state
    assert shown_frame(info, state) == info.initial, "the picture shown is not the initial frame"
    shots = book.root / "_build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    output = page.locator(".cell_output").filter(has=page.locator(model(info.slider_id))).first
    output.scroll_into_view_if_needed()
    output.screenshot(path=str(shots / f"{info.test_id}.png"))


def test_keys_move_the_slider_and_change_the_picture(chapter, slider, book):
    page, info = chapter.page, slider
    last = len(info.labels) - 1
    handle = page.locator(f"{model(info.slider_id)} .noUi-handle").first
    before, others_before = frame_state(page, info), others(book, chapter, info)
    handle.focus()
    first_key = ("End", last) if shown_frame(info, before) != last else ("Home", 0)
    for key, index in [first_key, ("Home", 0), ("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1)]:
        handle.press(key)
        state = wait_for_frame(page, info, index)
        assert state["readout"] == info.labels[index], f"after {key}: readout {state['readout']!r}, expected {info.labels[index]!r}"
        assert shown_frame(info, state) == index, f"after {key}: frame {shown_frame(info, state)} shown, expected {index}"
    handle.press("End")
    state = wait_for_frame(page, info, last)
    assert shown_frame(info, state) == last, f"after End: frame {shown_frame(info, state)} shown, expected {last}"
    handle.press("Home")
    state = wait_for_frame(page, info, 0)
    assert shown_frame(info, state) == 0, f"after Home: frame {shown_frame(info, state)} shown, expected 0"
    assert others(book, chapter, info) == others_before, "moving this slider changed another slider or its picture"


def test_mouse_on_the_track_changes_the_picture(chapter, slider):
    page, info = chapter.page, slider
    handle = page.locator(f"{model(info.slider_id)} .noUi-handle").first
    handle.focus()
    handle.press("Home")
    before = wait_for_frame(page, info, 0)
    track = page.locator(f"{model(info.slider_id)} .noUi-base").first
    track.scroll_into_view_if_needed()
    box = track.bounding_box()
    page.mouse.click(box["x"] + 0.8 * box["width"], box["y"] + box["height"] / 2)  # tap near the right end
    deadline = time.monotonic() + FRAME_TIMEOUT_S
    while (state := frame_state(page, info))["readout"] == before["readout"] or not consistent(info, state):
        if time.monotonic() > deadline:
            break
        time.sleep(0.02)
    assert state["readout"] != before["readout"], "clicking the slider's track did not move it"
    assert consistent(info, state), f"the picture does not match the readout {state['readout']!r}"
    assert shown_frame(info, state) != 0, "clicking the track did not change the picture"
    assert info.labels.index(state["readout"]) > len(info.labels) // 2


@pytest.mark.with_play
def test_play_button_steps_through_the_frames(chapter, slider):
    page, info = chapter.page, slider
    handle = page.locator(f"{model(info.slider_id)} .noUi-handle").first
    handle.focus()
    handle.press("Home")
    start = wait_for_frame(page, info, 0)
    assert start["readout"] == info.labels[0]
    play = page.locator(f"{model(info.play_id)} button").first
    play.click()
    time.sleep(min(6 * (info.play_interval_ms or 250), 3000) / 1000)  # about 6 frames
    playing = frame_state(page, info)
    icon_while_playing = play.locator("svg").first.get_attribute("data-icon")
    play.click()  # the same button pauses
    time.sleep(0.1)
    paused = frame_state(page, info)
    time.sleep(max(2 * (info.play_interval_ms or 250), 500) / 1000)
    still = frame_state(page, info)
    assert playing["readout"] != start["readout"], "Play did not move the slider"
    assert info.labels.index(playing["readout"]) >= 2, f"Play advanced only to {playing['readout']!r}"
    assert consistent(info, playing), "while playing, the picture does not match the readout"
    assert shown_frame(info, playing) != 0, "Play did not change the picture"
    assert icon_while_playing == "pause", f"while playing the button shows {icon_while_playing!r}, not pause"
    assert still["readout"] == paused["readout"], "the second click did not pause"
    assert play.locator("svg").first.get_attribute("data-icon") == "play"


def test_no_javascript_errors(chapter):
    time.sleep(0.2)  # late errors from deferred scripts
    unexplained = [p for p in chapter.problems() if known_issue(p) is None]
    if chapter.setup_error:
        unexplained.append(f"the page did not finish loading its math or widgets: {chapter.setup_error}")
    unexplained += [f"widget DOM: {p}" for p in chapter.dom_problems]
    assert not unexplained, f"errors in the browser on {chapter.path}:\n  " + "\n  ".join(unexplained)


def test_no_request_left_the_machine(chapter):
    # Nothing is expected: MathJax, require.js, the widget manager and fonts are all local.
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
