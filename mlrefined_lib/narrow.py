"""Figures on a phone: a narrow layout of every multi-panel figure.

A figure of two to four panels side by side is about 9 inches wide; shown in
the 342 px text column of a 390 px phone, its 9-point text (11.25 px at the
book's 90 dpi) shrinks to 4-5 px. :func:`enable_narrow_figures`, called once
in a notebook's setup cell, makes every figure that a cell shows carry a
second picture: the same figure redrawn with its panels stacked (side-by-side
panels one under the other, a grid of small images in two or three columns)
at :data:`NARROW_WIDTH` inches, where its text stays at 8 px or more on such a
phone. The usual PNG is unchanged (the formatter that draws it is the same);
the narrow one goes into the output's metadata (``"narrow"`` under
``"image/png"``, base64), which Jupyter ignores and the HTML book serves to
narrow screens (``_ext/narrow_figures.py``).

Every figure output also records its grid of panels (``"panel_grid"``: rows
and columns), and a figure whose narrow layout could not be drawn records why
(``"narrow_error"``), so that the book's tests name every multi-panel figure
without a narrow version (``tests/harness/test_narrow_figures.py``). The
formatter itself never prints, warns or fails a cell.
"""

from __future__ import annotations

import base64
import io
import math
import warnings
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "NARROW_MEDIA",
    "NARROW_WIDTH",
    "PHONE_COLUMN_PX",
    "enable_narrow_figures",
    "narrow_metadata",
    "narrow_png",
    "panel_grid",
]

#: Width of the narrow layout, in inches (405 px at 90 dpi): shown in a 342 px
#: column, 9-point text is 9.5 px tall.
NARROW_WIDTH = 4.5
#: The text column of a 390 px phone, in CSS pixels.
PHONE_COLUMN_PX = 342
#: The smallest text of a figure on a phone, in CSS pixels.
MIN_PHONE_TEXT_PX = 8.0
#: The screens that get the narrow layout (assets/book.css uses the same width).
NARROW_MEDIA = "screen and (max-width: 700px)"
# A slot of a stretched line plot is at most this tall for its width (or as
# tall as it was).
_MAX_PLOT_ASPECT = 0.7


class NarrowLayoutError(ValueError):
    """A figure whose panels cannot be stacked (say, axes placed by hand)."""


@dataclass
class Cell:
    """One slot of a figure's grid and the axes drawn in it (a plot and its colorbar, a twin)."""

    subplotspec: object
    row: int
    column: int
    rows: int
    columns: int
    axes: list = field(default_factory=list)


def _shown_axes(fig):
    """Axes that show something: an empty axes with its frame off is an unused slot."""
    return [ax for ax in fig.axes
            if ax.get_visible() and (ax.axison or ax.has_data() or ax.texts or ax.images or ax.get_title())]


def _is_colorbar(ax) -> bool:
    return getattr(ax, "_colorbar", None) is not None


def _layout(fig):
    """The occupied slots of the figure's grid, the grid's shape, and colorbars placed beside several panels."""
    cells: dict[tuple, Cell] = {}
    shared_colorbars = []
    grid = None
    for ax in _shown_axes(fig):
        spec = ax.get_subplotspec()
        if spec is None:
            if _is_colorbar(ax) and ax._colorbar.orientation == "vertical":
                shared_colorbars.append(ax)
                continue
            raise NarrowLayoutError(f"an axes placed by hand at {np.round(ax.get_position().bounds, 2).tolist()}")
        top = spec.get_topmost_subplotspec()
        if grid is None:
            grid = top.get_gridspec()
        elif top.get_gridspec() is not grid:
            raise NarrowLayoutError("axes on more than one grid")
        rows, columns = top.rowspan, top.colspan
        key = (rows.start, columns.start, rows.stop, columns.stop)
        cell = cells.setdefault(key, Cell(top, rows.start, columns.start, len(rows), len(columns)))
        cell.axes.append(ax)
    if grid is None:
        return [], (0, 0), shared_colorbars
    return [cells[key] for key in sorted(cells)], grid.get_geometry(), shared_colorbars


def panel_grid(fig):
    """The grid of a figure's panels.

    Parameters
    ----------
    fig : matplotlib.figure.Figure

    Returns
    -------
    cells : list of Cell
        The occupied slots of the figure's top-level grid, row by row, each
        with its axes (colorbars and twin axes stay with their panel; a
        colorbar beside several panels belongs to none).
    shape : tuple of int
        Rows and columns of that grid.

    Raises
    ------
    NarrowLayoutError
        If an axes other than a colorbar is not placed on a grid, or the axes
        use several grids.
    """
    cells, shape, _ = _layout(fig)
    return cells, shape


def _narrow_columns(fig, cells, shape, width):
    """How many columns the narrow layout keeps: no panel gets narrower than it was."""
    if any(cell.columns > 1 for cell in cells):
        return 1
    used = len({cell.column for cell in cells})
    panel_width = fig.get_figwidth() / shape[1]
    return max(1, min(used, math.floor(width / panel_width + 1e-9)))


