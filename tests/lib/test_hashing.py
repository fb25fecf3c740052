"""Tests of feature hashing against scikit-learn's MurmurHash3 and FeatureHasher."""

import numpy as np
import pytest
from sklearn.feature_extraction import FeatureHasher
from sklearn.utils import murmurhash3_32

import mlrefined_lib as ml
from mlrefined_lib.histograms import _murmur3_32

WORDS = ["", "a", "ab", "abc", "abcd", "abcde", "the cat sat", "naïve café", "日本語", "city=Paris",
         "x" * 37, "not good", "isn't", "dog's"]


def test_murmur3_matches_scikit_learn():
    for word in WORDS + [f"w{n}" for n in range(500)]:
        assert _murmur3_32(word.encode("utf-8")) == murmurhash3_32(word, seed=0, positive=False)


@pytest.mark.parametrize("columns", [1, 2, 7, 16, 1000, 2 ** 20])
@pytest.mark.parametrize("signed", [True, False])
def test_hash_features_match_feature_hasher(columns, signed):
    rng = np.random.default_rng(columns)
    vocabulary = [f"token{n}" for n in range(300)] + WORDS
    rows = [list(rng.choice(vocabulary, size=rng.integers(0, 40))) for _ in range(25)]
    rows.append([])
    expected = FeatureHasher(n_features=columns, input_type="string", alternate_sign=signed).transform(rows)
    np.testing.assert_array_equal(ml.hash_features(rows, columns, signed=signed), expected.toarray())


def test_hash_columns_and_collisions():
    index, sign = ml.hash_columns(["good", "bad", "good"], 8)
    assert index[0] == index[2] and sign[0] == sign[2]
    assert set(np.unique(sign)) <= {-1.0, 1.0} and index.min() >= 0 and index.max() < 8
    words = [f"w{n}" for n in range(2000)]
    shared = {}
    for columns in (256, 4096, 65536):
        index, _ = ml.hash_columns(words, columns)
        counts = np.bincount(index, minlength=columns)
        shared[columns] = np.mean(counts[index] > 1)
    assert shared[256] > shared[4096] > shared[65536]
    # The share of words that share a column is about 1 − (1 − 1/m)^(V − 1) for random hashing.
    assert shared[4096] == pytest.approx(1 - (1 - 1 / 4096) ** 1999, abs=0.04)


@pytest.mark.parametrize("call, message", [
    (lambda: ml.hash_features(["one string"], 8), r"rows\[0\] is one string"),
    (lambda: ml.hash_features("text", 8), r"not one string"),
    (lambda: ml.hash_features([["a", 3]], 8), r"strings\[1\] must be a string; found int 3"),
    (lambda: ml.hash_features([["a"]], 0), r"columns must be an integer >= 1"),
    (lambda: ml.hash_columns("abc", 8), r"not one string"),
])
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
