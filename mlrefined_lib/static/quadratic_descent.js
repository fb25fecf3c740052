// Front end of mlrefined_lib.live.QuadraticDescent and SoftmaxDescent (an anywidget ES module).
// Least squares (config.kind "quadratic"): Python sends the quadratic form's
// moments; this file only draws and iterates w <- w - alpha (H w + b).
// Softmax (config.kind "softmax"): Python sends the points of each stage and
// their labels; this file evaluates the cost on a grid (config.grid points, as
// coarse as one frame on a phone allows) for the contours, and runs gradient
// descent with the library's gradient. The path drawn is kept in the root
// element's `data-path` attribute (JSON), with the exact values used in
// `data-alpha` and `data-blend` (a range control rounds to its step), so tests
// can compare it with Python's. Mini-batch (config.kind "minibatch"): Python
// sends the points and the seeded permutation of each epoch; this file runs
// mini-batch gradient descent over them for any batch size, α and number of
// epochs (the path is every step's weights). A softmax widget also keeps its contour grid in
// `root.__liveGrid` ({xs, ys, values} as Float64Arrays, values[j * xs.length + i] at (xs[i], ys[j]))
// and its contour lines in `root.__liveContours` ({levels, segments}: per level, the flat list
// w0, w1, w0', w1' of each segment). A path that ends outside the plot is marked where it leaves
// it; `data-exit` holds that point ({step, at, direction, end}), or "" when the path ends inside.
// Everything is drawn at the screen's pixel density, laid out for the width it is shown at.

const PATH_STOPS = [[0x1a, 0x96, 0x41], [0xfd, 0xae, 0x61], [0xd7, 0x19, 0x1c]]; // plotting.PATH_COLORS
const PATH_SHADES = 64;  // colours along a path: steps of at most 8 in each of R, G and B
const MARGIN = { left: 56, right: 12, top: 30, bottom: 44 };
// Marching squares: for each of the 16 cases (bit 0: corner (i, j), 1: (i+1, j), 2: (i+1, j+1),
// 3: (i, j+1) at or above the level), the pairs of cell edges (0 bottom, 1 right, 2 top, 3 left) joined.
const CASES = [[], [0, 3], [0, 1], [3, 1], [1, 2], [0, 3, 1, 2], [0, 2], [3, 2],
  [3, 2], [0, 2], [0, 1, 3, 2], [1, 2], [3, 1], [0, 1], [0, 3], []];

function pathColor(s) {
  const u = Math.min(Math.max(s, 0), 1) * 2;
  const i = Math.min(Math.floor(u), 1);
  const t = u - i;
  const a = PATH_STOPS[i], b = PATH_STOPS[i + 1];
  const c = a.map((v, k) => Math.round(v + (b[k] - v) * t));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

function fmt(v, digits = 4) {
  if (!isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e5 || a < 1e-3)) return v.toExponential(2);
  return Number(v.toPrecision(digits)).toString();
}

// Moments (M, c, m) at a blend value: the formula of mlrefined_lib.live._moments_at.
export function momentsAt(moments, blend) {
  const last = moments.diagonal.length - 1;
  if (last === 0) return [moments.diagonal[0], moments.linear[0], moments.constant];
  const i = Math.min(Math.floor(blend), Math.max(last - 1, 0));
  const t = blend - i;
  const A = moments.diagonal[i], B = moments.diagonal[i + 1], S = moments.cross[i];
  const M = [[0, 0], [0, 0]];
  for (let r = 0; r < 2; r++) for (let q = 0; q < 2; q++)
    M[r][q] = (1 - t) * (1 - t) * A[r][q] + 2 * t * (1 - t) * S[r][q] + t * t * B[r][q];
  const c0 = moments.linear[i], c1 = moments.linear[i + 1];
  const c = [(1 - t) * c0[0] + t * c1[0], (1 - t) * c0[1] + t * c1[1]];
  return [M, c, moments.constant];
}

// The quadratic g(w) = 1/2 w'Hw + b'w + k with H = 2M, b = -2c, k = m.
export function quadratic(moments, blend) {
  const [M, c, m] = momentsAt(moments, blend);
  return {
    H: [[2 * M[0][0], 2 * M[0][1]], [2 * M[1][0], 2 * M[1][1]]],
    b: [-2 * c[0], -2 * c[1]],
    k: m,
  };
}

export function cost(q, w) {
  const Hw0 = q.H[0][0] * w[0] + q.H[0][1] * w[1];
  const Hw1 = q.H[1][0] * w[0] + q.H[1][1] * w[1];
  return 0.5 * (w[0] * Hw0 + w[1] * Hw1) + q.b[0] * w[0] + q.b[1] * w[1] + q.k;
}

// Gradient descent, the same arithmetic as QuadraticDescent.path in Python.
export function descend(q, alpha, steps, start) {
  let w = [start[0], start[1]];
  const out = [w];
  for (let k = 0; k < steps; k++) {
    const g0 = q.H[0][0] * w[0] + q.H[0][1] * w[1] + q.b[0];
    const g1 = q.H[1][0] * w[0] + q.H[1][1] * w[1] + q.b[1];
    const next = [w[0] - alpha * g0, w[1] - alpha * g1];
    if (!isFinite(next[0]) || !isFinite(next[1]) || Math.max(Math.abs(next[0]), Math.abs(next[1])) > 1e150) break;
    w = next;
    out.push(w);
  }
  return out;
}

// ---- the two-class softmax cost of blended inputs (mlrefined_lib.costs.softmax)
// The inputs at a blend value in [0, stages - 1]: (1 - t) x_i + t x_{i+1}, point by point.
export function blendInputs(stages, blend) {
  const last = stages.length - 1;
  if (last === 0) return stages[0].slice();
  const i = Math.min(Math.floor(blend), last - 1);
  const t = blend - i, a = stages[i], b = stages[i + 1];
  return a.map((v, p) => (1 - t) * v + t * b[p]);
}


