// Front end of mlrefined_lib.live.EdgeHistograms (an anywidget ES module), chapter 6.
// Python sends a few small grey images (their pixels, exactly) and the number of
// orientation bins; for any patch size (pixels) and block size (patches) this file
// computes, as mlrefined_lib.histograms.local_edge_histograms does: the gradient by
// central differences (one-sided at the border, y down the rows), each pixel's
// orientation folded into [0°, 180°) and put in the nearest of the bins centred on
// 0°, 180°/bins, ...; each patch's magnitude-weighted histogram; each block of
// block × block patches scaled jointly to unit length; the blocks concatenated in
// row-major order. It draws the patch grid over the image with each patch's
// histogram as a star of segments along the edges, and the feature vector.
// For tests: the root's `data-patch`, `data-block`, `data-image`, `data-length`, and
// `root.__liveEdges` ({image, patch, block, rows, cols, histograms, features}:
// histograms[(r * cols + c) * bins + k], unscaled; features as Python returns them).

const GLYPH = "#d73027", BLOCK = "#f28e2b", BAR = "#4575b4";

// Orientation bin and gradient magnitude of every pixel (row-major), as _gradient_bins.
export function gradientBins(pixels, rows, cols, bins) {
  const index = new Int32Array(rows * cols), magnitude = new Float64Array(rows * cols);
  const width = 180 / bins, toDegrees = 180 / Math.PI;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const at = (i, j) => pixels[i * cols + j];
      const dy = r === 0 ? at(1, c) - at(0, c) : r === rows - 1 ? at(r, c) - at(r - 1, c) : (at(r + 1, c) - at(r - 1, c)) / 2;
      const dx = c === 0 ? at(r, 1) - at(r, 0) : c === cols - 1 ? at(r, c) - at(r, c - 1) : (at(r, c + 1) - at(r, c - 1)) / 2;
      let angle = (Math.atan2(dy, dx) * toDegrees) % 180;  // numpy's remainder: the sign of the divisor
      if (angle < 0) angle += 180;
      index[r * cols + c] = Math.floor((angle + width / 2) / width) % bins;
      magnitude[r * cols + c] = Math.hypot(dx, dy);
    }
  }
  return { index, magnitude };
}

// The patch histograms (R x C x bins, unscaled) and the block-normalized feature vector.
export function localEdgeHistograms(grad, rows, cols, bins, patch, block) {
  const R = Math.floor(rows / patch), C = Math.floor(cols / patch);
  const histograms = new Float64Array(R * C * bins);
  for (let r = 0; r < R * patch; r++) {
    const pr = Math.floor(r / patch);
    for (let c = 0; c < C * patch; c++) {
      histograms[(pr * C + Math.floor(c / patch)) * bins + grad.index[r * cols + c]] += grad.magnitude[r * cols + c];
    }
  }
  const size = block * block * bins, blocksR = R - block + 1, blocksC = C - block + 1;
  const features = new Float64Array(Math.max(0, blocksR * blocksC * size));
  let at = 0;
  for (let i = 0; i < blocksR; i++) {
    for (let j = 0; j < blocksC; j++) {
      const start = at;
      let squares = 0;
      for (let a = 0; a < block; a++) for (let b = 0; b < block; b++) for (let k = 0; k < bins; k++) {
        const v = histograms[((i + a) * C + j + b) * bins + k];
        features[at++] = v;
        squares += v * v;
      }
      const length = Math.sqrt(squares);
      if (length > 0) for (let q = start; q < at; q++) features[q] /= length;
    }
  }
  return { R, C, histograms, features };
}