def _fixed_aspect(cell):
    return any(ax.get_aspect() != "auto" for ax in cell.axes)


def _slot_height(fig, cell, shape, new_width):
    """Height of a panel's slot in the narrow layout, in inches."""
    old_width = fig.get_figwidth() * cell.columns / shape[1]
    old_height = fig.get_figheight() * cell.rows / shape[0]
    scaled = old_height * new_width / old_width
    if _fixed_aspect(cell):
        return scaled
    return min(scaled, max(old_height, _MAX_PLOT_ASPECT * new_width))


def _titles(fig):
    """Titles and axis labels, which wrap in the narrow layout instead of widening it."""
    texts = [fig._suptitle] if fig._suptitle is not None else []
    for ax in fig.axes:
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label]
    return texts


class _Saved:
    """What the re-layout changes, to put it back exactly as it was."""

    def __init__(self, fig):
        self.fig = fig
        self.size = fig.get_size_inches().copy()
        self.engine = fig.get_layout_engine()
        self.params = {name: getattr(fig.subplotpars, name)
                       for name in ("left", "right", "bottom", "top", "wspace", "hspace")}
        self.axes = [(ax, ax.get_subplotspec(), ax.get_position(original=True).frozen(),
                      ax.get_position(original=False).frozen(), ax.get_visible(), ax.get_in_layout(),
                      ax.xaxis.get_tick_params(which="major"), ax.yaxis.get_tick_params(which="major"))
                     for ax in fig.axes]
        self.wraps = [(text, text.get_wrap()) for text in _titles(fig)]
        # Grids nested in a slot (a colorbar's): the slot they sit in.
        self.nested = {}
        for ax in fig.axes:
            spec = ax.get_subplotspec()
            grid = spec.get_gridspec() if spec is not None else None
            while grid is not None and hasattr(grid, "_subplot_spec"):
                self.nested[id(grid)] = (grid, grid._subplot_spec)
                grid = grid._subplot_spec.get_gridspec()

    def restore(self):
        fig = self.fig
        for grid, spec in self.nested.values():
            grid._subplot_spec = spec
        for ax, spec, original, active, visible, in_layout, xticks, yticks in self.axes:
            if spec is not None:
                ax.set_subplotspec(spec)
            else:
                ax._subplotspec = None
            ax._set_position(original, which="original")
            ax._set_position(active, which="active")
            ax.set_visible(visible)
            ax.set_in_layout(in_layout)
            for axis, ticks in ((ax.xaxis, xticks), (ax.yaxis, yticks)):
                labels = {key: value for key, value in ticks.items()
                          if key.startswith("label") and isinstance(value, bool)}
                if labels:
                    axis.set_tick_params(which="major", **labels)
        for text, wrap in self.wraps:
            text.set_wrap(wrap)
        fig.subplotpars.update(**self.params)
        fig.set_size_inches(self.size, forward=False)
        fig._layout_engine = self.engine


def _show_shared_tick_labels(fig):
    """Stacked panels that shared an axis side by side show their own tick labels."""
    for ax in fig.axes:
        if len(ax.get_shared_y_axes().get_siblings(ax)) > 1:
            ax.yaxis.set_tick_params(which="major", labelleft=True)
        if len(ax.get_shared_x_axes().get_siblings(ax)) > 1:
            ax.xaxis.set_tick_params(which="major", labelbottom=True)


def _print_png(fig) -> bytes:
    """The figure as the inline backend draws it, in at most 256 colours (a third of the bytes)."""
    from PIL import Image

    buffer = io.BytesIO()
    fig.canvas.print_figure(buffer, format="png", dpi=fig.dpi, facecolor=fig.get_facecolor(),
                            edgecolor=fig.get_edgecolor(), bbox_inches="tight")
    image = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")
    small = io.BytesIO()
    image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(small, "PNG", optimize=True)
    return small.getvalue()


def _png_width(png: bytes) -> int:
    return int.from_bytes(png[16:20], "big")


