"""The built book as a reader receives it: site size, bytes each page transfers,
and how soon the heaviest widget page paints on a slow network.

    python benchmarks/bench_pages.py        # reads _build/html (run `make book` first)

Headless Chromium (Debian's /usr/bin/chromium, driven by Playwright; never
`playwright install`) opens each page of ``_toc.yml`` from a loopback server
with an empty cache and records the bytes of every response. The first-paint
measure throttles the network to 10 Mbit/s down, 5 Mbit/s up and 40 ms latency
(Chrome DevTools' network emulation) and reads ``first-contentful-paint`` for
the page with the most widget state, twice: as built (MathJax, require.js and
the widget manager deferred, the widget state after the text) and as the book
was built before (a copy of the page with those scripts blocking again and the
widget state moved back into the ``<head>``, where MyST-NB puts it).
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, bookfiles, row, section_markdown, write_json  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SLOW = {"offline": False, "latency": 40, "downloadThroughput": 10e6 / 8, "uploadThroughput": 5e6 / 8}
FIRST_PAINT_TARGET_S = 2.0
STATE = re.compile(r'\n?<script type="application/vnd\.jupyter\.widget-state\+json">.*?</script>\n?', re.S)
BLOCKING = re.compile(r'<script defer="defer" (src="[^"]*(?:require\.js|widgets-require-config\.js|embed-amd\.js|tex-chtml\.js)[^"]*")')


def toc_pages(root: Path = ROOT) -> list[str]:
    return bookfiles.toc_pages(root)


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _load(browser, url: str, throttle: bool) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if throttle:
        cdp.send("Network.emulateNetworkConditions", SLOW)
    received = {}
    cdp.on("Network.loadingFinished", lambda e: received.__setitem__(e["requestId"], e["encodedDataLength"]))
    start = time.perf_counter()
    page.goto(url, wait_until="load", timeout=120_000)
    load_s = time.perf_counter() - start
    page.wait_for_timeout(1500)
    fcp = page.evaluate("() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || null")
    context.close()
    return {"bytes": sum(received.values()), "requests": len(received), "fcp_s": fcp / 1000 if fcp else None,
            "load_s": load_s}


def run(html_root: Path = ROOT / "_build" / "html") -> dict:
    start = time.perf_counter()
    result = {"title": "The built book in the browser", "sections": [], "notes": []}
    if not (html_root / "index.html").is_file() or not CHROMIUM.exists():
        reason = ("no built book at `_build/html` (run `make book`)" if CHROMIUM.exists()
                  else f"{CHROMIUM} is missing (apt-get install chromium)")
        result["sections"].append({"title": "Skipped", "status": "skipped", "reason": reason, "rows": []})
        result["seconds"] = time.perf_counter() - start
        return result
    from playwright.sync_api import sync_playwright

    total = folder_bytes(html_root)
    parts = {name: folder_bytes(html_root / name) for name in ("_static/vendor", "_sources", "_images")
             if (html_root / name).is_dir()}
    size_rows = [row("whole site", total, f"{total / 2**20:.1f} MB")]
    size_rows += [row(f"`{name}/`", b, f"{b / 2**20:.1f} MB") for name, b in parts.items()]
    result["sections"].append({"title": "a. Site size on disk", "rows": size_rows, "notes": [
        "`_sources/` holds the notebooks behind each page's download button; a reader fetches one only by clicking it."]})

    pages = [p for p in toc_pages() if (html_root / p).is_file()]
    tmp = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    try:
        site = tmp / "html"
        shutil.copytree(html_root, site)
        # The largest page among those that embed widgets.
        heaviest = max(pages, key=lambda p: ("widget-state+json" in (html_root / p).read_text(),
                                             (html_root / p).stat().st_size))
        blocking_page = site / heaviest.replace(".html", ".blocking.html")
        built = (site / heaviest).read_text()
        state = STATE.search(built)
        before_html = BLOCKING.sub(r"<script \1", built)
        if state:
            before_html = STATE.sub("", before_html).replace("</head>", state.group(0).strip() + "\n</head>", 1)
        blocking_page.write_text(before_html)
        with bookfiles.serve(site) as base:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
                page_rows = []
                for page in pages:
                    m = _load(browser, f"{base}/{page}", throttle=False)
                    page_rows.append(row(f"`{page}`", m["bytes"], f"{m['bytes'] / 2**20:.2f} MB in {m['requests']} requests"))
                result["sections"].append({"title": "b. Bytes transferred by each page (first visit, empty cache)",
                                           "rows": page_rows, "notes": [
                    "Counted by Chromium (`encodedDataLength` of every response until one and a half seconds after "
                    "`load`): the page, its scripts, stylesheets, fonts and images."]})
                after = _load(browser, f"{base}/{heaviest}", throttle=True)
                before = _load(browser, f"{base}/{blocking_page.relative_to(site).as_posix()}", throttle=True)
                browser.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    met = after["fcp_s"] is not None and after["fcp_s"] <= FIRST_PAINT_TARGET_S
    result["sections"].append({"title": f"c. First paint of the heaviest widget page (`{heaviest}`) at 10 Mbit/s", "rows": [
        row("first contentful paint, scripts blocking, state in <head> (before)", before["fcp_s"],
            f"{before['fcp_s']:.2f} s" if before["fcp_s"] else "none"),
        row("first contentful paint, scripts deferred, state after the text (as built)", after["fcp_s"],
            f"{after['fcp_s']:.2f} s" if after["fcp_s"] else "none", f"≤ {FIRST_PAINT_TARGET_S:.0f} s", met,
            "" if met else "the page's own HTML (widget state included) takes longer than that to arrive"),
        row("load event, as built", after["load_s"], f"{after['load_s']:.2f} s"),
    ], "notes": ["10 Mbit/s down, 5 Mbit/s up, 40 ms latency; cache disabled."]})
    result["seconds"] = time.perf_counter() - start
    return result


def to_markdown(result: dict, level: int = 2) -> str:
    parts = [f"{'#' * level} {result['title']}", ""]
    parts += [f"- {note}" for note in result.get("notes", [])]
    for section in result["sections"]:
        parts.append(section_markdown(section, level + 1))
    parts.append(f"*Page benchmark ran in {result['seconds']:.0f} s.*\n")
    return "\n".join(parts)


def main() -> int:
    result = run()
    print(to_markdown(result))
    print(f"JSON written to {write_json(result, 'pages.json')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
