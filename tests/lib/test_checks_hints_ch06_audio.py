"""The hints of chapter 6's audio check: each typical mistake gets its own message, and other right
answers pass. The stub, non-function, wrong-shape, one wrong and one right answer of every check are
in test_checks_contract.py."""

import numpy as np
import pytest

from mlrefined_lib import checks
from mlrefined_lib.checks import CheckFailed
from mlrefined_lib.histograms import hann_window


def magnitudes(signal):
    return np.abs(np.fft.rfft(signal * hann_window(signal.size)))


def chord_peaks_right(signal, rate, count):
    spectrum = magnitudes(signal)
    inner = np.arange(1, spectrum.size - 1)
    peaks = inner[(spectrum[inner] > spectrum[inner - 1]) & (spectrum[inner] >= spectrum[inner + 1])]
    strongest = peaks[np.argsort(spectrum[peaks])[::-1][:count]]
    return np.sort(np.fft.rfftfreq(signal.size, d=1 / rate)[strongest])


def chord_peaks_with_scipy(signal, rate, count):
    from scipy.signal import find_peaks

    spectrum = np.abs(np.fft.rfft(signal))  # no window: also right for these chords
    peaks, _ = find_peaks(spectrum)
    strongest = peaks[np.argsort(spectrum[peaks])[-count:]]
    return np.sort(strongest * rate / signal.size)


def top_bins(signal, rate, count):  # the strongest bins, not the strongest peaks
    spectrum = magnitudes(signal)
    return np.sort(np.argsort(spectrum)[::-1][:count] * rate / signal.size)


def bin_numbers(signal, rate, count):
    return chord_peaks_right(signal, rate, count) * signal.size / rate


def cycles_per_sample(signal, rate, count):
    return chord_peaks_right(signal, rate, count) / rate


def unsorted(signal, rate, count):
    return chord_peaks_right(signal, rate, count)[::-1]


def wrong_count(signal, rate, count):
    return chord_peaks_right(signal, rate, 3)


def in_place(signal, rate, count):
    signal *= hann_window(signal.size)
    return chord_peaks_right(signal, rate, count)


@pytest.mark.parametrize("answer", [chord_peaks_right, chord_peaks_with_scipy])
def test_chord_check_passes_right_answers(answer, capsys):
    checks.check_chord_peaks(answer)
    assert "Correct" in capsys.readouterr().out


@pytest.mark.parametrize(
    "answer, message",
    [
        (top_bins, "neighbouring bins of one peak"),
        (bin_numbers, "bin numbers"),
        (cycles_per_sample, "cycles per sample"),
        (unsorted, "increasing order"),
        (wrong_count, "frequencies for count="),
        (in_place, "changed the signal"),
    ],
)
def test_chord_check_explains_wrong_answers(answer, message):
    with pytest.raises(CheckFailed, match=message):
        checks.check_chord_peaks(answer)


