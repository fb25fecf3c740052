"""Histogram features: one-hot encoding, bag of words, edge histograms, spectrograms.

Each function turns raw data that is not a vector of numbers (a category, a
text, an image, a sound) into a fixed-length vector by *counting*: which
category occurs, how often each word occurs, how much edge there is in each
direction, how much energy there is at each frequency. All of it is taught in
chapter 6. The functions are pure: nothing is changed in place and nothing is
remembered between calls.
"""

from __future__ import annotations

import functools
import math
import numbers
import re
import warnings
from collections.abc import Iterable, Sequence

import numpy as np

from ._validation import check_choice, check_scalar

__all__ = [
    "STOP_WORDS",
    "one_hot",
    "stem",
    "tokenize",
    "bag_of_words",
    "tfidf",
    "character_features",
    "hash_columns",
    "hash_features",
    "edge_histogram",
    "local_edge_histograms",
    "edge_maps",
    "hann_window",
    "spectrogram",
]


# ---------------------------------------------------------------- one-hot encoding


def _is_missing(value) -> bool:
    return value is None or (isinstance(value, (float, np.floating)) and math.isnan(value))


def one_hot(values, categories=None, handle_unknown: str = "error") -> tuple[np.ndarray, list]:
    """One-hot encode a categorical feature (taught in chapter 6).

    Point ``p`` becomes the row ``e_k`` of the ``K × K`` identity, where ``k``
    is the position of ``values[p]`` in ``categories``: one column per
    category, a 1 in the column of the point's category and 0 elsewhere.

    Parameters
    ----------
    values : 1-D array-like of length P
        The category of each point (strings, integers, ...). Missing values
        (None or NaN) are not a category: impute them first (chapter 8).
    categories : sequence of length K, optional
        The categories, in column order, without duplicates. By default the
        sorted unique entries of ``values``. Pass the categories found on the
        training split when encoding validation or test data.
    handle_unknown : {"error", "ignore"}
        What to do with a value that is not in ``categories``: raise a
        ValueError naming it ("error"), or encode it as an all-zero row
        ("ignore").

    Returns
    -------
    encoded : array of shape (P, K)
        Floats 0.0 and 1.0; each row sums to 1 (or to 0 for an ignored unknown).
    categories : list of length K
        The category of each column.

    Raises
    ------
    ValueError
        If ``values`` is not 1-D or holds a missing value, if ``categories``
        has duplicates, or (with ``handle_unknown="error"``) if a value is not
        one of the categories.
    """
    check_choice(handle_unknown, ("error", "ignore"), "handle_unknown")
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(
            f"one_hot encodes one feature at a time: values must be 1-D with shape (P,); "
            f"found shape {array.shape}. Encode each column separately, e.g. one_hot(x[:, 0])."
        )
    items = array.tolist()
    missing = [p for p, value in enumerate(items) if _is_missing(value)]
    if missing:
        raise ValueError(
            f"values has {len(missing)} missing entr(y/ies) (None or NaN), first at index {missing[0]}; "
            "a missing value is not a category: impute or drop those points first (chapter 8)."
        )
    if categories is None:
        categories = np.unique(array).tolist()
    else:
        categories = list(np.asarray(categories).tolist()) if isinstance(categories, np.ndarray) else list(categories)
        seen: set = set()
        duplicates = [c for c in categories if c in seen or seen.add(c)]
        if duplicates:
            raise ValueError(f"categories must not repeat; found {duplicates[:5]} more than once.")
    column = {category: k for k, category in enumerate(categories)}
    encoded = np.zeros((len(items), len(categories)))
    for p, value in enumerate(items):
        k = column.get(value)
        if k is not None:
            encoded[p, k] = 1.0
        elif handle_unknown == "error":
            raise ValueError(
                f"values[{p}] = {value!r} is not one of the {len(categories)} categories "
                f"{categories[:10]}{' ...' if len(categories) > 10 else ''}; add it to categories "
                'or pass handle_unknown="ignore" to encode it as a row of zeros.'
            )
    return encoded, categories


# ---------------------------------------------------------------- bag of words

#: A small English stop-word list: function words that occur in almost every
#: text and so say little about what a text is about. It is deliberately short
#: (compare scikit-learn's 318 words) and leaves out negations such as "not"
#: and "no", which change a sentence's sentiment.
STOP_WORDS: frozenset[str] = frozenset(
    """
    a an and are as at be been but by do does for from had has have he her his i
    if in into is it its me my of on or our she so than that the their them then
    there these they this those to was we were what which who will with you your
    """.split()
)

_TOKEN = re.compile(r"[^\W_]+")  # runs of letters and digits: \w without the underscore
_VOWELS = set("aeiouy")
_UNDOUBLE_EXCEPTIONS = set("lsz")  # "falling" -> "fall", "missed" -> "miss", "buzzing" -> "buzz"


