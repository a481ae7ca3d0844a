"""Named rule elements: actions, terrain, distance bands, modes and options, errata."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator

from ..values import Unit, unit_of
from .base import OrUnstated, Record, Scalar, StatEntry, Text, as_written_field


# A band's bound: a whole or fractional length, never negative.
Length = Annotated[int, Field(ge=0)] | Annotated[float, Field(ge=0, allow_inf_nan=False)]


class Action(Record):
    kind = "action"
    section = "actions"

    name: Text
    length: OrUnstated[Literal["short", "long"] | None] = None
    params: dict[str, Scalar] = {}
    stats: dict[str, StatEntry] = Field(default={}, description="typed values: stats declared in game.yaml with applies_to: [action]")
    as_written: dict[str, str] = as_written_field()
    text: Text


class Terrain(Record):
    kind = "terrain"
    section = "terrain"

    name: Text
    keywords: tuple[str, ...] = ()
    stats: dict[str, StatEntry] = Field(
        default={}, description="typed values (movement cost, cover modifier): stats with applies_to: [terrain]")
    as_written: dict[str, str] = as_written_field()
    text: Text | None = None
    colour: str | None = Field(default=None, description="its colour on maps: #rrggbb")


class Band(Record):
    """A distance band, e.g. melee 0–1 UE."""

    kind = "band"
    section = "bands"

    name: Text
    min: OrUnstated[Length | None] = None
    above: bool = Field(default=False, description="true: the band starts past `min`, not at it "
                                                   "(the source says 'more than 2 cm'): printed > 2")
    max: OrUnstated[Length | None] = Field(default=None, description="omit for an open band (8+)")
    unit: str = Field(description="cm, inch, hex, cube, UE or a unit the game declares under measures:")
    text: Text | None = None

    @field_validator("unit")
    @classmethod
    def _unit(cls, value: str) -> Unit:
        return unit_of(value)


class Rule(Record):
    """A named rule a player looks up: a game mode, an option, a rate, a limit."""

    kind = "rule"
    section = "rules"

    name: Text
    category: str = Field(description="mode, option, rate, setup, ...")
    expansion: str | None = None
    params: dict[str, Scalar] = {}
    # None where the source names the rule (a table of contents) but its text is lost: the
    # record then says why under `incomplete:` and prints as a draft; never invented text
    text: Text | None = None


class Erratum(Record):
    """An inconsistency of the source, kept as written and read as we read it."""

    kind = "erratum"
    section = "errata"

    summary: Text
    category: Literal["inconsistency", "extraction", "reading"] | None = Field(
        default=None,
        description="inconsistency: the source disagrees with itself; extraction: an artefact of how the "
        "source text was saved (lost glyphs, joined words); reading: a choice a rule procedure makes "
        "where the text is silent (cited by the procedure)",
    )
    source: str = Field(description="what the source writes, verbatim (a quote: never translated)")
    reading: Text = Field(description="how Rulesmith reads it; translated (message context 'erratum reading')")
    record: str | None = Field(
        default=None, description="the record a value erratum corrects: SECTION/ID, e.g. units/mai"
    )
    field: str | None = Field(
        default=None, description="the corrected field of that record, e.g. stats.defense"
    )
