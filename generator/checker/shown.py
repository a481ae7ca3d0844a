"""What the rules text of a game shows that its procedures compute: the `{{ calc:... }}`
numbers (calc.py) and the probability tables (tables.py), each computed when the text first
shows it and kept for the game. Project.read hands one to each game it loads (game.computed);
the text asks it through text/computed.py's protocols and never imports the checker."""

from __future__ import annotations

from ..reading.game import Game
from ..text.computed import Computations
from ..text.refs import CalcRef
from .calc import Computed, evaluate
from .procedures import load_procedures
from .tables import ComputedTable, compute


class ProcedureResults(Computations):
    """One game's computed numbers and tables (text/computed.py's Computations)."""

    def __init__(self, game: Game):
        self.game = game
        self._numbers: dict[str, Computed] = {}
        self._tables: dict[str, ComputedTable] = {}

    def table_ids(self) -> list[str]:
        """The ids of the tables the game's procedures declare (procedures.py is read again
        when it changes: load_procedures)."""
        return list(load_procedures(self.game.folder).tables)

    def table(self, table_id: str) -> ComputedTable:
        """The table `table_id`, computed the first time; KeyError for a table not declared,
        whatever the table function raises when it fails (it is not kept then)."""
        if table_id not in self._tables:
            self._tables[table_id] = compute(self.game, load_procedures(self.game.folder).tables[table_id])
        return self._tables[table_id]

    def number(self, ref: CalcRef) -> Computed:
        """The number of a `{{ calc:... }}`, computed the first time; RefError if it cannot be."""
        if ref.source not in self._numbers:
            self._numbers[ref.source] = evaluate(self.game, ref)
        return self._numbers[ref.source]


__all__ = ["ProcedureResults"]
