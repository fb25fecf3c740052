// Front end of mlrefined_lib.live.PolynomialFits (an anywidget ES module), chapter 4.
// Python sends the least-squares weights of each degree (bias first, on the
// scaled input x / scale), the data and the true curve; this file evaluates
// each polynomial (powers by repeated multiplication, as
// mlrefined_lib.polynomial_features builds them) and draws it as SVG vectors,
// with the training and validation errors it computes from the same weights.
// For tests: the root's `data-degree`, `data-errors` (JSON [[train, validation]
// per degree]) and `root.__liveCurve` ({x, y}: the fitted curve drawn).

const TRAIN = "#2c7bb6", VAL = "#fdae61", FIT = "#d7191c", TRUE = "#737373";

export function polynomial(weights, scale, x) {
  const t = x / scale;
  let power = 1, value = weights[0];
  for (let k = 1; k < weights.length; k++) { power = power * t; value += weights[k] * power; }
  return value;
}

export function meanSquaredError(weights, scale, xs, ys) {
  let s = 0;
  for (let p = 0; p < xs.length; p++) { const r = polynomial(weights, scale, xs[p]) - ys[p]; s += r * r; }
  return s / xs.length;
}

function fmt(v) {
  if (!isFinite(v)) return String(v);
  const a = Math.abs(v);
  return a >= 1e4 ? v.toExponential(2).replace("e+", "e") : a >= 10 ? v.toPrecision(3) : v.toFixed(3);
}

