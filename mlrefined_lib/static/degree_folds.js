// Front end of mlrefined_lib.live.DegreeFolds (an anywidget ES module), chapter 5.
// Python sends the data (one input x, outputs y), the largest degree D and the
// scale of the input; for any number of folds k and any seed this file draws the
// folds (mulberry32 and a Fisher-Yates shuffle, as
// mlrefined_lib.live.degree_folds.shuffled_folds; both in _shared.js), fits the least-squares
// polynomial of every degree 1..D on each training part (Householder QR of
// [1, t, ..., t^D], t = x / scale: the fit of degree d is the leading d + 1
// columns of the same factorization) and scores it on the validation part
// (mean squared error). It draws the fold scores, each degree's mean with one
// standard error each way, the one-standard-error line and the degree the rule
// chooses, as mlrefined_lib.grid_search chooses it; and the data with that
// degree's fit on all points. For tests: the root's `data-k`, `data-seed`,
// `data-folds` (JSON: the fold of each row), `data-scores` (JSON [degree][fold]),
// `data-means`, `data-errors` (standard errors), `data-best`, `data-chosen`
// (degrees) and `data-fit` (JSON: the chosen fit's values at the data).

const FOLD_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
const RULE = "#d7191c";

// The fold of each row: rows in shuffled order dealt in blocks, the first P % k folds one larger.
export function foldOf(P, k, seed) {
  const order = shuffledOrder(P, seed), fold = new Array(P);
  let position = 0;
  for (let i = 0; i < k; i++) {
    const size = Math.floor(P / k) + (i < P % k ? 1 : 0);
    for (let s = 0; s < size; s++) fold[order[position++]] = i;
  }
  return fold;
}

// Least-squares weights (bias first) of every degree 1..D on the rows `rows`, from
// the powers by column (`columns[j][p]` = t_p^j, j = 0..D): weights[d - 1] has d + 1
// entries. One array holds the design's columns and then the outputs, column by column.
export function fitAllDegrees(columns, y, rows, D) {
  const n = rows.length, m = D + 1, out = m * n;
  const A = new Float64Array(out + n);
  for (let j = 0; j < m; j++) { const c = columns[j], o = j * n; for (let i = 0; i < n; i++) A[o + i] = c[rows[i]]; }
  for (let i = 0; i < n; i++) A[out + i] = y[rows[i]];
  const diag = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    const oj = j * n;
    let norm = 0;
    for (let i = j; i < n; i++) norm += A[oj + i] * A[oj + i];
    norm = Math.sqrt(norm);
    const alpha = A[oj + j] > 0 ? -norm : norm;
    // v = a[j:] - alpha e_1, stored in place; H = I - 2 v v^T / (v^T v), applied to the
    // later columns and to the outputs
    A[oj + j] -= alpha;
    let vv = 0;
    for (let i = j; i < n; i++) vv += A[oj + i] * A[oj + i];
    diag[j] = alpha;
    if (vv === 0) continue;
    for (let l = j + 1; l <= m; l++) {
      const ol = l * n;
      let s = 0;
      for (let i = j; i < n; i++) s += A[oj + i] * A[ol + i];
      s = 2 * s / vv;
      for (let i = j; i < n; i++) A[ol + i] -= s * A[oj + i];
    }
  }
  const weights = [];
  for (let d = 1; d <= D; d++) {
    const w = new Array(d + 1);
    for (let i = d; i >= 0; i--) {
      let s = A[out + i];
      for (let l = i + 1; l <= d; l++) s -= A[l * n + i] * w[l];
      w[i] = s / diag[i];
    }
    weights.push(w);
  }
  return weights;
}

export function polynomialAt(w, t) {
  let power = 1, value = w[0];
  for (let j = 1; j < w.length; j++) { power *= t; value += w[j] * power; }
  return value;
}

// Every fold's validation MSE of every degree: scores[d - 1][i].
export function foldScores(columns, t, y, D, fold, k) {
  const scores = Array.from({ length: D }, () => new Array(k).fill(0));
  const train = Array.from({ length: k }, () => []), valid = Array.from({ length: k }, () => []);
  fold.forEach((f, p) => { valid[f].push(p); for (let i = 0; i < k; i++) if (i !== f) train[i].push(p); });
  for (let i = 0; i < k; i++) {
    const weights = fitAllDegrees(columns, y, train[i], D);
    weights.forEach((w, d) => {
      let s = 0;
      for (const p of valid[i]) { const r = polynomialAt(w, t[p]) - y[p]; s += r * r; }
      scores[d][i] = s / valid[i].length;
    });
  }
  return scores;
}

