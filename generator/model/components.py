"""Counters and the counter sheets they are printed on: any size, two-sided, drawn by a
template (a unit counter, a marker, or the designer's own) from the counter's own data."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from .base import Frozen, Record, Scalar, Text
from .cards import Corners
from .sizes import check_size

UNIT_SYMBOLS = (
    "infantry", "armour", "mechanized", "motorized", "cavalry", "recon", "armoured-cavalry", "artillery",
    "self-propelled-artillery", "headquarters", "engineer", "anti-tank", "airborne", "mountain", "supply", "none",
)
Symbol = Literal[UNIT_SYMBOLS]  # type: ignore[valid-type]
Echelon = Literal["team", "squad", "section", "platoon", "company", "battalion", "regiment", "brigade",
                  "division", "corps", "army"]
BUILTIN_TEMPLATES = ("unit", "marker", "blank")


def _colour(value: str | None) -> str | None:
    import re

    if value is not None and not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        raise ValueError(f"'{value}' is not a colour: write #rrggbb, e.g. #c0392b")
    return value


class CounterFace(Frozen):
    """What one side of a counter shows. On a back, what is not given is the front's."""

    template: str | None = Field(default=None, description="unit, marker, blank, or a macro of the game's counter.html.j2")
    side: str | None = Field(default=None, description="id of a side declared in game.yaml: its colours")
    colour: str | None = Field(default=None, description="background colour #rrggbb (default: the side's)")
    symbol: Symbol | None = Field(default=None, description="unit-type symbol: infantry, armour, artillery...")
    echelon: Echelon | None = Field(default=None, description="unit size marks above the symbol: company... army")
    designation: Text | None = Field(default=None, description="the unit's name as printed on the counter")
    strength: Scalar = None
    movement: Scalar = None
    text: Text | None = Field(default=None, description="a marker's words: Turn, Control, Disrupted")
    value: Scalar = Field(default=None, description="a marker's big number or letter")
    image: str | None = Field(default=None, description="a picture from the game folder (PNG, SVG, JPEG) in place of the symbol")
    band: bool = Field(default=False, description="a light band across the counter (marks a reduced side)")

    _colours = field_validator("colour")(classmethod(lambda cls, v: _colour(v)))


class Counter(CounterFace, Record):
    kind = "counter"
    section = "counters"

    name: Text | None = Field(default=None, description="what the counter is, for lists and the site")
    sheet: str = Field(description="id of the counter sheet it is printed on")
    quantity: int = Field(default=1, ge=0, description="how many copies to print")
    back: CounterFace | None = Field(default=None, description="the back: what differs from the front")


class CounterSheet(Record):
    """A set of counters of one size, printed fronts and backs for duplex."""

    kind = "countersheet"
    section = "countersheets"

    name: Text
    size: str = Field(default="counter-1/2", description="a preset (counter-1/2, counter-5/8, counter-3/4, counter-1, "
                      "poker...) or a size with its unit: 15mm, 1x0.5in")
    corners: Corners = "square"
    gutter: float | None = Field(default=None, ge=0, description="mm between counters (default: sheets.yaml)")
    template: str = Field(default="unit", description="the template of its counters unless a counter names its own")
    backs: bool = Field(default=True, description="print a page of backs behind each page of fronts")

    @field_validator("size")
    @classmethod
    def _size(cls, value: str) -> str:
        return check_size(value)
