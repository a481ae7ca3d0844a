"""Tables: dice tables (a result for each roll) and plain reference tables; custom dice."""

from __future__ import annotations

from pydantic import Field

from typing import Annotated

from .base import Frozen, OrUnstated, Record, Scalar, Text


class ColumnValue(Frozen):
    """One coded value of a column: cells hold the id, readers see the name."""

    id: str
    name: Text


class Column(Frozen):
    id: str
    name: Text
    signed: bool = Field(default=False, description="a modifier column: a positive number prints with its "
                                                     "plus sign, as the source writes it (+2)")
    values: tuple[ColumnValue, ...] = Field(
        default=(),
        description="coded values: each cell holds one id (or several, comma-separated) and prints "
                    "the value's name in every language",
    )

    def value(self, id: str) -> ColumnValue | None:
        return next((v for v in self.values if v.id == id), None)


def coded_ids(cell: str) -> list[str]:
    """The value ids a coded cell holds: 'directed, artillery' -> ['directed', 'artillery']."""
    return [part.strip() for part in cell.split(",") if part.strip()]


class Table(Record):
    kind = "table"
    section = "tables"

    name: Text
    dice: str | None = Field(
        default=None,
        description="for a dice table, what is rolled (d6, d100, 2d6); every row then has a 'roll'",
    )
    columns: tuple[Column, ...] = ()
    rows: tuple[dict[str, Scalar], ...] = ()
    text: Text | None = None


class Face(Frozen):
    value: OrUnstated[int | None] = Field(default=None, description="the number on the face, if it has one")
    symbol: str | None = Field(default=None, description="the symbol printed on the face")
    name: Text | None = None
    text: Text | None = None


class Die(Record):
    """A die the game names: a colour in Frames, the Command die in Deadzone."""

    kind = "die"
    section = "dice"

    name: Text
    sides: OrUnstated[Annotated[int, Field(ge=2)]] = Field(
        description="how many faces; `unstated` if the source does not say")
    colour: OrUnstated[str | None] = None
    faces: tuple[Face, ...] = ()
    text: Text | None = None