// Mean and standard error (sample sd, ddof 1, over sqrt(k)) of each degree's scores;
// the lowest mean (the first of equals) and the one-standard-error choice.
export function summarize(scores) {
  const means = scores.map((s) => s.reduce((a, b) => a + b, 0) / s.length);
  const errors = scores.map((s, d) => {
    let v = 0;
    for (const e of s) v += (e - means[d]) ** 2;
    return Math.sqrt(v / (s.length - 1)) / Math.sqrt(s.length);
  });
  let best = 0;
  means.forEach((m, d) => { if (m < means[best]) best = d; });
  const threshold = means[best] + errors[best];
  const chosen = means.findIndex((m) => m <= threshold);
  return { means, errors, best, chosen, threshold };
}

const fmt = (v) => (!isFinite(v) ? String(v) : Math.abs(v) >= 1e4 ? v.toExponential(2).replace("e+", "e") : Number(v.toPrecision(3)).toString());

function render({ model, el: root }) {
  const cfg = model.get("config");
  const x = cfg.x, y = cfg.y, P = x.length, D = cfg.max_degree;
  const t = x.map((v) => v / cfg.scale);
  const columns = [Float64Array.from(t, () => 1)];
  for (let j = 1; j <= D; j++) columns.push(columns[j - 1].map((v, p) => v * t[p]));
  const [xa, xb] = cfg.xlim, [ya, yb] = cfg.ylim, [ea, eb] = cfg.error_limits;
  const uid = Math.random().toString(36).slice(2, 9);
  const state = { k: model.get("k"), seed: model.get("seed"), pending: false, inputTime: null };
  const descId = `mlr-desc-${uid}`;
  const removeKeys = liveRoot(root);
  const { controls, figure, readout, live, place } = liveLayout(root, cfg.title, descId, false);

  // ---- controls: the number of folds, and new folds (the seed)
  const kId = `mlr-k-${uid}`;
  const [kInput, kOut] = rangeControl(controls, kId, "number of folds k", { min: 2, max: P, step: 1, value: state.k }, 22);
  const seedRow = el("div", { class: "mlr-control", style: `--row:${controls.children.length + 1}` });
  const newFolds = el("button", { type: "button", "aria-describedby": descId }, "new folds");
  const seedOut = el("output", { style: "min-width:22ch" });
  newFolds.setAttribute("aria-label", "new folds: draw the folds again from the next seed");
  seedRow.append(newFolds, seedOut);
  controls.append(seedRow);

  // ---- two SVG panels: the data and the chosen fit; the scores by degree
  const W = 340, H = 270, L = 50, R = 10, Tp = 26, B = 40, pw = W - L - R, ph = H - Tp - B;
  const box = { x: L, y: Tp, width: pw, height: ph, xlabelY: H - 6, ylabelX: 13 };
  const X = (v) => L + (v - xa) / (xb - xa) * pw, Y = (v) => Tp + (yb - v) / (yb - ya) * ph;
  const Dx = (d) => L + (d - 0.4) / D * pw, E = (v) => Tp + (eb - v) / (eb - ea) * ph;
  const ticks = (a, b, n) => { const s = niceStep((b - a) / n), r = []; for (let v = Math.ceil(a / s) * s; v <= b + 1e-9 * s; v += s) r.push(Math.round(v / s) * s); return r; };
  const tickLabel = (v) => String(Number(v.toPrecision(6)));
  const left = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, role: "img", "aria-describedby": descId });
  left.setAttribute("aria-label", "The data, coloured by fold, and the least-squares polynomial of the chosen degree fitted on all of them");
  svgAxes(left, box, ticks(xa, xb, 5).map((v) => [tickLabel(v), X(v)]), ticks(ya, yb, 5).map((v) => [tickLabel(v), Y(v)]), cfg.xlabel, cfg.ylabel);
  const dataLayer = clippedLayer(left, `mlr-clip-${uid}-l`, box);
  // the points as one path per fold colour (each point's circle written once)
  const dotArcs = x.map((v, p) => `M${(X(v) - 3.4).toFixed(2)} ${Y(y[p]).toFixed(2)}a3.4 3.4 0 1 0 6.8 0a3.4 3.4 0 1 0 -6.8 0`);
  const dotPaths = FOLD_COLORS.map((fill) => {
    const path = svgEl("path", { fill, stroke: "#000", "stroke-width": 0.4 });
    dataLayer.append(path);
    return path;
  });
  const fitLine = svgEl("polyline", { fill: "none", stroke: RULE, "stroke-width": 2.2 });
  dataLayer.append(fitLine);
  const leftTitle = svgEl("text", { x: L + pw / 2, y: 16, "text-anchor": "middle", "font-size": 12, "font-weight": 600 });
  left.append(leftTitle);

  const right = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, role: "img", "aria-describedby": descId });
  right.setAttribute("aria-label", "Each fold's validation error for every degree, each degree's mean with one standard error each way, the one-standard-error line and the chosen degree");
  const degreeTicks = []; for (let d = 1; d <= D; d++) degreeTicks.push([String(d), Dx(d)]);
  svgAxes(right, box, degreeTicks, ticks(ea, eb, 5).map((v) => [tickLabel(v), E(v)]), "polynomial degree", "validation MSE");
  const scoreLayer = clippedLayer(right, `mlr-clip-${uid}-r`, box);
  const scoreDots = svgEl("path", { fill: "#9a9a9a" });
  const ruleLine = svgEl("line", { x1: L, x2: L + pw, stroke: RULE, "stroke-width": 1.3, "stroke-dasharray": "6 4" });
  const chosenBand = svgEl("rect", { y: Tp, height: ph, width: pw / D * 0.8, fill: "#fde0dd" });
  const bars = svgEl("path", { stroke: "#000", "stroke-width": 1.4, fill: "none" });
  const meanDots = svgEl("g");
  const meanMarks = [];
  for (let d = 1; d <= D; d++) { const c = svgEl("circle", { cx: Dx(d), stroke: "#000" }); meanMarks.push(c); meanDots.append(c); }
  const overflow = svgEl("path", { fill: "#777" });
  const meanOverflow = svgEl("path", { fill: "#000" });
  scoreLayer.append(chosenBand, scoreDots, ruleLine, bars, meanDots);
  right.append(overflow, meanOverflow);
  const rightTitle = svgEl("text", { x: L + pw / 2, y: 16, "text-anchor": "middle", "font-size": 12, "font-weight": 600 });
  right.append(rightTitle);
  figure.append(figurePart(left, W), figurePart(right, W));
  const legend = el("div", { class: "mlr-legend" },
    "left: the points, coloured by their fold when k ≤ 10; red: the chosen degree fitted on all points. " +
    "Right: grey dots, each fold's score; black, each degree's mean ± one standard error; dashed red, " +
    "the lowest mean plus its standard error; shaded, the simplest degree below that line. A ▲ at the top edge marks a degree with fold scores (grey) or its mean (black) off the scale");
  place(legend);

  const span = yb - ya;
  const curveT = []; for (let i = 0; i <= 300; i++) curveT.push((xa + (xb - xa) * i / 300) / cfg.scale);
  const allFits = fitAllDegrees(columns, y, Array.from({ length: P }, (_, p) => p), D);
  const computed = new Map();
  // what depends on the chosen degree alone: its curve's points and its values at the data
  const fitDrawn = allFits.map((w) => {
    let cache = null;
    return () => cache || (cache = {
      points: svgPoints(curveT.map((v) => [X(v * cfg.scale), Y(Math.min(Math.max(polynomialAt(w, v), ya - span), yb + span))])),
      values: JSON.stringify(t.map((v) => polynomialAt(w, v))),
    });
  });

  function draw() {
    const t0 = performance.now();
    state.pending = false;
    const k = state.k, seed = state.seed;
    const key = `${k} ${seed}`;
    if (!computed.has(key)) {  // each (k, seed) is computed once: a drag back over the slider only redraws
      if (computed.size >= 400) computed.clear();
      const fold = foldOf(P, k, seed), scores = foldScores(columns, t, y, D, fold, k);
      computed.set(key, { fold, scores, ...summarize(scores) });
    }
    const { fold, scores, means, errors, best, chosen, threshold } = computed.get(key);
    const fit = fitDrawn[chosen]();
    // the data and the fit
    const byFold = FOLD_COLORS.map(() => []);
    if (k <= 10) fold.forEach((f, p) => byFold[f].push(dotArcs[p]));
    dotPaths.forEach((path, i) => path.setAttribute("d", (k <= 10 ? byFold[i] : i === 0 ? dotArcs : []).join("")));
    dotPaths[0].setAttribute("fill", k <= 10 ? FOLD_COLORS[0] : "#2c7bb6");
    fitLine.setAttribute("points", fit.points);
    leftTitle.textContent = `degree ${chosen + 1} on all ${P} points`;
    // the scores: the fold dots, the error bars and the markers off the scale as one path each
    const clampE = (v) => E(Math.min(Math.max(v, ea - 0.05 * (eb - ea)), eb + 0.05 * (eb - ea)));
    const r = k > 60 ? 1.3 : k > 15 ? 1.8 : 2.4;
    let dotPath = "", barPath = "", overPath = "", meanOverPath = "";
    scores.forEach((s, d) => {
      const cx = Dx(d + 1), half = pw / D * 0.3;
      for (let i = 0; i < k; i++) {
        const px = cx + (i / (k - 1) - 0.5) * 2 * half, py = clampE(s[i]);
        dotPath += `M${(px - r).toFixed(2)} ${py.toFixed(2)}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`;
      }
      if (means[d] > eb) meanOverPath += `M${cx - 6} ${Tp - 1}L${cx + 6} ${Tp - 1}L${cx} ${Tp - 10}Z`;
      else if (s.some((e) => e > eb)) overPath += `M${cx - 4} ${Tp - 1}L${cx + 4} ${Tp - 1}L${cx} ${Tp - 7}Z`;
      const lo = clampE(means[d] - errors[d]).toFixed(2), hi = clampE(means[d] + errors[d]).toFixed(2);
      barPath += `M${cx} ${lo}V${hi}M${cx - 5} ${lo}h10M${cx - 5} ${hi}h10`;
      const mark = meanMarks[d];
      mark.setAttribute("cy", clampE(means[d]).toFixed(2));
      if (mark.__best !== (d === best)) {  // the lowest mean is drawn hollow
        mark.__best = d === best;
        mark.setAttribute("r", d === best ? 5 : 3.8);
        mark.setAttribute("fill", d === best ? "#fff" : "#000");
        mark.setAttribute("stroke-width", d === best ? 2 : 0);
      }
    });
    scoreDots.setAttribute("d", dotPath);
    bars.setAttribute("d", barPath);
    overflow.setAttribute("d", overPath);
    meanOverflow.setAttribute("d", meanOverPath);
    ruleLine.setAttribute("y1", clampE(threshold)); ruleLine.setAttribute("y2", clampE(threshold));
    chosenBand.setAttribute("x", Dx(chosen + 1) - pw / D * 0.4);
    const loo = k === P;
    const kName = loo ? `k = ${k} (leave-one-out)` : `k = ${k}`;
    rightTitle.textContent = `${kName}: the rule chooses degree ${chosen + 1}`;
    const fewest = P - Math.ceil(P / k), most = P - Math.floor(P / k);
    const off = means.map((m, d) => (m > eb ? d + 1 : 0)).filter(Boolean);
    const text = `${kName}, folds of seed ${seed}: each model is fitted on ${fewest === most ? most : `${fewest} to ${most}`} points. ` +
      `The lowest mean validation error is at degree ${best + 1} (${fmt(means[best])} ± ${fmt(errors[best])}); ` +
      `the one-standard-error rule chooses degree ${chosen + 1} (${fmt(means[chosen])}), the simplest below ${fmt(threshold)}. ` +
      (off.length ? (off.length > 1 ? `The means of degrees ${off.join(", ")} are` : `The mean of degree ${off[0]} is`) + ` off the scale (above ${fmt(eb)}). ` : "") +
      (loo ? "Leave-one-out has a single set of folds: new folds change nothing." :
        "Draw new folds to see how much one assignment of the rows moves the scores.");
    readout.textContent = text;
    kOut.textContent = loo ? `k = ${k} (leave-one-out)` : `k = ${k}`;
    kInput.setAttribute("aria-valuetext", loo ? `${k} folds, leave-one-out` : `${k} folds`);
    seedOut.textContent = `seed ${seed}`;
    Object.assign(root.dataset, {
      k: String(k), seed: String(seed), folds: JSON.stringify(fold), scores: JSON.stringify(scores),
      means: JSON.stringify(means), errors: JSON.stringify(errors), best: String(best + 1), chosen: String(chosen + 1),
      fit: fit.values,
    });
    finishDraw(root, state, live, text, t0);
  }
  const schedule = (event) => scheduleDraw(state, draw, event);
  kInput.addEventListener("input", (e) => { state.k = Number(kInput.value); schedule(e); });
  kInput.addEventListener("change", () => { model.set("k", state.k); model.save_changes(); });
  newFolds.addEventListener("click", (e) => {
    state.seed = (state.seed + 1) >>> 0;
    schedule(e);
    model.set("seed", state.seed); model.save_changes();
  });
  const fromModel = () => {
    if (model.get("k") === state.k && model.get("seed") === state.seed) return;  // the page's own change, drawn already
    state.k = model.get("k"); state.seed = model.get("seed"); kInput.value = state.k; schedule();
  };
  model.on("change:k", fromModel);
  model.on("change:seed", fromModel);
  draw();
  return () => {
    model.off("change:k", fromModel);
    model.off("change:seed", fromModel);
    removeKeys();
  };
}

export default { render };