// mean_p log(1 + exp(-y_p (w0 + w1 x_p))), as numpy's logaddexp(0, .).
export function softmaxCost(x, y, w) {
  let s = 0;
  for (let p = 0; p < x.length; p++) s += logaddexp0(-y[p] * (w[0] + x[p] * w[1]));
  return s / x.length;
}

// -(1/P) sum_p y_p sigma(-margin_p) (1, x_p), with sigma(t) = (1 + tanh(t / 2)) / 2 as in the library.
export function softmaxGradient(x, y, w) {
  let g0 = 0, g1 = 0;
  for (let p = 0; p < x.length; p++) {
    const margin = y[p] * (w[0] + x[p] * w[1]);
    const r = y[p] * (0.5 * (1 + Math.tanh(0.5 * -margin)));
    g0 += r; g1 += x[p] * r;
  }
  return [-g0 / x.length, -g1 / x.length];
}

// Gradient descent as mlrefined_lib.gradient_descent: stops before a non-finite cost or gradient.
export function descendSoftmax(x, y, alpha, steps, start) {
  let w = [start[0], start[1]];
  let d = softmaxGradient(x, y, w);
  const out = [w];
  for (let k = 0; k < steps; k++) {
    const next = [w[0] - alpha * d[0], w[1] - alpha * d[1]];
    if (!isFinite(softmaxCost(x, y, next))) break;
    const dn = softmaxGradient(x, y, next);
    if (!isFinite(dn[0]) || !isFinite(dn[1])) break;
    w = next; d = dn;
    out.push(w);
  }
  return out;
}

export function misclassified(x, y, w) {
  let n = 0;
  for (let p = 0; p < x.length; p++) if ((w[0] + x[p] * w[1] > 0 ? 1 : -1) !== y[p]) n++;
  return n;
}

// The cost on a grid of nx by ny points spanning the axes (corners included).
export function softmaxGrid(x, y, xrange, yrange, nx, ny) {
  const xs = new Float64Array(nx), ys = new Float64Array(ny), values = new Float64Array(nx * ny);
  for (let i = 0; i < nx; i++) xs[i] = xrange[0] + (xrange[1] - xrange[0]) * i / (nx - 1);
  for (let j = 0; j < ny; j++) ys[j] = yrange[0] + (yrange[1] - yrange[0]) * j / (ny - 1);
  const w = [0, 0];
  for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
    w[0] = xs[i]; w[1] = ys[j];
    values[j * nx + i] = softmaxCost(x, y, w);
  }
  return { xs, ys, values };
}

// Mini-batch gradient descent on least squares as mlrefined_lib.minibatch_gradient_descent
// (record_steps=True): epoch e visits the points in the order permutations[e], one step
// w <- w - alpha (2/n) sum_batch (w0 + w1 x_p - y_p)(1, x_p) per batch of n points; an
// epoch whose weights or cost stop being finite is dropped, and the run stops there.
export function descendMinibatch(points, permutations, alpha, epochs, batch, start, q) {
  const x = points.x, y = points.y, P = x.length;
  let w = [start[0], start[1]];
  const out = [w];
  for (let e = 0; e < epochs; e++) {
    const order = permutations[e], steps = [];
    let v = w, ok = true;
    for (let s = 0; s < P; s += batch) {
      const end = Math.min(s + batch, P), n = end - s;
      let g0 = 0, g1 = 0;
      for (let i = s; i < end; i++) {
        const p = order[i], r = v[0] + x[p] * v[1] - y[p];
        g0 += r; g1 += x[p] * r;
      }
      v = [v[0] - alpha * (2 / n * g0), v[1] - alpha * (2 / n * g1)];
      if (!isFinite(v[0]) || !isFinite(v[1])) { ok = false; break; }
      steps.push(v);
    }
    if (!ok || !isFinite(cost(q, v))) break;
    w = v;
    for (const step of steps) out.push(step);
  }
  return out;
}

// What the drawing needs at one blend value, for each kind of cost.
function problemAt(cfg, blend, batch) {
  if (cfg.kind === "minibatch") {
    const q = quadratic(cfg.moments, 0);
    return {
      cost: (w) => cost(q, w), optimum: optimum(q), quadratic: q,
      descend: (a, k, s) => descendMinibatch(cfg.points, cfg.permutations, a, k, batch, s, q),
    };
  }
  if ((cfg.kind || "quadratic") === "quadratic") {
    const q = quadratic(cfg.moments, blend);
    return {
      cost: (w) => cost(q, w), descend: (a, k, s) => descend(q, a, k, s), optimum: optimum(q),
      quadratic: q,
    };
  }
  const x = blendInputs(cfg.stages, blend), y = cfg.labels;
  return {
    cost: (w) => softmaxCost(x, y, w), descend: (a, k, s) => descendSoftmax(x, y, a, k, s), optimum: null,
    errors: (w) => misclassified(x, y, w), x, y,
  };
}

function optimum(q) {
  const [[a, b], [c, d]] = q.H;
  const det = a * d - b * c;
  return [(-d * q.b[0] + b * q.b[1]) / det, (c * q.b[0] - a * q.b[1]) / det];
}

