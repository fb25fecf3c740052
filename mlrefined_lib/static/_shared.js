// Code shared by the live widgets' front ends (mlrefined_lib.live). This file is
// put in front of each widget's module (mlrefined_lib/_esm.py), so it holds plain
// declarations only: no import, no export.

const SVG_NS = "http://www.w3.org/2000/svg";

// The widgets' layout, the same in the book and in Jupyter: the book's colours
// where its theme defines them, JupyterLab's otherwise. Controls: label and
// readout on one line (the readout under the label when both do not fit), the
// slider under them on a narrow widget, all three on one row on a wide one;
// readouts of a fixed width, so the sliders never move. On a phone the controls
// stay in view (sticky, under the book's header) while the reader watches the plot.
// Pictures side by side, each shrinking to 70% of its drawn width at most (or to the share
// `--shrink` its part sets: SVG pictures, whose text shrinks with them, keep it at 9 px or more),
// wherever the widget is wide enough for that; one under the other, each as wide as the widget,
// on a widget narrower than 560 px (a phone). Canvases are drawn
// for the width they are shown at, so their text does not shrink.
const LIVE_CSS = `
.mlr-live { container-type: inline-size; max-width: 100%; font: 13px/1.4 system-ui, sans-serif;
  color: var(--pst-color-text-base, var(--jp-ui-font-color1, #222)); }
.mlr-live .mlr-title { font-weight: 600; margin-bottom: 4px; }
.mlr-live .mlr-controls { display: grid; gap: 2px 10px; max-width: 820px; padding: 4px 0; align-items: center;
  background: var(--pst-color-background, var(--jp-layout-color0, #fff)); }
.mlr-live .mlr-control { display: flex; flex-wrap: wrap; align-items: center; column-gap: 10px; }
.mlr-live .mlr-control label { white-space: nowrap; }
.mlr-live .mlr-control output { margin-left: auto; font-variant-numeric: tabular-nums; text-align: right; white-space: nowrap; }
.mlr-live .mlr-control input[type=range] { flex: 1 1 100%; width: 100%; min-width: 0; margin: 6px 0; touch-action: pan-y;
  accent-color: var(--pst-color-primary, var(--jp-brand-color1, #1a4f8b)); }
@container (min-width: 640px) {
  .mlr-live .mlr-controls { grid-template-columns: max-content minmax(140px, 1fr) max-content; }
  .mlr-live .mlr-control { display: contents; }
  .mlr-live .mlr-control label { grid-column: 1; grid-row: var(--row); }
  .mlr-live .mlr-control input[type=range] { grid-column: 2; grid-row: var(--row); }
  .mlr-live .mlr-control output { grid-column: 3; grid-row: var(--row); }
}
.mlr-live .mlr-figure { margin: 8px 0; display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
.mlr-live .mlr-figure > * { flex: var(--w) 1 0; min-width: min(100%, calc(var(--w) * var(--shrink, 0.7) * 1px)); max-width: calc(var(--w) * 1px); }
.mlr-live .mlr-figure canvas, .mlr-live .mlr-figure svg[role=img] { display: block; width: 100%; height: auto; }
@container (max-width: 559px) {
  .mlr-live .mlr-figure > * { flex-basis: 100%; max-width: none; }
}
.mlr-live .mlr-legend { font-size: 12px; white-space: pre-wrap; }
.mlr-live .mlr-description { margin: 4px 0; font-variant-numeric: tabular-nums; }
.mlr-live .mlr-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
.mlr-live button { font: inherit; margin-top: 4px; padding: 4px 14px; border-radius: 4px; cursor: pointer;
  color: var(--pst-color-text-base, var(--jp-ui-font-color1, #222));
  background: var(--pst-color-surface, var(--jp-layout-color2, #f3f4f5));
  border: 1px solid var(--pst-color-border, var(--jp-border-color1, #ccc)); }
.mlr-live button:hover { border-color: var(--pst-color-primary, var(--jp-brand-color1, #1a4f8b)); }
.mlr-live :focus { outline: none; }
.mlr-live :focus-visible { outline: 2px solid var(--pst-color-primary, var(--jp-brand-color1, #1a4f8b)); outline-offset: 2px; }
@media (max-width: 700px) {
  .mlr-live .mlr-controls { position: sticky; top: var(--pst-header-height, 0px); z-index: 2; }
}
`;

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function svgEl(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function hexToRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function logaddexp0(t) { return Math.max(t, 0) + Math.log1p(Math.exp(-Math.abs(t))); }

// A round tick spacing near `raw`: 1, 2 or 5 times a power of ten.
function niceStep(raw) {
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / p;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

// The seeded generator that the page and Python share (mlrefined_lib.live.degree_folds):
// "mulberry32", integer arithmetic only, yields integers in [0, 2^32).
function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6D2B79F5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1) >>> 0;
    t = (t ^ ((t + (Math.imul(t ^ (t >>> 7), t | 61) >>> 0)) >>> 0)) >>> 0;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

// A permutation of 0..P-1, as shuffled_order: a Fisher-Yates shuffle driven by mulberry32(seed).
function shuffledOrder(P, seed) {
  const order = Array.from({ length: P }, (_, i) => i), next = mulberry32(seed);
  for (let i = P - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1) / 4294967296);  // exact: below 2^53, divided by a power of 2
    const swap = order[i]; order[i] = order[j]; order[j] = swap;
  }
  return order;
}

