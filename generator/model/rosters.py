"""Roster rules: how a player builds an army list from a game's units, as its source states them.

Every rule quotes the source sentence it comes from (`source:`, verbatim, never translated).
Where the source is silent the field is absent or `unstated`: nothing is invented.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Frozen, Id, OrUnstated, Record, Text

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
    min: OrUnstated[int | None] = Field(default=None, description="the fewest the list must take")
    max: OrUnstated[int | None] = Field(default=None, description="the most the list may take")
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
    max: OrUnstated[int | None] = Field(default=None, description="how many times one unit may take it")
    source: str = Field(description=QUOTE)


class Reinforcement(Frozen):
    """A cost paid during play to bring a unit back to strength: printed with the list, not totalled."""

    stat: str = Field(description="id of the unit stat that is the cost of one new model")
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