def _undouble(word: str) -> str:
    if len(word) >= 3 and word[-1] == word[-2] and word[-1] not in _VOWELS and word[-1] not in _UNDOUBLE_EXCEPTIONS:
        return word[:-1]
    return word


def stem(word: str) -> str:
    """Strip a common English suffix from a lower-case word (taught in chapter 6).

    A deliberately small stemmer, so that "dogs" and "dog" or "walked" and
    "walking" share one column of a bag of words. It applies at most one rule
    of each of two steps, in this order:

    1. plurals: ``-ies → -y`` ("ponies" → "pony"; the word must be longer
       than 4 letters, so "ties" falls to the plain ``-s`` rule and gives
       "tie"); ``-sses → -ss`` ("classes" → "class");
       ``-es`` is dropped after ``s, x, z, ch, sh`` in words longer than 4
       letters ("boxes" → "box",
       "watches" → "watch"); a final ``-s`` is dropped unless the word ends in
       ``-ss``, ``-us`` or ``-is`` or has at most 3 letters ("dogs" → "dog",
       "class", "bus", "gas" stay).
    2. verb endings: ``-ing`` and ``-ed`` are dropped when at least 3 letters
       containing a vowel remain ("walking" → "walk", "walked" → "walk"; "sing"
       and "red" stay); then a doubled final consonant other than l, s, z is
       undoubled ("running" → "run", "stopped" → "stop").

    Limits: it knows no irregular forms ("mice", "ran"), it does not restore a
    dropped "e" ("making" → "mak" but "make" stays "make"), and it can merge
    unrelated words ("news" → "new"). Porter's stemmer (in NLTK) handles many
    more cases; this one is small enough to read in full.

    Parameters
    ----------
    word : str
        One lower-case token.

    Returns
    -------
    str
        The stem.
    """
    # Step 1: plurals.
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("es") and word[:-2].endswith(("s", "x", "z", "ch", "sh")) and len(word) > 4:
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        word = word[:-1]
    # Step 2: verb endings.
    for suffix in ("ing", "ed"):
        if word.endswith(suffix):
            rest = word[: -len(suffix)]
            if len(rest) >= 3 and _VOWELS.intersection(rest):
                word = _undouble(rest)
            break
    return word


def tokenize(text: str, stop_words: Iterable[str] | None = STOP_WORDS, stem: bool = True) -> list[str]:
    """Split a text into the tokens a bag of words counts (taught in chapter 6).

    The text is lower-cased and split into runs of letters and digits (any
    other character, punctuation, an apostrophe or an underscore, separates
    tokens: "don't" gives "don" and "t"). Stop words are then dropped and,
    if ``stem`` is true, each remaining token is replaced by its :func:`stem`.

    Parameters
    ----------
    text : str
    stop_words : iterable of str or None
        Words to drop, compared with the lower-cased token before stemming.
        Default :data:`STOP_WORDS`; None or ``()`` keeps every word.
    stem : bool
        Whether to stem the tokens (see :func:`stem` for the rules).

    Returns
    -------
    list of str
        The tokens in the order they occur.
    """
    if not isinstance(text, str):
        raise ValueError(f"tokenize expects a string; found {type(text).__name__}.")
    drop = frozenset(word.lower() for word in stop_words) if stop_words is not None else frozenset()
    tokens = [token for token in _TOKEN.findall(text.lower()) if token not in drop]
    if stem:
        tokens = [_stem_word(token) for token in tokens]
    return tokens


# tokenize's argument named ``stem`` shadows the function inside it; a corpus repeats
# its words, so each distinct word is stemmed once (stem is a pure function of a str).
_stem_word = functools.lru_cache(maxsize=1 << 17)(stem)


