"""Chapter 6, histogram features (categorical data, audio, text, images): the checks of its exercises."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from ._grading import CheckFailed, graded
from ._reference import _as_array, _as_number, _call

__all__ = ["check_one_hot_by_hand", "check_collision_share", "check_chord_peaks", "check_bag_of_words_by_hand", "check_spam_feature_groups", "check_tfidf_by_hand", "check_rotation_shift", "check_train_and_test"]


@graded(forbids=('one_hot',), rule='no ml.one_hot')
def check_one_hot_by_hand(student: Callable) -> None:
    """Check ``student(values, categories) -> (P, K) array`` (chapter 6).

    Row ``p`` should hold a 1 in the column of ``values[p]``'s position in
    ``categories`` and zeros elsewhere, including a column for a category that
    never occurs; a value outside ``categories`` should raise a ValueError, and
    the given lists should not change. The reference is written here with an
    identity matrix.
    """
    categories = ["red", "green", "blue", "violet"]          # "violet" never occurs
    values = ["blue", "red", "blue", "green", "red", "red"]
    saved = (list(values), list(categories))
    result = _call(student, "one_hot_by_hand", values, categories)
    if (values, categories) != saved:
        raise CheckFailed("one_hot_by_hand changed the lists it was given; build a new array instead.")
    try:
        shape = np.shape(result)
    except Exception:  # noqa: BLE001 - any object a student returns
        shape = None
    if shape == (len(categories), len(values)):
        raise CheckFailed(f"one_hot_by_hand returned shape {shape}: one row per category. Return one row per "
                          f"point, one column per category: shape ({len(values)}, {len(categories)}).")
    if shape == (len(values), 3):
        raise CheckFailed("one_hot_by_hand returned 3 columns, one per category that occurs. Use the categories "
                          "you are given, in their order: 'violet' never occurs but still needs its column, so "
                          "that test data with violet encodes the same way.")
    got = _as_array(result, "one_hot_by_hand", (len(values), len(categories)))
    expected = np.eye(len(categories))[[categories.index(v) for v in values]]
    if not np.array_equal(got, expected):
        if np.array_equal(np.sort(got, axis=1), np.sort(expected, axis=1)):
            raise CheckFailed("each row has a single 1, but in the wrong column: put it in column "
                              "categories.index(value), so the columns follow the order of categories.")
        raise CheckFailed("the rows are not one-hot rows of the categories: row p should be 1 in the column of "
                          "values[p] and 0 everywhere else.")
    try:
        _call(student, "one_hot_by_hand", ["red", "magenta"], categories)
    except ValueError as error:
        if "magenta" not in str(error):
            raise CheckFailed("a value outside the categories raised a ValueError, but its message should name "
                              "the value ('magenta') so the user can find it.") from None
    else:
        raise CheckFailed("one_hot_by_hand(['red', 'magenta'], categories) should raise a ValueError naming "
                          "'magenta': a category never seen has no column, and silently encoding it as zeros "
                          "(or as another category) hides the problem.")
    print("Correct: one row per point, one column per given category, and unknown values are refused by name.")


@graded
def check_collision_share(student: Callable) -> None:
    """Check ``student(distinct, columns)``: the expected share of colliding strings (chapter 6).

    ``distinct`` strings are hashed to ``columns`` columns, each string to each
    column with probability 1/columns, independently; the answer is the
    expected share of the strings that share their column with at least one
    other. The reference counts, for one string, the chance that each of the
    other strings misses its column. The messages name the usual slips
    without printing an expected value.
    """
    cases = [(3, 4), (2, 1), (1, 10), (50, 100), (11808, 16384), (7, 5), (1000, 64), (10**6, 2**20)]
    for distinct, columns in cases:
        got = _as_number(_call(student, "expected_collision_share", distinct, columns),
                         "expected_collision_share", "one number, a share between 0 and 1")
        alone = (1.0 - 1.0 / columns) ** (distinct - 1)
        expected = 1.0 - alone
        if np.isclose(got, expected, rtol=1e-9, atol=1e-12):
            continue
        where = f"for {distinct} strings in {columns} columns"
        if np.isclose(got, (distinct - 1) / columns, rtol=1e-9, atol=1e-12) or np.isclose(
                got, distinct / columns, rtol=1e-9, atol=1e-12):
            raise CheckFailed(f"{where} you returned an expected number of strings per column, which is not a "
                              "share: it grows past 1 when there are more strings than columns.")
        if not np.isfinite(got) or not 0.0 <= got <= 1.0:
            raise CheckFailed(f"{where} your function returned {got!r}, which is not a share between 0 and 1. "
                              "An expected count of other strings per column (such as K/M) is not a share.")
        if np.isclose(got, alone, rtol=1e-9, atol=1e-12):
            raise CheckFailed(f"{where} you returned the share of strings that are alone in their column; "
                              "the question asks for the others, those that share it.")
        if np.isclose(got, 1.0 - (1.0 - 1.0 / columns) ** distinct, rtol=1e-9, atol=1e-12):
            raise CheckFailed(f"{where} you let the string collide with itself: count where the *other* "
                              "strings land, one fewer than all of them.")
        if np.isclose(got, 1.0 - np.exp(-(distinct - 1) / columns), rtol=1e-9, atol=1e-12) or np.isclose(
                got, 1.0 - np.exp(-distinct / columns), rtol=1e-9, atol=1e-12):
            raise CheckFailed(f"{where} you returned an exponential approximation; it is close for many "
                              "columns but not for a few. Give the exact expected share.")
        raise CheckFailed(f"{where} your function returned {got:.6g}, which is not the expected share. Take one "
                          "string: what is the chance that every other string misses its column? (A simulation "
                          "is too noisy for this check; derive the share.)")
    print("Correct: your shares match the exact expected share for few and many strings and columns.")


def _chord(rng: np.random.Generator, rate: int, seconds: float, amplitudes, low: float, high: float):
    """A sum of tones with random, well-separated, off-bin frequencies and random phases."""
    samples = int(round(rate * seconds))
    bin_width = rate / samples
    while True:
        frequencies = np.sort(rng.uniform(low, high, size=len(amplitudes)))
        if np.min(np.diff(frequencies)) > 40 * bin_width:
            break
    frequencies = (np.floor(frequencies / bin_width) + 0.3) * bin_width  # between two bins
    times = np.arange(samples) / rate
    phases = rng.uniform(0, 2 * np.pi, size=len(amplitudes))
    signal = sum(a * np.cos(2 * np.pi * f * times + p) for a, f, p in zip(amplitudes, frequencies, phases))
    return signal, frequencies


@graded
def check_chord_peaks(student: Callable) -> None:
    """Check ``student(signal, rate, count)``: the ``count`` strongest frequencies in Hz, increasing (chapter 6).

    The reference is the truth: each test signal is a sum of tones whose
    frequencies (between two DFT bins, at least 40 bins apart) and amplitudes
    are known, so the ``count`` loudest tones are known. An answer passes if
    each returned frequency is within 1.5 bin widths (``1.5 · rate / S``) of
    the right tone.
    """
    rng = np.random.default_rng(53)
    cases = [
        (8000, 1.0, [1.0, 0.5, 0.25], 3),
        (16000, 0.5, [0.3, 1.0, 0.6, 0.15], 4),
        (11025, 0.8, [0.9, 0.2, 0.6], 2),
    ]
    for rate, seconds, amplitudes, count in cases:
        signal, frequencies = _chord(rng, rate, seconds, amplitudes, 120.0, 0.3 * rate)
        saved = signal.copy()
        loudest = np.sort(frequencies[np.argsort(amplitudes)[::-1][:count]])
        bin_width = rate / signal.size
        where = f"a chord of {len(amplitudes)} tones at {rate} Hz, {signal.size} samples, count={count}"
        got = _call(student, "chord_peaks", signal, rate, count)
        if not np.array_equal(signal, saved):
            raise CheckFailed("chord_peaks changed the signal it was given; work on a copy.")
        try:
            got = np.atleast_1d(np.asarray(got, dtype=float))
        except (TypeError, ValueError):
            raise CheckFailed(f"chord_peaks should return an array of numbers; found {type(got).__name__}.") from None
        if got.shape != (count,):
            raise CheckFailed(f"chord_peaks should return {count} frequencies for count={count} ({where}); "
                              f"found an array of shape {got.shape}.")
        if not np.all(np.isfinite(got)):
            raise CheckFailed("chord_peaks returned NaN or inf values.")
        tolerance = 1.5 * bin_width
        if np.all(np.abs(got - loudest) <= tolerance):
            continue
        if np.all(np.abs(np.sort(got) - loudest) <= tolerance):
            raise CheckFailed(f"chord_peaks finds the right frequencies but not in increasing order ({where}): "
                              f"found {np.round(got, 1).tolist()}; return them sorted, e.g. np.sort(...).")
        if np.all(np.abs(np.sort(got) - loudest / bin_width) <= 1.5):
            raise CheckFailed(f"chord_peaks returns DFT bin numbers, not frequencies ({where}): bin k of an "
                              f"rfft of S samples is the frequency k · rate / S Hz (here k · {bin_width:.4g} Hz).")
        if np.all(np.abs(np.sort(got) - loudest / rate) <= 1.5 / signal.size):
            raise CheckFailed(f"chord_peaks returns frequencies in cycles per sample ({where}); multiply by the "
                              "rate, or use np.fft.rfftfreq(S, d=1 / rate), to get Hz.")
        if count > 1 and np.min(np.diff(np.sort(got))) <= 4 * bin_width:
            raise CheckFailed(f"two of your frequencies are within {4 * bin_width:.3g} Hz of each other ({where}): "
                              f"found {np.round(got, 1).tolist()} Hz. Those are neighbouring bins of one peak, not "
                              "two tones: a tone that falls between two bins spreads over several of them. "
                              "Keep only local maxima (bins larger than both neighbours), then take the "
                              f"{count} largest.")
        raise CheckFailed(f"chord_peaks returned {np.round(got, 1).tolist()} Hz for {where}, but the {count} "
                          f"loudest tones are at {np.round(loudest, 1).tolist()} Hz (tolerance ±{tolerance:.3g} Hz). "
                          "Take |np.fft.rfft(signal)|, find its peaks, keep the count largest and convert their "
                          "bins to Hz with np.fft.rfftfreq(len(signal), d=1 / rate).")
    print("Correct: chord_peaks finds the loudest tones of three fresh chords, in Hz, at different rates and lengths.")


@graded(forbids=('tokenize', 'bag_of_words'), rule='no tokenize or bag_of_words')
def check_bag_of_words_by_hand(student: Callable) -> None:
    """Check ``student(documents, vocabulary, stop_words) -> (P, V) array``: a bag of words by hand (chapter 6).

    Each row should count the words of ``vocabulary`` in one document (lower-cased,
    cut into runs of letters and digits, so that "isn't" gives "isn" and "t",
    ``stop_words`` dropped, no stemming) and be scaled to unit
    Euclidean length; a document with no word of the vocabulary gives a row of zeros.
    The reference is the library's ``bag_of_words(..., stem=False)`` on fresh documents.
    """
    import string
    import warnings

    from ..histograms import bag_of_words

    documents = [
        "The plot is thin, the acting is great, and the music is great too!",
        "Great music. Terrible plot; terrible, TERRIBLE acting.",
        "It is what it is.",
        "",
        "Music, music, music: the film is all music and no plot?",
        "Acting",
        "The dog's music isn't great; the dog's acting is.",
    ]
    vocabulary = ["acting", "great", "music", "plot", "terrible", "the", "is", "film", "dog", "isn"]
    stop_words = ["the", "is", "it", "and", "a", "what", "all", "too"]
    saved = (list(documents), list(vocabulary), list(stop_words))

    def reference(stop):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # the all-zero rows are expected here
            return bag_of_words(documents, vocabulary, stop_words=stop, stem=False, counts=True)[0]

    counts = reference(stop_words)
    lengths = np.sqrt((counts**2).sum(axis=1, keepdims=True))
    expected = np.divide(counts, lengths, out=np.zeros_like(counts), where=lengths > 0)
    result = _call(student, "bag_of_words_by_hand", list(documents), list(vocabulary), list(stop_words))
    if (list(documents), list(vocabulary), list(stop_words)) != saved:
        raise CheckFailed("bag_of_words_by_hand changed a list it was given; work on new lists.")
    shape = (len(documents), len(vocabulary))
    try:
        got = np.asarray(result, dtype=float)
    except (TypeError, ValueError):
        raise CheckFailed(f"bag_of_words_by_hand should return an array of numbers; found {type(result).__name__}.") from None
    if got.shape != shape:
        raise CheckFailed(f"bag_of_words_by_hand should return an array of shape (documents, vocabulary) = {shape}; "
                          f"found shape {got.shape}.")
    if not np.all(np.isfinite(got)):
        row = int(np.flatnonzero(~np.all(np.isfinite(got), axis=1))[0])
        raise CheckFailed(f"row {row} (document {documents[row]!r}) holds NaN or inf: a document without any word "
                          "of the vocabulary has length 0, so leave its row at zero instead of dividing 0 by 0.")
    if np.allclose(got, expected, atol=1e-9):
        print("Correct: your bag of words matches the library's on seven fresh documents, "
              "the empty one, the one made of stop words and the one with apostrophes included.")
        return
    l1 = counts.sum(axis=1, keepdims=True)
    no_stop = reference(())
    no_stop_lengths = np.sqrt((no_stop**2).sum(axis=1, keepdims=True))
    presence = (counts > 0).astype(float)
    presence_lengths = np.sqrt(presence.sum(axis=1, keepdims=True))
    at_spaces = np.zeros_like(counts)
    column = {word: v for v, word in enumerate(vocabulary)}
    for p, document in enumerate(documents):
        for word in document.lower().split():
            word = word.strip(string.punctuation)
            if word in column and word not in stop_words:
                at_spaces[p, column[word]] += 1
    at_spaces_lengths = np.sqrt((at_spaces**2).sum(axis=1, keepdims=True))
    hints = [
        (np.divide(at_spaces, at_spaces_lengths, out=np.zeros_like(at_spaces), where=at_spaces_lengths > 0),
         "the words are cut at the spaces only, so \"dog's\" and \"isn't\" stay whole: cut the text at every "
         "character that is not a letter or a digit, an apostrophe included (\"isn't\" gives \"isn\" and \"t\")."),
        (counts, "these are the raw counts: divide each row by its length, the square root of the sum of its "
                 "squared counts."),
        (np.divide(counts, l1, out=np.zeros_like(counts), where=l1 > 0),
         "each row is divided by the sum of its counts; divide by its Euclidean length (square root of the sum "
         "of squares) instead, so that the inner product of two rows is a cosine."),
        (np.divide(no_stop, no_stop_lengths, out=np.zeros_like(no_stop), where=no_stop_lengths > 0),
         "the stop words are still counted: drop every token that is in stop_words before counting (here "
         "'the' and 'is' are in both the vocabulary and the stop words, so their columns must stay 0)."),
        (np.divide(presence, presence_lengths, out=np.zeros_like(presence), where=presence_lengths > 0),
         "each word is counted once per document however often it occurs: count every occurrence."),
    ]
    for wrong, hint in hints:
        if np.allclose(got, wrong, atol=1e-9):
            raise CheckFailed(f"bag_of_words_by_hand is not right: {hint}")
    row = int(np.argmax(np.abs(got - expected).max(axis=1)))
    raise CheckFailed(
        f"row {row} is not right: for the document {documents[row]!r} you return "
        f"{np.round(got[row], 4).tolist()}, but it should be {np.round(expected[row], 4).tolist()} "
        f"(columns {vocabulary}). Lower-case the text, cut it into runs of letters and digits so that 'plot;' "
        "and \"dog's\" give 'plot' and 'dog', 's', drop the stop words, count, and scale the row to unit length."
    )


def _spam_reference(x_train, y_train, x_test, y_test, alpha, steps, *, log=True, stats="train"):
    """Plain-NumPy gradient descent on the softmax cost after log1p and standard normalization."""
    train = np.log1p(x_train) if log else np.array(x_train, dtype=float)
    test = np.log1p(x_test) if log else np.array(x_test, dtype=float)
    if stats == "train":
        mean, std = train.mean(axis=0), train.std(axis=0)
        train, test = (train - mean) / std, (test - mean) / std
    elif stats == "own":
        train = (train - train.mean(axis=0)) / train.std(axis=0)
        test = (test - test.mean(axis=0)) / test.std(axis=0)
    a = np.column_stack([np.ones(len(train)), train])
    b = np.column_stack([np.ones(len(test)), test])
    w = np.zeros(a.shape[1])
    for _ in range(steps):
        w = w + alpha * a.T @ (y_train * 0.5 * (1.0 - np.tanh(0.5 * y_train * (a @ w)))) / len(a)
    test_errors = int(np.count_nonzero(np.where(b @ w > 0, 1.0, -1.0) != y_test))
    train_errors = int(np.count_nonzero(np.where(a @ w > 0, 1.0, -1.0) != y_train))
    return w, test_errors, train_errors


@graded
def check_spam_feature_groups(student: Callable) -> None:
    """Check ``student(x_train, y_train, x_test, y_test, alpha, steps) -> (weights, test_errors)`` (chapter 6).

    The function should take ``log(1 + x)`` of both splits, standard-normalize
    them with the mean and standard deviation of the *training* split, run
    ``steps`` gradient-descent steps with step length ``alpha`` on the two-class
    softmax cost (labels ±1) from ``w = 0``, and return the final weights
    (bias first) and the number of misclassified *test* points. The reference is
    a plain-NumPy loop, on skewed synthetic counts whose test split is shifted.
    """
    rng = np.random.default_rng(51)
    alpha, steps = 1.0, 40
    for trial, (num_train, num_test, scales) in enumerate([(150, 80, [1.0, 20.0, 300.0]),
                                                           (90, 70, [5.0, 0.5, 50.0, 2000.0])]):
        columns = len(scales)
        x_train = rng.exponential(scales, size=(num_train, columns))
        x_test = 1.6 * rng.exponential(scales, size=(num_test, columns))    # shifted: its statistics differ
        true_w = rng.normal(size=columns) * 1.5

        def labels(x):
            score = (np.log1p(x) - np.log1p(np.array(scales))) @ true_w + 0.7 * rng.normal(size=len(x))
            return np.where(score > 0, 1.0, -1.0)

        y_train, y_test = labels(x_train), labels(x_test)
        saved = [v.copy() for v in (x_train, y_train, x_test, y_test)]
        result = _call(student, "train_and_count_errors", x_train, y_train, x_test, y_test, alpha, steps)
        if not all(np.array_equal(a, b) for a, b in zip((x_train, y_train, x_test, y_test), saved)):
            raise CheckFailed("train_and_count_errors changed an array it was given; work on copies "
                              "(np.log1p(x) returns a new array).")
        if not (isinstance(result, tuple) and len(result) == 2):
            raise CheckFailed("train_and_count_errors should return a pair (weights, test_errors).")
        weights = _as_array(result[0], "the weights returned by train_and_count_errors", (columns + 1,))
        try:
            errors = int(result[1])
        except (TypeError, ValueError):
            raise CheckFailed("the second value returned should be a number of misclassified test points; "
                              f"found {type(result[1]).__name__}.") from None
        w, test_errors, train_errors = _spam_reference(x_train, y_train, x_test, y_test, alpha, steps)
        if np.allclose(weights, w, rtol=1e-6, atol=1e-9):
            if errors == test_errors:
                continue
            own_errors = _spam_reference(x_train, y_train, x_test, y_test, alpha, steps, stats="own")[1]
            if errors == own_errors:
                raise CheckFailed("the weights are right, but the test split is normalized with its own mean and "
                                  "standard deviation; use the training statistics for both splits, as a model "
                                  "in use would have to.")
            if errors == train_errors:
                raise CheckFailed(f"the weights are right, but {errors} is the number of misclassified *training* "
                                  f"points; count the test points instead ({num_test} of them).")
            raise CheckFailed(f"the weights are right, but the test split has {test_errors} misclassified points, "
                              f"not {errors}. Transform x_test exactly as x_train (log1p, then the training mean "
                              "and standard deviation), predict sign(w[0] + x @ w[1:]) and count the mismatches.")
        if np.allclose(weights, 0.0):
            raise CheckFailed("the weights are all zero: run `steps` gradient-descent steps from w = 0.")
        variants = [
            (dict(log=False), "your weights match inputs that were standard-normalized without taking "
                              "log(1 + x) first: apply np.log1p to both splits before normalizing."),
            (dict(stats="none"), "your weights match inputs that were not standard-normalized: after log1p, "
                                 "subtract the training mean and divide by the training standard deviation."),
            (dict(log=False, stats="none"), "your weights match the raw inputs: take log(1 + x), then "
                                            "standard-normalize with the training statistics."),
        ]
        for options, hint in variants:
            if np.allclose(weights, _spam_reference(x_train, y_train, x_test, y_test, alpha, steps, **options)[0],
                           rtol=1e-6, atol=1e-9):
                raise CheckFailed(hint)
        raise CheckFailed(
            f"on synthetic data {trial + 1} your weights are {np.round(weights, 4).tolist()}, but they should be "
            f"{np.round(w, 4).tolist()} after {steps} steps with alpha = {alpha}. Start from w = 0 (bias first), "
            "use the mean softmax cost log(1 + exp(−y·model)) with labels ±1, and take exactly `steps` steps."
        )
    print("Correct: your weights and test errors match the reference on two synthetic spam-like data sets.")


def _tfidf_reference(train_counts, test_counts, *, idf_from="train", smooth=True, outer_one=True, log=np.log,
                     document_frequency=True, normalize=True):
    """TF-IDF rows of both splits, with switches that reproduce typical mistakes (for the check's hints)."""
    def idf_of(source):
        documents = source.shape[0]
        frequency = np.count_nonzero(source, axis=0) if document_frequency else source.sum(axis=0)
        frequency = frequency.astype(float)
        ratio = (1.0 + documents) / (1.0 + frequency) if smooth else documents / frequency
        return log(ratio) + (1.0 if outer_one else 0.0)

    if idf_from == "each":                                       # each split weighted by its own idf
        weights = [idf_of(train_counts), idf_of(test_counts)]
    else:
        source = train_counts if idf_from == "train" else np.vstack([train_counts, test_counts])
        weights = [idf_of(source)] * 2
    rows = []
    for counts, idf in zip((train_counts, test_counts), weights):
        weighted = counts * idf
        if normalize:
            lengths = np.sqrt((weighted**2).sum(axis=1, keepdims=True))
            weighted = np.divide(weighted, lengths, out=np.zeros_like(weighted), where=lengths > 0)
        rows.append(weighted)
    return rows


@graded(forbids=('tfidf',), rule='no tfidf')
def check_tfidf_by_hand(student: Callable) -> None:
    """Check ``student(train_counts, test_counts) -> (train_features, test_features)``: TF-IDF by hand (chapter 6).

    Both splits should be weighted by the *training* split's smoothed inverse
    document frequency ``ln((1 + P) / (1 + df_v)) + 1`` (``P`` training
    documents, ``df_v`` of them containing word ``v``) and scaled to unit rows;
    a row of zeros stays zero. The reference is computed here from the
    formula; the library's ``tfidf`` and scikit-learn's ``TfidfTransformer``
    (``smooth_idf=True, norm="l2", sublinear_tf=False``) give the same numbers.
    """
    rng = np.random.default_rng(2055)
    train_counts = rng.poisson(rng.uniform(0.05, 1.5, size=7), size=(12, 7)).astype(float)
    train_counts[:, 0] += 1.0                                   # a word in every training document
    train_counts[:, 6] = 0.0
    train_counts[3, 6] = 2.0                                    # a rare word: one training document, twice
    test_counts = rng.poisson(rng.uniform(0.05, 1.5, size=7), size=(5, 7)).astype(float)
    test_counts[2] = 0.0                                        # a document with no word of the vocabulary
    test_counts[:, 5] = 3.0                                     # common in the test split, rarer in training
    train_counts[:, 5] = 0.0
    train_counts[[1, 8], 5] = 1.0
    for column in np.flatnonzero(np.count_nonzero(train_counts, axis=0) == 0):
        train_counts[column % len(train_counts), column] = 1.0  # every word in some training document
    saved = (train_counts.copy(), test_counts.copy())
    expected_train, expected_test = _tfidf_reference(train_counts, test_counts)
    result = _call(student, "tfidf_by_hand", train_counts, test_counts)
    if not isinstance(result, tuple) or len(result) != 2:
        raise CheckFailed("tfidf_by_hand should return a pair (train_features, test_features); found "
                          f"{type(result).__name__}.")
    if not (np.array_equal(train_counts, saved[0]) and np.array_equal(test_counts, saved[1])):
        raise CheckFailed("tfidf_by_hand changed an array it was given; work on new arrays.")
    got_train = _as_array(result[0], "tfidf_by_hand's train_features", train_counts.shape)
    got_test = _as_array(result[1], "tfidf_by_hand's test_features", test_counts.shape)
    if np.allclose(got_train, expected_train, atol=1e-9) and np.allclose(got_test, expected_test, atol=1e-9):
        print("Correct: both splits are weighted by the training split's smoothed idf and scaled to unit length.")
        return
    hints = [
        (dict(idf_from="each"), "the idf of the test split seems to come from the test counts; learn it from the "
                                "training counts only, like the vocabulary, and apply it to both splits."),
        (dict(idf_from="both"), "the idf seems to be computed from the training and test counts together; the "
                                "held-out documents must take no part in it: use the training counts only."),
        (dict(smooth=False), "the idf is not smoothed: use ln((1 + P) / (1 + df)) + 1, with one added to the "
                             "number of documents and to every document frequency."),
        (dict(outer_one=False), "the +1 after the logarithm is missing: idf = ln((1 + P) / (1 + df)) + 1, so a "
                                "word in every document keeps weight 1 instead of 0."),
        (dict(log=np.log10), "the logarithm is in base 10; use the natural logarithm, np.log."),
        (dict(log=np.log2), "the logarithm is in base 2; use the natural logarithm, np.log."),
        (dict(document_frequency=False), "df should count the training documents that contain the word (np.count_"
                                         "nonzero(train_counts, axis=0)), not how often it occurs in total."),
        (dict(normalize=False), "the rows are weighted but not scaled: divide each row by its Euclidean length "
                                "(leave rows of zeros at zero)."),
    ]
    for keywords, hint in hints:
        with np.errstate(all="ignore"):
            wrong_train, wrong_test = _tfidf_reference(saved[0], saved[1], **keywords)
            same = np.allclose(got_train, wrong_train, atol=1e-9) and np.allclose(got_test, wrong_test, atol=1e-9)
        if same:
            raise CheckFailed(f"tfidf_by_hand is not right: {hint}")
    for name, got, expected in [("train", got_train, expected_train), ("test", got_test, expected_test)]:
        if not np.allclose(got, expected, atol=1e-9):
            row = int(np.argmax(np.abs(got - expected).max(axis=1)))
            raise CheckFailed(
                f"row {row} of the {name} features is {np.round(got[row], 4).tolist()}, but it should be "
                f"{np.round(expected[row], 4).tolist()}. Compute idf = ln((1 + P) / (1 + df)) + 1 from the training "
                "counts, multiply every count by its word's idf, and scale each row to unit length."
            )


@graded
def check_rotation_shift(student: Callable) -> None:
    """Check ``student(histogram_before, histogram_after) -> k`` (chapter 6).

    ``k`` (an integer, ``0 ≤ k < bins``) is the circular shift for which
    ``np.roll(histogram_before, k)`` is closest to ``histogram_after`` in
    Euclidean distance. The reference tries every shift with explicit index
    arithmetic (entry ``i`` of the shifted histogram is ``before[(i − k) mod bins]``),
    on noisy shifted histograms with 8, 6 and 12 bins and shifts that are not
    half the bins (so the direction matters).
    """
    rng = np.random.default_rng(51)

    def reference(before, after):
        bins = len(before)
        distances = [sum((before[(i - k) % bins] - after[i]) ** 2 for i in range(bins)) for k in range(bins)]
        return int(np.argmin(distances))

    cases = [(8, 2), (8, 5), (6, 1), (12, 9), (8, 0), (12, 3)]
    for bins, shift in cases:
        before = rng.random(bins) ** 2
        before /= np.linalg.norm(before)
        after = np.array([before[(i - shift) % bins] for i in range(bins)]) + 0.02 * rng.random(bins)
        after /= np.linalg.norm(after)
        expected = reference(before, after)
        got = _call(student, "shift_for_rotation", before.copy(), after.copy())
        value = _as_number(got, "shift_for_rotation", "one integer (a number of bins)", float)
        if not (np.isfinite(value) and value == round(value)):
            raise CheckFailed(f"shift_for_rotation should return a whole number of bins; found {value}.")
        k = int(round(value))
        if k == expected:
            continue
        if k % bins == expected:
            raise CheckFailed(f"with {bins} bins you returned {k}; that is the right shift, but return it as a "
                              f"number from 0 to {bins - 1} (take it modulo {bins}).")
        if np.isclose(value, expected * 180.0 / bins) and expected != 0:
            raise CheckFailed(f"you returned {value:g}, which is the shift in degrees; return it in bins "
                              f"({expected} bins of {180 / bins:g}° here).")
        if k == (-expected) % bins:
            raise CheckFailed(f"with {bins} bins your shift is {k} but it should be {expected}: you found the shift "
                              "that takes histogram_after back to histogram_before. Compare "
                              "np.roll(histogram_before, k) with histogram_after.")
        worst = int(np.argmax([np.linalg.norm(np.roll(before, j) - after) for j in range(bins)]))
        if k == worst:
            raise CheckFailed(f"with {bins} bins you returned the shift with the largest distance ({k}); "
                              "take the one with the smallest.")
        raise CheckFailed(f"with {bins} bins and a true shift of {shift} you returned {k}; the best-matching "
                          f"shift is {expected}. Try every k from 0 to {bins - 1}, measure "
                          "np.linalg.norm(np.roll(histogram_before, k) - histogram_after), keep the smallest.")
    print("Correct: your shifts match the reference for 6, 8 and 12 bins, in the right direction.")


def _reference_softmax_accuracy(x_train, y_train, x_test, y_test, alpha, epochs, batch_size, *,
                                statistics_from=None, normalize=True, score_on_training=False):
    """Plain-NumPy pipeline of ``check_train_and_test`` (and its usual mistakes, by the keyword arguments)."""
    keep = x_train.std(axis=0) > 0
    x_train, x_test = x_train[:, keep], x_test[:, keep]
    if normalize:
        mean, std = x_train.mean(axis=0), x_train.std(axis=0)
        test_mean, test_std = (mean, std) if statistics_from is None else (x_test.mean(axis=0), x_test.std(axis=0))
        x_train, x_test = (x_train - mean) / std, (x_test - test_mean) / np.where(test_std > 0, test_std, 1.0)
    classes = int(y_train.max()) + 1
    targets = np.eye(classes)[y_train.astype(int)]
    extended = np.column_stack([np.ones(len(x_train)), x_train])
    weights = np.zeros((extended.shape[1], classes))
    order_rng = np.random.default_rng(0)
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(epochs):
            order = order_rng.permutation(len(extended))
            for start in range(0, len(order), batch_size):
                rows = order[start:start + batch_size]
                scores = extended[rows] @ weights
                scores -= scores.max(axis=1, keepdims=True)
                probabilities = np.exp(scores)
                probabilities /= probabilities.sum(axis=1, keepdims=True)
                weights = weights - alpha * extended[rows].T @ (probabilities - targets[rows]) / len(rows)
    inputs, labels = (x_train, y_train) if score_on_training else (x_test, y_test)
    predicted = (weights[0] + inputs @ weights[1:]).argmax(axis=1)
    return float(np.mean(predicted == labels))


def _train_and_test_data(rng: np.random.Generator):
    """Four overlapping classes in 6 features of very different scales, one constant feature, a shifted test set."""
    centres = rng.normal(size=(4, 6))
    scales = np.array([1.0, 50.0, 0.02, 3.0, 200.0, 1.0])
    offsets = np.array([0.0, 500.0, -1.0, 10.0, 0.0, 4.0])

    def sample(count, shift):
        labels = np.arange(count) % 4
        points = centres[labels] + 1.3 * rng.normal(size=(count, 6)) + shift
        points = points * scales + offsets
        points[:, 5] = 4.0                              # a constant feature, as the digits' blank border pixels
        return points, labels.astype(float)

    x_train, y_train = sample(250, 0.0)
    x_test, y_test = sample(90, np.array([1.5, -1.0, 1.2, 0.0, 0.8, 0.0]))
    return x_train, y_train, x_test, y_test


@graded
def check_train_and_test(student: Callable) -> None:
    """Check ``student(features_train, y_train, features_test, y_test, alpha, epochs, batch_size) -> accuracy`` (chapter 6).

    The function should drop the feature columns that are constant on the
    training split, standard-normalize both splits with the *training* mean
    and standard deviation, run ``ml.minibatch_gradient_descent`` (seed 0) on
    the multiclass softmax cost from zero weights of shape ``(N+1, K)``, and
    return the fraction of test points that the final weights classify
    correctly. The reference is a separate plain-NumPy implementation of the
    same steps, run on fresh synthetic data whose test split is slightly
    shifted (as new data often is).
    """
    rng = np.random.default_rng(52)
    settings = [(0.1, 3, 16), (0.5, 2, 50)]
    for alpha, epochs, batch_size in settings:
        x_train, y_train, x_test, y_test = _train_and_test_data(rng)
        arrays = (x_train, y_train, x_test, y_test)
        saved = [a.copy() for a in arrays]
        expected = _reference_softmax_accuracy(*arrays, alpha, epochs, batch_size)
        try:
            got = _call(student, "train_and_test", *arrays, alpha, epochs, batch_size)
        except ValueError as error:
            raise CheckFailed(f"train_and_test raised ValueError: {error} Drop the feature columns whose training "
                              "standard deviation is 0 before normalizing (keep = features_train.std(axis=0) > 0), "
                              "and apply the same columns to the test split.") from None
        if not all(np.array_equal(a, b) for a, b in zip(arrays, saved)):
            raise CheckFailed("train_and_test changed an array it was given; work on copies.")
        try:
            value = float(got)
        except (TypeError, ValueError):
            raise CheckFailed(f"train_and_test should return one number, the test accuracy; found "
                              f"{type(got).__name__}.") from None
        tolerance = 1e-6  # accuracies are multiples of 1/90 here
        if abs(value - expected) <= tolerance:
            continue
        where = f"(alpha = {alpha}, {epochs} epochs, batches of {batch_size})"
        if abs(value - expected * len(y_test)) <= 0.5:
            raise CheckFailed(f"you returned {value:g}, the number of correct test points; return the fraction "
                              f"({expected:.4f} here) {where}.")
        if abs(value - (1.0 - expected)) <= tolerance:
            raise CheckFailed(f"you returned {value:.4f}, the test error rate; return the accuracy, 1 minus it "
                              f"{where}.")
        hints = [
            (dict(score_on_training=True), "that is the accuracy on the training split; score the test split."),
            (dict(statistics_from=x_test),
             "the test split seems to be normalized with its own mean and standard deviation; use the training "
             "statistics for both splits (chapter 7)."),
            (dict(normalize=False), "the inputs seem not to be normalized; standard-normalize them first."),
        ]
        for keywords, hint in hints:
            if abs(value - _reference_softmax_accuracy(*arrays, alpha, epochs, batch_size, **keywords)) <= tolerance:
                raise CheckFailed(f"train_and_test returned {value:.4f} instead of {expected:.4f} {where}: {hint}")
        raise CheckFailed(f"train_and_test returned {value:.4f}, but the test accuracy should be {expected:.4f} "
                          f"{where}. Start from zero weights of shape (N+1, K), use "
                          "ml.minibatch_gradient_descent(g, w0, alpha, epochs, batch_size, seed=0) and score the "
                          "final weights (history.weights[-1]) on the test split.")
    print("Correct: your test accuracies match a plain-NumPy reference on two fresh synthetic problems.")
