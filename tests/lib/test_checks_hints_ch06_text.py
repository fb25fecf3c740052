"""The hints of chapter 6's text checks: each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import re

import numpy as np
import pytest

import mlrefined_lib as ml
from mlrefined_lib.checks import CheckFailed, check_bag_of_words_by_hand, check_spam_feature_groups

# ---------------------------------------------------------------- bag of words by hand


def _counts(documents, vocabulary, stop_words, *, lower=True, drop=True):
    stop = set(stop_words) if drop else set()
    column = {word: v for v, word in enumerate(vocabulary)}
    counts = np.zeros((len(documents), len(vocabulary)))
    for p, document in enumerate(documents):
        text = document.lower() if lower else document
        for token in re.findall(r"[A-Za-z0-9]+", text):
            if token not in stop and token in column:
                counts[p, column[token]] += 1
    return counts


def _unit_rows(counts):
    lengths = np.sqrt((counts**2).sum(axis=1, keepdims=True))
    return np.divide(counts, lengths, out=np.zeros_like(counts), where=lengths > 0)


def bow_right(documents, vocabulary, stop_words):
    return _unit_rows(_counts(documents, vocabulary, stop_words))


def bow_split_and_strip(documents, vocabulary, stop_words):
    """Another correct way: split on spaces, strip punctuation from each word."""
    import string

    rows = []
    for document in documents:
        words = [w.strip(string.punctuation) for w in document.lower().split()]
        words = [w for w in words if w and w not in stop_words]
        row = np.array([float(words.count(v)) for v in vocabulary])
        length = np.sqrt(row @ row)
        rows.append(row / length if length > 0 else row)
    return np.array(rows)


def bow_raw_counts(documents, vocabulary, stop_words):
    return _counts(documents, vocabulary, stop_words)


def bow_l1(documents, vocabulary, stop_words):
    counts = _counts(documents, vocabulary, stop_words)
    sums = counts.sum(axis=1, keepdims=True)
    return np.divide(counts, sums, out=np.zeros_like(counts), where=sums > 0)


def bow_keeps_stop_words(documents, vocabulary, stop_words):
    return _unit_rows(_counts(documents, vocabulary, stop_words, drop=False))


def bow_no_lowercase(documents, vocabulary, stop_words):
    return _unit_rows(_counts(documents, vocabulary, stop_words, lower=False))


def bow_nan_for_empty(documents, vocabulary, stop_words):
    counts = _counts(documents, vocabulary, stop_words)
    with np.errstate(invalid="ignore"):
        return counts / np.sqrt((counts**2).sum(axis=1, keepdims=True))


def bow_presence(documents, vocabulary, stop_words):
    return _unit_rows((_counts(documents, vocabulary, stop_words) > 0).astype(float))


def bow_transposed(documents, vocabulary, stop_words):
    return bow_right(documents, vocabulary, stop_words).T


@pytest.mark.parametrize("answer", [bow_right, bow_split_and_strip])
def test_bag_of_words_check_passes_correct_answers(answer, capsys):
    check_bag_of_words_by_hand(answer)
    assert "Correct" in capsys.readouterr().out


@pytest.mark.parametrize(
    "wrong, message",
    [
        (bow_raw_counts, "raw counts"),
        (bow_l1, "Euclidean length"),
        (bow_keeps_stop_words, "stop words are still counted"),
        (bow_no_lowercase, "Lower-case"),
        (bow_nan_for_empty, "NaN"),
        (bow_presence, "every occurrence"),
        (bow_transposed, "shape"),
    ],
)
def test_bag_of_words_check_fails_wrong_answers(wrong, message):
    with pytest.raises(CheckFailed, match=message):
        check_bag_of_words_by_hand(wrong)


# ---------------------------------------------------------------- spam feature groups


def _prepare(x_train, x_test, *, log=True, stats="train"):
    train = np.log1p(x_train) if log else x_train
    test = np.log1p(x_test) if log else x_test
    if stats == "train":
        transform = ml.standard_normalizer(train)[0]
        return transform(train), transform(test)
    if stats == "own":
        return ml.standard_normalizer(train)[0](train), ml.standard_normalizer(test)[0](test)
    return train, test


def _train(x_train, y_train, x_test, y_test, alpha, steps, *, count_on="test", **options):
    train, test = _prepare(x_train, x_test, **options)
    history = ml.gradient_descent(ml.softmax(train, y_train), np.zeros(train.shape[1] + 1), alpha, steps)
    w = history.final_weights
    if count_on == "test":
        return w, ml.misclassifications(test, y_test)(w)
    return w, ml.misclassifications(train, y_train)(w)


def spam_right(x_train, y_train, x_test, y_test, alpha, steps):
    return _train(x_train, y_train, x_test, y_test, alpha, steps)


def spam_no_log(x_train, y_train, x_test, y_test, alpha, steps):
    return _train(x_train, y_train, x_test, y_test, alpha, steps, log=False)


def spam_not_normalized(x_train, y_train, x_test, y_test, alpha, steps):
    return _train(x_train, y_train, x_test, y_test, alpha, steps, stats="none")


def spam_test_statistics(x_train, y_train, x_test, y_test, alpha, steps):
    return _train(x_train, y_train, x_test, y_test, alpha, steps, stats="own")


def spam_training_errors(x_train, y_train, x_test, y_test, alpha, steps):
    return _train(x_train, y_train, x_test, y_test, alpha, steps, count_on="train")


def spam_one_step_short(x_train, y_train, x_test, y_test, alpha, steps):
    return _train(x_train, y_train, x_test, y_test, alpha, steps - 1)


def spam_in_place(x_train, y_train, x_test, y_test, alpha, steps):
    np.log1p(x_train, out=x_train)
    np.log1p(x_test, out=x_test)
    transform = ml.standard_normalizer(x_train)[0]
    train, test = transform(x_train), transform(x_test)
    w = ml.gradient_descent(ml.softmax(train, y_train), np.zeros(train.shape[1] + 1), alpha, steps).final_weights
    return w, ml.misclassifications(test, y_test)(w)


def spam_errors_only(x_train, y_train, x_test, y_test, alpha, steps):
    return spam_right(x_train, y_train, x_test, y_test, alpha, steps)[1]


def test_spam_check_passes_the_library_route(capsys):
    check_spam_feature_groups(spam_right)
    assert "Correct" in capsys.readouterr().out


@pytest.mark.parametrize(
    "wrong, message",
    [
        (spam_no_log, "log"),
        (spam_not_normalized, "not standard-normalized"),
        (spam_test_statistics, "its own mean"),
        (spam_training_errors, r"\*training\*"),
        (spam_one_step_short, "exactly `steps` steps"),
        (spam_in_place, "changed an array"),
        (spam_errors_only, "pair"),
    ],
)
def test_spam_check_fails_wrong_answers(wrong, message):
    with pytest.raises(CheckFailed, match=message):
        check_spam_feature_groups(wrong)
