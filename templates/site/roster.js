// The list builder: the verdict of `rulesmith roster check` (generator/roster/tally.py), rule by
// rule, a link that opens the same list, and the YAML file the command reads. Plain JS, works
// from file://. Nothing of a list is dropped or changed silently: an unknown unit or option, a
// count that is no whole number, a negative or missing cost is kept and said beside its line.
(function () {
  "use strict";
  const form = document.getElementById("army-builder");
  if (!form) { return; }
  const data = JSON.parse(document.getElementById("army-data").textContent);
  const words = data.words;
  const size = document.getElementById("army-size");
  const counted = document.getElementById("army-counted");
  const name = document.getElementById("army-name");
  const table = form.querySelector(".army-units");
  const body = table ? table.tBodies[0] : null;
  const units = Object.fromEntries(data.units.map((u) => [u.id, u]));
  const optionsById = Object.fromEntries(data.options.map((o) => [o.id, o]));
  let linkSize = "";  // a size of game a link or file names that the game does not have
  let linkCounted = "";  // a reading a link or file names that the page cannot choose

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, (m, key) => (key in values ? String(values[key]) : m));
  }

  // difflib.get_close_matches(word, pool, n=1, cutoff=0.6) on casefolded words, as the command's
  // "did you mean" (generator/diagnostics.py): Ratcliff-Obershelp matching blocks.
  function matched(a, b) {
    let best = [0, 0, 0];
    for (let i = 0; i < a.length; i++) {
      for (let j = 0; j < b.length; j++) {
        let k = 0;
        while (i + k < a.length && j + k < b.length && a[i + k] === b[j + k]) { k++; }
        if (k > best[2]) { best = [i, j, k]; }
      }
    }
    const [i, j, k] = best;
    return k === 0 ? 0 : k + matched(a.slice(0, i), b.slice(0, j)) + matched(a.slice(i + k), b.slice(j + k));
  }

  function suggest(word, pool) {
    const lowered = word.toLowerCase();
    let best = null;
    let score = -1;
    for (const candidate of pool) {
      const other = candidate.toLowerCase();
      const ratio = (2 * matched(lowered, other)) / (lowered.length + other.length || 1);
      if (ratio >= 0.6 && (ratio > score || (ratio === score && other > best.toLowerCase()))) {
        best = candidate;
        score = ratio;
      }
    }
    return best === null ? "" : " " + fill(words["army-did-you-mean"], { name: best });
  }

  function rows() {
    return body ? Array.from(body.rows) : [];
  }

  function readLine(row) {
    const input = row.querySelector(".army-count");
    const raw = row.dataset.raw !== undefined ? row.dataset.raw : (input.validity.badInput ? "?" : input.value.trim());
    const count = raw === "" ? 0 : (/^\d+$/.test(raw) ? parseInt(raw, 10) : null);
    input.setAttribute("aria-invalid", String(count === null));
    const chosen = Array.from(row.querySelectorAll("input[data-option]")).filter((o) => o.checked).map((o) => o.dataset.option);
    return { row: row, unit: row.dataset.unit, raw: raw, count: count, options: chosen.concat(JSON.parse(row.dataset.extra || "[]")),
      section: row.dataset.section || "" };
  }

  function state() {
    const lines = rows().map(readLine).filter((line) => line.count !== 0);
    for (const row of rows()) { row.dataset.count = row.querySelector(".army-count").value || "0"; }
    return { size: (size && size.value) || linkSize, counted: (counted && counted.value) || linkCounted, name: name.value.trim(), lines: lines };
  }

  function costOf(unit, reading) {
    const cost = unit.cost;
    if (!Array.isArray(cost)) { return { each: cost, said: true }; }
    if (!reading) { return { each: null, said: false }; }  // said once: choose which value counts
    return { each: cost[reading === "first" || reading === "only" ? 0 : Math.min(1, cost.length - 1)], said: true };
  }

  function optionsCost(line, i, add) {
    let total = 0;
    line.options.forEach((id, j) => {
      const option = optionsById[id];
      if (!option) {
        add("unknown-option", id, i, fill(words["army-unknown-option"], { name: id }) + suggest(id, Object.keys(optionsById)));
        total = null;
        return;
      }
      if (!option.units.includes(line.unit)) {
        add("option-not-open", id, i, fill(words["army-option-not-open"], { unit: units[line.unit].name, option: option.name }));
      } else if (typeof option.max === "number" && line.options.slice(0, j).filter((o) => o === id).length === option.max) {
        add("option-max", id, i, fill(words["army-option-max"], {
          option: option.name, count: line.options.filter((o) => o === id).length, max: option.max }));
      }
      total = typeof option.cost === "number" && total !== null ? total + option.cost : null;
    });
    return total;
  }

  function lineCost(line, i, list, limited, add) {
    if (line.count === null) { add("bad-count", line.unit, i, fill(words["army-bad-count"], { count: line.raw })); }
    const unit = units[line.unit];
    if (!unit) {
      add("unknown-unit", line.unit, i, fill(words["army-unknown-unit"], { name: line.unit }) + suggest(line.unit, Object.keys(units)));
      return null;
    }
    const reading = data.value || (["first", "second"].includes(list.counted) ? list.counted : "");
    const cost = costOf(unit, reading);
    if (cost.each === null && cost.said) {
      add("no-cost", line.unit, i, fill(words["army-no-cost"], { unit: unit.name }), !limited);
    }
    const options = optionsCost(line, i, add);
    if (cost.each === null || options === null || line.count === null) { return null; }
    if (cost.each + options < 0) {
      add("negative-cost", line.unit, i, fill(words["army-negative-cost"], { unit: unit.name, each: cost.each + options }), true);
    }
    return cost.each + options;
  }

  function chosenSize(list, add) {
    if (!data.sizes.length) {
      if (list.size) { add("size-not-named", list.size, null, fill(words["army-unknown-size"], { name: list.size })); }
      return null;
    }
    if (!list.size) { add("no-size", "", null, words["army-pick-size"]); return null; }
    const found = data.sizes.find((s) => s.id === list.size);
    if (!found) {
      add("unknown-size", list.size, null, fill(words["army-unknown-size"], { name: list.size }) + suggest(list.size, data.sizes.map((s) => s.id)));
    }
    return found || null;
  }

  function crossing(costs, limit) {
    let running = 0;
    let at = 0;
    costs.forEach((cost, i) => {
      const before = running;
      running += cost;
      if (running > limit && before <= limit) { at = i; }
    });
    return at;
  }

  function checkLimits(list, add) {
    for (const rule of data.limits) {
      const subject = rule.unit || rule.type;
      let taken = 0;
      let over = null;
      list.lines.forEach((line, i) => {
        const unit = units[line.unit];
        if (!(rule.unit ? line.unit === rule.unit : unit && unit.type === rule.type)) { return; }
        taken += line.count || 0;
        if (typeof rule.max === "number" && taken > rule.max && taken - (line.count || 0) <= rule.max) { over = i; }
      });
      if (over !== null) { add("at-most", subject, over, fill(words["army-at-most"], { name: rule.name, max: rule.max, count: taken })); }
      if (typeof rule.min === "number" && taken < rule.min) {
        add("at-least", subject, null, fill(words["army-at-least"], { name: rule.name, min: rule.min, count: taken }));
      }
    }
  }

  function checkChoices(list, add) {
    for (const choice of data.choices) {
      const hits = list.lines.map((line, i) => (choice.units.includes(line.unit) ? i : -1)).filter((i) => i >= 0);
      const taken = hits.reduce((sum, i) => sum + (list.lines[i].count || 0), 0);
      const names = choice.units.filter((u) => units[u]).map((u) => units[u].name).join(", ");
      if (choice.required && !hits.length) { add("one-of", choice.id, null, fill(words["army-one-of"], { names: names })); }
      if (choice.exclusive && taken > 1) { add("only-one", choice.id, hits[hits.length - 1], fill(words["army-only-one"], { names: names })); }
    }
  }

  // Force organisation (generator/roster/sections.py): each line fills its named section, or the
  // first open to its unit; each section against its bounds in the size of game, grown by what the
  // list takes (`per:`); locked sections.
  function admits(section, unitId) {
    const unit = units[unitId];
    return section.units.includes(unitId) || Boolean(unit && section.types.includes(unit.type));
  }

  function sectionOf(line, i, add) {
    if (line.section) {
      const named = data.sections.find((s) => s.id === line.section);
      if (!named) {
        add("unknown-section", line.section, i, fill(words["army-unknown-section"], { name: line.section }) +
          suggest(line.section, data.sections.map((s) => s.id)));
        return null;
      }
      if (!admits(named, line.unit)) {
        add("section-not-open", line.section, i, fill(words["army-section-not-open"], { unit: units[line.unit].name, section: named.name }));
        return null;
      }
      return named;
    }
    const found = data.sections.find((s) => admits(s, line.unit)) || null;
    if (!found) { add("no-section", line.unit, i, fill(words["army-no-section"], { unit: units[line.unit].name })); }
    return found;
  }

  // How many units a section's scaling counts: those the list puts in the section it names, or the
  // list's units of the unit or type it names; each adds its min and max ("two Troops per HQ").
  function countedBy(scale, list, filled) {
    if (scale.section) {
      const place = filled.find((f) => f.section.id === scale.section);
      return place ? place.taken : 0;
    }
    return list.lines.reduce((sum, line) => sum + ((line.unit === scale.unit ||
      (scale.type && units[line.unit] && units[line.unit].type === scale.type)) ? (line.count || 0) : 0), 0);
  }

  function scaled(place, list, filled) {
    for (const scale of place.section.per) {
      const n = countedBy(scale, list, filled);
      if (scale.min !== null) { place.min = (place.min || 0) + scale.min * n; }
      if (scale.max !== null) { place.max = (place.max || 0) + scale.max * n; }
    }
  }

  function checkMax(place, list, add) {  // said at the line that takes the section over
    if (place.max === null || place.taken <= place.max) { return; }
    let running = 0;
    for (const i of place.lines) {
      running += list.lines[i].count || 0;
      if (running > place.max) {
        add("section-max", place.section.id, i, fill(words["army-section-max"], { name: place.section.name, max: place.max, count: place.taken }));
        return;
      }
    }
  }

  function checkSections(list, sized, add) {
    if (!data.sections.length) { return []; }
    const filled = data.sections.map((section) => {
      const bounds = sized && section.sizes[sized.id] ? section.sizes[sized.id] : [section.min, section.max];
      return { section: section, min: bounds[0], max: bounds[1], taken: 0, lines: [], open: true };
    });
    list.lines.forEach((line, i) => {
      if (!units[line.unit]) { return; }
      const section = sectionOf(line, i, add);
      if (!section) { return; }
      const place = filled.find((f) => f.section === section);
      place.lines.push(i);
      place.taken += line.count || 0;
    });
    for (const place of filled) { scaled(place, list, filled); }
    const taken = new Set(list.lines.map((l) => l.unit));
    for (const place of filled) {
      checkMax(place, list, add);
      const section = place.section;
      if (section.unlocked_by.length && !section.unlocked_by.some((u) => taken.has(u))) {
        place.open = false;
        if (place.lines.length) {
          const names = section.unlocked_by.map((u) => (units[u] ? units[u].name : u)).join(", ");
          add("section-locked", section.id, place.lines[0], fill(words["army-section-locked"], { name: section.name, units: names }));
        }
        continue;
      }
      if (place.min !== null && place.taken < place.min) {
        add("section-min", section.id, null, fill(words["army-section-min"], { name: section.name, min: place.min, count: place.taken }));
      }
    }
    return filled;
  }

  function check(list) {
    const pending = [];
    const add = (rule, subject, index, text, warning) => {
      pending.push({ rule: rule, subject: subject, index: index, text: text, warning: Boolean(warning) });
    };
    const sized = chosenSize(list, add);
    const limit = sized && typeof sized.limit === "number" ? sized.limit : null;
    if (data.counted && !list.counted && limit !== null) { add("no-counted", "", null, words["army-pick-counted"]); }
    if (list.counted && (!data.counted || !["first", "second"].includes(list.counted))) {
      add("counted-not-open", "", null, fill(words["army-counted-not-open"], { value: list.counted }));
    }
    const eaches = list.lines.map((line, i) => lineCost(line, i, list, limit !== null, add));
    const costs = eaches.map((each, i) => (each === null ? null : each * list.lines[i].count));
    const total = costs.includes(null) ? null : costs.reduce((sum, c) => sum + c, 0);
    if (data.counted && !list.counted && limit === null && list.lines.some((l) => units[l.unit] && Array.isArray(units[l.unit].cost))) {
      add("no-counted", "", null, words["army-pick-counted"], true);  // why the total is not computed
    }
    if (limit !== null && total !== null && total > limit) {
      const at = crossing(costs, limit);
      add("over-limit", "", at, fill(words["army-over"], { total: total, limit: limit }));
    }
    checkLimits(list, add);
    checkChoices(list, add);
    const sections = checkSections(list, sized, add);
    return { total: total, limit: limit, sized: sized, findings: pending, eaches: eaches, sections: sections };
  }

  function plain(text) {
    return /^[a-z0-9][a-z0-9_-]*$/.test(text) ? text : JSON.stringify(text);  // a JSON string is a YAML scalar
  }

  function yaml(list) {
    const out = ["game: " + data.game];
    if (data.roster) { out.push("roster: " + data.roster); }
    if (list.size) { out.push("size: " + plain(list.size)); }
    if (list.counted) { out.push("counted: " + list.counted); }
    if (list.name) { out.push("name: " + JSON.stringify(list.name)); }
    out.push(list.lines.length ? "units:" : "units: []");
    for (const line of list.lines) {
      out.push("  - unit: " + plain(line.unit));
      if (line.raw !== "1") { out.push("    count: " + (line.count === null ? JSON.stringify(line.raw) : line.count)); }
      if (line.options.length) { out.push("    options: [" + line.options.map(plain).join(", ") + "]"); }
      if (line.section) { out.push("    section: " + plain(line.section)); }
    }
    return out.join("\n") + "\n";
  }

  function toHash(list) {
    const params = new URLSearchParams();
    if (list.size) { params.set("size", list.size); }
    if (list.counted) { params.set("counted", list.counted); }
    if (list.name) { params.set("name", list.name); }
    for (const line of list.lines) {
      params.append("u", [line.unit + (line.section ? "@" + line.section : ""), line.raw, ...line.options].join("*"));
    }
    return params.toString();
  }

  // Rows: the table holds one row per unit of the game (its first line); another line of a unit,
  // or a line naming a unit the game does not have, is a row added after them.
  function removable(row) {
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "army-remove";
    remove.textContent = "×";
    remove.setAttribute("aria-label", words["army-remove-line"]);
    remove.title = words["army-remove-line"];
    remove.addEventListener("click", () => { row.remove(); update(); });
    return remove;
  }

  function addLine(unit) {
    const first = body.querySelector('tr[data-line="1"][data-unit="' + CSS.escape(unit) + '"]');
    const same = rows().filter((r) => r.dataset.unit === unit);
    const n = Math.max(...same.map((r) => Number(r.dataset.line))) + 1;
    const row = first.cloneNode(true);
    const id = unit + "-" + n;
    row.dataset.line = String(n);
    delete row.dataset.raw;
    delete row.dataset.extra;
    delete row.dataset.section;
    row.querySelector("th").id = "army-unit-" + id;
    row.querySelector(".army-notes").id = "army-notes-" + id;
    row.querySelector(".army-notes").replaceChildren();
    const input = row.querySelector(".army-count");
    input.id = "army-count-" + id;
    input.value = "1";
    input.setAttribute("aria-labelledby", "army-count-label army-unit-" + id);
    input.setAttribute("aria-describedby", "army-notes-" + id);
    for (const box of row.querySelectorAll("input[data-option]")) { box.checked = false; }
    row.querySelector(".army-add").replaceWith(removable(row));
    same[same.length - 1].after(row);
    return row;
  }

  function unknownLine(unit) {
    const row = document.createElement("tr");
    const n = rows().length + 1;
    row.dataset.unit = unit;
    row.dataset.line = "0";
    const th = document.createElement("th");
    th.scope = "row";
    th.id = "army-unit-line-" + n;
    th.textContent = unit;
    const notes = document.createElement("span");
    notes.className = "army-notes";
    notes.id = "army-notes-line-" + n;
    th.append(notes);
    const cost = document.createElement("td");
    cost.textContent = "–";
    const cell = document.createElement("td");
    const wrap = document.createElement("span");
    wrap.className = "army-count-cell";
    const input = document.createElement("input");
    Object.assign(input, { type: "number", className: "army-count", min: "0", step: "1", id: "army-count-line-" + n });
    input.setAttribute("inputmode", "numeric");
    input.setAttribute("aria-labelledby", "army-count-label " + th.id);
    input.setAttribute("aria-describedby", notes.id);
    wrap.append(input, removable(row));
    cell.append(wrap);
    row.append(th, cost, cell);
    if (data.options.length) { row.append(document.createElement("td")); }
    body.append(row);
    return row;
  }

  function setCount(row, raw) {
    const input = row.querySelector(".army-count");
    input.value = raw;
    if (input.value !== raw) { row.dataset.raw = raw; } else { delete row.dataset.raw; }  // kept as written
  }

  function load(list) {
    for (const row of rows()) {
      if (row.dataset.line !== "1") { row.remove(); continue; }
      setCount(row, "0");
      delete row.dataset.extra;
      delete row.dataset.section;
      for (const box of row.querySelectorAll("input[data-option]")) { box.checked = false; }
    }
    linkSize = "";
    if (size) { size.value = list.size && data.sizes.some((s) => s.id === list.size) ? list.size : ""; }
    if (list.size && !(size && size.value === list.size)) { linkSize = list.size; }
    const readable = counted && (list.counted === "first" || list.counted === "second");
    if (counted) { counted.value = readable ? list.counted : ""; }
    linkCounted = list.counted && !readable ? list.counted : "";
    name.value = list.name || "";
    const used = new Set();
    for (const line of list.lines) {
      let row = null;
      if (units[line.unit] && body) {
        const first = body.querySelector('tr[data-line="1"][data-unit="' + CSS.escape(line.unit) + '"]');
        row = used.has(first) ? addLine(line.unit) : first;
      } else if (body) {
        row = unknownLine(line.unit);
      }
      if (!row) { continue; }
      used.add(row);
      setCount(row, line.raw);
      if (line.section) { row.dataset.section = line.section; }
      const extra = [];
      for (const option of line.options) {
        const box = Array.from(row.querySelectorAll("input[data-option]")).find((b) => b.dataset.option === option && !b.checked);
        if (box) { box.checked = true; } else { extra.push(option); }
      }
      if (extra.length) { row.dataset.extra = JSON.stringify(extra); }
    }
  }

  function fromHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    const lines = params.getAll("u").map((entry) => {
      const [named, count, ...options] = entry.split("*");
      const [unit, section] = named.split("@");
      return { unit: unit, section: section || "", raw: count === undefined ? "1" : count.trim(), options: options.filter(Boolean) };
    }).filter((line) => line.unit);
    load({ size: params.get("size") || "", counted: params.get("counted") || "", name: params.get("name") || "", lines: lines });
  }

  const totalOut = document.getElementById("army-total");
  const breachOut = document.getElementById("army-breaches");
  const download = document.getElementById("army-download");
  let url = null;

  function limitText(result) {
    if (result.limit !== null) { return String(result.limit); }
    if (result.sized && result.sized.free) { return words["army-free"]; }
    return data.sizes.length && !result.sized ? words["army-no-size-limit"] : words["army-no-limit"];
  }

  function item(finding) {
    const li = document.createElement("li");
    li.textContent = finding.text;
    li.dataset.rule = finding.rule;
    li.dataset.subject = finding.subject;
    if (finding.warning) { li.className = "warning"; }
    return li;
  }

  function show(list, result) {
    const total = result.total === null ? words["army-not-computed"] : String(result.total);
    totalOut.textContent = words["army-total"] + ": " + total + " / " + limitText(result);
    const errors = result.findings.filter((f) => !f.warning);
    totalOut.classList.toggle("over", errors.length > 0);
    const shown = errors.length ? result.findings.map(item) : [item({ text: words["army-no-breach"], rule: "", subject: "" })]
      .concat(result.findings.map(item));
    breachOut.replaceChildren(...shown);
    breachOut.classList.toggle("ok", errors.length === 0);
    for (const row of rows()) { row.querySelector(".army-notes").replaceChildren(); }
    for (const finding of result.findings) {
      if (finding.index === null) { continue; }
      const note = document.createElement("span");
      note.className = "army-note" + (finding.warning ? " warning" : "");
      note.dataset.rule = finding.rule;
      note.textContent = finding.text;
      list.lines[finding.index].row.querySelector(".army-notes").append(note);
    }
    const head = [data.heading];
    if (result.sized) { head.push(result.sized.name + ": " + limitText(result)); }
    if (list.counted) { head.push(fill(words["army-counted"], { value: list.counted === "first" ? 1 : 2 })); }
    if (errors.length) { head.push(fill(words["army-not-valid"], { count: errors.length })); }
    document.getElementById("army-print-head").textContent = head.join(" · ");
    showSections(result);
    form.dataset.breaches = String(errors.length);
    form.dataset.total = result.total === null ? "" : String(result.total);
  }

  function span(low, high) {
    if (low !== null && high !== null) { return low === high ? String(low) : low + "–" + high; }
    if (low !== null) { return fill(words["army-span-at-least"], { min: low }); }
    return high !== null ? fill(words["army-span-at-most"], { max: high }) : "";
  }

  function showSections(result) {
    const out = document.getElementById("army-sections");
    if (!out) { return; }
    out.replaceChildren(...result.sections.map((place) => {
      const li = document.createElement("li");
      const bounds = place.open ? span(place.min, place.max) : words["army-section-locked-short"];
      li.textContent = place.section.name + ": " + place.taken + (bounds ? " (" + bounds + ")" : "");
      li.dataset.section = place.section.id;
      li.dataset.taken = String(place.taken);
      return li;
    }));
    for (const row of rows()) {  // a unit several sections admit: the line says which it fills
      const open = data.sections.filter((section) => admits(section, row.dataset.unit));
      let choice = row.querySelector(".army-section");
      if (open.length < 2) { if (choice) { choice.remove(); } continue; }
      if (!choice) {
        choice = document.createElement("select");
        choice.className = "army-section";
        choice.setAttribute("aria-label", fill(words["army-section-label"], { unit: units[row.dataset.unit].name }));
        choice.append(...open.map((section) => new Option(section.name, section.id)));
        row.querySelector(".army-notes").before(choice);
      }
      choice.value = row.dataset.section && open.some((s) => s.id === row.dataset.section) ? row.dataset.section : open[0].id;
    }
  }

  // The page's print shows each chosen unit's datasheet and the keywords it uses, as `roster
  // print` does: every unit's is on the page, and the print stylesheet shows those marked chosen.
  function showSheets(list) {
    const sheets = document.getElementById("army-sheets");
    if (!sheets) { return; }
    const chosen = new Set(list.lines.filter((line) => units[line.unit]).map((line) => line.unit));
    const keywords = new Set();
    for (const [unit, sheet] of Object.entries(data.sheets)) {
      const row = document.getElementById(sheet.row);
      if (!row) { continue; }
      const details = row.nextElementSibling && row.nextElementSibling.classList.contains("details") ? row.nextElementSibling : null;
      for (const part of [row, details]) { if (part) { part.toggleAttribute("data-chosen", chosen.has(unit)); } }
      if (chosen.has(unit)) { sheet.keywords.forEach((k) => keywords.add(k)); }
    }
    for (const term of sheets.querySelectorAll(".glossary dt")) {
      const definition = term.nextElementSibling;
      term.toggleAttribute("data-chosen", keywords.has(term.id));
      if (definition && definition.tagName === "DD") { definition.toggleAttribute("data-chosen", keywords.has(term.id)); }
    }
    sheets.toggleAttribute("data-chosen", chosen.size > 0);
    const glossary = sheets.querySelector("h3");
    if (glossary) { glossary.toggleAttribute("data-chosen", keywords.size > 0); }
  }

  function update() {
    const list = state();
    const result = check(list);
    show(list, result);
    showSheets(list);
    if (url) { URL.revokeObjectURL(url); }
    url = URL.createObjectURL(new Blob([yaml(list)], { type: "application/yaml" }));
    download.href = url;
    download.download = (list.name.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "") || data.game) + ".yaml";
    for (const field of [size, counted]) { if (field) { field.toggleAttribute("data-chosen", Boolean(field.value)); } }
    const hash = toHash(list);
    history.replaceState(null, "", "#" + hash);
    remember(hash);
  }

  // Lists a player keeps: every list of this game in this browser (localStorage), the open one
  // saved as it changes; its name field renames it. A link opened or pasted, or a YAML file
  // opened, becomes a list of its own unless it is one of them already.
  const picker = document.getElementById("army-lists");
  const kept = document.getElementById("army-kept");
  const storeKey = "rulesmith-army-lists:" + data.game + (data.roster ? ":" + data.roster : "");
  let store = null;
  let current = null;
  try {
    store = JSON.parse(localStorage.getItem(storeKey) || "null") || { current: null, lists: [] };
  } catch (error) {
    store = null;
  }

  function persist() {
    if (!store) { return; }
    store.current = current;
    try { localStorage.setItem(storeKey, JSON.stringify(store)); } catch (error) { kept.textContent = words["army-not-kept"]; }
  }

  function nameOf(entry, n) {
    return new URLSearchParams(entry.hash).get("name") || fill(words["army-untitled"], { n: n + 1 });
  }

  function showLists() {
    if (!store) { return; }
    picker.replaceChildren(...store.lists.map((entry, n) => new Option(nameOf(entry, n), entry.id, false, entry.id === current)));
    picker.value = current;
  }

  function newList(hash) {
    const entry = { id: Date.now().toString(36) + Math.random().toString(36).slice(2, 6), hash: hash };
    if (store) { store.lists.push(entry); }
    current = entry.id;
    return entry;
  }

  function adopt(hash) {  // the list a link holds: one of the kept lists, or a new one
    const same = store ? store.lists.find((entry) => entry.hash === hash) : null;
    current = same ? same.id : newList(hash).id;
  }

  function open(hash) {
    history.replaceState(null, "", "#" + hash);
    fromHash();
    update();
  }

  function start() {
    const hash = location.hash.slice(1);
    const last = store && store.lists.find((entry) => entry.id === store.current);
    if (hash) { adopt(hash); } else if (last) { current = last.id; history.replaceState(null, "", "#" + last.hash); } else { newList(""); }
    if (!store) { kept.textContent = words["army-not-kept"]; document.getElementById("army-saved").classList.add("unkept"); }
    fromHash();
  }

  function remember(hash) {
    if (!store) { return; }
    const entry = store.lists.find((e) => e.id === current) || newList(hash);
    entry.hash = hash;
    persist();
    showLists();
  }

  picker.addEventListener("change", () => {
    const entry = store.lists.find((e) => e.id === picker.value);
    current = entry.id;
    open(entry.hash);
  });
  document.getElementById("army-new").addEventListener("click", () => { newList(""); open(""); });
  document.getElementById("army-duplicate").addEventListener("click", () => {
    const params = new URLSearchParams(location.hash.slice(1));
    params.set("name", fill(words["army-copy-of"], { name: params.get("name") || nameOf({ hash: "" }, store ? store.lists.length - 1 : 0) }));
    newList(params.toString());
    open(params.toString());
  });
  document.getElementById("army-delete").addEventListener("click", () => {
    if (store) { store.lists = store.lists.filter((e) => e.id !== current); }
    const next = store && store.lists[store.lists.length - 1];
    if (next) { current = next.id; open(next.hash); } else { newList(""); open(""); }
  });

  const FIELDS = ["game", "roster", "size", "counted", "name", "units"];

  function fromFile(file, text) {  // a YAML list file (docs/rosters.md §2) as a new list
    let doc;
    try {
      doc = jsyaml.load(text);
    } catch (error) {
      return fill(words["army-file-error"], { file: file, error: error.message.split("\n")[0] });
    }
    if (!doc || typeof doc !== "object" || Array.isArray(doc)) {
      return fill(words["army-file-error"], { file: file, error: "expected a mapping (game:, size:, units:)" });
    }
    if (doc.game !== data.game) { return fill(words["army-file-game"], { file: file, game: String(doc.game) }); }
    const lines = (Array.isArray(doc.units) ? doc.units : []).filter((e) => e && typeof e === "object").map((e) => ({
      unit: String(e.unit), raw: e.count === undefined ? "1" : String(e.count),
      options: Array.isArray(e.options) ? e.options.map(String) : [], section: e.section ? String(e.section) : "" }));
    const list = { size: doc.size ? String(doc.size) : "", counted: doc.counted ? String(doc.counted) : "",
      name: doc.name ? String(doc.name) : file.replace(/\.ya?ml$/i, ""), lines: lines };
    newList("");
    load(list);
    update();
    const unknown = Object.keys(doc).filter((k) => !FIELDS.includes(k))
      .map((k) => fill(words["army-unknown-field"], { name: k }) + suggest(k, FIELDS));
    return [fill(words["army-file-opened"], { file: file }), ...unknown].join(" ");
  }

  document.getElementById("army-open").addEventListener("change", (event) => {
    const file = event.target.files[0];
    if (!file) { return; }
    file.text().then((text) => { kept.textContent = fromFile(file.name, text); event.target.value = ""; });
  });

  start();
  form.addEventListener("input", (event) => {
    if (event.target === picker || event.target.type === "file") { return; }
    const row = event.target.closest && event.target.closest("tr");
    if (row && event.target.classList.contains("army-count")) { delete row.dataset.raw; }
    if (row && event.target.classList.contains("army-section")) { row.dataset.section = event.target.value; }
    if (event.target === size) { linkSize = ""; }
    if (event.target === counted) { linkCounted = ""; }
    update();
  });
  form.addEventListener("change", (event) => {
    if (event.target === picker || event.target.type === "file") { return; }
    if (event.target === size) { linkSize = ""; }
    const row = event.target.closest && event.target.closest("tr");
    if (row && event.target.classList.contains("army-section")) { row.dataset.section = event.target.value; }
    update();
  });
  form.addEventListener("click", (event) => {
    const add = event.target.closest && event.target.closest(".army-add");
    if (add) { addLine(add.dataset.unit).querySelector(".army-count").focus(); update(); }
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  window.addEventListener("hashchange", () => { adopt(location.hash.slice(1)); fromHash(); update(); });  // a link pasted here
  document.getElementById("army-print").addEventListener("click", () => window.print());
  document.getElementById("army-share").addEventListener("click", () => {
    const done = () => { document.getElementById("army-shared").textContent = words["army-copied"]; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(location.href).then(done, done);
    } else {
      document.getElementById("army-shared").textContent = location.href;  // no clipboard here: the link to copy
    }
  });
  update();
}());
