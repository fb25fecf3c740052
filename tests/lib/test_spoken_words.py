"""Tests of the spoken-word data (datasets/spoken_words) and its loader."""

from pathlib import Path

import numpy as np
import pytest
from scipy.io import wavfile

from mlrefined_lib import datasets

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "datasets" / "spoken_words"


def test_files_are_the_generators_plan(data_script):
    generator = data_script("make_spoken_words")
    assert sorted(p.name for p in FOLDER.glob("*.wav")) == generator.planned_files()
    assert len(generator.planned_files()) == len(generator.SYNTH_WORDS) * len(generator.VOICES) + 2 * len(
        generator.ALSA_PHRASES
    )


def test_files_are_small_mono_16_bit_16_khz():
    total = 0
    for path in FOLDER.glob("*.wav"):
        rate, samples = wavfile.read(path)
        assert rate == 16_000, path.name
        assert samples.dtype == np.int16 and samples.ndim == 1, path.name
        assert 0.2 <= samples.size / rate <= 1.0, path.name
        total += path.stat().st_size
    assert total < 1_000_000


def test_loader_records(data_script):
    records = datasets.load_spoken_words()
    generator = data_script("make_spoken_words")
    assert len(records) == len(generator.planned_files())
    assert [f"{r.word}__{r.speaker}.wav" for r in records] == generator.planned_files()
    for record in records:
        assert record.rate == 16_000
        assert record.signal.dtype == np.float64 and record.signal.ndim == 1
        assert np.all(record.signal >= -1.0) and np.all(record.signal < 1.0)
        assert 0.85 < np.max(np.abs(record.signal)) < 0.95  # scaled to a peak of 0.9
        assert abs(record.signal.mean()) < 0.01


def test_loader_words_and_speakers():
    records = datasets.load_spoken_words()
    words = {r.word for r in records}
    assert words == {"yes", "no", "left", "right", "stop", "go", "front", "rear", "side", "center"}
    assert {r.speaker for r in records if r.word == "front"} == {
        "alsa-front-center",
        "alsa-front-left",
        "alsa-front-right",
    }
    assert len([r for r in records if r.word == "left"]) == 6  # three synthetic, three recorded


def test_loader_filter_and_fresh_arrays():
    first = datasets.load_spoken_words(["yes", "no"])
    assert [r.word for r in first] == ["no"] * 3 + ["yes"] * 3
    first[0].signal[:] = 0.0
    again = datasets.load_spoken_words("no")
    assert np.any(again[0].signal != 0.0)
    with pytest.raises(ValueError, match="maybe"):
        datasets.load_spoken_words(["maybe"])
