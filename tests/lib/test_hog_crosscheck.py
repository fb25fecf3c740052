"""Cross-check local_edge_histograms against scikit-image's HOG (chapter 6).

``local_edge_histograms`` and ``skimage.feature.hog`` compute the same idea
(patch histograms of gradient orientations, normalized jointly in
overlapping blocks of 2 × 2 patches), with these differences:

* **Bin edges.** Our 8 bins are *centred* on 0°, 22.5°, …, 157.5° (bin 0
  is [-11.25°, 11.25°) modulo 180°); skimage's unsigned bins *start* at 0°
  ([0°, 22.5°), [22.5°, 45°), …). Half-width bins of skimage
  (``orientations=16``) merged in pairs (15, 0), (1, 2), (3, 4), … give
  exactly our bins.
* **Gradient at the border.** skimage sets the gradient of the first and last
  row and column to 0; ``np.gradient`` (ours) uses one-sided differences there.
  Inside the image both use central differences (skimage's are not halved,
  a factor that block normalization removes).
* **Scaling.** skimage averages each cell's votes and divides a block by
  ``sqrt(|v|² + ε²)``; we sum the votes and divide by ``|v|``. Both
  disappear once each block is rescaled to unit length.
* **Layout.** Both concatenate blocks row by row, the patches of a block row by
  row, then the bins: the same order.

So on images whose two outer rows and columns are blank (most MNIST digits;
``np.gradient`` on the first row looks at the second), the
merged 16-bin HOG must equal our features to within 1e-6 (a pixel voting
into the wrong bin would change a feature by far more), and with skimage's
own 8 bins the two must still agree "in spirit": images that are close for one
are close for the other.
"""

import numpy as np
import pytest

from mlrefined_lib.datasets import load_handwritten_digits
from mlrefined_lib.histograms import local_edge_histograms

skimage_feature = pytest.importorskip("skimage.feature")


@pytest.fixture(scope="module")
def digits():
    x, y = load_handwritten_digits()
    chosen = np.random.default_rng(3).permutation(len(x))[:200]
    return x[chosen].reshape(-1, 28, 28) / 255.0, y[chosen]


def blank_border(image):
    """True if the two outer rows and columns are blank, so both gradients vanish on the border."""
    return not (image[[0, 1, -2, -1], :].any() or image[:, [0, 1, -2, -1]].any())


def merged_hog(image, pairs_start=-1):
    """skimage's HOG with 16 bins, merged into 8 (bins 2k-1 and 2k by default), blocks renormalized."""
    hog = skimage_feature.hog(image, orientations=16, pixels_per_cell=(7, 7), cells_per_block=(2, 2),
                              block_norm="L2", feature_vector=False)
    shifted = np.roll(hog, -pairs_start, axis=-1)         # bring bin 2k + pairs_start to position 2k
    merged = shifted[..., 0::2] + shifted[..., 1::2]
    merged = merged.reshape(merged.shape[0], merged.shape[1], -1)
    lengths = np.linalg.norm(merged, axis=2, keepdims=True)
    return (merged / np.where(lengths > 0, lengths, 1.0)).ravel()


def test_merged_hog_equals_local_edge_histograms_on_digits(digits):
    images, _ = digits
    inside = [image for image in images if blank_border(image)]
    assert len(inside) > 150
    for image in inside:
        ours = local_edge_histograms(image, patch=7, block=2, bins=8)
        np.testing.assert_allclose(ours, merged_hog(image), rtol=0, atol=1e-6)


def test_wrong_bin_pairing_or_transposed_image_would_be_caught(digits):
    """The equality above is a real test: a half-bin rotation or swapped axes break it."""
    images, _ = digits
    image = next(image for image in images if blank_border(image))
    ours = local_edge_histograms(image, patch=7, block=2, bins=8)
    assert np.abs(ours - merged_hog(image, pairs_start=0)).max() > 0.1
    assert np.abs(local_edge_histograms(image.T, patch=7, block=2) - merged_hog(image)).max() > 0.1


def test_native_hog_agrees_in_spirit(digits):
    """With skimage's own 8 bins (starting at 0°) the features differ, but the geometry of the digits agrees."""
    images, labels = digits
    ours = np.array([local_edge_histograms(image, patch=7, block=2) for image in images])
    theirs = np.array([
        skimage_feature.hog(image, orientations=8, pixels_per_cell=(7, 7), cells_per_block=(2, 2), block_norm="L2")
        for image in images
    ])
    assert ours.shape == theirs.shape == (200, 3 * 3 * 2 * 2 * 8)
    # Feature by feature they differ (half-bin offset): the correlation is clearly below 1.
    per_image = np.array([np.corrcoef(a, b)[0, 1] for a, b in zip(ours, theirs)])
    assert 0.6 < np.median(per_image) < 0.95
    # Distances between digits agree strongly.
    upper = np.triu_indices(len(images), 1)

    def distances(features):
        return np.linalg.norm(features[:, None, :] - features[None, :, :], axis=2)

    d_ours, d_theirs = distances(ours), distances(theirs)
    assert np.corrcoef(d_ours[upper], d_theirs[upper])[0, 1] > 0.85
    # A nearest-neighbour classifier (leave one out) is about equally good with either.
    np.fill_diagonal(d_ours, np.inf)
    np.fill_diagonal(d_theirs, np.inf)
    accuracy_ours = np.mean(labels[d_ours.argmin(axis=1)] == labels)
    accuracy_theirs = np.mean(labels[d_theirs.argmin(axis=1)] == labels)
    assert accuracy_ours > 0.75 and accuracy_theirs > 0.75
    assert abs(accuracy_ours - accuracy_theirs) < 0.08


def test_dalal_triggs_window_has_3780_numbers():
    """The person-detection window of Dalal and Triggs: 64 × 128 pixels, 8 × 8 cells, 2 × 2 blocks, 9 bins."""
    window = np.random.default_rng(0).random((128, 64))
    assert local_edge_histograms(window, patch=8, block=2, bins=9).size == 3780
    hog = skimage_feature.hog(window, orientations=9, pixels_per_cell=(8, 8), cells_per_block=(2, 2))
    assert hog.size == 3780