function render({ model, el: root }) {
  const cfg = model.get("config");
  const images = cfg.images, bins = cfg.bins;
  const rows = images[0].rows, cols = images[0].columns, side = Math.min(rows, cols);
  const uid = Math.random().toString(36).slice(2, 9);
  const state = { patch: model.get("patch"), block: model.get("block"), image: model.get("image"), pending: false, inputTime: null };
  const descId = `mlr-desc-${uid}`;
  const removeKeys = liveRoot(root);
  const { controls, figure, readout, live, place } = liveLayout(root, cfg.title, descId, false);
  const fitBlock = (patch) => Math.max(1, Math.min(cfg.max_block, Math.floor(side / patch)));
  const fitPatch = (block) => Math.max(cfg.min_patch, Math.min(side, Math.floor(side / block)));

  // ---- controls: patch size, block size, and the image when there are several
  const [patchInput, patchOut] = rangeControl(controls, `mlr-patch-${uid}`, "patch size (pixels)",
    { min: cfg.min_patch, max: side, step: 1, value: state.patch }, 18);
  const [blockInput, blockOut] = rangeControl(controls, `mlr-block-${uid}`, "block size (patches)",
    { min: 1, max: cfg.max_block, step: 1, value: state.block }, 18);
  let chooser = null;
  if (images.length > 1) {
    const row = el("div", { class: "mlr-control", style: `--row:${controls.children.length + 1}` });
    const id = `mlr-image-${uid}`;
    chooser = el("select", { id, style: "grid-column: 2; grid-row: var(--row); font: inherit; max-width: 100%; padding: 2px 4px; " +
      "border-radius: 4px; color: var(--pst-color-text-base, var(--jp-ui-font-color1, #222)); " +
      "background: var(--pst-color-background, var(--jp-layout-color0, #fff)); " +
      "border: 1px solid var(--pst-color-border, var(--jp-border-color1, #ccc))" });
    images.forEach((image, i) => chooser.append(el("option", { value: String(i) }, image.name)));
    chooser.value = String(state.image);
    row.append(el("label", { for: id }, "image"), chooser);
    controls.append(row);
  }

  // ---- two canvases: the image with its patches; the feature vector
  const imageCanvas = el("canvas", { role: "img", "aria-describedby": descId,
    "aria-label": "The image under its grid of patches; in each patch, one segment per orientation bin, along the edge direction, as long as the bin's total" });
  const vectorCanvas = el("canvas", { role: "img", "aria-describedby": descId,
    "aria-label": "The feature vector: one bar per number, the first block's numbers in orange" });
  const legend = el("div", { class: "mlr-legend" },
    "Red segments: each patch's edge histogram, one segment per orientation along the edge it counts, " +
    "scaled to the largest patch total. Orange: the first block, whose numbers open the feature vector. " +
    "Grey hatching: pixels outside every patch (not used).");
  place(legend);
  figure.append(figurePart(imageCanvas, 330, 0.85), figurePart(vectorCanvas, 330, 0.85));

  const gradients = new Map();
  const gradientOf = (i) => {
    if (!gradients.has(i)) gradients.set(i, gradientBins(Float64Array.from(images[i].pixels), rows, cols, bins));
    return gradients.get(i);
  };
  const pictures = new Map();
  const pictureOf = (i) => {  // the image at one canvas pixel per image pixel, ink dark on light paper
    if (!pictures.has(i)) {
      const p = images[i].pixels;
      let lo = Infinity, hi = -Infinity;
      for (const v of p) { if (v < lo) lo = v; if (v > hi) hi = v; }
      const small = document.createElement("canvas");
      small.width = cols; small.height = rows;
      const sctx = small.getContext("2d"), img = sctx.createImageData(cols, rows);
      for (let q = 0; q < p.length; q++) {
        let g = hi > lo ? (p[q] - lo) / (hi - lo) : 1;
        if (images[i].dark_paper) g = 1 - g;
        const v = Math.round(255 - 0.55 * 255 * (1 - g));  // faded, so the segments stand out
        img.data[4 * q] = v; img.data[4 * q + 1] = v; img.data[4 * q + 2] = v; img.data[4 * q + 3] = 255;
      }
      sctx.putImageData(img, 0, 0);
      pictures.set(i, small);
    }
    return pictures.get(i);
  };

  let imageW = 330, vectorW = 330, ictx = null, vctx = null;
  const VH = 230, VM = { left: 44, right: 12, top: 26, bottom: 40 };

  function drawImage(result) {
    const { R, C, histograms } = result, patch = state.patch, block = state.block;
    const top = 22, size = imageW, scale = Math.min(size / cols, (size - top) / rows);
    const ox = (size - cols * scale) / 2, height = top + rows * scale + 4;
    if (!ictx || imageCanvas.__h !== height) { ictx = sizeCanvas(imageCanvas, size, height); imageCanvas.__h = height; }
    const c = ictx;
    c.fillStyle = "#fff"; c.fillRect(0, 0, size, height);
    c.imageSmoothingEnabled = false;
    c.drawImage(pictureOf(state.image), ox, top, cols * scale, rows * scale);
    // pixels outside the patches: hatched
    const usedW = C * patch * scale, usedH = R * patch * scale;
    c.save();
    c.beginPath(); c.rect(ox, top, cols * scale, rows * scale); c.rect(ox, top, usedW, usedH); c.clip("evenodd");
    c.fillStyle = "rgba(120,120,120,0.35)"; c.fillRect(ox, top, cols * scale, rows * scale);
    c.strokeStyle = "rgba(80,80,80,0.6)"; c.lineWidth = 1; c.beginPath();
    for (let d = -rows * scale; d < cols * scale; d += 6) { c.moveTo(ox + d, top + rows * scale); c.lineTo(ox + d + rows * scale, top); }
    c.stroke(); c.restore();
    // the grid
    c.strokeStyle = "rgba(90,90,90,0.7)"; c.lineWidth = 0.8; c.beginPath();
    for (let j = 0; j <= C; j++) { c.moveTo(ox + j * patch * scale, top); c.lineTo(ox + j * patch * scale, top + usedH); }
    for (let i = 0; i <= R; i++) { c.moveTo(ox, top + i * patch * scale); c.lineTo(ox + usedW, top + i * patch * scale); }
    c.stroke();
    c.strokeStyle = "#000"; c.lineWidth = 1; c.strokeRect(ox - 0.5, top - 0.5, cols * scale + 1, rows * scale + 1);
    // each patch's histogram: segments along the edge (at right angles to the bin's gradient), y down
    let largest = 0;
    for (const v of histograms) if (v > largest) largest = v;
    if (largest > 0) {
      c.strokeStyle = GLYPH; c.lineWidth = patch * scale >= 14 ? 1.6 : 1.1; c.lineCap = "round"; c.beginPath();
      for (let i = 0; i < R; i++) for (let j = 0; j < C; j++) {
        const cx = ox + (j + 0.5) * patch * scale, cy = top + (i + 0.5) * patch * scale;
        for (let k = 0; k < bins; k++) {
          const half = 0.48 * patch * scale * histograms[(i * C + j) * bins + k] / largest;
          if (half < 0.05) continue;
          const a = (k * 180 / bins + 90) * Math.PI / 180, dx = half * Math.cos(a), dy = half * Math.sin(a);
          c.moveTo(cx - dx, cy - dy); c.lineTo(cx + dx, cy + dy);
        }
      }
      c.stroke();
    }
    // the first block
    c.strokeStyle = BLOCK; c.lineWidth = 2.5;
    c.strokeRect(ox + 1.25, top + 1.25, block * patch * scale - 2.5, block * patch * scale - 2.5);
    c.fillStyle = "#000"; c.font = "600 12px system-ui, sans-serif"; c.textAlign = "center";
    c.fillText(`${R} × ${C} patches of ${patch} × ${patch} pixels`, size / 2, 15);
  }

  function drawVector(result) {
    const { features } = result, n = features.length, block = state.block, first = block * block * bins;
    const width = vectorW, pw = width - VM.left - VM.right, ph = VH - VM.top - VM.bottom;
    if (!vctx) vctx = sizeCanvas(vectorCanvas, width, VH);
    const c = vctx;
    c.fillStyle = "#fff"; c.fillRect(0, 0, width, VH);
    const X = (q) => VM.left + q / n * pw, Y = (v) => VM.top + (1 - v) * ph;
    // one bar per number, or per screen column the largest of the numbers it covers
    const columns = Math.min(n, Math.floor(pw));
    for (const [color, from, to] of [[BAR, first, n], [BLOCK, 0, Math.min(first, n)]]) {
      c.fillStyle = color;
      if (columns === n) {
        for (let q = from; q < to; q++) if (features[q] > 0) c.fillRect(X(q), Y(features[q]), Math.max(pw / n - (n < 60 ? 1 : 0), 0.6), ph * features[q]);
      } else {
        const per = n / columns;
        for (let col = Math.floor(from / per); col < Math.ceil(to / per); col++) {
          let top = 0;
          for (let q = Math.max(from, Math.floor(col * per)); q < Math.min(to, Math.floor((col + 1) * per)); q++) if (features[q] > top) top = features[q];
          if (top > 0) c.fillRect(VM.left + col * pw / columns, Y(top), pw / columns, ph * top);
        }
      }
    }
    c.strokeStyle = "#000"; c.lineWidth = 1; c.strokeRect(VM.left - 0.5, VM.top - 0.5, pw + 1, ph + 1);
    c.fillStyle = "#000"; c.font = "11px system-ui, sans-serif"; c.textAlign = "right";
    for (const v of [0, 0.5, 1]) { c.fillRect(VM.left - 4, Y(v), 4, 1); c.fillText(String(v), VM.left - 6, Y(v) + 4); }
    for (const q of [0, n]) {  // the first and last index, inside the canvas
      c.fillRect(X(q), VM.top + ph, 1, 4);
      c.textAlign = q === 0 ? "center" : "right";
      c.fillText(String(q), X(q) + (q === 0 ? 0 : 4), VM.top + ph + 15);
    }
    c.textAlign = "center";
    c.font = "12px system-ui, sans-serif";
    c.fillText("feature index", VM.left + pw / 2, VH - 8);
    c.save(); c.translate(13, VM.top + ph / 2); c.rotate(-Math.PI / 2); c.fillText("value", 0, 0); c.restore();
    c.font = "600 12px system-ui, sans-serif";
    c.fillText(`feature vector: ${n} numbers`, width / 2, 16);
  }

  function draw() {
    const t0 = performance.now();
    state.pending = false;
    const { patch, block } = state, image = images[state.image];
    const result = localEdgeHistograms(gradientOf(state.image), rows, cols, bins, patch, block);
    drawImage(result);
    drawVector(result);
    const { R, C, features } = result, n = features.length;
    const unused = rows * cols - R * C * patch * patch;
    const nb = (R - block + 1) * (C - block + 1);
    const hint = R === 1 && C === 1 ? (unused ? `One patch, the top left ${patch} × ${patch} pixels: its histogram says which stroke directions it holds, not where they are.` :
      "One patch holds the whole image: its histogram says which stroke directions there are, not where they are.") :
      R * C >= 36 ? "Small patches: a long vector, and each patch sees only the bit of stroke that passes through it." :
        "Each patch reports the directions of the strokes that pass through it.";
    const text = `${image.name}, ${rows} × ${cols} pixels: ${R} × ${C} patches of ${patch} × ${patch} pixels` +
      (unused ? ` (${unused} pixels at the right and bottom are in no patch and not used)` : "") +
      `. Blocks of ${block} × ${block} patches: ${nb} block${nb === 1 ? "" : "s"} of ${block * block * bins} numbers, ` +
      `a feature vector of ${n} numbers (the image has ${rows * cols} pixels). ${hint}`;
    readout.textContent = text;
    patchOut.textContent = `${patch} pixels (${R} × ${C})`;
    blockOut.textContent = `${block} × ${block} patches`;
    patchInput.setAttribute("aria-valuetext", `patches of ${patch} pixels, ${R} by ${C}`);
    blockInput.setAttribute("aria-valuetext", `blocks of ${block} by ${block} patches`);
    root.__liveEdges = { image: state.image, patch, block, rows: R, cols: C, histograms: result.histograms, features };
    Object.assign(root.dataset, { patch: String(patch), block: String(block), image: String(state.image), length: String(n) });
    finishDraw(root, state, live, text, t0);
  }

  const schedule = (event) => scheduleDraw(state, draw, event);
  // The three values go to the model together: the change events of the first must not
  // read the others' old values back.
  let saving = false;
  const save = () => {
    saving = true;
    model.set("patch", state.patch); model.set("block", state.block); model.set("image", state.image);
    saving = false;
    model.save_changes();
  };
  patchInput.addEventListener("input", (e) => {
    state.patch = Number(patchInput.value);
    state.block = Math.min(state.block, fitBlock(state.patch));
    blockInput.value = state.block;
    schedule(e);
  });
  blockInput.addEventListener("input", (e) => {
    state.block = Number(blockInput.value);
    state.patch = Math.min(state.patch, fitPatch(state.block));
    patchInput.value = state.patch;
    schedule(e);
  });
  patchInput.addEventListener("change", save);
  blockInput.addEventListener("change", save);
  if (chooser) chooser.addEventListener("change", (e) => { state.image = Number(chooser.value); schedule(e); save(); });
  const fromModel = () => {
    if (saving) return;
    const image = Math.min(Math.max(0, model.get("image")), images.length - 1);
    const patch = Math.min(Math.max(cfg.min_patch, model.get("patch")), side);
    const block = Math.min(Math.max(1, model.get("block")), fitBlock(patch));
    Object.assign(state, { image, patch, block });
    patchInput.value = patch; blockInput.value = block;
    if (chooser) chooser.value = String(image);
    schedule();
    if (block !== model.get("block") || patch !== model.get("patch") || image !== model.get("image")) save();
  };
  model.on("change:patch", fromModel);
  model.on("change:block", fromModel);
  model.on("change:image", fromModel);
  function layout() {
    imageW = Math.max(220, imageCanvas.getBoundingClientRect().width || 330);
    vectorW = Math.max(220, vectorCanvas.getBoundingClientRect().width || 330);
    ictx = null; vctx = null;
  }
  const stopWatching = watchWidth(figure, 680, () => { layout(); draw(); });
  return () => {
    stopWatching();
    model.off("change:patch", fromModel);
    model.off("change:block", fromModel);
    model.off("change:image", fromModel);
    removeKeys();
  };
}

export default { render };
