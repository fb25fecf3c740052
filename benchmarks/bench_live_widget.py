"""Input-to-next-frame time of every live widget of the built book, in headless Chromium.

    .venv/bin/python benchmarks/bench_live_widget.py      # reads _build/html (run `make book` first)

Serves the built book on a loopback port, opens each chapter page that has a
live widget (mlrefined_lib.live, drawn by assets/widget-loader.js) at 1280×900,
and works every control of every widget as a reader does: a range control
dragged with Playwright's mouse (real pointer events) end to end and back, one
move per display frame as a hand drags; a button pressed again and again; a
text field typed into a key at a time; a drop-down or radio group cycled
through its options. Each control is measured at full speed and again with the
CPU throttled 4x (a phone-class CPU). The widgets record (static/_shared.js),
for each input event, the time from the event to the end of the redraw it
caused (one requestAnimationFrame later) and the redraw alone. Reports the
median and the 95th percentile per control, and the throttled median. Uses
Debian's /usr/bin/chromium (never `playwright install`).
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


def _timings(control) -> np.ndarray:
    return np.array(control.evaluate("i => i.closest('.mlr-live').__liveTimings"), dtype=float).reshape(-1, 2)


def _clear(control) -> None:
    control.evaluate("i => { i.closest('.mlr-live').__liveTimings.length = 0; }")


def drag(page, control, moves: int = 120) -> np.ndarray:
    """Drag one range control end to end and back; returns the (input-to-frame, redraw) times in ms."""
    control.scroll_into_view_if_needed()
    _clear(control)
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
    return _timings(control)


PRESS_MS = 80  # a finger or mouse button held down this long: the click comes when it is let go


def _click(page, control) -> None:
    """Press and release the mouse over the middle of `control`, held PRESS_MS.

    Playwright's mouse sends the browser real input events. (Its `click()` also runs its own
    script in the page at every event, to check what the pointer hits, which a reader's click
    does not: at 4x throttling that added about 10 ms to every click.)
    """
    box = control.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(PRESS_MS)
    page.mouse.up()


PRESSES = 40  # presses per button: a click lands at a random point of the display's 16.7 ms frame, so a
#               median of few presses moves by a millisecond or two from run to run


def press(page, control, presses: int = PRESSES) -> np.ndarray:
    """Click a button `presses` times, one click every 100 ms (a reader pressing it again and again).

    Each press lasts PRESS_MS, as a reader's does: a click whose release came in the same instant
    as its press would count the browser's handling of the press in the time of the release.
    """
    control.scroll_into_view_if_needed()
    _clear(control)
    for _ in range(presses):
        _click(page, control)
        page.wait_for_timeout(100)
    return _timings(control)


NOOP_BUTTON_JS = """(where) => {
  const button = document.createElement("button");
  button.type = "button"; button.textContent = "does nothing"; button.id = "bench-noop";
  where.before(button);
  window.__noop = [];
  button.addEventListener("click", (e) => { const t = e.timeStamp;
    requestAnimationFrame(() => window.__noop.push(performance.now() - t)); });
}"""


def noop_click(page, where, presses: int = PRESSES) -> float:
    """The median time from a click to the next frame for a button that does nothing, put just before
    `where` on the page: what the browser itself spends on a click on this page (no widget code runs)."""
    where.evaluate(NOOP_BUTTON_JS)
    button = page.locator("#bench-noop")
    button.scroll_into_view_if_needed()
    for _ in range(presses):
        _click(page, button)
        page.wait_for_timeout(100)
    times = page.evaluate("() => window.__noop")
    page.evaluate("() => document.getElementById('bench-noop').remove()")
    return float(np.median(times))


SENTENCE = "the plot was slow but the actors were not bad at all"


def type_into(page, control) -> np.ndarray:
    """Type a sentence into a text field a key at a time (about 8 keys a second, a quick typist)."""
    control.scroll_into_view_if_needed()
    control.fill("")
    page.wait_for_timeout(100)
    _clear(control)
    control.press_sequentially(SENTENCE, delay=120)
    page.wait_for_timeout(150)
    return _timings(control)


def choose(page, control, rounds: int = 4) -> np.ndarray:
    """Pick every option of a drop-down in turn, `rounds` times over."""
    control.scroll_into_view_if_needed()
    _clear(control)
    values = control.evaluate("s => [...s.options].map((o) => o.value)")
    for _ in range(rounds):
        for value in values[1:] + values[:1]:
            control.select_option(value)
            page.wait_for_timeout(60)
    return _timings(control)


def pick(page, control, rounds: int = 4) -> np.ndarray:
    """Click every radio button of a group in turn, `rounds` times over (a group is measured once,
    from its first button)."""
    control.scroll_into_view_if_needed()
    _clear(control)
    name = control.get_attribute("name")
    group = page.locator(f"input[type=radio][name='{name}']").all() if name else [control]
    for _ in range(rounds):
        for radio in group[1:] + group[:1]:
            _click(page, radio)
            page.wait_for_timeout(60)
    return _timings(control)


FRAME_TARGET_MS = 17.0  # one animation frame at 60 Hz
THROTTLE = 4  # a phone-class CPU: Chromium's CPU throttling rate for the second measurement
CONTROLS = "input[type=range], button, input[type=text], input[type=search], textarea, select, input[type=radio]"


def _label(control) -> str:
    return control.evaluate("""i => (i.labels && i.labels[0] ? i.labels[0].textContent
                                     : i.getAttribute('aria-label') || i.textContent || i.name || '').trim()""")


def _measure_control(page, control) -> np.ndarray | None:
    kind = control.evaluate("i => i.tagName === 'INPUT' ? i.type : i.tagName.toLowerCase()")
    if kind == "range":
        return drag(page, control)
    if kind == "button":
        if _label(control).lower() == "reset":
            return None  # puts the other controls back; measured through them
        return press(page, control)
    if kind in ("text", "search", "textarea"):
        return type_into(page, control)
    if kind == "select":
        return choose(page, control)
    if kind == "radio":
        return pick(page, control)
    return None


def measure(html_root: Path = ROOT / "_build" / "html") -> list[dict]:
    """Work every control of every live widget of the built book (drag a range, press a button,
    type into a text field, pick each option), at full speed and at 4x CPU throttling; one dict
    per control (times in ms)."""
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
            session = page.context.new_cdp_session(page)
            baseline = {}
            for rate in (1, THROTTLE):
                session.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                baseline[rate] = noop_click(page, page.locator(".mlr-live").first)
            session.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            found.append({"page": page_path.split("/")[-1], "noop": baseline[1], "noop_throttled": baseline[THROTTLE]})
            for number, widget in enumerate(page.locator(".mlr-live").all(), start=1):
                title = widget.evaluate("e => (e.querySelector('.mlr-title') || {}).textContent || ''")
                seen_groups = set()
                for control in widget.locator(CONTROLS).all():
                    group = control.get_attribute("name") if control.get_attribute("type") == "radio" else None
                    if group is not None:
                        if group in seen_groups:
                            continue
                        seen_groups.add(group)
                    times = {}
                    for rate in (1, THROTTLE):
                        session.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                        measured = _measure_control(page, control)
                        if measured is None or len(measured) == 0:
                            break
                        times[rate] = measured
                    session.send("Emulation.setCPUThrottlingRate", {"rate": 1})
                    if times:
                        found.append({"page": page_path.split("/")[-1], "kind": control.evaluate("i => i.tagName"),
                                      "what": f"`{page_path.split('/')[-1]}` widget {number} ({title.strip()[:40]}), "
                                              f"{_label(control)[:50]}",
                                      "to_frame": times[1][:, 0], "redraw": times[1][:, 1],
                                      "throttled": times.get(THROTTLE, np.empty((0, 2)))[:, 0],
                                      "throttled_redraw": times.get(THROTTLE, np.empty((0, 2)))[:, 1]})
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
        rows, noop = [], {}
        for m in measure():
            if "noop" in m:  # the page's own cost of a click
                noop[m["page"]] = m
                rows.append(row(f"`{m['page']}`: a button that does nothing, click to next frame, median "
                                f"(full speed; {THROTTLE}x throttled)", m["noop_throttled"],
                                f"{m['noop']:.1f} ms; {m['noop_throttled']:.1f} ms"))
                continue
            base = noop.get(m["page"], {})
            button = m.get("kind") == "BUTTON"

            def why(redraw: float, page_cost: float | None, throttled: bool) -> str:
                if button and page_cost is not None:
                    return (f"the redraw takes {redraw:.1f} ms; a button that does nothing takes {page_cost:.1f} ms "
                            "on this page (the browser's own handling of a click)")
                return ("a phone-class CPU takes longer than one frame to redraw" if throttled
                        else "the redraw takes longer than one frame")

            median, p95 = float(np.median(m["to_frame"])), float(np.percentile(m["to_frame"], 95))
            for name, value in (("median", median), ("95th percentile", p95)):
                met = value <= FRAME_TARGET_MS
                rows.append(row(f"{m['what']}: input to next frame, {name} ({len(m['to_frame'])} events)", value,
                                f"{value:.1f} ms", f"≤ {FRAME_TARGET_MS:.0f} ms", met,
                                "" if met else why(float(np.median(m["redraw"])), base.get("noop"), False)))
            rows.append(row(f"{m['what']}: redraw alone, median", float(np.median(m["redraw"])),
                            f"{np.median(m['redraw']):.2f} ms"))
            if len(m["throttled"]):
                value = float(np.median(m["throttled"]))
                met = value <= FRAME_TARGET_MS
                rows.append(row(f"{m['what']}: input to next frame at {THROTTLE}x CPU throttling, median "
                                f"({len(m['throttled'])} events)", value, f"{value:.1f} ms",
                                f"≤ {FRAME_TARGET_MS:.0f} ms", met,
                                "" if met else why(float(np.median(m["throttled_redraw"])),
                                                   base.get("noop_throttled"), True)))
        result["sections"].append(section("a. Input to next frame in headless Chromium", rows, [
            "Every control of every live widget, on the built chapter pages at 1280×900: each range control "
            "dragged end to end and back with Playwright's mouse (real pointer events, one per display frame), "
            f"each button pressed {PRESSES} times (each press held {PRESS_MS} ms), each text field typed into a key at a time, each drop-down and radio "
            "group cycled through its options. The widget records, per input event, the time from the event's "
            "timestamp to the end of the redraw it caused (the next animation frame). Each control is measured "
            f"twice: at full speed, and with Chromium's CPU throttled {THROTTLE}x (a phone-class CPU; median "
            "reported). Each page also gets, for the time of the measurement, a button that does nothing: its "
            "click-to-frame time is what the browser spends on a click on that page before any widget code runs "
            "(it grows with the page's size)."]))
    return result


to_markdown = markdown_for("Widget benchmark", digits=0)


def main() -> None:
    for m in measure():
        if "noop" in m:
            print(f"{m['page']}: a button that does nothing, click to next frame, median {m['noop']:.1f} ms, "
                  f"at {THROTTLE}x throttling {m['noop_throttled']:.1f} ms")
            continue
        to_frame, redraw, throttled = m["to_frame"], m["redraw"], m["throttled"]
        slow = f"; at {THROTTLE}x throttling median {np.median(throttled):.1f} ms" if len(throttled) else ""
        print(f"{m['what']}: {len(to_frame)} input events; input to next frame median "
              f"{np.median(to_frame):.1f} ms, p95 {np.percentile(to_frame, 95):.1f} ms; "
              f"redraw alone median {np.median(redraw):.2f} ms, p95 {np.percentile(redraw, 95):.2f} ms{slow}")


if __name__ == "__main__":
    main()
