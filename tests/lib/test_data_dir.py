"""data_dir() finds the data inside an installed package or in the clone; the
WAV reader (standard library) agrees with scipy's."""

import shutil
from pathlib import Path

import numpy as np
import pytest
from scipy.io import wavfile

from mlrefined_lib import datasets

REPO = Path(__file__).resolve().parents[2]


def _fake_package(root: Path) -> Path:
    """An empty ``mlrefined_lib`` folder under ``root``; returns its datasets.py path."""
    package = root / "mlrefined_lib"
    package.mkdir(parents=True)
    return package / "datasets.py"


def test_data_inside_the_package_is_found_first(tmp_path, monkeypatch):
    module = _fake_package(tmp_path)
    shutil.copytree(REPO / "datasets", module.parent / "data", ignore=shutil.ignore_patterns("spoken_words"))
    (tmp_path / "datasets").mkdir()  # a clone folder too: the package copy wins
    monkeypatch.setattr(datasets, "__file__", str(module))
    assert datasets.data_dir() == module.parent / "data"
    x, y = datasets.load_one_input_regression()
    assert x.shape == (100, 1) and y.shape == (100,)


def test_clone_folder_is_found_when_the_package_has_no_data(tmp_path, monkeypatch):
    module = _fake_package(tmp_path)
    shutil.copytree(REPO / "datasets", tmp_path / "datasets", ignore=shutil.ignore_patterns("spoken_words"))
    monkeypatch.setattr(datasets, "__file__", str(module))
    assert datasets.data_dir() == tmp_path / "datasets"


def test_missing_data_names_both_places(tmp_path, monkeypatch):
    module = _fake_package(tmp_path)
    (tmp_path / "datasets").mkdir()  # a folder without the data files does not count
    monkeypatch.setattr(datasets, "__file__", str(module))
    with pytest.raises(FileNotFoundError) as info:
        datasets.data_dir()
    message = str(info.value)
    assert str(module.parent / "data") in message and str(tmp_path / "datasets") in message


def test_wav_reader_matches_scipy():
    paths = sorted((REPO / "datasets" / "spoken_words").glob("*.wav"))
    assert len(paths) == 34
    for path in paths:
        rate, samples = datasets._read_wav_int16(path)
        ref_rate, ref = wavfile.read(path)
        assert rate == ref_rate and samples.dtype == ref.dtype
        np.testing.assert_array_equal(samples, ref)


def test_wav_reader_rejects_stereo(tmp_path):
    path = tmp_path / "stereo.wav"
    wavfile.write(path, 16_000, np.zeros((100, 2), dtype=np.int16))
    with pytest.raises(ValueError, match="mono 16-bit"):
        datasets._read_wav_int16(path)