// Makes `root` a live widget: the shared stylesheet (once per document), the
// benchmark's timing list, and the keys typed inside it kept from the notebook.
// JupyterLab listens on the document in the bubbling phase, Notebook 7 in the
// capture phase; a capture listener on the window runs before both and stops the
// event there (the browser's default action, e.g. an arrow moving a range
// control, still happens). `onKey(event)` sees each such key event first.
// Returns the function that removes the listeners.
function liveRoot(root, onKey) {
  if (!document.getElementById("mlr-live-css")) {
    document.head.append(el("style", { id: "mlr-live-css" }, LIVE_CSS));
  }
  root.__liveTimings = [];
  root.classList.add("mlr-live");
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  // A click in the widget must not let the notebook move the focus to the cell.
  root.addEventListener("mousedown", (e) => e.stopPropagation());
  function windowKey(e) {
    if (!root.contains(e.target)) return;
    e.stopPropagation();
    if (onKey) onKey(e);
  }
  window.addEventListener("keydown", windowKey, true);
  window.addEventListener("keyup", windowKey, true);
  return () => {
    window.removeEventListener("keydown", windowKey, true);
    window.removeEventListener("keyup", windowKey, true);
  };
}

// One named range control in `controls`: label and readout (`readoutCh`
// characters wide) above or beside the slider. Returns [input, output].
function rangeControl(controls, id, label, attrs, readoutCh = 14) {
  const row = el("div", { class: "mlr-control", style: `--row:${controls.children.length + 1}` });
  const input = el("input", { type: "range", id, ...attrs });
  const out = el("output", { for: id, style: `min-width:${readoutCh}ch` });
  row.append(el("label", { for: id }, label), out, input);
  controls.append(row);
  return [input, out];
}

// Redraw at the next animation frame (once, however many inputs come before it),
// remembering when the first input of the frame happened.
function scheduleDraw(state, draw, event) {
  if (state.inputTime === null && event && event.timeStamp) state.inputTime = event.timeStamp;
  if (!state.pending) { state.pending = true; requestAnimationFrame(draw); }
}

// The end of a redraw that began at `t0`: the text description goes to the live
// region once the reader pauses, and the time from the input to now (and of the
// redraw alone) goes to the benchmark's list.
function finishDraw(root, state, live, text, t0) {
  clearTimeout(state.liveTimer);
  state.liveTimer = setTimeout(() => { live.textContent = text; }, 300);
  if (state.inputTime !== null) {
    const t1 = performance.now();
    root.__liveTimings.push([t1 - state.inputTime, t1 - t0]);
    state.inputTime = null;
  }
}

// The parts every widget has besides its controls and pictures, in order:
// title, controls, figure, then the caller's extra nodes, the description,
// the live region and the reset button (when `withReset`).
function liveLayout(root, title, descId, withReset) {
  const controls = el("div", { class: "mlr-controls" });
  const figure = el("figure", { class: "mlr-figure" });
  const readout = el("p", { id: descId, class: "mlr-description" });
  const live = el("p", { "aria-live": "polite", class: "mlr-hidden" });
  const reset = withReset ? el("button", { type: "button" }, "reset") : null;
  const place = (...extra) => root.replaceChildren(el("div", { class: "mlr-title" }, title), controls, figure,
    ...extra, readout, live, ...(reset ? [reset] : []));
  return { controls, figure, readout, live, reset, place };
}

// `node` as one picture of the figure, `width` px wide when there is room, and no narrower than
// `shrink` times that unless the widget is (then it takes the widget's whole width).
function figurePart(node, width, shrink) {
  node.style.setProperty("--w", String(width));
  if (shrink !== undefined) node.style.setProperty("--shrink", String(shrink));
  return node;
}

