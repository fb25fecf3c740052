// Front end of mlrefined_lib.live.WindowSpectrogram (an anywidget ES module), chapter 6.
// Python sends the signal and its rate; this file computes the magnitude
// spectrogram for any window length W (hop W // 8, periodic Hann window,
// |rfft| of each frame, as mlrefined_lib.spectrogram) with an FFT in the page:
// radix 2 when W is a power of two, Bluestein's chirp transform otherwise. It
// draws the decibels relative to the largest magnitude (floor -60 dB, the magma
// colours of the book's spectrograms). While the slider is dragged, each length is drawn
// with a hop of W // 2 (a quarter of the frames: coarser in time, the same bins), and
// exactly again on release. For tests: `data-window` and
// `root.__liveSpectrogram` ({window, hop, frames, bins, magnitudes}:
// magnitudes[t * bins + k] for frame t and frequency bin k).

const MARGIN = { left: 56, right: 76, top: 30, bottom: 42 };
const FLOOR_DB = -60;

// ---- FFT (in place, complex, length a power of two)
const twiddleCache = new Map();
function twiddles(n) {
  if (!twiddleCache.has(n)) {
    const re = new Float64Array(n / 2), im = new Float64Array(n / 2);
    for (let k = 0; k < n / 2; k++) { re[k] = Math.cos(-2 * Math.PI * k / n); im[k] = Math.sin(-2 * Math.PI * k / n); }
    twiddleCache.set(n, [re, im]);
  }
  return twiddleCache.get(n);
}

export function fft(re, im) {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) { let t = re[i]; re[i] = re[j]; re[j] = t; t = im[i]; im[i] = im[j]; im[j] = t; }
  }
  const [wr, wi] = twiddles(n);
  for (let size = 2; size <= n; size <<= 1) {
    const half = size >> 1, step = n / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < half; k++) {
        const a = start + k, b = a + half, tr = wr[k * step], ti = wi[k * step];
        const xr = re[b] * tr - im[b] * ti, xi = re[b] * ti + im[b] * tr;
        re[b] = re[a] - xr; im[b] = im[a] - xi; re[a] += xr; im[a] += xi;
      }
    }
  }
}

// Bluestein: X_k = c_k sum_j (x_j c_j) conj(c_{k-j}), c_k = exp(-i pi k^2 / n), a convolution of length m >= 2n - 1.
const chirpCache = new Map();
function chirp(n) {
  if (!chirpCache.has(n)) {
    let m = 1; while (m < 2 * n - 1) m <<= 1;
    const cr = new Float64Array(n), ci = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const angle = Math.PI * ((k * k) % (2 * n)) / n;  // k^2 mod 2n keeps the angle exact
      cr[k] = Math.cos(angle); ci[k] = -Math.sin(angle);
    }
    const br = new Float64Array(m), bi = new Float64Array(m);
    for (let k = 0; k < n; k++) {
      br[k] = cr[k]; bi[k] = -ci[k];
      if (k > 0) { br[m - k] = cr[k]; bi[m - k] = -ci[k]; }
    }
    fft(br, bi);
    chirpCache.set(n, { m, cr, ci, br, bi, ar: new Float64Array(m), ai: new Float64Array(m) });
  }
  return chirpCache.get(n);
}

// Magnitudes |DFT(x)_k| for k = 0 .. count - 1 of a real x of any length.
export function dftMagnitudes(x, count, out, offset) {
  const n = x.length;
  if ((n & (n - 1)) === 0) {
    const re = Float64Array.from(x), im = new Float64Array(n);
    fft(re, im);
    for (let k = 0; k < count; k++) out[offset + k] = Math.hypot(re[k], im[k]);
    return;
  }
  const c = chirp(n), { m, cr, ci, br, bi, ar, ai } = c;
  ar.fill(0); ai.fill(0);
  for (let k = 0; k < n; k++) { ar[k] = x[k] * cr[k]; ai[k] = x[k] * ci[k]; }
  fft(ar, ai);
  for (let k = 0; k < m; k++) {
    const r = ar[k] * br[k] - ai[k] * bi[k], i = ar[k] * bi[k] + ai[k] * br[k];
    ar[k] = r; ai[k] = -i;  // conjugate: the inverse FFT as a forward one
  }
  fft(ar, ai);
  for (let k = 0; k < count; k++) {
    const r = ar[k] / m, i = -ai[k] / m;
    out[offset + k] = Math.hypot(r * cr[k] - i * ci[k], r * ci[k] + i * cr[k]);
  }
}

