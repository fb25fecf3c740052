"""Unit tests of TF-IDF weighting and n-gram bags of words (chapter 6, text).

``tfidf`` and ``bag_of_words(..., ngram_range=...)`` are cross-checked against
scikit-learn's ``TfidfTransformer`` / ``TfidfVectorizer`` and
``CountVectorizer(ngram_range=(1, 2))`` with matching settings: the book's
tokenizer passed as ``tokenizer`` (so both see the same tokens),
``lowercase=False`` and ``token_pattern=None`` (``tokenize`` already
lower-cases), ``norm="l2"``, and the same ``smooth_idf`` and ``sublinear_tf``.
"""

import numpy as np
import pytest

import mlrefined_lib as ml
from mlrefined_lib.histograms import bag_of_words, tfidf, tokenize

sklearn_text = pytest.importorskip("sklearn.feature_extraction.text")

DOCUMENTS = [
    "Dogs are better than cats.",
    "Cats are better than dogs!",
    "The film was not good, not good at all.",
    "Not bad: a good film, a very good film.",
    "Good dogs, bad cats; the worst film of the year.",
    "The best film of the year, and the best dogs.",
]


def _counts(documents, ngram_range=(1, 1), vocabulary=None):
    return bag_of_words(documents, vocabulary, counts=True, ngram_range=ngram_range)


# ---------------------------------------------------------------- n-grams


def test_bigrams_by_hand():
    counts, vocabulary = _counts(["not good, not good at the end"], ngram_range=(1, 2))
    # tokens after stop words ("at", "the") and stems: not good not good end
    assert vocabulary == ["end", "good", "good end", "good not", "not", "not good"]
    np.testing.assert_array_equal(counts, [[1, 2, 1, 1, 2, 2]])


def test_bigrams_tell_word_order_apart():
    unigrams, _ = bag_of_words(DOCUMENTS[:2])
    assert np.array_equal(unigrams[0], unigrams[1])
    bigrams, _ = bag_of_words(DOCUMENTS[:2], ngram_range=(1, 2))
    assert bigrams[0] @ bigrams[1] < 0.99


def test_only_bigrams_and_default_is_unigrams():
    only, vocabulary = _counts(DOCUMENTS, ngram_range=(2, 2))
    assert all(" " in word for word in vocabulary)
    default = _counts(DOCUMENTS)
    explicit = _counts(DOCUMENTS, ngram_range=(1, 1))
    np.testing.assert_array_equal(default[0], explicit[0])
    assert default[1] == explicit[1]
    assert all(" " not in word for word in default[1])


@pytest.mark.parametrize("ngram_range", [(1, 1), (1, 2), (2, 2), (1, 3)])
def test_ngrams_match_countvectorizer(ngram_range):
    vectorizer = sklearn_text.CountVectorizer(tokenizer=tokenize, token_pattern=None, lowercase=False,
                                              ngram_range=ngram_range)
    reference = vectorizer.fit_transform(DOCUMENTS).toarray()
    counts, vocabulary = _counts(DOCUMENTS, ngram_range=ngram_range)
    assert vocabulary == list(vectorizer.get_feature_names_out())
    np.testing.assert_array_equal(counts, reference)


def test_ngram_vocabulary_from_training_applies_to_new_documents():
    _, vocabulary = _counts(DOCUMENTS[:4], ngram_range=(1, 2))
    vectorizer = sklearn_text.CountVectorizer(tokenizer=tokenize, token_pattern=None, lowercase=False,
                                              ngram_range=(1, 2), vocabulary=vocabulary)
    counts, _ = _counts(DOCUMENTS[4:], ngram_range=(1, 2), vocabulary=vocabulary)
    np.testing.assert_array_equal(counts, vectorizer.transform(DOCUMENTS[4:]).toarray())


@pytest.mark.parametrize("bad", [(0, 1), (2, 1), (1,), "12", (1.0, 2.0), (True, 2), None])
def test_bad_ngram_range_is_refused_by_name(bad):
    with pytest.raises(ValueError, match="ngram_range"):
        bag_of_words(DOCUMENTS, ngram_range=bad)


# ---------------------------------------------------------------- tf-idf


