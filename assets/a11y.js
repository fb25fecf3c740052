// Names and descriptions that screen readers need, for parts of the page that
// the themes and the widget manager leave unnamed.
//
// * Search buttons: their accessible name ("Search") did not contain their
//   visible text ("Search Ctrl+K"); voice-control users say what they see.
// * Collapsible contents entries: the <summary> that opens a chapter's
//   sections shows only a chevron; name it after the chapter.
// * Sliders: the handle (role="slider") gets the slider's label as its name and
//   announces the readout (the value the reader sees, for example
//   "alpha = 0.01"), not the frame index.
// * Play buttons: named after their icon (Play, Pause, Stop, Repeat).
// * Slider frames: an image keeps the alt text set in Python (its tooltip) or
//   is described by its slider's label and readout.
// * Collapsed code cells: the <summary> that opens one says what it shows
//   ("Extra code: show source"); MyST-NB names it "Toggle hidden content"
//   instead, which voice-control users cannot say. It keeps its visible text.
// * The light/dark switch: its icons (Font Awesome draws each as an SVG
//   titled "Light", "Dark", "System Settings") are decoration; the button is
//   named after what it does and the mode in force ("Color mode: dark").
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

  var ICON_NAMES = { "fa-play": "Play", "fa-pause": "Pause", "fa-stop": "Stop", "fa-retweet": "Repeat", "fa-repeat": "Repeat" };

  function nameWidgetButtons(root) {
    root.querySelectorAll("button.jupyter-button").forEach(function (button) {
      if (text(button)) return;
      var icon = button.querySelector("i[class*='fa-']");
      if (!icon) return;
      var name = null;
      Object.keys(ICON_NAMES).forEach(function (cls) {
        if (icon.classList.contains(cls)) name = ICON_NAMES[cls];
      });
      if (name && button.getAttribute("aria-label") !== name) button.setAttribute("aria-label", name);
    });
  }

  // A slider row: label, track (noUi-target with its handle) and readout.
  function sliderParts(row) {
    return {
      label: text(row.querySelector(".widget-label")),
      handle: row.querySelector(".noUi-handle"),
      readout: text(row.querySelector(".widget-readout")),
    };
  }

  function nameSliders(root) {
    root.querySelectorAll(".widget-slider, .jupyter-widget-slider").forEach(function (row) {
      // The widget manager writes the text "null" as the label's tooltip.
      var label = row.querySelector(".widget-label[title='null']");
      if (label) label.removeAttribute("title");
      var parts = sliderParts(row);
      if (!parts.handle) return;
      var name = parts.label || "slider";
      if (parts.handle.getAttribute("aria-label") !== name) parts.handle.setAttribute("aria-label", name);
      var spoken = parts.label ? parts.label + " = " + parts.readout : parts.readout;
      if (parts.readout && parts.handle.getAttribute("aria-valuetext") !== spoken) {
        parts.handle.setAttribute("aria-valuetext", spoken);
      }
    });
  }

  // Frames live in a Stack next to the row that holds their slider.
  function describeFrames(root) {
    root.querySelectorAll("img.widget-image").forEach(function (img) {
      var title = img.getAttribute("title");
      if (title) {
        if (img.getAttribute("alt") !== title) img.setAttribute("alt", title);
        return;
      }
      // The Stack shows one frame at a time: the one the readout names.
      var box = img.closest(".widget-vbox, .jupyter-widget-vbox");
      var row = box && box.querySelector(".widget-slider, .jupyter-widget-slider");
      var alt = "Figure";
      if (row) {
        var parts = sliderParts(row);
        alt = "Figure for " + (parts.label || "the slider") + " = " + parts.readout;
      }
      if (img.getAttribute("alt") !== alt) img.setAttribute("alt", alt);
    });
  }

  // A code cell or output wider than the page scrolls sideways; keyboard
  // users reach its hidden part only if it can take the focus.
  function focusScrollables() {
    document.querySelectorAll("article pre, article .cell_output, article .output, article .table-wrapper")
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

  var pending = false;
  function update() {
    pending = false;
    nameSearchButtons();
    nameThemeSwitch();
    nameCellToggles();
    nameSummaries();
    document.querySelectorAll(".jupyter-widgets, .widget-subarea").forEach(function (root) {
      nameWidgetButtons(root);
      nameSliders(root);
      describeFrames(root);
    });
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
    focusScrollables();
    window.addEventListener("resize", focusScrollables);
    window.addEventListener("load", focusScrollables);
    // Widgets render after the page loads, and readouts change as the reader
    // drags: follow both.
    new MutationObserver(function (records) {
      for (var i = 0; i < records.length; i++) {
        var target = records[i].target;
        var el = target.nodeType === 1 ? target : target.parentElement;
        if (el && (el.closest(".jupyter-widgets, .widget-subarea") || records[i].type === "childList")) {
          schedule();
          return;
        }
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true,
                                 attributes: true, attributeFilter: ["class", "aria-valuetext"] });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
