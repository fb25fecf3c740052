"""Regenerate the spoken words of chapter 6 (``datasets/spoken_words/*.wav``).

    python datasets/make_spoken_words.py

Two sources, both offline:

* **Synthesized words.** Each word of ``SYNTH_WORDS`` is spoken by each voice
  of ``VOICES`` with the speech synthesizer espeak-ng (``espeak-ng -v VOICE
  -s SPEED -p PITCH -w out.wav WORD``). The voices differ in timbre, pitch and
  speed, so every word comes in several "utterances".
* **Recorded words.** The speaker-test recordings that Debian's alsa-utils
  package ships in ``/usr/share/sounds/alsa/`` are real human speech, each a
  two-word phrase such as "Front Left". Each phrase is cut into its two words
  at the longest pause between them (see :func:`split_at_pause`).

Every word is resampled to 16 kHz (``scipy.signal.resample_poly``), its
leading and trailing silence is trimmed (10 ms frames whose RMS level is below
2% of the loudest frame's, plus 20 ms of margin on each side), its mean is
removed, it is scaled so that its largest absolute sample is 0.9, and it is
written as a mono 16-bit WAV file named ``WORD__SPEAKER.wav``.

The script needs the Debian packages ``espeak-ng`` and ``alsa-utils`` only to
regenerate the files; the notebooks read the committed WAV files
(``mlrefined_lib.datasets.load_spoken_words``) and need neither. espeak-ng's
output is deterministic, so running the script twice writes identical files.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np
from scipy.io import wavfile
from scipy.signal import resample_poly

HERE = Path(__file__).resolve().parent
OUT = HERE / "spoken_words"
RATE = 16_000
ALSA_DIR = Path("/usr/share/sounds/alsa")

#: Words synthesized with espeak-ng.
SYNTH_WORDS = ("yes", "no", "left", "right", "stop", "go")

#: espeak-ng voices: name used in the file name -> (voice, speed in words per minute, pitch 0-99).
VOICES = {
    "espeak-m3": ("en+m3", 150, 40),
    "espeak-f2": ("en+f2", 130, 70),
    "espeak-us-m7": ("en-us+m7", 175, 25),
}

#: The alsa-utils recordings used, each a phrase of two words.
ALSA_PHRASES = (
    "Front_Center",
    "Front_Left",
    "Front_Right",
    "Rear_Center",
    "Rear_Left",
    "Rear_Right",
    "Side_Left",
    "Side_Right",
)


def planned_files() -> list[str]:
    """The names of the WAV files the script writes, sorted."""
    names = [f"{word}__{speaker}.wav" for word in SYNTH_WORDS for speaker in VOICES]
    for phrase in ALSA_PHRASES:
        speaker = "alsa-" + phrase.lower().replace("_", "-")
        names += [f"{word.lower()}__{speaker}.wav" for word in phrase.split("_")]
    return sorted(names)


def to_float(samples: np.ndarray) -> np.ndarray:
    """16-bit integer samples as floats in [-1, 1)."""
    if samples.dtype != np.int16 or samples.ndim != 1:
        raise ValueError(f"expected mono 16-bit samples; found dtype {samples.dtype}, shape {samples.shape}")
    return samples.astype(np.float64) / 32768.0


def resample(signal: np.ndarray, rate: int) -> np.ndarray:
    """Resample to RATE with a polyphase filter (exact ratio, deterministic)."""
    ratio = Fraction(RATE, rate)
    return resample_poly(signal, ratio.numerator, ratio.denominator)


def frame_levels(signal: np.ndarray, frame: int) -> np.ndarray:
    """RMS level of consecutive frames of ``frame`` samples (the last partial frame is dropped)."""
    count = len(signal) // frame
    return np.sqrt(np.mean(signal[: count * frame].reshape(count, frame) ** 2, axis=1))


def trim(signal: np.ndarray, threshold: float = 0.02, margin: float = 0.02) -> np.ndarray:
    """Cut leading and trailing silence: keep from the first to the last loud 10 ms frame, plus a margin."""
    frame = RATE // 100
    levels = frame_levels(signal, frame)
    loud = np.flatnonzero(levels >= threshold * levels.max())
    pad = int(margin * RATE)
    start = max(loud[0] * frame - pad, 0)
    stop = min((loud[-1] + 1) * frame + pad, len(signal))
    return signal[start:stop]


def split_at_pause(signal: np.ndarray, threshold: float = 0.02) -> tuple[np.ndarray, np.ndarray]:
    """Cut a two-word phrase in the middle of the longest quiet run of 10 ms frames between loud ones."""
    frame = RATE // 100
    levels = frame_levels(signal, frame)
    loud = np.flatnonzero(levels >= threshold * levels.max())
    gaps = np.diff(loud)
    longest = int(np.argmax(gaps))
    if gaps[longest] < 10:
        raise ValueError("no pause of at least 100 ms between the two words")
    cut = (loud[longest] + loud[longest + 1] + 1) // 2 * frame
    return signal[:cut], signal[cut:]


def finish(signal: np.ndarray) -> np.ndarray:
    """Trim, remove the mean, scale to a peak of 0.9 and quantize to 16 bits."""
    word = trim(signal)
    word = word - word.mean()
    word = 0.9 * word / np.max(np.abs(word))
    return np.round(word * 32767.0).astype(np.int16)


def synthesize(word: str, voice: str, speed: int, pitch: int, folder: Path) -> np.ndarray:
    """One word spoken by espeak-ng, resampled to RATE."""
    path = folder / "word.wav"
    subprocess.run(
        ["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", str(path), word],
        check=True,
        capture_output=True,
    )
    rate, samples = wavfile.read(path)
    return resample(to_float(samples), rate)


def recorded_words(phrase: str) -> dict[str, np.ndarray]:
    """The two words of an alsa-utils phrase, resampled to RATE."""
    rate, samples = wavfile.read(ALSA_DIR / f"{phrase}.wav")
    first, second = split_at_pause(resample(to_float(samples), rate))
    words = phrase.lower().split("_")
    return {words[0]: first, words[1]: second}


def main() -> None:
    if shutil.which("espeak-ng") is None or not ALSA_DIR.is_dir():
        raise SystemExit("this script needs Debian's espeak-ng and alsa-utils: apt-get install espeak-ng alsa-utils")
    OUT.mkdir(exist_ok=True)
    for old in OUT.glob("*.wav"):
        old.unlink()
    with tempfile.TemporaryDirectory() as folder:
        for word in SYNTH_WORDS:
            for speaker, (voice, speed, pitch) in VOICES.items():
                signal = synthesize(word, voice, speed, pitch, Path(folder))
                wavfile.write(OUT / f"{word}__{speaker}.wav", RATE, finish(signal))
    for phrase in ALSA_PHRASES:
        speaker = "alsa-" + phrase.lower().replace("_", "-")
        for word, signal in recorded_words(phrase).items():
            wavfile.write(OUT / f"{word}__{speaker}.wav", RATE, finish(signal))
    written = sorted(p.name for p in OUT.glob("*.wav"))
    assert written == planned_files(), "the files written differ from planned_files()"
    size = sum(p.stat().st_size for p in OUT.glob("*.wav"))
    print(f"wrote {len(written)} files, {size / 1024:.0f} KiB, to {OUT}")


if __name__ == "__main__":
    main()