// The frame of one SVG plot in `node`: the plot area `box` ({x, y, width,
// height}) outlined on white; tick marks and labels below it at `xticks` and
// left of it at `yticks` ([label, px] pairs); the x label centred on the
// baseline `box.xlabelY`, the y label turned and centred on `box.ylabelX`.
function svgAxes(node, box, xticks, yticks, xlabel, ylabel) {
  const { x, y, width, height } = box, bottom = y + height, middle = y + height / 2;
  node.append(svgEl("rect", { x, y, width, height, fill: "#fff", stroke: "#000" }));
  for (const [v, px] of xticks) {
    node.append(svgEl("line", { x1: px, x2: px, y1: bottom, y2: bottom + 4, stroke: "#000" }));
    node.append(svgEl("text", { x: px, y: bottom + 15, "text-anchor": "middle", "font-size": 11 }, v));
  }
  for (const [v, py] of yticks) {
    node.append(svgEl("line", { x1: x - 4, x2: x, y1: py, y2: py, stroke: "#000" }));
    node.append(svgEl("text", { x: x - 6, y: py + 4, "text-anchor": "end", "font-size": 11 }, v));
  }
  node.append(svgEl("text", { x: x + width / 2, y: box.xlabelY, "text-anchor": "middle", "font-size": 12 }, xlabel));
  node.append(svgEl("text", { x: box.ylabelX, y: middle, "text-anchor": "middle", "font-size": 12,
    transform: `rotate(-90 ${box.ylabelX} ${middle})` }, ylabel));
}

// A group appended to the SVG `node` that shows only what lies inside `box`
// ({x, y, width, height}, the plot area), through the clip path `id`.
function clippedLayer(node, id, box) {
  const clipPath = svgEl("clipPath", { id });
  clipPath.append(svgEl("rect", { x: box.x, y: box.y, width: box.width, height: box.height }));
  const defs = svgEl("defs");
  defs.append(clipPath);
  node.append(defs);
  const layer = svgEl("g", { "clip-path": `url(#${id})` });
  node.append(layer);
  return layer;
}

// [x, y] pixel pairs as the `points` of an SVG polyline, to 0.01 px.
function svgPoints(pts) {
  return pts.map(([a, b]) => `${a.toFixed(2)},${b.toFixed(2)}`).join(" ");
}

// ---- canvases drawn at the screen's pixel density, laid out at the width they are shown at

// Gives `canvas` a backing store of `cssW` x `cssH` CSS px at the screen's pixel density
// (at least twice that on a 2x phone) and returns its 2D context, scaled so that the caller
// draws in CSS px: a font of 11px is 11 CSS px on the screen. The layout's CSS shows the canvas
// at its part's width; the caller lays the drawing out for that width (see watchWidth), so the
// canvas is shown at its own size and nothing shrinks.
function sizeCanvas(canvas, cssW, cssH) {
  const ratio = Math.max(1, window.devicePixelRatio || 1);
  const w = Math.round(cssW * ratio), h = Math.round(cssH * ratio);
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  const ctx = canvas.getContext("2d");
  ctx.setTransform(w / cssW, 0, 0, h / cssH, 0, 0);
  return ctx;
}

// Calls `layout(width)` with the width `node` is shown at (in CSS px), now and whenever it
// changes by half a pixel or more, at most once a frame. A node not laid out yet (a
// widget drawn before it is attached) reports `fallback`. Returns the function that stops it.
function watchWidth(node, fallback, layout) {
  const measure = () => node.getBoundingClientRect().width || fallback;
  let last = measure(), queued = false;
  layout(last);
  if (typeof ResizeObserver === "undefined") return () => {};
  const observer = new ResizeObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      const now = measure();
      if (Math.abs(now - last) >= 0.5) { last = now; layout(now); }
    });
  });
  observer.observe(node);
  return () => observer.disconnect();
}

// A closed arrowhead at (x, y) pointing along (dx, dy), `size` px long: where a path leaves the plot.
function arrowhead(c, x, y, dx, dy, size, fill) {
  const n = Math.hypot(dx, dy) || 1, ux = dx / n, uy = dy / n;
  c.beginPath();
  c.moveTo(x, y);
  c.lineTo(x - size * ux + 0.55 * size * uy, y - size * uy - 0.55 * size * ux);
  c.lineTo(x - size * ux - 0.55 * size * uy, y - size * uy + 0.55 * size * ux);
  c.closePath();
  c.fillStyle = fill; c.strokeStyle = "#000"; c.lineWidth = 1;
  c.fill(); c.stroke();
}
