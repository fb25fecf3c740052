"""Tests of mlrefined_lib.histograms.edge_maps (chapter 6)."""

import math
import warnings

import numpy as np
import pytest

from mlrefined_lib.histograms import edge_histogram, edge_maps


def smooth_image(seed=0, shape=(20, 26)):
    """Random smooth image: noise filtered along rows and columns."""
    noise = np.random.default_rng(seed).normal(size=shape)
    kernel = np.hanning(7)
    rows = np.apply_along_axis(lambda r: np.convolve(r, kernel, mode="same"), 1, noise)
    return np.apply_along_axis(lambda c: np.convolve(c, kernel, mode="same"), 0, rows)


@pytest.mark.parametrize("bins", [8, 6, 12, 1])
def test_maps_sum_to_the_gradient_magnitude(bins):
    image = smooth_image(seed=bins)
    maps = edge_maps(image, bins=bins)
    d_dy, d_dx = np.gradient(image)
    assert maps.shape == (bins,) + image.shape
    np.testing.assert_allclose(maps.sum(axis=0), np.hypot(d_dx, d_dy), rtol=1e-12, atol=1e-15)
    assert np.all(maps >= 0)
    # Each pixel belongs to exactly one bin.
    assert np.all((maps > 0).sum(axis=0) <= 1)


@pytest.mark.parametrize("bins", [8, 5])
def test_map_totals_are_the_unnormalized_edge_histogram(bins):
    image = smooth_image(seed=10 + bins)
    totals = edge_maps(image, bins=bins).sum(axis=(1, 2))
    np.testing.assert_allclose(totals / np.linalg.norm(totals), edge_histogram(image, bins=bins), rtol=1e-12)


def test_vertical_and_horizontal_edges_land_in_bins_zero_and_four():
    vertical = np.zeros((6, 8))
    vertical[:, 4:] = 1.0
    maps = edge_maps(vertical)
    assert maps[0].sum() > 0 and np.all(maps[1:] == 0)
    np.testing.assert_array_equal(maps[0] > 0, np.gradient(vertical, axis=1) != 0)
    maps = edge_maps(vertical.T)
    assert maps[4].sum() > 0 and np.all(np.delete(maps, 4, axis=0) == 0)


def test_a_45_degree_ramp_goes_to_bin_two():
    rows, cols = np.mgrid[0:7, 0:9].astype(float)
    ramp = math.cos(math.radians(45)) * cols + math.sin(math.radians(45)) * rows
    maps = edge_maps(ramp)
    np.testing.assert_allclose(maps[2], 1.0, rtol=1e-12)
    assert np.all(np.delete(maps, 2, axis=0) == 0)


def test_constant_image_gives_zeros_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        maps = edge_maps(np.full((4, 5), 2.0))
    np.testing.assert_array_equal(maps, np.zeros((8, 4, 5)))


def test_does_not_modify_input_and_accepts_integers():
    image = (smooth_image(seed=3) * 50).astype(np.int64)
    saved = image.copy()
    maps = edge_maps(image)
    np.testing.assert_array_equal(image, saved)
    np.testing.assert_allclose(maps, edge_maps(image.astype(float)))


@pytest.mark.parametrize(
    "image, bins, message",
    [
        (np.zeros((5, 5, 3)), 8, r"edge_maps expects a 2-D grey-scale image.*\(5, 5, 3\)"),
        (np.zeros((1, 5)), 8, r"at least 2 × 2"),
        (np.full((3, 3), np.nan), 8, "NaN or infinite"),
        (np.zeros((4, 4)), 0, "bins must be an integer >= 1"),
        (np.zeros((4, 4)), 2.5, "bins must be an integer >= 1"),
    ],
)
def test_bad_input(image, bins, message):
    with pytest.raises(ValueError, match=message):
        edge_maps(image, bins=bins)
