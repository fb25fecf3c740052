// Front end of mlrefined_lib.live.MissingValues (an anywidget ES module), chapter 8.
// Python sends the two complete features (the one that goes missing, and the
// other, always observed), each mechanism's weight per row, the number of
// neighbours k and the other feature's scale. For any share, mechanism, seed and
// imputer this file draws which rows go missing (mulberry32 of _shared.js, as
// mlrefined_lib.live.missing_values.missing_order: successive draws, each row with
// probability proportional to its weight among the rows left), fills them (the
// observed mean or median, the least-squares line on the other feature, or the
// mean of the k nearest observed rows in the scaled other feature, as
// knn_imputer) and draws the truth in grey with the missing rows at their filled
// values in colour, and a table of the mean, the standard deviation and the
// correlation, after imputation against the truth. For tests: the root's
// `data-percent`, `data-mechanism`, `data-imputer`, `data-seed`, `data-hidden`
// (JSON: the missing rows, sorted), `data-filled` (JSON: their filled values, in
// that order), `data-stats` (JSON [mean, sd, correlation] after imputation) and
// `data-truth` (the same of the truth).

const FILL = "#e6550d";

// The order in which the rows go missing (missing_order): IEEE operations in a fixed order only.
// Drawn as far as a share needs: missingDraws(weights, seed) returns take(m), the first m rows
// of that order (the same rows, in the same order, as the whole order's first m).
function missingDraws(weights, seed) {
  const next = mulberry32(seed), P = weights.length, w = Float64Array.from(weights), left = new Int32Array(P);
  for (let p = 0; p < P; p++) left[p] = p;
  const order = [];
  let n = P;  // left[0..n) are the rows not drawn yet, in row order
  return (m) => {
    for (; order.length < Math.min(m, P) && n > 1; n--) {
      let total = 0;
      for (let j = 0; j < n; j++) total += w[left[j]];
      const threshold = next() / 4294967296 * total;
      let running = 0, i = 0;
      for (; i < n - 1; i++) {
        running += w[left[i]];
        if (running > threshold) break;
      }
      order.push(left[i]);
      left.copyWithin(i, i + 1, n);
    }
    if (order.length < m && n === 1) { order.push(left[0]); n = 0; }
    return order.slice(0, m);
  };
}

const mean = (v) => { let s = 0; for (const a of v) s += a; return s / v.length; };

// [mean, standard deviation (divided by P), correlation with `other`] of `v`.
function summary(v, other) {
  const mv = mean(v), mo = mean(other);
  let vv = 0, oo = 0, vo = 0;
  for (let p = 0; p < v.length; p++) {
    const a = v[p] - mv, b = other[p] - mo;
    vv += a * a; oo += b * b; vo += a * b;
  }
  return [mv, Math.sqrt(vv / v.length), vo / Math.sqrt(vv * oo)];
}

// The feature with the rows `hidden` (a Set) filled by `imputer` (`k` neighbours; `scale`, the
// other feature's standard deviation, as knn_imputer takes it).
function imputeFeature(feature, other, hidden, imputer, k, scale) {
  const P = feature.length, seen = [];
  for (let p = 0; p < P; p++) if (!hidden.has(p)) seen.push(p);
  const filled = feature.slice();
  if (imputer === "mean" || imputer === "median") {
    let value;
    if (imputer === "mean") value = mean(seen.map((p) => feature[p]));
    else {
      const s = seen.map((p) => feature[p]).sort((a, b) => a - b), h = s.length >> 1;
      value = s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
    }
    for (const p of hidden) filled[p] = value;
  } else if (imputer === "regression") {
    const mx = mean(seen.map((p) => other[p])), my = mean(seen.map((p) => feature[p]));
    let sxx = 0, sxy = 0;
    for (const p of seen) { const a = other[p] - mx; sxx += a * a; sxy += a * (feature[p] - my); }
    const slope = sxy / sxx, bias = my - slope * mx;
    for (const p of hidden) filled[p] = bias + slope * other[p];
  } else {
    // knn_imputer: distances sqrt(N / |C| * d^2) over the one shared coordinate (N = 2, |C| = 1),
    // on the scaled other feature; ties go to the row that comes first.
    const scaled = other.map((v) => v / scale), n = Math.min(k, seen.length);
    const bestD = new Float64Array(n), bestQ = new Int32Array(n);
    for (const p of hidden) {
      // the n nearest by (distance, row), kept sorted while the observed rows go by in row order
      let size = 0;
      for (const q of seen) {
        const d = scaled[p] - scaled[q], dist = Math.sqrt(d * d * 2 / 1);
        if (size === n && dist >= bestD[n - 1]) continue;  // a later row never wins a tie
        let i = size < n ? size++ : n - 1;
        while (i > 0 && bestD[i - 1] > dist) { bestD[i] = bestD[i - 1]; bestQ[i] = bestQ[i - 1]; i--; }
        bestD[i] = dist; bestQ[i] = q;
      }
      let s = 0;
      for (let i = 0; i < n; i++) s += feature[bestQ[i]];
      filled[p] = s / n;
    }
  }
  return filled;
}

