"""Put the scripts the built book serves itself into assets/vendor/.

    python tools/vendor_assets.py            # copy from node_modules/ (after `npm ci`)
    python tools/vendor_assets.py --cdn OUT  # no npm: write a config that uses CDNs

The book's pages need MathJax 3 (from npm), and the live widgets
(mlrefined_lib.live) need their front-end modules, which come from this
repository's ``mlrefined_lib/static/`` in both modes (each as
``mlrefined_lib._esm.module_text`` assembles it, the same text the kernel sends
as ``_esm``); ``assets/widget-loader.js`` imports them from
``_static/vendor/mlrefined/``. The theme's Font Awesome script is replaced by
``assets/scripts/fontawesome.js``, written here from the SVGs of the npm package
``@fortawesome/fontawesome-free`` with only the icons the pages use (see
ICONS), and the theme's Bootstrap bundle by ``assets/scripts/bootstrap.js``,
bundled here with esbuild from ``tools/js/bootstrap-lean.js`` (dropdown menus
and tooltips only: the theme's bundle makes every click search the whole page
for nine kinds of controls that no page has). `_config.yml` points at local copies under `_static/vendor/`, so a
built page loads nothing from outside the machine. Without npm, `--cdn` writes
a copy of `_config.yml` that loads MathJax from a public CDN instead (the pages
then need a network connection; the widgets still come from the book), keeps
the committed icon script, and says so loudly.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ROOT / "node_modules"
VENDOR = ROOT / "assets" / "vendor"

# (source under node_modules, destination under assets/vendor)
COPIES = [
    # MathJax: only the component the pages load (tex-chtml.js), the TeX
    # extensions it autoloads for rarer macros (one file each; not the 212 KB
    # bundle of them all, which only a page that asks for it loads), and its web
    # fonts; the rest of the distribution (other combined components, SVG output,
    # speech rule engine, ...) is ~18 MB that no page fetches.
    ("mathjax/es5/tex-chtml.js", "mathjax/tex-chtml.js"),
    ("mathjax/es5/input/tex/extensions", "mathjax/input/tex/extensions"),
    ("mathjax/es5/output/chtml/fonts/woff-v2", "mathjax/output/chtml/fonts/woff-v2"),
]
CDN = {
    "vendor/mathjax/tex-chtml.js": "https://cdn.jsdelivr.net/npm/mathjax@3.2.2/es5/tex-chtml.js",
}
# Copies of older runs that no page loads any more.
STALE = ("require.js", "html-manager", "anywidget")


def copy_from_node_modules() -> None:
    missing = [src for src, _ in COPIES if not (MODULES / src).exists()]
    if missing:
        sys.exit(f"vendor_assets: missing in node_modules: {', '.join(missing)}. Run `npm ci` first.")
    shutil.rmtree(VENDOR / "mathjax", ignore_errors=True)  # drop files of an older, fuller copy
    for stale in STALE:
        target = VENDOR / stale
        if target.exists():
            shutil.rmtree(target) if target.is_dir() else target.unlink()
    for src, dst in COPIES:
        source, target = MODULES / src, VENDOR / dst
        if target.exists():
            shutil.rmtree(target) if target.is_dir() else target.unlink()
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("*.map", "all-packages.js"))
        else:
            shutil.copy2(source, target)
    write_icons()
    write_bootstrap()
    print(f"vendor_assets: copied MathJax into {VENDOR.relative_to(ROOT)}/ and wrote {ICON_SCRIPT.relative_to(ROOT)} "
          f"and {BOOTSTRAP_SCRIPT.relative_to(ROOT)}")


# The Font Awesome icons the pages show: the theme's header, sidebar and buttons
# (tests/book checks that every icon a page names is here). Style -> icon names.
ICONS = {
    "solid": ["angle-left", "angle-right", "arrow-up", "bars", "chevron-down", "circle-half-stroke", "download",
              "expand", "file", "file-pdf", "list", "magnifying-glass", "moon", "outdent", "rocket", "sun",
              "xmark"],
    "brands": ["github"],
}
ICON_SOURCE = MODULES / "@fortawesome/fontawesome-free"
ICON_SCRIPT = ROOT / "assets" / "scripts" / "fontawesome.js"
SVG = re.compile(r'<svg[^>]*viewBox="0 0 (\d+) (\d+)"[^>]*>.*?<path d="([^"]+)"/></svg>', re.S)
ICON_JS = """\
// The theme's icons (<i class="fa-solid fa-...">) drawn as inline SVG: only the
// icons this book's pages use, instead of the theme's 1.5 MB Font Awesome
// script of the same name. Written by tools/vendor_assets.py from the SVGs of
// the npm package @fortawesome/fontawesome-free; do not edit by hand.
(function () {
  var ICONS = %(icons)s;
  var STYLES = { "fa-solid": "solid", fas: "solid", "fa-brands": "brands", fab: "brands" };
  var NS = "http://www.w3.org/2000/svg";
  function draw(icon) {
    if (icon.querySelector("svg")) return;
    var style = "solid", shape = null;
    icon.classList.forEach(function (name) { if (STYLES[name]) style = STYLES[name]; });
    icon.classList.forEach(function (name) {
      if (name.slice(0, 3) === "fa-" && ICONS[style + " " + name.slice(3)]) shape = ICONS[style + " " + name.slice(3)];
    });
    if (!shape) return;
    var svg = document.createElementNS(NS, "svg");
    svg.setAttribute("class", "svg-inline--fa");
    svg.setAttribute("viewBox", "0 0 " + shape[0] + " " + shape[1]);
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    var path = document.createElementNS(NS, "path");
    path.setAttribute("fill", "currentColor");
    path.setAttribute("d", shape[2]);
    svg.appendChild(path);
    icon.appendChild(svg);
  }
  function drawAll(root) {
    if (root.matches && root.matches('i[class*="fa-"]')) draw(root);
    if (root.querySelectorAll) root.querySelectorAll('i[class*="fa-"]').forEach(draw);
  }
  function start() {
    drawAll(document.body);
    new MutationObserver(function (records) {
      records.forEach(function (record) { record.addedNodes.forEach(drawAll); });
    }).observe(document.body, { childList: true, subtree: true });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
"""


def write_icons() -> None:
    """Write assets/scripts/fontawesome.js with the ICONS, from @fortawesome/fontawesome-free's SVGs."""
    shapes, notice = {}, ""
    for style, names in ICONS.items():
        for name in names:
            text = (ICON_SOURCE / "svgs" / style / f"{name}.svg").read_text(encoding="utf-8")
            match = SVG.search(text)
            if match is None:
                sys.exit(f"vendor_assets: cannot read the icon {style}/{name}.svg")
            notice = notice or re.search(r"<!--!(.*?)-->", text, re.S).group(1).strip()
            shapes[f"{style} {name}"] = [int(match.group(1)), int(match.group(2)), match.group(3)]
    ICON_SCRIPT.parent.mkdir(parents=True, exist_ok=True)
    icons = ",\n".join(f"    {json.dumps(key)}: {json.dumps(shapes[key])}" for key in sorted(shapes))
    body = ICON_JS % {"icons": "{\n" + icons + ",\n  }"}
    ICON_SCRIPT.write_text(f"/*! {notice} */\n" + body, encoding="utf-8")


BOOTSTRAP_ENTRY = ROOT / "tools" / "js" / "bootstrap-lean.js"
BOOTSTRAP_SCRIPT = ROOT / "assets" / "scripts" / "bootstrap.js"


def write_bootstrap() -> None:
    """Write assets/scripts/bootstrap.js: tools/js/bootstrap-lean.js bundled by esbuild with the parts of
    Bootstrap (and Popper, which places its menus and tooltips) that it imports."""
    import subprocess

    versions = {name: json.loads((MODULES / name / "package.json").read_text())["version"]
                for name in ("bootstrap", "@popperjs/core")}
    banner = (f"/*! Bootstrap v{versions['bootstrap']} (dropdown and tooltip only), MIT licence, "
              f"https://github.com/twbs/bootstrap/blob/main/LICENSE; Popper v{versions['@popperjs/core']}, "
              "MIT licence, https://github.com/floating-ui/floating-ui/blob/v2.x/LICENSE.md. "
              "Bundled by tools/vendor_assets.py from tools/js/bootstrap-lean.js; do not edit by hand. */")
    BOOTSTRAP_SCRIPT.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(MODULES / ".bin" / "esbuild"), str(BOOTSTRAP_ENTRY), "--bundle", "--minify",
                    "--format=iife", "--target=es2019", "--legal-comments=none", f"--banner:js={banner}",
                    f"--outfile={BOOTSTRAP_SCRIPT}", "--log-level=warning"], check=True, cwd=ROOT)


def _load_esm():
    """mlrefined_lib/_esm.py, loaded on its own (it imports nothing else from the library)."""
    spec = importlib.util.spec_from_file_location("_mlrefined_esm", ROOT / "mlrefined_lib" / "_esm.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def copy_from_packages() -> None:
    """Write the library's widget modules (shared code included) into assets/vendor/mlrefined/."""
    esm = _load_esm()
    (VENDOR / "mlrefined").mkdir(parents=True, exist_ok=True)
    for stale in (VENDOR / "mlrefined").glob("*.js"):
        stale.unlink()
    for name in esm.module_names():
        (VENDOR / "mlrefined" / name).write_text(esm.module_text(name), encoding="utf-8")
    print(f"vendor_assets: wrote the widget modules of mlrefined_lib/static into {VENDOR.relative_to(ROOT)}/mlrefined/")


def write_cdn_config(out: Path) -> None:
    text = (ROOT / "_config.yml").read_text()
    for local, remote in CDN.items():
        if local not in text:
            sys.exit(f"vendor_assets: _config.yml no longer mentions {local}; update tools/vendor_assets.py.")
        text = text.replace(local, remote)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    bar = "!" * 78
    icons = "" if ICON_SCRIPT.is_file() else ("\nThe theme's own Font Awesome script is used: "
                                               f"{ICON_SCRIPT.relative_to(ROOT)} is missing.")
    if not BOOTSTRAP_SCRIPT.is_file():
        icons += f"\nThe theme's full Bootstrap is used: {BOOTSTRAP_SCRIPT.relative_to(ROOT)} is missing."
    print(f"{bar}\nnpm was not found: this build loads MathJax from a public CDN, so its pages\n"
          f"need a network connection (the widgets' modules still come from the book).\n"
          f"Install Node.js/npm for an offline book. Config used: {out}{icons}\n{bar}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cdn", type=Path, help="write a CDN variant of _config.yml to this path instead")
    args = parser.parse_args()
    if args.cdn:
        write_cdn_config(args.cdn)
    else:
        copy_from_node_modules()
    copy_from_packages()
