"""Semantic checks over a loaded game; each module checks one concern and reports into a Report.
trial.py runs them, with the rules checker's examples, where the game's procedures.py runs bounded."""

from ..core.diagnostics import Report
from ..reading.game import Game
from . import (as_written, components, dicenotation, dicetables, editor, enums, errata, examples, fieldrefs, links,
               locale, measures, names, numbering, pictures, printing, quantities, ranges, readings, references, rosters,
               stats, text)

CHECKS = (names.check, references.check, stats.check, measures.check, ranges.check, enums.check, dicetables.check,
          dicenotation.check, errata.check, text.check, fieldrefs.check, examples.check, readings.check, locale.check,
          quantities.check, components.check, as_written.check, editor.check, pictures.check, links.check, printing.check,
          rosters.check, numbering.check)


def run_checks(game: Game, report: Report, catalogs: bool = True) -> None:
    for check in CHECKS:
        if catalogs or check is not locale.check:
            check(game, report)
