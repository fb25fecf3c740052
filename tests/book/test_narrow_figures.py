"""Multi-panel figures on a phone: the built book serves their narrow layout.

Each chapter page is opened in headless Chromium as a 390x844 phone and as a
1280x900 desktop (offline, as in test_devices.py). On the phone every output
figure that has a narrow layout (a ``<picture>``, _ext/narrow_figures.py)
shows it, and every output figure's text is at least 8 px: its rendered width
over its natural width, times 11.25 px (9-point text at 90 dpi, the smallest
the notebooks set, tests/harness/test_readable_notebooks.py). On the desktop
the same figures show their wide PNG, and the link to the full-size figure
opens the wide PNG on both.
"""

from __future__ import annotations

import pytest

SMALLEST_TEXT_PX = 9 * 90 / 72
MIN_PHONE_TEXT_PX = 8
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2)
DESKTOP = dict(viewport={"width": 1280, "height": 900})

FIGURES_JS = """async () => {
  const images = [...document.querySelectorAll("article .cell_output img")]
    .filter((i) => !i.classList.contains("widget-fallback") && !i.closest(".jupyter-widgets, .widget-subarea"));
  await Promise.all(images.map((i) => i.complete ? null : new Promise((done) => {
    i.addEventListener("load", done, {once: true}); i.addEventListener("error", done, {once: true}); })));
  return images.map((i) => { const source = i.closest("picture") && i.closest("picture").querySelector("source");
    const link = i.closest("a.figure-full");
    return {src: new URL(i.getAttribute("src"), location.href).href, current: i.currentSrc,
            narrow: source ? new URL(source.getAttribute("srcset"), location.href).href : null,
            link: link ? new URL(link.getAttribute("href"), location.href).href : null,
            natural: i.naturalWidth, shown: i.getBoundingClientRect().width, alt: i.getAttribute("alt")}; });
}"""


def figures_on(browser, base, path, device):
    context = browser.new_context(service_workers="block", **device)
    try:
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(base + "/")
                      else route.abort())
        page = context.new_page()
        page.goto(f"{base}/{path}", wait_until="load")
        return page.evaluate(FIGURES_JS)
    finally:
        context.close()


def test_multi_panel_figures_are_narrow_on_a_phone(browser, book_server, page_path):
    phone = figures_on(browser, book_server, page_path, PHONE)
    if not phone:
        pytest.skip(f"{page_path} shows no figure")
    problems = []
    for figure in phone:
        name = figure["src"].rsplit("/", 1)[-1][:12]
        if figure["narrow"] and figure["current"] != figure["narrow"]:
            problems.append(f"{name}: the phone shows {figure['current']}, not the narrow layout")
        if figure["link"] != figure["src"]:
            problems.append(f"{name}: the full-size link opens {figure['link']}")
        text = figure["shown"] / figure["natural"] * SMALLEST_TEXT_PX if figure["natural"] else 0
        if text < MIN_PHONE_TEXT_PX:
            problems.append(f"{name}: text at {text:.1f} px ({figure['natural']} px shown at {figure['shown']:.0f})")
    assert not problems, f"{page_path} on a 390 px phone:\n  " + "\n  ".join(problems)


def test_the_desktop_shows_the_wide_figures(browser, book_server, page_path):
    desktop = figures_on(browser, book_server, page_path, DESKTOP)
    wrong = [f["src"].rsplit("/", 1)[-1][:12] for f in desktop if f["current"] != f["src"]]
    assert not wrong, f"{page_path}: at 1280 px these figures do not show their wide PNG: {wrong}"
