// Front end of mlrefined_lib.live.TextFeatures (an anywidget ES module), chapter 6, text.
// Python sends the vocabulary (stems, in column order), the stop words, the idf of
// each word, a linear model's weights (bias first) on the unit-length bag of words,
// and a few example documents. For the sentence in the text box this file splits it
// as mlrefined_lib.histograms.tokenize does (lower case, runs of letters and digits,
// stop words dropped, the library's small stemmer), counts the vocabulary's words,
// and computes the unit-length bag of words x, its TF-IDF weights (count times idf,
// unit length), the cosine similarity to each example (the inner product of the unit
// rows) and the score w0 + x^T w with its probability sigmoid(score). For tests: the
// root's `data-text`, `data-tokens` (JSON list), `data-counts`, `data-bow`,
// `data-tfidf` (JSON lists of [column, value] for the non-zero columns, in column
// order), `data-similarities` (JSON), `data-score` and `data-probability`.

const POS = "#2c7bb6", NEG = "#d7191c", GREY = "#7b7b7b";
const VOWELS = "aeiouy", UNDOUBLE_EXCEPTIONS = "lsz";
// Runs of letters and digits: Python's [^\W_] (str.isalnum) in the library's tokenizer.
const TOKEN = /[\p{L}\p{N}]+/gu;

const length = (s) => [...s].length;  // in characters (code points), as Python counts them

function undouble(word) {
  const c = [...word], n = c.length;
  if (n >= 3 && c[n - 1] === c[n - 2] && !VOWELS.includes(c[n - 1]) && !UNDOUBLE_EXCEPTIONS.includes(c[n - 1])) {
    return c.slice(0, -1).join("");
  }
  return word;
}

// mlrefined_lib.histograms.stem: at most one plural rule, then at most one verb ending.
export function stem(word) {
  let w = word;
  if (w.endsWith("ies") && length(w) > 4) w = w.slice(0, -3) + "y";
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("es") && /(s|x|z|ch|sh)$/.test(w.slice(0, -2)) && length(w) > 4) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w) && length(w) > 3) w = w.slice(0, -1);
  for (const suffix of ["ing", "ed"]) {
    if (w.endsWith(suffix)) {
      const rest = w.slice(0, -suffix.length);
      if (length(rest) >= 3 && [...rest].some((c) => VOWELS.includes(c))) w = undouble(rest);
      break;
    }
  }
  return w;
}

// The lower-cased runs of letters and digits of `text`, before stop words and stems.
export function words(text) {
  return text.toLowerCase().match(TOKEN) || [];
}

// mlrefined_lib.histograms.tokenize(text, stop_words=stop, stem=True).
export function tokenize(text, stop) {
  return words(text).filter((t) => !stop.has(t)).map(stem);
}

// The counts of the vocabulary's words among `tokens`, as a Map column -> count.
export function countColumns(tokens, column) {
  const counts = new Map();
  for (const t of tokens) {
    const v = column.get(t);
    if (v !== undefined) counts.set(v, (counts.get(v) || 0) + 1);
  }
  return counts;
}

// The sparse vector `values` (Map column -> value) scaled to unit Euclidean length (zeros stay zero).
export function unitLength(values) {
  let s = 0;
  for (const c of values.values()) s += c * c;
  const norm = Math.sqrt(s), out = new Map();
  for (const [v, c] of values) out.set(v, norm > 0 ? c / norm : 0);
  return out;
}

export function dot(a, b) {
  let s = 0;
  for (const [v, c] of a) { const d = b.get(v); if (d !== undefined) s += c * d; }
  return s;
}

export function sigmoid(t) {
  if (t >= 0) return 1 / (1 + Math.exp(-t));
  const e = Math.exp(t);
  return e / (1 + e);
}

const sorted = (m) => [...m].sort((a, b) => a[0] - b[0]);
const fmt = (v, d = 3) => (Object.is(v, -0) ? 0 : v).toFixed(d).replace(/^-(0\.0+)$/, "$1");
const clip = (s, n) => (length(s) > n ? [...s].slice(0, n - 1).join("") + "…" : s);

