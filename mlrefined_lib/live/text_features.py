"""A sentence the reader types, as the bag of words sees it (chapter 6, text).

The reader types a sentence; the page splits it into tokens as
:func:`mlrefined_lib.histograms.tokenize` does (lower case, runs of letters and
digits, the library's stop words dropped, :func:`~mlrefined_lib.histograms.stem`
applied), counts the tokens that are words of the vocabulary, and shows

* the counts and the TF-IDF weights of those words (the idf learned from the
  training documents, as :func:`mlrefined_lib.histograms.tfidf` applies it);
* the cosine similarity of the sentence's unit-length bag of words to a few
  example documents (the inner product of the rows of
  :func:`~mlrefined_lib.histograms.bag_of_words`);
* the score ``w0 + x^T w`` of a trained linear classifier on the unit-length
  bag of words ``x`` and the probability ``σ(score)`` of the positive class
  (:func:`mlrefined_lib.costs.sigmoid`).

Python hands the page the vocabulary, the stop words, the idf, the model's
weights and the example documents; the page does all the rest, exactly as the
library does (tested in Chromium to 1e-9).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import traitlets

from .._esm import STATIC, module_text
from ._base import LiveWidget

#: The text-features widget of chapter 6.
TEXT_FEATURES_ESM_PATH = STATIC / "text_features.js"
TEXT_FEATURES_ANYWIDGET_ID = "mlrefined_lib.live.TextFeatures"

#: At most this many example documents (each gets one similarity bar).
MAX_EXAMPLES = 8


class TextFeatures(LiveWidget):
    """A typed sentence's bag of words, TF-IDF weights, similarity to example documents and a
    linear model's score; build it with :func:`text_features` (chapter 6). Synced value: ``text``."""

    anywidget_id = TEXT_FEATURES_ANYWIDGET_ID
    _esm = module_text("text_features.js")
    config = traitlets.Dict().tag(sync=True)
    text = traitlets.Unicode("").tag(sync=True)

    def features(self, text: str | None = None) -> dict:
        """What the page shows for ``text`` (default: the current one), computed by the library:
        ``tokens``, ``counts`` (array of shape (V,)), ``bow`` (unit length), ``tfidf``,
        ``similarities`` (one per example), ``score`` and ``probability``."""
        import warnings

        from ..costs import sigmoid
        from ..histograms import bag_of_words, tfidf, tokenize

        cfg = self.config
        text = self.text if text is None else text
        stop = cfg["stop_words"]
        vocabulary = cfg["vocabulary"]
        with warnings.catch_warnings():  # a sentence without a vocabulary word is a row of zeros
            warnings.simplefilter("ignore", UserWarning)
            counts, _ = bag_of_words([text], vocabulary, stop_words=stop, counts=True)
            rows, _ = bag_of_words([text, *cfg["examples"]], vocabulary, stop_words=stop)
        weighted, _ = tfidf(counts, np.array(cfg["idf"]))
        w = np.array(cfg["weights"])
        score = float(w[0] + rows[0] @ w[1:])
        return {
            "tokens": tokenize(text, stop_words=stop), "counts": counts[0], "bow": rows[0], "tfidf": weighted[0],
            "similarities": rows[1:] @ rows[0], "score": score, "probability": float(sigmoid(score)),
        }

    def description(self) -> str:
        cfg = self.config
        f = self.features()
        found = [(cfg["vocabulary"][v], int(c)) for v, c in enumerate(f["counts"]) if c > 0]
        words = ", ".join(f"{word} ×{c}" if c > 1 else word for word, c in found) or "none"
        best = int(np.argmax(f["similarities"]))
        return (f"{cfg['title']}. The sentence {self.text!r} gives the tokens {f['tokens']}; the words of the "
                f"vocabulary among them: {words}. Score w0 + xᵀw = {f['score']:.3f}, probability of a "
                f"{cfg['positive']} {cfg['document']} {f['probability']:.3f}. One chart shows each vocabulary word's "
                f"count, TF-IDF weight and contribution to the score, the other the probability and the cosine "
                f"similarity to {len(cfg['examples'])} example documents, the largest {f['similarities'][best]:.3f} "
                f"(example {best + 1}).")

    def to_png(self) -> bytes:
        import matplotlib.pyplot as plt

        from .. import plotting

        cfg = self.config
        f = self.features()
        w = np.array(cfg["weights"])[1:]
        present = np.flatnonzero(f["counts"])
        contributions = f["bow"][present] * w[present]
        names = [cfg["vocabulary"][v] for v in present]
        fig, (left, right) = plt.subplots(1, 2, figsize=(8.8, 3.7))
        ypos = np.arange(len(present))[::-1]
        left.barh(ypos, contributions, color=np.where(contributions >= 0, "#2c7bb6", "#d7191c"))
        left.set_yticks(ypos, [f"{n} ×{int(f['counts'][v])}" for n, v in zip(names, present)])
        left.axvline(0, color="k", lw=0.8)
        left.set(xlabel="contribution xᵥ wᵥ to the score")
        left.set_title(f"score {f['score']:.3f} = bias {cfg['weights'][0]:.3f} + these", fontsize=10)
        labels = [f"example {i + 1}" for i in range(len(cfg["examples"]))]
        right.barh(np.arange(len(labels))[::-1], f["similarities"], color="#7b7b7b")
        right.set_yticks(np.arange(len(labels))[::-1], labels)
        right.set(xlim=(0, 1), xlabel="cosine similarity")
        right.set_title(f"P({cfg['positive']}) = {f['probability']:.3f}", fontsize=10)
        fig.tight_layout()
        return plotting.figure_to_png(fig, dpi=72)


