"""Readings: every erratum a procedure cites exists (E036), and every erratum of category
`reading` (a choice a procedure makes where the text is silent) is cited by one (E037).

Procedures cite errata with `@procedure("id", errata=[...])` (also `@table`, `@consistency`).
"""

from __future__ import annotations

from ..checker.procedures import load_procedures
from ..diagnostics import Location, Report, did_you_mean
from ..game import Game

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
    for erratum in game.errata.values():
        if getattr(erratum, "category", None) == READING and erratum.id not in cited:
            report.add("E037", f"reading '{erratum.id}' is cited by no procedure",
                       game.origin(erratum).location("id"),
                       f"cite it where the procedure relies on it: @procedure(\"…\", errata=[\"{erratum.id}\"]), "
                       "or give it another category if no procedure reads it")
