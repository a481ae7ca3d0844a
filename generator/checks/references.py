"""Every reference between records points at something that exists."""

from __future__ import annotations

from ..core.diagnostics import Report, did_you_mean
from ..reading.game import Game, Origin
from ..model import SECTIONS
from ..text.keywords import KeywordIndex, parse_use
from .names import broken


def report_unknown(report: Report, where, what: str, name: str, pool) -> None:
    """E007 at `where`: `name` is no known `what`; the hint names the nearest in `pool`."""
    pool = list(pool)
    hint = did_you_mean(name, pool) or (f"known: {', '.join(sorted(pool)[:12])}" if pool else f"no {what} is defined")
    report.add("E007", f"unknown {what} '{name}'", where, hint)


def check_keyword_uses(game: Game, index: KeywordIndex, origin: Origin, uses, field: str, report: Report,
                       used_aliases: set[str] | None = None) -> None:
    for i, text in enumerate(uses):
        if broken(text):
            continue  # names.check reports it
        use = parse_use(text)
        where = origin.location(field, i)
        found = index.find(use.name)
        if found is None:
            report_unknown(report, where, "keyword", use.name, {k.name for k in game.keywords.values()})
            continue
        keyword, erratum = found
        if used_aliases is not None and erratum is not None:
            used_aliases.add(" ".join(use.name.split()).casefold())
        if erratum is not None and erratum not in game.errata:
            report_unknown(report, where, "erratum", erratum, game.errata)
        if keyword.parameter and use.param is None:
            report.add("E008", f"keyword '{keyword.name}' needs its parameter ({keyword.parameter})", where,
                       f"write '{use.name} (…)' with the value of {keyword.parameter}")
        elif not keyword.parameter and use.param is not None:
            report.add("E009", f"keyword '{keyword.name}' takes no parameter, given '{use.param}'", where,
                       f"write '{use.name}' alone, or declare 'parameter:' on the keyword")


def _ref(game: Game, report: Report, origin: Origin, field: tuple, section: str, what: str, value) -> None:
    if game.is_dropped(section, value):
        return  # the record is written but invalid: its own diagnostic says why
    if value is not None and value not in game.section(section):
        report_unknown(report, origin.location(*field), what, value, game.section(section))


def check(game: Game, report: Report) -> None:
    index = KeywordIndex.build(game.keywords)
    used_aliases: set[str] = set()
    for section in ("units", "weapons", "terrain"):
        for record in game.section(section).values():
            check_keyword_uses(game, index, game.origin(record), record.keywords, "keywords", report, used_aliases)
    for keyword in game.keywords.values():
        for i, alias in enumerate(keyword.aliases):
            unsure = any(game.dropped.get(s) for s in ("units", "weapons", "terrain"))  # they may use it
            if alias.erratum and not unsure and " ".join(alias.name.split()).casefold() not in used_aliases:
                report.add("W004", f"alias '{alias.name}' of keyword '{keyword.name}' is used by no record",
                           game.origin(keyword).location("aliases", i, "name"),
                           "an erratum alias exists for the records that spell the keyword this way; "
                           "remove it (cite the erratum with errata: [...] instead) or use it")
    for unit in game.units.values():
        origin = game.origin(unit)
        for i, entry in enumerate(unit.weapons):
            _ref(game, report, origin, ("weapons", i, "weapon"), "weapons", "weapon", entry.weapon)
        _ref(game, report, origin, ("veteran_of",), "units", "unit", unit.veteran_of)
    for card in game.cards.values():
        origin = game.origin(card)
        _ref(game, report, origin, ("deck",), "decks", "deck", card.deck)
        _ref(game, report, origin, ("unit",), "units", "unit", card.unit)
        _ref(game, report, origin, ("table",), "tables", "table", card.table)
    for keyword in game.keywords.values():
        origin = game.origin(keyword)
        for i, alias in enumerate(keyword.aliases):
            _ref(game, report, origin, ("aliases", i, "erratum"), "errata", "erratum", alias.erratum)
    for record in game.all_records():
        origin = game.origin(record)
        for i, erratum in enumerate(record.errata):
            _ref(game, report, origin, ("errata", i), "errata", "erratum", erratum)
    for erratum in game.errata.values():
        if erratum.record is None:
            continue
        origin = game.origin(erratum)
        section, _, record_id = erratum.record.partition("/")
        if section not in SECTIONS:
            report_unknown(report, origin.location("record"), "section", section, SECTIONS)
        else:
            _ref(game, report, origin, ("record",), section, SECTIONS[section].kind, record_id)
