// Front end of mlrefined_lib.live.WeightScale (an anywidget ES module), chapter 3.
// Python sends two one-feature problems (inputs, labels 0/1, a unit direction v);
// for any weight norm ζ (log scale) this file computes, for w = ζ v, the
// cross-entropy cost mean(logaddexp(0, m) - y m) with m = w0 + w1 x (as
// mlrefined_lib.costs.cross_entropy), the mistakes and the probability curve,
// and both costs along their rays, drawn as SVG. For tests: the root's
// `data-scale` and `data-costs` (JSON [separable, overlapping] at w = ζ v), and
// `root.__liveRays` ({scales, costs: [[...], [...]]}: the right panel's curves).

const STYLES = [["circle", "#4575b4"], ["square", "#d73027"]];
// The panels' text is 11 px in their own units: shown at no less than 82% of their width, it
// stays at 9 CSS px or more (three panels that do not fit side by side wrap instead).
const MIN_SHARE = 0.82;


export function crossEntropy(x, y, w) {
  let s = 0;
  for (let p = 0; p < x.length; p++) { const m = w[0] + x[p] * w[1]; s += logaddexp0(m) - y[p] * m; }
  return s / x.length;
}

export function mistakes(x, y, w) {
  let n = 0;
  for (let p = 0; p < x.length; p++) if ((w[0] + x[p] * w[1] > 0 ? 1 : 0) !== y[p]) n++;
  return n;
}

const sigmoid = (t) => 0.5 * (1 + Math.tanh(0.5 * t));

const sci = (v) => v.toExponential(2).replace(/e([+-])(\d)$/, "e$10$2");

