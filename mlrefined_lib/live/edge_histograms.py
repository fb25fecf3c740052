"""Per-patch edge histograms for any patch and block size, computed by the page (chapter 6).

The reader moves the patch size (in pixels) and the block size (in patches) and
picks one of a few small grey images; the page takes the image's gradient,
bins every pixel's orientation, adds up each patch's histogram, scales each
block of patches to unit length and concatenates the blocks, as
:func:`mlrefined_lib.histograms.local_edge_histograms` does. It draws the patch
grid over the image with each patch's histogram as a star of segments along the
edge directions (as ``figures.histogram_features.patch_histograms``), and the
feature vector with its length.

Python hands over the pixels, exactly (JSON floats read back to the same
doubles), and nothing computed from them: ``EdgeHistograms.features()`` is
``local_edge_histograms`` of the image the page holds.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import traitlets

from .._esm import STATIC, module_text
from .._validation import check_scalar
from ._base import LiveWidget

#: The patch and block widget of chapter 6's images page.
EDGE_HISTOGRAMS_ESM_PATH = STATIC / "edge_histograms.js"
EDGE_HISTOGRAMS_ANYWIDGET_ID = "mlrefined_lib.live.EdgeHistograms"

#: Largest image side the page is handed (the page computes on every pixel at every move).
MAX_SIDE = 96


def largest_block(shape: Sequence[int], patch: int, max_block: int) -> int:
    """The largest block (in patches) that fits ``shape`` cut into ``patch``-pixel patches, at most ``max_block``."""
    return int(min(max_block, min(shape) // patch))


class EdgeHistograms(LiveWidget):
    """Per-patch edge histograms of a small image, for any patch and block size; build it with
    :func:`edge_histograms` (chapter 6). Synced values: ``patch``, ``block`` and ``image`` (the
    index of the image shown)."""

    anywidget_id = EDGE_HISTOGRAMS_ANYWIDGET_ID
    _esm = module_text("edge_histograms.js")
    config = traitlets.Dict().tag(sync=True)
    patch = traitlets.Int(7).tag(sync=True)
    block = traitlets.Int(2).tag(sync=True)
    image = traitlets.Int(0).tag(sync=True)

    def pixels(self, image: int | None = None) -> np.ndarray:
        """The image ``image`` (default: the one shown) as the page holds it, shape (rows, columns)."""
        entry = self.config["images"][self.image if image is None else image]
        return np.array(entry["pixels"], dtype=float).reshape(entry["rows"], entry["columns"])

    def _settings(self, image, patch, block):
        image = self.image if image is None else image
        patch = self.patch if patch is None else patch
        block = self.block if block is None else block
        return image, patch, block

    def features(self, image: int | None = None, patch: int | None = None, block: int | None = None) -> np.ndarray:
        """:func:`mlrefined_lib.histograms.local_edge_histograms` of the image for ``patch`` and ``block``
        (defaults: the current values), with the widget's number of bins."""
        from ..histograms import local_edge_histograms

        image, patch, block = self._settings(image, patch, block)
        return local_edge_histograms(self.pixels(image), patch=patch, block=block, bins=self.config["bins"])

    def patch_totals(self, image: int | None = None, patch: int | None = None) -> np.ndarray:
        """Each patch's unscaled histogram, shape (R, C, bins): the edge maps added up over the patch."""
        from ..histograms import edge_maps

        image, patch, _ = self._settings(image, patch, 1)
        maps = edge_maps(self.pixels(image), bins=self.config["bins"])
        bins, rows, cols = maps.shape
        r, c = rows // patch, cols // patch
        return maps[:, : r * patch, : c * patch].reshape(bins, r, patch, c, patch).sum(axis=(2, 4)).transpose(1, 2, 0)

    def feature_length(self, patch: int | None = None, block: int | None = None) -> int:
        """``(R − block + 1)(C − block + 1) block² bins`` for the current image's shape."""
        _, patch, block = self._settings(None, patch, block)
        entry = self.config["images"][self.image]
        r, c = entry["rows"] // patch, entry["columns"] // patch
        return (r - block + 1) * (c - block + 1) * block**2 * self.config["bins"]

    def description(self) -> str:
        entry = self.config["images"][self.image]
        rows, cols, patch, block = entry["rows"], entry["columns"], self.patch, self.block
        r, c = rows // patch, cols // patch
        unused = rows * cols - r * patch * c * patch
        return (f"{self.config['title']}: {entry['name']} ({rows} × {cols} pixels) cut into {r} × {c} patches of "
                f"{patch} × {patch} pixels{f' ({unused} pixels at the right and bottom unused)' if unused else ''}, "
                f"each patch's edge histogram over {self.config['bins']} orientations drawn as segments along the "
                f"edges; blocks of {block} × {block} patches, each scaled to unit length, give a feature vector of "
                f"{self.feature_length()} numbers, drawn as bars.")

    def to_png(self) -> bytes:
        import matplotlib.pyplot as plt

        from .. import plotting
        from ..figures.histogram_features import _draw_patch_histograms

        entry = self.config["images"][self.image]
        features = self.features()
        fig, (left, right) = plt.subplots(1, 2, figsize=(8.8, 3.9), gridspec_kw={"width_ratios": [1, 1.4]})
        _draw_patch_histograms(left, self.pixels(), self.patch)
        left.set_title(f"{entry['name']}: patches of {self.patch} × {self.patch} pixels", fontsize=10)
        right.bar(np.arange(len(features)), features, width=1.0, color="#4575b4")
        right.set(xlim=(-0.5, len(features) - 0.5), ylim=(0, 1), xlabel="feature index", ylabel="value")
        right.set_title(f"blocks of {self.block} × {self.block} patches: {len(features)} features", fontsize=10)
        fig.tight_layout()
        return plotting.figure_to_png(fig, dpi=72)


