"""Force organisation: which section of the roster each line of a list fills, how many units each
section takes against its bounds (which may depend on the size of game, and grow with what the
list takes: "each HQ choice adds two Troops slots"), and sections a unit's choice unlocks. The list
builder page mirrors it (templates/site/roster.js, `checkSections`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..reading.game import Game
from ..model.rosters import GameSize, Roster, Section, SectionScale


@dataclass
class Filled:
    """One section of a list: its bounds in the list's size of game and what the list puts in it."""

    section: Section
    min: int | None
    max: int | None
    taken: int = 0
    lines: list[int] = field(default_factory=list)
    open: bool = True  # False: locked, the list takes none of the units that unlock it

    def as_dict(self) -> dict:
        return {"id": self.section.id, "name": self.section.name, "min": self.min, "max": self.max,
                "taken": self.taken, "lines": self.lines, "open": self.open}


def admits(game: Game, section: Section, unit_id: str) -> bool:
    unit = game.units.get(unit_id)
    return unit_id in section.units or (unit is not None and unit.type in section.types)


def bounds(section: Section, size: GameSize | None) -> tuple[int | None, int | None]:
    """The section's min and max in this size of game: the size's own where the roster gives them."""
    for limit in section.sizes:
        if size is not None and limit.size == size.id:
            return limit.min, limit.max
    return section.min, section.max


def counted(game: Game, scale: SectionScale, army, filled: dict[str, Filled]) -> int:
    """How many units a section's scaling counts: those the list puts in the section it names, or
    the list's units of the unit or type it names."""
    if scale.section is not None:
        return filled[scale.section].taken if scale.section in filled else 0
    return sum(e.count for e in army.units if e.unit == scale.unit or (
        scale.type is not None and e.unit in game.units and game.units[e.unit].type == scale.type))


def scaled(game: Game, place: Filled, army, filled: dict[str, Filled]) -> None:
    """The section's bounds grown by what the list takes ("each HQ choice adds two Troops slots")."""
    for scale in place.section.per:
        n = counted(game, scale, army, filled)
        if scale.min is not None:
            place.min = (place.min or 0) + scale.min * n
        if scale.max is not None:
            place.max = (place.max or 0) + scale.max * n


def fill(game: Game, roster: Roster, size: GameSize | None, army, check) -> list[Filled]:
    """Each section with the lines that fill it; every finding (unknown or closed section, a unit in
    none, a section over or under its bounds, a locked one) to `check`."""
    if not roster.sections:
        return []
    filled = {s.id: Filled(s, *bounds(s, size)) for s in roster.sections}
    for i, entry in enumerate(army.units):
        if entry.unit not in game.units:
            continue  # said as an unknown unit
        target = _section_of(game, roster, entry, i, check)
        if target is not None:
            filled[target.id].lines.append(i)
            filled[target.id].taken += entry.count
    for place in filled.values():
        scaled(game, place, army, filled)
    taken = {e.unit for e in army.units}
    for place in filled.values():
        _check_max(place, army, check)
        _check_place(place, taken, army, check)
    return list(filled.values())


def _check_max(place: Filled, army, check) -> None:
    """A section over its maximum: said at the line that takes it over."""
    if place.max is None or place.taken <= place.max:
        return
    running = 0
    for i in place.lines:
        running += army.units[i].count
        if running > place.max:
            section = place.section
            check.add("section-max", section.id, i, ("units", i),
                      f"{place.taken} units in section '{section.id}': it takes at most {place.max}",
                      f"move or drop units ({section.source!r})")
            return


def _section_of(game: Game, roster: Roster, entry, i: int, check) -> Section | None:
    by_id = {s.id: s for s in roster.sections}
    if entry.section is not None:
        section = by_id.get(entry.section)
        if section is None:
            check.unknown("unknown-section", entry.section, i, ("units", i, "section"), "section", entry.section, by_id)
        elif not admits(game, section, entry.unit):
            check.add("section-not-open", entry.section, i, ("units", i, "section"),
                      f"unit '{entry.unit}' may not fill section '{entry.section}'",
                      f"sections open to it: {', '.join(s.id for s in roster.sections if admits(game, s, entry.unit)) or 'none'}")
            section = None
        return section
    section = next((s for s in roster.sections if admits(game, s, entry.unit)), None)
    if section is None:
        check.add("no-section", entry.unit, i, ("units", i, "unit"), f"unit '{entry.unit}' fills no section of the roster",
                  f"the sections: {', '.join(s.id for s in roster.sections)}")
    return section


def _check_place(place: Filled, taken: set[str], army, check) -> None:
    section = place.section
    if section.unlocked_by and not taken & set(section.unlocked_by):
        place.open = False
        if place.lines:
            at = place.lines[0]
            check.add("section-locked", section.id, at, ("units", at),
                      f"section '{section.id}' is open only to a list that takes {' or '.join(section.unlocked_by)}",
                      f"take one of them, or drop these units ({section.source!r})")
        return
    if place.min is not None and place.taken < place.min:
        check.add("section-min", section.id, None, ("units",),
                  f"{place.taken} units in section '{section.id}': it takes at least {place.min}",
                  f"add units to it ({section.source!r})", key=True)
