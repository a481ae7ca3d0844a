"""`roster print`: an army list as a PDF in one of its game's languages: the units chosen with
their datasheets (the rulebook's rendering), the keywords they use explained once, the totals,
and the roster rules the list was checked against, each with the source's sentence."""

from __future__ import annotations

from pathlib import Path

from markupsafe import Markup

from ..i18n.plurals import locale_of
from ..text.keywords import KeywordIndex, parse_use
from ..print.context import BuildContext, print_linker
from ..print.pdf import PdfResult, write_pdf
from ..text import blocks
from ..values import format_value, is_unstated
from .session import Checked


def keyword_ids(ctx: BuildContext, unit_ids) -> set[str]:
    """The keywords the units use, their weapons' included."""
    game = ctx.game
    index = KeywordIndex.build(game.keywords)
    uses = []
    for unit_id in unit_ids:
        unit = game.units[unit_id]
        uses += unit.keywords
        uses += [k for entry in unit.weapons if entry.weapon in game.weapons for k in game.weapons[entry.weapon].keywords]
    found = (index.find(parse_use(text).name) for text in uses)
    return {hit[0].id for hit in found if hit is not None}


def _quote(ctx: BuildContext, text: str) -> Markup:
    return Markup('<q lang="{}">{}</q>').format(ctx.game.manifest.source_language, " ".join(text.split()))


def _unstated(ctx: BuildContext, roster, *path) -> Markup:
    reason = ctx.tr.field(roster, *path, "reason")
    return Markup('<span class="unstated">{}</span>').format(reason or ctx.tr.ui("army-unstated"))


def rules_html(ctx: BuildContext, roster, counted: str | None = None) -> Markup:
    """The roster rules: each with the source's sentence, or why it is unstated; `counted`: a list's
    reading where the source leaves a cost's value open."""
    tr, ui = ctx.tr, ctx.env.globals["ui"]
    game = ctx.game
    items = [Markup("<li>{}: {} {}</li>").format(ui("army-cost"), _stat_name(ctx, roster.cost.stat),
                                                 _quote(ctx, roster.cost.source))]
    if is_unstated(roster.cost.value):
        reading = ui("army-counted").format(value={"first": 1, "second": 2}[counted]) if counted else ""
        items.append(Markup("<li>{} {}</li>").format(_unstated(ctx, roster, "cost", "value"), reading))
    items += _size_items(ctx, roster) + _limit_items(ctx, roster)
    for choice in roster.choices:
        names = ", ".join(tr.field(game.units[u], "name") for u in choice.units if u in game.units)
        items.append(Markup("<li>{} {}</li>").format(names, _quote(ctx, choice.source)))
    if is_unstated(roster.options):
        items.append(Markup("<li>{}: {}</li>").format(ui("army-options"), _unstated(ctx, roster, "options")))
    else:
        for i, option in enumerate(roster.options):
            items.append(Markup("<li>{}: +{} {}</li>").format(tr.field(roster, "options", i, "name"),
                                                            format_value(option.cost, tr.lang),
                                                            _quote(ctx, option.source)))
    for i, section in enumerate(roster.sections):
        bounds = ", ".join(x for x in (limit_span(ui, section), *scale_words(ctx, roster, section)) if x)
        items.append(Markup("<li>{}: {} {}</li>").format(section_name(ctx, roster, i), bounds, _quote(ctx, section.source)))
    if roster.reinforcement is not None:
        items.append(Markup("<li>{} {}</li>").format(_stat_name(ctx, roster.reinforcement.stat),
                                                     _quote(ctx, roster.reinforcement.source)))
    return Markup('<ul class="roster-rules">{}</ul>').format(Markup("").join(items))


def _stat_name(ctx: BuildContext, stat_id: str) -> str:
    """A stat's name in the edition's language; its id where game.yaml does not declare it."""
    stat = ctx.game.stat_def(stat_id)
    return ctx.tr.manifest("stats", ctx.game.manifest.stats.index(stat), "name") if stat else stat_id


def _size_items(ctx: BuildContext, roster) -> list[Markup]:
    """The army sizes, each with its limit and the source's sentence, or why they are unstated."""
    tr, ui, game = ctx.tr, ctx.env.globals["ui"], ctx.game
    if is_unstated(roster.sizes):
        return [Markup("<li>{}: {}</li>").format(ui("army-sizes"), _unstated(ctx, roster, "sizes"))]
    items = []
    for size in roster.sizes:
        rule = game.rules.get(size.rule)
        name = tr.field(rule, "name") if rule else size.id
        limit = (game.parameter_as_written(size.parameter) if size.parameter else size.limit)
        shown = ui("army-free") if limit == "free" else format_value(limit, tr.lang)
        items.append(Markup("<li>{}: {} {}</li>").format(name, shown, _quote(ctx, size.source)))
    return items


