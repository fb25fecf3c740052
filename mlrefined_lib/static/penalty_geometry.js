// Front end of mlrefined_lib.live.PenaltyGeometry (an anywidget ES module), chapter 11.
// Python sends M and c of the least-squares cost g(w) = w'Mw - 2c'w + m of two
// centred inputs; this file computes the exact lasso and ridge minimizers for the
// reader's lambda (mlrefined_lib.live.penalized_minimizers: same arithmetic, same
// order), the contours of g pixel by pixel and the paths of minimizers. The
// minimizers drawn are kept in the root's `data-lasso` and `data-ridge` (JSON),
// the exact lambda in `data-lam`, so tests can compare them with Python's.

const MARGIN = { left: 46, right: 10, top: 40, bottom: 40 };
const BALL_FILL = "rgba(253,174,97,0.35)", BALL_EDGE = "#b35806", RED = "#d7191c";

function fmt(v, digits = 3) { return Math.abs(v) < 5e-13 ? "0" : v.toFixed(digits); }

// Ridge: (M + lambda I) w = c. Lasso: the first stationary point of an active set
// whose signs and optimality conditions hold (see penalized_minimizers in Python).
export function minimizers(M, c, lam) {
  const a = M[0][0], b = M[0][1], d = M[1][1];
  const detR = (a + lam) * (d + lam) - b * b;
  const ridge = [((d + lam) * c[0] - b * c[1]) / detR, ((a + lam) * c[1] - b * c[0]) / detR];
  return [lasso2d(a, b, d, c[0], c[1], lam), ridge];
}

function lasso2d(a, b, d, c0, c1, lam) {
  const slack = 1e-12 * Math.max(1, lam, Math.abs(c0), Math.abs(c1));
  const det = a * d - b * b;
  for (const s0 of [1, -1]) for (const s1 of [1, -1]) {
    const r0 = c0 - lam * s0 / 2, r1 = c1 - lam * s1 / 2;
    const w0 = (d * r0 - b * r1) / det, w1 = (a * r1 - b * r0) / det;
    if (w0 * s0 > 0 && w1 * s1 > 0) return [w0, w1];
  }
  for (const s0 of [1, -1]) {
    const w0 = (c0 - lam * s0 / 2) / a;
    if (w0 * s0 > 0 && Math.abs(2 * (b * w0 - c1)) <= lam + slack) return [w0, 0];
  }
  for (const s1 of [1, -1]) {
    const w1 = (c1 - lam * s1 / 2) / d;
    if (w1 * s1 > 0 && Math.abs(2 * (b * w1 - c0)) <= lam + slack) return [0, w1];
  }
  return [0, 0];
}