function render({ model, el: root }) {
  const cfg = model.get("config");
  const [x0, x1] = cfg.xrange, [y0, y1] = cfg.yrange;
  const levels = cfg.levels, colors = cfg.colors.map(hexToRgb);
  const kind = cfg.kind || "quadratic";
  const stages = kind === "softmax" ? cfg.stages.length : cfg.moments.diagonal.length;
  const numPoints = kind === "minibatch" ? cfg.points.x.length : 0;
  const stepsPerEpoch = (b) => Math.ceil(numPoints / b);
  const uid = Math.random().toString(36).slice(2, 9);

  // Plot size: laid out for the width the plot is shown at (468 CSS px where there is room:
  // a 400 px plot area), the height from the aspect ratio of the axes; see layout().
  const WIDE = 468, HISTORY_WIDE = 260;
  let plotW = 0, plotH = 0, width = 0, height = 0, historyW = HISTORY_WIDE, historyH = 0;

  const state = {
    alpha: model.get("alpha"), steps: model.get("steps"), blend: model.get("blend"),
    start: model.get("start").slice(), path: [], pending: false, inputTime: null, dragging: false,
    batch: kind === "minibatch" ? model.get("batch_size") : null,
  };
  // Steps the path would take without divergence (for a mini-batch run: epochs times steps per epoch).
  const plannedSteps = () => (kind === "minibatch" ? state.steps * stepsPerEpoch(state.batch) : state.steps);
  const removeKeys = liveRoot(root, windowKey);
  const descId = `mlr-desc-${uid}`;
  const { controls, figure, readout, live, reset, place } = liveLayout(root, cfg.title, descId, true);

  // ---- controls
  const control = (name, label, attrs, readoutCh) => rangeControl(controls, `mlr-${name}-${uid}`, label, attrs, readoutCh);
  const lo = Math.log10(cfg.alpha_range[0]), hi = Math.log10(cfg.alpha_range[1]);
  const [alphaInput, alphaOut] = control("alpha", "learning rate α (log scale)", { min: lo, max: hi, step: (hi - lo) / 1000, value: Math.log10(state.alpha) }, 12);
  const [stepsInput, stepsOut] = control("steps", kind === "minibatch" ? "epochs" : "steps", { min: 0, max: cfg.max_steps, step: 1, value: state.steps }, 12);
  let blendInput = null, blendOut = null, batchInput = null, batchOut = null;
  if (kind === "minibatch") {
    [batchInput, batchOut] = control("batch", "batch size b", { min: 1, max: numPoints, step: 1, value: state.batch }, 12);
  }
  if (stages > 1) {
    const longest = Math.max(0, ...cfg.stage_names.map((n) => n.length));
    [blendInput, blendOut] = control("blend", cfg.blend_label, { min: 0, max: stages - 1, step: 0.001, value: state.blend }, 9 + longest);
  }

  // ---- plot: a canvas for the contours and the path, focusable for the start point
  const plotBox = figurePart(el("div", { style: "position:relative" }), WIDE);
  const canvas = el("canvas", {
    tabindex: "0", role: "img",
    "aria-roledescription": "interactive contour plot",
    style: "touch-action:none;cursor:crosshair",
  });
  canvas.setAttribute("aria-describedby", descId);
  canvas.setAttribute("aria-label", `${cfg.title}. Contour plot of the cost over ${cfg.xlabel} and ${cfg.ylabel}. ` +
    "Click or drag to move the starting point, or use the arrow keys (Shift for larger moves).");
  plotBox.append(canvas);
  const history = figurePart(el("canvas", { role: "img", "aria-label": "cost after each step, log scale" }), HISTORY_WIDE);
  figure.append(plotBox, history);
  const legend = el("div", { class: "mlr-legend" },
    "● start (green)   ✕ end (red)   " + (kind === "quadratic" ? "★ minimum   " : "") +
    "path: green (first step) to red (last step); darker blue = higher cost" + (kind === "quadratic" ? "" : " (levels on a log scale)"));
  place(legend);

  // ---- drawing
  let ctx = null, hctx = null;
  const sx = (w) => MARGIN.left + (w - x0) / (x1 - x0) * plotW;
  const sy = (w) => MARGIN.top + (y1 - w) / (y1 - y0) * plotH;
  const wx = (px) => x0 + (px - MARGIN.left) / plotW * (x1 - x0);
  const wy = (py) => y1 - (py - MARGIN.top) / plotH * (y1 - y0);
  let background = null, backgroundBlend = null, backgroundExact = false;

  let lastGrid = null;
  // Band of each pixel: exact per pixel for a quadratic; for the softmax cost the
  // log of the grid's values, interpolated bilinearly between grid points.
  function bands(problem, bw, bh, exact) {
    const band = new Int16Array(bw * bh);
    const n = levels.length;
    const bandOf = (v) => {  // binary search: m with levels[m] <= v < levels[m + 1], -1 below them all
      if (!(v >= levels[0])) return -1;
      let lo_ = 0, hi_ = n;
      while (hi_ - lo_ > 1) { const mid = (lo_ + hi_) >> 1; if (v < levels[mid]) hi_ = mid; else lo_ = mid; }
      return lo_;
    };
    if (problem.quadratic) {
      // The quadratic along a row (w1 fixed) is a w0^2 + b w0 + c: cost(q, [w0, w1]) regrouped,
      // so that each pixel takes two products instead of a call and a new array.
      const q = problem.quadratic, a = 0.5 * q.H[0][0];
      const w0s = new Float64Array(bw);
      for (let i = 0; i < bw; i++) w0s[i] = x0 + (i + 0.5) / bw * (x1 - x0);
      for (let j = 0; j < bh; j++) {
        const w1 = y1 - (j + 0.5) / bh * (y1 - y0);
        const b = 0.5 * (q.H[0][1] + q.H[1][0]) * w1 + q.b[0], c = 0.5 * q.H[1][1] * w1 * w1 + q.b[1] * w1 + q.k;
        const row = j * bw;
        for (let i = 0; i < bw; i++) { const w0 = w0s[i]; band[row + i] = bandOf((a * w0 + b) * w0 + c); }
      }
      return band;
    }
    const [nx, ny] = exact ? cfg.grid : cfg.grid.map((n) => Math.max(8, Math.ceil(n / 2)));
    const grid = softmaxGrid(problem.x, problem.y, cfg.xrange, cfg.yrange, nx, ny);
    if (exact) root.__liveGrid = grid;
    const logs = new Float64Array(nx * ny);
    for (let k = 0; k < logs.length; k++) logs[k] = Math.log(grid.values[k]);
    const logLevels = levels.map(Math.log);
    lastGrid = { grid, logs, logLevels };
    const logBand = (v) => {  // binary search: the band of v among the log levels
      if (!(v >= logLevels[0])) return -1;
      let lo_ = 0, hi_ = n;
      while (hi_ - lo_ > 1) { const mid = (lo_ + hi_) >> 1; if (v < logLevels[mid]) hi_ = mid; else lo_ = mid; }
      return lo_;
    };
    const col0 = new Int32Array(bw), colT = new Float64Array(bw);
    for (let i = 0; i < bw; i++) {
      const gx = (i + 0.5) / bw * (nx - 1);
      col0[i] = Math.min(Math.floor(gx), nx - 2); colT[i] = gx - col0[i];
    }
    for (let j = 0; j < bh; j++) {
      const gy = (1 - (j + 0.5) / bh) * (ny - 1), j0 = Math.min(Math.floor(gy), ny - 2), ty = gy - j0;
      const r0 = j0 * nx, r1 = r0 + nx, row = j * bw;
      for (let i = 0; i < bw; i++) {
        const i0 = col0[i], tx = colT[i];
        const top = logs[r0 + i0] + tx * (logs[r0 + i0 + 1] - logs[r0 + i0]);
        const bottom = logs[r1 + i0] + tx * (logs[r1 + i0 + 1] - logs[r1 + i0]);
        band[row + i] = logBand(top + ty * (bottom - top));
      }
    }
    return band;
  }

  // The contour lines of the softmax cost: marching squares on the grid of log costs, each
  // level a list of segments [w0, w1, w0', w1'] (weights), drawn as anti-aliased vector lines.
  function contourSegments(grid, logs, logLevels) {
    const { xs, ys } = grid, nx = xs.length, ny = ys.length, n = logLevels.length;
    const ex = new Float64Array(4), ey = new Float64Array(4);
    const out = logLevels.map(() => []);
    // How many levels lie at or below each grid value: a level crosses a cell only between its
    // corners' counts, so most cells are skipped at once.
    const count = new Int16Array(nx * ny);
    for (let k = 0; k < count.length; k++) {
      let c = 0;
      while (c < n && logLevels[c] <= logs[k]) c++;
      count[k] = c;
    }
    for (let j = 0; j < ny - 1; j++) for (let i = 0; i < nx - 1; i++) {
      const ia = j * nx + i, ib = ia + 1, id = ia + nx, ic = id + 1;
      const lo = Math.min(count[ia], count[ib], count[ic], count[id]), hi = Math.max(count[ia], count[ib], count[ic], count[id]);
      if (lo === hi) continue;
      const a = logs[ia], b = logs[ib], c = logs[ic], d = logs[id];
      for (let m = lo; m < hi; m++) {
        const L = logLevels[m], seg = out[m];
        const code = (a >= L) | ((b >= L) << 1) | ((c >= L) << 2) | ((d >= L) << 3);
        // the crossings on the four edges: bottom (a-b), right (b-c), top (d-c), left (a-d)
        ex[0] = xs[i] + (L - a) / (b - a) * (xs[i + 1] - xs[i]); ey[0] = ys[j];
        ex[1] = xs[i + 1]; ey[1] = ys[j] + (L - b) / (c - b) * (ys[j + 1] - ys[j]);
        ex[2] = xs[i] + (L - d) / (c - d) * (xs[i + 1] - xs[i]); ey[2] = ys[j + 1];
        ex[3] = xs[i]; ey[3] = ys[j] + (L - a) / (d - a) * (ys[j + 1] - ys[j]);
        const pairs = CASES[code];
        for (let k = 0; k < pairs.length; k += 2) seg.push(ex[pairs[k]], ey[pairs[k]], ex[pairs[k + 1]], ey[pairs[k + 1]]);
      }
    }
    return out;
  }

  let off = null;
  const small = document.createElement("canvas");
  function drawBackground(problem, exact) {
    off = off || document.createElement("canvas");
    const octx = sizeCanvas(off, width, height), ratio = off.width / width;
    octx.fillStyle = "#fff";
    octx.fillRect(0, 0, width, height);
    // The quadratic's bands are computed pixel by pixel at the screen's density (up to 2x), or at
    // half the CSS resolution while the blend is dragged; the softmax cost's are interpolated from
    // its grid (half as fine each way while dragged) at half the CSS resolution and scaled up
    // smoothly, with its contour lines drawn as vectors on top.
    const density = problem.quadratic && exact ? Math.min(ratio, 2) : 0.5;
    const bw = Math.ceil(plotW * density), bh = Math.ceil(plotH * density);
    const img = octx.createImageData(bw, bh);
    const band = bands(problem, bw, bh, exact);
    // Pixels as little-endian RGBA words; for the quadratic, contour lines: black at 35% opacity
    // where the band changes.
    const pix = new Uint32Array(img.data.buffer);
    const pack = (rgb, f) => ((255 << 24) | (Math.round(rgb[2] * f) << 16) | (Math.round(rgb[1] * f) << 8) | Math.round(rgb[0] * f)) >>> 0;
    const fills = [[255, 255, 255]].concat(colors);
    const plain = fills.map((c) => pack(c, 1)), edged = problem.quadratic ? fills.map((c) => pack(c, 0.65)) : plain;
    const last = colors.length - 1;
    for (let j = 0; j < bh; j++) for (let i = 0; i < bw; i++) {
      const p = j * bw + i, k = band[p];
      const edge = (i > 0 && band[p - 1] !== k) || (j > 0 && band[p - bw] !== k);
      const c = k < 0 ? 0 : Math.min(k, last) + 1;
      pix[p] = edge ? edged[c] : plain[c];
    }
    if (small.width !== bw || small.height !== bh) { small.width = bw; small.height = bh; }
    small.getContext("2d").putImageData(img, 0, 0);
    octx.save();
    octx.beginPath(); octx.rect(MARGIN.left, MARGIN.top, plotW, plotH); octx.clip();
    octx.imageSmoothingEnabled = density !== ratio;
    octx.imageSmoothingQuality = "low";  // bilinear: the band fills only (the lines are vectors), and the cheapest
    octx.drawImage(small, 0, 0, bw, bh, MARGIN.left, MARGIN.top, bw / density, bh / density);
    if (!problem.quadratic) {
      const { grid, logs, logLevels } = lastGrid;
      const segments = contourSegments(grid, logs, logLevels);
      if (exact) root.__liveContours = { levels: levels.slice(), segments };
      octx.strokeStyle = "rgba(0,0,0,0.45)"; octx.lineWidth = 0.8;
      octx.beginPath();
      for (const seg of segments) for (let k = 0; k < seg.length; k += 4) {
        octx.moveTo(sx(seg[k]), sy(seg[k + 1])); octx.lineTo(sx(seg[k + 2]), sy(seg[k + 3]));
      }
      octx.stroke();
    }
    octx.restore();
    // axes, ticks, labels
    octx.strokeStyle = "#000"; octx.lineWidth = 1;
    octx.strokeRect(MARGIN.left + 0.5, MARGIN.top + 0.5, plotW - 1, plotH - 1);
    octx.fillStyle = "#000"; octx.font = "11px system-ui, sans-serif";
    for (const [lo_, hi_, horizontal] of [[x0, x1, true], [y0, y1, false]]) {
      const stepT = niceStep((hi_ - lo_) / 6);
      for (let t = Math.ceil(lo_ / stepT) * stepT; t <= hi_ + 1e-9; t += stepT) {
        const label = fmt(Math.abs(t) < 1e-12 ? 0 : t, 3);
        if (horizontal) {
          const px = sx(t);
          octx.fillRect(px, MARGIN.top + plotH, 1, 4);
          octx.textAlign = "center"; octx.fillText(label, px, MARGIN.top + plotH + 15);
        } else {
          const py = sy(t);
          octx.fillRect(MARGIN.left - 4, py, 4, 1);
          octx.textAlign = "right"; octx.fillText(label, MARGIN.left - 6, py + 4);
        }
      }
    }
    octx.font = "12px system-ui, sans-serif"; octx.textAlign = "center";
    octx.fillText(cfg.xlabel, MARGIN.left + plotW / 2, height - 8);
    octx.save(); octx.translate(13, MARGIN.top + plotH / 2); octx.rotate(-Math.PI / 2);
    octx.fillText(cfg.ylabel, 0, 0); octx.restore();
    return off;
  }

  // The path's segments and its dots, coloured green to red along the path. Segments (and dots) of
  // the same colour are drawn as one canvas path: a colour takes one of PATH_SHADES values, so a long
  // mini-batch path costs a few dozen strokes instead of one per step.
  function drawPath(c, points) {
    const K = points.length - 1;
    if (K < 1) return;
    const shade = (s) => Math.round(Math.min(Math.max(s, 0), 1) * (PATH_SHADES - 1));
    const segments = new Map(), dots = new Map();
    for (let k = 0; k < K; k++) {
      const b = shade(K > 1 ? k / (K - 1) : 0);
      if (!segments.has(b)) segments.set(b, []);
      segments.get(b).push(k);
      if (k >= 1) {
        const d = shade(K > 1 ? (k - 1) / (K - 1) : 0);
        if (!dots.has(d)) dots.set(d, []);
        dots.get(d).push(k);
      }
    }
    c.lineWidth = 1.8;
    for (const [b, ks] of segments) {
      c.strokeStyle = pathColor(b / (PATH_SHADES - 1));
      c.beginPath();
      for (const k of ks) { c.moveTo(points[k][0], points[k][1]); c.lineTo(points[k + 1][0], points[k + 1][1]); }
      c.stroke();
    }
    c.strokeStyle = "#000"; c.lineWidth = 0.4;
    for (const [d, ks] of dots) {
      c.fillStyle = pathColor(d / (PATH_SHADES - 1));
      c.beginPath();
      for (const k of ks) { c.moveTo(points[k][0] + 2.6, points[k][1]); c.arc(points[k][0], points[k][1], 2.6, 0, 2 * Math.PI); }
      c.fill(); c.stroke();
    }
  }

  function marker(c, x, y, kind, fill) {
    c.beginPath();
    c.fillStyle = fill; c.strokeStyle = "#000"; c.lineWidth = 1;
    if (kind === "circle") { c.arc(x, y, 5.5, 0, 2 * Math.PI); c.fill(); c.stroke(); }
    else if (kind === "x") {
      c.save(); c.translate(x, y); c.rotate(Math.PI / 4);
      c.rect(-7, -2.2, 14, 4.4); c.rect(-2.2, -7, 4.4, 14); c.fill(); c.stroke(); c.restore();
    } else if (kind === "star") {
      for (let i = 0; i < 10; i++) {
        const r = i % 2 ? 3.6 : 8.5, a = -Math.PI / 2 + i * Math.PI / 5;
        c[i ? "lineTo" : "moveTo"](x + r * Math.cos(a), y + r * Math.sin(a));
      }
      c.closePath(); c.fill(); c.stroke();
    } else { c.arc(x, y, 2.6, 0, 2 * Math.PI); c.fill(); c.lineWidth = 0.4; c.stroke(); }
  }

  // What the costs along the path say. Full-batch gradient descent: a cost that rises means α
  // is too large. Mini-batch steps each follow the gradient of one batch, so the full cost may
  // rise at some steps while it falls over the run: that is their noise, not a sign of a bad α.
  function trend(costs, rises, diverged) {
    const K = costs.length - 1, first = costs[0], last = costs[K];
    if (diverged) return "α is too large: the cost grew without bound.";
    if (rises === 0) return `The cost fell at every step, from ${fmt(first)} to ${fmt(last)}.`;
    const noisy = kind === "minibatch" && state.batch < numPoints;
    if (!noisy) return `The cost rose at ${rises} of ${K} steps: α is too large.`;
    if (last < first) {
      return `The cost rose at ${rises} of ${K} steps, as it does when each step follows one batch ` +
        `of ${state.batch} point${state.batch === 1 ? "" : "s"} (the noise of stochastic steps), ` +
        `and fell over the run, from ${fmt(first)} to ${fmt(last)}.`;
    }
    return `The cost rose at ${rises} of ${K} steps and ended higher than it started (${fmt(first)} to ${fmt(last)}): ` +
      "α is too large for steps this noisy.";
  }

  // Where the path leaves the plot for good: the point on the frame where its last segment from
  // inside crosses out, the direction it goes, and where it ends; null if it ends inside (or never
  // was inside).
  function exitOf(path) {
    const inside = (w) => w[0] >= x0 && w[0] <= x1 && w[1] >= y0 && w[1] <= y1;
    const K = path.length - 1;
    if (inside(path[K])) return null;
    let i = K - 1;
    while (i >= 0 && !inside(path[i])) i--;
    if (i < 0) return null;
    const a = path[i], b = path[i + 1], d = [b[0] - a[0], b[1] - a[1]];
    let t = 1;  // the first crossing of the frame along a -> b
    if (d[0] > 0) t = Math.min(t, (x1 - a[0]) / d[0]); else if (d[0] < 0) t = Math.min(t, (x0 - a[0]) / d[0]);
    if (d[1] > 0) t = Math.min(t, (y1 - a[1]) / d[1]); else if (d[1] < 0) t = Math.min(t, (y0 - a[1]) / d[1]);
    return { step: i + 1, at: [a[0] + t * d[0], a[1] + t * d[1]], direction: d, end: path[K] };
  }

  // An arrowhead on the frame where the path leaves it, and a label inside the plot that says
  // where the path ends.
  function drawExit(exit) {
    const px = sx(exit.at[0]), py = sy(exit.at[1]);
    const dx = exit.direction[0] / (x1 - x0) * plotW, dy = -exit.direction[1] / (y1 - y0) * plotH;
    arrowhead(ctx, px, py, dx, dy, 13, pathColor(1));
    const label = `ends off the plot at (${fmt(exit.end[0], 3)}, ${fmt(exit.end[1], 3)})`;
    ctx.font = "11px system-ui, sans-serif";
    const w = ctx.measureText(label).width, n = Math.hypot(dx, dy) || 1;
    // the label stands back from the arrow, into the plot, kept inside the frame
    let lx = px - dx / n * 22 - w / 2, ly = py - dy / n * 22 + 4;
    lx = Math.min(Math.max(lx, MARGIN.left + 4), MARGIN.left + plotW - 4 - w);
    ly = Math.min(Math.max(ly, MARGIN.top + 14), MARGIN.top + plotH - 6);
    ctx.fillStyle = "rgba(255,255,255,0.85)"; ctx.fillRect(lx - 3, ly - 11, w + 6, 15);
    ctx.fillStyle = "#000"; ctx.textAlign = "left"; ctx.fillText(label, lx, ly);
  }

  function draw() {
    const t0 = performance.now();
    state.pending = false;
    const problem = problemAt(cfg, state.blend, state.batch);
    // While the blend slider is dragged, the cost's picture is drawn coarser (half the grid or
    // the pixels), the path and readouts exactly; on release it is drawn exactly again.
    const exact = !state.dragging;
    if (background === null || backgroundBlend !== state.blend || (exact && !backgroundExact)) {
      background = drawBackground(problem, exact);
      backgroundBlend = state.blend;
      backgroundExact = exact;
    }
    const path = problem.descend(state.alpha, state.steps, state.start);
    state.path = path;
    ctx.drawImage(background, 0, 0, width, height);
    ctx.save();
    ctx.beginPath(); ctx.rect(MARGIN.left, MARGIN.top, plotW, plotH); ctx.clip();
    const wstar = problem.optimum;
    if (wstar) marker(ctx, sx(wstar[0]), sy(wstar[1]), "star", "#fff");
    const K = path.length - 1;
    drawPath(ctx, path.map((w) => [sx(w[0]), sy(w[1])]));
    marker(ctx, sx(path[0][0]), sy(path[0][1]), "circle", pathColor(0));
    if (K > 0) marker(ctx, sx(path[K][0]), sy(path[K][1]), "x", pathColor(1));
    ctx.restore();
    const exit = exitOf(path);
    if (exit) drawExit(exit);
    ctx.fillStyle = "#000"; ctx.font = "600 12px system-ui, sans-serif"; ctx.textAlign = "center";
    ctx.fillText(`α = ${fmt(state.alpha)}, ` + (kind === "minibatch" ? `${state.steps} epochs, b = ${state.batch}` : `${state.steps} steps`) + (stages > 1 ? `, ${cfg.blend_label.split(" (")[0]} = ${state.blend.toFixed(3)}` : ""), MARGIN.left + plotW / 2, 18);
    const costs = path.map(problem.cost);
    drawHistory(costs, wstar ? problem.cost(wstar) : null);

    const final = path[K];
    const diverged = K < plannedSteps();
    const rises = costs.reduce((n, v, i) => n + (i > 0 && v > costs[i - 1] + 1e-12), 0);
    let summary;
    if (wstar) {
      const dist = Math.hypot(final[0] - wstar[0], final[1] - wstar[1]);
      summary = `cost ${fmt(costs[K])} (minimum ${fmt(problem.cost(wstar))}), distance to the optimum ${fmt(dist, 3)}`;
    } else {
      summary = `cost ${fmt(costs[K])} (started at ${fmt(costs[0])}), ${problem.errors(final)} of ${problem.x.length} points misclassified`;
    }
    const startText = `Start (${fmt(path[0][0], 3)}, ${fmt(path[0][1], 3)}); `;
    let text;
    if (plannedSteps() === 0) {
      text = startText + `no steps taken: the path is the starting point alone, where the cost is ${fmt(costs[0])}.`;
    } else {
      text = startText +
        (diverged ? `diverged: the weights overflowed after ${K} of ${plannedSteps()} steps. ` :
          `after ${K} steps` + (kind === "minibatch" ? ` (${state.steps} epochs of ${stepsPerEpoch(state.batch)} steps, batch size ${state.batch})` : "") +
          ` with α = ${fmt(state.alpha)}: ${summary}, at (${fmt(final[0], 3)}, ${fmt(final[1], 3)}). `) +
        (exit ? `The path leaves the plot at (${fmt(exit.at[0], 3)}, ${fmt(exit.at[1], 3)}) and ends outside it. ` : "") +
        trend(costs, rises, diverged);
    }
    readout.textContent = text;
    root.dataset.path = JSON.stringify(path);
    root.dataset.exit = exit ? JSON.stringify(exit) : "";
    root.dataset.cost = String(costs[K]);
    root.dataset.alpha = String(state.alpha);
    root.dataset.blend = String(state.blend);
    if (kind === "minibatch") root.dataset.batch = String(state.batch);
    finishDraw(root, state, live, text, t0);
  }

  function drawHistory(costs, gmin) {
    const W = historyW, H = historyH, L = 48, R = 16, T = MARGIN.top, B = MARGIN.bottom;
    const pw = W - L - R, ph = H - T - B;
    hctx.fillStyle = "#fff"; hctx.fillRect(0, 0, W, H);
    const floor = gmin === null ? 1e-12 : Math.max(Math.abs(gmin) * 1e-3, 1e-12);
    const vals = costs.concat(gmin === null ? [] : [gmin]).map((v) => Math.log10(Math.max(v, floor)));
    let lo_ = Math.floor(Math.min(...vals)), hi_ = Math.ceil(Math.max(...vals.slice(0, 1).concat(vals)));
    hi_ = Math.min(hi_, lo_ + 12);
    if (hi_ <= lo_) hi_ = lo_ + 1;
    const X = (k) => L + k / Math.max(plannedSteps(), 1) * pw;
    const Y = (v) => T + (hi_ - Math.log10(Math.max(v, floor))) / (hi_ - lo_) * ph;
    hctx.strokeStyle = "#000"; hctx.lineWidth = 1; hctx.strokeRect(L + 0.5, T + 0.5, pw - 1, ph - 1);
    hctx.fillStyle = "#000"; hctx.font = "11px system-ui, sans-serif"; hctx.textAlign = "right";
    const every = Math.ceil((hi_ - lo_) / 6);
    for (let e = lo_; e <= hi_; e += every) { const y = T + (hi_ - e) / (hi_ - lo_) * ph; hctx.fillRect(L - 4, y, 4, 1); hctx.fillText(`1e${e}`, L - 6, y + 4); }
    hctx.textAlign = "center";
    hctx.fillText("0", X(0), T + ph + 15); hctx.fillText(String(plannedSteps()), X(plannedSteps()), T + ph + 15);
    hctx.font = "12px system-ui, sans-serif";
    hctx.fillText(kind === "minibatch" ? `step t (${stepsPerEpoch(state.batch)} per epoch)` : "step t", L + pw / 2, H - 8);
    // "cost g(w^t)" with t as a superscript (smaller, raised), the whole line centred.
    const title = ["cost g(w", "t", "), log scale" + (gmin === null ? "" : "; dashed: minimum")];
    // (the superscript at 11 px, as the ticks: a canvas shown narrower than drawn keeps it at 9 px or more)
    const widths = title.map((part, i) => { hctx.font = i === 1 ? "11px system-ui, sans-serif" : "12px system-ui, sans-serif";
                                            return hctx.measureText(part).width; });
    let tx = W / 2 - (widths[0] + widths[1] + widths[2]) / 2;
    hctx.textAlign = "left";
    title.forEach((part, i) => { hctx.font = i === 1 ? "11px system-ui, sans-serif" : "12px system-ui, sans-serif";
                                 hctx.fillText(part, tx, i === 1 ? 13 : 18); tx += widths[i]; });
    hctx.textAlign = "center";
    hctx.save(); hctx.beginPath(); hctx.rect(L, T, pw, ph); hctx.clip();
    if (gmin !== null) {
      hctx.setLineDash([5, 4]); hctx.strokeStyle = "#000"; hctx.beginPath();
      hctx.moveTo(L, Y(gmin)); hctx.lineTo(L + pw, Y(gmin)); hctx.stroke(); hctx.setLineDash([]);
    }
    hctx.strokeStyle = "#d7191c"; hctx.lineWidth = 1.5; hctx.beginPath();
    costs.forEach((v, k) => hctx[k ? "lineTo" : "moveTo"](X(k), Y(v))); hctx.stroke();
    hctx.fillStyle = "#d7191c";
    if (costs.length <= 120) costs.forEach((v, k) => { hctx.beginPath(); hctx.arc(X(k), Y(v), 2, 0, 2 * Math.PI); hctx.fill(); });
    hctx.restore();
    if (plannedSteps() === 0) {
      hctx.fillStyle = "#000"; hctx.font = "12px system-ui, sans-serif"; hctx.textAlign = "center";
      hctx.fillText("no steps: the start alone", L + pw / 2, T + ph / 2);
    }
  }

  const schedule = (event) => scheduleDraw(state, draw, event);

  function updateOutputs() {
    alphaOut.textContent = `α = ${fmt(state.alpha)}`;
    alphaInput.setAttribute("aria-valuetext", `alpha ${fmt(state.alpha)}`);
    const unit = kind === "minibatch" ? "epochs" : "steps";
    stepsOut.textContent = `${state.steps} ${unit}`;
    stepsInput.setAttribute("aria-valuetext", `${state.steps} ${unit}`);
    if (batchInput) {
      batchOut.textContent = `b = ${state.batch}`;
      batchInput.setAttribute("aria-valuetext", `batch size ${state.batch}, ${stepsPerEpoch(state.batch)} steps per epoch`);
    }
    if (blendInput) {
      const near = Math.round(state.blend);
      const name = cfg.stage_names.length && Math.abs(state.blend - near) < 5e-4 ? ` (${cfg.stage_names[near]})` : "";
      blendOut.textContent = `${state.blend.toFixed(3)}${name}`;
      blendInput.setAttribute("aria-valuetext", `${state.blend.toFixed(3)}${name}`);
    }
  }

  function sync(...names) {
    for (const n of names) {
      if (n === "batch") { if (kind === "minibatch") model.set("batch_size", state.batch); }
      else model.set(n, n === "start" ? state.start.slice() : state[n]);
    }
    model.save_changes();
  }

  // ---- events: redraw on every input, sync to the kernel on release
  alphaInput.addEventListener("input", (e) => { state.alpha = Math.pow(10, Number(alphaInput.value)); updateOutputs(); schedule(e); });
  alphaInput.addEventListener("change", () => sync("alpha"));
  stepsInput.addEventListener("input", (e) => { state.steps = Number(stepsInput.value); updateOutputs(); schedule(e); });
  stepsInput.addEventListener("change", () => sync("steps"));
  if (batchInput) {
    batchInput.addEventListener("input", (e) => { state.batch = Number(batchInput.value); updateOutputs(); schedule(e); });
    batchInput.addEventListener("change", () => sync("batch"));
  }
  if (blendInput) {
    blendInput.addEventListener("pointerdown", () => { state.dragging = true; });
    blendInput.addEventListener("input", (e) => { state.blend = Number(blendInput.value); updateOutputs(); schedule(e); });
    blendInput.addEventListener("change", (e) => { state.dragging = false; schedule(e); sync("blend"); });
    for (const type of ["pointerup", "pointercancel"]) {
      blendInput.addEventListener(type, (e) => { if (state.dragging) { state.dragging = false; schedule(e); } });
    }
  }
  function setStartFromPointer(e) {
    const r = canvas.getBoundingClientRect();
    const px = (e.clientX - r.left) * width / r.width, py = (e.clientY - r.top) * height / r.height;
    state.start = [Math.min(Math.max(wx(px), x0), x1), Math.min(Math.max(wy(py), y0), y1)];
    schedule(e);
  }
  let dragging = false;
  canvas.addEventListener("pointerdown", (e) => { canvas.focus(); dragging = true; canvas.setPointerCapture(e.pointerId); setStartFromPointer(e); });
  canvas.addEventListener("pointermove", (e) => { if (dragging) setStartFromPointer(e); });
  const release = () => { if (dragging) { dragging = false; sync("start"); } };
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);
  function plotKey(e) {
    const dx = (x1 - x0) / (e.shiftKey ? 10 : 100), dy = (y1 - y0) / (e.shiftKey ? 10 : 100);
    const moves = { ArrowLeft: [-dx, 0], ArrowRight: [dx, 0], ArrowUp: [0, dy], ArrowDown: [0, -dy] };
    if (!(e.key in moves)) return;
    e.preventDefault();
    const [mx, my] = moves[e.key];
    state.start = [Math.min(Math.max(state.start[0] + mx, x0), x1), Math.min(Math.max(state.start[1] + my, y0), y1)];
    schedule(e);
  }
  // Keys pressed inside the widget are the widget's (liveRoot keeps them from the notebook's
  // command-mode shortcuts); the plot's arrow keys move the start point.
  function windowKey(e) {
    if (e.target === canvas) {
      if (e.type === "keydown") plotKey(e);
      else if (e.key.startsWith("Arrow")) sync("start");
    }
  }
  const initial = { alpha: state.alpha, steps: state.steps, blend: state.blend, start: state.start.slice(), batch: state.batch };
  reset.addEventListener("click", () => {
    Object.assign(state, { ...initial, start: initial.start.slice() });
    alphaInput.value = Math.log10(state.alpha); stepsInput.value = state.steps;
    if (blendInput) blendInput.value = state.blend;
    if (batchInput) batchInput.value = state.batch;
    updateOutputs(); schedule(); sync("alpha", "steps", "blend", "start", "batch");
  });

  // ---- changes from Python
  const fromModel = () => {
    state.alpha = model.get("alpha"); state.steps = model.get("steps");
    state.blend = model.get("blend"); state.start = model.get("start").slice();
    alphaInput.value = Math.log10(state.alpha); stepsInput.value = state.steps;
    if (blendInput) blendInput.value = state.blend;
    if (batchInput) { state.batch = model.get("batch_size"); batchInput.value = state.batch; }
    updateOutputs(); schedule();
  };
  const synced = ["alpha", "steps", "blend", "start"].concat(kind === "minibatch" ? ["batch_size"] : []);
  for (const n of synced) model.on(`change:${n}`, fromModel);

  // Laid out for the widths the plot and the cost history are shown at: side by side where the
  // widget is wide enough, the history under the plot (and shorter than it) on a phone.
  function layout() {
    width = Math.max(220, plotBox.getBoundingClientRect().width || WIDE);
    plotW = width - MARGIN.left - MARGIN.right;
    const aspect = cfg.equal_aspect ? Math.min(1.1, Math.max(0.5, (y1 - y0) / (x1 - x0))) : 0.85;
    plotH = Math.round(plotW * aspect);
    height = plotH + MARGIN.top + MARGIN.bottom;
    const box = history.getBoundingClientRect();
    historyW = Math.max(200, box.width || HISTORY_WIDE);
    const stacked = box.top > plotBox.getBoundingClientRect().top + 10;
    historyH = stacked ? Math.round(Math.min(260, Math.max(190, 0.6 * historyW))) : height;
    ctx = sizeCanvas(canvas, width, height);
    hctx = sizeCanvas(history, historyW, historyH);
    background = null;
  }

  updateOutputs();
  const stopWatching = watchWidth(figure, WIDE, () => { layout(); draw(); });
  return () => {
    stopWatching();
    for (const n of synced) model.off(`change:${n}`, fromModel);
    removeKeys();
  };
}

export default { render };
