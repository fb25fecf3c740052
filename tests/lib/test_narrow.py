"""The narrow layout of multi-panel figures (mlrefined_lib.narrow) and the extension that serves it.

* panels side by side are stacked one under the other, a grid of small
  panels keeps as many columns as fit; colorbars stay with their panel, or
  beside the stack when they served several panels; hidden panels are left out;
* the narrow PNG fits a phone: its smallest text is 8 px or more in the 342 px
  column of a 390 px phone;
* the figure itself is left as it was: drawn again, its PNG is byte for byte
  the one drawn before;
* a figure of one column of panels, or already narrow, gets no narrow layout;
  axes placed by hand are an error, recorded (never raised) in the metadata;
* the IPython formatter returns the usual PNG unchanged, with the narrow one
  in the metadata;
* _ext/narrow_figures.py turns a figure's <img> into a <picture> whose source
  for narrow screens is the narrow PNG, written into _images/.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from mlrefined_lib import narrow  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DPI = 90


def _extension():
    spec = importlib.util.spec_from_file_location("narrow_figures", ROOT / "_ext" / "narrow_figures.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("narrow_figures", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def book_style():
    with plt.rc_context({"figure.dpi": DPI, "font.size": 10}):
        yield
    plt.close("all")


def wide_png(fig) -> bytes:
    """The PNG as the inline backend draws it."""
    buffer = io.BytesIO()
    fig.canvas.print_figure(buffer, format="png", dpi=fig.dpi, facecolor=fig.get_facecolor(),
                            edgecolor=fig.get_edgecolor(), bbox_inches="tight")
    return buffer.getvalue()


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def line_panels(columns=3, rows=1, sharey=False, suptitle=None):
    fig, axes = plt.subplots(rows, columns, figsize=(9.2, 3.3 * rows), sharey=sharey, squeeze=False)
    for i, ax in enumerate(axes.flat):
        ax.plot(np.arange(10), np.arange(10) ** (i % 3 + 1), label="a series")
        ax.set(title=f"Panel {i + 1}", xlabel="step $k$", ylabel="cost")
        ax.legend(fontsize=9)
    if suptitle:
        fig.suptitle(suptitle)
    fig.tight_layout()
    return fig


def image_grid(rows=2, columns=5):
    fig, axes = plt.subplots(rows, columns, figsize=(8.9, 3.6))
    rng = np.random.default_rng(0)
    for i, ax in enumerate(axes.flat):
        ax.imshow(rng.random((8, 8)), cmap="gray")
        ax.set_title(f"digit {i}", fontsize=9)
        ax.axis("off")
    fig.tight_layout()
    return fig


def panel_positions(fig, png):
    """Axes boxes (in figure fractions) of the narrow layout, found by drawing it again."""
    return [ax.get_position().bounds for ax in fig.axes]


def smallest_text_px(fig) -> float:
    from matplotlib.text import Text

    return min(t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()) * DPI / 72


def phone_text_px(fig, png) -> float:
    """The figure's smallest text in CSS pixels when the PNG fills at most the phone's column."""
    width, _ = size(png)
    return smallest_text_px(fig) * min(1.0, narrow.PHONE_COLUMN_PX / width)


@pytest.mark.parametrize("columns", [2, 3, 4])
def test_side_by_side_panels_are_stacked(columns):
    fig = line_panels(columns, suptitle="A title as long as the ones the chapters give their figures")
    before = wide_png(fig)
    png = narrow.narrow_png(fig)
    width, height = size(png)
    assert width <= narrow.NARROW_WIDTH * DPI + 2, width
    assert height > columns * 0.6 * width * 0.9, "each panel keeps a plot's proportions"
    assert phone_text_px(fig, png) >= narrow.MIN_PHONE_TEXT_PX
    assert phone_text_px(fig, before) < narrow.MIN_PHONE_TEXT_PX, "the wide figure was unreadable on a phone"
    assert wide_png(fig) == before, "the figure is left as it was"


def test_stacked_positions_are_one_column_in_order():
    fig = line_panels(2, rows=2)
    saved = narrow._Saved(fig)
    cells, shape, colorbars = narrow._layout(fig)
    assert shape == (2, 2) and len(cells) == 4 and not colorbars
    try:
        narrow._draw_narrow(fig, cells, shape, colorbars, narrow.NARROW_WIDTH)
        boxes = [ax.get_position() for ax in fig.axes]
        lefts = {round(box.x0, 2) for box in boxes}
        assert len(lefts) == 1, f"one column: {lefts}"
        tops = [box.y1 for box in boxes]
        assert tops == sorted(tops, reverse=True), "panels keep their reading order, top to bottom"
        assert all(a.y0 > b.y1 for a, b in zip(boxes, boxes[1:])), "stacked panels do not overlap"
        assert fig.get_figwidth() == pytest.approx(narrow.NARROW_WIDTH)
    finally:
        saved.restore()


def test_shared_axes_show_their_tick_labels_when_stacked():
    fig = line_panels(3, sharey=True)
    right = fig.axes[2]
    assert not right.yaxis.get_tick_params()["labelleft"]
    cells, shape, colorbars = narrow._layout(fig)
    saved = narrow._Saved(fig)
    try:
        narrow._draw_narrow(fig, cells, shape, colorbars, narrow.NARROW_WIDTH)
        assert right.yaxis.get_tick_params()["labelleft"]
    finally:
        saved.restore()
    assert not right.yaxis.get_tick_params()["labelleft"], "restored"


def test_a_grid_of_small_images_keeps_columns():
    fig = image_grid()
    before = wide_png(fig)
    cells, shape, _ = narrow._layout(fig)
    assert narrow._narrow_columns(fig, cells, shape, narrow.NARROW_WIDTH) == 2
    png = narrow.narrow_png(fig)
    width, height = size(png)
    assert width <= narrow.NARROW_WIDTH * DPI + 2 and height > 2 * width
    assert phone_text_px(fig, png) >= narrow.MIN_PHONE_TEXT_PX
    assert wide_png(fig) == before


def test_a_colorbar_stays_with_its_panel():
    fig, axes = plt.subplots(1, 2, figsize=(9.2, 3.5))
    image = axes[0].imshow(np.arange(20.0).reshape(4, 5), cmap="viridis")
    fig.colorbar(image, ax=axes[0], label="value")
    axes[1].plot([0, 1], [1, 0])
    fig.tight_layout()
    cells, shape, shared = narrow._layout(fig)
    assert shape == (1, 2) and [len(cell.axes) for cell in cells] == [2, 1] and not shared
    before = wide_png(fig)
    png = narrow.narrow_png(fig)
    assert phone_text_px(fig, png) >= narrow.MIN_PHONE_TEXT_PX
    assert wide_png(fig) == before


def test_a_colorbar_of_several_panels_goes_beside_the_stack():
    fig, axes = plt.subplots(1, 2, figsize=(9.2, 3.3), sharey=True, squeeze=False)
    for ax in axes[0]:
        mesh = ax.pcolormesh(np.random.default_rng(1).random((10, 20)))
        ax.set(xlabel="time (s)", title="spectrogram")
    fig.colorbar(mesh, ax=axes[0], label="magnitude (dB)")
    cells, shape, shared = narrow._layout(fig)
    assert len(cells) == 2 and len(shared) == 1
    before = wide_png(fig)
    png = narrow.narrow_png(fig)
    assert phone_text_px(fig, png) >= narrow.MIN_PHONE_TEXT_PX
    assert wide_png(fig) == before


def test_a_hidden_panel_is_left_out():
    fig, axes = plt.subplots(2, 2, figsize=(9.2, 7.2))
    for ax in axes.flat[:3]:
        ax.plot([0, 1], [0, 1])
    axes[1, 1].set_visible(False)
    cells, _ = narrow.panel_grid(fig)
    assert len(cells) == 3
    before = wide_png(fig)
    assert narrow.narrow_png(fig) is not None
    assert wide_png(fig) == before


def test_one_column_or_a_narrow_figure_gets_no_narrow_layout():
    fig, ax = plt.subplots(figsize=(8, 4.8))
    ax.plot([0, 1], [0, 1])
    assert narrow.narrow_png(fig) is None
    assert narrow.narrow_metadata(fig) == {"panel_grid": [1, 1]}
    fig, axes = plt.subplots(2, 1, figsize=(8, 6))
    assert narrow.narrow_png(fig) is None
    fig, axes = plt.subplots(1, 2, figsize=(4.4, 2.5))
    for ax in axes:
        ax.plot([0, 1], [0, 1])
    assert narrow.narrow_png(fig) is None


def test_axes_placed_by_hand_are_recorded_not_raised():
    fig = plt.figure(figsize=(9, 3))
    fig.add_axes([0.1, 0.1, 0.3, 0.8]).plot([0, 1])
    fig.add_axes([0.6, 0.1, 0.3, 0.8]).plot([1, 0])
    with pytest.raises(narrow.NarrowLayoutError, match="placed by hand"):
        narrow.panel_grid(fig)
    metadata = narrow.narrow_metadata(fig)
    assert metadata["narrow_error"].startswith("NarrowLayoutError: an axes placed by hand")


def test_metadata_carries_the_narrow_png():
    fig = line_panels(2)
    metadata = narrow.narrow_metadata(fig)
    assert metadata["panel_grid"] == [1, 2]
    png = base64.b64decode(metadata["narrow"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_formatter_keeps_the_usual_png(monkeypatch):
    """enable_narrow_figures wraps the inline backend's formatter: its PNG unchanged, the narrow one beside it."""
    from IPython.core.interactiveshell import InteractiveShell
    from matplotlib.figure import Figure

    shell = InteractiveShell.instance()
    formatter = shell.display_formatter.formatters["image/png"]
    formatter.for_type(Figure, lambda fig: base64.b64encode(wide_png(fig)).decode())
    monkeypatch.setattr("IPython.get_ipython", lambda: shell)
    try:
        assert narrow.enable_narrow_figures() is True
        assert narrow.enable_narrow_figures() is True, "calling it again changes nothing"
        fig = line_panels(2)
        data, metadata = shell.display_formatter.format(fig)
        assert base64.b64decode(data["image/png"]) == wide_png(fig)
        assert set(metadata["image/png"]) == {"panel_grid", "narrow"}
    finally:
        formatter.pop(Figure, None)


