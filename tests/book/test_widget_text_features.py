"""The text-features widget of chapter 6 (a typed sentence as a bag of words) in Chromium.

The page tokenizes what the reader types as the library's ``tokenize`` does, counts the
vocabulary's words and computes the unit-length bag of words, its TF-IDF weights, the cosine
similarity to each example and the linear model's score and probability. These tests type
sentences into it (keyboard, pointer, touch) and compare everything it publishes with the library
(``tokenize``, ``bag_of_words``, ``tfidf``, ``sigmoid``) to 1e-9; the page's tokenizer is also run
on a list of words built to reach every rule of the stemmer. Like tests/book/test_live_widget.py,
they need `python tools/vendor_assets.py` to have filled assets/vendor.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from test_live_widget import finish, open_page, redrawn, serve, shown, write_page  # noqa: F401 (serve: a fixture)

import mlrefined_lib as ml
from mlrefined_lib import live
from mlrefined_lib.histograms import STOP_WORDS, bag_of_words, tfidf, tokenize

TOL = 1e-9
CORPUS = [
    "Dogs are the best, and my dog is the best dog!",
    "Cats are the worst; the film was not good.",
    "A wonderful film: the acting was great and I loved the story.",
    "The plot was boring, the acting bad. Not a good movie at all.",
    "Walking, walked, walks: classes of boxes and watches (ponies too).",
    "Café crème, naïve résumé, 42nd street, 2024 films",
]
EXAMPLES = CORPUS[:3] + ["Nothing here is in common"]
# Sentences with punctuation, capitals, apostrophes, underscores, digits, accents (composed and
# combining), other scripts, unknown words, only stop words, and nothing at all.
SENTENCES = [
    "The acting was NOT great, and I didn't love the story...",
    "dogs' classes; BOXES & watches -- ponies_walked 42nd!!",
    "Café naïve RÉSUMÉ crème, zebras and quokkas",
    "İstanbul ΟΔΟΣ Straße x² cafe\u0301s ½ 日本語 e-mail",
    "xyzzy plugh",
    "the and of",
    "",
    "   ",
    "Best best BEST dog",
]
# Words that reach every rule of the stemmer (and words that just miss them).
STEMS = ["walk", "run", "stop", "pony", "class", "box", "watch", "wish", "buzz", "hop", "fall", "miss", "see",
         "bless", "sing", "red", "tie", "bus", "gas", "news", "is", "us", "fly", "quiz", "dress", "café", "naïve",
         "ab", "a", "x", "sh", "ch", "ss", "aaa", "bbb", "tree", "agree", "feed", "bed", "zzz", "mix"]
ENDINGS = ["", "s", "es", "ies", "ing", "ed", "sses", "ings", "eds", "ying", "ted", "ning", "lling"]


@pytest.fixture(scope="module")
def model():
    counts, vocabulary = bag_of_words(CORPUS, counts=True)
    _, idf = tfidf(counts)
    weights = np.random.default_rng(6).normal(size=len(vocabulary) + 1)
    return vocabulary, weights, idf


def expected(model, text):
    vocabulary, weights, idf = model
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a sentence without a vocabulary word
        counts, _ = bag_of_words([text], vocabulary, counts=True)
        rows, _ = bag_of_words([text] + EXAMPLES, vocabulary)
    score = float(ml.model(rows[:1], weights)[0])
    return {"tokens": tokenize(text), "counts": counts[0], "bow": rows[0], "tfidf": tfidf(counts, idf)[0][0],
            "similarities": rows[1:] @ rows[0], "score": score, "probability": float(ml.sigmoid(score))}


def dense(pairs, size):
    out = np.zeros(size)
    for v, value in pairs:
        out[v] = value
    return out


def assert_exact(page, model, text, what):
    data = page.eval_on_selector(".mlr-live", "e => ({...e.dataset})")
    assert data["text"] == text, f"{what}: the page has {data['text']!r}, not {text!r}"
    want = expected(model, text)
    assert json.loads(data["tokens"]) == want["tokens"], f"{what}: tokens {data['tokens']} != {want['tokens']}"
    size = len(model[0])
    counts = json.loads(data["counts"])
    assert all(value > 0 for _, value in counts) and [v for v, _ in counts] == sorted(v for v, _ in counts)
    np.testing.assert_array_equal(dense(counts, size), want["counts"], err_msg=f"{what}: counts")
    for key in ("bow", "tfidf"):
        np.testing.assert_allclose(dense(json.loads(data[key]), size), want[key], rtol=0, atol=TOL, err_msg=f"{what}: {key}")
    np.testing.assert_allclose(json.loads(data["similarities"]), want["similarities"], rtol=0, atol=TOL,
                               err_msg=f"{what}: similarities")
    for key in ("score", "probability"):
        assert abs(float(data[key]) - want[key]) <= TOL, f"{what}: {key} {data[key]} != {want[key]}"
    return want


def test_typed_sentences_equal_the_library(browser, serve, tmp_path, model):
    """Keyboard and pointer: every sentence typed (or edited) gives the library's tokens, counts, unit
    bag of words, TF-IDF, similarities, score and probability; the page's tokenizer equals the
    library's on words that reach every stemming rule; the readout says what the page shows."""
    write_page([live.text_features(*model, EXAMPLES, text=SENTENCES[0])], tmp_path)
    page, errors = open_page(browser, serve, 1, "data-score")
    assert_exact(page, model, SENTENCES[0], "first drawn")
    box = page.get_by_label("type a sentence", exact=False)
    assert box.get_attribute("type") == "text"
    # pointer: a click in the box, then select all and type over it, key by key
    box.click()
    for text in SENTENCES[1:4]:
        page.keyboard.press("Control+A")
        page.keyboard.type(text)
        page.wait_for_function("(t) => document.querySelector('.mlr-live').dataset.text === t", arg=text)
        assert_exact(page, model, text, f"typed {text!r}")
    # keys that edit: Backspace removes the last character, the page follows
    redrawn(page, "text", lambda: page.keyboard.press("Backspace"))
    assert_exact(page, model, SENTENCES[3][:-1], "after Backspace")
    for text in SENTENCES[4:]:
        redrawn(page, "text", lambda text=text: box.fill(text))
        assert_exact(page, model, text, f"filled {text!r}")
    readout = page.locator(".mlr-live [id^=mlr-desc]").inner_text()
    want = expected(model, SENTENCES[-1])
    assert f"{want['score']:.3f}" in readout and f"{want['probability']:.3f}" in readout and "best" in readout, readout
    redrawn(page, "text", lambda: box.fill(""))
    readout = page.locator(".mlr-live [id^=mlr-desc]").inner_text()
    assert readout.startswith("No word of the vocabulary") and f"{model[1][0]:.3f}" in readout, readout
    # the page's tokenizer on every stem with every ending, capitalised too
    words = [s + e for s in STEMS for e in ENDINGS]
    text = " ".join(words) + " " + " ".join(w.upper() for w in words)
    got = page.evaluate("""async ([text, stop]) => {
        const m = await import(new URL('_static/vendor/mlrefined/text_features.js', document.baseURI).href);
        return m.tokenize(text, new Set(stop));
    }""", [text, sorted(STOP_WORDS)])
    assert got == tokenize(text), [(a, b) for a, b in zip(got, tokenize(text)) if a != b][:10]
    finish(page, errors, timings="text features")


