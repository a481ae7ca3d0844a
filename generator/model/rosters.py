"""Roster rules: how a player builds an army list from a game's units, as its source states them.

Every rule quotes the source sentence it comes from (`source:`, verbatim, never translated).
Where the source is silent the field is absent or `unstated`: nothing is invented.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .base import Frozen, Id, OrUnstated, Record, Text

Count = Annotated[int, Field(ge=0)]  # how many: never negative
QUOTE = "the source's sentence this rule comes from, verbatim (a quote: never translated)"


class RosterCost(Frozen):
    """What a unit costs: one of its stats."""

    stat: str = Field(description="id of the unit stat that is its cost (a stat declared in game.yaml)")
    value: OrUnstated[Literal["only", "first", "second"]] = Field(
        default="only", description="which value counts where the stat gives several ('-3 / 2'): first or second; "
        "unstated if the source does not say (a list then names its reading under 'counted:')")
    source: str = Field(description=QUOTE)


class GameSize(Frozen):
    """A size of game and its limit on the list's total cost."""

    id: Id
    rule: str = Field(description="id of the rule (rules.yaml) that names this size of game or mode")
    limit: OrUnstated[int | Literal["free"] | None] = Field(
        default=None, description="the most the list may cost: a number, `parameter:` below, 'free' where the "
        "source says the number is free, unstated where it gives none")
    parameter: str | None = Field(default=None, description="id of the game.yaml parameter holding the limit")
    source: str = Field(description=QUOTE)


class UnitLimit(Frozen):
    """How many of some units a list takes: the units named, or every unit of a type."""

    unit: str | None = Field(default=None, description="id of a unit record")
    type: str | None = Field(default=None, description="a unit type as the source names it (Лидер, пехота)")
    min: OrUnstated[Count | None] = Field(default=None, description="the fewest the list must take")
    max: OrUnstated[Count | None] = Field(default=None, description="the most the list may take")
    source: str = Field(description=QUOTE)


class Choice(Frozen):
    """Units of which a list must take some (required) or may not mix (exclusive)."""

    id: Id
    units: tuple[str, ...] = Field(description="ids of unit records")
    required: bool = Field(default=False, description="the list takes at least one of them")
    exclusive: bool = Field(default=False, description="the list takes no more than one of them")
    source: str = Field(description=QUOTE)


class Option(Frozen):
    """An option or upgrade a unit may buy."""

    id: Id
    units: tuple[str, ...] = Field(description="ids of the units that may take it")
    name: Text = Field(description="the option as the source writes it (translated like other text)")
    cost: OrUnstated[int] = Field(description="what it adds to the list's total")
    max: OrUnstated[Count | None] = Field(default=None, description="how many times one unit may take it")
    source: str = Field(description=QUOTE)


class Reinforcement(Frozen):
    """A cost paid during play to bring a unit back to strength: printed with the list, not totalled."""

    stat: str = Field(description="id of the unit stat that is the cost of one new model")
    source: str = Field(description=QUOTE)


class SectionLimit(Frozen):
    """A section's bounds in one size of game, where they depend on it."""

    size: str = Field(description="id of one of the roster's sizes of game")
    min: int | None = Field(default=None, ge=0, description="the fewest units the section takes in this size")
    max: int | None = Field(default=None, ge=0, description="the most units the section takes in this size")


class SectionScale(Frozen):
    """Bounds a section gains for each unit the list takes of some kind ("each HQ choice adds two
    Troops slots"): the units it puts in another section, or of one unit, or of a type."""

    section: str | None = Field(default=None, description="id of another section: each unit the list puts in it")
    unit: str | None = Field(default=None, description="id of a unit record: each of it the list takes")
    type: str | None = Field(default=None, description="a unit type: each unit of it the list takes")
    min: int | None = Field(default=None, ge=0, description="what each adds to the section's minimum")
    max: int | None = Field(default=None, ge=0, description="what each adds to the section's maximum (a section "
                            "with no maximum of its own then starts from none: it takes only what the list opens)")


class Section(Frozen):
    """A part of the force organisation (a detachment, a slot): which units fill it and how many it takes."""

    id: Id
    name: Text = Field(description="the section as the source names it (HQ, Troops; translated like other text)")
    units: tuple[str, ...] = Field(default=(), description="ids of the units that may fill it")
    types: tuple[str, ...] = Field(default=(), description="unit types that may fill it (every unit of the type)")
    min: int | None = Field(default=None, ge=0, description="the fewest units the list takes in it")
    max: int | None = Field(default=None, ge=0, description="the most units the list takes in it")
    sizes: tuple[SectionLimit, ...] = Field(default=(), description="bounds that depend on the size of game, "
                                            "over min/max for the sizes named")
    unlocked_by: tuple[str, ...] = Field(default=(), description="ids of units: the section is open only where the "
                                         "list takes one of them")
    per: tuple[SectionScale, ...] = Field(default=(), description="bounds that grow with what the list takes: "
                                          "each entry adds its min/max once per unit it counts")
    source: str = Field(description=QUOTE)


class Roster(Record):
    """The rules a player's army list is checked against."""

    kind = "roster"
    section = "rosters"

    cost: RosterCost
    sizes: OrUnstated[tuple[GameSize, ...]] = Field(
        default=(), description="the named sizes of game and their limits; unstated if the source names none")
    limits: tuple[UnitLimit, ...] = Field(default=(), description="per-unit or per-type minimum and maximum")
    choices: tuple[Choice, ...] = Field(default=(), description="required or exclusive choices of units")
    options: OrUnstated[tuple[Option, ...]] = Field(
        default=(), description="options and upgrades with their costs; unstated where the source says units buy "
        "them but gives none")
    reinforcement: Reinforcement | None = None
    sections: tuple[Section, ...] = Field(
        default=(), description="force organisation: sections with their own bounds; a unit in none of them "
        "may not be taken where there are sections")
