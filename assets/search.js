// The book's search page, with Pagefind: the index is built with the book
// (_ext/search_index.py runs Pagefind on the built pages; it indexes each
// page's text, not its code, printed output, math source or buttons) and
// searched in the browser, with no server and nothing fetched from another
// machine. Results are ranked pages, each leading to its section that best
// matches the words (a link to that heading), with an excerpt of the text
// and the page's other matching sections under it. When the index cannot be
// loaded (a copy of the book opened from disk, say), Sphinx's own search runs
// as before.
(function () {
  "use strict";
  var SECTIONS_SHOWN = 3;
  var PAGES_SHOWN = 20;

  function root() {
    var content = document.documentElement.dataset.content_root;
    if (content !== undefined) return content;
    return (window.DOCUMENTATION_OPTIONS && DOCUMENTATION_OPTIONS.URL_ROOT) || "";
  }

  function element(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // Pagefind's excerpts are the page's text (escaped) with <mark> around the words found.
  function excerpt(html) {
    var p = element("p", "context");
    p.innerHTML = html;
    p.querySelectorAll("*:not(mark)").forEach(function (e) { e.replaceWith(document.createTextNode(e.textContent)); });
    return p;
  }

  // A page's sections that hold the words, best first: a section whose heading names a word
  // of the query (its first five letters, so that "standardize" finds "Standardization"),
  // then the most matches, then the earliest.
  function rankedSections(data, query) {
    var stems = query.toLowerCase().split(/\s+/).filter(Boolean).map(function (w) { return w.slice(0, 5); });
    var named = function (s) {
      var title = (s.title || "").toLowerCase();
      return stems.some(function (stem) { return title.indexOf(stem) >= 0; }) ? 1 : 0;
    };
    var sections = (data.sub_results || []).filter(function (s) { return s.locations && s.locations.length; });
    return sections
      .map(function (s, i) { return {s: s, i: i, named: named(s)}; })
      .sort(function (a, b) {
        return (b.named - a.named) || (b.s.locations.length - a.s.locations.length) || (a.i - b.i);
      })
      .map(function (x) { return x.s; });
  }

  async function pagefindSearch(query) {
    // Resolved against the page (an import() would resolve a relative address against this script).
    var pagefind = await import(new URL(root() + "pagefind/pagefind.js", window.location.href).href);
    // Result addresses start from the book's root, wherever it is served (a folder of a site, say).
    await pagefind.options({excerptLength: 30, baseUrl: new URL(root() || "./", window.location.href).pathname});
    var found = await pagefind.search(query);
    var pages = await Promise.all(found.results.slice(0, PAGES_SHOWN).map(function (r) { return r.data(); }));
    var out = document.getElementById("search-results");
    out.textContent = "";
    out.appendChild(element("h2", "", "Search Results"));
    out.appendChild(element("p", "search-summary", pages.length
      ? "Found " + found.results.length + " page(s) for \u201c" + query + "\u201d, the best match first."
      : "No page holds \u201c" + query + "\u201d. Check the spelling, or try fewer words."));
    var list = element("ul", "search pagefind-results");
    pages.forEach(function (data) {
      var sections = rankedSections(data, query);
      var best = sections[0];
      var item = element("li");
      var title = element("a", "", data.meta && data.meta.title ? data.meta.title : data.url);
      title.href = best ? best.url : data.url;
      item.appendChild(title);
      if (best && best.title && best.title !== (data.meta && data.meta.title)) {
        item.appendChild(document.createTextNode(" \u203a "));
        item.appendChild(element("span", "pagefind-section", best.title));
      }
      item.appendChild(excerpt(best ? best.excerpt : data.excerpt));
      var more = sections.slice(1, SECTIONS_SHOWN);
      if (more.length) {
        var others = element("ul", "pagefind-more");
        more.forEach(function (s) {
          var li = element("li");
          var a = element("a", "", s.title);
          a.href = s.url;
          li.appendChild(a);
          others.appendChild(li);
        });
        item.appendChild(others);
      }
      list.appendChild(item);
    });
    out.appendChild(list);
    out.dataset.engine = "pagefind";
  }

  function start() {
    // searchtools.js declares `const Search`: a global name, not a window property.
    var search = typeof Search !== "undefined" ? Search : null;
    if (!search || !document.getElementById("search-results") || search.performSearch.__pagefind) return;
    var sphinxSearch = search.performSearch;
    var replaced = function (query) {
      pagefindSearch(query).catch(function (error) {
        console.warn("Pagefind's index could not be loaded; Sphinx's search runs instead.", error);
        sphinxSearch.call(search, query);
      });
    };
    replaced.__pagefind = true;
    search.performSearch = replaced;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