const f4 = (v) => Number(v.toPrecision(4)).toString();

function render({ model, el: root }) {
  const cfg = model.get("config");
  const feature = cfg.feature, other = cfg.other, P = feature.length, k = cfg.k;
  const [xa, xb] = cfg.xlim, [ya, yb] = cfg.ylim, [lowPct, highPct] = cfg.percent_range;
  const uid = Math.random().toString(36).slice(2, 9);
  const state = {
    percent: model.get("percent"), mechanism: model.get("mechanism"), imputer: model.get("imputer"),
    seed: model.get("seed"), pending: false, inputTime: null,
  };
  const descId = `mlr-desc-${uid}`;
  const removeKeys = liveRoot(root);
  const { controls, figure, readout, live, place } = liveLayout(root, cfg.title, descId, false);
  const count = (pct) => Math.floor((pct * P + 50) / 100);
  const MECHANISM_TEXT = { MCAR: "MCAR", MAR: "MAR", MNAR: "MNAR" };
  const IMPUTER_TEXT = { mean: "mean", median: "median", regression: `line on ${cfg.other_name}`, knn: `${k}-NN` };
  const IMPUTER_LONG = {
    mean: "the mean", median: "the median", regression: `a line on ${cfg.other_name}`,
    knn: `the ${k} nearest neighbours in ${cfg.other_name}`,
  };

  // ---- controls: the share missing (slider), why (three choices), the imputer (four), a new draw
  const pctId = `mlr-pct-${uid}`;
  const [pctInput, pctOut] = rangeControl(controls, pctId, `share of ${cfg.feature_name} missing`,
    { min: lowPct, max: highPct, step: 1, value: state.percent }, 16);
  const choiceRow = (legend, name, options, current) => {
    const row = el("div", { role: "radiogroup", "aria-label": legend,
      style: "grid-column:1/-1;display:flex;flex-wrap:wrap;align-items:center;gap:2px 14px;margin:3px 0" });
    row.append(el("span", { style: "font-weight:600" }, `${legend}:`));
    // The choices in columns of one width: four fit on a line on a wide screen, two by two on a
    // phone (rather than three and one left alone on a line).
    const choices = el("div", { style: "flex:1 1 18em;display:grid;gap:2px 14px;" +
      "grid-template-columns:repeat(auto-fit,minmax(max(8.5em,calc(25% - 11px)),max-content))" });
    row.append(choices);
    const inputs = {};
    for (const [value, text] of options) {
      const id = `mlr-${name}-${value}-${uid}`;
      const input = el("input", { type: "radio", name: `mlr-${name}-${uid}`, id, value, "aria-describedby": descId,
        style: "margin:0" });
      input.checked = value === current;
      const label = el("label", { for: id, style: "white-space:nowrap;display:inline-flex;align-items:center;gap:5px;min-height:26px" });
      label.append(input, text);
      choices.append(label);
      inputs[value] = input;
    }
    controls.append(row);
    return [inputs, row];
  };
  const [mechanismInputs, mechanismRow] = choiceRow("why missing", "why", Object.entries(MECHANISM_TEXT), state.mechanism);
  const [imputerInputs] = choiceRow("filled with", "imputer", Object.entries(IMPUTER_TEXT), state.imputer);
  const newDraw = el("button", { type: "button", "aria-describedby": descId, style: "margin:0" }, "new draw");
  newDraw.setAttribute("aria-label", "new draw: choose the missing rows again from the next seed");
  const seedOut = el("output", { style: "font-variant-numeric:tabular-nums" });
  const seedBox = el("span", { style: "display:inline-flex;align-items:center;gap:8px" });
  seedBox.append(newDraw, seedOut);
  mechanismRow.append(seedBox);

  // ---- the scatter plot (SVG) and the table
  const W = 400, H = 300, L = 52, R = 10, Tp = 24, B = 40, pw = W - L - R, ph = H - Tp - B;
  const box = { x: L, y: Tp, width: pw, height: ph, xlabelY: H - 6, ylabelX: 13 };
  const X = (v) => L + (v - xa) / (xb - xa) * pw, Y = (v) => Tp + (yb - v) / (yb - ya) * ph;
  const ticks = (a, b, n) => { const s = niceStep((b - a) / n), r = []; for (let v = Math.ceil(a / s) * s; v <= b + 1e-9 * s; v += s) r.push(Math.round(v / s) * s); return r; };
  const tickLabel = (v) => String(Number(v.toPrecision(6)));
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, role: "img", "aria-describedby": descId });
  svg.setAttribute("aria-label", `${cfg.feature_name} against ${cfg.other_name}: every row's true values in grey, the missing rows at their filled values in colour`);
  svgAxes(svg, box, ticks(xa, xb, 5).map((v) => [tickLabel(v), X(v)]), ticks(ya, yb, 5).map((v) => [tickLabel(v), Y(v)]), cfg.other_name, cfg.feature_name);
  const layer = clippedLayer(svg, `mlr-clip-${uid}`, box);
  let truthPath = "";
  for (let p = 0; p < P; p++) {
    const cx = X(other[p]), cy = Y(feature[p]);
    truthPath += `M${(cx - 2.6).toFixed(2)} ${cy.toFixed(2)}a2.6 2.6 0 1 0 5.2 0a2.6 2.6 0 1 0 -5.2 0`;
  }
  // where each row's filled dot and its link to the truth start (only their height changes)
  const dotStart = other.map((v) => `M${(X(v) - 3.2).toFixed(2)} `);
  const linkStart = other.map((v, p) => `M${X(v).toFixed(2)} ${Y(feature[p]).toFixed(2)}V`);
  const truthDots = svgEl("path", { d: truthPath, fill: "#b4b4b4" });
  const truthMean = svgEl("line", { x1: L, x2: L + pw, stroke: "#707070", "stroke-width": 1.3, "stroke-dasharray": "6 4" });
  const fillMean = svgEl("line", { x1: L, x2: L + pw, stroke: FILL, "stroke-width": 1.5, "stroke-dasharray": "6 4" });
  const links = svgEl("path", { stroke: FILL, "stroke-opacity": 0.45, "stroke-width": 0.8, fill: "none" });
  const fillDots = svgEl("path", { fill: FILL, stroke: "#000", "stroke-width": 0.4 });
  layer.append(truthDots, truthMean, links, fillDots, fillMean);
  const plotTitle = svgEl("text", { x: L + pw / 2, y: 16, "text-anchor": "middle", "font-size": 12, "font-weight": 600 });
  svg.append(plotTitle);

  const table = el("table", { style: "border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:13px" });
  const cellStyle = "padding:3px 8px;text-align:right;border-bottom:1px solid var(--pst-color-border, #ccc)";
  const head = el("tr");
  for (const h of ["", "mean", "sd", `corr. with ${cfg.other_name}`]) head.append(el("th", { scope: "col", style: cellStyle }, h));
  const rowOf = (name, color) => {
    const tr = el("tr");
    const th = el("th", { scope: "row", style: `${cellStyle};text-align:left;color:${color}` }, name);
    const cells = [0, 1, 2].map(() => el("td", { style: cellStyle }));
    tr.append(th, ...cells);
    return [tr, th, cells];
  };
  const [truthRow, , truthCells] = rowOf("truth", "inherit");
  const [fillRow, fillName, fillCells] = rowOf("", FILL);
  table.append(el("caption", { style: "caption-side:top;text-align:left;font-weight:600;padding-bottom:4px" },
    `${cfg.feature_name} after imputation, against the truth`), head, truthRow, fillRow);
  const tableBox = el("div", { style: "overflow-x:auto" });
  tableBox.append(table);
  figure.append(figurePart(svg, W), figurePart(tableBox, 300, 1));
  const legend = el("div", { class: "mlr-legend" },
    `MCAR: every row as likely to lose its ${cfg.feature_name}; MAR: the larger the ${cfg.other_name}, the likelier; ` +
    `MNAR: the larger the ${cfg.feature_name} itself, the likelier. ${k}-NN: the mean of the ${k} nearest ` +
    `observed rows in ${cfg.other_name}. Grey: every row's true values; coloured: the missing rows at their filled ` +
    `${cfg.feature_name}, each joined to its true value; dashed: the mean of ${cfg.feature_name}, true (grey) and ` +
    "after imputation (coloured)");
  place(legend);

  const truth = summary(feature, other);
  truthCells.forEach((c, i) => { c.textContent = f4(truth[i]); });
  const orders = new Map();
  const firstMissing = (mechanism, seed, m) => {  // each (mechanism, seed) is drawn once, as far as a share needs
    const key = `${mechanism} ${seed}`;
    if (!orders.has(key)) {
      if (orders.size >= 200) orders.clear();
      orders.set(key, missingDraws(cfg.weights[mechanism], seed));
    }
    return orders.get(key)(m);
  };
  // The first switch to another choice is as quick as the next ones: draw every mechanism's
  // rows and run every imputer once now (the engine compiles them), not on the reader's input.
  for (const mechanism of Object.keys(MECHANISM_TEXT)) firstMissing(mechanism, state.seed, count(state.percent));
  const warm = new Set(firstMissing(state.mechanism, state.seed, count(state.percent)));
  for (const imputer of Object.keys(IMPUTER_TEXT)) imputeFeature(feature, other, warm, imputer, k, cfg.other_scale);

  function draw() {
    const t0 = performance.now();
    state.pending = false;
    const { percent, mechanism, imputer, seed } = state;
    const m = count(percent);
    const hiddenRows = firstMissing(mechanism, seed, m).sort((a, b) => a - b);
    const hidden = new Set(hiddenRows);
    const filled = imputeFeature(feature, other, hidden, imputer, k, cfg.other_scale);
    const stats = summary(filled, other);
    let dotPath = "", linkPath = "";
    for (const p of hiddenRows) {
      const cy = Y(filled[p]).toFixed(2);
      dotPath += dotStart[p] + cy + "a3.2 3.2 0 1 0 6.4 0a3.2 3.2 0 1 0 -6.4 0";
      linkPath += linkStart[p] + cy;
    }
    fillDots.setAttribute("d", dotPath);
    links.setAttribute("d", linkPath);
    for (const [line, v] of [[truthMean, truth[0]], [fillMean, stats[0]]]) {
      line.setAttribute("y1", Y(v).toFixed(2)); line.setAttribute("y2", Y(v).toFixed(2));
    }
    plotTitle.textContent = `${percent}% missing (${mechanism}), filled with ${IMPUTER_TEXT[imputer]}`;
    fillName.textContent = `after ${IMPUTER_TEXT[imputer]}`;
    fillCells.forEach((c, i) => { c.textContent = f4(stats[i]); });
    pctOut.textContent = `${percent}% (${m} of ${P})`;
    pctInput.setAttribute("aria-valuetext", `${percent} percent, ${m} of ${P} rows`);
    seedOut.textContent = `draw ${seed}`;
    const off = (a, b) => Math.abs(a - b) <= 0.0005 * Math.abs(b) ? "equals" : a > b ? "is above" : "is below";
    const text = `${percent}% of the ${cfg.feature_name} missing (${m} of ${P} rows, ${mechanism}, draw ${seed}), ` +
      `filled with ${IMPUTER_LONG[imputer]}. The mean ${f4(stats[0])} ${off(stats[0], truth[0])} the true ${f4(truth[0])}; ` +
      `the standard deviation is ${f4(stats[1])} against ${f4(truth[1])}, and the correlation with ${cfg.other_name} ` +
      `${f4(stats[2])} against ${f4(truth[2])}.`;
    readout.textContent = text;
    for (const [value, input] of Object.entries(mechanismInputs)) input.checked = value === mechanism;
    for (const [value, input] of Object.entries(imputerInputs)) input.checked = value === imputer;
    Object.assign(root.dataset, {
      percent: String(percent), mechanism, imputer, seed: String(seed), hidden: JSON.stringify(hiddenRows),
      filled: JSON.stringify(hiddenRows.map((p) => filled[p])), stats: JSON.stringify(stats), truth: JSON.stringify(truth),
    });
    finishDraw(root, state, live, text, t0);
  }
  const schedule = (event) => scheduleDraw(state, draw, event);
  pctInput.addEventListener("input", (e) => { state.percent = Number(pctInput.value); schedule(e); });
  pctInput.addEventListener("change", () => { model.set("percent", state.percent); model.save_changes(); });
  for (const [name, inputs] of [["mechanism", mechanismInputs], ["imputer", imputerInputs]]) {
    for (const [value, input] of Object.entries(inputs)) {
      input.addEventListener("change", (e) => {
        if (!input.checked) return;
        state[name] = value;
        schedule(e);
        model.set(name, value); model.save_changes();
      });
    }
  }
  newDraw.addEventListener("click", (e) => {
    state.seed = (state.seed + 1) >>> 0;
    schedule(e);
    model.set("seed", state.seed); model.save_changes();
  });
  const traits = ["percent", "mechanism", "imputer", "seed"];
  const fromModel = () => {
    if (traits.every((t) => model.get(t) === state[t])) return;  // the page's own change, drawn already
    Object.assign(state, { percent: model.get("percent"), mechanism: model.get("mechanism"),
      imputer: model.get("imputer"), seed: model.get("seed") });
    pctInput.value = state.percent;
    schedule();
  };
  for (const t of traits) model.on(`change:${t}`, fromModel);
  draw();
  return () => {
    for (const t of traits) model.off(`change:${t}`, fromModel);
    removeKeys();
  };
}

export default { render };
