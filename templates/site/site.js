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

  // On a narrow screen the menu starts closed.
  var menu = document.querySelector(".sidebar details.menu");
  if (menu && window.matchMedia("(max-width: 59.99em)").matches) { menu.open = false; }

  // Offline: the game's pages are kept after the first visit (only when served; never on file://).
  if (served && "serviceWorker" in navigator && body.dataset.up !== undefined) {
    navigator.serviceWorker.register(body.dataset.up + "sw.js").catch(function () {});
  }

  calculators();
  search();

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
    function load() {
      if (!engine) {
        engine = import(new URL(form.dataset.bundle + "pagefind.js", window.location.href).href).then(function (pf) {
          return pf.options({ excerptLength: 24 }).then(function () { return pf; });
        });
      }
      return engine;
    }
    function run() {
      var term = input.value.trim();
      var ticket = ++pending;
      if (!term) { out.textContent = ""; return; }
      load().then(function (pf) {
        var filters = all.checked ? {} : { game: form.dataset.game };
        return pf.debouncedSearch(term, { filters: filters }, 200);
      }).then(function (found) {
        if (found === null || ticket !== pending) { return null; }
        return Promise.all(found.results.slice(0, 12).map(function (r) { return r.data(); }));
      }).then(function (items) {
        if (items === null || items === undefined || ticket !== pending) { return; }
        show(items);
      });
    }
    function show(items) {
      out.textContent = "";
      if (!items.length) {
        var none = document.createElement("p");
        none.className = "search-none";
        none.textContent = form.dataset.empty;
        out.appendChild(none);
        return;
      }
      var list = document.createElement("ol");
      list.className = "search-list";
      items.forEach(function (item) {
        var li = document.createElement("li");
        var link = document.createElement("a");
        link.className = "search-result";
        link.href = item.url;
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
    input.addEventListener("input", run);
    all.addEventListener("change", run);
    input.addEventListener("focus", load, { once: true });
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
