"""Figures of chapter 6, histogram features: categories, text, images, audio.

Each function draws one figure of the chapter's four pages and returns the
matplotlib ``Figure`` (it never calls ``plt.show()``). The computations stay
in the notebooks and in :mod:`mlrefined_lib.histograms`; these functions only
draw what they are given, except :func:`window_frame`, which computes the one
spectrogram it draws (a slider frame).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import LineCollection

from ..histograms import edge_maps, spectrogram

__all__ = [
    "distance_matrices",
    "group_predictions",
    "similarity_matrix",
    "training_curves",
    "extreme_weights",
    "edge_histogram_bars",
    "edge_map_grid",
    "patch_histograms",
    "training_histories",
    "digit_grid",
    "tones_and_sum",
    "spectrum_peaks",
    "spectrogram_panel",
    "chirp_spectrogram",
    "window_comparison",
    "window_frame",
    "word_spectrograms",
    "word_similarity",
    "band_spectrograms",
    "fold_accuracies",
]


def _annotated_matrix(ax, values, *, cmap, vmin, vmax, threshold, fontsize=10):
    """Draw ``values`` as an image with each entry written in its cell."""
    image = ax.imshow(values, cmap=cmap, vmin=vmin, vmax=vmax)
    for i, row in enumerate(values):
        for j, value in enumerate(row):
            ax.text(
                j, i, f"{value:.2f}", ha="center", va="center", fontsize=fontsize,
                color="white" if value > threshold else "black",
            )
    return image


# ------------------------------------------------------------ categories


def distance_matrices(number_distances, one_hot_distances, categories, number_title):
    """Two annotated heatmaps: distances between numeric codes, and between one-hot rows (chapter 6).

    Parameters
    ----------
    number_distances, one_hot_distances : arrays of shape (K, K)
    categories : sequence of K str
        Tick labels of both axes.
    number_title : str
        Title of the left panel (the codes used).
    """
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
    k = len(categories)
    for ax, distances, title in [
        (axes[0], np.asarray(number_distances), number_title),
        (axes[1], np.asarray(one_hot_distances), "One-hot"),
    ]:
        image = _annotated_matrix(ax, distances, cmap="Blues", vmin=0, vmax=3, threshold=1.8)
        ax.set_xticks(range(k), categories)
        ax.set_yticks(range(k), categories)
        ax.set_title(title)
    fig.colorbar(image, ax=axes, label="Euclidean distance between encodings", shrink=0.9)
    fig.suptitle("Pairwise distances between the four blood types")
    return fig


def group_predictions(positions, y, predictions: Mapping[str, Sequence[float]], categories):
    """Jittered points per category and one line of predictions per encoding (chapter 6).

    Parameters
    ----------
    positions : array of shape (P,)
        Horizontal position of each point (its category's index plus jitter).
    y : array of shape (P,)
    predictions : mapping from encoding name to K predicted values, one per category
        Up to three encodings, drawn with distinct line styles and markers.
    categories : sequence of K str
    """
    fig, ax = plt.subplots(figsize=(7, 3.8))
    ax.scatter(positions, y, s=10, color="0.6", label="synthetic people")
    styles = [("-", "o", "#d7191c"), ("--", "s", "#fdae61"), (":", "D", "#2c7bb6")]
    for (name, values), (line, marker, colour) in zip(predictions.items(), styles):
        ax.plot(range(len(categories)), list(values), line, marker=marker, color=colour,
                lw=2, ms=7, label=name)
    ax.set_xticks(range(len(categories)), categories)
    ax.set(xlabel="blood type", ylabel="y (synthetic)", title="Least-squares predictions per blood type")
    ax.legend(fontsize=9, loc="lower right")  # the corner below AB holds no points
    return fig


# ------------------------------------------------------------------ text


def similarity_matrix(similarity, sentences):
    """Annotated heatmap of the inner products of unit bag-of-words rows (chapter 6).

    Parameters
    ----------
    similarity : array of shape (S, S), entries in [0, 1]
    sentences : sequence of S str
        Row labels ("1: text", ...); columns are numbered 1 … S.
    """
    similarity = np.asarray(similarity)
    count = len(sentences)
    fig, ax = plt.subplots(figsize=(7.2, 4.6))
    image = _annotated_matrix(ax, similarity, cmap="Blues", vmin=0, vmax=1, threshold=0.6, fontsize=9)
    ax.set_xticks(range(count), [str(i + 1) for i in range(count)])
    ax.set_yticks(range(count), [f"{i + 1}: {s}" for i, s in enumerate(sentences)])
    ax.set_xlabel("sentence")
    ax.set_title("Inner products of unit bag-of-words vectors")
    fig.colorbar(image, ax=ax, label="inner product (cosine)")
    fig.tight_layout()
    return fig


def training_curves(curves: Mapping[str, tuple], sizes: Mapping[str, int], title):
    """Cost and misclassification rate per epoch, one line per split (chapter 6).

    Parameters
    ----------
    curves : mapping from split name to ``(costs, errors)``
        Arrays of shape (epochs + 1,); errors are counts of misclassified points.
    sizes : mapping from split name to its number of points
        The errors are drawn as percentages of it.
    title : str
    """
    fig, axes = plt.subplots(1, 2, figsize=(9.2, 3.3))
    for (split, (costs, errors)), style in zip(curves.items(), ["-", "--", "-.", ":"]):
        axes[0].plot(costs, style, lw=2, label=f"{split} reviews")
        axes[1].plot(100 * np.asarray(errors) / sizes[split], style, lw=2, label=f"{split} reviews")
    axes[0].set_ylabel("softmax cost")
    axes[0].set_title("Cost")
    axes[1].set_ylabel("misclassified reviews (%)")
    axes[1].set_title("Misclassifications")
    for ax in axes:
        ax.set_xlabel("epoch")
        ax.legend(fontsize=9)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def extreme_weights(weights, names, count=12):
    """Bars of the ``count`` most negative and most positive weights, with their names (chapter 6).

    Parameters
    ----------
    weights : array of shape (V,)
        One weight per feature (no bias).
    names : sequence of V str
    count : int
    """
    weights = np.asarray(weights)
    order = np.argsort(weights)
    fig, axes = plt.subplots(1, 2, figsize=(9.2, 3.5))
    for ax, chosen, colour, title in [
        (axes[0], order[:count], "#d73027", f"{count} most negative weights"),
        (axes[1], order[::-1][:count], "#4575b4", f"{count} most positive weights"),
    ]:
        ax.barh(range(count), weights[chosen], color=colour)
        ax.set_yticks(range(count), [names[v] for v in chosen])
        ax.invert_yaxis()
        ax.axvline(0, color="k", lw=0.8)
        ax.set_xlabel("weight")
        ax.set_title(title)
    axes[0].set_ylabel("stem")
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- images


def edge_histogram_bars(histograms: Mapping[str, Sequence[float]], colors=("#4575b4", "#313695", "#d73027")):
    """One bar chart of an edge histogram per image, bins labelled by gradient angle (chapter 6).

    Parameters
    ----------
    histograms : mapping from image name to a histogram of B bins
        Bin k is centred on k · 180/B degrees.
    colors : sequence of colours, one per histogram
    """
    count = len(histograms)
    fig, axes = plt.subplots(1, count, figsize=(9.2, 2.9), sharey=True, squeeze=False)
    for ax, (name, histogram), color in zip(axes[0], histograms.items(), colors):
        centres = np.arange(len(histogram)) * 180 / len(histogram)
        ax.bar(centres, histogram, width=0.8 * 180 / len(histogram), color=color, edgecolor="k", linewidth=0.5)
        ax.set_xticks(centres, [f"{c:g}°" for c in centres], rotation=45, fontsize=9)
        ax.set_title(name)
        ax.set_xlabel("gradient orientation (bin centre);\nthe edge runs at +90°")
    axes[0, 0].set_ylabel("edge strength (unit-length histogram)")
    fig.suptitle(f"Edge histograms: {len(histogram)} orientation bins")
    fig.tight_layout()
    return fig


def edge_map_grid(image, maps, name="a handwritten 2"):
    """An image, its 8 edge maps (one per orientation bin) and their sum (chapter 6).

    Parameters
    ----------
    image : array of shape (H, W)
    maps : array of shape (8, H, W)
        From :func:`mlrefined_lib.histograms.edge_maps`.
    name : str
        What the image shows, for the title.
    """
    maps = np.asarray(maps)
    fig, axes = plt.subplots(2, 5, figsize=(9.2, 4.6))
    axes[0, 0].imshow(image, cmap="gray_r")
    axes[0, 0].set_title("the digit")
    for k, ax in enumerate(axes.ravel()[1:9]):
        ax.imshow(maps[k], cmap="magma", vmin=0, vmax=maps.max())
        ax.set_title(f"bin {k}\n{22.5 * k:g}° ± 11.25°", fontsize=9)
    shown = axes[1, 4].imshow(maps.sum(axis=0), cmap="magma", vmin=0, vmax=maps.max())
    axes[1, 4].set_title("sum\n= magnitude", fontsize=9)
    for ax in axes.ravel():
        ax.set_xticks([])
        ax.set_yticks([])
    fig.colorbar(shown, ax=axes, shrink=0.6, label="gradient magnitude (per pixel)")
    fig.suptitle(
        f"Edge maps of {name}, one per gradient orientation\n(the edges themselves run at right angles)"
    )
    return fig


def _patch_totals(image, patch):
    """Unscaled edge histogram of every patch: array of shape (bins, rows, cols)."""
    maps = edge_maps(image)
    bins, rows, cols = maps.shape[0], image.shape[0] // patch, image.shape[1] // patch
    return maps[:, : rows * patch, : cols * patch].reshape(bins, rows, patch, cols, patch).sum(axis=(2, 4))


def _draw_patch_histograms(ax, image, patch, color="#d73027"):
    """Each patch's histogram as a star of segments along the edges; returns the segments."""
    totals = _patch_totals(image, patch)
    bins, rows, cols = totals.shape
    half_length = 0.48 * patch * totals / totals.max()
    # Segments run along the edge, at right angles to the gradient; y runs down.
    edge_angle = np.radians(np.arange(bins) * 180 / bins + 90)[:, None, None]
    row_centre, col_centre = (np.mgrid[0:rows, 0:cols] + 0.5) * patch - 0.5
    dx, dy = half_length * np.cos(edge_angle), half_length * np.sin(edge_angle)
    start = np.stack([col_centre - dx, row_centre - dy], axis=-1)
    end = np.stack([col_centre + dx, row_centre + dy], axis=-1)
    segments = np.stack([start, end], axis=-2).reshape(-1, 2, 2)
    ax.imshow(image, cmap="gray_r" if image.mean() < 0.5 else "gray", alpha=0.45)
    ax.add_collection(LineCollection(segments, colors=color, linewidths=1.4))
    ax.set_xticks(np.arange(0, image.shape[1] + 1, patch) - 0.5, [])
    ax.set_yticks(np.arange(0, image.shape[0] + 1, patch) - 0.5, [])
    ax.grid(True, color="0.6", linewidth=0.5)
    return segments


def patch_histograms(panels: Sequence[tuple]):
    """Per-patch edge histograms drawn as stars of segments along the edges (chapter 6).

    Each patch's unscaled edge histogram (the totals of the edge maps over the
    patch) is drawn at the patch centre as one segment per bin, along the edge
    direction (at right angles to the bin's gradient angle), of half-length
    proportional to the bin's total (the largest total of the image reaches
    0.48 patch widths).

    Parameters
    ----------
    panels : sequence of ``(image, patch, title)``
        One panel per entry: a 2-D image, the patch size in pixels and a title.
    """
    fig, axes = plt.subplots(1, len(panels), figsize=(4.5 * len(panels), 4.6), squeeze=False)
    for ax, (image, patch, title) in zip(axes[0], panels):
        _draw_patch_histograms(ax, np.asarray(image, dtype=float), patch)
        ax.set_title(title)
        ax.set_xlabel("column x (patch borders on the grid)")
    axes[0, 0].set_ylabel("row y (downwards)")
    fig.suptitle("Per-patch edge histograms, drawn along the edge directions")
    fig.tight_layout()
    return fig


def training_histories(costs: Mapping[str, Sequence[float]], mistakes: Mapping[str, Sequence[int]], title, total):
    """Training cost and misclassifications per epoch on log scales, one line per feature set (chapter 6).

    Parameters
    ----------
    costs, mistakes : mappings from feature-set name to one value per epoch (epoch 0 first)
    title : str
    total : int
        Number of training points, for the right panel's title.
    """
    fig, axes = plt.subplots(1, 2, figsize=(9.2, 3.5))
    styles = [("-o", "#4575b4"), ("-s", "#d73027"), ("-^", "#1a9641")]
    for (name, cost), (style, color) in zip(costs.items(), styles):
        axes[0].semilogy(cost, style, color=color, markersize=4, label=name)
        axes[1].semilogy(mistakes[name], style, color=color, markersize=4, label=name)
    epochs = len(next(iter(costs.values()))) - 1
    axes[0].set_ylabel("softmax cost (log scale)")
    axes[0].set_title("Training cost per epoch")
    axes[1].set_ylabel("misclassified digits (log scale)")
    axes[1].set_title(f"Training misclassifications (of {total})")
    for ax in axes:
        ax.set_xlabel("epoch")
        ax.set_xticks(range(0, epochs + 1, 2))
        ax.legend()
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def digit_grid(images, titles, title, columns=4):
    """Small images in a grid, each with its own title, no ticks (chapter 6).

    Parameters
    ----------
    images : sequence of 2-D arrays
    titles : sequence of str, one per image
    title : str
    columns : int
    """
    rows = int(np.ceil(len(images) / columns))
    fig, axes = plt.subplots(rows, columns, figsize=(1.9 * columns, 2.2 * rows), squeeze=False)
    for ax in axes.ravel():
        ax.set_xticks([])
        ax.set_yticks([])
    for ax, image, name in zip(axes.ravel(), images, titles):
        ax.imshow(image, cmap="gray_r")
        ax.set_title(name, fontsize=9)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


# ----------------------------------------------------------------- audio


def tones_and_sum(times, tones, frequencies, signal, shown_seconds=0.02):
    """The first ``shown_seconds`` of some tones and of their sum (chapter 6).

    Parameters
    ----------
    times : array of shape (S,), seconds
    tones : array of shape (T, S)
    frequencies : array of shape (T,), Hz, for the legend
    signal : array of shape (S,), the sum
    shown_seconds : float
    """
    times = np.asarray(times)
    shown = times < shown_seconds
    fig, ax = plt.subplots(figsize=(9, 3.4))
    for tone, frequency, style in zip(tones, frequencies, [":", "--", "-.", "-"]):
        ax.plot(1000 * times[shown], np.asarray(tone)[shown], style, lw=1, label=f"{frequency:.0f} Hz tone")
    ax.plot(1000 * times[shown], np.asarray(signal)[shown], "k", lw=2, label="their sum (the signal)")
    ax.set(xlabel="time (ms)", ylabel="amplitude",
           title=f"Three tones and their sum, first {1000 * shown_seconds:.0f} ms")
    ax.legend(fontsize=9, loc="upper right", ncol=2)
    fig.tight_layout()
    return fig


def spectrum_peaks(frequencies, heights, tone_frequencies, tone_amplitudes, max_frequency=1600):
    """Spectrum as vertical lines at every bin, with the true tones marked (chapter 6).

    Parameters
    ----------
    frequencies, heights : arrays of shape (K,)
        Bin frequencies (Hz) and the amplitudes ``2|X_k|/S``.
    tone_frequencies, tone_amplitudes : arrays of shape (T,)
    max_frequency : float
        Right end of the frequency axis (Hz).
    """
    fig, ax = plt.subplots(figsize=(9, 3.4))
    ax.vlines(frequencies, 0, heights, color="#2c7fb8", lw=1.5, label=r"$2|X_k|/S$ at every bin")
    ax.plot(tone_frequencies, tone_amplitudes, "kx", ms=9, mew=2, label="true tone (frequency, amplitude)")
    for frequency, amplitude in zip(tone_frequencies, tone_amplitudes):
        ax.annotate(f"{frequency:.0f} Hz", (frequency, amplitude), textcoords="offset points",
                    xytext=(6, 4), fontsize=9)
    ax.set_xlim(0, max_frequency)
    ax.set_ylim(0, 1.15 * max(np.max(heights), np.max(tone_amplitudes)))
    ax.set_xlabel("frequency (Hz)")
    ax.set_ylabel("amplitude")
    bin_width = frequencies[1] - frequencies[0]
    ax.set_title(f"Spectrum of the three-tone signal (bins {bin_width:g} Hz apart)")
    ax.legend(fontsize=9)
    fig.tight_layout()
    return fig


def spectrogram_panel(ax, frequencies, times, magnitudes, reference=None, floor_db=-60):
    """Draw a spectrogram on ``ax`` in dB relative to ``reference``, clipped at ``floor_db`` (chapter 6).

    The colour is ``20 log10(magnitude / reference)``, from ``floor_db`` (black)
    to 0 dB (the reference, by default the largest magnitude). Returns the
    ``QuadMesh`` (for a colour bar). An axes-level helper of the figures below.
    """
    magnitudes = np.asarray(magnitudes, dtype=float)
    reference = magnitudes.max() if reference is None else reference
    decibels = 20 * np.log10(np.maximum(magnitudes / reference, 10 ** (floor_db / 20)))
    return ax.pcolormesh(times, frequencies, decibels, shading="nearest", cmap="magma",
                         vmin=floor_db, vmax=0, rasterized=True)


def chirp_spectrogram(
    signal, rate, frequencies, frame_times, magnitudes, truth, window, hop, truth_label="true frequency"
):
    """Whole-signal spectrum beside the spectrogram, with the true frequency drawn on it (chapter 6).

    Parameters
    ----------
    signal : array of shape (S,)
    rate : float, samples per second
    frequencies, frame_times, magnitudes : the spectrogram (from ``ml.spectrogram``)
    truth : array of shape (frames,), the true frequency at each frame centre (Hz)
    window, hop : int, for the title
    truth_label : str, legend entry of the true frequency
    """
    signal = np.asarray(signal)
    fig, axes = plt.subplots(1, 2, figsize=(9.2, 3.3), gridspec_kw={"width_ratios": [1, 1.5]})
    whole = 2 * np.abs(np.fft.rfft(signal)) / signal.size
    axes[0].plot(np.fft.rfftfreq(signal.size, d=1 / rate), whole, lw=0.6, color="#2c7fb8")
    axes[0].set_xlabel("frequency (Hz)")
    axes[0].set_ylabel("amplitude")
    axes[0].set_title("Spectrum of the whole chirp")
    mesh = spectrogram_panel(axes[1], frequencies, frame_times, magnitudes)
    axes[1].plot(frame_times, truth, "w--", lw=1, label=truth_label)
    axes[1].set_xlabel("time (s)")
    axes[1].set_ylabel("frequency (Hz)")
    axes[1].set_title(f"Spectrogram (window {window}, hop {hop})")
    axes[1].legend(fontsize=9, loc="upper left")
    fig.colorbar(mesh, ax=axes[1], label="magnitude (dB)")
    fig.tight_layout()
    return fig


def _window_title(window, rate, digits):
    return f"{1000 * window / rate:.{digits}f} ms frames, {rate / window:.1f} Hz bins"


def window_comparison(signal, rate, windows=(64, 1024), max_frequency=2500):
    """Spectrograms of one signal with different window lengths, hop = window/8 (chapter 6).

    Parameters
    ----------
    signal : array of shape (S,)
    rate : float, samples per second
    windows : sequence of int
    max_frequency : float, top of the frequency axis (Hz)
    """
    fig, axes = plt.subplots(1, len(windows), figsize=(9.2, 3.3), sharey=True, squeeze=False)
    for ax, window in zip(axes[0], windows):
        mesh = spectrogram_panel(ax, *spectrogram(signal, rate, window=window, hop=window // 8))
        ax.set(xlim=(0, len(signal) / rate), ylim=(0, max_frequency), xlabel="time (s)")
        ax.set_title(f"window {window} samples\n{_window_title(window, rate, 0)}")
    axes[0, 0].set_ylabel("frequency (Hz)")
    fig.colorbar(mesh, ax=axes[0], label="magnitude (dB)")
    return fig


def window_frame(signal, rate, window, max_frequency=2500):
    """One slider frame: the spectrogram of ``signal`` with one window length, hop = window/8 (chapter 6).

    The axes limits are fixed (the whole signal, 0 to ``max_frequency`` Hz)
    so that frames for different windows compare shapes, not rescalings.
    """
    fig, ax = plt.subplots(figsize=(6.6, 3.4))
    mesh = spectrogram_panel(ax, *spectrogram(signal, rate, window=window, hop=window // 8))
    ax.set(xlim=(0, len(signal) / rate), ylim=(0, max_frequency), xlabel="time (s)",
           ylabel="frequency (Hz)", title=f"window {window} samples: {_window_title(window, rate, 1)}")
    fig.colorbar(mesh, ax=ax, label="magnitude (dB)")
    fig.tight_layout()
    return fig


def word_spectrograms(spectrograms: Sequence[tuple], titles: Sequence[str], max_seconds=None):
    """Spectrograms of several words side by side on one shared dB scale (chapter 6).

    Parameters
    ----------
    spectrograms : sequence of ``(frequencies, times, magnitudes)``
        0 dB is the largest magnitude of all of them.
    titles : sequence of str, one per spectrogram
    max_seconds : float, optional
        Right end of every time axis (default: the longest word).
    """
    reference = max(np.max(m) for _, _, m in spectrograms)
    if max_seconds is None:
        max_seconds = max(np.max(t) for _, t, _ in spectrograms)
    fig, axes = plt.subplots(1, len(spectrograms), figsize=(9.2, 3), sharey=True, squeeze=False)
    for ax, (frequencies, times, magnitudes), title in zip(axes[0], spectrograms, titles):
        mesh = spectrogram_panel(ax, frequencies, times, magnitudes, reference=reference)
        ax.set_xlim(0, max_seconds)
        ax.set_xlabel("time (s)")
        ax.set_title(title)
    axes[0, 0].set_ylabel("frequency (Hz)")
    fig.colorbar(mesh, ax=axes[0], label="magnitude (dB)")
    return fig


def word_similarity(similarity, labels, words, title):
    """Similarity matrix of utterances, with lines between blocks of the same word (chapter 6).

    Parameters
    ----------
    similarity : array of shape (U, U), entries in [-1, 1]
    labels : sequence of U str, tick labels
    words : array of U str, sorted so that equal words are neighbours
    title : str
    """
    words = np.asarray(words)
    count = len(labels)
    fig, ax = plt.subplots(figsize=(7.2, 6))
    image = ax.imshow(similarity, cmap="RdBu_r", vmin=-1, vmax=1)
    ax.set_xticks(range(count), labels, rotation=90, fontsize=9)
    ax.set_yticks(range(count), labels, fontsize=9)
    for b in np.flatnonzero(words[1:] != words[:-1]) + 0.5:
        ax.axhline(b, color="k", lw=0.8)
        ax.axvline(b, color="k", lw=0.8)
    ax.set_title(title)
    fig.colorbar(image, ax=ax, label="inner product of centred unit features")
    fig.tight_layout()
    return fig


def band_spectrograms(frame_times, panels: Sequence[tuple], title):
    """Spectrograms pooled into frequency bands, one panel per set of bands (chapter 6).

    Each panel draws one row per band (band 0 at the bottom), so every band
    gets the same height whatever its width in hertz; the ticks give the
    lower edges of some bands in Hz.

    Parameters
    ----------
    frame_times : array of shape (T,), seconds
    panels : sequence of ``(pooled, edges, name)``
        ``pooled`` of shape (B, T) in dB, ``edges`` the B + 1 band edges (Hz).
        All panels share one colour scale, from 60 dB below the largest
        value of all panels to that value.
    title : str
    """
    top = max(np.max(pooled) for pooled, _, _ in panels)
    fig, axes = plt.subplots(1, len(panels), figsize=(9.2, 3.6), squeeze=False, layout="constrained")
    for ax, (pooled, edges, name) in zip(axes[0], panels):
        bands = np.arange(len(edges) - 1)
        mesh = ax.pcolormesh(frame_times, bands, pooled, shading="nearest", cmap="magma",
                             vmin=top - 60, vmax=top, rasterized=True)
        ticks = bands[::3]
        ax.set_yticks(ticks, [f"{edges[b]:.0f}" for b in ticks])
        ax.set(xlabel="time (s)", ylabel="band (lower edge, Hz)", title=name)
    fig.colorbar(mesh, ax=axes[0], label="band average (dB)")
    fig.suptitle(title)
    return fig


def fold_accuracies(results: Mapping[str, Sequence[float]], chance, title):
    """Validation accuracy of each fold, one row of dots per scheme, with the mean ± 1 s.e. (chapter 6).

    Parameters
    ----------
    results : mapping from scheme name to the accuracy of each fold
    chance : float
        Accuracy of guessing, drawn as a dotted line.
    title : str
    """
    fig, ax = plt.subplots(figsize=(8, 0.7 + 0.75 * len(results)))
    for row, (name, scores) in enumerate(results.items()):
        scores = np.asarray(scores, dtype=float)
        error = scores.std(ddof=1) / np.sqrt(scores.size)
        ax.plot(scores, np.full(scores.size, row), "o", color="#9ecae1", ms=8,
                label="one fold" if row == 0 else None)
        ax.errorbar(scores.mean(), row, xerr=error, fmt="D", color="#08519c", capsize=5,
                    label="mean ± 1 standard error" if row == 0 else None)
    ax.axvline(chance, color="k", ls=":", label=f"guessing ({chance:.2f})")
    ax.set_yticks(range(len(results)), list(results))
    ax.set_ylim(len(results) - 0.5, -0.9)
    ax.set_xlim(0, 1.02)
    ax.set_xlabel("validation accuracy")
    ax.set_title(title)
    ax.legend(fontsize=9, loc="upper left", ncol=3)
    fig.tight_layout()
    return fig