def limit_span(ui, limit) -> str:
    """How many a limit allows, in words: "1–2", "at least 1", "at most 2" (a bound the source
    leaves out or unstated is not printed as a dash)."""
    low = limit.min if isinstance(limit.min, int) else None
    high = limit.max if isinstance(limit.max, int) else None
    if low is not None and high is not None:
        return str(low) if low == high else f"{low}–{high}"
    if low is not None:
        return ui("army-span-at-least").format(min=low)
    return ui("army-span-at-most").format(max=high) if high is not None else ""


def section_name(ctx: BuildContext, roster, index: int) -> str:
    """A section's name in the edition's language (HQ, Штаб)."""
    return ctx.tr.field(roster, "sections", index, "name")


def scale_words(ctx: BuildContext, roster, section) -> list[str]:
    """How a section's bounds grow: "up to 2 more for each HQ", in the edition's language."""
    game, tr, ui = ctx.game, ctx.tr, ctx.env.globals["ui"]
    ids = [s.id for s in roster.sections]
    words = []
    for scale in section.per:
        if scale.section is not None:
            name = section_name(ctx, roster, ids.index(scale.section)) if scale.section in ids else scale.section
        elif scale.unit is not None:
            name = tr.field(game.units[scale.unit], "name") if scale.unit in game.units else scale.unit
        else:
            name = tr.value_name("unit", "type", scale.type)
        if scale.min is not None:
            words.append(ui("army-per-min").format(min=scale.min, name=name))
        if scale.max is not None:
            words.append(ui("army-per-max").format(max=scale.max, name=name))
    return words


def limit_name(ctx: BuildContext, limit) -> str:
    """Whom a limit counts: the unit's name, or the type as the edition's catalog words it."""
    game, tr = ctx.game, ctx.tr
    return tr.field(game.units[limit.unit], "name") if limit.unit in game.units else \
        tr.value_name("unit", "type", limit.type)


def _limit_items(ctx: BuildContext, roster) -> list[Markup]:
    """How many of a unit or type a list may take, each with the source's sentence."""
    ui = ctx.env.globals["ui"]
    items = []
    for i, limit in enumerate(roster.limits):
        why = Markup(" ").join(_unstated(ctx, roster, "limits", i, end) for end in ("min", "max")
                               if is_unstated(getattr(limit, end)))
        items.append(Markup("<li>{}: {} {} {}</li>").format(limit_name(ctx, limit), limit_span(ui, limit),
                                                            _quote(ctx, limit.source), why))
    return items


def data_version(game) -> str:
    """A fingerprint of what a list's verdict rests on (the game's data files and errata), the same
    on the printed list and the list builder page: two lists printed from different data differ."""
    from ..project.manifest import digest, file_hash

    folder = game.folder
    files = sorted([*(folder / "data").glob("*.yaml"), *([folder / "ERRATA.md"] if (folder / "ERRATA.md").is_file() else [])])
    return digest(*[x for p in files for x in (p.relative_to(folder).as_posix(), file_hash(p))])[:8]


def edition_language(lang: str, reader: str) -> str:
    """The edition's language by its name in the reader's language (CLDR, through Babel): "English",
    "русский", "английский" for a Russian reader of the English edition; the code itself where
    CLDR does not know the language."""
    locale = locale_of(lang)
    if locale.language != lang.replace("_", "-").split("-")[0].lower():
        return lang
    return locale.get_display_name(locale_of(reader)) or lang


def edition_line(ctx: BuildContext) -> str:
    """Which game, edition and data version a list is for: "Battle Rules · Edition: English · data 1a2b3c4d"."""
    ui, manifest = ctx.env.globals["ui"], ctx.game.manifest
    language = edition_language(ctx.tr.lang, ctx.tr.lang)
    edition = ui("army-edition").format(language=language) + (f", {manifest.edition}" if manifest.edition else "")
    return " · ".join([ctx.title, edition, ui("army-data-version").format(version=data_version(ctx.game))])


def _limit_text(ui, out, lang: str) -> str:
    if isinstance(out.limit, int):
        return format_value(out.limit, lang)
    return ui("army-free") if out.limit == "free" else ui("army-no-limit")


