// The printed book (File > Print, and `make pdf`, which prints each page with
// Chromium): book.css's print rules hide the controls and show each widget's
// picture (its first frame, or a continuous widget's initial view). Here each
// such picture gets one line saying where the figure is interactive: this
// page in the online book (its canonical address, from `html.baseurl` in
// _config.yml; the page's own address when the book has none). On screen the
// line is hidden.
(function () {
  "use strict";

  function onlineAddress() {
    var canonical = document.querySelector('link[rel="canonical"]');
    var url = canonical ? canonical.href : window.location.href;
    return url.replace(/#.*$/, "");
  }

  function addNotes() {
    var url = onlineAddress();
    document.querySelectorAll("img.widget-fallback").forEach(function (img) {
      // Printed pages show every picture, lazy or not.
      img.loading = "eager";
      var next = img.nextElementSibling;
      if (next && next.classList.contains("widget-print-note")) return;
      var note = document.createElement("p");
      note.className = "widget-print-note";
      note.appendChild(document.createTextNode("Interactive in the online book: "));
      var link = document.createElement("a");
      link.href = url;
      link.textContent = url;
      note.appendChild(link);
      img.insertAdjacentElement("afterend", note);
    });
  }

  // Sphinx's search page shows, under each hit, an excerpt of the page's main
  // text. The theme's buttons (launch on Binder, download as .md/.ipynb) and
  // the code of collapsed cells are part of that HTML, and so are the
  // theme's print-only title and contents list, so excerpts read "...Binder",
  // "....md" or "...Standard normalization Contents...". Drop them before the
  // excerpt is taken.
  var NOT_TEXT = [
    ".bd-header-article", ".onlyprint", "#jb-print-docs-body", ".header-article-items", ".dropdown-menu", ".prev-next-area",
    ".cell.tag_hide-input > .cell_input", ".cell.tag_hide-cell", ".cell.tag_remove-input > .cell_input",
    ".toggle-details", "details.hide", ".widget-print-note", ".headerlink", "script", "style",
  ].join(", ");

  function patchSearch() {
    // searchtools.js declares `const Search`: a global name, not a window property.
    var search = typeof Search !== "undefined" ? Search : window.Search;
    if (!search || typeof search.htmlToText !== "function" || search.htmlToText.__bookPatched) return;
    var original = search.htmlToText;
    var patched = function (htmlString, anchor) {
      try {
        var doc = new DOMParser().parseFromString(htmlString, "text/html");
        doc.querySelectorAll(NOT_TEXT).forEach(function (el) { el.remove(); });
        htmlString = doc.documentElement.outerHTML;
      } catch (error) { /* keep the page as it was */ }
      return original.call(this, htmlString, anchor);
    };
    patched.__bookPatched = true;
    search.htmlToText = patched;
  }

  patchSearch();
  window.addEventListener("beforeprint", addNotes);
  function start() {
    patchSearch();
    addNotes();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
