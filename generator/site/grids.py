"""Probability tables on the site: the rules checker's tables (generator/checker/tables.py, in
output/<game>/tables/) as two-dimensional grids, rows and columns named, each cell shaded by its
chance, with the dice and assumptions stated; and a calculator that picks one cell. Everything is
computed at build time: the page embeds the grid as JSON and a small script reads it."""

from __future__ import annotations

import json
import re
from fractions import Fraction

from markupsafe import Markup

from .matchups import readings_of, totals, unit_choices

_EXACT = re.compile(r"^\d+(/\d+)?$")


def _text(value, lang: str) -> str:
    if isinstance(value, dict):
        return str(value.get(lang) or next(iter(value.values()), ""))
    return "" if value is None else str(value)


def _chance(value) -> Fraction | None:
    if isinstance(value, str) and _EXACT.match(value):
        return Fraction(value)
    return None


def split_columns(table: dict) -> tuple[list[dict], list[dict]]:
    """(inputs, chances): columns whose every exact value is a probability are chances; the
    others name a row (Quality, Defence...)."""
    exact = table.get("exact") or []
    inputs, chances = [], []
    for column in table["columns"]:
        values = [row.get(column["id"]) for row in exact]
        is_chance = bool(values) and all(_chance(v) is not None and _chance(v) <= 1 for v in values) and \
            any(isinstance(r.get(column["id"]), str) and "%" in r.get(column["id"]) for r in table["rows"])
        (chances if is_chance else inputs).append(column)
    return inputs, chances


def grid_html(table: dict, lang: str, dice: str, ui, ctx=None) -> Markup:
    """One table as a grid: the inputs name each row (earlier inputs group the rows), the
    outcomes name the columns."""
    inputs, chances = split_columns(table)
    rows = (table.get("localized") or {}).get(lang) or table["rows"]
    exact = table.get("exact") or [{} for _ in rows]
    title = _text(table.get("title"), lang)
    if not inputs or not chances:
        return _flat(table, rows, title, lang)
    groups = inputs[:-1]
    head = [Markup('<th scope="col">{}</th>').format(_text(c["name"], lang)) for c in inputs]
    head += [Markup('<th scope="col">{}</th>').format(_text(c["name"], lang)) for c in chances]
    body, previous = [], None
    for row, exact_row in zip(rows, exact):
        # Every row names all its inputs (no rowspan), so a phone can keep the first column in
        # view; a new group starts with a heavier rule.
        group = tuple(str(row.get(c["id"], "")) for c in groups)
        start = Markup(' class="group-start"') if group != previous and previous is not None else Markup("")
        previous = group
        cells = [Markup('<th scope="row">{}</th>').format(row.get(c["id"], "")) for c in inputs]
        for c in chances:
            p = _chance(exact_row.get(c["id"]))
            shade = f"--p:{float(p):.3f}" if p is not None else "--p:0"
            cells.append(Markup('<td style="{}" title="{}">{}</td>').format(
                shade, str(p) if p is not None else "", row.get(c["id"], "")))
        body.append(Markup("<tr{}>{}</tr>").format(start, Markup("").join(cells)))
    note = Markup('<p class="grid-note">{}</p>').format(dice) if dice else Markup("")  # dice and assumptions
    table_html = Markup('<table class="data-table grid" id="grid-{}"><caption>{}</caption><thead><tr>{}</tr></thead>'
                        '<tbody>{}</tbody></table>').format(table.get("table", ""), title, Markup("").join(head),
                                                              Markup("").join(body))
    return Markup("").join([Markup('<h2 id="prob-{}">{}</h2>').format(table.get("table", ""), title), note,
                            calculator_html(table, inputs, chances, rows, exact, lang, ui,
                                            unit_choices(ctx, table, rows, inputs, chances) if ctx else {}),
                            table_html])


