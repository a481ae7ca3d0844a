"""Check an army list against its game's roster rules: the total and every breach, at the list's lines."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.diagnostics import Report, did_you_mean
from ..reading.game import Game
from ..model.rosters import GameSize, Roster, UnitLimit
from ..values import Unstated, is_unstated
from ..reading.yamlsource import YamlDocument
from .armylist import ArmyList

CODE = "E081"


@dataclass(frozen=True)
class Line:
    """A line of the list the game knows: its place in `units:`, the unit, how many, one's cost."""

    index: int
    unit: str
    count: int
    each: int | float | None  # with its options; None: not computed (a cost the roster leaves unstated)


@dataclass
class Tally:
    """What the check found: the roster and size it used, the total, the limit."""

    roster: Roster | None = None
    size: GameSize | None = None
    total: int | float | None = None          # None: not computed (a cost the roster leaves unstated)
    limit: int | Unstated | str | None = None  # a number, 'free', or Unstated
    lines: list[Line] = field(default_factory=list)


def roster_of(game: Game, wanted: str | None, doc: YamlDocument, report: Report) -> Roster | None:
    rosters = game.section("rosters")
    if not rosters:
        report.add(CODE, f"game '{game.id}' has no roster rules", doc.location(("game",)),
                   f"add a 'rosters:' section to content/{game.id}/data/ (see docs/rosters.md)")
        return None
    if wanted is None:
        if len(rosters) == 1:
            return next(iter(rosters.values()))  # type: ignore[return-value]
        report.add(CODE, f"game '{game.id}' has several rosters", doc.location(("game",)),
                   f"name one with 'roster:': {', '.join(rosters)}")
        return None
    if wanted not in rosters:
        _unknown(report, doc, ("roster",), "roster", wanted, rosters)
        return None
    return rosters[wanted]  # type: ignore[return-value]


def tally(game: Game, army: ArmyList, doc: YamlDocument, report: Report) -> Tally:
    """Total the list and report each breach of its roster rules into `report`."""
    out = Tally(roster=roster_of(game, army.roster, doc, report))
    roster = out.roster
    if roster is None:
        return out
    out.size, out.limit = _size(game, roster, army, doc, report)
    known = {i for i, e in enumerate(army.units) if _entry_known(game, roster, e, i, doc, report)}
    value = _cost_value(roster, army, doc, report, needed=isinstance(out.limit, int))
    running: int | float | None = 0
    for i, entry in enumerate(army.units):
        if i not in known:
            continue  # reported: the total is that of the lines the roster accepts
        each = _unit_cost(game, roster, game.units[entry.unit], value, doc, ("units", i, "unit"), report)
        each = None if each is None else each + _options_cost(roster, entry)
        out.lines.append(Line(i, entry.unit, entry.count, each))
        before = running
        running = None if running is None or each is None else running + each * entry.count
        if (isinstance(out.limit, int) and running is not None and running > out.limit
                and (before is None or before <= out.limit)):
            report.add(CODE, f"this takes the list to {running}, over the limit of {out.limit} for "
                       f"'{out.size.id if out.size else ''}'", doc.location(("units", i)),
                       "drop units or options, or choose a larger size of game")
    out.total = running
    _check_limits(game, roster, army, doc, report)
    _check_choices(roster, army, doc, report)
    return out


def _unknown(report: Report, doc: YamlDocument, path: tuple, what: str, name: str, pool) -> None:
    pool = list(pool)
    hint = did_you_mean(name, pool) or (f"known: {', '.join(sorted(pool)[:12])}" if pool else f"the game has no {what}")
    report.add(CODE, f"unknown {what} '{name}'", doc.location(path), hint)


def _size(game: Game, roster: Roster, army: ArmyList, doc: YamlDocument, report: Report):
    sizes = roster.sizes
    if is_unstated(sizes) or not sizes:
        if army.size is not None:
            report.add(CODE, f"the roster names no sizes of game, yet the list names '{army.size}'",
                       doc.location(("size",)), "leave 'size:' out")
        return None, sizes if is_unstated(sizes) else None
    by_id = {s.id: s for s in sizes}
    if army.size is None:
        report.add(CODE, "the list names no size of game", doc.location(()),
                   f"add 'size:' with one of: {', '.join(by_id)}")
        return None, None
    if army.size not in by_id:
        _unknown(report, doc, ("size",), "size of game", army.size, by_id)
        return None, None
    size = by_id[army.size]
    limit = game.parameter_as_written(size.parameter) if size.parameter else size.limit
    return size, limit