def test_outside_ipython_there_is_nothing_to_do(monkeypatch):
    monkeypatch.setattr("IPython.get_ipython", lambda: None)
    assert narrow.enable_narrow_figures() is False


def test_the_extension_serves_the_narrow_png_to_narrow_screens(tmp_path):
    extension = _extension()
    assert extension.NARROW_MEDIA == narrow.NARROW_MEDIA
    fig = line_panels(2)
    wide = wide_png(fig)
    metadata = narrow.narrow_metadata(fig)
    notebook = tmp_path / "page.ipynb"
    import json

    notebook.write_text(json.dumps({"cells": [
        {"cell_type": "code", "outputs": [{"output_type": "display_data", "metadata": {"image/png": metadata},
                                           "data": {"image/png": base64.b64encode(wide).decode()}}]},
        {"cell_type": "code", "outputs": [{"output_type": "display_data", "metadata": {},
                                           "data": {"image/png": base64.b64encode(b"other").decode()}}]},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    versions = extension.narrow_versions(notebook)
    wide_name = hashlib.sha256(wide).hexdigest()
    assert list(versions) == [wide_name]
    other = hashlib.sha256(b"other").hexdigest()
    body = (f'<p>text</p><a class="figure-full" href="../_images/{wide_name}.png" target="_blank" rel="noopener">'
            f'<img alt="Two panels" src="../_images/{wide_name}.png" /></a>'
            f'<img alt="" src="../_images/{other}.png" />')
    images = tmp_path / "_images"
    new, count = extension.add_narrow_sources(body, versions, images)
    narrow_name = hashlib.sha256(base64.b64decode(metadata["narrow"])).hexdigest() + ".png"
    assert count == 1
    assert (f'<a class="figure-full" href="../_images/{wide_name}.png" target="_blank" rel="noopener">'
            f'<picture class="figure-narrow"><source media="{narrow.NARROW_MEDIA}" srcset="../_images/{narrow_name}" />'
            f'<img alt="Two panels" src="../_images/{wide_name}.png" /></picture></a>') in new
    assert f'<img alt="" src="../_images/{other}.png" />' in new, "a figure without a narrow layout is unchanged"
    assert (images / narrow_name).read_bytes() == base64.b64decode(metadata["narrow"])
    again, count = extension.add_narrow_sources(new, versions, images)
    assert again == new and count == 0, "a page is never wrapped twice"
