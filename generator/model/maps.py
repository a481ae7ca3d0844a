"""Maps: a grid (hexes flat-top or pointy-top, squares, or none) of cells numbered CCRR
(column, row: '0304'), terrain per cell, features along hexsides or from cell to cell,
labels, setup codes, and an optional background picture from the game folder."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from .base import Frozen, Record, Text

Grid = Literal["hex-flat", "hex-pointy", "square", "none"]
FeatureKind = Literal["river", "stream", "road", "track", "railway", "wall", "border"]
CELL = re.compile(r"^\d{4}$")


def _cell(value: object) -> object:
    if isinstance(value, int) and not isinstance(value, bool):
        raise ValueError(f"write cell numbers in quotes, e.g. '{value:04d}': unquoted, YAML reads them as numbers")
    if isinstance(value, str) and not CELL.match(value):
        raise ValueError(f"'{value}' is not a cell: write four digits, column then row, e.g. '0304'")
    return value


def _cells(values: object) -> object:
    if isinstance(values, (list, tuple)):
        for value in values:
            _cell(value)
    return values


def cell_xy(cell: str) -> tuple[int, int]:
    """(column, row), both from 1."""
    return int(cell[:2]), int(cell[2:])


class CellTerrain(Frozen):
    """Terrain for some cells: a list (cells:), a rectangle of columns × rows (range: [from, to]), or both."""

    terrain: str = Field(description="id of a terrain record")
    cells: tuple[str, ...] = ()
    range: tuple[str, str] | None = Field(default=None, description="two corner cells: every cell between them")

    _check = field_validator("cells", "range", mode="before")(classmethod(lambda cls, v: _cells(v)))


class Feature(Frozen):
    """A river along hexsides ('0304/0305': the side between two cells), or a road from cell to cell."""

    kind: FeatureKind
    hexsides: tuple[str, ...] = Field(default=(), description="sides as 'CELL/CELL' of two neighbouring cells")
    path: tuple[str, ...] = Field(default=(), description="cells in order; each a neighbour of the one before")

    _check = field_validator("path", mode="before")(classmethod(lambda cls, v: _cells(v)))

    @field_validator("hexsides", mode="before")
    @classmethod
    def _sides(cls, values: object) -> object:
        if isinstance(values, (list, tuple)):
            for value in values:
                parts = str(value).split("/")
                if len(parts) != 2 or not all(CELL.match(p.strip()) for p in parts):
                    raise ValueError(f"'{value}' is not a hexside: write two cells, e.g. '0304/0305'")
        return values


class Label(Frozen):
    at: str = Field(description="the cell the label is centred on")
    text: Text
    size: float = Field(default=1.0, gt=0, description="relative text size (1: normal)")

    _check = field_validator("at", mode="before")(classmethod(lambda cls, v: _cell(v)))


class SetupCode(Frozen):
    """Where a piece starts: a short code printed in the cell; optionally the counter it is for."""

    at: str
    code: str
    counter: str | None = Field(default=None, description="id of the counter that starts here")

    _check = field_validator("at", mode="before")(classmethod(lambda cls, v: _cell(v)))


class Map(Record):
    kind = "map"
    section = "maps"

    name: Text
    grid: Grid = "hex-flat"
    columns: int = Field(ge=1, le=99)
    rows: int = Field(ge=1, le=99)
    cell: float = Field(default=25.4, gt=0, le=200, description="mm: a hex across its flat sides, a square's side")
    terrain: str | None = Field(default=None, description="id of the terrain of every cell not listed in cells")
    cells: tuple[CellTerrain, ...] = ()
    features: tuple[Feature, ...] = ()
    labels: tuple[Label, ...] = ()
    setup: tuple[SetupCode, ...] = ()
    background: str | None = Field(default=None, description="a picture in the game folder drawn under the grid")
    numbers: bool = Field(default=True, description="print each cell's number")
    text: Text | None = None
