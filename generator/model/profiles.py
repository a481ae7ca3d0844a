"""Profiles: keywords, weapons and units with their typed stats."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from .base import Frozen, Id, OrUnstated, Record, StatEntry, Text, as_written_field


class Alias(Frozen):
    """Another spelling of a keyword. One that only exists because the source is
    inconsistent cites the erratum that records it."""

    name: Text = Field(description="the spelling as the source writes it; an erratum's spelling prints as written")
    erratum: str | None = Field(default=None, description="id of the erratum recording this spelling")
    note: Text | None = None


class Keyword(Record):
    kind = "keyword"
    section = "keywords"

    name: Text
    parameter: str | None = Field(default=None, description="the parameter's name (X) if every use must give one")
    category: str | None = Field(default=None, description="what it applies to: unit, weapon, terrain, ...")
    definition: Text
    aliases: tuple[Alias, ...] = ()


class Weapon(Record):
    kind = "weapon"
    section = "weapons"

    name: Text
    stats: dict[str, StatEntry] = {}
    as_written: dict[str, str] = as_written_field()
    keywords: tuple[str, ...] = Field(default=(), description="keyword uses: 'Name' or 'Name (X)'")
    text: Text | None = None


class WeaponEntry(Frozen):
    weapon: str = Field(description="id of a weapon record")
    count: OrUnstated[Annotated[int, Field(ge=1)] | None] = Field(
        default=None, description="how many models carry it (at least 1)")
    label: str | None = Field(default=None, description="the weapon's name as this profile writes it")
    errata: tuple[str, ...] = Field(
        default=(), description="ids of errata about this profile's line of the weapon: one whose reading is "
        "a keyword use of the weapon and whose source is that use as this line writes it («ББ(1)» for «ББ (1)»)")


class Ability(Frozen):
    name: Text
    text: Text


class Unit(Record):
    kind = "unit"
    section = "units"

    name: Text
    type: Text | None = Field(default=None, description="unit type or class as the source names it")
    side: OrUnstated[str | None] = Field(default=None, description="faction or side id")
    expansion: str | None = None
    stats: dict[str, StatEntry] = {}
    as_written: dict[str, str] = as_written_field()
    keywords: tuple[str, ...] = ()
    weapons: tuple[WeaponEntry, ...] = ()
    abilities: tuple[Ability, ...] = ()
    veteran_of: str | None = Field(default=None, description="id of the unit this is the veteran version of")
    text: Text | None = Field(default=None, description="flavour or description text")
