"""What the rules text shows but does not compute: the `{{ calc:... }}` numbers and the
probability tables a game's procedures declare (`{{ table:ID }}` of a table no data file holds).

The rules checker computes them and the text prints them, so dependencies point down the
pipeline: whoever loads a game hands it its computations (`game.computed`, attached by
Project.read; checker/shown.py implements them), and the text asks that object, never the
checker. The three protocols below are all the text relies on.
"""

from __future__ import annotations

from typing import Any, Protocol


class ShownNumber(Protocol):
    """A computed number as each language writes it (`{{ calc:... }}`)."""

    def text(self, lang: str) -> str:
        """The number in `lang`: ru `50 %`, `0,5`; en `50%`, `0.5`."""
        ...


class ShownTable(Protocol):
    """A computed probability table, ready to print."""

    id: str
    title: Any                     # text, or {lang: text}
    columns: list[dict[str, Any]]  # {"id": ..., "name": text or {lang: text}}

    def printed_rows(self, tr: Any) -> list[dict[str, Any]]:
        """Each row as a reader of tr's language sees it (column id -> cell)."""
        ...


class Computations(Protocol):
    """One game's computed numbers and tables, each computed when first asked for and kept."""

    def table_ids(self) -> list[str]:
        """The ids of the tables the game's procedures declare (nothing is computed)."""
        ...

    def table(self, table_id: str) -> ShownTable:
        """The table `table_id`, computed; any exception if it cannot be."""
        ...

    def number(self, ref: Any) -> ShownNumber:
        """The number a `{{ calc:... }}` (refs.CalcRef) names; refs.RefError if it cannot be computed."""
        ...


__all__ = ["Computations", "ShownNumber", "ShownTable"]
