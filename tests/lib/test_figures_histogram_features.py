"""Tests of mlrefined_lib.figures.histogram_features (chapter 6), Agg backend."""

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import LineCollection, QuadMesh

from mlrefined_lib.figures import histogram_features as figures
from mlrefined_lib.histograms import edge_maps, spectrogram


def plot_axes(fig):
    """The axes that hold data (colour bars excluded)."""
    return [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]


def colorbars(fig):
    return [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]


def tick_texts(labels):
    return [label.get_text() for label in labels]


# ------------------------------------------------------------ categories


def test_distance_matrices_draws_both_tables_with_numbers():
    categories = ["O", "A", "B"]
    codes = np.abs(np.arange(3.0)[:, None] - np.arange(3.0)[None, :])
    one_hot = np.sqrt(2) * (1 - np.eye(3))
    fig = figures.distance_matrices(codes, one_hot, categories, "Codes")
    axes = plot_axes(fig)
    assert len(axes) == 2 and len(colorbars(fig)) == 1
    assert [ax.get_title() for ax in axes] == ["Codes", "One-hot"]
    for ax, expected in zip(axes, [codes, one_hot]):
        np.testing.assert_array_equal(ax.images[0].get_array(), expected)
        assert tick_texts(ax.get_xticklabels()) == categories
        assert tick_texts(ax.get_yticklabels()) == categories
        assert [t.get_text() for t in ax.texts] == [f"{v:.2f}" for v in expected.ravel()]
    assert fig._suptitle.get_text() == "Pairwise distances between the four blood types"


