"""Unit tests of mlrefined_lib.histograms against scikit-learn, scipy and hand-made references."""

import cmath
import math
import warnings

import numpy as np
import pytest
import scipy.signal
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.preprocessing import OneHotEncoder, normalize

from mlrefined_lib.histograms import (
    STOP_WORDS,
    bag_of_words,
    edge_histogram,
    hann_window,
    local_edge_histograms,
    one_hot,
    spectrogram,
    stem,
    tokenize,
)

# ---------------------------------------------------------------- one-hot


def test_one_hot_small_example_by_hand():
    encoded, categories = one_hot(["red", "green", "red", "blue"])
    assert categories == ["blue", "green", "red"]
    expected = np.array([[0, 0, 1], [0, 1, 0], [0, 0, 1], [1, 0, 0]], dtype=float)
    np.testing.assert_array_equal(encoded, expected)
    assert encoded.dtype == float


@pytest.mark.parametrize(
    "values",
    [
        np.array(["b", "a", "c", "a", "b", "b"]),
        np.array([3, 1, 4, 1, 5, 9, 2, 6]),
        [2.5, -1.0, 2.5, 0.0],
    ],
)
def test_one_hot_matches_sklearn(values):
    encoded, categories = one_hot(values)
    encoder = OneHotEncoder(sparse_output=False).fit(np.asarray(values).reshape(-1, 1))
    assert categories == encoder.categories_[0].tolist()
    np.testing.assert_array_equal(encoded, encoder.transform(np.asarray(values).reshape(-1, 1)))


