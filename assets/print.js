// The printed book (File > Print, and `make pdf`, which prints each page with
// Chromium): book.css's print rules hide the controls and show each widget's
// picture (its first frame, or a continuous widget's initial view). Here each
// such picture gets one line saying where the figure is interactive: this
// page in the online book (its canonical address, from `html.baseurl` in
// _config.yml; the page's own address when the book has none). On screen the
// line is hidden. The solutions are printed together at the page's end (below).
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

  // Printed, a page's solutions come together at its end, in a section
  // "Solutions" (each under its title, "Solution to Exercise 7.2 (...)"),
  // instead of open after each exercise; without the fold's chevron. After
  // printing they go back where they were. `make pdf` (tools/pdf.py) calls
  // this before printing each page.
  var moved = [];
  function gatherSolutions() {
    if (moved.length) return 0;
    var article = document.querySelector("article.bd-article");
    var solutions = article ? Array.prototype.slice.call(article.querySelectorAll("div.solution")) : [];
    if (!solutions.length) return 0;
    var section = document.createElement("section");
    section.className = "print-solutions";
    var heading = document.createElement("h2");
    heading.textContent = "Solutions";
    section.appendChild(heading);
    solutions.forEach(function (box) {
      var mark = document.createComment("solution");
      box.parentNode.insertBefore(mark, box);
      moved.push([box, mark]);
      section.appendChild(box);
    });
    article.appendChild(section);
    return solutions.length;
  }
  function restoreSolutions() {
    if (!moved.length) return;
    var section = document.querySelector("section.print-solutions");
    moved.forEach(function (pair) { pair[1].parentNode.replaceChild(pair[0], pair[1]); });
    moved = [];
    if (section) section.remove();
  }
  window.bookGatherSolutions = gatherSolutions;

  patchSearch();
  window.addEventListener("beforeprint", addNotes);
  window.addEventListener("beforeprint", gatherSolutions);
  window.addEventListener("afterprint", restoreSolutions);
  function start() {
    patchSearch();
    addNotes();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
