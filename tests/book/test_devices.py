"""Test layer 7: the built book on a reader's devices.

Every page of _toc.yml is opened in headless Chromium as a phone (390x844, touch)
and as a desktop (1280x900), offline (any request to another machine is aborted
and reported). On each:

* the navigation works: on the phone, tapping the menu button opens the book's
  contents as a dialog with a link to every chapter, and Escape closes it (the
  "On this page" button likewise, where the page has one); on the desktop, the
  menu button collapses the sidebar and a second click brings it back;
* the page logs no console error and no request fails.
"""

from __future__ import annotations

import re

import pytest

DEVICES = {
    "phone": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2),
    "desktop": dict(viewport={"width": 1280, "height": 900}),
}
TIMEOUT_MS = 20_000

VISIBLE_TOGGLES_JS = """(kind) => [...document.querySelectorAll("." + kind)]
  .map((b, i) => ({i, visible: b.offsetParent !== null && b.getBoundingClientRect().width > 0,
                   name: b.getAttribute("aria-label") || b.getAttribute("title") || b.textContent.trim()}))
  .filter((b) => b.visible)"""
DIALOG_JS = """(id) => { const d = document.getElementById(id);
  return d ? {open: d.open, links: [...d.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")),
              width: d.getBoundingClientRect().width} : null; }"""
SIDEBAR_JS = """() => { const s = document.getElementById("pst-primary-sidebar");
  return {hidden: getComputedStyle(s).visibility === "hidden", width: s.getBoundingClientRect().width,
          articleLeft: document.querySelector(".bd-main").getBoundingClientRect().left}; }"""


@pytest.fixture(params=list(DEVICES), scope="module")
def device(request):
    return request.param


class Opened:
    def __init__(self, browser, base, path, device):
        self.problems: list[str] = []
        self.context = browser.new_context(service_workers="block", **DEVICES[device])
        self.context.set_default_timeout(TIMEOUT_MS)

        def route(route):
            if route.request.url.startswith(base + "/"):
                route.continue_()
            else:
                self.problems.append(f"request to another machine (blocked): {route.request.url}")
                route.abort()

        self.context.route("**/*", route)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("console", lambda msg: self.problems.append(f"console error: {msg.text}")
                     if msg.type == "error" else None)
        self.page.on("response", lambda r: self.problems.append(f"failed request: {r.status} {r.url}")
                     if r.status >= 400 else None)
        self.page.goto(f"{base}/{path}", wait_until="load")

    def close(self):
        self.context.close()


def chapter_links(book) -> set[str]:
    """File names (without folders) of the chapter pages the contents must link to."""
    return {p.rsplit("/", 1)[-1] for p in book.chapter_pages()}


def linked_files(hrefs: list[str]) -> set[str]:
    return {re.sub(r"[#?].*$", "", h).rsplit("/", 1)[-1] for h in hrefs}


def test_navigation_and_console(browser, book_server, book, device, toc_page):
    path = toc_page
    if not (book.build / path).is_file():
        pytest.fail(f"{path} is listed in _toc.yml but not built: run `make strict-book`.")
    opened = Opened(browser, book_server, path, device)
    page = opened.page
    try:
        primary = page.evaluate(VISIBLE_TOGGLES_JS, "primary-toggle")
        assert len(primary) == 1, f"{device}: expected one visible menu button, found {primary}"
        assert primary[0]["name"], f"{device}: the menu button has no accessible name"
        button = page.locator(".primary-toggle").nth(primary[0]["i"])
        if device == "phone":
            button.tap()
            page.wait_for_function("() => document.getElementById('pst-primary-sidebar-modal').open")
            dialog = page.evaluate(DIALOG_JS, "pst-primary-sidebar-modal")
            missing = chapter_links(book) - linked_files(dialog["links"]) - {path.rsplit("/", 1)[-1]}
            assert not missing, f"phone: the contents dialog has no link to {sorted(missing)}"
            assert dialog["width"] > 200, f"phone: the contents dialog is only {dialog['width']:.0f} px wide"
            page.keyboard.press("Escape")
            page.wait_for_function("() => !document.getElementById('pst-primary-sidebar-modal').open")
            secondary = page.evaluate(VISIBLE_TOGGLES_JS, "secondary-toggle")
            for toggle in secondary:
                page.locator(".secondary-toggle").nth(toggle["i"]).tap()
                page.wait_for_function("() => document.getElementById('pst-secondary-sidebar-modal').open")
                page.keyboard.press("Escape")
                page.wait_for_function("() => !document.getElementById('pst-secondary-sidebar-modal').open")
        else:
            before = page.evaluate(SIDEBAR_JS)
            assert not before["hidden"] and before["width"] > 150, f"desktop: the sidebar is not shown at first: {before}"
            button.click()
            page.wait_for_function("() => getComputedStyle(document.getElementById('pst-primary-sidebar')).visibility === 'hidden'")
            page.wait_for_timeout(500)  # the sidebar slides away
            collapsed = page.evaluate(SIDEBAR_JS)
            assert collapsed["articleLeft"] < before["articleLeft"] - 100, \
                f"desktop: collapsing the sidebar did not widen the text: {before} -> {collapsed}"
            button.click()
            page.wait_for_function("() => getComputedStyle(document.getElementById('pst-primary-sidebar')).visibility === 'visible'")
        page.wait_for_timeout(200)  # late errors
        assert not opened.problems, f"{device}, {path}:\n  " + "\n  ".join(opened.problems)
    finally:
        opened.close()
