// Front end of mlrefined_lib.live.CategoryCodes (an anywidget ES module), chapter 6.
// Python sends the categories (levels), the category of each row (as its level's
// index) and the outputs y. For any numeric code given to each category this file
// fits, by least squares, the line w0 + w1 c over the code c of each row's
// category, and the one-hot model (whose fit is each category's mean, whatever the
// codes), and draws the points at their codes with both fits, and the two
// training mean squared errors. For tests: the root's `data-codes` (JSON),
// `data-line` (JSON [w0, w1], the smallest weights when every row has the same
// code, as np.linalg.lstsq), `data-line-predictions` and `data-one-hot` (JSON: the
// prediction for each category), `data-line-mse` and `data-one-hot-mse`.

const LINE = "#d7191c", ONE_HOT = "#2c7bb6";

// The one-hot fit: each category's mean, and the training mean squared error.
export function oneHotFit(index, y, K) {
  const sum = new Array(K).fill(0), count = new Array(K).fill(0);
  index.forEach((k, p) => { sum[k] += y[p]; count[k] += 1; });
  const means = sum.map((s, k) => s / count[k]);
  let sse = 0;
  index.forEach((k, p) => { const r = y[p] - means[k]; sse += r * r; });
  return { means, mse: sse / y.length };
}

// The least-squares line over the codes: weights, prediction per category, training MSE.
export function lineFit(index, y, codes) {
  const P = y.length;
  let cbar = 0, ybar = 0, cmin = Infinity, cmax = -Infinity;
  index.forEach((k, p) => {
    const c = codes[k];
    cbar += c; ybar += y[p];
    if (c < cmin) cmin = c;
    if (c > cmax) cmax = c;
  });
  cbar /= P; ybar /= P;
  let w;
  if (cmin === cmax) {  // one code for every row: the columns 1 and c are parallel; the smallest weights
    w = [ybar / (1 + cmin * cmin), cmin * ybar / (1 + cmin * cmin)];
  } else {
    let sxx = 0, sxy = 0;
    index.forEach((k, p) => { const dc = codes[k] - cbar; sxx += dc * dc; sxy += dc * (y[p] - ybar); });
    const slope = sxy / sxx;
    w = [ybar - slope * cbar, slope];
  }
  const predictions = codes.map((c) => w[0] + w[1] * c);
  let sse = 0;
  index.forEach((k, p) => { const r = predictions[k] - y[p]; sse += r * r; });
  return { w, predictions, mse: sse / P, flat: cmin === cmax };
}

// The categories from lowest to highest `values`, joined by "<" (or "=" for equal values).
function orderText(levels, values) {
  const order = levels.map((_, k) => k).sort((a, b) => values[a] - values[b] || a - b);
  return order.map((k, i) => (i === 0 ? "" : values[k] === values[order[i - 1]] ? " = " : " < ") + levels[k]).join("");
}

const fmt = (v) => (Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(2).replace("e+", "e") : Number(v.toPrecision(3)).toString());
const codeText = (v) => Number(v.toFixed(2)).toString();

