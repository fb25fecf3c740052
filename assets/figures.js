// Figures on a phone. Every output figure's text is at least 9 pt at 90 dpi
// in its PNG (11.25 px; tests/harness checks it). Shrunk to a 390 px screen,
// a wide multi-panel figure would show that text at 4-5 px, so each one comes
// with a narrow layout, its panels stacked, which a <picture> serves to
// screens up to 700 px wide (_ext/narrow_figures.py): it fits the column with
// its text at 8 px or more. Any other figure is shown, on narrow screens, at
// 72% of its width or more (its text at least 8 px): one wider than the
// screen scrolls sideways in its own box, with a line under it saying so.
// The link to the full-size PNG stays. Wide screens are unchanged (book.css
// applies the minimum width below 700 px only). The sizes are measured again
// whenever a <picture> switches source (a phone turned, a window resized).
(function () {
  "use strict";
  var MIN_SCALE = 0.72;

  function figures() {
    return Array.prototype.filter.call(
      document.querySelectorAll("article .cell_output img"),
      function (img) {
        return !img.classList.contains("widget-fallback") && !img.closest(".jupyter-widgets, .widget-subarea");
      });
  }

  function wrap(img) {
    var outer = img.closest("a.figure-full") || img;
    if (outer.parentElement.classList.contains("figure-scroll")) return outer.parentElement;
    var box = document.createElement("div");
    box.className = "figure-scroll";
    outer.parentElement.insertBefore(box, outer);
    box.appendChild(outer);
    var hint = document.createElement("p");
    hint.className = "figure-scroll-hint";
    hint.textContent = "Scroll sideways to see the whole figure \u2192";
    box.insertAdjacentElement("afterend", hint);
    return box;
  }

  function update() {
    figures().forEach(function (img) {
      if (!img.naturalWidth) return;
      var box = wrap(img);
      img.style.setProperty("--figure-min-width", Math.round(img.naturalWidth * MIN_SCALE) + "px");
      var scrolls = box.scrollWidth > box.clientWidth + 1;
      box.classList.toggle("scrolls", scrolls);
      if (scrolls) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", (img.getAttribute("alt") || "Figure") + " (scrolls sideways)");
      } else {
        ["tabindex", "role", "aria-label"].forEach(function (attr) { box.removeAttribute(attr); });
      }
    });
  }

  function start() {
    figures().forEach(function (img) {
      img.addEventListener("load", update);
    });
    update();
    window.addEventListener("resize", update);
    window.addEventListener("load", update);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
