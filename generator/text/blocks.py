"""HTML for data shown inside the text: tables, the glossary, the roster, other sections.
Shared by the rulebook, the reference sheet and the site, so they always agree."""

from __future__ import annotations

from typing import Callable

from markupsafe import Markup, escape

from ..game import Game
from ..i18n.translate import Translator
from ..model import Record, Table, Unit
from ..values import StatType, format_value, parse_value

Linker = Callable[[Record], str | None]


def anchor(record: Record) -> str:
    return f"{record.kind}-{record.id}"


def _cell(value) -> str:
    return "–" if value is None else str(value)


def draft_badge(record: Record, tr: Translator) -> Markup:
    if not record.incomplete:
        return Markup("")
    reason = tr.field(record, "incomplete")
    return Markup('<span class="draft" title="{}">{}</span>').format(reason, tr.ui("draft"))


def table_html(table: Table, tr: Translator) -> Markup:
    columns = [(c.id, tr.field(table, "columns", table.columns.index(c), "name")) for c in table.columns]
    if table.dice and not any(c == "roll" for c, _ in columns):
        columns.insert(0, ("roll", f"{tr.ui('roll')} ({table.dice})"))
    if not columns and table.rows:
        columns = [(key, key) for key in table.rows[0]]
    out = [Markup('<table class="data-table" id="{}">').format(anchor(table))]
    out.append(Markup("<caption>{}{}</caption>").format(tr.field(table, "name"), draft_badge(table, tr)))
    out.append(Markup("<thead><tr>") + Markup("").join(Markup("<th scope=\"col\">{}</th>").format(n) for _, n in columns)
               + Markup("</tr></thead><tbody>"))
    for i, row in enumerate(table.rows):
        cells = []
        for key, _ in columns:
            value = row.get(key)
            text = tr.field(table, "rows", i, key) if isinstance(value, str) and key != "roll" else _cell(value)
            cells.append(Markup("<td>{}</td>").format(text))
        out.append(Markup("<tr>") + Markup("").join(cells) + Markup("</tr>"))
    out.append(Markup("</tbody></table>"))
    if table.text:
        out.append(Markup('<p class="table-note">{}</p>').format(tr.field(table, "text")))
    return Markup("").join(out)


def keyword_label(game: Game, tr: Translator, record) -> str:
    name = tr.field(record, "name")
    return f"{name} ({record.parameter})" if getattr(record, "parameter", None) else name


def stat_columns(game: Game, kind: str, records) -> list:
    """The stats of `kind` that at least one of the records has (written, or read through an erratum)."""
    ids = {(r.section, r.id) for r in records}
    used = {stat for (section, rid, stat) in game.values if (section, rid) in ids}
    return [s for s in game.manifest.stats if kind in s.applies_to and s.id in used]


def stat_text(game: Game, record: Record, stat_id: str, lang: str = "en") -> str:
    key = (record.section, record.id, stat_id)
    if key not in game.values:
        return "–"
    value = game.values[key]
    if isinstance(value, tuple):
        return " / ".join(format_value(v, lang) for v in value)
    return format_value(value, lang)


def roster_html(game: Game, tr: Translator, link: Linker) -> Markup:
    units = list(game.units.values())
    stats = stat_columns(game, "unit", units)
    head = [tr.ui("name"), *(tr.manifest("stats", game.manifest.stats.index(s), "abbr")
                                   or tr.manifest("stats", game.manifest.stats.index(s), "name") for s in stats)]
    out = [Markup('<table class="data-table roster"><thead><tr>'),
           Markup("").join(Markup('<th scope="col">{}</th>').format(h) for h in head),
           Markup("</tr></thead><tbody>")]
    for unit in units:
        name = tr.field(unit, "name")
        href = link(unit)
        if href and not href.endswith(f"#{anchor(unit)}"):  # its own page (site), not this very row (print)
            name = Markup('<a href="{}">{}</a>').format(href, name)
        out.append(Markup('<tr id="{}"><th scope="row">{}{}</th>').format(anchor(unit), name, draft_badge(unit, tr)))
        for stat in stats:
            out.append(Markup("<td>{}</td>").format(stat_text(game, unit, stat.id, tr.lang)))
        out.append(Markup("</tr>"))
        extra = unit_details(game, tr, unit, link)
        if extra:
            out.append(Markup('<tr class="details"><td colspan="{}">{}</td></tr>').format(len(head), extra))
    out.append(Markup("</tbody></table>"))
    return Markup("").join(out)


def keyword_uses_html(game: Game, tr: Translator, uses, link: Linker) -> Markup:
    from ..checks.keywords import KeywordIndex, parse_use

    index = KeywordIndex.build(game.keywords)
    parts = []
    for text in uses:
        use = parse_use(text)
        found = index.find(use.name)
        if found is None:
            parts.append(escape(text))
            continue
        keyword = found[0]
        label = tr.field(keyword, "name") + (f" ({use.param})" if use.param else "")
        parts.append(keyword_ref_html(keyword, label, tr, link))
    return Markup(", ").join(parts)


