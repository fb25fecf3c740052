"""Sliders that work in the static HTML book and live in Jupyter (chapter 1 onwards).

A reader of the built book has no Python kernel, so a teaching slider renders
all of its frames up front. :func:`frames_slider` turns a function
``value -> matplotlib Figure`` and a list of values into a widget: a
``SelectionSlider`` (its readout shows the value) whose ``index`` is linked in
the browser (``jslink``) to the ``selected_index`` of a ``Stack`` of ``Image``
frames. Moving the slider switches frames without any Python, so the same
widget works in Jupyter and in the embedded widget state of the built page.

In a live notebook, running a cell again closes the sliders that the cell's
previous run built (their frames, stack, links and layouts too), so re-runs
do not pile up widgets in the kernel and the browser. The bookkeeping lives
on the IPython shell (cells are told apart by the cell id the front end
sends); outside IPython, or without cell ids, nothing is tracked.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

import ipywidgets as widgets
from PIL import Image as PILImage

from .live import QuadraticDescent, quadratic_descent  # the continuous widget (chapters 1, 7, 9), re-exported
from .plotting import figure_to_png  # re-exported: it lived here first

__all__ = ["figure_to_png", "frames_slider", "FrameSlider", "quadratic_descent", "QuadraticDescent"]


class FrameSlider(widgets.VBox):
    """A slider over precomputed frames; build it with :func:`frames_slider`.

    Attributes
    ----------
    slider : ipywidgets.SelectionSlider
    stack : ipywidgets.Stack
        Its ``selected_index`` follows ``slider.index`` in the browser.
    images : list of ipywidgets.Image
    values : list
    """

    def __init__(self, slider, stack, images, values, play=None, links=(), **kwargs):
        controls = widgets.HBox([play, slider]) if play is not None else slider
        super().__init__(children=[controls, stack], **kwargs)
        self.slider, self.stack, self.images, self.values, self.play = slider, stack, images, list(values), play
        self._links = list(links)  # keep the links alive with the widget

    def close(self) -> None:
        """Close this slider and every widget it owns: links, frames, stack, slider, play button, layouts."""
        owned = [*getattr(self, "_links", []), *getattr(self, "images", [])]
        owned += [getattr(self, name, None) for name in ("stack", "slider", "play")]
        owned += [child for child in self.children if child not in owned]
        for widget in owned:
            _close_with_layout(widget)
        super().close()
        _close_with_layout(self, include_self=False)

    def __repr__(self) -> str:
        return (
            f"FrameSlider(description={self.slider.description!r}, frames={len(self.images)}, "
            f"first={self.slider.options[0]!r}, last={self.slider.options[-1]!r})"
        )


def _close_with_layout(widget, *, include_self: bool = True) -> None:
    """Close a widget and the Layout and Style models that it alone uses."""
    if widget is None:
        return
    for name in ("layout", "style"):
        part = getattr(widget, name, None) if widget.has_trait(name) else None
        if isinstance(part, widgets.Widget):
            part.close()
    if include_self:
        widget.close()


class _CellSliders:
    """Which sliders each notebook cell built; kept on the IPython shell.

    ``pre_run_cell`` closes the sliders of the cell about to run again;
    ``post_run_cell`` files the sliders built during a run under that cell's id.
    """

    def __init__(self):
        self.by_cell: dict[str, list[FrameSlider]] = {}
        self.running: list[FrameSlider] = []

    def pre_run_cell(self, info) -> None:
        self.running = []
        cell_id = getattr(info, "cell_id", None)
        if cell_id is None:
            return
        for old in self.by_cell.pop(cell_id, []):
            old.close()

    def post_run_cell(self, result) -> None:
        cell_id = getattr(getattr(result, "info", None), "cell_id", None)
        if cell_id is not None and self.running:
            self.by_cell.setdefault(cell_id, []).extend(self.running)
        self.running = []


_SHELL_ATTRIBUTE = "_mlrefined_cell_sliders"


def _remember_in_cell(frame_slider: FrameSlider) -> None:
    """Note that the running cell built ``frame_slider`` (no effect outside IPython)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - ipywidgets depends on IPython
        return
    shell = get_ipython()
    if shell is None or not hasattr(shell, "events"):
        return
    registry = getattr(shell, _SHELL_ATTRIBUTE, None)
    if registry is None:
        registry = _CellSliders()
        shell.events.register("pre_run_cell", registry.pre_run_cell)
        shell.events.register("post_run_cell", registry.post_run_cell)
        setattr(shell, _SHELL_ATTRIBUTE, registry)
    registry.running.append(frame_slider)


def frames_slider(
    make_figure: Callable,
    values: Sequence,
    *,
    description: str = "value",
    readout: Callable[[object], str] = "{:.3g}".format,
    initial: int = 0,
    play: bool = False,
    interval_ms: int = 250,
    dpi: int = 80,
    colors: int = 64,
) -> FrameSlider:
    """Build a slider that switches between precomputed figures.

    Parameters
    ----------
    make_figure : callable
        ``make_figure(value)`` returns a matplotlib Figure for one frame. Keep
        its axes limits and contour levels fixed across values so the reader
        compares shapes, not rescalings.
    values : sequence
        The slider's values, in order (at least 2).
    description : str
        Plain-text label (no LaTeX: the static page cannot typeset it).
    readout : callable
        Formats a value for the slider's readout.
    initial : int
        Index of the frame shown first.
    play : bool
        Add a play button that steps through the frames.
    interval_ms : int
        Time between frames when playing.
    dpi, colors : int
        Resolution and palette size of each frame (see :func:`~mlrefined_lib.plotting.figure_to_png`).

    Returns
    -------
    FrameSlider
    """
    values = list(values)
    if len(values) < 2:
        raise ValueError(f"a slider needs at least 2 values; found {len(values)}.")
    if not 0 <= initial < len(values):
        raise ValueError(f"initial must be an index in [0, {len(values) - 1}]; found {initial}.")
    labels = [readout(v) for v in values]
    if len(set(labels)) != len(labels):
        raise ValueError("two values have the same readout; give `readout` more digits.")
    images = []
    for value in values:
        fig = make_figure(value)
        if fig is None or not hasattr(fig, "savefig"):
            raise TypeError(f"make_figure({value!r}) must return a matplotlib Figure; found {type(fig).__name__}.")
        png = figure_to_png(fig, dpi=dpi, colors=colors)
        width, height = PILImage.open(io.BytesIO(png)).size
        images.append(widgets.Image(value=png, format="png", width=width, height=height))
    slider = widgets.SelectionSlider(
        options=labels,
        index=initial,
        description=description,
        continuous_update=True,
        readout=True,
        layout=widgets.Layout(width="640px", max_width="100%"),
        style={"description_width": "initial"},
    )
    stack = widgets.Stack(images, selected_index=initial)
    links = [widgets.jslink((slider, "index"), (stack, "selected_index"))]
    player = None
    if play:
        player = widgets.Play(value=initial, min=0, max=len(values) - 1, step=1, interval=interval_ms, description="play")
        links.append(widgets.jslink((player, "value"), (slider, "index")))
    result = FrameSlider(slider, stack, images, values, play=player, links=links)
    _remember_in_cell(result)
    return result