def test_on_a_phone_a_tap_and_typing_keep_it_exact(browser, serve, tmp_path, model):
    """390 px wide, 2x pixels, touch: a tap puts the caret in the box, typing redraws, the page
    stays exact; no text under 9 CSS px; nothing scrolls sideways; the two pictures stack."""
    from test_live_widget import SMALLEST_TEXT_JS

    write_page([live.text_features(*model, EXAMPLES, text=CORPUS[2])], tmp_path)
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(serve + "/index.html", wait_until="load")
    page.wait_for_function("() => document.querySelector('.mlr-live[data-score]') !== null", timeout=20_000)
    sizes = page.evaluate(SMALLEST_TEXT_JS)
    small = [(text, round(px, 2)) for text, px in sizes if px < 9]
    assert sizes and not small, f"text under 9 CSS px at 390 px: {small[:8]}"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width} px)"
    tops = page.eval_on_selector_all(".mlr-live figure > svg", "ss => ss.map((s) => s.getBoundingClientRect().top)")
    assert len(tops) == 2 and tops[1] > tops[0] + 100, f"the pictures do not stack: tops {tops}"
    box = page.locator(".mlr-live input[type=text]")
    box.tap()
    assert page.evaluate("document.activeElement.type") == "text"
    page.keyboard.press("End")
    redrawn(page, "text", lambda: page.keyboard.type(" Not good."))
    page.wait_for_function("(t) => document.querySelector('.mlr-live').dataset.text === t", arg=CORPUS[2] + " Not good.")
    assert_exact(page, model, CORPUS[2] + " Not good.", "typed on the phone")
    assert shown(page, "tokens").count('"not"') == 1
    assert not errors, errors
    context.close()
