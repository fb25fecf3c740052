// Front end of mlrefined_lib.live.BoostingRounds (an anywidget ES module), chapter 10.
// Python sends boosting's per-round numbers: the order in which the features
// entered, their weights (bias first), the training cost after each round and the
// cross-validated mean and standard error of each round (with the lowest mean and
// the one-standard-error choice). For any number of rounds m this file builds the
// model of round m as a full weight vector (as BoostResult.full_weights: 0 for
// the features not chosen yet) and draws its weights as bars, in the order the
// features entered, and a point on each cost curve. For tests: the root's
// `data-rounds`, `data-weights` (JSON: the full weight vector) and `data-costs`
// (JSON [training, cross-validated mean, standard error] of round m).

const POS = "#2c7bb6", NEG = "#d7191c", TRAIN = "#2c7bb6", CV = "#e66101";

export function fullWeights(order, weights, numFeatures, m) {
  const w = new Array(numFeatures + 1).fill(0);
  w[0] = weights[0];
  for (let r = 0; r < m; r++) w[1 + order[r]] = weights[1 + r];
  return w;
}

const fmt = (v) => (Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(2).replace("e+", "e") : Number(v.toPrecision(4)).toString());

function render({ model, el: root }) {
  const cfg = model.get("config");
  const { names, order, weights, train, cv_means: means, cv_errors: errors } = cfg;
  const R = order.length, N = names.length;
  const uid = Math.random().toString(36).slice(2, 9);
  const state = { rounds: model.get("rounds"), pending: false, inputTime: null };
  const descId = `mlr-desc-${uid}`;
  const removeKeys = liveRoot(root);
  const { controls, figure, readout, live, place } = liveLayout(root, cfg.title, descId, false);

  const id = `mlr-rounds-${uid}`;
  const [input, out] = rangeControl(controls, id, "boosting rounds m", { min: 0, max: R, step: 1, value: state.rounds }, 20);

  // ---- left: one bar per feature, in the order boosting adds them
  const longest = Math.max(...order.map((n) => names[n].length), 4);
  const W = 340, L = Math.min(130, 14 + 7.2 * longest), Rm = 12, Tp = 26, B = 40;
  const row = Math.max(14, Math.min(24, 190 / Math.max(R, 1))), H1 = Tp + B + row * Math.max(R, 1);
  const pw1 = W - L - Rm, ph1 = row * Math.max(R, 1);
  const span = Math.max(...weights.slice(1).map(Math.abs), 1e-12) * 1.08;
  const step = niceStep(span / 2.5);
  const WX = (v) => L + (v + span) / (2 * span) * pw1;
  const left = svgEl("svg", { viewBox: `0 0 ${W} ${H1}`, width: W, role: "img", "aria-describedby": descId });
  left.setAttribute("aria-label", "The weight of each feature boosting has added by round m, in the order the features enter");
  const wt = []; for (let v = Math.ceil(-span / step) * step; v <= span + 1e-9 * step; v += step) wt.push([String(Number(v.toPrecision(6))), WX(v)]);
  svgAxes(left, { x: L, y: Tp, width: pw1, height: ph1, xlabelY: H1 - 6, ylabelX: 12 }, wt, [], cfg.weight_label, "");
  left.append(svgEl("line", { x1: WX(0), x2: WX(0), y1: Tp, y2: Tp + ph1, stroke: "#000", "stroke-width": 1 }));
  const barRows = order.map((n, r) => {
    const cy = Tp + row * (r + 0.5);
    const label = svgEl("text", { x: L - 6, y: cy + 4, "text-anchor": "end", "font-size": 12 }, names[n]);
    const placeholder = svgEl("rect", { x: Math.min(WX(0), WX(weights[1 + r])), width: Math.abs(WX(weights[1 + r]) - WX(0)), y: cy - row * 0.32, height: row * 0.64, fill: "none", stroke: "#bbb", "stroke-dasharray": "3 3" });
    const bar = svgEl("rect", { x: WX(0), width: 0, y: cy - row * 0.32, height: row * 0.64, fill: weights[1 + r] >= 0 ? POS : NEG });
    left.append(label, placeholder, bar);
    return { label, placeholder, bar, w: weights[1 + r] };
  });
  const leftTitle = svgEl("text", { x: L + pw1 / 2 - 20, y: 16, "text-anchor": "middle", "font-size": 12, "font-weight": 600 });
  left.append(leftTitle);

  // ---- right: training and cross-validated cost against the round
  const H2 = 270, L2 = 54, Rr = 10, T2 = 26, B2 = 40, pw2 = W - L2 - Rr, ph2 = H2 - T2 - B2;
  const lo = Math.min(...train, ...means.map((v, r) => v - errors[r])), hi = Math.max(...train, ...means.map((v, r) => v + errors[r]));
  const pad = 0.06 * (hi - lo || 1), ca = lo - pad, cb = hi + pad;
  const RX = (r) => L2 + (r + 0.5) / (R + 1) * pw2, CY = (v) => T2 + (cb - v) / (cb - ca) * ph2;
  const right = svgEl("svg", { viewBox: `0 0 ${W} ${H2}`, width: W, role: "img", "aria-describedby": descId });
  right.setAttribute("aria-label", "The training cost and the cross-validated cost with one standard error after each round, with round m marked");
  const cs = niceStep((cb - ca) / 5), ct = [];
  for (let v = Math.ceil(ca / cs) * cs; v <= cb; v += cs) ct.push([String(Number(v.toPrecision(6))), CY(v)]);
  const rs = Math.max(1, Math.ceil((R + 1) / 11)), rt = [];
  for (let r = 0; r <= R; r += rs) rt.push([String(r), RX(r)]);
  svgAxes(right, { x: L2, y: T2, width: pw2, height: ph2, xlabelY: H2 - 6, ylabelX: 12 }, rt, ct, "round m", cfg.cost_label);
  const rline = (i) => `${RX(i).toFixed(2)}`;
  const threshold = means[cfg.best] + errors[cfg.best];
  right.append(svgEl("line", { x1: L2, x2: L2 + pw2, y1: CY(threshold), y2: CY(threshold), stroke: CV, "stroke-width": 1, "stroke-dasharray": "2 3" }));
  means.forEach((v, r) => right.append(svgEl("line", { x1: rline(r), x2: rline(r), y1: CY(v - errors[r]), y2: CY(v + errors[r]), stroke: CV, "stroke-width": 1.2 })));
  right.append(svgEl("polyline", { points: svgPoints(train.map((v, r) => [RX(r), CY(v)])), fill: "none", stroke: TRAIN, "stroke-width": 2 }));
  right.append(svgEl("polyline", { points: svgPoints(means.map((v, r) => [RX(r), CY(v)])), fill: "none", stroke: CV, "stroke-width": 2, "stroke-dasharray": "6 3" }));
  const cursor = svgEl("line", { y1: T2, y2: T2 + ph2, stroke: "#000", "stroke-width": 1 });
  const trainMark = svgEl("circle", { r: 6, fill: TRAIN, stroke: "#000", "stroke-width": 1.2 });
  const cvMark = svgEl("rect", { width: 11, height: 11, fill: CV, stroke: "#000", "stroke-width": 1.2 });
  right.append(cursor, trainMark, cvMark);
  const rightTitle = svgEl("text", { x: L2 + pw2 / 2, y: 16, "text-anchor": "middle", "font-size": 12, "font-weight": 600 });
  right.append(rightTitle);
  figure.append(figurePart(left, W), figurePart(right, W));
  const legend = el("div", { class: "mlr-legend" },
    `left: the weight of each feature (blue positive, red negative; dashed outline, not added yet). ` +
    `Right: ● ${cfg.train_label} cost (solid blue), ■ cross-validated mean ± one standard error (dashed orange); ` +
    `dotted orange: the lowest mean plus its standard error`);
  place(legend);

  function draw() {
    const t0 = performance.now();
    state.pending = false;
    const m = state.rounds;
    const w = fullWeights(order, weights, N, m);
    barRows.forEach(({ bar, placeholder, label, w: v }, r) => {
      const on = r < m;
      bar.setAttribute("x", on ? Math.min(WX(0), WX(v)) : WX(0));
      bar.setAttribute("width", on ? Math.abs(WX(v) - WX(0)) : 0);
      bar.setAttribute("stroke", r === m - 1 ? "#000" : "none");
      bar.setAttribute("stroke-width", 1.5);
      placeholder.setAttribute("visibility", on ? "hidden" : "visible");
      label.setAttribute("fill", on ? "#000" : "#6b6b6b");
      label.setAttribute("font-weight", r === m - 1 ? 700 : 400);
    });
    leftTitle.textContent = `round ${m}: bias w0 = ${fmt(w[0])}`;
    cursor.setAttribute("x1", RX(m)); cursor.setAttribute("x2", RX(m));
    trainMark.setAttribute("cx", RX(m)); trainMark.setAttribute("cy", CY(train[m]));
    cvMark.setAttribute("x", RX(m) - 5.5); cvMark.setAttribute("y", CY(means[m]) - 5.5);
    rightTitle.textContent = `round ${m}: training ${fmt(train[m])}, CV ${fmt(means[m])}`;
    const added = m === 0 ? "The model is the bias alone." :
      `Round ${m} adds ${names[order[m - 1]]} with weight ${fmt(weights[m])}, the others held fixed.`;
    const verdict = m === cfg.chosen && m === cfg.best ? "This round has the lowest cross-validated mean and is the one-standard-error choice." :
      m === cfg.chosen ? `The one-standard-error rule takes this round: the fewest rounds below ${fmt(threshold)}.` :
      m === cfg.best ? `The lowest cross-validated mean, but within one standard error of round ${cfg.chosen}.` :
      means[m] <= threshold ? `Within one standard error of the lowest mean (round ${cfg.best}).` :
      `Above the lowest mean plus its standard error (${fmt(threshold)}).`;
    const text = `${added} Training cost ${fmt(train[m])}; cross-validated cost ${fmt(means[m])} ± ${fmt(errors[m])}. ${verdict}`;
    readout.textContent = text;
    out.textContent = m === 0 ? "m = 0 (bias only)" : `m = ${m} of ${R}`;
    input.setAttribute("aria-valuetext", m === 0 ? "round 0, the bias alone" : `round ${m}, ${names[order[m - 1]]} added`);
    Object.assign(root.dataset, { rounds: String(m), weights: JSON.stringify(w), costs: JSON.stringify([train[m], means[m], errors[m]]) });
    finishDraw(root, state, live, text, t0);
  }
  const schedule = (event) => scheduleDraw(state, draw, event);
  input.addEventListener("input", (e) => { state.rounds = Number(input.value); schedule(e); });
  input.addEventListener("change", () => { model.set("rounds", state.rounds); model.save_changes(); });
  const fromModel = () => { state.rounds = model.get("rounds"); input.value = state.rounds; schedule(); };
  model.on("change:rounds", fromModel);
  draw();
  return () => {
    model.off("change:rounds", fromModel);
    removeKeys();
  };
}

export default { render };