function render({ model, el: root }) {
  const cfg = model.get("config");
  const fits = cfg.weights, degrees = fits.length, scale = cfg.scale;
  const [xa, xb] = cfg.xlim, [ya, yb] = cfg.ylim, [ea, eb] = cfg.error_limits;
  const uid = Math.random().toString(36).slice(2, 9);
  const errors = fits.map((w) => [meanSquaredError(w, scale, cfg.train[0], cfg.train[1]),
    meanSquaredError(w, scale, cfg.validation[0], cfg.validation[1])]);
  root.dataset.errors = JSON.stringify(errors);
  const state = { degree: model.get("degree"), pending: false, inputTime: null };
  const descId = `mlr-desc-${uid}`;
  const removeKeys = liveRoot(root);
  const { controls, figure, readout, live, place } = liveLayout(root, cfg.title, descId, false);

  // ---- control
  const id = `mlr-degree-${uid}`;
  const [input, out] = rangeControl(controls, id, "polynomial degree", { min: 1, max: degrees, step: 1, value: state.degree }, 9);

  // ---- the two panels (SVG), axes drawn once
  // The left panel at most 400 px wide: on a 390 px phone it shrinks by no more than 14%, and
  // neither panel shrinks below 82% of its width beside the other, so their 11 px ticks stay at
  // 9 px or more.
  const L = 48, R = 10, T = 28, B = 40, W1 = 400, W2 = 360, H = 300;
  const pw1 = W1 - L - R, pw2 = W2 - L - R, ph = H - T - B;
  const X = (x) => L + (x - xa) / (xb - xa) * pw1, Y = (y) => T + (yb - y) / (yb - ya) * ph;
  const D = (d) => L + d / (degrees + 1) * pw2;
  const E = (e) => T + (Math.log10(eb) - Math.log10(Math.min(Math.max(e, ea * 1e-3), eb * 1e3))) / (Math.log10(eb) - Math.log10(ea)) * ph;
  const left = svgEl("svg", { viewBox: `0 0 ${W1} ${H}`, width: W1, role: "img", "aria-describedby": descId });
  const right = svgEl("svg", { viewBox: `0 0 ${W2} ${H}`, width: W2, role: "img", "aria-describedby": descId });
  left.setAttribute("aria-label", "The data, the true curve and the fitted polynomial of the chosen degree");
  right.setAttribute("aria-label", "Training and validation errors against the degree, log scale, with the chosen degree marked");

  const box = (pw) => ({ x: L, y: T, width: pw, height: ph, xlabelY: H - 6, ylabelX: 12 });
  const range = (a, b, s) => { const r = []; for (let v = Math.ceil(a / s) * s; v <= b + 1e-9; v += s) r.push(Math.round(v * 1e6) / 1e6); return r; };
  svgAxes(left, box(pw1), range(xa, xb, 1).map((v) => [String(v), X(v)]), range(ya, yb, 2).map((v) => [String(v), Y(v)]), "input x", "output y");
  const decades = range(Math.log10(ea), Math.log10(eb), 1);
  svgAxes(right, box(pw2), range(0, degrees, 5).map((v) => [String(v), D(v)]), decades.map((e) => [`1e${e}`, E(10 ** e)]), "degree", "mean squared error (log scale)");
  const plotLayer = clippedLayer(left, `mlr-clip-${uid}`, box(pw1));
  plotLayer.append(svgEl("polyline", { points: svgPoints(cfg.true_curve[0].map((x, i) => [X(x), Y(cfg.true_curve[1][i])])), fill: "none", stroke: TRUE, "stroke-width": 1.5, "stroke-dasharray": "6 4" }));
  cfg.train[0].forEach((x, p) => plotLayer.append(svgEl("circle", { cx: X(x), cy: Y(cfg.train[1][p]), r: 3.2, fill: TRAIN, stroke: "#000", "stroke-width": 0.4 })));
  cfg.validation[0].forEach((x, p) => {
    const cx = X(x), cy = Y(cfg.validation[1][p]);
    plotLayer.append(svgEl("polygon", { points: `${cx},${cy - 4.2} ${cx - 3.8},${cy + 2.8} ${cx + 3.8},${cy + 2.8}`, fill: VAL, stroke: "#000", "stroke-width": 0.4 }));
  });
  const fitLine = svgEl("polyline", { fill: "none", stroke: FIT, "stroke-width": 2 });
  plotLayer.append(fitLine);
  const leftTitle = svgEl("text", { x: L + pw1 / 2, y: 16, "text-anchor": "middle", "font-size": 12, "font-weight": 600 });
  left.append(leftTitle);
  // errors against the degree
  const layer2 = svgEl("g");
  right.append(layer2);
  const errorLine = (k, color, dash) => layer2.append(svgEl("polyline", { points: svgPoints(errors.map((e, i) => [D(i + 1), E(e[k])])), fill: "none", stroke: color, "stroke-width": 1.5, ...(dash ? { "stroke-dasharray": dash } : {}) }));
  errorLine(0, TRAIN); errorLine(1, VAL, "5 3");
  layer2.append(svgEl("line", { x1: L, x2: L + pw2, y1: E(cfg.noise_level), y2: E(cfg.noise_level), stroke: TRUE, "stroke-dasharray": "2 3", "stroke-width": 1.2 }));
  errors.forEach((e, i) => {
    layer2.append(svgEl("circle", { cx: D(i + 1), cy: E(e[0]), r: 2.2, fill: TRAIN }));
    layer2.append(svgEl("circle", { cx: D(i + 1), cy: E(e[1]), r: 2.2, fill: VAL }));
  });
  const current = svgEl("line", { y1: T, y2: T + ph, stroke: "#000" });
  const trainMark = svgEl("circle", { r: 5.5, fill: TRAIN, stroke: "#000" });
  const valMark = svgEl("polygon", { fill: VAL, stroke: "#000" });
  layer2.append(current, trainMark, valMark);
  right.append(svgEl("text", { x: L + pw2 / 2, y: 16, "text-anchor": "middle", "font-size": 12 }, "errors against the degree"));
  figure.append(figurePart(left, W1, 0.82), figurePart(right, W2, 0.82));
  const legend = el("div", { class: "mlr-legend" },
    "● training points (blue)   ▲ validation points (orange)   dashed grey: true curve   red: the fitted polynomial; " +
    "right: training (solid) and validation (dashed) error, dotted: the noise level");
  place(legend);

  const curveX = [];
  for (let i = 0; i <= 400; i++) curveX.push(xa + (xb - xa) * i / 400);

  function draw() {
    const t0 = performance.now();
    state.pending = false;
    const d = state.degree, w = fits[d - 1];
    const curveY = curveX.map((x) => polynomial(w, scale, x));
    root.__liveCurve = { x: curveX, y: curveY };
    // Clamp far-off values to just outside the plot so the SVG stays small; the clip hides them.
    const span = yb - ya;
    fitLine.setAttribute("points", svgPoints(curveX.map((x, i) => [X(x), Y(Math.min(Math.max(curveY[i], ya - span), yb + span))])));
    const [tr, va] = errors[d - 1];
    leftTitle.textContent = `degree ${d}: train MSE ${fmt(tr)}, validation MSE ${fmt(va)}`;
    current.setAttribute("x1", D(d)); current.setAttribute("x2", D(d));
    trainMark.setAttribute("cx", D(d)); trainMark.setAttribute("cy", E(tr));
    const vx = D(d), vy = E(va);
    valMark.setAttribute("points", `${vx},${vy - 6.5} ${vx - 5.8},${vy + 4.3} ${vx + 5.8},${vy + 4.3}`);
    const best = errors.reduce((b, e, i) => (e[1] < errors[b][1] ? i : b), 0) + 1;
    const text = `Degree ${d}: training error ${fmt(tr)}, validation error ${fmt(va)} (noise level ${fmt(cfg.noise_level)}). ` +
      (va > 10 * tr ? "The validation error is far above the training error: the curve overfits. " :
        d === 1 ? "A line cannot bend: it underfits both sets. " : "") +
      `The lowest validation error is at degree ${best}.`;
    readout.textContent = text;
    out.textContent = `degree ${d}`;
    input.setAttribute("aria-valuetext", `degree ${d}`);
    root.dataset.degree = String(d);
    finishDraw(root, state, live, text, t0);
  }
  const schedule = (event) => scheduleDraw(state, draw, event);
  input.addEventListener("input", (e) => { state.degree = Number(input.value); schedule(e); });
  input.addEventListener("change", () => { model.set("degree", state.degree); model.save_changes(); });
  const fromModel = () => { state.degree = model.get("degree"); input.value = state.degree; schedule(); };
  model.on("change:degree", fromModel);
  draw();
  return () => {
    model.off("change:degree", fromModel);
    removeKeys();
  };
}

export default { render };
