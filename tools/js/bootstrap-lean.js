// The theme's scripts/bootstrap.js, with only the parts of Bootstrap the book's
// pages use: dropdown menus (the header's launch and download buttons) and
// tooltips. tools/vendor_assets.py bundles this file with esbuild into
// assets/scripts/bootstrap.js, which replaces the theme's file of that name.
//
// The theme's own bundle loads every Bootstrap component, and nine of them
// (alerts, buttons, carousels, collapses, modals, off-canvas panels, tabs,
// toasts, scrollspy) listen to every click on the page, each searching the
// whole page for its controls; none of them is on any page of this book.
import Dropdown from "bootstrap/js/src/dropdown.js";
import Tooltip from "bootstrap/js/src/tooltip.js";

function whenReady(callback) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", callback);
  else callback();
}

// As the theme does: every element marked as having a tooltip gets one, shown
// after half a second.
whenReady(() => {
  document.querySelectorAll('[data-bs-toggle="tooltip"]').forEach((element) => {
    new Tooltip(element, { delay: { show: 500, hide: 100 } });
  });
});

// The theme's "back to top" button: it scrolls to the top, and it shows while
// the reader scrolls up, once the header is out of sight.
whenReady(() => {
  const button = document.getElementById("pst-back-to-top");
  if (!button) return;
  button.addEventListener("click", () => {
    document.body.scrollTop = 0;
    document.documentElement.scrollTop = 0;
  });
  const header = document.getElementsByClassName("bd-header")[0];
  const headerBottom = header ? header.getBoundingClientRect().bottom : 0;
  let lastScroll = window.scrollY;
  window.addEventListener("scroll", () => {
    button.style.display = lastScroll > window.scrollY && window.scrollY > headerBottom ? "block" : "none";
    lastScroll = window.scrollY;
  });
});

// The theme's other scripts reach Bootstrap through this global (its version
// switcher and sidebar tooltips use bootstrap.Tooltip).
window.bootstrap = { Dropdown, Tooltip };
