"""The rules checker: worked examples run against the game's rule procedures.

A game's `content/<game>/procedures.py` declares procedures with `@procedure`, tables with
`@table` and consistency rules with `@consistency`, all from this package. A procedure
rolls through `Dice`, so one definition runs with scripted dice (`scripted`), seeded
random dice (`simulate`, `sample`) or exactly (`exact`: Fractions, by icepool). See
docs/checker.md.
"""

from ..text.refs import CalcRef
from .calc import Computed, format_computed, format_number
from .dice import DEPTH, threshold
from .distribution import Distribution, Outcome
from .modes import Dice, ProcedureError, ScriptError, exact, sample, scripted, simulate
from .procedures import Procedure, Procedures, consistency, load_procedures, procedure, table
from .runner import CheckRun, GameResult, check_game, verified_examples
from .tables import write_tables
from ..roster.army import Army, ArmyLine

__all__ = [
    "Army", "ArmyLine", "CalcRef", "CheckRun", "Computed", "DEPTH", "Dice", "Distribution", "GameResult", "Outcome", "Procedure",
    "ProcedureError", "Procedures", "ScriptError", "check_game", "consistency", "exact",
    "format_computed", "format_number", "load_procedures", "procedure", "sample", "scripted", "simulate",
    "table", "threshold", "verified_examples", "write_tables",
]