function render({ model, el: root }) {
  const cfg = model.get("config");
  const problems = cfg.problems;  // [{x, y, u, xlabel, name, kind, x_range}]
  const [slo, shi] = cfg.scale_range;
  const uid = Math.random().toString(36).slice(2, 9);
  const state = { scale: model.get("scale"), pending: false, inputTime: null };
  const descId = `mlr-desc-${uid}`;
  const removeKeys = liveRoot(root);
  const { controls, figure, readout, live, place } = liveLayout(root, cfg.title, descId, false);

  const id = `mlr-scale-${uid}`;
  const lo = Math.log10(slo), hi = Math.log10(shi);
  const [input, out] = rangeControl(controls, id, "weight norm ||w|| (log scale)", { min: lo, max: hi, step: (hi - lo) / 1000, value: Math.log10(state.scale) }, 12);
  const W = 300, H = 230, L = 44, R = 14, T = 24, B = 38, pw = W - L - R, ph = H - T - B;

  const box = { x: L, y: T, width: pw, height: ph, xlabelY: H - 5, ylabelX: 11 };

  // ---- the two problems: points (drawn once) and the probability curve
  const panels = problems.map((prob, index) => {
    const [xa, xb] = prob.x_range;
    const X = (v) => L + (v - xa) / (xb - xa) * pw, Y = (v) => T + (1.35 - v) / 1.45 * ph;
    const node = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, role: "img", "aria-describedby": descId });
    node.setAttribute("aria-label", `${prob.kind} problem: the points of ${prob.name} and not ${prob.name} against ${prob.xlabel}, and the probability of the model w = ζ v`);
    const step = (xb - xa) > 4 ? 1 : 0.5, xt = [];
    for (let v = Math.ceil(xa / step) * step; v <= xb + 1e-9; v += step) xt.push([String(Math.round(v * 10) / 10), X(v)]);
    svgAxes(node, box, xt, [0, 0.5, 1].map((v) => [String(v), Y(v)]), prob.xlabel, index === 0 ? "label / probability" : "");
    const layer = clippedLayer(node, `mlr-clip-${uid}-${index}`, box);
    prob.x.forEach((v, p) => {
      const [shape, color] = STYLES[prob.y[p]], cx = X(v), cy = Y(prob.y[p] + cfg.jitter[p]);
      layer.append(shape === "circle" ? svgEl("circle", { cx, cy, r: 2.6, fill: color, stroke: "#000", "stroke-width": 0.3 })
        : svgEl("rect", { x: cx - 2.4, y: cy - 2.4, width: 4.8, height: 4.8, fill: color, stroke: "#000", "stroke-width": 0.3 }));
    });
    const curve = svgEl("polyline", { fill: "none", stroke: "#000", "stroke-width": 2 });
    layer.append(curve);
    const title = svgEl("text", { x: L + pw / 2, y: 15, "text-anchor": "middle", "font-size": 11.5 });
    node.append(title);
    figure.append(figurePart(node, W, MIN_SHARE));
    const grid = []; for (let i = 0; i <= 300; i++) grid.push(xa + (xb - xa) * i / 300);
    return { prob, curve, title, X, Y, grid };
  });

  // ---- both costs along their rays (log-log), computed once; the current s marked
  const rayScales = []; for (let i = 0; i <= 200; i++) rayScales.push(10 ** (lo + (hi - lo) * i / 200));
  const rays = problems.map((prob) => rayScales.map((s) => crossEntropy(prob.x, prob.y, [s * prob.u[0], s * prob.u[1]])));
  root.__liveRays = { scales: rayScales, costs: rays };
  const [clo, chi] = [-12 + Math.log10(3), Math.log10(30)];
  const RX = (s) => L + (Math.log10(s) - lo) / (hi - lo) * pw;
  const RY = (c) => T + (chi - Math.log10(Math.max(c, 1e-300))) / (chi - clo) * ph;
  const right = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, role: "img", "aria-describedby": descId });
  right.setAttribute("aria-label", "Both costs along their rays against the weight norm, log-log, with the chosen norm marked");
  svgAxes(right, box, [0.3, 1, 3, 10, 30, 100].filter((v) => v >= slo * 0.999 && v <= shi * 1.001).map((v) => [String(v), RX(v)]),
    [-10, -8, -6, -4, -2, 0].map((e) => [`1e${e}`, RY(10 ** e)]), "||w|| (log scale)", "cost (log scale)");
  const rlayer = clippedLayer(right, `mlr-clip-${uid}-r`, box);
  rays.forEach((costs, k) => rlayer.append(svgEl("polyline", { points: svgPoints(rayScales.map((s, i) => [RX(s), RY(costs[i])])), fill: "none", stroke: STYLES[k][1], "stroke-width": 2, ...(k ? { "stroke-dasharray": "6 4" } : {}) })));
  rlayer.append(svgEl("line", { x1: RX(cfg.minimizer_norm), x2: RX(cfg.minimizer_norm), y1: T, y2: T + ph, stroke: "#666", "stroke-dasharray": "2 3", "stroke-width": 1.2 }));
  const marks = [svgEl("circle", { r: 5, fill: STYLES[0][1], stroke: "#000" }), svgEl("rect", { width: 9, height: 9, fill: STYLES[1][1], stroke: "#000" })];
  rlayer.append(...marks);
  const rightTitle = svgEl("text", { x: L + pw / 2, y: 15, "text-anchor": "middle", "font-size": 11.5 });
  right.append(rightTitle);
  figure.append(figurePart(right, W, MIN_SHARE));

  const legend = el("div", { class: "mlr-legend" },
    `● not in the class (label 0, blue)   ■ in the class (label 1, red)   black: the probability of the model w = ζ v; ` +
    `right: the cost along each ray (solid: ${problems[0].kind}, dashed: ${problems[1].kind}), dotted: ||w*|| of the overlapping problem`);
  place(legend);

  function draw() {
    const t0 = performance.now();
    state.pending = false;
    const s = state.scale, costs = [], errors = [];
    panels.forEach(({ prob, curve, title, X, Y, grid }) => {
      const w = [s * prob.u[0], s * prob.u[1]];
      const c = crossEntropy(prob.x, prob.y, w), e = mistakes(prob.x, prob.y, w);
      costs.push(c); errors.push(e);
      curve.setAttribute("points", svgPoints(grid.map((v) => [X(v), Y(sigmoid(w[0] + w[1] * v))])));
      title.textContent = `${prob.kind}: cost ${sci(c)}, misclassified ${e}`;
    });
    marks[0].setAttribute("cx", RX(s)); marks[0].setAttribute("cy", RY(costs[0]));
    marks[1].setAttribute("x", RX(s) - 4.5); marks[1].setAttribute("y", RY(costs[1]) - 4.5);
    rightTitle.textContent = `||w|| = ${Number(s.toPrecision(3))}`;
    const text = `At ||w|| = ${Number(s.toPrecision(3))}: the ${problems[0].kind} problem (${problems[0].name}) has cost ${sci(costs[0])} ` +
      `and ${errors[0]} mistakes; the ${problems[1].kind} problem (${problems[1].name}) has cost ${sci(costs[1])} and ${errors[1]} mistakes. ` +
      (s > cfg.minimizer_norm ? "Past ||w*|| the overlapping cost rises again while the separable cost keeps falling." :
        "Both costs still fall as ||w|| grows.");
    readout.textContent = text;
    out.textContent = `||w|| = ${Number(s.toPrecision(3))}`;
    input.setAttribute("aria-valuetext", `weight norm ${Number(s.toPrecision(3))}`);
    root.dataset.scale = String(s);
    root.dataset.costs = JSON.stringify(costs);
    root.dataset.errors = JSON.stringify(errors);
    finishDraw(root, state, live, text, t0);
  }
  const schedule = (event) => scheduleDraw(state, draw, event);
  input.addEventListener("input", (e) => { state.scale = 10 ** Number(input.value); schedule(e); });
  input.addEventListener("change", () => { model.set("scale", state.scale); model.save_changes(); });
  const fromModel = () => { state.scale = model.get("scale"); input.value = Math.log10(state.scale); schedule(); };
  model.on("change:scale", fromModel);
  draw();
  return () => {
    model.off("change:scale", fromModel);
    removeKeys();
  };
}

export default { render };
