"""Errata are listed in the game's ERRATA.md, every listed erratum exists, and an erratum's
summary and reading are written in the source language (their translations go into the catalogs)."""

from __future__ import annotations

import re

from ..checker.examples import game_examples
from ..checker.prose import cited_errata
from ..core.diagnostics import Location, Report, did_you_mean
from ..system.folders import present
from ..reading.game import Game
from ..model import SECTIONS
from ..text.blocks import spaced, written_uses
from ..reading.yamlsource import control_character, line_of_offset, read_text, unreadable

ERRATA_FILE = "ERRATA.md"
# Scripts of the source languages whose errata are checked for text in another script: an
# erratum's summary and reading are printed as they are in the source edition.
_CYRILLIC = "а-яА-ЯёЁіїєґўђјљњћџІЇЄҐЎЂЈЉЊЋЏ"
_LATIN = "A-Za-z"
_SCRIPT_OF = {**{lang: _CYRILLIC for lang in ("ru", "uk", "be", "bg", "sr")},
              **{lang: _LATIN for lang in ("en", "de", "fr", "es", "pl", "it", "pt", "nl", "cs", "da", "fi",
                                           "hu", "lt", "no", "ro", "sv", "tr", "ca")}}
_FOREIGN_WORDS = 4  # "Current Action.", "armour piercing": a name or a term quoted from the source is fine

# An erratum is listed as a heading or list item that starts with its id in backticks.
_LISTED = re.compile(r"^\s*(?:#+|[-*]|\d+\.)\s+`([a-z0-9][a-z0-9-]*)`")


def listed_errata(text: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = _LISTED.match(line)
        if match:
            found.setdefault(match.group(1), number)
    return found


def _referenced(game: Game) -> set[str]:
    used = {e.id for e in game.errata.values() if e.record}
    for record in game.all_records():
        used.update(record.errata)
    for keyword in game.keywords.values():
        used.update(a.erratum for a in keyword.aliases if a.erratum)
    for param in game.manifest.parameters:
        used.update(param.errata)
    for unit in game.units.values():
        for entry in unit.weapons:
            used.update(entry.errata)
    used.update(cited_errata(game_examples(game.folder)[0], game.manifest.source_language))  # [3]{... erratum=ID}
    return used


def check(game: Game, report: Report) -> None:
    path = game.folder / ERRATA_FILE
    listed: dict[str, int] = {}
    if present(path):
        try:
            text = read_text(path)
        except (OSError, UnicodeDecodeError) as exc:
            message, where, hint = unreadable(path, exc)
            report.add("E024", message, where, hint)
        else:
            bad = control_character(text)
            if bad is not None:
                line, col = line_of_offset(text, bad[0])
                report.add("E024", f"control character {bad[1]} in {ERRATA_FILE}", Location(path, line, col),
                           "remove it")
            listed = listed_errata(text)
    for erratum in game.errata.values():
        if erratum.id not in listed:
            report.add("E015", f"erratum '{erratum.id}' is not listed in {ERRATA_FILE}",
                       game.origin(erratum).location("id"),
                       f"add a line '- `{erratum.id}`: {erratum.summary}' to {ERRATA_FILE}")
    for erratum_id, line in listed.items():
        if erratum_id not in game.errata:
            report.add("E016", f"{ERRATA_FILE} lists erratum '{erratum_id}' that no errata file defines",
                       Location(path, line, 1),
                       "add it to data/errata.yaml, or remove the line if the inconsistency is gone")
    for index, param in enumerate(game.manifest.parameters):
        for n, erratum_id in enumerate(param.errata):
            if erratum_id not in game.errata:
                report.add("E007", f"parameter '{param.id}' cites unknown erratum '{erratum_id}'",
                           game.manifest_doc.location(("parameters", index, "errata", n)),
                           did_you_mean(erratum_id, game.errata) or "define it in data/errata.yaml")
    used = _referenced(game)
    for erratum in game.errata.values():
        if erratum.id not in used and erratum.category != "reading":  # readings: E037 (checks/readings.py)
            report.add("W001", f"erratum '{erratum.id}' is not referenced by any record",
                       game.origin(erratum).location("id"),
                       "cite it from the record it concerns (errata: [...], an alias, or record:/field:)")
    _check_fields(game, report)
    _check_weapon_lines(game, report)
    _check_language(game, report)


def _check_fields(game: Game, report: Report) -> None:
    """E018: an erratum on a text field (record:/field: name) quotes what that field holds."""
    for erratum in game.errata.values():
        if not (erratum.record and erratum.field) or erratum.field.startswith("stats."):
            continue  # a stat's erratum: checks/stats.py
        section, _, record_id = erratum.record.partition("/")
        record = game.section(section).get(record_id) if section in SECTIONS else None
        if record is None:
            continue  # references.py reports it
        text = getattr(record, erratum.field, None)
        where = game.origin(erratum).location("field")
        if not isinstance(text, str):
            report.add("E018", f"erratum '{erratum.id}' names field '{erratum.field}', which {record.kind} "
                       f"'{record_id}' does not hold as text", where,
                       "field: names a text field of the record (name, text, …) or a stat (stats.ID)")
        elif not erratum.source.strip() or erratum.source.strip() not in text:
            report.add("E018", f"erratum '{erratum.id}' says the source writes '{erratum.source}', but the "
                       f"{erratum.field} of {record.kind} '{record_id}' is '{text}'", where,
                       "keep the field exactly as the source writes it and quote it in source:; "
                       "the erratum gives the reading")


def _check_weapon_lines(game: Game, report: Report) -> None:
    """A unit's weapon line cites errata that exist and that respell one of the weapon's keyword uses."""
    for unit in game.units.values():
        origin = game.origin(unit)
        for i, entry in enumerate(unit.weapons):
            weapon = game.weapons.get(entry.weapon)
            for n, erratum_id in enumerate(entry.errata):
                erratum = game.errata.get(erratum_id)
                where = origin.location("weapons", i, "errata", n)
                if erratum is None:
                    report.add("E007", f"unknown erratum '{erratum_id}'", where,
                               did_you_mean(erratum_id, game.errata) or "define it in data/errata.yaml")
                elif weapon is not None and not set(written_uses(game, [erratum_id])) & set(map(spaced, weapon.keywords)):
                    report.add("E018", f"erratum '{erratum_id}' reads '{erratum.reading}', which is not a keyword "
                               f"use of weapon '{weapon.id}' ({', '.join(weapon.keywords) or 'none'})", where,
                               "an erratum on a weapon line gives as reading the weapon's keyword use and as "
                               "source that use as the line writes it")


def _check_language(game: Game, report: Report) -> None:
    """W020: a summary or reading written in another language than the source's (a sentence
    without a letter of the source's script): the source edition would print it as it is."""
    source = game.manifest.source_language
    own = _SCRIPT_OF.get(source.split("-")[0])
    if own is None:
        return
    other = _LATIN if own == _CYRILLIC else _CYRILLIC
    for erratum in game.errata.values():
        for name in ("summary", "reading"):
            text = getattr(erratum, name)
            if re.search(f"[{own}]", text) or len(re.findall(f"[{other}]{{2,}}", text)) < _FOREIGN_WORDS:
                continue
            report.add("W020", f"erratum '{erratum.id}': the {name} is not written in the source language ({source})",
                       game.origin(erratum).location(name),
                       f"write it in '{source}' as the source edition prints it; its translation goes into "
                       f"locale/LANG.po ('rulesmith i18n update LANG {game.id}')")