def bag_of_words(
    documents: Sequence[str],
    vocabulary: Sequence[str] | None = None,
    stop_words: Iterable[str] | None = STOP_WORDS,
    stem: bool = True,
    counts: bool = False,
    ngram_range: tuple[int, int] = (1, 1),
) -> tuple[np.ndarray, list[str]]:
    """Bag-of-words histograms of a list of documents (taught in chapter 6).

    Each document is split by :func:`tokenize` (lower-case, letters and
    digits only, stop words dropped, stemmed); entry ``(p, v)`` counts how
    often word ``v`` of the vocabulary occurs in document ``p``. Unless
    ``counts`` is true, each row is then divided by its length (Euclidean
    norm) so that long and short documents are comparable: the inner product
    of two rows is the cosine of the angle between their word counts, and
    documents that share no word are orthogonal.

    Parameters
    ----------
    documents : sequence of P strings
    vocabulary : sequence of V distinct strings, optional
        The words to count, in column order. They are compared with the tokens
        *after* stop-word removal and stemming, so give stems (for example the
        vocabulary returned by an earlier call on the training documents);
        other words are ignored. By default, the sorted set of all tokens of
        ``documents``.
    stop_words : iterable of str or None
        Passed to :func:`tokenize`; default :data:`STOP_WORDS`.
    stem : bool
        Passed to :func:`tokenize`.
    counts : bool
        If True, return the raw counts (no normalization).
    ngram_range : pair of ints (lo, hi), default (1, 1)
        Count every run of ``n`` neighbouring tokens for ``lo <= n <= hi``,
        joined by a space: ``(1, 2)`` counts the words and the *bigrams*
        ("not good"). The n-grams are formed after stop-word removal and
        stemming, as scikit-learn's ``CountVectorizer(ngram_range=...)`` forms
        them after its own preprocessing. The default counts single words.

    Returns
    -------
    features : array of shape (P, V)
        Floats. Unit-length rows (or raw counts). A document with no word of
        the vocabulary (empty, or only stop words) gives a row of zeros and a
        UserWarning, never NaN.
    vocabulary : list of V strings
        The word of each column.

    Raises
    ------
    ValueError
        If ``documents`` is a single string or empty, a document is not a
        string (the message names its index), ``vocabulary`` repeats a word,
        or ``ngram_range`` is not a pair of positive integers ``lo <= hi``.
    """
    lo, hi = _check_ngram_range(ngram_range)
    if isinstance(documents, str):
        raise ValueError(
            "documents must be a sequence of strings, one per document; found a single string. "
            "Wrap it in a list: bag_of_words([text])."
        )
    documents = list(documents)
    if not documents:
        raise ValueError("documents is empty; give at least one document.")
    for p, document in enumerate(documents):
        if not isinstance(document, str):
            raise ValueError(
                f"every document must be a string; documents[{p}] is a {type(document).__name__} ({document!r})."
            )
    tokens = [_ngrams(tokenize(document, stop_words=stop_words, stem=stem), lo, hi) for document in documents]
    if vocabulary is None:
        vocabulary = sorted({token for document_tokens in tokens for token in document_tokens})
    else:
        vocabulary = [str(word) for word in vocabulary]
        if len(set(vocabulary)) != len(vocabulary):
            repeated = sorted({word for word in vocabulary if vocabulary.count(word) > 1})
            raise ValueError(f"vocabulary must not repeat a word; found {repeated[:5]} more than once.")
    column = {word: v for v, word in enumerate(vocabulary)}
    features = np.zeros((len(documents), len(vocabulary)))
    for p, document_tokens in enumerate(tokens):
        for token in document_tokens:
            v = column.get(token)
            if v is not None:
                features[p, v] += 1.0
    lengths = np.sqrt((features**2).sum(axis=1))
    empty = np.flatnonzero(lengths == 0)
    if empty.size:
        warnings.warn(
            f"bag_of_words: {empty.size} document(s), first at index {empty[0]}, contain no word of the "
            "vocabulary (empty, or only stop words or unknown words); their rows are all zeros.",
            UserWarning,
            stacklevel=2,
        )
    if not counts:
        nonzero = lengths > 0
        features[nonzero] /= lengths[nonzero, None]
    return features, vocabulary


def _check_ngram_range(ngram_range) -> tuple[int, int]:
    ok = (
        isinstance(ngram_range, (tuple, list))
        and len(ngram_range) == 2
        and all(isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in ngram_range)
        and 1 <= ngram_range[0] <= ngram_range[1]
    )
    if not ok:
        raise ValueError(
            "ngram_range must be a pair of integers (lo, hi) with 1 <= lo <= hi, e.g. (1, 1) for words or (1, 2) "
            f"for words and bigrams; found {ngram_range!r}."
        )
    return int(ngram_range[0]), int(ngram_range[1])