def edge_histograms(
    images,
    *,
    patch: int = 7,
    block: int = 2,
    image: int = 0,
    bins: int = 8,
    max_block: int = 3,
    min_patch: int = 2,
    title: str = "Patch and block size: per-patch edge histograms",
) -> EdgeHistograms:
    """Build the patch-and-block widget: the page computes the local edge histograms itself (chapter 6).

    Parameters
    ----------
    images : sequence of (name, image)
        One to six small grey-scale images of one shape (rows, columns), at
        most ``MAX_SIDE`` (96) pixels a side, finite; the reader picks one.
    patch : int
        Initial patch size in pixels, from ``min_patch`` to the image's shorter side.
    block : int
        Initial block size in patches, 1 to ``max_block``; ``patch * block`` must fit the shorter side.
    image : int
        Index of the image shown first.
    bins : int
        Orientation bins over 180°, 2 to 36.
    max_block : int
        Largest block the reader can choose, 1 to 4.
    min_patch : int
        Smallest patch the reader can choose, at least 1.

    Returns
    -------
    EdgeHistograms

    Raises
    ------
    ValueError
        No image or more than six, a name that is not a string, an image that is
        not 2-D, real and finite, images of different shapes or larger than 96
        pixels a side, a patch, block or bin count out of range, or
        ``min_patch * max_block`` (or ``patch * block``) larger than the shorter side.
    """
    try:
        entries = list(images)
    except TypeError:
        raise ValueError(f"images must be a sequence of (name, image) pairs; found {type(images).__name__}.") from None
    if not 1 <= len(entries) <= 6:
        raise ValueError(f"images must hold 1 to 6 (name, image) pairs; found {len(entries)}.")
    arrays, names = [], []
    for i, entry in enumerate(entries):
        if not (isinstance(entry, (tuple, list)) and len(entry) == 2 and isinstance(entry[0], str)):
            raise ValueError(f"images[{i}] must be a pair (name, image) with a string name; found {entry!r:.80}.")
        array = np.asarray(entry[1])
        if array.dtype == bool:
            array = array.astype(float)
        if not (np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)) or array.ndim != 2:
            raise ValueError(f"images[{i}] ({entry[0]!r}) must be a 2-D grey-scale image of real numbers; found "
                             f"shape {array.shape} and dtype {array.dtype}.")
        array = array.astype(float)
        if not np.all(np.isfinite(array)):
            raise ValueError(f"images[{i}] ({entry[0]!r}) holds NaN or inf.")
        if arrays and array.shape != arrays[0].shape:
            raise ValueError(f"every image must have the shape of the first, {arrays[0].shape}; images[{i}] "
                             f"({entry[0]!r}) has shape {array.shape}.")
        arrays.append(array)
        names.append(entry[0])
    shape = arrays[0].shape
    if max(shape) > MAX_SIDE or min(shape) < 2:
        raise ValueError(f"the images must be 2 to {MAX_SIDE} pixels a side (the page computes on every pixel); "
                         f"found shape {shape}.")
    bins = check_scalar(bins, "bins", numbers.Integral, min_val=2, max_val=36)
    max_block = check_scalar(max_block, "max_block", numbers.Integral, min_val=1, max_val=4)
    min_patch = check_scalar(min_patch, "min_patch", numbers.Integral, min_val=1, max_val=min(shape))
    patch = check_scalar(patch, "patch", numbers.Integral, min_val=min_patch, max_val=min(shape))
    if min_patch * max_block > min(shape):
        raise ValueError(f"max_block = {max_block} blocks of min_patch = {min_patch} pixels do not fit an image of "
                         f"shape {shape}: min_patch * max_block must be at most {min(shape)}.")
    block = check_scalar(block, "block", numbers.Integral, min_val=1, max_val=max_block)
    if patch * block > min(shape):
        raise ValueError(f"a block of {block} × {block} patches of {patch} pixels does not fit an image of shape "
                         f"{shape}: patch * block must be at most {min(shape)}.")
    image = check_scalar(image, "image", numbers.Integral, min_val=0, max_val=len(arrays) - 1)
    widget = EdgeHistograms()
    widget.config = {
        "images": [{"name": name, "rows": int(a.shape[0]), "columns": int(a.shape[1]),
                    "pixels": a.ravel().tolist(), "dark_paper": bool(a.mean() < 0.5 * (a.min() + a.max()))}
                   for name, a in zip(names, arrays)],
        "bins": int(bins), "max_block": int(max_block), "min_patch": int(min_patch), "title": str(title),
    }
    widget.patch, widget.block, widget.image = int(patch), int(block), int(image)
    return widget
