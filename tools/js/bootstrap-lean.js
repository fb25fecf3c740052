// The theme's scripts/bootstrap.js, with only the parts of Bootstrap the book's
// pages use: dropdown menus (the header's launch and download buttons) and
// tooltips. tools/vendor_assets.py bundles this file with esbuild into
// assets/scripts/bootstrap.js, which replaces the theme's file of that name.
//
// The theme's own bundle loads every Bootstrap component, and nine of them
// (alerts, buttons, carousels, collapses, modals, off-canvas panels, tabs,
// toasts, scrollspy) listen to every click on the page, each searching the
// whole page for its controls; none of them is on any page of this book.
// The dropdown's own page-wide listeners go too (see below).
import EventHandler from "bootstrap/js/src/dom/event-handler.js";
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

// Dropdown menus. Bootstrap's data API listens to every click and key on the
// page and searches the whole page for dropdown toggles at each one (twice per
// click: a quarter of what a click costs on a long chapter page). The book's few
// toggles, all in the header, are known once the page is ready: each gets its own
// listeners, and the page-wide listener that closes a menu on a click elsewhere
// (or on Tab) works only while a menu is open.
EventHandler.off(document, ".bs.dropdown.data-api");
whenReady(() => {
  const open = new Set();
  document.querySelectorAll('[data-bs-toggle="dropdown"]').forEach((toggle) => {
    toggle.addEventListener("click", (event) => {
      event.preventDefault();
      Dropdown.getOrCreateInstance(toggle).toggle();
    });
    toggle.addEventListener("shown.bs.dropdown", () => open.add(toggle));
    toggle.addEventListener("hidden.bs.dropdown", () => open.delete(toggle));
    // Arrow keys move through the menu, Escape closes it (Bootstrap's own handler, told the toggle).
    const keys = (event) => Dropdown.dataApiKeydownHandler.call(toggle, event);
    toggle.addEventListener("keydown", keys);
    const menu = toggle.parentNode.querySelector(".dropdown-menu");
    if (menu) menu.addEventListener("keydown", keys);
  });
  const closeOthers = (event) => { if (open.size) Dropdown.clearMenus(event); };
  document.addEventListener("click", closeOthers);
  document.addEventListener("keyup", closeOthers);
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
