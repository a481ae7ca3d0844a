"""A player's army list as written in LIST.yaml, with where each entry stands in the file."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Literal

from pydantic import Field

from ..core.diagnostics import Report
from ..reading.loader import load_mapping
from ..model.base import Frozen
from ..reading.yamlsource import YamlDocument


class Entry(Frozen):
    """One line of the list: a unit, how many of it, the options it takes."""

    unit: str = Field(description="id of a unit record of the game")
    count: int = Field(default=1, ge=1, description="how many of this unit the list takes")
    options: tuple[str, ...] = Field(default=(), description="ids of the roster's options this unit takes")
    section: str | None = Field(default=None, description="id of the roster's section the line fills; by default "
                                "the first section open to the unit")


class ArmyList(Frozen):
    """LIST.yaml: the game, its roster, the size of game and the units chosen."""

    unstated_allowed: ClassVar[bool] = False  # a list is the player's choice, not a source's statement

    game: str = Field(description="id of the game (its folder under content/)")
    roster: str | None = Field(default=None, description="id of the game's roster; only where it has several")
    size: str | None = Field(default=None, description="id of the roster's size of game")
    counted: Literal["first", "second"] | None = Field(
        default=None, description="the list's reading, where the roster does not say which of a cost's values counts")
    name: str | None = Field(default=None, description="the list's own name")
    units: tuple[Entry, ...] = ()


def read_list(path: Path, report: Report) -> tuple[ArmyList, YamlDocument] | None:
    """The list and its document; None (reported at file:line) where it cannot be read."""
    return load_mapping(path, ArmyList, report, ("an army list must be a mapping (game:, size:, units:)",
                                                 "start with 'game: ID' and list the units under 'units:'"))
