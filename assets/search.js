// The book's search page, with Pagefind: the index is built with the book
// (_ext/search_index.py runs Pagefind on the built pages; it indexes each
// page's text, not its code, printed output, math source or buttons) and
// searched in the browser, with no server and nothing fetched from another
// machine. Results are ranked pages, each leading to its section that best
// matches the words (a link to that heading), with an excerpt of the text
// and the page's other matching sections under it. A section whose heading
// holds more of the query's words comes first on its page (a chapter's
// summary, exercises and references last), and among the pages one whose
// section's heading names a word, or whose references cite it, comes first.
// A page's title counts for none: "imputation MNAR" leads to chapter 8's
// section on why values are missing, not to the chapter's top. When the index cannot be
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

  // A page's top: the section that its title (h1) heads. Its title is the page's, not a section's.
  function isTop(s) {
    return (s.anchor && /^h1$/i.test(s.anchor.element || "")) || s.url.indexOf("#") < 0;
  }

  // Each section that holds the words, scored: how many words of the query its heading
  // names (their first five letters, so that "standardize" finds "Standardization"; a
  // page's title names none: it would win every search for a word of it), how many of
  // the query's words it holds (`holds`: section address -> that number, for a query of
  // several words), and how strongly (Pagefind's weighted matches: headings weigh more).
  function scoredSections(data, stems, holds) {
    var sections = (data.sub_results || []).filter(function (s) { return s.locations && s.locations.length; });
    return sections.map(function (s, i) {
      var title = (s.title || "").toLowerCase();
      var weight = (s.weighted_locations || []).reduce(function (sum, w) { return sum + (w.balanced_score || w.weight || 1); }, 0);
      return {s: s, i: i, weight: weight || s.locations.length, words: holds ? (holds[s.url] || 0) : 1, back: isBack(s) ? 1 : 0,
              named: isTop(s) ? 0 : stems.filter(function (stem) { return title.indexOf(stem) >= 0; }).length};
    }).sort(bySection);
  }

  // A chapter's closing sections restate or exercise what its sections teach: they come last.
  var BACK_MATTER = /^[\d.]*\s*(Summary|Exercises|References|In practice)\b/i;
  function isBack(s) { return BACK_MATTER.test(s.title || ""); }

  function bySection(a, b) {
    return (a.back - b.back) || (b.words - a.words) || (b.named - a.named) || (b.weight - a.weight) || (a.i - b.i);
  }

  // A page whose references cite a word of the query (McNemar, 1947) is where the book teaches it.
  function cites(data) {
    return (data.sub_results || []).some(function (s) {
      return /References$/i.test(s.title || "") && s.locations && s.locations.length;
    }) ? 1 : 0;
  }

  // For a query of several words: for each page, section address -> how many of the words it holds.
  async function wordsHeld(pagefind, words, urls) {
    var held = {};
    await Promise.all(words.map(async function (word) {
      var found = await pagefind.search(word);
      var pages = await Promise.all(found.results.map(function (r) { return r.data(); }));
      pages.forEach(function (data) {
        if (urls.indexOf(data.url) < 0) return;
        var page = held[data.url] = held[data.url] || {};
        (data.sub_results || []).forEach(function (s) {
          if (s.locations && s.locations.length) page[s.url] = (page[s.url] || 0) + 1;
        });
      });
    }));
    return held;
  }

  async function pagefindSearch(query) {
    // Resolved against the page (an import() would resolve a relative address against this script).
    var pagefind = await import(new URL(root() + "pagefind/pagefind.js", window.location.href).href);
    // Result addresses start from the book's root, wherever it is served (a folder of a site, say).
    await pagefind.options({excerptLength: 30, baseUrl: new URL(root() || "./", window.location.href).pathname});
    var found = await pagefind.search(query);
    var pages = await Promise.all(found.results.slice(0, PAGES_SHOWN).map(function (r) { return r.data(); }));
    var words = query.toLowerCase().split(/\s+/).filter(Boolean);
    var stems = words.map(function (w) { return w.slice(0, 5); });
    var held = words.length > 1 ? await wordsHeld(pagefind, words, pages.map(function (d) { return d.url; })) : null;
    // Pages in the order of their best sections: the page whose section is about the words
    // (its heading names them), then one that cites their source, before a page that only
    // mentions them; then the page with a section holding more of the words; else Pagefind's order.
    var ranked = pages.map(function (data, i) {
      var sections = scoredSections(data, stems, held ? held[data.url] || {} : null);
      return {data: data, sections: sections, best: sections[0] || {named: 0, words: 0}, cites: cites(data), i: i};
    }).sort(function (a, b) {
      return (b.best.named - a.best.named) || (b.cites - a.cites) || (b.best.words - a.best.words) || (a.i - b.i);
    });
    var out = document.getElementById("search-results");
    out.textContent = "";
    out.appendChild(element("h2", "", "Search Results"));
    out.appendChild(element("p", "search-summary", pages.length
      ? "Found " + found.results.length + " page(s) for \u201c" + query + "\u201d, the best match first."
      : "No page holds \u201c" + query + "\u201d. Check the spelling, or try fewer words."));
    var list = element("ul", "search pagefind-results");
    ranked.forEach(function (page) {
      var data = page.data;
      var sections = page.sections.map(function (x) { return x.s; });
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
