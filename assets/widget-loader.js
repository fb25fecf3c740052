// The live widgets of the static book (mlrefined_lib.live), drawn from the state
// the notebook saved, without the Jupyter widget manager and without running code
// from the page's data.
//
// A page with widgets holds their saved state (a script of type
// application/vnd.jupyter.widget-state+json) and, where each widget is shown, a
// script of type application/vnd.jupyter.widget-view+json naming its model. For
// each view this module finds the model; if it is one of the book's anywidgets
// (its `_anywidget_id` is listed in MODULES), it imports that widget's front end
// from the copy the book serves itself (`_static/vendor/mlrefined/`, written by
// tools/vendor_assets.py; the address is built from this file's own, never from
// the state) and renders it, with the model interface anywidget gives a module,
// into a `div.mlr-widget` placed after the view script. The `_esm` text stored
// in the state is never evaluated. Any other widget gets a stand-in that says it
// needs a kernel. Once a widget has drawn, its host gets the class `mlr-drawn`
// and book.css hides the still picture in front of it.

const VENDOR = new URL("vendor/mlrefined/", import.meta.url);
const MODULES = new Map([
  ["mlrefined_lib.live.QuadraticDescent", "quadratic_descent.js"],
  ["mlrefined_lib.live.SoftmaxDescent", "quadratic_descent.js"],
  ["mlrefined_lib.live.MinibatchDescent", "quadratic_descent.js"],
  ["mlrefined_lib.live.PenaltyGeometry", "penalty_geometry.js"],
  ["mlrefined_lib.live.PolynomialFits", "polynomial_fits.js"],
  ["mlrefined_lib.live.WeightScale", "weight_scale.js"],
  ["mlrefined_lib.live.WindowSpectrogram", "spectrogram.js"],
  ["mlrefined_lib.live.DegreeFolds", "degree_folds.js"],
  ["mlrefined_lib.live.BoostingRounds", "boosting_rounds.js"],
  ["mlrefined_lib.live.CategoryCodes", "category_codes.js"],
  ["mlrefined_lib.live.ThresholdCurve", "threshold_curve.js"],
  ["mlrefined_lib.live.MissingValues", "missing_values.js"],
  ["mlrefined_lib.live.TextFeatures", "text_features.js"],
  ["mlrefined_lib.live.EdgeHistograms", "edge_histograms.js"],
]);
const STAND_IN = "needs_kernel.js";
const STATE_TYPE = "application/vnd.jupyter.widget-state+json";
const VIEW_TYPE = "application/vnd.jupyter.widget-view+json";

// Two values are the same if their JSON is: the model's values are JSON data.
const same = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);

// What anywidget gives a module: get, set (a change event per changed name, as
// Backbone does), on/off, save_changes and send (nothing to send them to here).
class Model {
  constructor(attributes) {
    this.attributes = { ...attributes };
    this.listeners = new Map();
  }
  get(name) {
    return this.attributes[name];
  }
  set(name, value) {
    const changes = typeof name === "object" ? name : { [name]: value };
    const changed = Object.keys(changes).filter((key) => !same(this.attributes[key], changes[key]));
    Object.assign(this.attributes, changes);
    for (const key of changed) this.emit(`change:${key}`, changes[key]);
    if (changed.length) this.emit("change");
  }
  on(event, callback) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event).add(callback);
  }
  off(event, callback) {
    if (event === undefined) this.listeners.clear();
    else if (callback === undefined) this.listeners.delete(event);
    else if (this.listeners.has(event)) this.listeners.get(event).delete(callback);
  }
  emit(event, value) {
    for (const callback of [...(this.listeners.get(event) || [])]) callback(this, value);
  }
  save_changes() {}
  send() {}
}

function moduleFile(entry) {
  const isAnyWidget = entry && entry.model_module === "anywidget" && entry.model_name === "AnyModel";
  const id = isAnyWidget && entry.state ? entry.state._anywidget_id : null;
  return (typeof id === "string" && MODULES.get(id)) || STAND_IN;
}

const imported = new Map();
function load(file) {
  if (!imported.has(file)) imported.set(file, import(new URL(file, VENDOR).href));
  return imported.get(file);
}

async function show(script, state, models) {
  const host = document.createElement("div");
  host.className = "mlr-widget";
  script.after(host);
  const modelId = JSON.parse(script.textContent).model_id;
  const entry = Object.hasOwn(state, modelId) ? state[modelId] : null;
  const file = moduleFile(entry);
  const module = await load(file);
  const exported = module.default || module;
  const widget = typeof exported === "function" ? await exported() : exported;
  let model = models.get(modelId);
  if (!model) {
    model = new Model(file === STAND_IN ? {} : entry.state);
    models.set(modelId, model);
    if (widget.initialize) await widget.initialize({ model });
  }
  const el = document.createElement("div");
  host.append(el);
  await widget.render({ model, el });
  host.classList.add("mlr-drawn");
}

// The saved state, once the parser has read all of it (a script cut short by the
// network is not yet valid JSON), or null.
function parsedState() {
  const script = document.querySelector(`script[type="${STATE_TYPE}"]`);
  if (!script) return null;
  try {
    return JSON.parse(script.textContent).state || {};
  } catch (error) {
    return null;
  }
}

function start(state) {
  const models = new Map();
  for (const script of document.querySelectorAll(`script[type="${VIEW_TYPE}"]`)) {
    show(script, state, models).catch((error) => console.error("widget-loader: a widget could not be drawn", error));
  }
}

// The page loads this module with `async`, so it may run while the page is
// still arriving. The state is the last thing in the page's body (after every
// view, _ext/widget_pages.py puts it there): the widgets start as soon as it is
// parsed, without waiting for the scripts that run when parsing ends (MathJax).
function startWhenParsed() {
  let started = false;
  const begin = () => {
    if (started) return;
    const state = parsedState();
    if (state === null && document.readyState === "loading") return;
    started = true;
    observer.disconnect();
    if (state === null && document.querySelector(`script[type="${STATE_TYPE}"]`)) {
      console.error("widget-loader: the page's widget state is not valid JSON");
    }
    start(state || {});
  };
  const observer = new MutationObserver(begin);
  if (document.readyState === "loading") {
    observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
    document.addEventListener("DOMContentLoaded", begin, { once: true });
  }
  begin();
}

startWhenParsed();
