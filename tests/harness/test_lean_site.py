"""_ext/lean_site.py: figures stored with a palette only when faithful, build data out of downloads."""

from __future__ import annotations

import base64
import io
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from PIL import Image  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "_ext"))
import lean_site  # noqa: E402


def figure_png(**savefig) -> bytes:
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3), dpi=90)
    grid = np.linspace(-3, 3, 200)
    left.contourf(grid, grid, np.add.outer(grid**2, 2 * grid**2), levels=20, cmap="Blues")
    right.plot(grid, np.sin(grid), label="sine")
    right.legend()
    right.set_title("a title with $\\alpha$")
    out = io.BytesIO()
    fig.savefig(out, format="png", **savefig)
    plt.close(fig)
    return out.getvalue()


def pixels(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), dtype=np.int16)


def test_a_matplotlib_figure_gets_smaller_and_stays_faithful():
    original = figure_png()
    reduced = lean_site.palette_png(original)
    assert reduced is not None and len(reduced) < 0.8 * len(original)
    assert Image.open(io.BytesIO(reduced)).mode == "P"
    before, after = pixels(original), pixels(reduced)
    assert before.shape == after.shape
    assert np.abs(before - after).max() <= lean_site.MAX_ERROR
    white = (before == 255).all(axis=2)
    assert white.mean() > 0.3 and (after[white] == 255).all()


def test_transparent_noisy_or_palette_pictures_are_left_alone():
    assert lean_site.palette_png(figure_png(transparent=True)) is None
    noise = np.random.default_rng(0).integers(0, 256, size=(120, 160, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(noise).save(out, "PNG")
    assert lean_site.palette_png(out.getvalue()) is None  # 256 colours cannot hold it within MAX_ERROR
    already = io.BytesIO()
    Image.open(io.BytesIO(figure_png())).convert("RGB").quantize(64).save(already, "PNG")
    assert lean_site.palette_png(already.getvalue()) is None


@pytest.mark.parametrize("narrow", [True, False])
def test_downloads_lose_only_the_narrow_layouts(narrow):
    meta = {"width": 400, "narrow": "iVBORw0KGgo="} if narrow else {"width": 400}
    notebook = {"cells": [
        {"cell_type": "code", "outputs": [{"output_type": "display_data", "data": {"image/png": "AAAA"},
                                           "metadata": {"image/png": dict(meta)}}]},
        {"cell_type": "markdown", "source": "text"},
    ]}
    assert lean_site.without_narrow_layouts(notebook) == int(narrow)
    output = notebook["cells"][0]["outputs"][0]
    assert output["metadata"]["image/png"] == {"width": 400} and output["data"]["image/png"] == "AAAA"


def test_downloads_carry_the_same_faithful_palette_figures():
    figure, noise = figure_png(), io.BytesIO()
    Image.fromarray(np.random.default_rng(1).integers(0, 256, size=(60, 80, 3), dtype=np.uint8)).save(noise, "PNG")
    encoded = [base64.b64encode(data).decode("ascii") for data in (figure, noise.getvalue())]
    notebook = {"cells": [
        {"cell_type": "code", "outputs": [
            {"output_type": "display_data", "data": {"image/png": encoded[0] + "\n", "text/plain": "<Figure>"}},
            {"output_type": "display_data", "data": {"image/png": encoded[1]}},
            {"output_type": "stream", "name": "stdout", "text": "12.3456\n"}]},
        {"cell_type": "markdown", "source": "text"},
    ]}
    assert lean_site.with_palette_figures(notebook) == 1
    first, second, stream = notebook["cells"][0]["outputs"]
    stored = base64.b64decode(first["data"]["image/png"])
    assert stored == lean_site.palette_png(figure) and Image.open(io.BytesIO(stored)).mode == "P"
    assert first["data"]["text/plain"] == "<Figure>"
    assert second["data"]["image/png"] == encoded[1] and stream["text"] == "12.3456\n"
    assert lean_site.with_palette_figures(notebook) == 0  # a palette figure is not reduced twice


def static_app(tmp_path, extension_static):
    """A stand-in for Sphinx's app: the book's `assets/`, an extension's own static folder, and `_static/`."""
    from types import SimpleNamespace

    (tmp_path / "assets" / "scripts").mkdir(parents=True)
    (tmp_path / "assets" / "book.css").write_text("p { color: black; }")
    (tmp_path / "assets" / "scripts" / "a.js").write_text("let a = 1;")
    out = tmp_path / "out" / "_static"
    (out / "scripts").mkdir(parents=True)
    (out / "book.css").write_text("p { color: black; }")
    (out / "scripts" / "a.js").write_text("let a = 1;")
    app = SimpleNamespace(builder=SimpleNamespace(format="html"), outdir=str(tmp_path / "out"), confdir=str(tmp_path),
                          config=SimpleNamespace(html_static_path=["assets", str(extension_static)]))
    env = SimpleNamespace(config=SimpleNamespace(root_doc="intro"))
    return app, env


def test_a_changed_static_file_has_the_landing_page_written_again(tmp_path):
    extension = tmp_path / "extension_static"
    extension.mkdir()
    (extension / "copybutton.js_t").write_text("a template the extension renders")  # never copied as is
    app, env = static_app(tmp_path, extension)
    assert lean_site._static_changed(app, env, set(), set(), set()) == []
    script = tmp_path / "assets" / "scripts" / "a.js"
    script.write_text("let a = 2;")
    assert lean_site._static_changed(app, env, set(), set(), set()) == ["intro"]
    assert lean_site._static_changed(app, env, set(), {"intro"}, set()) == []  # already being written
    script.write_text("let a = 1;")  # newer, but the same as its copy
    assert lean_site._static_changed(app, env, set(), set(), set()) == []
    (tmp_path / "assets" / "new.css").write_text("a { }")  # not copied yet
    assert lean_site._static_changed(app, env, set(), set(), set()) == ["intro"]