def _ngrams(tokens: list[str], lo: int, hi: int) -> list[str]:
    """All runs of lo..hi neighbouring tokens, joined by a space (n = 1 gives the tokens themselves)."""
    grams = []
    for n in range(lo, hi + 1):
        grams.extend(" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
    return grams


def tfidf(counts, idf=None, *, smooth_idf: bool = True, sublinear_tf: bool = False, normalize: bool = True):
    """TF-IDF weighting of bag-of-words counts (taught in chapter 6, text).

    A word that occurs in almost every document says little about any one of
    them. TF-IDF multiplies each count (the *term frequency*, tf) by the word's
    *inverse document frequency*

    ``idf_v = ln((1 + P) / (1 + df_v)) + 1``  (``smooth_idf=True``), or
    ``idf_v = ln(P / df_v) + 1``  (``smooth_idf=False``),

    where ``df_v`` is the number of the ``P`` documents that contain word
    ``v``, and then scales each row to unit length. These are the formulas of
    scikit-learn's ``TfidfTransformer`` / ``TfidfVectorizer`` with
    ``norm="l2"`` and the same ``smooth_idf`` and ``sublinear_tf``.

    The idf is *learned*: compute it on the training counts (``idf=None``) and
    pass the returned ``idf`` when weighting held-out counts, so that they
    take no part in it.

    Parameters
    ----------
    counts : array of shape (P, V)
        Non-negative counts, e.g. ``bag_of_words(..., counts=True)[0]``.
    idf : array of shape (V,), optional
        The weights returned by an earlier call (on the training counts). By
        default they are computed from ``counts``.
    smooth_idf : bool, default True
        Add one to ``P`` and to every ``df_v``, as if one extra document held
        every word once; this keeps the weight of a word seen in no training
        document finite.
    sublinear_tf : bool, default False
        Replace each non-zero count ``c`` by ``1 + ln c`` before weighting.
    normalize : bool, default True
        Scale each row to unit Euclidean length (rows of zeros stay zero).

    Returns
    -------
    features : array of shape (P, V)
        The weighted (and, by default, unit-length) rows; a new array.
    idf : array of shape (V,)
        The idf weights used.

    Raises
    ------
    ValueError
        If ``counts`` is not a 2-D array of finite, non-negative numbers, if
        ``idf`` does not have one positive finite entry per column, or if
        ``smooth_idf=False`` and a column is zero in every document (its idf
        would be infinite).
    """
    values = np.asarray(counts)
    if values.dtype == object or not (np.issubdtype(values.dtype, np.number) or values.dtype == bool):
        raise ValueError(f"tfidf expects an array of counts; found dtype {values.dtype}.")
    values = values.astype(float)
    if values.ndim != 2 or values.shape[0] == 0 or values.shape[1] == 0:
        raise ValueError(f"tfidf expects counts of shape (P, V) with P, V >= 1; found shape {values.shape}.")
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError("tfidf expects finite, non-negative counts; found a negative, NaN or infinite entry.")
    if idf is None:
        documents = values.shape[0]
        frequency = np.count_nonzero(values, axis=0).astype(float)
        if smooth_idf:
            weights = np.log((1.0 + documents) / (1.0 + frequency)) + 1.0
        else:
            unseen = np.flatnonzero(frequency == 0)
            if unseen.size:
                raise ValueError(
                    f"with smooth_idf=False every column must occur in some document; column(s) "
                    f"{unseen[:5].tolist()} never do, so their idf would be infinite. Drop them or use smooth_idf=True."
                )
            weights = np.log(documents / frequency) + 1.0
    else:
        weights = np.asarray(idf, dtype=float)
        if weights.shape != (values.shape[1],) or not np.all(np.isfinite(weights)) or np.any(weights <= 0):
            raise ValueError(
                f"idf must hold one positive finite weight per column, shape ({values.shape[1]},); "
                f"found shape {weights.shape}. Pass the idf returned by tfidf on the training counts."
            )
        weights = weights.copy()
    tf = values.copy()
    if sublinear_tf:
        positive = tf > 0
        tf[positive] = 1.0 + np.log(tf[positive])
    features = tf * weights
    if normalize:
        lengths = np.sqrt((features**2).sum(axis=1))
        nonzero = lengths > 0
        features[nonzero] /= lengths[nonzero, None]
    return features, weights


def _capital_runs(text: str) -> tuple[int, int]:
    """Number of capital letters in ``text`` and the length of its longest run of them."""
    capitals = longest = current = 0
    for character in text:
        if character.isupper():
            capitals += 1
            current += 1
            longest = max(longest, current)
        else:
            current = 0
    return capitals, longest


def character_features(documents: Sequence[str]) -> np.ndarray:
    """Four spam-style counts of the characters of each document (taught in chapter 6).

    Spam filters look at *how* a message is written as well as at its words:
    shouting in capitals and strings of exclamation marks are typical of spam.
    For each document this counts

    0. the exclamation marks ``!``;
    1. the asterisks ``*``;
    2. the capital letters (characters ``c`` with ``c.isupper()``, so "É"
       counts and digits, spaces and punctuation do not);
    3. the length of the longest run of consecutive capital letters (0 if
       there is none). Any other character ends a run, a space too: "NO WAY!"
       has runs of 2 and 3 capitals, so its longest run is 3.

    The counts are raw; they grow with the length of the document and have
    long tails, so transform them before a model uses them (chapter 6 takes
    ``log(1 + count)`` and standard-normalizes with training statistics).

    Parameters
    ----------
    documents : sequence of P strings

    Returns
    -------
    features : array of shape (P, 4)
        Floats: the ``!`` count, the ``*`` count, the number of capitals and
        the longest run of capitals, in that column order.

    Raises
    ------
    ValueError
        If ``documents`` is a single string or empty, or a document is not a
        string (the message names its index and type).
    """
    if isinstance(documents, str):
        raise ValueError(
            "documents must be a sequence of strings, one per document; found a single string. "
            "Wrap it in a list: character_features([text])."
        )
    documents = list(documents)
    if not documents:
        raise ValueError("documents is empty; give at least one document.")
    features = np.zeros((len(documents), 4))
    for p, document in enumerate(documents):
        if not isinstance(document, str):
            raise ValueError(
                f"every document must be a string; documents[{p}] is a {type(document).__name__} ({document!r})."
            )
        features[p] = (document.count("!"), document.count("*"), *_capital_runs(document))
    return features


# ---------------------------------------------------------------- edge histograms


def _as_image(image, who: str) -> np.ndarray:
    array = np.asarray(image)
    if array.dtype == bool:
        array = array.astype(float)
    if not (np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)):
        raise ValueError(
            f"{who} expects a grey-scale image of real numbers; found dtype {array.dtype}."
        )
    if array.ndim != 2:
        hint = " For a colour image, convert to grey first, e.g. image.mean(axis=2)." if array.ndim == 3 else ""
        raise ValueError(
            f"{who} expects a 2-D grey-scale image with shape (rows, columns); found shape {array.shape}.{hint}"
        )
    if min(array.shape) < 2:
        raise ValueError(
            f"{who} needs an image of at least 2 × 2 pixels to take gradients; found shape {array.shape}."
        )
    array = array.astype(float)
    if not np.all(np.isfinite(array)):
        row, col = np.argwhere(~np.isfinite(array))[0]
        count = int((~np.isfinite(array)).sum())
        raise ValueError(f"{who}: the image has {count} NaN or infinite pixel(s), first at row {row}, column {col}.")
    return array