def _draw_narrow(fig, cells, shape, colorbars, width):
    import matplotlib.gridspec as gridspec

    columns = _narrow_columns(fig, cells, shape, width)
    rows = math.ceil(len(cells) / columns)
    slot_width = width / columns
    heights = [max(_slot_height(fig, cell, shape, slot_width) for cell in cells[r * columns:(r + 1) * columns])
               for r in range(rows)]
    extra = 0.35 if fig._suptitle is not None and fig._suptitle.get_text() else 0.0
    fig.set_size_inches(width, sum(heights) + extra, forward=False)
    for text in _titles(fig):
        text.set_wrap(True)
    ratios = [1.0] * columns + ([0.05 * columns] if colorbars else [])
    grid = gridspec.GridSpec(rows, len(ratios), figure=fig, height_ratios=heights, width_ratios=ratios)
    shown = {id(ax) for cell in cells for ax in cell.axes} | {id(ax) for ax in colorbars}
    for ax in fig.axes:
        if id(ax) not in shown:
            ax.set_visible(False)
            ax.set_in_layout(False)
            if ax.get_subplotspec() is not None:
                ax.set_subplotspec(grid[0, 0])  # on the new grid, as tight_layout asks
    top = cells[0].subplotspec.get_gridspec()
    moves = []  # (axes, its spec, the grid nested in its slot or None, the new slot)
    for index, cell in enumerate(cells):
        slot = grid[index // columns, index % columns]
        for ax in cell.axes:
            spec = ax.get_subplotspec()
            nested = None if spec.get_gridspec() is top else spec.get_gridspec()
            while nested is not None and nested._subplot_spec.get_gridspec() is not top:
                nested = nested._subplot_spec.get_gridspec()
            moves.append((ax, spec, nested, slot))
    for ax, spec, nested, slot in moves:
        if nested is None:
            ax.set_subplotspec(slot)
        else:
            nested._subplot_spec = slot
    for ax, spec, nested, slot in moves:
        if nested is not None:
            ax.set_subplotspec(spec)
    for ax in colorbars:
        ax.set_subplotspec(grid[:, -1])
    _show_shared_tick_labels(fig)
    engine = fig.get_layout_engine()
    if engine is None or engine.adjust_compatible:
        top = 1.0
        if extra:
            # Room for the wrapped title: tight_layout reserves one line.
            lines = fig._suptitle._get_wrapped_text().count("\n") + 1
            top = 1 - (0.15 + 0.2 * lines) / fig.get_figheight()
        fig.tight_layout(rect=(0, 0, 1, top))
    return _print_png(fig)


def narrow_png(fig, width=NARROW_WIDTH):
    """The figure redrawn with its panels stacked, as PNG bytes; the figure is left as it was.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    width : float
        Width of the narrow layout in inches.

    Returns
    -------
    bytes or None
        The PNG (at the figure's dpi, in at most 256 colours), or None when the
        figure needs no narrow layout: one column of panels, or no wider than
        ``width``.

    Raises
    ------
    NarrowLayoutError
        If the panels are not on one grid, or the narrow layout would still
        be too wide for a phone's text to stay at 8 px, or matplotlib warned
        while drawing it.
    """
    cells, shape, colorbars = _layout(fig)
    if shape[1] < 2 or len({cell.column for cell in cells}) < 2 or fig.get_figwidth() <= width:
        return None
    saved = _Saved(fig)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            limit = PHONE_COLUMN_PX * _smallest_text_px(fig) / MIN_PHONE_TEXT_PX
            png = _draw_narrow(fig, cells, shape, colorbars, width)
            if _png_width(png) > limit:
                # A legend or label outside the panels: narrower panels make room for it.
                saved.restore()
                png = _draw_narrow(fig, cells, shape, colorbars, width * limit / _png_width(png) * 0.98)
                if _png_width(png) > limit:
                    raise NarrowLayoutError(f"the narrow layout is {_png_width(png)} px wide (at most {limit:.0f})")
        if caught:
            raise NarrowLayoutError("; ".join(str(w.message) for w in caught))
    finally:
        saved.restore()
    return png


def _smallest_text_px(fig) -> float:
    from matplotlib.text import Text

    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    return min(sizes, default=10.0) * fig.dpi / 72


def narrow_metadata(fig) -> dict:
    """The metadata of a figure's PNG output: its grid, and its narrow layout or why there is none.

    Never raises: a failure is recorded as ``"narrow_error"``.
    """
    try:
        cells, shape = panel_grid(fig)
        metadata = {"panel_grid": list(shape)}
        png = narrow_png(fig)
    except Exception as error:  # recorded in the output, and the tests fail on it
        return {"narrow_error": f"{type(error).__name__}: {error}"}
    if png is not None:
        metadata["narrow"] = base64.b64encode(png).decode("ascii")
    return metadata


def enable_narrow_figures():
    """Give every figure that a cell shows a narrow layout for phones (see the module's docstring).

    Call it once, in a notebook's setup cell, after ``import matplotlib.pyplot``.
    Outside IPython, or with a matplotlib backend that draws no PNG (an
    interactive one), there is nothing to do.

    Returns
    -------
    bool
        Whether figures now carry a narrow layout.
    """
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    if shell is None or not hasattr(shell, "display_formatter"):
        return False
    import matplotlib
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    formatter = shell.display_formatter.formatters["image/png"]
    if Figure not in formatter.type_printers:
        # The inline backend registers its PNG formatter when pyplot first uses it.
        plt.switch_backend(matplotlib.get_backend())
    wide = formatter.type_printers.get(Figure)
    if wide is None:
        return False
    if getattr(wide, "narrow_figures", False):
        return True

    def png_with_narrow_layout(fig):
        data = wide(fig)
        if data is None:
            return None
        return data, narrow_metadata(fig)

    png_with_narrow_layout.narrow_figures = True
    formatter.for_type(Figure, png_with_narrow_layout)
    return True