def test_one_hot_given_categories_and_ignore_match_sklearn():
    train_categories = ["cat", "dog", "bird"]
    new = np.array(["dog", "fish", "bird", "cat"])
    encoded, categories = one_hot(new, categories=train_categories, handle_unknown="ignore")
    encoder = OneHotEncoder(categories=[train_categories], sparse_output=False, handle_unknown="ignore")
    encoder.fit(np.array(train_categories).reshape(-1, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sklearn warns about the unknown "fish"
        reference = encoder.transform(new.reshape(-1, 1))
    assert categories == train_categories  # column order as given, not sorted
    np.testing.assert_array_equal(encoded, reference)
    np.testing.assert_array_equal(encoded[1], 0.0)


def test_one_hot_unknown_category_raises_naming_it():
    message = r"values\[1\] = 'fish' is not one of the 2 categories.*handle_unknown=\"ignore\""
    with pytest.raises(ValueError, match=message):
        one_hot(["dog", "fish"], categories=["cat", "dog"])


@pytest.mark.parametrize("values", [np.zeros((3, 2)), [["a"], ["b"]], "abc"])
def test_one_hot_rejects_non_1d(values):
    with pytest.raises(ValueError, match="must be 1-D"):
        one_hot(values)


def test_one_hot_rejects_missing_values():
    with pytest.raises(ValueError, match=r"missing.*index 2.*impute"):
        one_hot([1.0, 2.0, np.nan])
    with pytest.raises(ValueError, match=r"index 0"):
        one_hot([None, "a"])


def test_one_hot_rejects_repeated_categories_and_bad_option():
    with pytest.raises(ValueError, match=r"must not repeat; found \['a'\]"):
        one_hot(["a"], categories=["a", "b", "a"])
    with pytest.raises(ValueError, match="unknown handle_unknown 'skip'; valid names are: 'error', 'ignore'"):
        one_hot(["a"], handle_unknown="skip")


def test_one_hot_does_not_modify_input():
    values = np.array([2, 0, 2])
    categories = [2, 0]
    one_hot(values, categories=categories)
    np.testing.assert_array_equal(values, [2, 0, 2])
    assert categories == [2, 0]


# ---------------------------------------------------------------- tokenize and stem


def test_stop_word_list_has_the_documented_words():
    for word in ["are", "the", "is", "a", "an", "and", "than"]:
        assert word in STOP_WORDS
    assert "not" not in STOP_WORDS and "no" not in STOP_WORDS


@pytest.mark.parametrize(
    "word, expected",
    [
        ("dogs", "dog"),
        ("dog", "dog"),
        ("ponies", "pony"),
        ("ties", "tie"),
        ("classes", "class"),
        ("class", "class"),
        ("boxes", "box"),
        ("watches", "watch"),
        ("bus", "bus"),
        ("gas", "gas"),
        ("walking", "walk"),
        ("walked", "walk"),
        ("running", "run"),
        ("stopped", "stop"),
        ("falling", "fall"),
        ("sing", "sing"),
        ("red", "red"),
        ("best", "best"),
    ],
)
def test_stem_rules(word, expected):
    assert stem(word) == expected


def test_tokenize_lowercases_splits_on_punctuation_and_drops_stop_words():
    assert tokenize("The DOGS, barking; at 3 cats!", stem=False) == ["dogs", "barking", "3", "cats"]
    assert tokenize("The DOGS, barking; at 3 cats!") == ["dog", "bark", "3", "cat"]
    assert tokenize("snake_case don't", stop_words=None, stem=False) == ["snake", "case", "don", "t"]
    assert tokenize("the is a", stop_words=()) == ["the", "is", "a"]
    assert tokenize("apples and pears", stop_words=["APPLES"], stem=False) == ["and", "pears"]


def test_tokenize_rejects_non_string():
    with pytest.raises(ValueError, match="expects a string; found int"):
        tokenize(3)


# ---------------------------------------------------------------- bag of words

DOCUMENTS = [
    "Dogs are the best, the dog is a friend.",
    "Cats are the worst! A cat is not a dog.",
    "Walking the dogs: walked two dogs, then walking cats.",
    "Numbers like 42 and 7 count too; 42 again.",
]


def test_dogs_and_cats_are_orthogonal():
    features, vocabulary = bag_of_words(["dogs are the best", "cats are the worst"])
    assert vocabulary == ["best", "cat", "dog", "worst"]
    assert features[0] @ features[1] == 0.0
    np.testing.assert_allclose(np.linalg.norm(features, axis=1), 1.0)


def test_dog_and_dogs_share_a_column():
    features, vocabulary = bag_of_words(["dog", "dogs", "DOGS!"])
    assert vocabulary == ["dog"]
    np.testing.assert_array_equal(features, np.ones((3, 1)))


def test_bag_of_words_small_example_by_hand():
    features, vocabulary = bag_of_words(["The cat and the cats sat."])
    assert vocabulary == ["cat", "sat"]
    np.testing.assert_allclose(features, [[2 / math.sqrt(5), 1 / math.sqrt(5)]], rtol=1e-15)


def test_counts_match_sklearn_count_vectorizer():
    counts, vocabulary = bag_of_words(DOCUMENTS, counts=True)
    # Our vocabulary is the sorted set of tokens: CountVectorizer fitted with
    # the same analyzer builds the same one.
    fitted = CountVectorizer(analyzer=tokenize).fit(DOCUMENTS)
    assert vocabulary == fitted.get_feature_names_out().tolist()
    reference = CountVectorizer(vocabulary=vocabulary, analyzer=tokenize).fit_transform(DOCUMENTS).toarray()
    np.testing.assert_array_equal(counts, reference)
    assert counts.sum() > 20  # a real check, not an empty matrix


def test_unit_rows_are_normalized_counts():
    features, vocabulary = bag_of_words(DOCUMENTS)
    counts = CountVectorizer(vocabulary=vocabulary, analyzer=tokenize).fit_transform(DOCUMENTS)
    np.testing.assert_allclose(features, normalize(counts, norm="l2").toarray(), rtol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(features, axis=1), 1.0, rtol=1e-12)


def test_given_vocabulary_keeps_its_order_and_ignores_other_words():
    vocabulary = ["walk", "dog", "unicorn"]
    with pytest.warns(UserWarning, match="index 3"):  # the numbers document has none of these words
        counts, returned = bag_of_words(DOCUMENTS, vocabulary=vocabulary, counts=True)
    assert returned == vocabulary
    reference = CountVectorizer(vocabulary=vocabulary, analyzer=tokenize).fit_transform(DOCUMENTS).toarray()
    np.testing.assert_array_equal(counts[:3], reference[:3])
    np.testing.assert_array_equal(counts[:3], [[0, 2, 0], [0, 1, 0], [3, 2, 0]])


def test_options_reach_the_tokenizer():
    counts, vocabulary = bag_of_words(["the dogs"], stop_words=None, stem=False, counts=True)
    assert vocabulary == ["dogs", "the"]
    np.testing.assert_array_equal(counts, [[1.0, 1.0]])


@pytest.mark.parametrize("counts", [False, True])
def test_empty_and_stop_word_documents_give_zero_rows_with_warning(counts):
    with pytest.warns(UserWarning, match=r"2 document\(s\), first at index 1, contain no word"):
        features, vocabulary = bag_of_words(["dogs bark", "", "the and is a"], counts=counts)
    assert np.all(np.isfinite(features))
    np.testing.assert_array_equal(features[1:], 0.0)
    assert features[0].sum() > 0


def test_document_of_unknown_words_warns():
    with pytest.warns(UserWarning, match="index 0"):
        features, _ = bag_of_words(["unicorns"], vocabulary=["dog"])
    np.testing.assert_array_equal(features, [[0.0]])


def test_no_warning_when_every_document_has_words():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bag_of_words(DOCUMENTS)


def test_non_string_document_raises_naming_index():
    with pytest.raises(ValueError, match=r"documents\[2\] is a float"):
        bag_of_words(["a dog", "a cat", float("nan")])
    with pytest.raises(ValueError, match=r"documents\[0\] is a NoneType"):
        bag_of_words([None])


def test_bag_of_words_rejects_single_string_empty_list_and_repeated_vocabulary():
    with pytest.raises(ValueError, match=r"single string.*\[text\]"):
        bag_of_words("dogs are the best")
    with pytest.raises(ValueError, match="documents is empty"):
        bag_of_words([])
    with pytest.raises(ValueError, match=r"must not repeat a word; found \['dog'\]"):
        bag_of_words(["dog"], vocabulary=["dog", "cat", "dog"])


# ---------------------------------------------------------------- edge histograms


def ramp(angle_degrees, shape=(9, 11)):
    """An image whose gradient is (cos θ, sin θ) at every pixel (x right, y down)."""
    rows, cols = np.mgrid[0 : shape[0], 0 : shape[1]].astype(float)
    theta = math.radians(angle_degrees)
    return math.cos(theta) * cols + math.sin(theta) * rows


@pytest.mark.parametrize(
    "angle, expected_bin",
    [(0, 0), (11.0, 0), (11.5, 1), (30, 1), (45, 2), (90, 4), (100, 4), (135, 6), (170, 0), (-30, 7), (200, 1)],
)
def test_ramp_puts_all_mass_in_its_bin(angle, expected_bin):
    # Bins are 22.5° wide and centred on 0°, 22.5°, ...; angles fold mod 180°.
    histogram = edge_histogram(ramp(angle), bins=8)
    expected = np.zeros(8)
    expected[expected_bin] = 1.0
    np.testing.assert_allclose(histogram, expected, atol=1e-12)


def test_vertical_edge_is_bin_zero_and_horizontal_edge_is_bin_half():
    vertical = np.zeros((10, 10))
    vertical[:, 5:] = 1.0  # brightness changes along x: gradient points right (0°)
    np.testing.assert_allclose(edge_histogram(vertical), np.eye(8)[0], atol=1e-15)
    horizontal = vertical.T.copy()  # brightness changes down the rows: 90°
    np.testing.assert_allclose(edge_histogram(horizontal), np.eye(8)[4], atol=1e-15)
    np.testing.assert_allclose(edge_histogram(vertical, bins=6), np.eye(6)[0], atol=1e-15)


def reference_edge_votes(image, bins):
    """Per-pixel (bin, magnitude) computed with plain Python loops."""
    rows, cols = image.shape
    votes = np.zeros((rows, cols), dtype=int), np.zeros((rows, cols))
    centres = [k * 180.0 / bins for k in range(bins)]
    for i in range(rows):
        for j in range(cols):
            if j == 0:
                dx = image[i, 1] - image[i, 0]
            elif j == cols - 1:
                dx = image[i, j] - image[i, j - 1]
            else:
                dx = (image[i, j + 1] - image[i, j - 1]) / 2
            if i == 0:
                dy = image[1, j] - image[0, j]
            elif i == rows - 1:
                dy = image[i, j] - image[i - 1, j]
            else:
                dy = (image[i + 1, j] - image[i - 1, j]) / 2
            angle = math.degrees(math.atan2(dy, dx)) % 180.0
            # Nearest centre in circular distance on the 180° circle.
            distances = [min(abs(angle - c), 180.0 - abs(angle - c)) for c in centres]
            votes[0][i, j] = int(np.argmin(distances))
            votes[1][i, j] = math.hypot(dx, dy)
    return votes


def test_edge_histogram_matches_loop_reference():
    image = np.random.default_rng(5).uniform(size=(7, 9))
    bins_of, magnitude = reference_edge_votes(image, 8)
    expected = np.zeros(8)
    for b, m in zip(bins_of.ravel(), magnitude.ravel()):
        expected[b] += m
    expected /= math.sqrt(sum(v * v for v in expected))
    np.testing.assert_allclose(edge_histogram(image, bins=8), expected, rtol=1e-12)


def smooth_random_image(seed=0, shape=(40, 48)):
    noise = np.random.default_rng(seed).normal(size=shape)
    kernel = np.outer(np.hanning(7), np.hanning(7))
    padded = np.pad(noise, 3, mode="wrap")
    out = np.zeros(shape)
    for di in range(7):
        for dj in range(7):
            out += kernel[di, dj] * padded[di : di + shape[0], dj : dj + shape[1]]
    return out


@pytest.mark.parametrize("bins", [8, 6, 12])
def test_rotating_by_90_degrees_shifts_by_half_the_bins(bins):
    image = smooth_random_image()
    histogram = edge_histogram(image, bins=bins)
    rotated = edge_histogram(np.rot90(image), bins=bins)
    np.testing.assert_allclose(rotated, np.roll(histogram, bins // 2), atol=1e-12)
    assert not np.allclose(rotated, histogram, atol=1e-3)  # the shift is visible


def draw_polygon(vertices, shape=(64, 64), contrast=1.0, background=0.0, supersample=4):
    """Filled convex polygon with vertices (x, y), x right and y down, anti-aliased by supersampling."""
    fine = np.mgrid[0 : shape[0] * supersample, 0 : shape[1] * supersample].astype(float)
    y, x = (fine + 0.5) / supersample
    left, right = np.ones_like(x, dtype=bool), np.ones_like(x, dtype=bool)
    n = len(vertices)
    for k in range(n):
        (x0, y0), (x1, y1) = vertices[k], vertices[(k + 1) % n]
        cross = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)
        left &= cross >= 0
        right &= cross <= 0
    inside = left | right  # inside a convex polygon: on the same side of every edge
    cover = inside.reshape(shape[0], supersample, shape[1], supersample).mean(axis=(1, 3))
    return background + contrast * cover


def test_triangles_are_closer_to_each_other_than_to_a_square():
    big = draw_polygon([(8, 56), (56, 56), (32, 14.4)], contrast=1.0)
    small = draw_polygon([(30, 40), (50, 40), (40, 22.7)], contrast=0.3, background=0.5)
    square = draw_polygon([(16, 48), (48, 48), (48, 16), (16, 16)], contrast=0.8)
    assert big.max() > 0.99 and 0.79 < small.max() < 0.81 and square.std() > 0.1
    h_big, h_small, h_square = (edge_histogram(image) for image in (big, small, square))
    d_triangles = np.linalg.norm(h_big - h_small)
    assert d_triangles < np.linalg.norm(h_big - h_square)
    assert d_triangles < np.linalg.norm(h_small - h_square)
    assert d_triangles < 0.3  # and not only relatively: the triangles' histograms are alike


def test_edge_histogram_ignores_contrast_and_brightness():
    image = smooth_random_image(seed=1)
    np.testing.assert_allclose(edge_histogram(3.0 * image + 7.0), edge_histogram(image), rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(np.linalg.norm(edge_histogram(image)), 1.0, rtol=1e-12)


def test_integer_and_boolean_images_are_accepted():
    step = np.zeros((6, 6), dtype=np.uint8)
    step[:, 3:] = 200  # uint8 must not wrap around in the differences
    np.testing.assert_allclose(edge_histogram(step), np.eye(8)[0], atol=1e-15)
    np.testing.assert_allclose(edge_histogram(step.astype(bool)), np.eye(8)[0], atol=1e-15)


def test_constant_image_gives_zeros_and_warning():
    with pytest.warns(UserWarning, match="constant"):
        histogram = edge_histogram(np.full((5, 5), 3.0))
    np.testing.assert_array_equal(histogram, np.zeros(8))


@pytest.mark.parametrize(
    "image, message",
    [
        (np.zeros((8, 8, 3)), r"2-D grey-scale.*\(8, 8, 3\).*mean\(axis=2\)"),
        (np.zeros(8), r"2-D grey-scale.*\(8,\)"),
        (np.array([["a", "b"], ["c", "d"]]), "real numbers; found dtype <U1"),
        (np.ones((3, 3), dtype=complex), "real numbers; found dtype complex128"),
        (np.zeros((1, 8)), r"at least 2 × 2.*\(1, 8\)"),
        (np.where(np.eye(4) > 0, np.nan, 0.0), "4 NaN or infinite pixel.*row 0, column 0"),
    ],
)
def test_edge_histogram_bad_images(image, message):
    with pytest.raises(ValueError, match=message):
        edge_histogram(image)
    with pytest.raises(ValueError, match=message):
        local_edge_histograms(image, patch=1, block=1)


@pytest.mark.parametrize("bins", [0, -2, 2.5, True])
def test_edge_histogram_bad_bins(bins):
    with pytest.raises(ValueError, match="bins must be an integer >= 1"):
        edge_histogram(np.eye(4), bins=bins)


def test_edge_histogram_does_not_modify_input():
    image = smooth_random_image(seed=2)
    saved = image.copy()
    edge_histogram(image)
    local_edge_histograms(image)
    np.testing.assert_array_equal(image, saved)


# ---------------------------------------------------------------- local edge histograms


def reference_local(image, patch_rows, patch_cols, block, bins):
    bins_of, magnitude = reference_edge_votes(image, bins)
    rows, cols = image.shape[0] // patch_rows, image.shape[1] // patch_cols
    patches = np.zeros((rows, cols, bins))
    for i in range(rows * patch_rows):
        for j in range(cols * patch_cols):
            patches[i // patch_rows, j // patch_cols, bins_of[i, j]] += magnitude[i, j]
    out = []
    for r in range(rows - block + 1):
        for c in range(cols - block + 1):
            vector = []
            for br in range(block):
                for bc in range(block):
                    vector.extend(patches[r + br, c + bc])
            length = math.sqrt(sum(v * v for v in vector))
            out.extend(v / length if length else 0.0 for v in vector)
    return np.array(out)


@pytest.mark.parametrize("patch, block", [(4, 2), ((3, 5), 2), (4, 1), (3, 3)])
def test_local_edge_histograms_match_loop_reference(patch, block):
    image = smooth_random_image(seed=3, shape=(13, 18))
    patch_rows, patch_cols = (patch, patch) if np.ndim(patch) == 0 else patch
    features = local_edge_histograms(image, patch=patch, block=block, bins=8)
    rows, cols = 13 // patch_rows, 18 // patch_cols
    assert features.shape == ((rows - block + 1) * (cols - block + 1) * block**2 * 8,)
    reference = reference_local(image, patch_rows, patch_cols, block, 8)
    np.testing.assert_allclose(features, reference, rtol=1e-12, atol=1e-15)
    block_norms = np.linalg.norm(features.reshape(-1, block**2 * 8), axis=1)
    np.testing.assert_allclose(block_norms, 1.0, rtol=1e-12)


def test_one_patch_one_block_is_the_edge_histogram():
    image = smooth_random_image(seed=4, shape=(16, 20))
    np.testing.assert_allclose(
        local_edge_histograms(image, patch=(16, 20), block=1), edge_histogram(image), rtol=1e-12
    )


def test_local_edge_histograms_flat_region_block_is_zero_without_nan():
    image = np.zeros((8, 16))
    image[:, 13:] = 1.0  # an edge only in the right-most patches (patch 4, block 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        features = local_edge_histograms(image, patch=4, block=1, bins=8).reshape(2, 4, 8)
    assert np.all(np.isfinite(features))
    np.testing.assert_array_equal(features[:, :2], 0.0)
    np.testing.assert_allclose(features[:, 3], np.eye(8)[[0, 0]], atol=1e-15)


def test_local_edge_histograms_constant_image_warns():
    with pytest.warns(UserWarning, match="constant"):
        features = local_edge_histograms(np.ones((16, 16)))
    np.testing.assert_array_equal(features, 0.0)
    assert features.shape == (1 * 1 * 4 * 8,)


def test_local_edge_histograms_bad_sizes():
    with pytest.raises(ValueError, match=r"holds 1 × 2 patches of 8 × 8 pixels, fewer than one block of 2 × 2"):
        local_edge_histograms(np.eye(12, 16), patch=8, block=2)
    with pytest.raises(ValueError, match="patch must be an integer >= 1 or a pair"):
        local_edge_histograms(np.eye(12), patch=0)
    with pytest.raises(ValueError, match="block must be an integer >= 1"):
        local_edge_histograms(np.eye(12), patch=2, block=(2, 2))


# ---------------------------------------------------------------- spectrogram


def test_hann_window_is_periodic():
    for length in (8, 255, 256):
        np.testing.assert_allclose(hann_window(length), scipy.signal.get_window("hann", length), atol=1e-15)
        np.testing.assert_allclose(hann_window(length), np.hanning(length + 1)[:-1], atol=1e-15)
        np.testing.assert_allclose(hann_window(length).sum(), length / 2, rtol=1e-12)


@pytest.mark.parametrize("frequency", [440.0, 1234.5, 3000.0])
def test_pure_tone_peaks_at_its_frequency(frequency):
    rate = 8000.0
    t = np.arange(8000) / rate
    frequencies, times, magnitudes = spectrogram(np.sin(2 * np.pi * frequency * t + 0.3), rate, window=256, hop=128)
    bin_width = rate / 256
    peaks = frequencies[np.argmax(magnitudes, axis=0)]
    assert np.all(np.abs(peaks - frequency) <= bin_width)
    assert magnitudes.shape == (129, 1 + (8000 - 256) // 128)


@pytest.mark.parametrize("length, window, hop", [(4000, 256, 128), (1000, 64, 64), (777, 100, 30), (256, 256, 1)])
def test_spectrogram_matches_scipy_up_to_the_window_sum(length, window, hop):
    rate = 16000.0
    signal = np.random.default_rng(length).normal(size=length) + 0.5  # an offset: detrending would show
    frequencies, times, magnitudes = spectrogram(signal, rate, window=window, hop=hop)
    f_ref, t_ref, s_ref = scipy.signal.spectrogram(
        signal, fs=rate, window="hann", nperseg=window, noverlap=window - hop,
        detrend=False, scaling="spectrum", mode="magnitude",
    )
    assert magnitudes.shape == s_ref.shape == (window // 2 + 1, 1 + (length - window) // hop)
    np.testing.assert_allclose(frequencies, f_ref, rtol=1e-12)
    np.testing.assert_allclose(times, t_ref, rtol=1e-12)
    factor = magnitudes / s_ref
    np.testing.assert_allclose(factor, factor.flat[0], rtol=1e-8)  # one constant for every entry
    np.testing.assert_allclose(factor.flat[0], hann_window(window).sum(), rtol=1e-8)  # = window / 2


def test_spectrogram_matches_a_direct_dft():
    rate, window, hop = 100.0, 16, 8
    signal = np.random.default_rng(0).normal(size=40)
    frequencies, times, magnitudes = spectrogram(signal, rate, window=window, hop=hop)
    w = [0.5 - 0.5 * math.cos(2 * math.pi * n / window) for n in range(window)]
    for t in range(magnitudes.shape[1]):
        frame = signal[t * hop : t * hop + window]
        for k in range(window // 2 + 1):
            value = sum(w[n] * frame[n] * cmath.exp(-2j * math.pi * k * n / window) for n in range(window))
            assert magnitudes[k, t] == pytest.approx(abs(value), rel=1e-10, abs=1e-12)
        assert times[t] == pytest.approx((t * hop + window / 2) / rate)
    np.testing.assert_allclose(frequencies, np.arange(window // 2 + 1) * rate / window)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(signal=np.zeros((300, 2))), r"1-D signal.*\(300, 2\)"),
        (dict(signal=np.zeros(100)), r"100 sample\(s\), fewer than one window of 256"),
        (dict(rate=0.0), "rate must be a positive number"),
        (dict(rate=-8000), "rate must be a positive number"),
        (dict(rate=np.inf), "rate must be a positive number"),
        (dict(rate="8000"), "rate must be a positive number"),
        (dict(hop=300), r"hop must be at most window = 256.*found 300"),
        (dict(hop=0), r"hop must be an integer >= 1; found hop = 0"),
        (dict(hop=-5), r"found hop = -5"),
        (dict(window=1), "window must be an integer >= 2; found window = 1"),
        (dict(signal=np.r_[np.zeros(300), np.nan]), "1 NaN or infinite sample.*index 300"),
        (dict(signal=np.array(["a"] * 300)), "real numbers"),
    ],
)
def test_spectrogram_bad_input(kwargs, message):
    arguments = dict(signal=np.zeros(1000), rate=8000.0, window=256, hop=128)
    arguments.update(kwargs)
    with pytest.raises(ValueError, match=message):
        spectrogram(arguments.pop("signal"), **arguments)


def test_spectrogram_does_not_modify_input():
    signal = np.random.default_rng(1).normal(size=600)
    saved = signal.copy()
    spectrogram(signal, 1000.0, window=64, hop=32)
    np.testing.assert_array_equal(signal, saved)