def calculator_html(table, inputs, chances, rows, exact, lang: str, ui, units: dict | None = None) -> Markup:
    """Choose each input and the outcome, or the units whose data set them; the script reads the
    precomputed cell."""
    tid = table.get("table", "")
    choices = []
    units = units or {}
    picks = []
    for side in ("attacker", "target"):
        if not units.get(side):
            continue
        options = Markup('<option value="">{}</option>').format(ui("choose-unit")) + Markup("").join(
            Markup('<option value="{}" data-unit="{}">{}</option>').format(i, c.unit, c.label)
            for i, c in enumerate(units[side]))
        picks.append(Markup('<label>{} <select class="calc-unit" data-side="{}">{}</select></label>').format(
            ui(side), side, options))
    if picks:
        choices.append(Markup('<fieldset class="calc-units"><legend>{}</legend>{}</fieldset>').format(
            ui("units-calculator"), Markup("").join(picks)))
    for c in inputs:
        values = list(dict.fromkeys(str(r.get(c["id"], "")) for r in rows))
        options = Markup("").join(Markup("<option>{}</option>").format(v) for v in values)
        choices.append(Markup('<label>{} <select class="calc-input" data-column="{}">{}</select></label>').format(
            _text(c["name"], lang), c["id"], options))
    outcome = Markup("").join(Markup("<option>{}</option>").format(_text(c["name"], lang)) for c in chances)
    cells = {"|".join(str(r.get(c["id"], "")) for c in inputs):
             [[r.get(c["id"], ""), str(_chance(e.get(c["id"])) or "")] for c in chances]
             for r, e in zip(rows, exact)}
    data = {"cells": cells}
    for side, found in units.items():
        data[side] = [{"inputs": c.inputs, "outcome": c.outcome,
                       **({"times": c.times, "totals": totals(c, cells, [i["id"] for i in inputs], lang)}
                          if c.times else {})} for c in found]
    data = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return Markup('<form class="calculator" aria-labelledby="calc-{0}-title prob-{0}" data-pagefind-ignore>'
                  '<p class="calc-title" id="calc-{0}-title"><strong>{1}</strong></p>{2}'
                  '<label>{3} <select class="calc-outcome">{4}</select></label>'
                  '<p><output aria-live="polite"></output> <span class="calc-exact"></span></p>{6}'
                  '<script type="application/json">{5}</script></form>').format(
        tid, ui("calculator"), Markup("").join(choices), ui("probabilities"), outcome, Markup(data),
        Markup('<p class="calc-total" data-text="{}" aria-live="polite"></p>').format(ui("calc-total"))
        if any(c.times for c in units.get("attacker", [])) else "")


def _flat(table: dict, rows: list[dict], title: str, lang: str) -> Markup:
    head = Markup("").join(Markup('<th scope="col">{}</th>').format(_text(c["name"], lang)) for c in table["columns"])
    body = Markup("").join(Markup("<tr>{}</tr>").format(Markup("").join(
        Markup("<td>{}</td>").format(row.get(c["id"], "")) for c in table["columns"])) for row in rows)
    return Markup('<table class="data-table prob"><caption>{}</caption><thead><tr>{}</tr></thead><tbody>{}</tbody>'
                  '</table>').format(title, head, body)


def grid_title(table: dict, lang: str) -> str:
    return _text(table.get("title"), lang) or str(table.get("table", ""))


def assumptions(table: dict, lang: str, source: str) -> str:
    """What the table assumes, in `lang` (the procedure's `@table(assumes=...)`: {lang: text}, or
    one text in the source language); "" where it gives none in that language (`validate` warns,
    W019): the procedure's docstring is never shown in its place."""
    assumes = table.get("assumes")
    if isinstance(assumes, str):
        assumes = {source: assumes}
    if isinstance(assumes, dict):
        return " ".join(str(assumes.get(lang) or "").split())
    return ""


def grid_note(ctx, table: dict) -> Markup:
    """The dice rolled and the procedure's own statement of what the table assumes."""
    game, tr, ui = ctx.game, ctx.tr, ctx.env.globals["ui"]
    parts = []
    if game.dice:
        parts.append(Markup("<strong>{}:</strong> {}.").format(
            ui("dice"), ", ".join(tr.field(d, "name") for d in game.dice.values())))
    text = assumptions(table, ctx.lang, game.manifest.source_language)
    if text:
        parts.append(Markup("<strong>{}:</strong> {}").format(ui("assumptions"), text))
    return Markup(" ").join(parts)


def odds_html(ctx, unit, probs: list[dict], ui) -> Markup:
    """Links from a unit's page to the odds tables: the calculator preset to this unit where the
    table reads units (as attacker, as target), else to the unit's own stat where a table's
    input is one of them (the column id is the stat's id)."""
    from urllib.parse import urlencode

    from ..text.blocks import stat_text

    links = []
    for table in probs:
        inputs, chances = split_columns(table)
        if not inputs or not chances:
            continue
        title, tid = grid_title(table, ctx.lang), table.get("table", "")
        sides = readings_of(table, unit.id)
        if sides:
            links.append(Markup('<li>{}: {}</li>').format(title, Markup(", ").join(
                Markup('<a class="odds-link" href="../tables.html?{}#prob-{}">{}</a>').format(
                    urlencode({side: unit.id}), tid, ui(f"odds-as-{side}")) for side in sides)))
            continue
        # The first input that is one of the unit's stats: tables lead with the acting side's stat
        # (Quality, Accuracy); later inputs are usually the target's.
        own = next((c["id"] for c in inputs if ("units", unit.id, c["id"]) in ctx.game.values), None)
        preset = {own: stat_text(ctx.game, unit, own, ctx.lang)} if own else {}
        query = ("?" + urlencode(preset)) if preset else ""
        links.append(Markup('<li><a class="odds-link" href="../tables.html{}#prob-{}">{}</a></li>').format(
            query, tid, title))
    if not links:
        return Markup("")
    return Markup('<section class="odds" aria-labelledby="odds-title"><h2 id="odds-title">{}</h2><ul>{}</ul></section>'
                  ).format(ui("probabilities"), Markup("").join(links))
