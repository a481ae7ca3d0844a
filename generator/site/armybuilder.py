"""A game's list-builder page: pick units and options under the roster rules, see the total and
breaches live, print, share as a link, and download the YAML `rulesmith roster check` reads.

The page works from the static site with no server and no network: the roster rules and unit
costs are embedded as JSON, and templates/site/roster.js (plain JS) reads them. What the script
checks mirrors generator/roster/tally.py; the browser test runs `roster check` on its download."""

from __future__ import annotations

import json

from markupsafe import Markup

from ..model.rosters import Roster
from ..print.context import BuildContext
from ..roster.printed import edition_line, keyword_ids, limit_name, rules_html, section_name
from ..text import blocks
from ..text.blocks import anchor
from ..roster.tally import cost_values
from ..values import is_unstated

PAGE = "army-list.html"
WORDS = ("army-over", "army-at-most", "army-at-least", "army-one-of", "army-only-one", "army-pick-counted",
         "army-pick-size", "army-no-breach", "army-copied", "army-total", "army-free", "army-no-limit",
         "army-unknown-unit", "army-unknown-option", "army-unknown-size", "army-did-you-mean", "army-option-not-open",
         "army-option-max", "army-no-cost", "army-negative-cost", "army-bad-count", "army-not-computed",
         "army-remove-line", "army-no-size-limit", "army-untitled", "army-copy-of", "army-not-kept", "army-file-error",
         "army-file-game", "army-file-opened", "army-unknown-field", "army-counted", "army-not-valid", "army-section-max",
         "army-section-min", "army-section-locked", "army-no-section", "army-unknown-section", "army-section-not-open",
         "army-section-locked-short", "army-span-at-least", "army-span-at-most", "army-section-label",
         "army-counted-not-open")


def _number(value):
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def builder_data(ctx: BuildContext, roster: Roster) -> dict:
    """What the script needs: the roster rules and each unit's name and cost."""
    game, tr, ui = ctx.game, ctx.tr, ctx.env.globals["ui"]
    sizes = [] if is_unstated(roster.sizes) else roster.sizes
    units = []
    for unit in game.units.values():
        cost = cost_values(game, roster, unit.id)
        units.append({"id": unit.id, "name": tr.field(unit, "name"), "type": unit.type,
                      "cost": [_number(v) for v in cost] if isinstance(cost, tuple) else _number(cost)})
    return {
        "game": game.id,
        "roster": roster.id if len(game.section("rosters")) > 1 else None,
        "counted": is_unstated(roster.cost.value),
        "value": None if is_unstated(roster.cost.value) else roster.cost.value,  # the roster's own reading
        "sizes": [{"id": s.id, "limit": _number(game.parameter_as_written(s.parameter) if s.parameter else s.limit),
                   "free": s.limit == "free", "name": tr.field(game.rules[s.rule], "name") if s.rule in game.rules else s.id}
                  for s in sizes],
        "heading": edition_line(ctx),
        "units": units,
        "limits": [{"unit": lim.unit, "type": lim.type, "min": _number(lim.min), "max": _number(lim.max),
                    "name": limit_name(ctx, lim)}
                   for lim in roster.limits],
        "choices": [{"id": c.id, "units": list(c.units), "required": c.required, "exclusive": c.exclusive}
                    for c in roster.choices],
        "options": [] if is_unstated(roster.options) else [
            {"id": o.id, "name": tr.field(roster, "options", i, "name"), "units": list(o.units), "cost": _number(o.cost),
             "max": _number(o.max)}
            for i, o in enumerate(roster.options)],
        "sections": [{"id": s.id, "name": section_name(ctx, roster, i), "units": list(s.units), "types": list(s.types),
                      "min": s.min, "max": s.max, "sizes": {b.size: [b.min, b.max] for b in s.sizes},
                      "unlocked_by": list(s.unlocked_by),
                      "per": [{"section": p.section, "unit": p.unit, "type": p.type, "min": p.min, "max": p.max}
                              for p in s.per]} for i, s in enumerate(roster.sections)],
        "words": {w: ui(w) for w in WORDS},
    }


def _select(ident: str, label: str, choices: list[tuple[str, str]], ui) -> Markup:
    options = Markup("").join(Markup('<option value="{}">{}</option>').format(v, t) for v, t in choices)
    return Markup('<p class="army-field"><label for="{0}">{1}</label> <select id="{0}" name="{0}">'
                  '<option value="">{2}</option>{3}</select></p>').format(ident, label, ui("army-choose"), options)


def _unit_rows(ctx: BuildContext, data: dict) -> Markup:
    ui = ctx.env.globals["ui"]
    rows = []
    for unit in data["units"]:
        cost = unit["cost"]
        shown = " / ".join("–" if c is None else str(c) for c in cost) if isinstance(cost, list) else (
            "–" if cost is None else str(cost))
        options = Markup("").join(
            Markup('<label class="army-option"><input type="checkbox" data-unit="{0}" data-option="{1}"> {2} (+{3})'
                   '</label>').format(unit["id"], o["id"], o["name"], o["cost"])
            for o in data["options"] if unit["id"] in o["units"])
        add = Markup('<button type="button" class="army-add" data-unit="{0}" aria-label="{1}" title="{1}">+</button>'
                     ).format(unit["id"], ui("army-add-line").format(unit=unit["name"]))
        rows.append(Markup(
            '<tr data-unit="{0}" data-line="1"><th scope="row" id="army-unit-{0}"><a href="units/{0}.html">{1}</a>'
            '<span class="army-notes" id="army-notes-{0}"></span></th><td>{2}</td>'
            '<td><span class="army-count-cell"><input type="number" class="army-count" inputmode="numeric" min="0" '
            'step="1" value="0" data-unit="{0}" id="army-count-{0}" aria-labelledby="army-count-label army-unit-{0}" '
            'aria-describedby="army-notes-{0}">{4}</span></td>{3}</tr>'
        ).format(unit["id"], unit["name"], shown, Markup("<td>{}</td>").format(options) if data["options"] else "", add))
    head = Markup('<thead><tr><th scope="col">{}</th><th scope="col">{}</th><th scope="col" id="army-count-label">{}'
                  '</th>{}</tr></thead>').format(ui("name"), ui("army-each"), ui("army-count"),
                                                 Markup('<th scope="col">{}</th>').format(ui("army-options"))
                                                 if data["options"] else "")
    return Markup('<table class="data-table army-units">{}<tbody>{}</tbody></table>').format(head, Markup("").join(rows))


