"""Readings: every erratum a procedure cites exists (E036), and every erratum of category
`reading` (a choice a procedure makes where the text is silent) is cited by one (E037). And
each probability table says what it assumes in every language of the game (W019): the site
states it under the table, and a reader must not get the procedure's English docstring instead.

Procedures cite errata with `@procedure("id", errata=[...])` (also `@table`, `@consistency`).
"""

from __future__ import annotations

from ..checker.procedures import load_procedures
from ..core.diagnostics import Location, Report, did_you_mean
from ..reading.game import Game

READING = "reading"


def check(game: Game, report: Report) -> None:
    procedures = load_procedures(game.folder)
    cited: set[str] = set()
    for erratum, kind, item, path, line in procedures.citations():
        cited.add(erratum)
        if erratum not in game.errata:
            report.add("E036", f"{kind} '{item}' cites erratum '{erratum}' that no errata file defines",
                       Location(path or game.folder / "procedures.py", line, 1),
                       did_you_mean(erratum, game.errata)
                       or "add it to data/errata.yaml (category: reading), or correct the id in errata=[...]")
    if procedures.problems:
        return  # a module that does not load cites nothing; E034 says why
    _assumptions(game, procedures, report)
    for erratum in game.errata.values():
        if getattr(erratum, "category", None) == READING and erratum.id not in cited:
            report.add("E037", f"reading '{erratum.id}' is cited by no procedure",
                       game.origin(erratum).location("id"),
                       f"cite it where the procedure relies on it: @procedure(\"…\", errata=[\"{erratum.id}\"]), "
                       "or give it another category if no procedure reads it")


def _assumptions(game: Game, procedures, report: Report) -> None:
    """`assumes` as {lang: text}, or one text in the source language."""
    source = game.manifest.source_language
    langs = list(dict.fromkeys([source, *game.manifest.languages]))
    for declared in procedures.tables.values():
        assumes = declared.extra.get("assumes")
        given = {source: assumes} if isinstance(assumes, str) else assumes if isinstance(assumes, dict) else {}
        missing = [lang for lang in langs if not str(given.get(lang) or "").strip()]
        if missing and (given or len(langs) > 1):  # an untranslated game's table may leave it unsaid
            example = ", ".join(f'"{lang}": "…"' for lang in langs)
            report.add("W019", f"table '{declared.id}' does not say what it assumes in {', '.join(missing)}",
                       Location(declared.path or game.folder / "procedures.py", declared.line, 1),
                       f"add assumes={{{example}}} to @table(\"{declared.id}\", …): the site states it under the "
                       "table in each language")
