"""The hints of chapter 6's TF-IDF check: each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import numpy as np
import pytest

from mlrefined_lib.checks import CheckFailed, check_tfidf_by_hand
from mlrefined_lib.histograms import tfidf

sklearn_text = pytest.importorskip("sklearn.feature_extraction.text")


def _weights(train_counts, source, *, smooth=True, outer_one=True, log=np.log, df=True):
    documents = source.shape[0]
    frequency = (np.count_nonzero(source, axis=0) if df else source.sum(axis=0)).astype(float)
    with np.errstate(divide="ignore"):
        ratio = (1.0 + documents) / (1.0 + frequency) if smooth else documents / frequency
    return log(ratio) + (1.0 if outer_one else 0.0)


def _unit(rows):
    lengths = np.sqrt((rows**2).sum(axis=1, keepdims=True))
    return np.divide(rows, lengths, out=np.zeros_like(rows), where=lengths > 0)


def tfidf_right(train_counts, test_counts):
    idf = _weights(train_counts, train_counts)
    return _unit(train_counts * idf), _unit(test_counts * idf)


def tfidf_sklearn(train_counts, test_counts):
    """Another correct answer: scikit-learn's transformer with the matching settings."""
    transformer = sklearn_text.TfidfTransformer(smooth_idf=True, norm="l2", sublinear_tf=False).fit(train_counts)
    return transformer.transform(train_counts).toarray(), transformer.transform(test_counts).toarray()


def tfidf_library(train_counts, test_counts):
    train_features, idf = tfidf(train_counts)
    return train_features, tfidf(test_counts, idf)[0]


def tfidf_idf_from_test(train_counts, test_counts):
    return _unit(train_counts * _weights(train_counts, train_counts)), _unit(
        test_counts * _weights(test_counts, test_counts))


def tfidf_idf_from_both(train_counts, test_counts):
    idf = _weights(train_counts, np.vstack([train_counts, test_counts]))
    return _unit(train_counts * idf), _unit(test_counts * idf)


def tfidf_unsmoothed(train_counts, test_counts):
    idf = _weights(train_counts, train_counts, smooth=False)
    return _unit(train_counts * idf), _unit(test_counts * idf)


def tfidf_no_outer_one(train_counts, test_counts):
    idf = _weights(train_counts, train_counts, outer_one=False)
    return _unit(train_counts * idf), _unit(test_counts * idf)


def tfidf_log10(train_counts, test_counts):
    idf = _weights(train_counts, train_counts, log=np.log10)
    return _unit(train_counts * idf), _unit(test_counts * idf)


def tfidf_total_counts(train_counts, test_counts):
    idf = _weights(train_counts, train_counts, df=False)
    return _unit(train_counts * idf), _unit(test_counts * idf)


def tfidf_not_scaled(train_counts, test_counts):
    idf = _weights(train_counts, train_counts)
    return train_counts * idf, test_counts * idf


def tfidf_plain_counts(train_counts, test_counts):
    return _unit(train_counts), _unit(test_counts)


def tfidf_in_place(train_counts, test_counts):
    idf = _weights(train_counts, train_counts)
    train_counts *= idf
    test_counts *= idf
    return _unit(train_counts), _unit(test_counts)


def tfidf_one_array(train_counts, test_counts):
    return tfidf_right(train_counts, test_counts)[1]


@pytest.mark.parametrize("answer", [tfidf_right, tfidf_sklearn])
def test_right_answers_pass(answer, capsys):
    check_tfidf_by_hand(answer)
    assert "Correct" in capsys.readouterr().out


@pytest.mark.parametrize(
    "answer, message",
    [
        (tfidf_idf_from_test, "training counts only"),
        (tfidf_idf_from_both, "training and test counts together"),
        (tfidf_unsmoothed, "not smoothed"),
        (tfidf_no_outer_one, "the \\+1 after the logarithm"),
        (tfidf_log10, "base 10"),
        (tfidf_total_counts, "count the training documents that contain"),
        (tfidf_not_scaled, "not scaled"),
        (tfidf_plain_counts, "should be"),
        (tfidf_in_place, "changed an array"),
        (tfidf_one_array, "pair"),
    ],
)
def test_typical_mistakes_get_a_helpful_message(answer, message):
    with pytest.raises(CheckFailed, match=message):
        check_tfidf_by_hand(answer)


def test_refuses_the_librarys_tfidf():
    """The exercise rules out the library's `tfidf`: calling it fails the check, with the rule."""
    with pytest.raises(CheckFailed, match="`tfidf`.*no tfidf"):
        check_tfidf_by_hand(tfidf_library)
