// Front end of mlrefined_lib.live.ThresholdCurve (an anywidget ES module), chapter 13.
// Python sends each row's score for the positive class (out-of-fold probabilities)
// and its true label (1 positive, 0 negative). For any threshold θ this file calls a
// row positive when its score is at least θ and counts the confusion matrix, the
// precision, recall and F1 of each class (0 where a ratio has nothing to divide by, as
// scikit-learn's zero_division=0) and the point on the precision–recall curve. Once,
// it computes the curve (one point per distinct score, from the highest to the lowest,
// as scikit-learn's precision_recall_curve) and
// the threshold with the largest F1 of the positive class. The reader moves θ with
// the slider, or picks a point of the curve (click, drag or touch on the plot).
// For tests: the root's `data-threshold`, `data-confusion` (JSON [[TN, FP], [FN, TP]]),
// `data-classes` (JSON [[precision, recall, F1] of the negative, of the positive class]),
// `data-point` (JSON [precision, recall] of the positive class), `data-curve` (JSON
// [[threshold, precision, recall], ...]) and `data-best` (JSON [threshold, F1]).

const CURVE = "#2c7bb6", HERE = "#1a9641", MARK = "#d7191c";

export function confusionAt(scores, labels, t) {
  let tn = 0, fp = 0, fn = 0, tp = 0;
  for (let i = 0; i < scores.length; i++) {
    const called = scores[i] >= t;
    if (labels[i]) { if (called) tp++; else fn++; } else if (called) fp++; else tn++;
  }
  return [[tn, fp], [fn, tp]];
}

const ratio = (a, b) => (b > 0 ? a / b : 0);

// [[precision, recall, F1] of the negative class, of the positive class].
export function classScores([[tn, fp], [fn, tp]]) {
  return [[tn, tn + fn, tn + fp], [tp, tp + fp, tp + fn]].map(([hit, called, actual]) =>
    [ratio(hit, called), ratio(hit, actual), ratio(2 * hit, called + actual)]);
}

// The curve [[threshold, precision, recall], ...] by decreasing threshold, and the
// threshold with the largest positive F1 (the lowest such threshold on a tie).
export function precisionRecallCurve(scores, labels) {
  const order = Array.from(scores.keys()).sort((a, b) => scores[b] - scores[a]);
  const positives = labels.reduce((s, v) => s + (v ? 1 : 0), 0);
  const curve = [];
  let tp = 0, called = 0, best = [scores[order[0]], -1];
  for (let k = 0; k < order.length;) {
    const t = scores[order[k]];
    while (k < order.length && scores[order[k]] === t) { tp += labels[order[k]] ? 1 : 0; called++; k++; }
    curve.push([t, tp / called, tp / positives]);
    const f1 = 2 * tp / (called + positives);
    if (f1 >= best[1]) best = [t, f1];
  }
  return { curve, best };
}

const f3 = (v) => v.toFixed(3);

