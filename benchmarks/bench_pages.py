"""The built book as a reader receives it: site size, what a first visit of each
page weighs, and how soon the first control of each widget page answers on a slow network.

    python benchmarks/bench_pages.py                  # reads _build/html (run `make book` first)
    python benchmarks/bench_pages.py --save-baseline  # also keep these numbers as the "before" column

Headless Chromium (Debian's /usr/bin/chromium, driven by Playwright; never
`playwright install`) opens each page of ``_toc.yml`` from a loopback server
with an empty cache, scrolls to its end (so lazy images load too) and records
every response. A page's weight is the sum, over those responses, of the
served file gzip-compressed at level 6, as a static host that compresses its
responses sends it (already compressed formats, PNG and WOFF2, barely shrink).

The slider measure throttles the network to 10 Mbit/s down, 5 Mbit/s up and
40 ms latency (Chrome DevTools' network emulation), opens each page with a
live widget, and from the moment the navigation starts tries, every 20 ms, to
change the page's first control (a slider moves one step, a text field gets
another sentence, a drop-down its next option); it stops when the widget's
drawing (its canvases, SVG and readouts) changes in the next animation frame.

``benchmarks/pages_baseline.json`` keeps the numbers of an earlier build
(written by ``--save-baseline``); the tables show them as "before".
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, bookfiles, markdown_for, row, section, skipped, timed, write_json  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SLOW = {"offline": False, "latency": 40, "downloadThroughput": 10e6 / 8, "uploadThroughput": 5e6 / 8}
BASELINE = Path(__file__).resolve().parent / "pages_baseline.json"
PAGE_TARGET_MB = 1.5  # gzipped bytes of a chapter page's first visit
SITE_TARGET_MB = 20.0
ANSWER_TARGET_S = 2.0

# Runs in the page from the start of the navigation: once a live widget has drawn, change its first
# control (a range moves one step, a text field gets another sentence, a drop-down its next option)
# and record (in window.__firstAnswer, ms since navigation start) the first animation frame after
# which the widget's drawing differs from before the input.
FIRST_ANSWER_JS = """
(() => {
  const drawing = (root) => [...root.querySelectorAll("canvas")].map((c) => {
      try { return c.toDataURL(); } catch (e) { return ""; } }).join("|")
    + [...root.querySelectorAll("svg")].map((s) => s.outerHTML).join("|")
    + [...root.querySelectorAll("output, .mlr-description")].map((o) => o.textContent).join("|");
  const SENTENCES = ["a good film with great actors", "a dull film with bad actors"];
  const change = (input) => {
    if (input.type === "range") {
      const step = Number(input.step) || 1, max = Number(input.max), value = Number(input.value);
      input.value = String(value + step <= max ? value + step : value - step);
    } else if (input.tagName === "SELECT") {
      input.selectedIndex = (input.selectedIndex + 1) % input.options.length;
    } else {
      input.value = input.value === SENTENCES[0] ? SENTENCES[1] : SENTENCES[0];
    }
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  };
  const tryOnce = () => {
    const root = document.querySelector(".mlr-live");
    const input = root && root.querySelector(
      "input[type=range], input[type=text], input[type=search], textarea, select");
    if (!input || !root.isConnected) return false;
    const before = drawing(root);
    change(input);
    requestAnimationFrame(() => requestAnimationFrame(() => {
      if (drawing(root) !== before) window.__firstAnswer = performance.now();
    }));
    return true;
  };
  const timer = setInterval(() => {
    if (window.__firstAnswer !== undefined) { clearInterval(timer); return; }
    try { tryOnce(); } catch (e) { /* not ready yet */ }
  }, 20);
})();
"""


def toc_pages(root: Path = ROOT) -> list[str]:
    return bookfiles.toc_pages(root)


def folder_bytes(folder: Path, skip=()) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and p.suffix not in skip)


gzipped_size = bookfiles.gzipped_size
first_visit = bookfiles.first_visit


def first_answer(browser, base: str, page_path: str) -> float | None:
    """Seconds from the start of the navigation until a change of the first control changes the drawing (10 Mbit/s)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(FIRST_ANSWER_JS)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", SLOW)
    page.goto(f"{base}/{page_path}", wait_until="commit", timeout=120_000)
    try:
        page.wait_for_function("() => window.__firstAnswer !== undefined", timeout=60_000)
        value = page.evaluate("() => window.__firstAnswer") / 1000
    except Exception:  # noqa: BLE001 -- no answer within a minute is reported as none
        value = None
    context.close()
    return value