def test_tfidf_by_hand():
    counts = np.array([[2.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    features, idf = tfidf(counts, normalize=False)
    # smooth idf: ln((1 + 2) / (1 + df)) + 1 with df = 1, 1, 2
    expected_idf = np.array([np.log(1.5) + 1, np.log(1.5) + 1, 1.0])
    np.testing.assert_allclose(idf, expected_idf)
    np.testing.assert_allclose(features, counts * expected_idf)
    unit, _ = tfidf(counts)
    np.testing.assert_allclose(np.linalg.norm(unit, axis=1), 1.0)


@pytest.mark.parametrize("smooth_idf", [True, False])
@pytest.mark.parametrize("sublinear_tf", [False, True])
def test_tfidf_matches_tfidftransformer_train_and_held_out(smooth_idf, sublinear_tf):
    train_counts, vocabulary = _counts(DOCUMENTS[:4], ngram_range=(1, 2))
    test_counts, _ = _counts(DOCUMENTS[4:], ngram_range=(1, 2), vocabulary=vocabulary)
    transformer = sklearn_text.TfidfTransformer(norm="l2", smooth_idf=smooth_idf, sublinear_tf=sublinear_tf)
    transformer.fit(train_counts)
    train_features, idf = tfidf(train_counts, smooth_idf=smooth_idf, sublinear_tf=sublinear_tf)
    test_features, test_idf = tfidf(test_counts, idf, smooth_idf=smooth_idf, sublinear_tf=sublinear_tf)
    np.testing.assert_allclose(idf, transformer.idf_, rtol=1e-12)
    np.testing.assert_array_equal(test_idf, idf)
    np.testing.assert_allclose(train_features, transformer.transform(train_counts).toarray(), atol=1e-12)
    np.testing.assert_allclose(test_features, transformer.transform(test_counts).toarray(), atol=1e-12)


def test_tfidf_of_bag_of_words_matches_tfidfvectorizer():
    vectorizer = sklearn_text.TfidfVectorizer(tokenizer=tokenize, token_pattern=None, lowercase=False,
                                              ngram_range=(1, 2), smooth_idf=True, norm="l2", sublinear_tf=False)
    reference = vectorizer.fit_transform(DOCUMENTS).toarray()
    counts, vocabulary = _counts(DOCUMENTS, ngram_range=(1, 2))
    features, idf = ml.tfidf(counts)
    assert vocabulary == list(vectorizer.get_feature_names_out())
    np.testing.assert_allclose(features, reference, atol=1e-12)
    np.testing.assert_allclose(idf, vectorizer.idf_, rtol=1e-12)


def test_idf_lowers_widespread_words_and_differs_from_plain_counts():
    counts, vocabulary = _counts(DOCUMENTS)
    features, idf = tfidf(counts)
    document_frequency = np.count_nonzero(counts, axis=0)
    assert idf[np.argmax(document_frequency)] == idf.min()
    assert idf[np.argmin(document_frequency)] == idf.max()
    unit, _ = bag_of_words(DOCUMENTS)
    assert np.abs(features - unit).max() > 0.05        # the weighting does change the rows


def test_tfidf_does_not_change_its_inputs_and_zero_rows_stay_zero():
    counts = np.array([[1.0, 3.0], [0.0, 0.0], [2.0, 0.0]])
    idf_in = np.array([1.5, 2.0])
    saved_counts, saved_idf = counts.copy(), idf_in.copy()
    features, idf_out = tfidf(counts, idf_in, sublinear_tf=True)
    np.testing.assert_array_equal(counts, saved_counts)
    np.testing.assert_array_equal(idf_in, saved_idf)
    assert idf_out is not idf_in
    np.testing.assert_array_equal(features[1], [0.0, 0.0])
    assert np.all(np.isfinite(features))


@pytest.mark.parametrize(
    "counts, idf, match",
    [
        (np.array([1.0, 2.0]), None, "shape"),
        (np.zeros((0, 3)), None, "shape"),
        (np.array([[1.0, -1.0]]), None, "non-negative"),
        (np.array([[1.0, np.nan]]), None, "non-negative"),
        (np.array([["a", "b"]]), None, "dtype"),
        (np.ones((2, 3)), np.ones(2), "one positive finite weight per column"),
        (np.ones((2, 3)), np.array([1.0, 0.0, 1.0]), "one positive finite weight per column"),
    ],
)
def test_bad_input_is_refused_before_any_work(counts, idf, match):
    with pytest.raises(ValueError, match=match):
        tfidf(counts, idf)


def test_unsmoothed_idf_refuses_a_word_seen_in_no_document():
    counts = np.array([[1.0, 0.0], [2.0, 0.0]])
    with pytest.raises(ValueError, match="smooth_idf=False.*column"):
        tfidf(counts, smooth_idf=False)
    features, idf = tfidf(counts, smooth_idf=True)             # smoothing keeps it finite
    assert np.all(np.isfinite(idf)) and np.all(np.isfinite(features))