def sheets_html(ctx: BuildContext, link) -> tuple[Markup, dict]:
    """Every unit's datasheet (the rulebook's rendering, as `roster print` prints them) and the
    keywords they use, for the page's print: the script marks those of the chosen units, and the
    print stylesheet shows only those. Returns the markup and, per unit, the anchors of its row
    and of the keywords it uses."""
    game, tr, ui = ctx.game, ctx.tr, ctx.env.globals["ui"]
    if not game.units:
        return Markup(""), {}
    used = {unit_id: sorted(keyword_ids(ctx, [unit_id])) for unit_id in game.units}
    every = {k for ids in used.values() for k in ids}
    glossary = Markup('<h3>{}</h3>{}').format(ui("glossary"), blocks.glossary_html(game, tr, link, only=every)) \
        if every else Markup("")
    sheets = {unit_id: {"row": anchor(unit), "keywords": [anchor(game.keywords[k]) for k in used[unit_id]]}
              for unit_id, unit in game.units.items()}
    return Markup('<section class="army-sheets" id="army-sheets" aria-labelledby="army-sheets-title" data-pagefind-ignore>'
                  '<h2 id="army-sheets-title">{}</h2>{}{}</section>').format(
        ui("units"), blocks.roster_html(game, tr, link), glossary), sheets


def builder_page(ctx: BuildContext, roster: Roster, root: str, link=None) -> Markup:
    """The page's body; `root`: the site's root from the page (for the script); `link`: the site's
    linker for the datasheets (a unit's page, a keyword's entry)."""
    game, ui = ctx.game, ctx.env.globals["ui"]
    data = builder_data(ctx, roster)
    sheets, data["sheets"] = sheets_html(ctx, link or (lambda record: None))
    parts = [Markup('<p class="army-print-head" id="army-print-head"></p>'), Markup(
        '<fieldset class="army-saved" id="army-saved"><legend>{}</legend>'
        '<p class="army-field"><label for="army-lists">{}</label> <select id="army-lists"></select></p>'
        '<p class="army-actions"><button type="button" id="army-new">{}</button> '
        '<button type="button" id="army-duplicate">{}</button> <button type="button" id="army-delete">{}</button></p>'
        '<p class="army-field"><label for="army-open">{}</label> '
        '<input type="file" id="army-open" accept=".yaml,.yml,application/yaml,text/yaml"></p>'
        '<p class="army-kept" id="army-kept" role="status" aria-live="polite"></p></fieldset>').format(
        ui("army-your-lists"), ui("army-saved-list"), ui("army-new"), ui("army-duplicate"), ui("army-delete"),
        ui("army-open"))]
    if data["sizes"]:
        names = [(s.id, ctx.tr.field(game.rules[s.rule], "name") if s.rule in game.rules else s.id)
                 for s in roster.sizes]
        parts.append(_select("army-size", ui("army-size"), names, ui))
    if data["counted"]:
        parts.append(_select("army-counted", ui("army-counted-label"), [("first", "1"), ("second", "2")], ui))
    parts.append(Markup('<p class="army-field"><label for="army-name">{}</label> '
                        '<input id="army-name" name="army-name" type="text" autocomplete="off"></p>').format(ui("army-name")))
    parts.append(_unit_rows(ctx, data) if data["units"] else Markup("<p>{}</p>").format(ui("army-no-units")))
    if roster.sections:
        parts.append(Markup('<h2 id="army-sections-title">{}</h2><ul class="army-sections" id="army-sections" '
                            'aria-labelledby="army-sections-title"></ul>').format(ui("army-sections")))
    parts.append(Markup('<p class="army-total" id="army-total" role="status" aria-live="polite"></p>'
                        '<h2 id="army-breaches-title">{}</h2><ul class="army-breaches" id="army-breaches" '
                        'aria-live="polite" aria-labelledby="army-breaches-title"></ul>').format(ui("army-breaches")))
    parts.append(Markup('<p class="army-actions"><button type="button" id="army-print">{}</button> '
                        '<button type="button" id="army-share">{}</button> '
                        '<a id="army-download" href="#" download="{}.yaml">{}</a> '
                        '<span id="army-shared" role="status" aria-live="polite"></span></p>').format(
        ui("army-print"), ui("army-share"), game.id, ui("army-download")))
    # no markup in the embedded JSON: a unit named "<script>…" stays a string
    json_text = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace(
        "&", "\\u0026")
    form = Markup('<form class="army-builder" id="army-builder" action="#">{}'
                  '<script type="application/json" id="army-data">{}</script></form>').format(
        Markup("").join(parts), Markup(json_text))
    rules = sheets + Markup('<h2 id="roster-rules">{}</h2>{}').format(ui("roster-rules"), rules_html(ctx, roster))
    script = Markup('<script src="{0}assets/js-yaml.min.js" defer></script>'
                    '<script src="{0}assets/roster.js" defer></script>').format(root)
    return form + rules + script