def totals_html(ctx: BuildContext, checked: Checked) -> Markup:
    """One row per line of the list: unit, how many, cost each, cost in all; then the total and limit."""
    game, tr, ui, out = ctx.game, ctx.tr, ctx.env.globals["ui"], checked.tally
    rows = []
    options = {} if is_unstated(out.roster.options) else \
        {o.id: tr.field(out.roster, "options", i, "name") for i, o in enumerate(out.roster.options)}
    for line in out.lines:
        unit_id, count, each = line.unit, line.count, line.each
        name = tr.field(game.units[unit_id], "name") if unit_id in game.units else unit_id
        taken = ", ".join(options.get(o, o) for o in line.options)
        cells = (name, Markup('<br><span class="army-line-options">{}</span>').format(taken) if taken else "", str(count),
                 "–" if each is None else format_value(each, tr.lang),
                 "–" if each is None else format_value(each * count, tr.lang))
        rows.append(Markup('<tr><th scope="row">{}{}</th><td>{}</td><td>{}</td><td>{}</td></tr>').format(*cells))
    limit = _limit_text(ui, out, tr.lang)
    total = "–" if out.total is None else format_value(out.total, tr.lang)
    head = Markup("").join(Markup('<th scope="col">{}</th>').format(ui(k))
                           for k in ("name", "army-count", "army-each", "army-subtotal"))
    return Markup('<table class="data-table army-totals"><thead><tr>{}</tr></thead><tbody>{}</tbody>'
                  '<tfoot><tr><th scope="row">{}</th><td colspan="3">{} / {}</td></tr></tfoot></table>').format(
        head, Markup("").join(rows), ui("army-total"), total, limit)


def sections_html(ctx: BuildContext, checked: Checked) -> Markup:
    """The force organisation: each section, the units the list puts in it, its bounds in the list's size."""
    ui, game, tr = ctx.env.globals["ui"], ctx.game, ctx.tr
    rows = []
    for i, filled in enumerate(checked.tally.sections):
        names = ", ".join(tr.field(game.units[checked.tally.lines[j].unit], "name") for j in filled.lines)
        bounds = limit_span(ui, filled) if filled.open else ui("army-section-locked-short")
        rows.append(Markup('<tr><th scope="row">{}</th><td>{}</td><td>{}</td><td>{}</td></tr>').format(
            section_name(ctx, checked.tally.roster, i), filled.taken, bounds, names))
    if not rows:
        return Markup("")
    head = Markup("").join(Markup('<th scope="col">{}</th>').format(ui(k)) for k in ("name", "army-count", "army-bounds", "units"))
    return Markup('<table class="data-table army-sections"><thead><tr>{}</tr></thead><tbody>{}</tbody></table>').format(
        head, Markup("").join(rows))


def list_html(ctx: BuildContext, checked: Checked) -> str:
    link = print_linker({f"{r.kind}-{r.id}" for s in ("units", "keywords") for r in ctx.game.section(s).values()})
    chosen = [line.unit for line in checked.tally.lines]
    size = checked.tally.size
    rule = ctx.game.rules.get(size.rule) if size else None
    ui = ctx.env.globals["ui"]
    counted = checked.army.counted
    return ctx.env.get_template("roster.html.j2").render(
        title=checked.army.name or ctx.title,
        game_title=edition_line(ctx),
        size=ctx.tr.field(rule, "name") if rule else "",
        limit=_limit_text(ui, checked.tally, ctx.tr.lang),
        counted=ui("army-counted").format(value={"first": 1, "second": 2}[counted]) if counted else "",
        totals=totals_html(ctx, checked),
        sections=sections_html(ctx, checked),
        units=blocks.roster_html(ctx.game, ctx.tr, link, only=set(chosen)),
        glossary=blocks.glossary_html(ctx.game, ctx.tr, link, only=keyword_ids(ctx, chosen)),
        rules=rules_html(ctx, checked.tally.roster, checked.army.counted),
        css=Markup(ctx.css("rulebook.css")),
    )


def print_list(checked: Checked, lang: str, project_root: Path, list_path: Path) -> PdfResult:
    """Write output/GAME/LANG/lists/NAME.pdf (NAME: the list file's name)."""
    ctx = BuildContext(checked.game, lang, project_root)
    out = ctx.output_dir() / "lists" / f"{list_path.stem}.pdf"
    return write_pdf(list_html(ctx, checked), out, ctx.game.folder, ctx.roots)