def _strings(values, name: str) -> list[str]:
    if isinstance(values, str) or not isinstance(values, Sequence | np.ndarray | set | frozenset):
        raise ValueError(f"{name} must be a sequence of strings; found {type(values).__name__}.")
    values = list(values)
    bad = [i for i, v in enumerate(values) if not isinstance(v, str)]
    if bad:
        raise ValueError(f"{name} must hold strings only; {name}[{bad[0]}] is a {type(values[bad[0]]).__name__}.")
    return values


def text_features(
    vocabulary,
    weights,
    idf,
    examples,
    *,
    text: str = "",
    stop_words=None,
    example_names=None,
    positive: str = "positive",
    document: str = "review",
    title: str = "A sentence as a bag of words",
) -> TextFeatures:
    """Build the text-features widget (chapter 6, text).

    Parameters
    ----------
    vocabulary : sequence of V distinct non-empty str
        The stems of the bag of words, in column order (as given to
        :func:`mlrefined_lib.histograms.bag_of_words`).
    weights : array of shape (V + 1,)
        A linear model on the unit-length bag of words, bias first
        (``w0 + x^T w``, as :func:`mlrefined_lib.costs.model`).
    idf : array of shape (V,)
        Positive idf weights (the ``idf`` returned by
        :func:`mlrefined_lib.histograms.tfidf` on training counts).
    examples : sequence of 1 to 8 str
        The documents the sentence is compared with.
    text : str
        The sentence shown first.
    stop_words : iterable of str, optional
        Default: the library's :data:`~mlrefined_lib.histograms.STOP_WORDS`.
    example_names : sequence of str, optional
        A short label per example (default: its first words).
    positive, document : str
        The names of the positive class and of a document, for the readout.

    Returns
    -------
    TextFeatures

    Raises
    ------
    ValueError
        If the vocabulary is empty or repeats a word, ``weights`` or ``idf``
        has the wrong shape or a non-finite (or, for ``idf``, non-positive)
        entry, or ``examples`` or ``example_names`` are not 1 to 8 strings.
    """
    from ..histograms import STOP_WORDS

    vocabulary = _strings(vocabulary, "vocabulary")
    if not vocabulary or any(not v for v in vocabulary):
        raise ValueError(f"vocabulary must hold at least one non-empty word; found {vocabulary[:5]!r}.")
    if len(set(vocabulary)) != len(vocabulary):
        repeated = sorted({v for v in vocabulary if vocabulary.count(v) > 1})
        raise ValueError(f"vocabulary must not repeat a word; found {repeated[:5]} more than once.")
    num_words = len(vocabulary)
    w = np.asarray(weights, dtype=float)
    if w.shape != (num_words + 1,) or not np.all(np.isfinite(w)):
        raise ValueError(f"weights must be {num_words + 1} finite numbers (bias first, one per word); "
                         f"found shape {w.shape}" + ("" if w.shape != (num_words + 1,) else " with NaN or inf") + ".")
    idf_arr = np.asarray(idf, dtype=float)
    if idf_arr.shape != (num_words,) or not np.all(np.isfinite(idf_arr)) or np.any(idf_arr <= 0):
        raise ValueError(f"idf must be {num_words} positive finite numbers, one per word; found shape "
                         f"{idf_arr.shape}" + ("" if idf_arr.shape != (num_words,) else " with a non-positive, NaN or "
                                               "infinite entry") + ".")
    examples = _strings(examples, "examples")
    if not 1 <= len(examples) <= MAX_EXAMPLES:
        raise ValueError(f"examples must hold 1 to {MAX_EXAMPLES} documents; found {len(examples)}.")
    if example_names is None:
        example_names = [" ".join(e.split()[:6]) + (" …" if len(e.split()) > 6 else "") for e in examples]
    example_names = _strings(example_names, "example_names")
    if len(example_names) != len(examples):
        raise ValueError(f"example_names must hold one name per example ({len(examples)}); found {len(example_names)}.")
    if not isinstance(text, str):
        raise ValueError(f"text must be a string; found {type(text).__name__}.")
    stop = sorted({s.lower() for s in _strings(STOP_WORDS if stop_words is None else stop_words, "stop_words")})
    widget = TextFeatures()
    widget.config = {
        "vocabulary": vocabulary, "weights": w.tolist(), "idf": idf_arr.tolist(), "stop_words": stop,
        "examples": examples, "example_names": example_names, "positive": str(positive),
        "document": str(document), "title": str(title),
    }
    widget.text = text
    return widget
