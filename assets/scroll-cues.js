// Boxes that scroll sideways say so, as figures do on a phone (figures.js):
// a table printed by a cell (its rows kept on one line, _ext/printed_tables.py),
// a table a cell shows (a DataFrame), a display equation, and a formula in a
// sentence, when any is wider than the text column, scroll
// in their own box, with a shadow at the edge that hides more (book.css) and
// a line under the box: "Scroll sideways to see the whole table →". A box
// that scrolls can be reached with the keyboard (and is then named as a
// region); one that fits has no line. Measured again when MathJax has typeset
// the page and whenever the window changes size.
(function () {
  "use strict";
  var KINDS = [
    {selector: "article .cell_output pre.printed-table", what: "table", name: "Printed table"},
    {selector: "article .cell_output div.output.text_html", what: "table", name: "Table"},
    {selector: 'article mjx-container[display="true"]', what: "equation", name: "Equation"},
    // A formula in a sentence: the theme's box around it (span.math) clips it; marked, it
    // scrolls instead (book.css), and the line goes under its paragraph.
    {selector: "article span.math", what: "formula", name: "Formula", inline: true},
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

  // A formula's line goes under its paragraph, or at the end of the list item (or cell) it is in.
  function inlineHint(block, what) {
    if (block.tagName === "P") return hintFor(block, what);
    var last = block.lastElementChild;
    if (last && last.classList.contains("scroll-hint")) return last;
    var hint = document.createElement("span");
    hint.className = "scroll-hint";
    hint.hidden = true;
    hint.textContent = "Scroll sideways to see the whole " + what + " \u2192";
    block.appendChild(hint);
    return hint;
  }

  function update() {
    KINDS.forEach(function (kind) {
      var blocks = new Map();
      document.querySelectorAll(kind.selector).forEach(function (box) {
        var scrolls;
        if (kind.inline) {
          var formula = box.querySelector("mjx-container");
          if (!formula) return;
          box.classList.remove("scrolls");  // measured at its natural width, in the theme's box
          scrolls = formula.getBoundingClientRect().width > box.clientWidth + 1;
          box.classList.toggle("scrolls", scrolls);
          var block = box.closest("p") || box.parentElement.closest("li, dd, td, th, div");
          if (block) blocks.set(block, (blocks.get(block) || false) || scrolls);
        } else {
          scrolls = box.scrollWidth > box.clientWidth + 1;
          box.classList.toggle("scrolls", scrolls);
          // An equation's line goes under its block (div.math lays out the equation and its number in a row).
          var anchor = box.parentElement.matches("div.math") ? box.parentElement : box;
          var next = anchor.nextElementSibling;
          if (scrolls || (next && next.classList.contains("scroll-hint"))) hintFor(anchor, kind.what).hidden = !scrolls;
        }
        if (box.tagName === "PRE" || box.tagName === "DIV" || kind.inline) {
          if (scrolls) {
            box.setAttribute("tabindex", "0");
            box.setAttribute("role", "region");
            box.setAttribute("aria-label", kind.name + " (scrolls sideways)");
          } else {
            ["tabindex", "role", "aria-label"].forEach(function (attr) { box.removeAttribute(attr); });
          }
        }
      });
      blocks.forEach(function (scrolls, block) {
        var last = block.tagName === "P" ? block.nextElementSibling : block.lastElementChild;
        if (scrolls || (last && last.classList.contains("scroll-hint"))) inlineHint(block, kind.what).hidden = !scrolls;
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