function render({ model, el: root }) {
  const cfg = model.get("config");
  const { scores, labels, positive: pos, negative: neg, score_label: scoreLabel, unit, marks } = cfg;
  const [low, high] = cfg.range;
  const uid = Math.random().toString(36).slice(2, 9);
  const state = { threshold: model.get("threshold"), pending: false, inputTime: null };
  const descId = `mlr-desc-${uid}`;
  const removeKeys = liveRoot(root);
  const { controls, figure, readout, live, place } = liveLayout(root, cfg.title, descId, false);
  const { curve, best } = precisionRecallCurve(scores, labels);

  const id = `mlr-threshold-${uid}`;
  const [input, out] = rangeControl(controls, id, `threshold θ on ${scoreLabel}`,
    { min: low, max: high, step: (high - low) / 1000, value: state.threshold }, 12);

  // ---- the precision–recall curve of the positive class
  const W = 340, H = 300, L = 48, R = 12, T = 26, B = 40, pw = W - L - R, ph = H - T - B;
  const X = (r) => L + r / 1.02 * pw, Y = (p) => T + (1.05 - p) / 1.05 * ph;
  const pr = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, role: "img", "aria-describedby": descId,
    style: "touch-action: pan-y; cursor: crosshair" });
  pr.setAttribute("aria-label", `The precision–recall curve of ${pos}, with the point of threshold θ; click or drag on it to pick a threshold`);
  const ticks = [0, 0.2, 0.4, 0.6, 0.8, 1];
  svgAxes(pr, { x: L, y: T, width: pw, height: ph, xlabelY: H - 6, ylabelX: 12 },
    ticks.map((v) => [String(v), X(v)]), ticks.map((v) => [String(v), Y(v)]), `${pos} recall`, `${pos} precision`);
  const layer = clippedLayer(pr, `mlr-pr-${uid}`, { x: L, y: T, width: pw, height: ph });
  const drawn = [[X(0), Y(1)], ...curve.map(([, p, r]) => [X(r), Y(p)])];  // from (recall 0, precision 1), as scikit-learn's curve ends
  layer.append(svgEl("polyline", { points: svgPoints(drawn), fill: "none", stroke: CURVE, "stroke-width": 2 }));
  const [bp, br] = curve.find(([t]) => t === best[0]).slice(1);
  layer.append(svgEl("circle", { cx: X(br), cy: Y(bp), r: 7, fill: "none", stroke: "#000", "stroke-width": 1.5, "stroke-dasharray": "2 2" }));
  for (const [p, r] of Object.values(marks)) {
    layer.append(svgEl("rect", { x: X(r) - 5.5, y: Y(p) - 5.5, width: 11, height: 11, fill: MARK, stroke: "#000" }));
  }
  const here = svgEl("circle", { r: 6, fill: HERE, stroke: "#000", "stroke-width": 1.2 });
  layer.append(here);
  const prTitle = svgEl("text", { x: L + pw / 2, y: 16, "text-anchor": "middle", "font-size": 12, "font-weight": 600 });
  pr.append(prTitle);

  // ---- the confusion matrix, and each class's precision, recall and F1
  const W2 = 300, H2 = 240, L2 = 84, T2 = 40, cell = 96;
  const cm = svgEl("svg", { viewBox: `0 0 ${W2} ${H2}`, width: W2, role: "img", "aria-describedby": descId });
  cm.setAttribute("aria-label", "The confusion matrix: rows the true class, columns the call");
  cm.append(svgEl("text", { x: L2 + cell, y: 14, "text-anchor": "middle", "font-size": 12, "font-weight": 600 }, "confusion matrix"));
  [neg, pos].forEach((name, j) => cm.append(svgEl("text", { x: L2 + cell * (j + 0.5), y: T2 - 8, "text-anchor": "middle", "font-size": 11 }, `called ${name}`)));
  [neg, pos].forEach((name, i) => cm.append(svgEl("text", { x: L2 - 8, y: T2 + cell * (i + 0.5) + 4, "text-anchor": "end", "font-size": 11 }, `true ${name}`)));
  const cells = [0, 1].map((i) => [0, 1].map((j) => {
    const rect = svgEl("rect", { x: L2 + cell * j, y: T2 + cell * i, width: cell, height: cell, stroke: "#000" });
    const count = svgEl("text", { x: L2 + cell * (j + 0.5), y: T2 + cell * (i + 0.5) + 2, "text-anchor": "middle", "font-size": 20, "font-weight": 600 });
    const share = svgEl("text", { x: L2 + cell * (j + 0.5), y: T2 + cell * (i + 0.5) + 22, "text-anchor": "middle", "font-size": 11 });
    cm.append(rect, count, share);
    return { rect, count, share };
  }));
  const table = el("table", { class: "mlr-scores", style: "border-collapse: collapse; font-variant-numeric: tabular-nums; margin-top: 6px" });
  const head = el("tr");
  for (const h of ["class", "precision", "recall", "F1"]) head.append(el("th", { style: "padding: 1px 8px; text-align: right" }, h));
  table.append(head);
  const rows = [neg, pos].map((name) => {
    const tr = el("tr");
    const tds = ["", "", "", ""].map(() => el("td", { style: "padding: 1px 8px; text-align: right" }));
    tds[0].textContent = name;
    tr.append(...tds);
    table.append(tr);
    return tds.slice(1);
  });
  const right = el("div");
  right.append(cm, table);
  figure.append(figurePart(pr, W), figurePart(right, W2));
  const markText = Object.keys(marks).map((name) => `■ ${name}; `).join("");
  const legend = el("div", { class: "mlr-legend" },
    `● threshold θ; ${markText}dashed ring: the largest F1 of ${pos} (${f3(best[1])} at θ = ${f3(best[0])}). ` +
    `Cells shaded by the share of their row.`);
  place(legend);
  root.dataset.curve = JSON.stringify(curve);
  root.dataset.best = JSON.stringify(best);

  function draw() {
    const t0 = performance.now();
    state.pending = false;
    const t = state.threshold;
    const confusion = confusionAt(scores, labels, t);
    const classes = classScores(confusion);
    const [[tn, fp], [fn, tp]] = confusion;
    const [p, r] = classes[1];
    here.setAttribute("cx", X(r)); here.setAttribute("cy", Y(p));
    prTitle.textContent = `θ = ${f3(t)}: ${pos} precision ${f3(p)}, recall ${f3(r)}`;
    [0, 1].forEach((i) => [0, 1].forEach((j) => {
      const { rect, count, share } = cells[i][j];
      const rowTotal = confusion[i][0] + confusion[i][1], s = ratio(confusion[i][j], rowTotal);
      rect.setAttribute("fill", `rgba(44, 123, 182, ${(0.08 + 0.6 * s).toFixed(3)})`);
      count.textContent = String(confusion[i][j]);
      share.textContent = `${(100 * s).toFixed(1)}% of row`;
    }));
    classes.forEach((row, i) => row.forEach((v, k) => { rows[i][k].textContent = f3(v); }));
    const text = `Calling ${pos} when ${scoreLabel} ≥ ${f3(t)}: ${tp} of the ${tp + fn} ${pos} ${unit} found ` +
      `and ${fp} of the ${tn + fp} ${neg} ${unit} called ${pos}, so ${pos} precision ${f3(p)}, recall ${f3(r)}, ` +
      `F1 ${f3(classes[1][2])}${tp + fp === 0 ? ` (with no ${pos} call, precision has nothing to divide by and counts as 0)` : ""}; ${neg} precision ${f3(classes[0][0])}, recall ${f3(classes[0][1])}, F1 ${f3(classes[0][2])}.` +
      (t === best[0] ? ` No threshold gives ${pos} a larger F1.` :
        ` The largest F1 of ${pos}, ${f3(best[1])}, is at the ${t > best[0] ? "lower" : "higher"} threshold ${f3(best[0])}.`);
    readout.textContent = text;
    out.textContent = `θ = ${f3(t)}`;
    input.setAttribute("aria-valuetext", `threshold ${f3(t)}: ${tp + fp} ${unit} called ${pos}`);
    Object.assign(root.dataset, { threshold: String(t), confusion: JSON.stringify(confusion),
      classes: JSON.stringify(classes), point: JSON.stringify([p, r]) });
    finishDraw(root, state, live, text, t0);
  }
  const schedule = (event) => scheduleDraw(state, draw, event);
  const commit = () => { model.set("threshold", state.threshold); model.save_changes(); };
  input.addEventListener("input", (e) => { state.threshold = Number(input.value); schedule(e); });
  input.addEventListener("change", commit);

  // A click, drag or touch on the plot picks the curve's point nearest to it (in pixels).
  let dragging = false;
  function pick(e) {
    const box = pr.getBoundingClientRect(), sx = W / box.width, sy = H / box.height;
    const px = (e.clientX - box.left) * sx, py = (e.clientY - box.top) * sy;
    let nearest = 0, d2 = Infinity;
    curve.forEach(([, p, r], k) => {
      const d = (X(r) - px) ** 2 + (Y(p) - py) ** 2;
      if (d < d2) { d2 = d; nearest = k; }
    });
    state.threshold = curve[nearest][0];
    input.value = state.threshold;
    schedule(e);
  }
  pr.addEventListener("pointerdown", (e) => { dragging = true; pr.setPointerCapture(e.pointerId); pick(e); });
  pr.addEventListener("pointermove", (e) => { if (dragging) pick(e); });
  const release = () => { if (dragging) { dragging = false; commit(); } };
  pr.addEventListener("pointerup", release);
  pr.addEventListener("pointercancel", release);

  const fromModel = () => { state.threshold = model.get("threshold"); input.value = state.threshold; schedule(); };
  model.on("change:threshold", fromModel);
  draw();
  return () => {
    model.off("change:threshold", fromModel);
    removeKeys();
  };
}

export default { render };
