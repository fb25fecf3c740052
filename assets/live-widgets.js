// Continuous widgets (mlrefined_lib.live) in the static book, without running
// code from the page's data. An anywidget model normally imports the JavaScript
// text stored in its own state (`_esm`); here the AMD module "anywidget" is a
// wrapper around the vendored anywidget front end that, before a model starts,
// points `_esm` at the copy of the widget's module that the book serves itself
// (tools/vendor_assets.py copies it from the installed packages), and gives any
// other anywidget a stand-in that says it needs a kernel.
(function () {
  var vendor = document.currentScript.src.replace(/[^/]*$/, "") + "vendor/";
  var known = {
    "mlrefined_lib.live.QuadraticDescent": vendor + "mlrefined/quadratic_descent.js",
    "mlrefined_lib.live.SoftmaxDescent": vendor + "mlrefined/quadratic_descent.js",
    "mlrefined_lib.live.MinibatchDescent": vendor + "mlrefined/quadratic_descent.js",
    "mlrefined_lib.live.PenaltyGeometry": vendor + "mlrefined/penalty_geometry.js",
    "mlrefined_lib.live.PolynomialFits": vendor + "mlrefined/polynomial_fits.js",
    "mlrefined_lib.live.WeightScale": vendor + "mlrefined/weight_scale.js",
    "mlrefined_lib.live.WindowSpectrogram": vendor + "mlrefined/spectrogram.js",
  };
  var standIn = vendor + "mlrefined/needs_kernel.js";
  require.config({
    paths: { "anywidget-vendored": vendor + "anywidget/index" },
    map: { "*": { anywidget: "live-anywidget" } },
  });
  define("live-anywidget", ["anywidget-vendored"], function (real) {
    class AnyModel extends real.AnyModel {
      initialize(attributes, options) {
        var url = known[this.get("_anywidget_id")] || standIn;
        this.set({ _esm: url, _css: "" }, { silent: true });
        super.initialize(attributes, options);
      }
    }
    return { AnyModel: AnyModel, AnyView: real.AnyView };
  });
})();
