// Rules site behaviour: search scoped to this game, language switch that keeps the section,
// probability calculators, and offline reading once a game has been visited.
(function () {
  "use strict";
  var body = document.body;
  var served = window.location.protocol === "http:" || window.location.protocol === "https:";

  // The language switcher keeps the reader on the same section (headings share ids across languages).
  document.querySelectorAll("a.lang[hreflang]").forEach(function (link) {
    link.addEventListener("click", function () {
      if (window.location.hash) { link.href = link.href.split("#")[0] + window.location.hash; }
    });
  });

  // The menu is closed in the HTML, and CSS shows its list on a desktop from the first paint
  // (::details-content). On a desktop it is then opened, so that the DOM says what the screen
  // shows: the list is no collapsed content to a screen reader or a checker, and the sidebar,
  // which scrolls when the list is long, holds links the keyboard reaches (axe's
  // scrollable-region-focusable). Nothing moves: the sidebar is its own column. Narrowed to a
  // phone, a menu opened for the width closes again; one the reader opened stays open.
  var menu = document.querySelector(".sidebar details.menu");
  var wideScreen = window.matchMedia("(min-width: 60em)");
  var openedForWidth = false;
  function fitMenu() {
    if (!menu) { return; }
    if (wideScreen.matches && !menu.open) {
      menu.open = true;
      openedForWidth = true;
    } else if (!wideScreen.matches && openedForWidth) {
      menu.open = false;
      openedForWidth = false;
    }
  }
  fitMenu();
  if (wideScreen.addEventListener) { wideScreen.addEventListener("change", fitMenu); }
  var menuLink = document.querySelector(".menu-link");
  if (menu && menuLink) { menuLink.addEventListener("click", function () { menu.open = true; }); }

  // Offline: one worker for the whole site; this page asks it to keep this page's game whole, in
  // every language, with the site's home (only when served; never from file://).
  if (served && "serviceWorker" in navigator && body.dataset.root !== undefined) {
    var root = new URL(body.dataset.root || "./", window.location.href).href;
    navigator.serviceWorker.getRegistrations().then(function (registrations) {  // the per-language workers of old
      registrations.forEach(function (r) { if (r.scope !== root && r.scope.indexOf(root) === 0) { r.unregister(); } });
    });
    navigator.serviceWorker.register(root + "sw.js", { scope: root }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      if (!body.dataset.game || !registration.active) { return; }
      navigator.serviceWorker.addEventListener("message", function (event) {
        if (event.data && "kept" in event.data) { document.documentElement.dataset.offline = event.data.kept ? "kept" : "failed"; }
      });
      registration.active.postMessage({ keep: root + body.dataset.game + "/offline.json" });
    }).catch(function () {});
  }

  calculators();
  search();
  highlight();

  // Arriving from a search result (?hl=words): mark the words in the page's text and bring the
  // first one in the section the address names (else in the page) into view.
  function highlight() {
    var words = (new URLSearchParams(window.location.search).get("hl") || "").toLowerCase().split(/\s+/)
      .filter(function (w) { return w.length > 1; });
    var main = document.querySelector("main");
    if (!words.length || !main) { return; }
    var walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    var found = [];
    while (walker.nextNode() && found.length < 50) {
      var node = walker.currentNode;
      var text = node.nodeValue.toLowerCase();
      if (node.parentNode.closest("script, style, .kw-tip, [aria-hidden='true']")) { continue; }
      words.forEach(function (word) {
        var at = text.indexOf(word);
        if (at >= 0 && found.indexOf(node) < 0) { found.push(node); node.hitAt = at; node.hitLength = word.length; }
      });
    }
    var first = null;
    var section = window.location.hash ? document.getElementById(decodeURIComponent(window.location.hash.slice(1))) : null;
    found.forEach(function (node) {
      var hit = node.splitText(node.hitAt);
      hit.splitText(node.hitLength);
      var mark = document.createElement("mark");
      mark.className = "hit";
      hit.parentNode.replaceChild(mark, hit);
      mark.appendChild(hit);
      var after = !section || (section.compareDocumentPosition(mark) & Node.DOCUMENT_POSITION_FOLLOWING);
      first = first || (after ? mark : null);
    });
    if (first) {  // after the browser's own scroll to the address's section
      var bring = function () { first.scrollIntoView({ block: "center" }); };
      if (document.readyState === "complete") { bring(); } else { window.addEventListener("load", function () { setTimeout(bring, 0); }); }
    }
  }

  function search() {
    var form = document.querySelector("form.search");
    if (!form) { return; }
    var input = form.querySelector(".search-input");
    var all = form.querySelector(".search-all");
    var out = form.querySelector(".search-results");
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    if (!served) {
      input.disabled = true;
      all.disabled = true;
      var note = document.createElement("p");
      note.className = "search-offline";
      note.textContent = form.dataset.offline;
      out.classList.add("search-results-note");  // in the flow: never over the page's text
      out.appendChild(note);
      return;
    }
    var engine = null;
    var pending = 0;
    var terms = null;
    var chosen = -1;
    function load() {
      if (!engine) {
        engine = import(new URL(form.dataset.bundle + "pagefind.js", window.location.href).href).then(function (pf) {
          return pf.options({ excerptLength: 24 }).then(function () { return pf; });
        });
        engine.catch(function () { engine = null; });  // offline now: try again when asked again
      }
      return engine;
    }
    function note(text, className) {
      out.textContent = "";
      var p = document.createElement("p");
      p.className = className;
      p.textContent = text;
      out.appendChild(p);
      return p;
    }
    function run() {
      var term = input.value.trim();
      var ticket = ++pending;
      chosen = -1;
      if (!term) { out.textContent = ""; return; }
      load().then(function (pf) {
        var filters = all.checked ? {} : { game: form.dataset.game };
        return pf.debouncedSearch(term, { filters: filters }, 200);
      }).then(function (found) {
        if (found === null || ticket !== pending) { return null; }
        return Promise.all(found.results.slice(0, 12).map(function (r) { return r.data(); }));
      }).then(function (items) {
        if (items === null || items === undefined || ticket !== pending) { return; }
        if (items.length) { show(items); } else { note(form.dataset.empty, "search-none"); }
        return suggest(term, ticket).then(function (fixed) { if (fixed && ticket === pending) { offer(fixed); } });
      }, function () {
        if (ticket === pending) { note(form.dataset.unreachable, "search-offline"); }
      });
    }
    // The section that matched: of Pagefind's sub-results (one per heading with an id), the one
    // holding the most hits; the page's own address when the hits come before any heading.
    function target(item) {
      var best = null;
      (item.sub_results || []).forEach(function (sub) {
        if (!best || (sub.locations || []).length > (best.locations || []).length) { best = sub; }
      });
      return best ? best.url : item.url;
    }
    function show(items) {
      out.textContent = "";
      var list = document.createElement("ol");
      list.className = "search-list";
      list.setAttribute("role", "list");
      items.forEach(function (item) {
        var li = document.createElement("li");
        var link = document.createElement("a");
        link.className = "search-result";
        var address = new URL(target(item), window.location.href);
        address.searchParams.set("hl", input.value.trim());  // the page marks the words on arrival
        link.href = address.href;
        link.textContent = item.meta.title || item.url;
        var label = document.createElement("span");
        label.className = "search-label-tag";
        label.textContent = [item.meta.kind, item.meta.game].filter(Boolean).join(" · ");
        var excerpt = document.createElement("p");
        excerpt.className = "search-excerpt";
        excerpt.innerHTML = item.excerpt;  // Pagefind escapes the text and marks the hits
        li.appendChild(link);
        li.appendChild(label);
        li.appendChild(excerpt);
        list.appendChild(li);
      });
      out.appendChild(list);
    }
    // A word the game never uses: offer the game's own word nearest it ("artilery" -> "artillery"),
    // with the results (or "nothing found") below the offer.
    function suggest(term, ticket) {
      var words = terms || (terms = fetch(form.dataset.terms).then(function (r) { return r.json(); })
        .catch(function () { terms = null; return []; }));
      return words.then(function (known) {
        if (ticket !== pending || !known.length) { return null; }
        var changed = false;
        var fixed = term.toLowerCase().split(/\s+/).map(function (word) {
          if (word.length < 4 || known.indexOf(word) >= 0) { return word; }
          var best = null, bestCost = word.length > 6 ? 3 : 2;
          known.forEach(function (candidate) {  // the most used first: a tie keeps the more used word
            if (Math.abs(candidate.length - word.length) >= bestCost) { return; }
            var cost = distance(word, candidate);
            if (cost < bestCost) { best = candidate; bestCost = cost; }
          });
          if (best) { changed = true; return best; }
          return word;
        }).join(" ");
        return changed ? fixed : null;
      });
    }
    function offer(fixed) {
      var p = document.createElement("p");
      p.className = "search-did-you-mean";
      p.appendChild(document.createTextNode(form.dataset.suggest + " "));
      var again = document.createElement("a");
      again.className = "search-suggest";
      again.href = "#";
      again.textContent = fixed;
      again.addEventListener("click", function (event) {
        event.preventDefault();
        input.value = fixed;
        input.focus();
        run();
      });
      p.appendChild(again);
      out.insertBefore(p, out.firstChild);
    }
    function distance(a, b) {  // edits between two words, a swap of neighbours counting one
      var d = [];
      for (var i = 0; i <= a.length; i++) { d.push([i]); }
      for (var j = 1; j <= b.length; j++) { d[0][j] = j; }
      for (i = 1; i <= a.length; i++) {
        for (j = 1; j <= b.length; j++) {
          var cost = a[i - 1] === b[j - 1] ? 0 : 1;
          d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) { d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1); }
        }
      }
      return d[a.length][b.length];
    }
    // Keyboard: arrows move through the results, Enter opens the chosen one, Esc closes them.
    function choose(step) {
      var items = out.querySelectorAll(".search-list li");
      if (!items.length) { return; }
      if (chosen >= 0 && items[chosen]) { items[chosen].classList.remove("chosen"); }
      chosen = (chosen + 1 + step + items.length + 1) % (items.length + 1) - 1;  // -1: back in the box
      if (chosen < 0) { input.removeAttribute("aria-activedescendant"); return; }
      items[chosen].classList.add("chosen");
      items[chosen].scrollIntoView({ block: "nearest" });
    }
    form.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        choose(event.key === "ArrowDown" ? 1 : -1);
        var items = out.querySelectorAll(".search-result");
        if (chosen >= 0 && event.target !== input) { items[chosen].focus(); }
      } else if (event.key === "Enter" && event.target === input) {
        var links = out.querySelectorAll(".search-result");
        var pick = links[chosen >= 0 ? chosen : 0];
        if (pick) { event.preventDefault(); window.location.href = pick.href; }
      } else if (event.key === "Escape") {
        out.textContent = "";
        chosen = -1;
        if (event.target === input) { input.value = ""; } else { input.focus(); }
      }
    });
    input.addEventListener("input", run);
    all.addEventListener("change", run);
    var asked = new URLSearchParams(window.location.search).get("q");  // a link may open the page searching
    if (asked) { input.value = asked; run(); }
    input.addEventListener("focus", function () { load().catch(function () {}); }, { once: true });
  }

  // A probability grid's calculator: choose each input and the outcome, or the attacking and the
  // target unit whose data set them, and read the exact chance (computed when the site was built
  // and embedded in the page).
  function calculators() {
    var preset = new URLSearchParams(window.location.search);
    document.querySelectorAll("form.calculator").forEach(function (calc) {
      var data = JSON.parse(calc.querySelector("script[type='application/json']").textContent);
      var inputs = Array.prototype.slice.call(calc.querySelectorAll("select.calc-input"));
      var units = Array.prototype.slice.call(calc.querySelectorAll("select.calc-unit"));
      var outcome = calc.querySelector("select.calc-outcome");
      var out = calc.querySelector("output");
      var exact = calc.querySelector(".calc-exact");
      var total = calc.querySelector(".calc-total");
      function update() {
        var key = inputs.map(function (s) { return s.value; }).join("|");
        var cell = (data.cells[key] || [])[outcome.selectedIndex];
        out.textContent = cell ? cell[0] : "–";
        exact.textContent = cell && cell[1] && cell[1].indexOf("/") > 0 ? "(" + cell[1] + ")" : "";
        if (total) {  // the attacker's weapon rolls `times` such dice: the sum, computed at build time
          var attacker = units.filter(function (s) { return s.dataset.side === "attacker"; })[0];
          var chosen = attacker ? reading(attacker) : null;
          var sum = chosen && chosen.totals && agrees(attacker) ? chosen.totals[key] : null;
          total.textContent = sum ? total.dataset.text.replace("{times}", chosen.times)
            .replace("{total}", sum[0] + (sum[1].indexOf("/") > 0 ? " (" + sum[1] + ")" : "")) : "";
        }
      }
      function reading(select) {
        return select.value === "" ? null : data[select.dataset.side][Number(select.value)];
      }
      function apply(select) {  // a chosen unit sets its inputs and, for its side, the outcome
        var chosen = reading(select);
        if (!chosen) { return; }
        inputs.forEach(function (input) {
          var wanted = chosen.inputs[input.dataset.column];
          if (wanted !== undefined) { input.value = wanted; }
        });
        if (chosen.outcome >= 0) { outcome.selectedIndex = chosen.outcome; }
      }
      function agrees(select) {  // the inputs still say what the chosen unit's data says
        var chosen = reading(select);
        if (!chosen) { return true; }
        var same = inputs.every(function (input) {
          var wanted = chosen.inputs[input.dataset.column];
          return wanted === undefined || input.value === wanted;
        });
        return same && (chosen.outcome < 0 || outcome.selectedIndex === chosen.outcome);
      }
      // A unit page links here with the unit (?attacker=ID, ?target=ID) or its stats in the query.
      units.forEach(function (select) {
        var wanted = preset.get(select.dataset.side);
        var option = wanted === null ? null : Array.prototype.find.call(select.options, function (o) {
          return o.dataset.unit === wanted;
        });
        if (option) { select.value = option.value; apply(select); }
      });
      inputs.forEach(function (select) {
        var wanted = preset.get(select.dataset.column);
        if (wanted !== null && Array.prototype.some.call(select.options, function (o) { return o.value === wanted; })) {
          select.value = wanted;
        }
      });
      calc.addEventListener("change", function (event) {
        if (event.target.classList.contains("calc-unit")) {
          apply(event.target);
        } else {  // set by hand: a unit whose data no longer agrees is no longer chosen
          units.forEach(function (select) { if (!agrees(select)) { select.value = ""; } });
        }
        update();
      });
      calc.addEventListener("submit", function (event) { event.preventDefault(); });
      update();
    });
  }
})();
