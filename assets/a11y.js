// Names and descriptions that screen readers need, for parts of the page that
// the themes leave unnamed. (The live widgets name their own controls:
// mlrefined_lib/static/_shared.js.)
//
// * Search buttons: their accessible name ("Search") did not contain their
//   visible text ("Search Ctrl+K"); voice-control users say what they see.
// * Collapsible contents entries: the <summary> that opens a chapter's
//   sections shows only a chevron; name it after the chapter.
// * Collapsed code cells: the <summary> that opens one says what it shows
//   ("Extra code: show source"); MyST-NB names it "Toggle hidden content"
//   instead, which voice-control users cannot say. It keeps its visible text.
// * The light/dark switch: its icons (Font Awesome draws each as an SVG
//   titled "Light", "Dark", "System Settings") are decoration; the button is
//   named after what it does and the mode in force ("Color mode: dark").
// * Folded boxes: a solution's button says what it opens ("Show solution to
//   Exercise 3.5"), not "Toggle hidden content".
(function () {
  "use strict";

  function text(el) {
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function nameSearchButtons() {
    document.querySelectorAll(".search-button-field").forEach(function (button) {
      var visible = text(button);
      if (visible && button.getAttribute("aria-label") !== visible) button.setAttribute("aria-label", visible);
    });
  }

  function nameSummaries() {
    document.querySelectorAll("nav summary, .bd-sidebar summary").forEach(function (summary) {
      if (text(summary) || summary.hasAttribute("aria-label")) return;
      var link = summary.parentElement && summary.parentElement.parentElement &&
        summary.parentElement.parentElement.querySelector(":scope > a");
      var title = text(link) || "this chapter";
      summary.setAttribute("aria-label", "Sections of " + title);
    });
  }

  // A code cell or output wider than the page scrolls sideways; keyboard
  // users reach its hidden part only if it can take the focus.
  function focusScrollables() {
    // A formula is no Tab stop (_config.yml: MathJax's inTabOrder), except one
    // wider than the screen, which scrolls in its own box.
    document.querySelectorAll("article pre, article .cell_output, article .output, article .table-wrapper, " +
                              "article mjx-container[display=true]")
      .forEach(function (el) {
        var style = window.getComputedStyle(el);
        var scrolls = (/(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1) ||
          (/(auto|scroll)/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1);
        if (scrolls && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
        else if (!scrolls && el.getAttribute("tabindex") === "0" && el.hasAttribute("data-a11y-focus")) el.removeAttribute("tabindex");
        if (scrolls) el.setAttribute("data-a11y-focus", "");
      });
  }

  function nameCellToggles() {
    document.querySelectorAll("details.hide > summary[aria-label]").forEach(function (summary) {
      var visible = Array.prototype.filter.call(summary.children, function (child) {
        return child.offsetParent !== null;
      }).map(text).join(" ");
      if (visible && summary.getAttribute("aria-label").indexOf(visible) === -1) summary.removeAttribute("aria-label");
    });
  }

  // Folded boxes (sphinx-togglebutton): the button that opens a solution is
  // named "Toggle hidden content", like every other. Name it after what it
  // opens, and what a press does: "Show solution to Exercise 3.5", "Hide ..."
  // once open (aria-expanded says the same to a screen reader).
  function nameFoldToggles() {
    document.querySelectorAll(".admonition .admonition-title > button.toggle-button").forEach(function (button) {
      var title = button.parentElement.cloneNode(true);
      title.querySelectorAll("button").forEach(function (b) { b.remove(); });
      var words = text(title);
      var exercise = /^Solution to (Exercise\s+[\d.]+)/.exec(words);
      var what = exercise ? "solution to " + exercise[1] : words.replace(/^\w/, function (c) { return c.toLowerCase(); });
      var name = (button.getAttribute("aria-expanded") === "true" ? "Hide " : "Show ") + (what || "this box");
      if (button.getAttribute("aria-label") !== name) button.setAttribute("aria-label", name);
    });
  }

  var MODE_NAMES = { light: "light", dark: "dark", auto: "as the system" };

  function nameThemeSwitch() {
    var mode = MODE_NAMES[document.documentElement.dataset.mode] || "as the system";
    document.querySelectorAll(".theme-switch-button").forEach(function (button) {
      button.querySelectorAll("svg, i").forEach(function (icon) {
        if (icon.getAttribute("aria-hidden") !== "true") icon.setAttribute("aria-hidden", "true");
        ["role", "title", "aria-labelledby"].forEach(function (attr) {
          if (icon.hasAttribute(attr)) icon.removeAttribute(attr);
        });
      });
      button.querySelectorAll("svg title").forEach(function (title) { title.remove(); });
      var name = "Color mode: " + mode;
      if (button.getAttribute("aria-label") !== name) button.setAttribute("aria-label", name);
    });
  }

  function inWidget(node) {
    var element = node.nodeType === 1 ? node : node.parentElement;
    return Boolean(element && element.closest(".mlr-widget"));
  }

  var pending = false;
  function update() {
    pending = false;
    nameSearchButtons();
    nameThemeSwitch();
    nameCellToggles();
    nameSummaries();
    nameFoldToggles();
  }
  function schedule() {
    if (!pending) {
      pending = true;
      window.requestAnimationFrame(update);
    }
  }

  function start() {
    update();
    new MutationObserver(schedule).observe(document.documentElement, { attributes: true, attributeFilter: ["data-mode"] });
    // A fold's button says "Show" or "Hide" as the box opens and closes.
    new MutationObserver(schedule).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["aria-expanded"] });
    focusScrollables();
    window.addEventListener("resize", focusScrollables);
    window.addEventListener("load", function () {
      focusScrollables();
      // MathJax typesets after the page has loaded (its formulas scroll once drawn).
      if (window.MathJax && MathJax.startup && MathJax.startup.promise) MathJax.startup.promise.then(focusScrollables);
    });
    // The theme adds parts of the page (search, contents) after it loads. A
    // live widget redraws its own readouts at every input: those changes
    // name nothing here, and a pass over the page (which measures the layout)
    // would cost each redraw a full layout.
    new MutationObserver(function (records) {
      if (records.some(function (record) { return record.type === "childList" && !inWidget(record.target); })) schedule();
    }).observe(document.body, { subtree: true, childList: true });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
