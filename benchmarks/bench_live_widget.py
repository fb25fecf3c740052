"""Input-to-next-frame time of every live widget of the built book, in headless Chromium.

    .venv/bin/python benchmarks/bench_live_widget.py      # reads _build/html (run `make book` first)

Serves the built book on a loopback port, opens each chapter page that has a
live widget (mlrefined_lib.live, drawn by assets/widget-loader.js) at 1280×900,
and drags every range control of every widget with Playwright's mouse (real
pointer events) end to end and back, one move per display frame as a hand
drags, and types a sentence into every text box, one key per frame. The
widgets record (static/_shared.js), for each input event, the time from the
event to the end of the redraw it caused (one requestAnimationFrame later)
and the redraw alone. Reports the median and the 95th percentile per control.
Uses Debian's /usr/bin/chromium (never `playwright install`).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, bookfiles, markdown_for, row, section, skipped, timed  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def drag(page, control, moves: int = 120) -> np.ndarray:
    """Drag one range control end to end and back; returns the (input-to-frame, redraw) times in ms."""
    control.scroll_into_view_if_needed()
    control.evaluate("i => { i.closest('.mlr-live').__liveTimings.length = 0; }")
    box = control.bounding_box()
    y = box["y"] + box["height"] / 2
    xs = np.concatenate([np.linspace(box["x"] + 2, box["x"] + box["width"] - 2, moves // 2),
                         np.linspace(box["x"] + box["width"] - 2, box["x"] + 2, moves // 2)])
    page.mouse.move(xs[0], y)
    page.mouse.down()
    for x in xs:
        page.mouse.move(float(x), y)
        page.wait_for_timeout(16)  # about one pointer event per display frame, as a hand drags
    page.mouse.up()
    page.wait_for_timeout(100)
    return np.array(control.evaluate("i => i.closest('.mlr-live').__liveTimings"))


def type_into(page, control, text: str = " The plot was not good, and the acting was worse.") -> np.ndarray:
    """Type `text` at the end of a text box, one key per display frame as a quick typist types;
    returns the (input-to-frame, redraw) times in ms."""
    control.scroll_into_view_if_needed()
    control.evaluate("i => { i.closest('.mlr-live').__liveTimings.length = 0; }")
    control.click()
    page.keyboard.press("End")
    page.keyboard.type(text, delay=16)
    page.wait_for_timeout(100)
    return np.array(control.evaluate("i => i.closest('.mlr-live').__liveTimings"))


FRAME_TARGET_MS = 17.0  # one animation frame at 60 Hz


def measure(html_root: Path = ROOT / "_build" / "html") -> list[dict]:
    """Drag every range control (and type into every text box) of every live widget of the built book;
    one dict per control (times in ms)."""
    from playwright.sync_api import sync_playwright

    found = []
    loads = re.compile(r"<script[^>]*src=\"[^\"]*widget-loader\.js")
    pages = [p for p in bookfiles.toc_pages(ROOT) if loads.search((html_root / p).read_text(encoding="utf-8"))]
    with bookfiles.serve(html_root) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS, headless=True)
        for page_path in pages:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{url}/{page_path}", wait_until="load")
            page.wait_for_function("() => document.querySelectorAll('.mlr-widget.mlr-drawn').length > 0")
            for number, widget in enumerate(page.locator(".mlr-live").all(), start=1):
                title = widget.evaluate("e => (e.querySelector('.mlr-title') || {}).textContent || ''")
                for control in widget.locator("input[type=range]").all():
                    label = control.evaluate("i => i.labels[0] ? i.labels[0].textContent : i.getAttribute('aria-label')")
                    times = drag(page, control)
                    found.append({"what": f"`{page_path.split('/')[-1]}` widget {number} ({title.strip()[:40]}), {label}",
                                  "to_frame": times[:, 0], "redraw": times[:, 1]})
                for control in widget.locator("input[type=text]").all():  # a text box: typed into
                    label = control.evaluate("i => i.labels[0] ? i.labels[0].textContent : i.getAttribute('aria-label')")
                    times = type_into(page, control)
                    found.append({"what": f"`{page_path.split('/')[-1]}` widget {number} ({title.strip()[:40]}), "
                                          f"typing in: {label[:40]}", "to_frame": times[:, 0], "redraw": times[:, 1]})
            page.close()
        browser.close()
    return found


@timed
def run() -> dict:
    """The benchmark as a section of benchmarks/RESULTS.md (see run.py)."""
    result = {"title": "Every live widget of the book while dragging", "sections": []}
    if not Path("/usr/bin/chromium").exists():
        result["sections"].append(skipped("Skipped", "/usr/bin/chromium is missing"))
    elif not (ROOT / "_build" / "html" / "index.html").exists():
        result["sections"].append(skipped("Skipped", "_build/html is missing: run `make book` first"))
    else:
        rows = []
        for m in measure():
            median, p95 = float(np.median(m["to_frame"])), float(np.percentile(m["to_frame"], 95))
            for name, value in (("median", median), ("95th percentile", p95)):
                met = value <= FRAME_TARGET_MS
                rows.append(row(f"{m['what']}: input to next frame, {name} ({len(m['to_frame'])} events)", value,
                                f"{value:.1f} ms", f"≤ {FRAME_TARGET_MS:.0f} ms", met,
                                "" if met else "the redraw takes longer than one frame"))
            rows.append(row(f"{m['what']}: redraw alone, median", float(np.median(m["redraw"])),
                            f"{np.median(m['redraw']):.2f} ms"))
        result["sections"].append(section("a. Input to next frame in headless Chromium", rows, [
            "Every range control of every live widget, on the built chapter pages at 1280×900. Real pointer events "
            "from Playwright's mouse (and keys typed into a text box, one per frame); the widget records, per input "
            "event, the time from the event's timestamp to the end of the redraw it caused (the next animation frame)."]))
    return result


to_markdown = markdown_for("Widget benchmark", digits=0)


def main() -> None:
    for m in measure():
        to_frame, redraw = m["to_frame"], m["redraw"]
        print(f"{m['what']}: {len(to_frame)} input events; input to next frame median "
              f"{np.median(to_frame):.1f} ms, p95 {np.percentile(to_frame, 95):.1f} ms; "
              f"redraw alone median {np.median(redraw):.2f} ms, p95 {np.percentile(redraw, 95):.2f} ms")


if __name__ == "__main__":
    main()
