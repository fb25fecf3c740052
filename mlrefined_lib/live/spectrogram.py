"""The spectrogram of a signal for any window length, an FFT in the page (chapter 6)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import traitlets

from .._esm import STATIC, module_text
from .._validation import check_scalar
from ._base import LiveWidget

#: The spectrogram of chapter 6 for any window length (an FFT in the page).
SPECTROGRAM_ESM_PATH = STATIC / "spectrogram.js"
SPECTROGRAM_ANYWIDGET_ID = "mlrefined_lib.live.WindowSpectrogram"


class WindowSpectrogram(LiveWidget):
    """The spectrogram of a signal for any window length (hop = window // 8), computed in the page
    with an FFT; build it with :func:`window_spectrogram` (chapter 6). Synced value: ``window``."""

    anywidget_id = SPECTROGRAM_ANYWIDGET_ID
    _esm = module_text("spectrogram.js")
    config = traitlets.Dict().tag(sync=True)
    window = traitlets.Int(256).tag(sync=True)

    def spectrogram(self, window: int | None = None):
        """:func:`mlrefined_lib.histograms.spectrogram` with ``window`` (default: the current one) and hop ``window // 8``."""
        from ..histograms import spectrogram

        window = self.window if window is None else window
        return spectrogram(np.array(self.config["signal"]), self.config["rate"], window=window, hop=max(1, window // 8))

    def description(self) -> str:
        rate, window = self.config["rate"], self.window
        _, times, _ = self.spectrogram()
        return (f"{self.config['title']}: spectrogram with a window of {window} samples ({1000 * window / rate:.1f} ms "
                f"frames, {rate / window:.1f} Hz bins, hop {max(1, window // 8)}, {len(times)} frames), in dB "
                f"relative to its largest magnitude, from 0 to {self.config['max_frequency']:g} Hz.")

    def to_png(self) -> bytes:
        from .. import plotting
        from ..figures.histogram_features import window_frame

        cfg = self.config
        fig = window_frame(np.array(cfg["signal"]), cfg["rate"], self.window, max_frequency=cfg["max_frequency"])
        return plotting.figure_to_png(fig, dpi=80)


def _magma() -> list[str]:
    import matplotlib
    from matplotlib.colors import to_hex

    cmap = matplotlib.colormaps["magma"]
    return [to_hex(cmap(i / 255)) for i in range(256)]


def window_spectrogram(
    signal,
    rate: float,
    *,
    window: int = 256,
    window_range: Sequence[int] = (32, 2048),
    max_frequency: float = 2500.0,
    title: str = "Spectrogram and window length",
) -> WindowSpectrogram:
    """Build the window-length widget: the spectrogram of ``signal`` for any window (chapter 6).

    Parameters
    ----------
    signal : array of shape (S,)
        Samples (shipped to the page: keep it short, a few seconds at most).
    rate : float
        Samples per second.
    window : int
        Initial window length, inside ``window_range``.
    window_range : (low, high)
        Window lengths the reader can choose (log-scale control), at most S.
    max_frequency : float
        Top of the frequency axis (Hz).

    Returns
    -------
    WindowSpectrogram
    """
    samples = np.asarray(signal, dtype=float)
    if samples.ndim != 1 or not np.all(np.isfinite(samples)):
        raise ValueError(f"signal must be 1-D and finite with shape (S,); found shape {samples.shape}.")
    rate = check_scalar(rate, "rate", numbers.Real, min_val=0, include_boundaries="neither")
    low, high = (check_scalar(v, "window_range", numbers.Integral, min_val=2, max_val=samples.size) for v in window_range)
    if low >= high:
        raise ValueError(f"window_range must be (low, high) with low < high; found {window_range!r}.")
    window = check_scalar(window, "window", numbers.Integral, min_val=low, max_val=high)
    widget = WindowSpectrogram()
    widget.config = {
        "signal": samples.tolist(),
        "rate": float(rate),
        "window_range": [int(low), int(high)],
        "max_frequency": check_scalar(max_frequency, "max_frequency", numbers.Real, min_val=0,
                                      include_boundaries="neither"),
        "colors": _magma(),
        "title": title,
    }
    widget.window = int(window)
    return widget
