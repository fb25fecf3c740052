"""Input-to-next-frame time of the continuous descent widget (mlrefined_lib.live) in headless Chromium.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_live_widget.py

Writes a static page like the book's (the book's loader, assets/widget-loader.js,
and the vendored modules; `python tools/vendor_assets.py` must have run) with chapter 1's widget
(one input) and chapter 7's (raw -> standardized blend), serves it on a loopback
port, and drags the learning-rate and blend controls with Playwright's mouse
(real pointer events). The widget records, for each input event, the time from
the event to the end of the redraw it caused (one requestAnimationFrame later)
and the redraw alone. Prints median and 95th percentile of both, per control.
Uses Debian's /usr/bin/chromium (never `playwright install`).
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, bookfiles, markdown_for, row, section, skipped, timed  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def write_page(widgets, directory: Path) -> None:
    from ipywidgets.embed import embed_data

    shutil.copytree(ROOT / "assets", directory / "_static")
    data = embed_data(views=widgets, drop_defaults=False)
    views = "".join(f'<div><script type="application/vnd.jupyter.widget-view+json">{json.dumps(v)}</script></div>'
                    for v in data["view_specs"])
    (directory / "index.html").write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>bench</title>'
        + '<script type="module" src="_static/widget-loader.js"></script>'
        + f'<script type="application/vnd.jupyter.widget-state+json">{json.dumps(data["manager_state"])}</script>'
        + f"</head><body>{views}</body></html>")


def drag(page, widget_index: int, label: str, moves: int = 120) -> np.ndarray:
    """Drag one range control end to end and back; returns the (input-to-frame, redraw) times in ms."""
    root = page.locator(".mlr-live").nth(widget_index)
    root.evaluate("e => { e.__liveTimings.length = 0; }")
    slider = root.locator("input[type=range]").all()
    box = None
    for control in slider:
        name = control.evaluate("i => document.querySelector(`label[for='${i.id}']`).textContent")
        if name.startswith(label):
            box = control.bounding_box()
    assert box is not None, label
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
    return np.array(root.evaluate("e => e.__liveTimings"))


FRAME_TARGET_MS = 17.0  # one animation frame at 60 Hz


def measure() -> list[dict]:
    """Drag each control; one dict per control with the raw timings (ms)."""
    from playwright.sync_api import sync_playwright

    import mlrefined_lib as ml
    from mlrefined_lib import datasets, live

    x, y = datasets.load_one_input_regression()
    z = ml.standard_normalizer(x)[0](x)
    ch1 = live.quadratic_descent(x, y, xrange=(-4, 8), yrange=(-2, 14), alpha=0.15, steps=20, alpha_range=(0.01, 1.0))
    ch6 = live.quadratic_descent([x, z], y, xrange=(-3, 9), yrange=(-2, 12), alpha=0.1, steps=20,
                                 blend_label="lambda", alpha_range=(0.01, 2.0))
    found = []
    with tempfile.TemporaryDirectory() as tmp:
        write_page([ch1, ch6], Path(tmp))
        with bookfiles.serve(tmp) as url:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS, headless=True)
                page = browser.new_page(viewport={"width": 1100, "height": 1400})
                page.goto(f"{url}/index.html", wait_until="load")
                page.wait_for_function("() => document.querySelectorAll('.mlr-live[data-path]').length === 2")
                for index, label, what in [(0, "learning rate", "chapter 1, dragging the learning rate"),
                                           (1, "lambda", "chapter 7, dragging lambda (contours redrawn)")]:
                    times = drag(page, index, label)
                    found.append({"what": what, "to_frame": times[:, 0], "redraw": times[:, 1]})
                browser.close()
    return found


@timed
def run() -> dict:
    """The benchmark as a section of benchmarks/RESULTS.md (see run.py)."""
    result = {"title": "The continuous descent widget (chapters 1, 7, 9) while dragging", "sections": []}
    if not Path("/usr/bin/chromium").exists():
        result["sections"].append(skipped("Skipped", "/usr/bin/chromium is missing"))
    else:
        rows = []
        for m in measure():
            median, p95 = float(np.median(m["to_frame"])), float(np.percentile(m["to_frame"], 95))
            met = median <= FRAME_TARGET_MS
            rows.append(row(f"{m['what']}: input to next frame, median ({len(m['to_frame'])} events)", median,
                            f"{median:.1f} ms", f"≤ {FRAME_TARGET_MS:.0f} ms", met,
                            "" if met else "the redraw takes longer than one frame"))
            rows.append(row(f"{m['what']}: input to next frame, 95th percentile", p95, f"{p95:.1f} ms"))
            rows.append(row(f"{m['what']}: redraw alone, median", float(np.median(m["redraw"])),
                            f"{np.median(m['redraw']):.2f} ms"))
        result["sections"].append(section("a. Input to next frame in headless Chromium", rows, [
            "Real pointer events from Playwright's mouse; the widget records, per input event, the time from the "
            "event's timestamp to the end of the redraw it caused (the next animation frame)."]))
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
