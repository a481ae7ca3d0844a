"""The rule procedures of __TITLE__: the rules as small functions the rules checker runs.

`rulesmith check` runs every worked example (the ```check blocks of rules/*.md) against
these procedures; `rulesmith docs checker` explains how to write them. Every number comes
from the game's data (game.stat, game.parameter), never typed in here.
"""

from __future__ import annotations

from generator.checker import consistency, exact, procedure, table
from generator.model import Unit


@procedure("shoot")
def shoot(game, dice, unit: Unit, shots: int = 1) -> dict:
    """One die per shot; each die that reaches the unit's Quality is a hit."""
    return {"hits": dice.successes(shots, game.stat(unit, "quality"))}


@table("hit-chances",
       title="__D:hit-chances-title__",
       columns={
           "unit": "__D:column-unit__",
           "hit": "__D:column-hit__",
       },
       assumes="__D:hit-chances-assumes__")
def hit_chances(game) -> list[dict]:
    """The chance of a hit with one shot, for every unit."""
    return [{"unit": unit, "hit": exact(shoot, game, {"unit": unit}).probability("hits == 1")}
            for unit in game.units.values()]


@consistency("victory-is-reachable")
def victory_is_reachable(game) -> list[str]:
    """The victory points are a positive number."""
    points = game.parameter("victory-points")
    return [] if points > 0 else [f"victory-points is {points}; a game needs a positive target"]
