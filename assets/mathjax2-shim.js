// The widgets' HTML manager typesets every widget label with MathJax 2's
// MathJax.Hub.Queue(["Typeset", MathJax.Hub, element]) whenever window.MathJax
// exists. The book loads MathJax 3, which has no Hub, so every labelled widget
// raised an error. This gives each object stored in window.MathJax a small,
// non-enumerable Hub (MathJax 3 never sees it while reading its configuration)
// that hands typesetting to MathJax 3 once it has loaded.
(function () {
  function addHub(mathjax) {
    if (!mathjax || typeof mathjax !== "object" || mathjax.Hub) return;
    Object.defineProperty(mathjax, "Hub", {
      enumerable: false,
      configurable: true,
      value: {
        Queue: function () {
          Array.prototype.forEach.call(arguments, function (job) {
            var current = window.MathJax;
            if (Array.isArray(job) && job[0] === "Typeset" && current && current.typesetPromise) {
              current.typesetPromise(job[2] ? [job[2]] : undefined).catch(function () {});
            }
          });
        },
      },
    });
  }
  var current = window.MathJax;
  addHub(current);
  Object.defineProperty(window, "MathJax", {
    configurable: true,
    enumerable: true,
    get: function () { return current; },
    set: function (value) { current = value; addHub(value); },
  });
})();