def _check_bins(bins) -> int:
    return check_scalar(bins, "bins", numbers.Integral, min_val=1)


def _gradient_bins(image: np.ndarray, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """Orientation bin index and gradient magnitude of every pixel."""
    d_dy, d_dx = np.gradient(image)  # axis 0: rows (y, downwards); axis 1: columns (x, to the right)
    magnitude = np.hypot(d_dx, d_dy)
    angle = np.degrees(np.arctan2(d_dy, d_dx)) % 180.0  # orientation, folded into [0, 180)
    width = 180.0 / bins
    index = np.floor((angle + width / 2) / width).astype(int) % bins  # bins centred on 0, width, 2 width, ...
    return index, magnitude


def edge_histogram(image, bins: int = 8) -> np.ndarray:
    """Histogram of gradient orientations of a grey-scale image (taught in chapter 6).

    The gradient ``(d/dx, d/dy)`` of the image is taken at every pixel by
    central differences (``np.gradient``: one-sided at the border), with
    ``x`` running along a row to the right (columns) and ``y`` running down
    the rows. Its angle ``θ = atan2(d/dy, d/dx)``, in degrees, is folded into
    ``[0°, 180°)`` (an edge from dark to light and one from light to dark
    count alike), and each pixel adds its gradient magnitude to the bin whose
    centre is nearest: the bins are centred on ``0°, 180°/bins, 2·180°/bins,
    …`` and bin 0 covers ``[-90°/bins, 90°/bins)`` modulo 180° (``[-11.25°,
    11.25°)`` for 8 bins).

    So a vertical edge (brightness changing along x) puts its mass in bin 0,
    and a horizontal edge (brightness changing down the rows) in bin
    ``bins/2`` (90°). Because ``y`` points down, a gradient pointing up-right
    on screen has an angle near 135°, not 45°. Rotating the image by 90°
    (``np.rot90``) turns every gradient by 90° and so shifts the histogram by
    ``bins/2`` bins (circularly), for even ``bins``.

    Parameters
    ----------
    image : array of shape (rows, columns)
        Grey-scale intensities (integers, floats or booleans), at least 2 × 2.
    bins : int
        Number of orientation bins over 180°.

    Returns
    -------
    histogram : array of shape (bins,)
        Magnitude-weighted orientation histogram scaled to unit Euclidean
        length. A constant image has no edges: it gives zeros and a
        UserWarning, never NaN.

    Raises
    ------
    ValueError
        If the image is not 2-D (e.g. a colour image), not numeric, smaller
        than 2 × 2 or holds NaN/inf, or ``bins`` is not a positive integer.
    """
    image = _as_image(image, "edge_histogram")
    bins = _check_bins(bins)
    index, magnitude = _gradient_bins(image, bins)
    histogram = np.bincount(index.ravel(), weights=magnitude.ravel(), minlength=bins)
    length = np.sqrt(np.sum(histogram**2))
    if length == 0:
        warnings.warn("edge_histogram: the image is constant (no edges); returning zeros.", UserWarning, stacklevel=2)
        return histogram
    return histogram / length


def _pair(value, name: str) -> tuple[int, int]:
    pair = (value, value) if np.ndim(value) == 0 else tuple(value)
    if len(pair) != 2:
        raise ValueError(f"{name} must be an integer >= 1 or a pair of them; found {value!r}.")
    return tuple(check_scalar(v, name, numbers.Integral, min_val=1, also="a pair of them") for v in pair)


def local_edge_histograms(image, patch=8, block=2, bins: int = 8) -> np.ndarray:
    """Edge histograms of patches, normalized over blocks and concatenated (taught in chapter 6).

    This is the idea of the histogram of oriented gradients (HOG) of Dalal and
    Triggs (2005). The gradient is taken over the whole image as in
    :func:`edge_histogram`. The image is cut into non-overlapping patches of
    ``patch`` pixels (rows and columns left over at the bottom and right are
    not used) and each patch gets a magnitude-weighted orientation histogram
    of ``bins`` bins (not normalized). Every square of ``block × block``
    neighbouring patches forms a block; blocks overlap, sliding by one patch.
    Each block's histograms are concatenated (patches in row-major order) and
    scaled jointly to unit Euclidean length, so the contrast of a region does
    not matter but the relative strength of edges within it does; a block
    without any edge stays all zeros. The blocks are concatenated in
    row-major order.

    With ``R = rows // patch_rows`` and ``C = columns // patch_columns``
    patches, the output has length
    ``(R − block + 1) · (C − block + 1) · block² · bins``.

    Parameters
    ----------
    image : array of shape (rows, columns)
    patch : int or (int, int)
        Patch size in pixels (rows, columns); an int means a square patch.
    block : int
        Block side, in patches.
    bins : int
        Orientation bins over 180°, as in :func:`edge_histogram`.

    Returns
    -------
    features : array of shape ((R − block + 1) · (C − block + 1) · block² · bins,)
        A constant image gives zeros and a UserWarning.

    Raises
    ------
    ValueError
        As :func:`edge_histogram`, and if the image holds fewer than
        ``block × block`` patches or ``patch``/``block`` are not positive integers.
    """
    image = _as_image(image, "local_edge_histograms")
    bins = _check_bins(bins)
    patch_rows, patch_cols = _pair(patch, "patch")
    block = check_scalar(block, "block", numbers.Integral, min_val=1)
    rows, cols = image.shape[0] // patch_rows, image.shape[1] // patch_cols
    if rows < block or cols < block:
        raise ValueError(
            f"local_edge_histograms: an image of shape {image.shape} holds {rows} × {cols} patches of "
            f"{patch_rows} × {patch_cols} pixels, fewer than one block of {block} × {block} patches; "
            "use smaller patches or blocks."
        )
    index, magnitude = _gradient_bins(image, bins)
    index = index[: rows * patch_rows, : cols * patch_cols]
    magnitude = magnitude[: rows * patch_rows, : cols * patch_cols]
    patch_row = np.arange(rows * patch_rows) // patch_rows
    patch_col = np.arange(cols * patch_cols) // patch_cols
    flat = (patch_row[:, None] * cols + patch_col[None, :]) * bins + index
    histograms = np.bincount(flat.ravel(), weights=magnitude.ravel(), minlength=rows * cols * bins)
    histograms = histograms.reshape(rows, cols, bins)
    # Every block × block window of patches, as (block rows, block columns, patch row, patch column, bin).
    windows = np.lib.stride_tricks.sliding_window_view(histograms, (block, block), axis=(0, 1))
    vectors = windows.transpose(0, 1, 3, 4, 2).reshape(-1, block * block * bins)
    lengths = np.sqrt(np.sum(vectors**2, axis=1, keepdims=True))
    features = (vectors / np.where(lengths > 0, lengths, 1.0)).ravel()
    if not np.any(features):
        warnings.warn(
            "local_edge_histograms: the image is constant (no edges); returning zeros.", UserWarning, stacklevel=2
        )
    return features


def edge_maps(image, bins: int = 8) -> np.ndarray:
    """The edges of an image split by orientation, one map per bin (taught in chapter 6).

    Map ``k`` holds the gradient magnitude of every pixel whose orientation
    falls in bin ``k`` and 0 at every other pixel. Gradients, angles and bins
    are those of :func:`edge_histogram` (central differences, ``y`` running
    down the rows, angles folded into ``[0°, 180°)``, bin 0 centred on 0°,
    which is where a vertical edge goes). So the maps sum over the bins to the
    gradient magnitude, and the total of map ``k`` is entry ``k`` of the edge
    histogram before it is scaled to unit length.

    Parameters
    ----------
    image, bins
        As for :func:`edge_histogram`: a grey-scale image of shape (rows,
        columns), at least 2 × 2, and the number of orientation bins over 180°.

    Returns
    -------
    maps : array of shape (bins, rows, columns)
        Non-negative floats. A constant image gives all zeros (no warning:
        an image without edges has empty maps).

    Raises
    ------
    ValueError
        As :func:`edge_histogram`.
    """
    image = _as_image(image, "edge_maps")
    bins = _check_bins(bins)
    index, magnitude = _gradient_bins(image, bins)
    return np.where(index[None, :, :] == np.arange(bins)[:, None, None], magnitude[None, :, :], 0.0)


# ---------------------------------------------------------------- spectrograms


def hann_window(length: int) -> np.ndarray:
    """The periodic Hann window ``w[n] = ½ − ½ cos(2πn / length)``, n = 0 … length−1 (chapter 6).

    *Periodic* (also called DFT-even): one period of the raised cosine with
    the final zero left off, the usual choice for spectral analysis; it is
    what ``scipy.signal.get_window("hann", length)`` returns. Its sum is
    ``length / 2``.
    """
    n = np.arange(length)
    return 0.5 - 0.5 * np.cos(2 * np.pi * n / length)


def spectrogram(signal, rate: float, window: int = 256, hop: int = 128) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Magnitude spectrogram of a 1-D signal (taught in chapter 6).

    The signal is cut into frames of ``window`` samples starting every
    ``hop`` samples (frame ``t`` starts at sample ``t · hop``; samples after
    the last full frame are not used and nothing is padded). Each frame is
    multiplied by the periodic Hann window (:func:`hann_window`) and the
    magnitudes of its one-sided discrete Fourier transform
    (``|np.fft.rfft(frame · w)|``, not scaled, no detrending) form one column.

    scipy's ``scipy.signal.spectrogram(signal, fs=rate, window="hann",
    nperseg=window, noverlap=window − hop, detrend=False,
    scaling="spectrum", mode="magnitude")`` returns the same columns divided
    by the window's sum, ``window / 2``.

    Parameters
    ----------
    signal : array of shape (S,)
        Samples, at least ``window`` of them.
    rate : float
        Sampling rate in Hz (samples per second), positive.
    window : int
        Frame length in samples (at least 2).
    hop : int
        Step between frame starts, ``1 ≤ hop ≤ window``.

    Returns
    -------
    frequencies : array of shape (window // 2 + 1,)
        ``k · rate / window`` in Hz, from 0 to the Nyquist frequency.
    times : array of shape (num_frames,)
        The centre of each frame in seconds, ``(t · hop + window / 2) / rate``.
    magnitudes : array of shape (window // 2 + 1, num_frames)
        ``num_frames = 1 + (S − window) // hop``.

    Raises
    ------
    ValueError
        If the signal is not 1-D, is shorter than ``window`` or holds NaN/inf;
        if ``rate`` is not positive; if ``hop`` is not in ``1 … window``.
    """
    samples = np.asarray(signal)
    if not (np.issubdtype(samples.dtype, np.integer) or np.issubdtype(samples.dtype, np.floating)):
        raise ValueError(f"spectrogram expects a signal of real numbers; found dtype {samples.dtype}.")
    samples = samples.astype(float)
    if samples.ndim != 1:
        raise ValueError(
            f"spectrogram expects a 1-D signal with shape (S,); found shape {samples.shape}. "
            "For a stereo recording pass one channel, or their mean, e.g. signal.mean(axis=1)."
        )
    if not np.all(np.isfinite(samples)):
        bad = np.flatnonzero(~np.isfinite(samples))
        raise ValueError(f"the signal has {bad.size} NaN or infinite sample(s), first at index {bad[0]}.")
    rate = check_scalar(rate, "rate", numbers.Real, min_val=0, include_boundaries="neither")  # samples per second
    window = check_scalar(window, "window", numbers.Integral, min_val=2)
    hop = check_scalar(hop, "hop", numbers.Integral, min_val=1)
    if hop > window:
        raise ValueError(f"hop must be at most window = {window} (frames must not leave gaps); found {hop}.")
    if samples.size < window:
        raise ValueError(
            f"the signal has {samples.size} sample(s), fewer than one window of {window}; "
            "use a shorter window or a longer signal."
        )
    num_frames = 1 + (samples.size - window) // hop
    starts = np.arange(num_frames) * hop
    frames = samples[starts[:, None] + np.arange(window)[None, :]]  # (num_frames, window), a copy
    magnitudes = np.abs(np.fft.rfft(frames * hann_window(window), axis=1)).T
    frequencies = np.fft.rfftfreq(window, d=1.0 / rate)
    times = (starts + window / 2) / rate
    return frequencies, times, magnitudes


# ---------------------------------------------------------------- feature hashing

_MASK32 = 0xFFFFFFFF


def _rotate_left(value: int, bits: int) -> int:
    return ((value << bits) | (value >> (32 - bits))) & _MASK32


def _murmur3_32(data: bytes, seed: int = 0) -> int:
    """MurmurHash3 (x86, 32-bit) of ``data`` as a signed 32-bit integer, the hash scikit-learn's hashers use."""
    c1, c2 = 0xCC9E2D51, 0x1B873593
    h = seed & _MASK32
    whole = len(data) - len(data) % 4
    for start in range(0, whole, 4):
        k = int.from_bytes(data[start:start + 4], "little")
        k = (_rotate_left((k * c1) & _MASK32, 15) * c2) & _MASK32
        h = (_rotate_left(h ^ k, 13) * 5 + 0xE6546B64) & _MASK32
    tail = data[whole:]
    if tail:
        k = int.from_bytes(tail, "little")
        h ^= (_rotate_left((k * c1) & _MASK32, 15) * c2) & _MASK32
    h ^= len(data)
    h = ((h ^ (h >> 16)) * 0x85EBCA6B) & _MASK32
    h = ((h ^ (h >> 13)) * 0xC2B2AE35) & _MASK32
    h ^= h >> 16
    return h - (1 << 32) if h & 0x80000000 else h


def hash_columns(strings: Sequence[str], columns: int) -> tuple[np.ndarray, np.ndarray]:
    """The column and the sign that feature hashing gives each string (chapter 6).

    The string's UTF-8 bytes are hashed with MurmurHash3 (32 bits, seed 0) to a
    signed integer h; its column is ``|h| mod columns`` and its sign is −1 when
    h < 0, +1 otherwise: scikit-learn's ``FeatureHasher`` rule.

    Parameters
    ----------
    strings : sequence of str
    columns : int >= 1

    Returns
    -------
    column : int array of shape (len(strings),)
    sign : array of ±1.0, same shape

    Raises
    ------
    ValueError
        If columns is not a positive integer or an entry is not a string.
    """
    columns = check_scalar(columns, "columns", numbers.Integral, min_val=1)
    if isinstance(strings, str):
        raise ValueError("strings must be a sequence of strings, not one string; wrap it in a list.")
    index, sign = np.zeros(len(strings), dtype=np.intp), np.ones(len(strings))
    for position, string in enumerate(strings):
        if not isinstance(string, str):
            raise ValueError(f"strings[{position}] must be a string; found {type(string).__name__} {string!r}.")
        h = _murmur3_32(string.encode("utf-8"))
        # |−2³¹| does not fit in 32 bits; scikit-learn maps it as below, and so do we.
        index[position] = (2147483647 - (columns - 1)) % columns if h == -2147483648 else abs(h) % columns
        sign[position] = -1.0 if h < 0 else 1.0
    return index, sign


def hash_features(rows: Sequence[Sequence[str]], columns: int, *, signed: bool = True) -> np.ndarray:
    """Count strings into a fixed number of columns by hashing, with no vocabulary (chapter 6).

    Row p of the result adds, for every string of ``rows[p]`` (a document's
    tokens, or "feature=value" strings of a high-cardinality category), its
    sign (or 1 when ``signed`` is false) in the column that
    :func:`hash_columns` gives it. Two strings that land in one column
    *collide* and are counted together; with signs, collisions cancel on
    average instead of always adding. The same as scikit-learn's
    ``FeatureHasher(n_features=columns, input_type="string", alternate_sign=signed)``.

    Parameters
    ----------
    rows : sequence of P sequences of str
    columns : int >= 1
    signed : bool

    Returns
    -------
    array of shape (P, columns)

    Raises
    ------
    ValueError
        If a row is a single string (pass its tokens), an entry is not a
        string, or columns is not a positive integer.
    """
    columns = check_scalar(columns, "columns", numbers.Integral, min_val=1)
    if isinstance(rows, str):
        raise ValueError("rows must be a sequence of rows (each a list of strings), not one string.")
    features = np.zeros((len(rows), columns))
    for p, row in enumerate(rows):
        if isinstance(row, str):
            raise ValueError(f"rows[{p}] is one string; give its tokens as a list, e.g. tokenize(text).")
        index, sign = hash_columns(list(row), columns)
        np.add.at(features[p], index, sign if signed else 1.0)
    return features
