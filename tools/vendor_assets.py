"""Put the scripts the built book serves itself into assets/vendor/.

    python tools/vendor_assets.py            # copy from node_modules/ (after `npm ci`)
    python tools/vendor_assets.py --cdn OUT  # no npm: write a config that uses CDNs

The book's pages need MathJax 3, require.js and the Jupyter widgets HTML
manager, and the continuous widgets (mlrefined_lib.live) need anywidget's
front end and the library's own widget modules. Those last two come from the
INSTALLED anywidget package (its ``nbextension/index.js``, the AMD module
that the widget manager loads) and from this repository's
``mlrefined_lib/static/``, in both modes, so the page runs the same versions
as the kernel. `_config.yml` points at local copies under `_static/vendor/`, so a
built page loads nothing from outside the machine. Without npm, `--cdn` writes
a copy of `_config.yml` that points at the public CDNs instead (the pages then
need a network connection), and says so loudly.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ROOT / "node_modules"
VENDOR = ROOT / "assets" / "vendor"

# (source under node_modules, destination under assets/vendor)
COPIES = [
    # MathJax: only the component the pages load (tex-chtml.js), the TeX
    # extensions it autoloads for rarer macros, and its web fonts; the rest of
    # the distribution (other combined components, SVG output, speech rule
    # engine, ...) is ~18 MB that no page fetches.
    ("mathjax/es5/tex-chtml.js", "mathjax/tex-chtml.js"),
    ("mathjax/es5/input/tex/extensions", "mathjax/input/tex/extensions"),
    ("mathjax/es5/output/chtml/fonts/woff-v2", "mathjax/output/chtml/fonts/woff-v2"),
    ("requirejs/require.js", "require.js"),
    ("@jupyter-widgets/html-manager/dist/embed-amd.js", "html-manager/embed-amd.js"),
]
# (installed package, or None for this repository; file inside it; destination under assets/vendor)
PACKAGE_COPIES = [
    ("anywidget", "nbextension/index.js", "anywidget/index.js"),
]
# The widget manager's Font Awesome 4 fonts, which its stylesheet asks for.
FONT_PATTERNS = ("*.woff2", "*.woff", "*.ttf")
CDN = {
    "vendor/mathjax/tex-chtml.js": "https://cdn.jsdelivr.net/npm/mathjax@3.2.2/es5/tex-chtml.js",
    "vendor/require.js": "https://cdn.jsdelivr.net/npm/requirejs@2.3.8/require.js",
    "vendor/html-manager/embed-amd.js": "https://cdn.jsdelivr.net/npm/@jupyter-widgets/html-manager@1.0.6/dist/embed-amd.js",
}


def copy_from_node_modules() -> None:
    missing = [src for src, _ in COPIES if not (MODULES / src).exists()]
    if missing:
        sys.exit(f"vendor_assets: missing in node_modules: {', '.join(missing)}. Run `npm ci` first.")
    shutil.rmtree(VENDOR / "mathjax", ignore_errors=True)  # drop files of an older, fuller copy
    for src, dst in COPIES:
        source, target = MODULES / src, VENDOR / dst
        if target.exists():
            shutil.rmtree(target) if target.is_dir() else target.unlink()
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("*.map"))
        else:
            shutil.copy2(source, target)
    fonts = MODULES / "@jupyter-widgets/html-manager/dist"
    for pattern in FONT_PATTERNS:
        for font in fonts.glob(pattern):
            shutil.copy2(font, VENDOR / "html-manager" / font.name)
    print(f"vendor_assets: copied MathJax, require.js and the widget manager into {VENDOR.relative_to(ROOT)}/")


def package_file(package: str, relative: str) -> Path:
    """A file inside an installed Python package (found without importing it)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"vendor_assets: the Python package {package} is not installed (see requirements.txt).")
    path = Path(next(iter(spec.submodule_search_locations))) / relative
    if not path.is_file():
        sys.exit(f"vendor_assets: {path} is missing from the installed {package}.")
    return path


def _load_esm():
    """mlrefined_lib/_esm.py, loaded on its own (it imports nothing else from the library)."""
    spec = importlib.util.spec_from_file_location("_mlrefined_esm", ROOT / "mlrefined_lib" / "_esm.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def copy_from_packages() -> None:
    """Copy anywidget's front end and the library's widget modules into assets/vendor/."""
    for package, relative, dst in PACKAGE_COPIES:
        target = VENDOR / dst
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(package_file(package, relative), target)
    esm = _load_esm()
    (VENDOR / "mlrefined").mkdir(parents=True, exist_ok=True)
    for stale in (VENDOR / "mlrefined").glob("*.js"):
        stale.unlink()
    for name in esm.module_names():
        (VENDOR / "mlrefined" / name).write_text(esm.module_text(name), encoding="utf-8")
    print(f"vendor_assets: copied anywidget's front end and mlrefined_lib/static into {VENDOR.relative_to(ROOT)}/")


def write_cdn_config(out: Path) -> None:
    text = (ROOT / "_config.yml").read_text()
    for local, remote in CDN.items():
        if local not in text:
            sys.exit(f"vendor_assets: _config.yml no longer mentions {local}; update tools/vendor_assets.py.")
        text = text.replace(local, remote)
    # Local helper for the local widget manager only.
    text = text.replace("      widgets-require-config.js: {defer: defer}\n", "")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    bar = "!" * 78
    print(f"{bar}\nnpm was not found: this build loads MathJax, require.js and the widget manager\n"
          f"from public CDNs, so its pages need a network connection. Install Node.js/npm\n"
          f"for an offline book. Config used: {out}\n{bar}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cdn", type=Path, help="write a CDN variant of _config.yml to this path instead")
    args = parser.parse_args()
    if args.cdn:
        write_cdn_config(args.cdn)
    else:
        copy_from_node_modules()
    copy_from_packages()