function render({ model, el: root }) {
  const cfg = model.get("config");
  const { vocabulary, weights, idf, examples } = cfg;
  const stop = new Set(cfg.stop_words);
  const column = new Map(vocabulary.map((word, v) => [word, v]));
  const exampleRows = examples.map((e) => unitLength(countColumns(tokenize(e, stop), column)));
  const bias = weights[0];
  const uid = Math.random().toString(36).slice(2, 9);
  const state = { text: model.get("text"), pending: false, inputTime: null };
  const descId = `mlr-desc-${uid}`;
  const removeKeys = liveRoot(root);
  const { controls, figure, readout, live, place } = liveLayout(root, cfg.title, descId, false);

  // ---- the text box: the whole width of the controls
  const id = `mlr-text-${uid}`;
  const row = el("div", { style: "grid-column: 1 / -1; display: flex; flex-direction: column; gap: 3px" });
  const input = el("input", {
    type: "text", id, value: state.text, spellcheck: "false", autocomplete: "off", "aria-describedby": descId,
    style: "font: inherit; font-size: 16px; width: 100%; box-sizing: border-box; padding: 5px 8px; border-radius: 4px; " +
      "border: 1px solid var(--pst-color-border, var(--jp-border-color1, #999)); " +
      "color: inherit; background: var(--pst-color-background, var(--jp-layout-color0, #fff))",
  });
  input.value = state.text;
  row.append(el("label", { for: id }, `type a sentence (a ${cfg.document}); the model scores it as you type`), input);
  controls.append(row);

  // ---- left: each vocabulary word of the sentence, its count, TF-IDF weight and contribution x_v w_v
  const ROWS = 10, W = 340, L = 150, Rm = 12, Tp = 30, B = 40, rowH = 20, ph = ROWS * rowH, H1 = Tp + ph + B, pw = W - L - Rm;
  const span = Math.max(...weights.slice(1).map(Math.abs), 1e-12) * 1.02;
  const CX = (v) => L + (v + span) / (2 * span) * pw;
  const left = svgEl("svg", { viewBox: `0 0 ${W} ${H1}`, width: W, role: "img", "aria-describedby": descId });
  left.setAttribute("aria-label", "Each word of the vocabulary in the sentence: its count, its TF-IDF weight and its contribution to the model's score");
  const step = niceStep(span / 2.5), xt = [];
  for (let v = Math.ceil(-span / step) * step; v <= span + 1e-9 * step; v += step) xt.push([String(Number(v.toPrecision(6))), CX(v)]);
  svgAxes(left, { x: L, y: Tp, width: pw, height: ph, xlabelY: H1 - 6, ylabelX: -100 }, xt, [], "contribution xᵥwᵥ to the score", "");
  left.append(svgEl("line", { x1: CX(0), x2: CX(0), y1: Tp, y2: Tp + ph, stroke: "#000" }));
  left.append(svgEl("text", { x: 4, y: Tp - 6, "font-size": 11, fill: "#444" }, "word"));
  left.append(svgEl("text", { x: 104, y: Tp - 6, "font-size": 11, fill: "#444", "text-anchor": "end" }, "count"));
  left.append(svgEl("text", { x: L - 6, y: Tp - 6, "font-size": 11, fill: "#444", "text-anchor": "end" }, "TF-IDF"));
  const bars = Array.from({ length: ROWS }, (_, r) => {
    const cy = Tp + rowH * (r + 0.5);
    const word = svgEl("text", { x: 4, y: cy + 4, "font-size": 12 });
    const count = svgEl("text", { x: 104, y: cy + 4, "font-size": 12, "text-anchor": "end" });
    const weight = svgEl("text", { x: L - 6, y: cy + 4, "font-size": 12, "text-anchor": "end" });
    const bar = svgEl("rect", { y: cy - rowH * 0.32, height: rowH * 0.64 });
    left.append(word, count, weight, bar);
    return { word, count, weight, bar };
  });
  const leftTitle = svgEl("text", { x: W / 2, y: 14, "text-anchor": "middle", "font-size": 12, "font-weight": 600 });
  left.append(leftTitle);

  // ---- right: the probability, then the similarity to each example
  const L2 = 12, R2 = 12, pw2 = W - L2 - R2, exH = 34, T2 = 78, H2 = T2 + exH * examples.length + 8;
  const right = svgEl("svg", { viewBox: `0 0 ${W} ${H2}`, width: W, role: "img", "aria-describedby": descId });
  right.setAttribute("aria-label", "The probability the model gives the positive class, and the cosine similarity of the sentence to each example document");
  const PX = (p) => L2 + p * pw2;
  const probTitle = svgEl("text", { x: L2, y: 16, "font-size": 12, "font-weight": 600 });
  right.append(probTitle);
  right.append(svgEl("rect", { x: L2, y: 24, width: pw2, height: 14, fill: "#f4cccc", stroke: "#000" }));
  const probBar = svgEl("rect", { x: L2, y: 24, height: 14, fill: POS });
  right.append(probBar, svgEl("line", { x1: PX(0.5), x2: PX(0.5), y1: 21, y2: 41, stroke: "#000", "stroke-dasharray": "2 2" }));
  for (const p of [0, 0.5, 1]) right.append(svgEl("text", { x: PX(p), y: 52, "font-size": 11, "text-anchor": p === 0 ? "start" : p === 1 ? "end" : "middle" }, String(p)));
  right.append(svgEl("text", { x: L2, y: T2 - 8, "font-size": 12, "font-weight": 600 }, "cosine similarity to the examples (0 to 1)"));
  const simBars = examples.map((_, j) => {
    const y0 = T2 + exH * j;
    const label = svgEl("text", { x: L2, y: y0 + 11, "font-size": 11.5 }, `${j + 1}. ${clip(cfg.example_names[j], 46)}`);
    const back = svgEl("rect", { x: L2, y: y0 + 16, width: pw2 - 44, height: 11, fill: "#eee" });
    const bar = svgEl("rect", { x: L2, y: y0 + 16, height: 11, fill: GREY });
    const value = svgEl("text", { x: W - R2, y: y0 + 26, "font-size": 11.5, "text-anchor": "end" });
    right.append(label, back, bar, value);
    return { bar, value, width: pw2 - 44 };
  });
  figure.append(figurePart(left, W), figurePart(right, W));
  const tokenLine = el("p", { class: "mlr-legend", style: "margin: 2px 0" });
  const legend = el("div", { class: "mlr-legend" },
    `Words: a blue bar pushes the score up, a red bar down (the unit-length count xᵥ times the word's weight wᵥ). ` +
    `Score: the bar fills to the probability of a ${cfg.positive} ${cfg.document}; dashed, 0.5`);
  place(tokenLine, legend);

  function compute(text) {
    const tokens = tokenize(text, stop);
    const counts = countColumns(tokens, column);
    const bow = unitLength(counts);
    const tfidf = unitLength(new Map([...counts].map(([v, c]) => [v, c * idf[v]])));
    let score = bias;
    for (const [v, x] of bow) score += x * weights[v + 1];
    const similarities = exampleRows.map((e) => dot(bow, e));
    return { tokens, counts, bow, tfidf, score, probability: sigmoid(score), similarities };
  }

  function draw() {
    const t0 = performance.now();
    state.pending = false;
    const text = state.text;
    const { tokens, counts, bow, tfidf, score, probability, similarities } = compute(text);
    // the vocabulary's words in the order they first occur, and drawn by the size of their
    // contribution to the score, largest first (a stable sort: ties keep that order)
    const appearance = [];
    for (const t of tokens) { const v = column.get(t); if (v !== undefined && !appearance.includes(v)) appearance.push(v); }
    const contribution = (v) => Math.abs(bow.get(v) * weights[v + 1]);
    const order = [...appearance].sort((a, b) => contribution(b) - contribution(a));
    bars.forEach(({ word, count, weight, bar }, r) => {
      const v = order[r];
      const on = v !== undefined && r < ROWS;
      word.textContent = on ? clip(vocabulary[v], 12) : "";
      count.textContent = on ? `×${counts.get(v)}` : "";
      weight.textContent = on ? fmt(tfidf.get(v)) : "";
      const c = on ? bow.get(v) * weights[v + 1] : 0;
      bar.setAttribute("x", Math.min(CX(0), CX(c)));
      bar.setAttribute("width", Math.abs(CX(c) - CX(0)));
      bar.setAttribute("fill", c >= 0 ? POS : NEG);
    });
    const more = order.length - ROWS;
    leftTitle.textContent = order.length === 0 ? "no word of the vocabulary: x = 0" :
      `${order.length} word${order.length > 1 ? "s" : ""} of the vocabulary` + (more > 0 ? ` (the ${ROWS} that move the score most)` : "");
    probTitle.textContent = `score w₀ + xᵀw = ${fmt(score)}; P(${cfg.positive}) = ${fmt(probability)}`;
    probBar.setAttribute("width", PX(probability) - L2);
    similarities.forEach((s, j) => {
      simBars[j].bar.setAttribute("width", s * simBars[j].width);
      simBars[j].value.textContent = fmt(s, 2);
    });
    // what the bag of words leaves out
    const raw = words(text);
    const dropped = [...new Set(raw.filter((t) => stop.has(t)))];
    const unknown = [...new Set(tokens.filter((t) => !column.has(t)))];
    tokenLine.textContent = `tokens: ${tokens.length ? tokens.join(" ") : "none"}. ` +
      `Stop words dropped: ${dropped.length ? dropped.join(", ") : "none"}. ` +
      `Not in the vocabulary (counted zero): ${unknown.length ? unknown.join(", ") : "none"}.`;
    let best = 0;
    similarities.forEach((s, j) => { if (s > similarities[best]) best = j; });
    const found = appearance.map((v) => (counts.get(v) > 1 ? `${vocabulary[v]} ×${counts.get(v)}` : vocabulary[v]));
    const verdict = probability >= 0.5 ? `a ${cfg.positive} ${cfg.document}` : `not a ${cfg.positive} ${cfg.document}`;
    const text2 = order.length === 0 ?
      `No word of the vocabulary (${tokens.length} token${tokens.length === 1 ? "" : "s"} after the stop words): x is all zeros, ` +
      `the score is the bias alone, ${fmt(score)}, the probability ${fmt(probability)}, and every similarity is 0.` :
      `Words of the vocabulary: ${found.join(", ")}. Score ${fmt(score)} (bias ${fmt(bias)}), probability ${fmt(probability)}: ` +
      `the model calls it ${verdict}. Most similar: example ${best + 1} (${fmt(similarities[best], 2)}).`;
    readout.textContent = text2;
    Object.assign(root.dataset, {
      text, tokens: JSON.stringify(tokens), counts: JSON.stringify(sorted(counts)), bow: JSON.stringify(sorted(bow)),
      tfidf: JSON.stringify(sorted(tfidf)), similarities: JSON.stringify(similarities), score: String(score),
      probability: String(probability),
    });
    finishDraw(root, state, live, text2, t0);
  }
  const schedule = (event) => scheduleDraw(state, draw, event);
  input.addEventListener("input", (e) => {
    state.text = input.value;
    schedule(e);
    model.set("text", state.text); model.save_changes();
  });
  const fromModel = () => {
    const text = model.get("text");
    if (text === state.text) return;
    state.text = text; input.value = text; schedule();
  };
  model.on("change:text", fromModel);
  draw();
  return () => {
    model.off("change:text", fromModel);
    removeKeys();
  };
}

export default { render };
