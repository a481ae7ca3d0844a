"""Roster rules name things that exist and do not contradict themselves."""

from __future__ import annotations

from ..core.diagnostics import Report
from ..reading.game import Game, Origin
from ..model.rosters import Roster
from ..values import StatType, is_unstated
from .references import report_unknown


def check(game: Game, report: Report) -> None:
    for roster in game.section("rosters").values():
        assert isinstance(roster, Roster)
        origin = game.origin(roster)
        _check_cost(game, roster, origin, report)
        _check_sizes(game, roster, origin, report)
        _check_limits(game, roster, origin, report)
        for i, choice in enumerate(roster.choices):
            _units(game, origin, ("choices", i, "units"), choice.units, report)
            if not (choice.required or choice.exclusive):
                report.add("E080", f"choice '{choice.id}' is neither required nor exclusive",
                           origin.location("choices", i, "id"), "write 'required: true', 'exclusive: true' or both")
        if not is_unstated(roster.options):
            for i, option in enumerate(roster.options):
                _units(game, origin, ("options", i, "units"), option.units, report)
        if roster.reinforcement is not None:
            _stat(game, origin, ("reinforcement", "stat"), roster.reinforcement.stat, report)
        _check_sections(game, roster, origin, report)


def _check_cost(game: Game, roster: Roster, origin: Origin, report: Report) -> None:
    stat = _stat(game, origin, ("cost", "stat"), roster.cost.stat, report)
    if stat is None:
        return
    if stat.type is not StatType.NUMBER:
        report.add("E080", f"cost stat '{stat.id}' is of type {stat.type.value}, not a number",
                   origin.location("cost", "stat"), "name a stat declared with 'type: number'")
    several = roster.cost.value != "only"
    if several and stat.max_values < 2:
        report.add("E080", f"cost value '{roster.cost.value}' names one of several values, but stat '{stat.id}' "
                   f"takes one", origin.location("cost", "value"), "leave 'value:' out")


def _check_sizes(game: Game, roster: Roster, origin: Origin, report: Report) -> None:
    if is_unstated(roster.sizes):
        return
    seen: set[str] = set()
    rules = game.section("rules")
    parameters = [p.id for p in game.manifest.parameters]
    for i, size in enumerate(roster.sizes):
        if size.id in seen:
            report.add("E006", f"duplicate game size '{size.id}'", origin.location("sizes", i, "id"),
                       "give each size of game its own id")
        seen.add(size.id)
        if size.rule not in rules and not game.is_dropped("rules", size.rule):
            report_unknown(report, origin.location("sizes", i, "rule"), "rule", size.rule, rules)
        if size.parameter is not None:
            if size.limit is not None:
                report.add("E080", f"game size '{size.id}' gives both 'limit:' and 'parameter:'",
                           origin.location("sizes", i, "parameter"), "keep one: the parameter holds the number")
            elif size.parameter not in parameters:
                report_unknown(report, origin.location("sizes", i, "parameter"), "parameter", size.parameter, parameters)
        elif size.limit is None:
            report.add("E005", f"game size '{size.id}' has no limit",
                       origin.location("sizes", i, "id"),
                       "add 'limit: N', 'parameter: ID', 'limit: free' or 'limit: unstated'")


def _check_limits(game: Game, roster: Roster, origin: Origin, report: Report) -> None:
    types = {u.type for u in game.units.values() if u.type}
    for i, limit in enumerate(roster.limits):
        where = ("limits", i)
        if (limit.unit is None) == (limit.type is None):
            report.add("E080", "a limit names either 'unit:' or 'type:'", origin.location(*where),
                       "write 'unit: ID' for one unit, or 'type: NAME' for every unit of a type")
        if limit.unit is not None:
            _units(game, origin, where + ("unit",), (limit.unit,), report)
        if limit.type is not None and types and limit.type not in types:
            report_unknown(report, origin.location(*where, "type"), "unit type", limit.type, types)
        low, high = limit.min, limit.max
        if isinstance(low, int) and isinstance(high, int) and low > high:
            report.add("E080", f"minimum {low} is above maximum {high}", origin.location(*where, "min"),
                       "swap them, or check the source")