function render({ model, el: root }) {
  const cfg = model.get("config");
  const M = cfg.moments, c = cfg.linear, m0 = cfg.constant;
  const [x0, x1] = cfg.xrange, [y0, y1] = cfg.yrange;
  const levels = cfg.levels, colors = cfg.colors.map(hexToRgb);
  const uid = Math.random().toString(36).slice(2, 9);
  const g = (w0, w1) => M[0][0] * w0 * w0 + 2 * M[0][1] * w0 * w1 + M[1][1] * w1 * w1 - 2 * (c[0] * w0 + c[1] * w1) + m0;
  // Laid out for the width each panel is shown at (356 CSS px where there is room: a 300 px plot).
  const WIDE = 356, aspect = (y1 - y0) / (x1 - x0);
  let plotW = 0, plotH = 0, width = 0, height = 0, background = null;
  const state = { lam: model.get("lam"), pending: false, inputTime: null };
  const descId = `mlr-desc-${uid}`;
  const removeKeys = liveRoot(root);
  const { controls, figure, readout, live, place } = liveLayout(root, cfg.title, descId, false);

  // ---- control
  const id = `mlr-lam-${uid}`;
  const [lo, hi] = cfg.lam_range;
  const [input, out] = rangeControl(controls, id, "penalty λ (lambda)", { min: lo, max: hi, step: (hi - lo) / 1000, value: state.lam }, 10);

  const panels = [["l1 (lasso)", "lasso"], ["squared l2 (ridge)", "ridge"]].map(([name, kind]) => {
    const canvas = el("canvas", {
      role: "img", "aria-describedby": descId,
      "aria-label": `${name} panel: contours of the least-squares cost over w1 and w2, the ${kind === "lasso" ? "l1 diamond" : "l2 circle"} through the ${kind} minimizer, and the path of minimizers as lambda grows`,
    });
    figure.append(figurePart(canvas, WIDE));
    return { canvas, ctx: null, name, kind };
  });
  const legend = el("div", { class: "mlr-legend" },
    "★ minimizer of g (λ = 0)   ● lasso minimizer   ■ ridge minimizer   orange: the ball of the penalty through it   " +
    "red dashed: the contour of g that touches it   thin line: minimizers as λ grows; darker blue = higher cost");
  place(legend);

  const sx = (w) => MARGIN.left + (w - x0) / (x1 - x0) * plotW;
  const sy = (w) => MARGIN.top + (y1 - w) / (y1 - y0) * plotH;

  // ---- what does not depend on lambda: the contours, the axes, the paths of minimizers
  const paths = [[], []];
  for (let k = 0; k <= 400; k++) {
    const pair = minimizers(M, c, hi * k / 400);
    paths[0].push(pair[0]); paths[1].push(pair[1]);
  }
  // The contours, pixel by pixel at the screen's density (up to 2x), the axes and their labels.
  function makeBackground() {
    const off = document.createElement("canvas");
    const octx = sizeCanvas(off, width, height), ratio = off.width / width;
    octx.fillStyle = "#fff"; octx.fillRect(0, 0, width, height);
    const density = Math.min(ratio, 2), bw = Math.ceil(plotW * density), bh = Math.ceil(plotH * density);
    const img = octx.createImageData(bw, bh);
    const band = new Int16Array(bw * bh), n = levels.length;
    for (let j = 0; j < bh; j++) {
      const w1 = y1 - (j + 0.5) / bh * (y1 - y0);
      for (let i = 0; i < bw; i++) {
        const v = g(x0 + (i + 0.5) / bw * (x1 - x0), w1);
        let k = -1;
        if (v >= levels[0]) { k = n - 1; for (let q = 1; q < n; q++) if (v < levels[q]) { k = q - 1; break; } }
        band[j * bw + i] = k;
      }
    }
    for (let p = 0; p < band.length; p++) {
      const k = band[p], i = p % bw;
      const rgb = k < 0 ? [255, 255, 255] : colors[Math.min(k, colors.length - 1)];
      const edge = (i > 0 && band[p - 1] !== k) || (p >= bw && band[p - bw] !== k);
      const f = edge ? 0.7 : 1;
      img.data[4 * p] = rgb[0] * f; img.data[4 * p + 1] = rgb[1] * f; img.data[4 * p + 2] = rgb[2] * f; img.data[4 * p + 3] = 255;
    }
    const small = document.createElement("canvas");
    small.width = bw; small.height = bh;
    small.getContext("2d").putImageData(img, 0, 0);
    octx.save();
    octx.beginPath(); octx.rect(MARGIN.left, MARGIN.top, plotW, plotH); octx.clip();
    octx.imageSmoothingEnabled = density !== ratio;
    octx.drawImage(small, MARGIN.left, MARGIN.top, bw / density, bh / density);
    octx.restore();
    octx.strokeStyle = "#000"; octx.lineWidth = 0.8;
    octx.beginPath(); octx.moveTo(sx(0), MARGIN.top); octx.lineTo(sx(0), MARGIN.top + plotH);
    octx.moveTo(MARGIN.left, sy(0)); octx.lineTo(MARGIN.left + plotW, sy(0)); octx.stroke();
    octx.lineWidth = 1; octx.strokeRect(MARGIN.left + 0.5, MARGIN.top + 0.5, plotW - 1, plotH - 1);
    octx.fillStyle = "#000"; octx.font = "11px system-ui, sans-serif";
    for (let t = Math.ceil(x0 * 2) / 2; t <= x1 + 1e-9; t += 0.5) {
      octx.fillRect(sx(t), MARGIN.top + plotH, 1, 4); octx.textAlign = "center";
      octx.fillText(String(Math.round(t * 10) / 10), sx(t), MARGIN.top + plotH + 15);
    }
    for (let t = Math.ceil(y0 * 2) / 2; t <= y1 + 1e-9; t += 0.5) {
      octx.fillRect(MARGIN.left - 4, sy(t), 4, 1); octx.textAlign = "right";
      octx.fillText(String(Math.round(t * 10) / 10), MARGIN.left - 6, sy(t) + 4);
    }
    octx.font = "12px system-ui, sans-serif"; octx.textAlign = "center";
    octx.fillText("w1", MARGIN.left + plotW / 2, height - 6);
    octx.save(); octx.translate(12, MARGIN.top + plotH / 2); octx.rotate(-Math.PI / 2); octx.fillText("w2", 0, 0); octx.restore();
    return off;
  }

  // The contour of g through w: an ellipse around the unregularized minimizer.
  const a = M[0][0], b = M[0][1], d = M[1][1];
  const tr = (a + d) / 2, disc = Math.sqrt(((a - d) / 2) ** 2 + b * b);
  const e1 = tr + disc, e2 = tr - disc;
  const u1 = Math.abs(b) > 1e-300 ? [b, e1 - a] : (a >= d ? [1, 0] : [0, 1]);
  const nu = Math.hypot(u1[0], u1[1]); u1[0] /= nu; u1[1] /= nu;
  const u2 = [-u1[1], u1[0]], star = cfg.unregularized;
  function ellipse(ctx, w) {
    const excess = g(w[0], w[1]) - g(star[0], star[1]);
    if (!(excess > 1e-12)) return;
    const r1 = Math.sqrt(excess / e1), r2 = Math.sqrt(excess / e2);
    ctx.beginPath();
    for (let k = 0; k <= 120; k++) {
      const t = 2 * Math.PI * k / 120, p0 = star[0] + r1 * Math.cos(t) * u1[0] + r2 * Math.sin(t) * u2[0];
      const p1 = star[1] + r1 * Math.cos(t) * u1[1] + r2 * Math.sin(t) * u2[1];
      ctx[k ? "lineTo" : "moveTo"](sx(p0), sy(p1));
    }
    ctx.setLineDash([5, 4]); ctx.strokeStyle = RED; ctx.lineWidth = 1.4; ctx.stroke(); ctx.setLineDash([]);
  }

  function marker(ctx, w, kind, fill) {
    const x = sx(w[0]), y = sy(w[1]);
    ctx.beginPath(); ctx.fillStyle = fill; ctx.strokeStyle = "#000"; ctx.lineWidth = 1;
    if (kind === "star") {
      for (let i = 0; i < 10; i++) {
        const r = i % 2 ? 3.6 : 8.5, t = -Math.PI / 2 + i * Math.PI / 5;
        ctx[i ? "lineTo" : "moveTo"](x + r * Math.cos(t), y + r * Math.sin(t));
      }
      ctx.closePath();
    } else if (kind === "square") ctx.rect(x - 5, y - 5, 10, 10);
    else ctx.arc(x, y, 5.5, 0, 2 * Math.PI);
    ctx.fill(); ctx.stroke();
  }

  function draw() {
    const t0 = performance.now();
    state.pending = false;
    const [lasso, ridge] = minimizers(M, c, state.lam);
    panels.forEach((panel, index) => {
      const { ctx, kind, name } = panel, w = index === 0 ? lasso : ridge;
      ctx.drawImage(background, 0, 0, width, height);
      ctx.save(); ctx.beginPath(); ctx.rect(MARGIN.left, MARGIN.top, plotW, plotH); ctx.clip();
      ctx.beginPath();
      if (kind === "lasso") {
        const r = Math.abs(w[0]) + Math.abs(w[1]);
        ctx.moveTo(sx(r), sy(0)); ctx.lineTo(sx(0), sy(r)); ctx.lineTo(sx(-r), sy(0)); ctx.lineTo(sx(0), sy(-r)); ctx.closePath();
      } else {
        const r = Math.hypot(w[0], w[1]);
        ctx.ellipse(sx(0), sy(0), r / (x1 - x0) * plotW, r / (y1 - y0) * plotH, 0, 0, 2 * Math.PI);
      }
      ctx.fillStyle = BALL_FILL; ctx.fill();
      ctx.strokeStyle = BALL_EDGE; ctx.lineWidth = 1.8; ctx.setLineDash(kind === "lasso" ? [] : [2, 3]); ctx.stroke(); ctx.setLineDash([]);
      ellipse(ctx, w);
      ctx.beginPath(); ctx.strokeStyle = "rgba(0,0,0,0.7)"; ctx.lineWidth = 1;
      paths[index].forEach((p, k) => ctx[k ? "lineTo" : "moveTo"](sx(p[0]), sy(p[1]))); ctx.stroke();
      marker(ctx, star, "star", "#fff");
      marker(ctx, w, kind === "lasso" ? "circle" : "square", RED);
      ctx.restore();
      ctx.fillStyle = "#000"; ctx.font = "600 12px system-ui, sans-serif"; ctx.textAlign = "center";
      ctx.fillText(`${name}, λ = ${state.lam.toFixed(2)}`, MARGIN.left + plotW / 2, 15);
      ctx.font = "12px system-ui, sans-serif";
      ctx.fillText(`w = (${fmt(w[0])}, ${fmt(w[1])})`, MARGIN.left + plotW / 2, 31);
    });
    const zeros = (lasso[0] === 0) + (lasso[1] === 0);
    const text = `λ = ${state.lam.toFixed(3)}: the lasso minimizer is (${fmt(lasso[0])}, ${fmt(lasso[1])}), ` +
      `${zeros} weight${zeros === 1 ? "" : "s"} exactly zero, on the diamond |w1| + |w2| = ${fmt(Math.abs(lasso[0]) + Math.abs(lasso[1]))}; ` +
      `the ridge minimizer is (${fmt(ridge[0])}, ${fmt(ridge[1])}), on the circle of radius ${fmt(Math.hypot(ridge[0], ridge[1]))}, ` +
      `with ${(ridge[0] === 0) + (ridge[1] === 0)} weights zero.` +
      (state.lam >= cfg.lam_max ? ` λ is at least λ_max = ${fmt(cfg.lam_max)}: every lasso weight is 0.` : "");
    readout.textContent = text;
    root.dataset.lasso = JSON.stringify(lasso);
    root.dataset.ridge = JSON.stringify(ridge);
    root.dataset.lam = String(state.lam);
    finishDraw(root, state, live, text, t0);
  }

  const schedule = (event) => scheduleDraw(state, draw, event);
  function updateOutput() {
    out.textContent = `λ = ${state.lam.toFixed(3)}`;
    input.setAttribute("aria-valuetext", `lambda ${state.lam.toFixed(3)}`);
  }
  input.addEventListener("input", (e) => { state.lam = Number(input.value); updateOutput(); schedule(e); });
  input.addEventListener("change", () => { model.set("lam", state.lam); model.save_changes(); });
  const fromModel = () => { state.lam = model.get("lam"); input.value = state.lam; updateOutput(); schedule(); };
  model.on("change:lam", fromModel);
  // Both panels at the width the first is shown at (side by side, or one under the other on a phone).
  function layout() {
    width = Math.max(220, panels[0].canvas.getBoundingClientRect().width || WIDE);
    plotW = width - MARGIN.left - MARGIN.right;
    plotH = Math.round(plotW * aspect);
    height = plotH + MARGIN.top + MARGIN.bottom;
    for (const panel of panels) panel.ctx = sizeCanvas(panel.canvas, width, height);
    background = makeBackground();
  }

  updateOutput();
  const stopWatching = watchWidth(figure, WIDE, () => { layout(); draw(); });
  return () => {
    stopWatching();
    model.off("change:lam", fromModel);
    removeKeys();
  };
}

export default { render };