def _entry_known(game: Game, roster: Roster, entry, i: int, doc: YamlDocument, report: Report) -> bool:
    if entry.unit not in game.units:
        _unknown(report, doc, ("units", i, "unit"), "unit", entry.unit, game.units)
        return False
    options = {} if is_unstated(roster.options) else {o.id: o for o in roster.options}
    ok = True
    for j, name in enumerate(entry.options):
        option = options.get(name)
        if option is None:
            _unknown(report, doc, ("units", i, "options", j), "option", name, options)
            ok = False
        elif entry.unit not in option.units:
            report.add(CODE, f"unit '{entry.unit}' may not take option '{name}'", doc.location(("units", i, "options", j)),
                       f"it is open to: {', '.join(option.units)}")
            ok = False
        elif isinstance(option.max, int) and entry.options.count(name) > option.max:
            report.add(CODE, f"option '{name}' taken {entry.options.count(name)} times, at most {option.max}",
                       doc.location(("units", i, "options", j)), "take it fewer times")
            ok = False
    return ok


def _cost_value(roster: Roster, army: ArmyList, doc: YamlDocument, report: Report, needed: bool) -> str | None:
    """Which of a cost's values counts: the roster's word, or where it is silent the list's reading."""
    stated = roster.cost.value
    if not is_unstated(stated):
        if army.counted is not None:
            report.add(CODE, f"the roster says which cost value counts ({stated}): the list may not choose",
                       doc.location(("counted",)), "leave 'counted:' out")
        return stated
    if army.counted is None and needed:
        why = f" ({stated.reason})" if stated.reason else ""
        report.add(CODE, f"the source does not say which value of '{roster.cost.stat}' counts{why}",
                   doc.location(()), "name your reading: 'counted: first' or 'counted: second'")
    return army.counted


def cost_values(game: Game, roster: Roster, unit_id: str):
    """A unit's cost as its data gives it: a number, a tuple of numbers (a pair), Unstated, or
    None where the unit has no such stat."""
    raw = game.values.get(("units", unit_id, roster.cost.stat))
    if isinstance(raw, tuple):
        return tuple(v if isinstance(v, (int, float)) or is_unstated(v) else None for v in raw)
    return raw if isinstance(raw, (int, float)) or is_unstated(raw) else None


def pick(values, value: str | None):
    """The value that counts: the only one, or the first or second of a pair (None: not chosen)."""
    if not isinstance(values, tuple):
        return values
    if value is None or not values:
        return None
    return values[0 if value in ("first", "only") else min(1, len(values) - 1)]


def _unit_cost(game: Game, roster: Roster, unit, value: str | None, doc, path, report) -> int | float | None:
    values = cost_values(game, roster, unit.id)
    if values is None:
        report.add(CODE, f"unit '{unit.id}' has no '{roster.cost.stat}'", doc.location(path),
                   "choose a unit with a cost, or give this one its cost in the game's data")
        return None
    cost = pick(values, value)
    if is_unstated(cost):
        report.add(CODE, f"the source does not give the {roster.cost.stat} of unit '{unit.id}'", doc.location(path),
                   "choose another unit, or record a reading of its cost as an erratum")
        return None
    return cost


def _options_cost(roster: Roster, entry) -> int:
    options = {} if is_unstated(roster.options) else {o.id: o for o in roster.options}
    return sum(options[o].cost for o in entry.options if o in options and isinstance(options[o].cost, int))


def _matches(limit: UnitLimit, game: Game, unit_id: str) -> bool:
    if limit.unit is not None:
        return unit_id == limit.unit
    unit = game.units.get(unit_id)
    return unit is not None and unit.type == limit.type


def _check_limits(game: Game, roster: Roster, army: ArmyList, doc: YamlDocument, report: Report) -> None:
    for limit in roster.limits:
        what = f"unit '{limit.unit}'" if limit.unit else f"units of type '{limit.type}'"
        taken = 0
        for i, entry in enumerate(army.units):
            if not _matches(limit, game, entry.unit):
                continue
            taken += entry.count
            if isinstance(limit.max, int) and taken > limit.max and taken - entry.count <= limit.max:
                report.add(CODE, f"{taken} {what}: the roster allows at most {limit.max}",
                           doc.location(("units", i)), f"take at most {limit.max} ({limit.source!r})")
        if isinstance(limit.min, int) and taken < limit.min:
            report.add(CODE, f"{taken} {what}: the roster asks for at least {limit.min}",
                       doc.location(("units",), key=True), f"add {what} ({limit.source!r})")


def _check_choices(roster: Roster, army: ArmyList, doc: YamlDocument, report: Report) -> None:
    for choice in roster.choices:
        hits = [i for i, e in enumerate(army.units) if e.unit in choice.units]
        if choice.required and not hits:
            report.add(CODE, f"the list takes none of {', '.join(choice.units)} (choice '{choice.id}')",
                       doc.location(("units",), key=True), f"take one of them ({choice.source!r})")
        taken = sum(army.units[i].count for i in hits)
        if choice.exclusive and taken > 1:
            report.add(CODE, f"the list takes {taken} of {', '.join(choice.units)}; choice '{choice.id}' allows one",
                       doc.location(("units", hits[-1] if len(hits) > 1 else hits[0])),
                       f"keep one of them ({choice.source!r})")