def measure(html_root: Path) -> dict:
    """Raw numbers: site sizes, per-page first-visit weights and first-answer times."""
    from playwright.sync_api import sync_playwright

    pdfs = sum(p.stat().st_size for p in html_root.glob("*.pdf"))
    total = folder_bytes(html_root)
    numbers = {"site_bytes": total, "site_bytes_without_pdf": total - pdfs, "pages": {}, "answer_s": {}}
    pages = [p for p in toc_pages() if (html_root / p).is_file()]
    tmp = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    try:
        site = tmp / "html"
        shutil.copytree(html_root, site)
        with bookfiles.serve(site) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
            for page in pages:
                files = first_visit(browser, site, base, page)
                numbers["pages"][page] = {"gzip_bytes": sum(files.values()), "requests": len(files),
                                          "largest": sorted(files.items(), key=lambda kv: -kv[1])[:3]}
            for page in pages:
                if "widget-view+json" in (html_root / page).read_text(encoding="utf-8"):
                    numbers["answer_s"][page] = first_answer(browser, base, page)
            browser.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return numbers


def _mb(n: int | None) -> str:
    return "—" if n is None else f"{n / 1e6:.2f} MB"


def _s(v: float | None) -> str:
    return "no answer" if v is None else f"{v:.2f} s"


@timed
def run(html_root: Path = ROOT / "_build" / "html", save_baseline: bool = False) -> dict:
    result = {"title": "The built book in the browser", "sections": [], "notes": []}
    if not (html_root / "index.html").is_file() or not CHROMIUM.exists():
        reason = ("no built book at `_build/html` (run `make book`)" if CHROMIUM.exists()
                  else f"{CHROMIUM} is missing (apt-get install chromium)")
        result["sections"].append(skipped("Skipped", reason))
        return result
    numbers = measure(html_root)
    if save_baseline:
        BASELINE.write_text(json.dumps(numbers, indent=1) + "\n", encoding="utf-8")
    before = json.loads(BASELINE.read_text(encoding="utf-8")) if BASELINE.is_file() else None
    was = (lambda text: f" (before: {text})") if before else (lambda text: "")
    result["raw"] = numbers

    site, bare = numbers["site_bytes"], numbers["site_bytes_without_pdf"]
    site_met = bare <= SITE_TARGET_MB * 1e6
    result["sections"].append(section("a. Site size on disk", [
        row("whole site, downloadable PDF included", site, _mb(site) + (was(_mb(before["site_bytes"])) if before else "")),
        row("whole site without the PDF", bare, _mb(bare) + (was(_mb(before["site_bytes_without_pdf"])) if before else ""),
            f"≤ {SITE_TARGET_MB:.0f} MB", site_met, "" if site_met else "see the largest folders of _build/html"),
    ], ["The PDF is written by `make pdf`; a build without it is the second row."]))

    page_rows = []
    for page, m in numbers["pages"].items():
        is_chapter = page.startswith("chapters/")
        met = m["gzip_bytes"] <= PAGE_TARGET_MB * 1e6 if is_chapter else None
        old = before["pages"].get(page, {}).get("gzip_bytes") if before else None
        page_rows.append(row(f"`{page}`", m["gzip_bytes"],
                             f"{_mb(m['gzip_bytes'])} in {m['requests']} files" + (was(_mb(old)) if before else ""),
                             f"≤ {PAGE_TARGET_MB} MB" if is_chapter else "", met,
                             "" if met is not False else "largest: " + ", ".join(f"{p} {_mb(b)}" for p, b in m["largest"])))
    result["sections"].append(section("b. First visit of each page, gzip-compressed", page_rows, [
        "Every file the page requests with an empty cache, scrolled to its end (lazy images included), each counted "
        "as its gzip level-6 compression."]))

    answer_rows = []
    for page, seconds in numbers["answer_s"].items():
        met = seconds is not None and seconds <= ANSWER_TARGET_S
        old = before["answer_s"].get(page) if before else None
        answer_rows.append(row(f"`{page}`", seconds, _s(seconds) + (was(_s(old)) if before else ""),
                               f"≤ {ANSWER_TARGET_S:.0f} s", met, "" if met else "the widget's scripts arrive later"))
    result["sections"].append(section("c. First answer to an input at 10 Mbit/s", answer_rows, [
        "From the start of the navigation until a change of the page's first control (slider, text field or drop-down) "
        "changes the widget's drawing; "
        "10 Mbit/s down, 5 Mbit/s up, 40 ms latency; cache disabled; the local server compresses text as a static "
        "host does (tools/bookfiles.py).",
        "The \"before\" times (the book with require.js and the Jupyter widget manager) were measured with a local "
        "server that did not compress, so they overstate that book's wait; its widget manager alone was 1.13 MB "
        "gzipped, about 0.9 s at 10 Mbit/s before any slider could answer."]))
    return result


to_markdown = markdown_for("Page benchmark", digits=0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--save-baseline", action="store_true",
                        help=f"keep this run's numbers in {BASELINE.name} (the 'before' column)")
    args = parser.parse_args()
    result = run(save_baseline=args.save_baseline)
    print(to_markdown(result))
    print(f"JSON written to {write_json(result, 'pages.json')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
