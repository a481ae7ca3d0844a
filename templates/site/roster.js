// The list builder: totals and breaches as `rulesmith roster check` finds them (generator/roster/tally.py),
// a link that opens the same list, and the YAML file the command reads. Plain JS, works from file://.
(function () {
  "use strict";
  const form = document.getElementById("army-builder");
  if (!form) { return; }
  const data = JSON.parse(document.getElementById("army-data").textContent);
  const words = data.words;
  const size = document.getElementById("army-size");
  const counted = document.getElementById("army-counted");
  const name = document.getElementById("army-name");
  const counts = Array.from(form.querySelectorAll(".army-count"));
  const options = Array.from(form.querySelectorAll("input[data-option]"));
  const units = Object.fromEntries(data.units.map((u) => [u.id, u]));
  const optionCost = Object.fromEntries(data.options.map((o) => [o.id, o.cost || 0]));

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, (m, key) => (key in values ? String(values[key]) : m));
  }

  function state() {
    const lines = [];
    for (const input of counts) {
      const count = Math.max(0, Math.floor(Number(input.value) || 0));
      input.closest("tr").dataset.count = String(count);
      if (count > 0) {
        const chosen = options.filter((o) => o.dataset.unit === input.dataset.unit && o.checked).map((o) => o.dataset.option);
        lines.push({ unit: input.dataset.unit, count: count, options: chosen });
      }
    }
    return { size: size ? size.value : "", counted: counted ? counted.value : "", name: name.value.trim(), lines: lines };
  }

  function costOf(unit, reading) {
    const cost = units[unit].cost;
    if (!Array.isArray(cost)) { return cost; }
    if (!reading) { return null; }
    return cost[reading === "first" ? 0 : Math.min(1, cost.length - 1)];
  }

  function check(list) {
    const breaches = [];
    const chosenSize = data.sizes.find((s) => s.id === list.size) || null;
    if (data.sizes.length && !chosenSize) { breaches.push(words["army-pick-size"]); }
    const limit = chosenSize && typeof chosenSize.limit === "number" ? chosenSize.limit : null;
    if (data.counted && !list.counted && limit !== null) { breaches.push(words["army-pick-counted"]); }
    let total = 0;
    for (const line of list.lines) {
      const each = costOf(line.unit, list.counted);
      if (each === null || total === null) { total = null; continue; }
      total += (each + line.options.reduce((sum, o) => sum + (optionCost[o] || 0), 0)) * line.count;
    }
    if (limit !== null && total !== null && total > limit) {
      breaches.push(fill(words["army-over"], { total: total, limit: limit }));
    }
    for (const rule of data.limits) {
      const taken = list.lines.filter((l) => (rule.unit ? l.unit === rule.unit : units[l.unit].type === rule.type))
        .reduce((sum, l) => sum + l.count, 0);
      if (typeof rule.max === "number" && taken > rule.max) {
        breaches.push(fill(words["army-at-most"], { name: rule.name, max: rule.max, count: taken }));
      }
      if (typeof rule.min === "number" && taken < rule.min) {
        breaches.push(fill(words["army-at-least"], { name: rule.name, min: rule.min, count: taken }));
      }
    }
    for (const choice of data.choices) {
      const taken = list.lines.filter((l) => choice.units.includes(l.unit)).reduce((sum, l) => sum + l.count, 0);
      const names = choice.units.filter((u) => units[u]).map((u) => units[u].name).join(", ");
      if (choice.required && taken === 0) { breaches.push(fill(words["army-one-of"], { names: names })); }
      if (choice.exclusive && taken > 1) { breaches.push(fill(words["army-only-one"], { names: names })); }
    }
    return { total: total, limit: limit, free: chosenSize ? chosenSize.free : false, breaches: breaches };
  }

  function quoted(text) {
    return JSON.stringify(text);  // a JSON string is a YAML double-quoted scalar
  }

  function yaml(list) {
    const out = ["game: " + data.game];
    if (data.roster) { out.push("roster: " + data.roster); }
    if (list.size) { out.push("size: " + list.size); }
    if (list.counted) { out.push("counted: " + list.counted); }
    if (list.name) { out.push("name: " + quoted(list.name)); }
    out.push(list.lines.length ? "units:" : "units: []");
    for (const line of list.lines) {
      out.push("  - unit: " + line.unit);
      if (line.count !== 1) { out.push("    count: " + line.count); }
      if (line.options.length) { out.push("    options: [" + line.options.join(", ") + "]"); }
    }
    return out.join("\n") + "\n";
  }

  function toHash(list) {
    const params = new URLSearchParams();
    if (list.size) { params.set("size", list.size); }
    if (list.counted) { params.set("counted", list.counted); }
    if (list.name) { params.set("name", list.name); }
    for (const line of list.lines) { params.append("u", [line.unit, line.count, ...line.options].join("*")); }
    return params.toString();
  }

  function fromHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    if (size && params.get("size")) { size.value = params.get("size"); }
    if (counted && params.get("counted")) { counted.value = params.get("counted"); }
    if (params.get("name")) { name.value = params.get("name"); }
    for (const entry of params.getAll("u")) {
      const [unit, count, ...chosen] = entry.split("*");
      const input = counts.find((i) => i.dataset.unit === unit);
      if (!input) { continue; }
      input.value = String(Math.max(0, Math.floor(Number(count) || 0)));
      for (const o of options) {
        if (o.dataset.unit === unit && chosen.includes(o.dataset.option)) { o.checked = true; }
      }
    }
  }

  const totalOut = document.getElementById("army-total");
  const breachOut = document.getElementById("army-breaches");
  const download = document.getElementById("army-download");
  let url = null;

  function update() {
    const list = state();
    const result = check(list);
    const limit = result.limit !== null ? String(result.limit) : (result.free ? words["army-free"] : words["army-no-limit"]);
    totalOut.textContent = words["army-total"] + ": " + (result.total === null ? "–" : result.total) + " / " + limit;
    totalOut.classList.toggle("over", result.breaches.length > 0);
    breachOut.replaceChildren(...(result.breaches.length ? result.breaches : [words["army-no-breach"]]).map((text) => {
      const li = document.createElement("li");
      li.textContent = text;
      return li;
    }));
    breachOut.classList.toggle("ok", result.breaches.length === 0);
    form.dataset.breaches = String(result.breaches.length);
    if (url) { URL.revokeObjectURL(url); }
    url = URL.createObjectURL(new Blob([yaml(list)], { type: "application/yaml" }));
    download.href = url;
    if (size) { size.toggleAttribute("data-chosen", Boolean(size.value)); }
    history.replaceState(null, "", "#" + toHash(list));
  }

  fromHash();
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  form.addEventListener("submit", (event) => event.preventDefault());
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