def _check_sections(game: Game, roster: Roster, origin: Origin, report: Report) -> None:
    """Sections name units, types and sizes the game has, and bounds that hold together."""
    types = {u.type for u in game.units.values() if u.type}
    sizes = [] if is_unstated(roster.sizes) else [s.id for s in roster.sizes]
    seen: set[str] = set()
    for i, section in enumerate(roster.sections):
        where = ("sections", i)
        if section.id in seen:
            report.add("E006", f"duplicate section '{section.id}'", origin.location(*where, "id"), "give each section its own id")
        seen.add(section.id)
        _units(game, origin, where + ("units",), section.units, report)
        _units(game, origin, where + ("unlocked_by",), section.unlocked_by, report)
        for j, kind in enumerate(section.types):
            if types and kind not in types:
                report_unknown(report, origin.location(*where, "types", j), "unit type", kind, types)
        if not (section.units or section.types):
            report.add("E080", f"section '{section.id}' names no units and no types", origin.location(*where, "id"),
                       "add 'units: [ID, ...]' or 'types: [TYPE, ...]'")
        bounds = [(where, section.min, section.max)]
        for j, limit in enumerate(section.sizes):
            if limit.size not in sizes:
                report_unknown(report, origin.location(*where, "sizes", j, "size"), "size of game", limit.size, sizes)
            bounds.append((where + ("sizes", j), limit.min, limit.max))
        for j, scale in enumerate(section.per):
            bounds.append((where + ("per", j), scale.min, scale.max))
            _check_scale(game, roster, origin, where + ("per", j), section.id, scale, types, report)
        for place, low, high in bounds:
            if low is not None and high is not None and low > high:
                report.add("E080", f"minimum {low} is above maximum {high}", origin.location(*place, "min"),
                           "swap them, or check the source")


def _check_scale(game: Game, roster: Roster, origin: Origin, where: tuple, own: str, scale, types, report: Report) -> None:
    """A section's `per:` entry counts one thing the game has (another section, a unit, a type) and
    adds to a bound."""
    named = [k for k in ("section", "unit", "type") if getattr(scale, k) is not None]
    if len(named) != 1:
        report.add("E080", f"a 'per:' entry of section '{own}' names {' and '.join(named) or 'nothing to count'}",
                   origin.location(*where), "name one of 'section: ID', 'unit: ID' or 'type: NAME'")
    if scale.min is None and scale.max is None:
        report.add("E080", f"a 'per:' entry of section '{own}' adds to no bound", origin.location(*where),
                   "give 'max: N' (each adds N slots) or 'min: N' (each asks for N more)")
    sections = [s.id for s in roster.sections]
    if scale.section == own:
        report.add("E080", f"section '{own}' grows with its own units", origin.location(*where, "section"),
                   "count another section, a unit or a type")
    elif scale.section is not None and scale.section not in sections:
        report_unknown(report, origin.location(*where, "section"), "section", scale.section, sections)
    if scale.unit is not None:
        _units(game, origin, where + ("unit",), (scale.unit,), report)
    if scale.type is not None and types and scale.type not in types:
        report_unknown(report, origin.location(*where, "type"), "unit type", scale.type, types)


def _units(game: Game, origin: Origin, field: tuple, ids, report: Report) -> None:
    for j, unit in enumerate(ids):
        if unit not in game.units and not game.is_dropped("units", unit):
            place = field + (j,) if field[-1] != "unit" else field
            report_unknown(report, origin.location(*place), "unit", unit, game.units)


def _stat(game: Game, origin: Origin, field: tuple, stat_id: str, report: Report):
    stat = game.stat_def(stat_id)
    if stat is None:
        report_unknown(report, origin.location(*field), "stat", stat_id, [s.id for s in game.manifest.stats])
    return stat
