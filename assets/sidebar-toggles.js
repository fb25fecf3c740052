// Make the sidebar buttons in the article header work, and show the sidebar's top.
//
// pydata-sphinx-theme 0.17 adds its own (hidden) sidebar buttons to the top
// bar, ahead of the book theme's visible ones in the article header. Both
// themes attach their click handlers to the FIRST element with the class
// `primary-toggle` / `secondary-toggle` only, so the visible buttons get none:
// on a phone the contents could not be opened, and on a desktop the sidebar
// could not be collapsed. Here every later button of the same kind passes its
// click on to the first one, whose handlers then do what the theme intends
// (open the navigation as a dialog on a narrow screen, collapse or expand the
// sidebar on a wide one).
(function () {
  function forward(kind) {
    var buttons = document.querySelectorAll("." + kind);
    if (buttons.length < 2) return;
    var first = buttons[0];
    for (var i = 1; i < buttons.length; i++) {
      buttons[i].addEventListener("click", function (event) {
        event.preventDefault();
        event.stopPropagation();
        first.click();
      });
    }
  }
  // On a wide screen the theme scrolls the contents so that the current page's
  // entry sits a quarter of the way down (or where the last page left it),
  // which hides the book's title and the search box above it. The sidebar
  // starts at its top instead; the current entry is marked there as before.
  function showTop() {
    var sidebar = document.querySelector("div.bd-sidebar-primary");
    if (sidebar && window.innerWidth >= 960) sidebar.scrollTop = 0;
  }
  function setup() {
    forward("primary-toggle");
    forward("secondary-toggle");
    window.setTimeout(showTop, 0);  // after the theme's own scroll (on the same event)
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