def keyword_ref_html(keyword, label: str, tr: Translator, link: Linker) -> Markup:
    href = link(keyword)
    tip = Markup('<span class="kw-tip" role="tooltip">{}</span>').format(tr.field(keyword, "definition"))
    if href is None:
        return Markup('<span class="kw">{}</span>').format(label)
    return Markup('<a class="kw" href="{}">{}{}</a>').format(href, label, tip)


def unit_details(game: Game, tr: Translator, unit: Unit, link: Linker) -> Markup:
    out = []
    if unit.type:
        out.append(Markup('<p class="unit-type">{}</p>').format(tr.field(unit, "type")))
    if unit.keywords:
        out.append(Markup('<p class="unit-keywords">{}</p>').format(keyword_uses_html(game, tr, unit.keywords, link)))
    if unit.weapons:
        rows = []
        wstats = stat_columns(game, "weapon", [game.weapons[w.weapon] for w in unit.weapons if w.weapon in game.weapons])
        for entry in unit.weapons:
            weapon = game.weapons.get(entry.weapon)
            if weapon is None:
                continue
            count = f"{entry.count}× " if entry.count else ""
            cells = Markup("").join(Markup("<td>{}</td>").format(stat_text(game, weapon, s.id, tr.lang)) for s in wstats)
            rows.append(Markup('<tr><th scope="row">{}{}</th>{}<td>{}</td></tr>').format(
                count, tr.field(weapon, "name"), cells, keyword_uses_html(game, tr, weapon.keywords, link)))
        head = Markup("").join(Markup('<th scope="col">{}</th>').format(
            tr.manifest("stats", game.manifest.stats.index(s), "name")) for s in wstats)
        out.append(Markup('<table class="weapons"><thead><tr><th scope="col">{}</th>{}<th scope="col"></th></tr></thead>'
                          '<tbody>{}</tbody></table>').format(tr.ui("weapons"), head, Markup("").join(rows)))
    for i, ability in enumerate(unit.abilities):
        out.append(Markup('<p class="ability"><strong>{}.</strong> {}</p>').format(
            tr.field(unit, "abilities", i, "name"), tr.field(unit, "abilities", i, "text")))
    if unit.text:
        out.append(Markup('<p class="flavour">{}</p>').format(tr.field(unit, "text")))
    if unit.incomplete:
        out.append(Markup('<p class="incomplete-reason">{}: {}</p>').format(tr.ui("incomplete"),
                                                                           tr.field(unit, "incomplete")))
    return Markup("").join(out)


def glossary_html(game: Game, tr: Translator, link: Linker) -> Markup:
    out = [Markup('<dl class="glossary">')]
    for keyword in game.keywords.values():
        out.append(Markup('<dt id="{}">{}</dt><dd>{}</dd>').format(
            anchor(keyword), keyword_label(game, tr, keyword), tr.field(keyword, "definition")))
    out.append(Markup("</dl>"))
    return Markup("").join(out)


def records_html(game: Game, section: str, tr: Translator, link: Linker) -> Markup:
    """Any section as a definition list: name, then its text (and parameters)."""
    if section == "keywords":
        return glossary_html(game, tr, link)
    if section == "units":
        return roster_html(game, tr, link)
    if section == "tables":
        return Markup("").join(table_html(t, tr) for t in game.tables.values())
    out = [Markup('<dl class="records records-{}">').format(section)]
    for record in game.section(section).values():
        name = tr.field(record, "name") if hasattr(record, "name") else record.id
        body = []
        for attr in ("text", "definition", "summary"):
            if getattr(record, attr, None):
                body.append(Markup("<p>{}</p>").format(tr.field(record, attr)))
        if getattr(record, "keywords", None):
            body.append(Markup("<p>{}</p>").format(keyword_uses_html(game, tr, record.keywords, link)))
        if getattr(record, "faces", None):
            faces = Markup("").join(
                Markup("<li>{}{}</li>").format(f"{f.value}: " if f.value is not None else "",
                                               tr.field(record, "faces", i, "name") or f.symbol or "")
                for i, f in enumerate(record.faces))
            body.append(Markup("<ul class=\"faces\">{}</ul>").format(faces))
        if section == "bands":
            unit = format_value(parse_value(1, StatType.DISTANCE, record.unit), tr.lang).split("\u00a0")[1]
            body.insert(0, Markup("<p>{}\u00a0{}</p>").format(band_span(record), unit))
        out.append(Markup('<dt id="{}">{}{}</dt><dd>{}</dd>').format(anchor(record), name, draft_badge(record, tr),
                                                                     Markup("").join(body)))
    out.append(Markup("</dl>"))
    return Markup("").join(out)


def band_span(band) -> str:
    """0–1, 8+, ≤ 1 or ≥ 2 for a distance band."""
    low, high = band.min, band.max
    if low is not None and high is not None:
        return f"{format_value(low)}–{format_value(high)}"
    if high is None and low is not None:
        return f"{format_value(low)}+"
    if low is None and high is not None:
        return f"≤ {format_value(high)}"
    return "–"