// The spectrogram of mlrefined_lib.spectrogram(signal, rate, window, hop).
export function spectrogram(signal, window, hop) {
  const frames = 1 + Math.floor((signal.length - window) / hop), bins = Math.floor(window / 2) + 1;
  const magnitudes = new Float64Array(frames * bins), frame = new Float64Array(window), hann = new Float64Array(window);
  for (let j = 0; j < window; j++) hann[j] = 0.5 - 0.5 * Math.cos(2 * Math.PI * j / window);
  for (let t = 0; t < frames; t++) {
    for (let j = 0; j < window; j++) frame[j] = signal[t * hop + j] * hann[j];
    dftMagnitudes(frame, bins, magnitudes, t * bins);
  }
  return { window, hop, frames, bins, magnitudes };
}

function render({ model, el: root }) {
  const cfg = model.get("config");
  const signal = Float64Array.from(cfg.signal), rate = cfg.rate, fmax = cfg.max_frequency;
  const [wlo, whi] = cfg.window_range, duration = signal.length / rate;
  const lut = cfg.colors.map(hexToRgb);
  const uid = Math.random().toString(36).slice(2, 9);
  const state = { window: model.get("window"), pending: false, inputTime: null, dragging: false };
  const descId = `mlr-desc-${uid}`;
  const removeKeys = liveRoot(root);
  const { controls, figure, readout, live, place } = liveLayout(root, cfg.title, descId, false);

  const id = `mlr-window-${uid}`;
  const lo = Math.log2(wlo), hi = Math.log2(whi);
  const [input, out] = rangeControl(controls, id, "window length (samples, log scale)", { min: lo, max: hi, step: 1 / 48, value: Math.log2(state.window) }, 12);
  // Laid out for the width the canvas is shown at (552 CSS px where there is room: a 420 x 250
  // plot; on a phone a narrower plot, at least 200 px tall).
  const WIDE = 552;
  let plotW = 0, plotH = 0, width = 0, height = 0, ctx = null;
  const canvas = el("canvas", {
    role: "img", "aria-describedby": descId,
    "aria-label": "Spectrogram of the signal: time on the horizontal axis, frequency on the vertical axis, magnitude in dB as colour (bright = loud)",
  });
  place();
  figure.append(figurePart(canvas, WIDE));
  const sx = (t) => MARGIN.left + t / duration * plotW, sy = (f) => MARGIN.top + (1 - f / fmax) * plotH;

  function frame() {
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, width, height);
    ctx.strokeStyle = "#000"; ctx.lineWidth = 1; ctx.strokeRect(MARGIN.left - 0.5, MARGIN.top - 0.5, plotW + 1, plotH + 1);
    ctx.fillStyle = "#000"; ctx.font = "11px system-ui, sans-serif";
    ctx.textAlign = "center";
    for (let t = 0; t <= duration + 1e-9; t += 0.2) { ctx.fillRect(sx(t), MARGIN.top + plotH, 1, 4); ctx.fillText(t.toFixed(1), sx(t), MARGIN.top + plotH + 15); }
    ctx.textAlign = "right";
    for (let f = 0; f <= fmax; f += 500) { ctx.fillRect(MARGIN.left - 4, sy(f), 4, 1); ctx.fillText(String(f), MARGIN.left - 6, sy(f) + 4); }
    ctx.font = "12px system-ui, sans-serif"; ctx.textAlign = "center";
    ctx.fillText("time (s)", MARGIN.left + plotW / 2, height - 6);
    ctx.save(); ctx.translate(13, MARGIN.top + plotH / 2); ctx.rotate(-Math.PI / 2); ctx.fillText("frequency (Hz)", 0, 0); ctx.restore();
    // colour bar
    const bx = MARGIN.left + plotW + 14;
    for (let y = 0; y < plotH; y++) { const c = lut[Math.round((1 - y / (plotH - 1)) * (lut.length - 1))]; ctx.fillStyle = `rgb(${c[0]},${c[1]},${c[2]})`; ctx.fillRect(bx, MARGIN.top + y, 12, 1); }
    ctx.strokeRect(bx - 0.5, MARGIN.top - 0.5, 13, plotH + 1);
    ctx.fillStyle = "#000"; ctx.font = "11px system-ui, sans-serif"; ctx.textAlign = "left";
    for (let db = FLOOR_DB; db <= 0; db += 10) ctx.fillText(String(db), bx + 16, MARGIN.top + (db / FLOOR_DB) * plotH + 4);
    ctx.save(); ctx.translate(width - 6, MARGIN.top + plotH / 2); ctx.rotate(-Math.PI / 2); ctx.textAlign = "center"; ctx.fillText("magnitude (dB)", 0, 0); ctx.restore();
  }

  // Spectrograms already computed, by window length: dragging back over a
  // length redraws it without a new transform. CACHED of them at the most
  // (each holds about 4 numbers per sample of the signal: 256 KB for chapter 6's
  // one second at 8 kHz).
  const computed = new Map(), CACHED = 32;
  function spectrogramOf(size, hop) {
    const key = `${size}/${hop}`;
    if (!computed.has(key)) {
      if (computed.size >= CACHED) computed.delete(computed.keys().next().value);
      computed.set(key, spectrogram(signal, size, hop));
    }
    return computed.get(key);
  }

  function draw() {
    const t0 = performance.now();
    state.pending = false;
    const exact = !state.dragging;
    const size = state.window, hop = Math.max(1, Math.floor(size / (exact ? 8 : 2)));
    const spec = spectrogramOf(size, hop);
    if (exact) root.__liveSpectrogram = spec;
    const { frames, bins, magnitudes } = spec;
    let reference = 0;
    for (let i = 0; i < magnitudes.length; i++) if (magnitudes[i] > reference) reference = magnitudes[i];
    const df = rate / size, dt = hop / rate, shown = Math.min(bins, Math.ceil(fmax / df) + 1);
    const small = document.createElement("canvas");
    small.width = frames; small.height = shown;
    const sctx = small.getContext("2d"), img = sctx.createImageData(frames, shown);
    const floor = 10 ** (FLOOR_DB / 20);
    for (let k = 0; k < shown; k++) for (let t = 0; t < frames; t++) {
      const db = 20 * Math.log10(Math.max(magnitudes[t * bins + k] / reference, floor));
      const c = lut[Math.round((db - FLOOR_DB) / -FLOOR_DB * (lut.length - 1))], p = 4 * ((shown - 1 - k) * frames + t);
      img.data[p] = c[0]; img.data[p + 1] = c[1]; img.data[p + 2] = c[2]; img.data[p + 3] = 255;
    }
    sctx.putImageData(img, 0, 0);
    frame();
    ctx.save(); ctx.beginPath(); ctx.rect(MARGIN.left, MARGIN.top, plotW, plotH); ctx.clip();
    ctx.imageSmoothingEnabled = false;
    // pcolormesh "nearest": each cell centred on its frame time and bin frequency
    const t0s = (size / 2) / rate - dt / 2, f0 = -df / 2;
    ctx.drawImage(small, sx(t0s), sy(f0 + shown * df), frames * dt / duration * plotW, shown * df / fmax * plotH);
    ctx.restore();
    ctx.fillStyle = "#000"; ctx.font = "600 12px system-ui, sans-serif"; ctx.textAlign = "center";
    const ms = (1000 * size / rate).toFixed(1), hz = (rate / size).toFixed(1);
    ctx.fillText(`window ${size} samples: ${ms} ms frames, ${hz} Hz bins`, MARGIN.left + plotW / 2, 18);
    const text = `Window ${size} samples (hop ${hop}): ${frames} frames of ${ms} ms, frequency bins ${hz} Hz apart. ` +
      (size <= 128 ? "Short frames: sharp in time (the clicks stay apart), blurred in frequency (the two tones merge)." :
        size >= 1024 ? "Long frames: sharp in frequency (the two tones are two lines), blurred in time (the clicks smear)." :
          "A middle window: some detail in both time and frequency.");
    readout.textContent = text;
    out.textContent = `${size} samples`;
    input.setAttribute("aria-valuetext", `window ${size} samples`);
    if (exact) root.dataset.window = String(size);
    finishDraw(root, state, live, text, t0);
  }
  const schedule = (event) => scheduleDraw(state, draw, event);
  input.addEventListener("input", (e) => {
    state.window = Math.min(whi, Math.max(wlo, Math.round(2 ** Number(input.value))));
    schedule(e);
  });
  input.addEventListener("pointerdown", () => { state.dragging = true; });
  for (const type of ["pointerup", "pointercancel"]) {
    input.addEventListener(type, (e) => { if (state.dragging) { state.dragging = false; schedule(e); } });
  }
  input.addEventListener("change", (e) => {
    state.dragging = false; schedule(e);
    model.set("window", state.window); model.save_changes();
  });
  const fromModel = () => { state.window = model.get("window"); input.value = Math.log2(state.window); schedule(); };
  model.on("change:window", fromModel);
  function layout() {
    width = Math.max(240, canvas.getBoundingClientRect().width || WIDE);
    plotW = width - MARGIN.left - MARGIN.right;
    plotH = Math.round(Math.min(250, Math.max(200, plotW * 250 / 420)));
    height = plotH + MARGIN.top + MARGIN.bottom;
    ctx = sizeCanvas(canvas, width, height);
  }
  const stopWatching = watchWidth(figure, WIDE, () => { layout(); draw(); });
  return () => {
    stopWatching();
    model.off("change:window", fromModel);
    removeKeys();
  };
}

export default { render };