function render({ model, el: root }) {
  const cfg = model.get("config");
  const { levels, index, y } = cfg;
  const K = levels.length, P = y.length;
  const [lo, hi] = cfg.code_range, [ya, yb] = cfg.ylim;
  const span = hi - lo;
  const uid = Math.random().toString(36).slice(2, 9);
  const state = { codes: model.get("codes").slice(), pending: false, inputTime: null };
  const descId = `mlr-desc-${uid}`;
  const removeKeys = liveRoot(root);
  const { controls, figure, readout, live, place } = liveLayout(root, cfg.title, descId, false);
  const oneHot = oneHotFit(index, y, K);
  const meanOrder = orderText(levels, oneHot.means);

  // ---- one slider per category
  const sliders = levels.map((name, k) => {
    const id = `mlr-code-${uid}-${k}`;
    const [input, out] = rangeControl(controls, id, `code of ${name}`, { min: lo, max: hi, step: cfg.step, value: state.codes[k] }, 12);
    input.addEventListener("input", (e) => { state.codes[k] = Number(input.value); schedule(e); });
    input.addEventListener("change", () => { model.set("codes", state.codes.slice()); model.save_changes(); });
    return { input, out };
  });

  // ---- left: the points at their category's code, the line and the category means
  const W = 380, H = 290, L = 50, R = 10, Tp = 40, B = 40, pw = W - L - R, ph = H - Tp - B;
  const xa = lo - 0.06 * span, xb = hi + 0.06 * span;
  const X = (v) => L + (v - xa) / (xb - xa) * pw, Y = (v) => Tp + (yb - v) / (yb - ya) * ph;
  const ticks = (a, b, n) => { const s = niceStep((b - a) / n), r = []; for (let v = Math.ceil(a / s) * s; v <= b + 1e-9 * s; v += s) r.push(Math.round(v / s) * s); return r; };
  const tickLabel = (v) => String(Number(v.toPrecision(6)));
  const box = { x: L, y: Tp, width: pw, height: ph, xlabelY: H - 6, ylabelX: 13 };
  const left = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, role: "img", "aria-describedby": descId });
  left.setAttribute("aria-label", "The points at the code of their category, the least-squares line over the codes and each category's mean (the one-hot fit)");
  svgAxes(left, box, ticks(xa, xb, 6).map((v) => [tickLabel(v), X(v)]), ticks(ya, yb, 5).map((v) => [tickLabel(v), Y(v)]), cfg.xlabel, cfg.ylabel);
  const layer = clippedLayer(left, `mlr-clip-${uid}`, box);
  const dots = svgEl("path", { fill: "#a6a6a6" });
  const line = svgEl("line", { x1: X(xa), x2: X(xb), stroke: LINE, "stroke-width": 2.4 });
  const meanMarks = levels.map(() => svgEl("line", { stroke: ONE_HOT, "stroke-width": 4, "stroke-linecap": "round" }));
  const lineMarks = levels.map(() => svgEl("circle", { r: 4.5, fill: "#fff", stroke: LINE, "stroke-width": 2 }));
  const names = levels.map((name) => svgEl("text", { y: Tp - 5, "text-anchor": "middle", "font-size": 12, "font-weight": 600 }, name));
  layer.append(dots, ...meanMarks, line, ...lineMarks);
  left.append(...names);
  const jitter = Array.from({ length: P }, (_, p) => ((p * 0.6180339887498949) % 1 - 0.5) * 0.06 * span);
  const leftTitle = svgEl("text", { x: L + pw / 2, y: 16, "text-anchor": "middle", "font-size": 12, "font-weight": 600 }, "the points at their category's code");
  left.append(leftTitle);

  // ---- right: the two training errors as bars, on a scale that ends past the bias alone's
  const W2 = 380, H2 = 150, L2 = 112, R2 = 14, T2 = 26, B2 = 40, pw2 = W2 - L2 - R2, ph2 = H2 - T2 - B2;
  const top = 1.12 * cfg.variance;
  const E = (v) => L2 + Math.min(v, top) / top * pw2;
  const right = svgEl("svg", { viewBox: `0 0 ${W2} ${H2}`, width: W2, role: "img", "aria-describedby": descId });
  right.setAttribute("aria-label", "The training mean squared error of the line over the codes and of the one-hot fit");
  svgAxes(right, { x: L2, y: T2, width: pw2, height: ph2, xlabelY: H2 - 6, ylabelX: -100 },
    ticks(0, top, 4).map((v) => [tickLabel(v), E(v)]), [], "training mean squared error", "");
  const rowY = (r) => T2 + ph2 * (r + 0.5) / 2, barH = ph2 * 0.34;
  const bars = [LINE, ONE_HOT].map((fill, r) => {
    right.append(svgEl("text", { x: L2 - 6, y: rowY(r) + 4, "text-anchor": "end", "font-size": 12 }, r === 0 ? "line over codes" : "one-hot"));
    const bar = svgEl("rect", { x: L2, y: rowY(r) - barH / 2, height: barH, fill });
    const value = svgEl("text", { y: rowY(r) + 4, "font-size": 11 });
    right.append(bar, value);
    return { bar, value };
  });
  right.append(svgEl("line", { x1: E(cfg.variance), x2: E(cfg.variance), y1: T2, y2: T2 + ph2, stroke: "#000", "stroke-width": 1, "stroke-dasharray": "4 3" }));
  right.append(svgEl("text", { x: E(cfg.variance) - 3, y: 16, "text-anchor": "end", "font-size": 11 }, "bias alone (variance of y)"));
  figure.append(figurePart(left, W, 0.85), figurePart(right, W2, 0.85));
  const legend = el("div", { class: "mlr-legend" },
    "Grey: each row at its category's code (spread a little sideways). Red line and circles: the least-squares " +
    "line over the codes and its prediction for each category. Blue dashes: each category's mean, the one-hot fit. " +
    "Bar chart: both training errors; the dashed line is the error of the bias alone (the mean of y for every row)");
  place(legend);

  function draw() {
    const t0 = performance.now();
    state.pending = false;
    const codes = state.codes;
    const fit = lineFit(index, y, codes);
    let path = "";
    index.forEach((k, p) => {
      const cx = X(codes[k] + jitter[p]), cy = Y(y[p]);
      path += `M${(cx - 2.2).toFixed(2)} ${cy.toFixed(2)}a2.2 2.2 0 1 0 4.4 0a2.2 2.2 0 1 0 -4.4 0`;
    });
    dots.setAttribute("d", path);
    const clampY = (v) => Y(Math.min(Math.max(v, ya - (yb - ya)), yb + (yb - ya)));
    line.setAttribute("y1", clampY(fit.w[0] + fit.w[1] * xa));
    line.setAttribute("y2", clampY(fit.w[0] + fit.w[1] * xb));
    codes.forEach((c, k) => {
      const cx = X(c), half = 0.05 * span / (xb - xa) * pw;
      meanMarks[k].setAttribute("x1", cx - half); meanMarks[k].setAttribute("x2", cx + half);
      meanMarks[k].setAttribute("y1", Y(oneHot.means[k])); meanMarks[k].setAttribute("y2", Y(oneHot.means[k]));
      lineMarks[k].setAttribute("cx", cx); lineMarks[k].setAttribute("cy", clampY(fit.predictions[k]));
      names[k].setAttribute("x", cx);
      sliders[k].out.textContent = `${levels[k]} = ${codeText(c)}`;
      sliders[k].input.setAttribute("aria-valuetext", `${levels[k]} has code ${codeText(c)}`);
    });
    [fit.mse, oneHot.mse].forEach((v, r) => {
      const { bar, value } = bars[r];
      bar.setAttribute("width", E(v) - L2);
      const inside = E(v) > L2 + pw2 - 44;
      value.setAttribute("x", inside ? E(v) - 4 : E(v) + 4);
      value.setAttribute("text-anchor", inside ? "end" : "start");
      value.setAttribute("fill", inside ? "#fff" : "#000");
      value.textContent = fmt(v);
    });
    const gap = fit.mse - oneHot.mse;
    const codesText = levels.map((name, k) => `${name} ${codeText(codes[k])}`).join(", ");
    const verdict = fit.flat ? "Every category has the same code, so the line is flat at the mean of y and its error is the variance of y." :
      gap <= 1e-9 * cfg.variance ? "The line passes through every category's mean: its error equals one-hot's." :
      `The line's error is ${fmt(gap)} above one-hot's (${fmt(fit.mse / oneHot.mse)} times it).`;
    const text = `Codes ${codesText} order the categories ${orderText(levels, codes)}; their means rise ${meanOrder}. ` +
      `Training mean squared error: line over the codes ${fmt(fit.mse)}, one-hot ${fmt(oneHot.mse)} (the same for any codes). ${verdict}`;
    readout.textContent = text;
    Object.assign(root.dataset, {
      codes: JSON.stringify(codes), line: JSON.stringify(fit.w), linePredictions: JSON.stringify(fit.predictions),
      lineMse: String(fit.mse), oneHot: JSON.stringify(oneHot.means), oneHotMse: String(oneHot.mse),
    });
    finishDraw(root, state, live, text, t0);
  }
  const schedule = (event) => scheduleDraw(state, draw, event);
  const fromModel = () => {
    state.codes = model.get("codes").slice();
    sliders.forEach(({ input }, k) => { input.value = state.codes[k]; });
    schedule();
  };
  model.on("change:codes", fromModel);
  draw();
  return () => {
    model.off("change:codes", fromModel);
    removeKeys();
  };
}

export default { render };
