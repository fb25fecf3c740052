// Boxes that scroll sideways say so, as figures do on a phone (figures.js):
// a table printed by a cell (its rows kept on one line, _ext/printed_tables.py)
// and a display equation, when either is wider than the text column, scroll
// in their own box, with a shadow at the edge that hides more (book.css) and
// a line under the box: "Scroll sideways to see the whole table →". A box
// that scrolls can be reached with the keyboard (and is then named as a
// region); one that fits has no line. Measured again when MathJax has typeset
// the page and whenever the window changes size.
(function () {
  "use strict";
  var KINDS = [
    {selector: "article .cell_output pre.printed-table", what: "table", name: "Printed table"},
    {selector: 'article mjx-container[display="true"]', what: "equation", name: "Equation"},
  ];

  function hintFor(box, what) {
    var next = box.nextElementSibling;
    if (next && next.classList.contains("scroll-hint")) return next;
    var hint = document.createElement("p");
    hint.className = "scroll-hint";
    hint.hidden = true;
    hint.textContent = "Scroll sideways to see the whole " + what + " \u2192";
    box.insertAdjacentElement("afterend", hint);
    return hint;
  }

  function update() {
    KINDS.forEach(function (kind) {
      document.querySelectorAll(kind.selector).forEach(function (box) {
        var scrolls = box.scrollWidth > box.clientWidth + 1;
        box.classList.toggle("scrolls", scrolls);
        // An equation's line goes under its block (div.math lays out the equation and its number in a row).
        var anchor = box.parentElement.matches("div.math") ? box.parentElement : box;
        var next = anchor.nextElementSibling;
        if (scrolls || (next && next.classList.contains("scroll-hint"))) hintFor(anchor, kind.what).hidden = !scrolls;
        if (box.tagName === "PRE") {
          if (scrolls) {
            box.setAttribute("tabindex", "0");
            box.setAttribute("role", "region");
            box.setAttribute("aria-label", kind.name + " (scrolls sideways)");
          } else {
            ["tabindex", "role", "aria-label"].forEach(function (attr) { box.removeAttribute(attr); });
          }
        }
      });
    });
  }

  var waited = 0;
  function whenMathIsTypeset() {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
      MathJax.startup.promise.then(update);
    } else if (waited++ < 100) {
      setTimeout(whenMathIsTypeset, 100);
    }
  }

  function start() {
    update();
    whenMathIsTypeset();
    window.addEventListener("resize", update);
    window.addEventListener("load", update);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