def test_group_predictions_draws_points_and_one_line_per_encoding():
    positions = np.array([0.1, 1.0, 2.05, 2.9])
    y = np.array([1.0, 2.0, 3.0, 4.0])
    predictions = {"numbers": [1.0, 2.0, 3.0], "one-hot": [1.5, 2.5, 3.5]}
    fig = figures.group_predictions(positions, y, predictions, ["O", "A", "B"])
    (ax,) = plot_axes(fig)
    np.testing.assert_array_equal(ax.collections[0].get_offsets(), np.column_stack([positions, y]))
    assert len(ax.lines) == 2
    for line, values in zip(ax.lines, predictions.values()):
        np.testing.assert_array_equal(line.get_xdata(), [0, 1, 2])
        np.testing.assert_array_equal(line.get_ydata(), values)
    assert ax.get_xlabel() == "blood type" and ax.get_ylabel() == "y (synthetic)"
    assert tick_texts(ax.get_xticklabels()) == ["O", "A", "B"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["synthetic people", "numbers", "one-hot"]


# ------------------------------------------------------------------ text


def test_similarity_matrix_labels_rows_with_sentences():
    similarity = np.array([[1.0, 0.25], [0.25, 1.0]])
    fig = figures.similarity_matrix(similarity, ["dogs", "cats"])
    (ax,) = plot_axes(fig)
    np.testing.assert_array_equal(ax.images[0].get_array(), similarity)
    assert ax.images[0].get_clim() == (0, 1)
    assert tick_texts(ax.get_yticklabels()) == ["1: dogs", "2: cats"]
    assert tick_texts(ax.get_xticklabels()) == ["1", "2"]
    assert ax.get_xlabel() == "sentence"
    assert [t.get_text() for t in ax.texts] == ["1.00", "0.25", "0.25", "1.00"]
    assert colorbars(fig)[0].get_ylabel() == "inner product (cosine)"


def test_training_curves_draws_costs_and_error_percentages():
    curves = {
        "training": (np.array([0.7, 0.5, 0.4]), np.array([10, 6, 4])),
        "held-out": (np.array([0.7, 0.6, 0.55]), np.array([5, 4, 4])),
    }
    fig = figures.training_curves(curves, {"training": 20, "held-out": 10}, "Title")
    left, right = plot_axes(fig)
    np.testing.assert_allclose(left.lines[0].get_ydata(), [0.7, 0.5, 0.4])
    np.testing.assert_allclose(left.lines[1].get_ydata(), [0.7, 0.6, 0.55])
    np.testing.assert_allclose(right.lines[0].get_ydata(), [50, 30, 20])
    np.testing.assert_allclose(right.lines[1].get_ydata(), [50, 40, 40])
    assert left.get_ylabel() == "softmax cost" and right.get_ylabel() == "misclassified reviews (%)"
    assert left.get_xlabel() == right.get_xlabel() == "epoch"
    assert fig._suptitle.get_text() == "Title"


def test_extreme_weights_bars_are_the_smallest_and_largest():
    weights = np.array([0.5, -2.0, 3.0, -1.0, 0.0])
    names = ["a", "b", "c", "d", "e"]
    fig = figures.extreme_weights(weights, names, count=2)
    left, right = plot_axes(fig)
    np.testing.assert_array_equal([p.get_width() for p in left.patches], [-2.0, -1.0])
    np.testing.assert_array_equal([p.get_width() for p in right.patches], [3.0, 0.5])
    assert tick_texts(left.get_yticklabels()) == ["b", "d"]
    assert tick_texts(right.get_yticklabels()) == ["c", "a"]
    assert left.get_title() == "2 most negative weights" and right.get_xlabel() == "weight"


# ---------------------------------------------------------------- images


def test_edge_histogram_bars_one_panel_per_histogram():
    histograms = {"one": np.eye(8)[0], "two": np.full(8, 1 / np.sqrt(8))}
    fig = figures.edge_histogram_bars(histograms)
    axes = plot_axes(fig)
    assert [ax.get_title() for ax in axes] == ["one", "two"]
    for ax, histogram in zip(axes, histograms.values()):
        np.testing.assert_allclose([p.get_height() for p in ax.patches], histogram)
        np.testing.assert_allclose([p.get_x() + p.get_width() / 2 for p in ax.patches], np.arange(8) * 22.5)
    assert tick_texts(axes[0].get_xticklabels())[:3] == ["0°", "22.5°", "45°"]
    assert axes[0].get_ylabel() == "edge strength (unit-length histogram)"


def test_edge_map_grid_shows_image_maps_and_their_sum():
    image = np.zeros((8, 8))
    image[2:6, 2:6] = 1.0
    maps = edge_maps(image)
    fig = figures.edge_map_grid(image, maps)
    axes = plot_axes(fig)
    assert len(axes) == 10
    np.testing.assert_array_equal(axes[0].images[0].get_array(), image)
    for k in range(8):
        np.testing.assert_array_equal(axes[k + 1].images[0].get_array(), maps[k])
        assert axes[k + 1].get_title().startswith(f"bin {k}\n")
    np.testing.assert_allclose(axes[9].images[0].get_array(), maps.sum(axis=0))
    assert axes[9].images[0].get_clim() == (0, maps.max())


def test_patch_histograms_segments_along_the_edges():
    image = np.zeros((8, 8))
    image[:, 4:] = 1.0  # vertical edge: gradient at 0°, the edge runs at 90°
    fig = figures.patch_histograms([(image, 4, "step")])
    (ax,) = plot_axes(fig)
    assert ax.get_title() == "step" and ax.get_ylabel() == "row y (downwards)"
    (lines,) = [c for c in ax.collections if isinstance(c, LineCollection)]
    segments = np.array(lines.get_segments())  # 8 bins x 2 x 2 patches
    assert segments.shape == (32, 2, 2)
    lengths = np.linalg.norm(segments[:, 1] - segments[:, 0], axis=1)
    longest = segments[np.argmax(lengths)]
    np.testing.assert_allclose(longest[1, 0] - longest[0, 0], 0, atol=1e-12)  # vertical segment
    np.testing.assert_allclose(lengths.max(), 2 * 0.48 * 4)
    np.testing.assert_array_equal(ax.images[0].get_array(), image)


def test_training_histories_log_scales_and_data():
    costs = {"pixels": [1.0, 0.5, 0.2], "edges": [1.0, 0.3, 0.1]}
    mistakes = {"pixels": [50, 20, 10], "edges": [40, 10, 5]}
    fig = figures.training_histories(costs, mistakes, "T", total=100)
    left, right = plot_axes(fig)
    assert left.get_yscale() == right.get_yscale() == "log"
    for i, name in enumerate(costs):
        np.testing.assert_array_equal(left.lines[i].get_ydata(), costs[name])
        np.testing.assert_array_equal(right.lines[i].get_ydata(), mistakes[name])
    assert right.get_title() == "Training misclassifications (of 100)"
    assert list(left.get_xticks()) == [0, 2]


def test_digit_grid_draws_each_image_with_its_title():
    images = [np.full((4, 4), v) for v in (0.0, 0.5, 1.0)]
    fig = figures.digit_grid(images, ["a", "b", "c"], "Grid", columns=2)
    axes = plot_axes(fig)
    assert len(axes) == 4
    for ax, image, title in zip(axes, images, "abc"):
        np.testing.assert_array_equal(ax.images[0].get_array(), image)
        assert ax.get_title() == title
    assert not axes[3].images
    assert fig._suptitle.get_text() == "Grid"


# ----------------------------------------------------------------- audio


def test_tones_and_sum_shows_the_first_milliseconds():
    times = np.arange(100) / 1000
    tones = np.array([np.cos(2 * np.pi * 50 * times), 0.5 * np.sin(2 * np.pi * 120 * times)])
    fig = figures.tones_and_sum(times, tones, [50, 120], tones.sum(axis=0), shown_seconds=0.02)
    (ax,) = plot_axes(fig)
    assert len(ax.lines) == 3
    np.testing.assert_allclose(ax.lines[0].get_xdata(), np.arange(20))
    np.testing.assert_allclose(ax.lines[1].get_ydata(), tones[1, :20])
    np.testing.assert_allclose(ax.lines[2].get_ydata(), tones.sum(axis=0)[:20])
    assert ax.get_xlabel() == "time (ms)" and ax.get_ylabel() == "amplitude"
    assert ax.get_title() == "Three tones and their sum, first 20 ms"


def test_spectrum_peaks_lines_marks_and_limits():
    frequencies = np.arange(6) * 100.0
    heights = np.array([0, 1.0, 0, 0.5, 0, 0])
    fig = figures.spectrum_peaks(frequencies, heights, [100.0, 300.0], [1.0, 0.5], max_frequency=500)
    (ax,) = plot_axes(fig)
    segments = ax.collections[0].get_segments()
    np.testing.assert_allclose([s[1, 1] for s in segments], heights)
    np.testing.assert_allclose(ax.lines[0].get_xdata(), [100, 300])
    assert ax.get_xlim() == (0, 500)
    np.testing.assert_allclose(ax.get_ylim(), (0, 1.15))
    assert ax.get_title() == "Spectrum of the three-tone signal (bins 100 Hz apart)"


def test_spectrogram_panel_is_decibels_clipped_at_the_floor():
    fig, ax = plt.subplots()
    magnitudes = np.array([[1.0, 0.1], [1e-5, 0.01]])
    mesh = figures.spectrogram_panel(ax, [0.0, 1.0], [0.0, 1.0], magnitudes, floor_db=-60)
    assert isinstance(mesh, QuadMesh)
    np.testing.assert_allclose(np.asarray(mesh.get_array()).ravel(), [0, -20, -60, -40])
    assert mesh.get_clim() == (-60, 0)


def test_chirp_spectrogram_panels_and_truth_line():
    rate = 1000
    signal = np.cos(2 * np.pi * 100 * np.arange(2000) / rate)
    f, t, m = spectrogram(signal, rate, window=64, hop=32)
    truth = np.full(t.size, 100.0)
    fig = figures.chirp_spectrogram(signal, rate, f, t, m, truth, 64, 32, truth_label="true 100 Hz")
    left, right = plot_axes(fig)
    np.testing.assert_allclose(left.lines[0].get_ydata(), 2 * np.abs(np.fft.rfft(signal)) / signal.size)
    np.testing.assert_allclose(right.lines[0].get_ydata(), truth)
    assert right.get_title() == "Spectrogram (window 64, hop 32)"
    assert right.get_legend().get_texts()[0].get_text() == "true 100 Hz"
    assert colorbars(fig)[0].get_ylabel() == "magnitude (dB)"


def test_window_comparison_and_window_frame_use_the_library_spectrogram():
    rate = 1000
    signal = np.random.default_rng(0).normal(size=1000)
    fig = figures.window_comparison(signal, rate, windows=[32, 128], max_frequency=400)
    axes = plot_axes(fig)
    assert len(axes) == 2
    for ax, window in zip(axes, [32, 128]):
        _, _, magnitudes = spectrogram(signal, rate, window=window, hop=window // 8)
        mesh = ax.collections[0]
        assert np.asarray(mesh.get_array()).size == magnitudes.size
        assert ax.get_ylim() == (0, 400) and ax.get_xlim() == (0, 1)
        assert ax.get_title().startswith(f"window {window} samples\n")
    frame = figures.window_frame(signal, rate, 64, max_frequency=400)
    (ax,) = plot_axes(frame)
    assert ax.get_title() == "window 64 samples: 64.0 ms frames, 15.6 Hz bins"
    assert ax.get_ylabel() == "frequency (Hz)" and ax.get_ylim() == (0, 400)
    _, _, magnitudes = spectrogram(signal, rate, window=64, hop=8)
    expected = 20 * np.log10(np.maximum(magnitudes / magnitudes.max(), 1e-3))
    np.testing.assert_allclose(np.asarray(ax.collections[0].get_array()).reshape(expected.shape), expected)


def test_word_spectrograms_share_one_reference():
    f = np.array([0.0, 100.0])
    t = np.array([0.0, 0.1])
    loud, quiet = np.array([[1.0, 0.5], [0.5, 0.5]]), np.array([[0.1, 0.1], [0.1, 0.1]])
    fig = figures.word_spectrograms([(f, t, loud), (f, t, quiet)], ["loud", "quiet"], max_seconds=0.2)
    left, right = plot_axes(fig)
    np.testing.assert_allclose(np.asarray(right.collections[0].get_array()).ravel(), -20)
    assert np.asarray(left.collections[0].get_array()).max() == 0
    assert [left.get_title(), right.get_title()] == ["loud", "quiet"]
    assert left.get_xlim() == (0, 0.2) and left.get_ylabel() == "frequency (Hz)"


def test_word_similarity_draws_block_lines_between_words():
    similarity = np.eye(3)
    fig = figures.word_similarity(similarity, ["a1", "a2", "b1"], np.array(["a", "a", "b"]), "S")
    (ax,) = plot_axes(fig)
    np.testing.assert_array_equal(ax.images[0].get_array(), similarity)
    assert ax.images[0].get_clim() == (-1, 1)
    assert len(ax.lines) == 2  # one horizontal, one vertical at 1.5
    assert ax.lines[0].get_ydata()[0] == 1.5
    assert tick_texts(ax.get_xticklabels()) == ["a1", "a2", "b1"] and ax.get_title() == "S"


def test_band_spectrograms_one_row_per_band():
    times = np.array([0.0, 0.1, 0.2])
    linear = np.arange(6.0).reshape(2, 3)
    mel = np.arange(9.0).reshape(3, 3)
    fig = figures.band_spectrograms(
        times, [(linear, [0, 500, 1000], "linear"), (mel, [0, 100, 400, 1000], "mel")], "Bands"
    )
    left, right = plot_axes(fig)
    np.testing.assert_array_equal(np.asarray(left.collections[0].get_array()).reshape(2, 3), linear)
    np.testing.assert_array_equal(np.asarray(right.collections[0].get_array()).reshape(3, 3), mel)
    assert left.collections[0].get_clim() == (8 - 60, 8)
    assert tick_texts(right.get_yticklabels()) == ["0"]
    assert [left.get_title(), right.get_title()] == ["linear", "mel"]
    assert left.get_ylabel() == "band (lower edge, Hz)" and left.get_xlabel() == "time (s)"
    assert fig._suptitle.get_text() == "Bands"


def test_fold_accuracies_dots_means_and_chance():
    results = {"A": [0.5, 1.0, 0.75], "B": [0.25, 0.25, 0.25]}
    fig = figures.fold_accuracies(results, chance=1 / 6, title="F")
    (ax,) = plot_axes(fig)
    dots = [line for line in ax.lines if line.get_marker() == "o"]
    np.testing.assert_allclose(dots[0].get_xdata(), results["A"])
    np.testing.assert_allclose(dots[1].get_ydata(), [1, 1, 1])
    means = [line for line in ax.lines if line.get_marker() == "D"]
    np.testing.assert_allclose([m.get_xdata()[0] for m in means], [0.75, 0.25])
    chance = [line for line in ax.lines if line.get_linestyle() == ":"]
    np.testing.assert_allclose(chance[0].get_xdata(), [1 / 6, 1 / 6])
    assert tick_texts(ax.get_yticklabels()) == ["A", "B"]
    assert ax.get_xlim() == (0, 1.02) and ax.get_xlabel() == "validation accuracy" and ax.get_title() == "F"
