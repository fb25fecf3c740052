"""The text-features widget of chapter 6 (a typed sentence as a bag of words): what it hands the
page and what its Python side computes. The page's side is tested in Chromium
(tests/book/test_widget_text_features.py)."""

from __future__ import annotations

import base64
import io
import json
import math

import numpy as np
import pytest
from PIL import Image

from mlrefined_lib import live, widgets
from mlrefined_lib.histograms import STOP_WORDS

VOCABULARY = ["bad", "best", "dog", "film", "good", "not"]
WEIGHTS = [0.25, -2.0, 1.5, 0.5, 0.1, 1.0, -0.75]
IDF = [1.5, 2.0, 3.0, 1.0, 1.25, 1.1]
EXAMPLES = ["Dogs are the best!", "A bad film, not good.", "Nothing in common here"]


def build(**kwargs):
    return widgets.text_features(VOCABULARY, WEIGHTS, IDF, EXAMPLES, **kwargs)


def test_the_page_gets_the_vocabulary_weights_and_idf_unrounded():
    widget = build(text="The best dog")
    cfg = json.loads(json.dumps(widget.config))  # what reaches the page
    assert cfg["vocabulary"] == VOCABULARY and cfg["weights"] == WEIGHTS and cfg["idf"] == IDF
    assert cfg["stop_words"] == sorted(STOP_WORDS) and "not" not in cfg["stop_words"]
    assert cfg["examples"] == EXAMPLES and cfg["example_names"] == ["Dogs are the best!", "A bad film, not good.",
                                                                    "Nothing in common here"]
    assert widget.text == "The best dog"
    assert widget.get_state()["_anywidget_id"] == "mlrefined_lib.live.TextFeatures"
    assert isinstance(widget, live.TextFeatures)


def test_features_are_the_counts_tfidf_cosines_and_score_worked_by_hand():
    widget = build()
    f = widget.features("Dogs, DOGS and the best film!")
    # tokens: dog dog best film (stop words "and", "the" dropped; "dogs" stemmed)
    assert f["tokens"] == ["dog", "dog", "best", "film"]
    np.testing.assert_array_equal(f["counts"], [0, 1, 2, 1, 0, 0])
    np.testing.assert_allclose(f["bow"], np.array([0, 1, 2, 1, 0, 0]) / math.sqrt(6), rtol=0, atol=1e-15)
    weighted = np.array([0, 2.0, 6.0, 1.0, 0, 0])
    np.testing.assert_allclose(f["tfidf"], weighted / math.sqrt(41), rtol=0, atol=1e-15)
    score = 0.25 + (1.5 + 2 * 0.5 + 0.1) / math.sqrt(6)
    assert f["score"] == pytest.approx(score, abs=1e-14)
    assert f["probability"] == pytest.approx(1 / (1 + math.exp(-score)), abs=1e-14)
    # example 1 is "dog best" (1, 1)/sqrt(2); example 2 is "bad film not good"; example 3 has no word
    np.testing.assert_allclose(f["similarities"], [3 / math.sqrt(12), 1 / math.sqrt(24), 0.0], rtol=0, atol=1e-15)


def test_an_empty_or_unknown_sentence_scores_the_bias_alone():
    widget = build()
    for text in ["", "   ", "zebra quokka!", "the and of"]:
        f = widget.features(text)
        assert not f["counts"].any() and not f["bow"].any() and not f["tfidf"].any(), text
        assert f["score"] == 0.25 and not f["similarities"].any(), text


def test_the_output_carries_a_png_with_alt_text():
    widget = build(text="not a good film")
    bundle, metadata = widget._repr_mimebundle_()
    image = Image.open(io.BytesIO(base64.b64decode(bundle["image/png"])))
    assert image.width >= 600
    alt = metadata["image/png"]["alt"]
    assert alt == widget.description() == bundle["text/plain"]
    f = widget.features()
    assert "['not', 'good', 'film']" in alt and f"{f['score']:.3f}" in alt and f"{f['probability']:.3f}" in alt


@pytest.mark.parametrize("change, message", [
    ({"vocabulary": []}, "at least one non-empty word"),
    ({"vocabulary": "bad best"}, "sequence of strings"),
    ({"vocabulary": ["bad", "bad", "dog", "film", "good", "not"]}, "repeat a word"),
    ({"vocabulary": ["bad", 2, "dog", "film", "good", "not"]}, "vocabulary[1] is a int"),
    ({"weights": WEIGHTS[:-1]}, "weights must be 7 finite numbers"),
    ({"weights": [np.nan] + WEIGHTS[1:]}, "with NaN or inf"),
    ({"idf": IDF[:-1]}, "idf must be 6 positive finite numbers"),
    ({"idf": [0.0] + IDF[1:]}, "non-positive"),
    ({"examples": []}, "1 to 8 documents"),
    ({"examples": ["a"] * 9}, "found 9"),
    ({"examples": "one document"}, "examples must be a sequence of strings"),
    ({"example_names": ["a", "b"]}, "one name per example (3); found 2"),
    ({"text": 3}, "text must be a string"),
])
def test_bad_input_raise_value_error(change, message):
    args = {"vocabulary": VOCABULARY, "weights": WEIGHTS, "idf": IDF, "examples": EXAMPLES} | change
    positional = [args.pop(k) for k in ("vocabulary", "weights", "idf", "examples")]
    with pytest.raises(ValueError) as raised:
        widgets.text_features(*positional, **args)
    assert message in str(raised.value)
