"""Check an army list against its game's roster rules: the total and every breach, at the list's lines.

One verdict, shared with the list builder page (templates/site/roster.js mirrors it rule by rule):
the total counts every line of the list whatever its breaches (an option the unit may not take
still costs what it costs); a line whose cost cannot be known (an unknown unit or option, a unit
without a cost) leaves the total not computed, and says so at its line; a negative cost is a
warning at its line. Each finding carries a `rule` and a `subject` so the page and the command can
be compared finding by finding (tests/test_roster_corpus.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.diagnostics import Report, did_you_mean
from ..reading.game import Game
from ..model.rosters import GameSize, Roster, UnitLimit
from ..values import Unstated, is_unstated
from ..reading.yamlsource import YamlDocument
from .armylist import ArmyList
from .sections import Filled, fill

CODE = "E081"
NEGATIVE = "W081"


@dataclass(frozen=True)
class Line:
    """A line of the list: its place in `units:`, the unit, how many, the options, one's cost."""

    index: int
    unit: str
    count: int
    each: int | float | None  # with its options; None: not known (unknown unit or option, no cost)
    options: tuple[str, ...] = ()

    @property
    def cost(self) -> int | float | None:
        return None if self.each is None else self.each * self.count


@dataclass(frozen=True)
class Finding:
    """A breach (or, for `warning`, a caution) in words both the command and the page use."""

    rule: str          # over-limit, at-most, at-least, one-of, only-one, unknown-unit, unknown-option,
    subject: str       # option-not-open, option-max, no-cost, negative-cost, no-size, unknown-size, ...
    index: int | None  # the line of `units:` it concerns; None: the list as a whole
    warning: bool = False


@dataclass
class Tally:
    """What the check found: the roster and size it used, the lines, the total, the limit."""

    roster: Roster | None = None
    size: GameSize | None = None
    total: int | float | None = None          # None: not computed (a line whose cost is not known)
    limit: int | Unstated | str | None = None  # a number, 'free', or Unstated
    lines: list[Line] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    sections: list[Filled] = field(default_factory=list)  # force organisation, where the roster has one

    def as_dict(self) -> dict:
        """The verdict for `roster check --format json`."""
        limit = self.limit if isinstance(self.limit, (int, str)) else None
        return {
            "roster": self.roster.id if self.roster else None,
            "stat": self.roster.cost.stat if self.roster else None,
            "size": self.size.id if self.size else None,
            "total": self.total,
            "limit": limit,
            "lines": [{"index": ln.index, "unit": ln.unit, "count": ln.count, "options": list(ln.options),
                       "each": ln.each, "cost": ln.cost} for ln in self.lines],
            "sections": [s.as_dict() for s in self.sections],
            "findings": [{"rule": f.rule, "subject": f.subject, "index": f.index,
                          "severity": "warning" if f.warning else "error"} for f in self.findings],
        }


class _Check:
    """The report and the tally being filled, so every finding lands in both."""

    def __init__(self, out: Tally, doc: YamlDocument, report: Report) -> None:
        self.out, self.doc, self.report = out, doc, report

    def add(self, rule: str, subject: str, index: int | None, path: tuple, message: str, hint: str,
            code: str = CODE, key: bool = False) -> None:
        self.out.findings.append(Finding(rule, subject, index, warning=code.startswith("W")))
        self.report.add(code, message, self.doc.location(path, key=key) if key else self.doc.location(path), hint)

    def unknown(self, rule: str, subject: str, index: int | None, path: tuple, what: str, name: str, pool) -> None:
        pool = list(pool)
        hint = did_you_mean(name, pool) or (f"known: {', '.join(sorted(pool)[:12])}" if pool else f"the game has no {what}")
        self.add(rule, subject, index, path, f"unknown {what} '{name}'", hint)


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
        _Check(Tally(), doc, report).unknown("unknown-roster", wanted, None, ("roster",), "roster", wanted, rosters)
        return None
    return rosters[wanted]  # type: ignore[return-value]


def tally(game: Game, army: ArmyList, doc: YamlDocument, report: Report) -> Tally:
    """Total the list and report each breach of its roster rules into `report`."""
    out = Tally(roster=roster_of(game, army.roster, doc, report))
    roster = out.roster
    if roster is None:
        return out
    check = _Check(out, doc, report)
    out.size, out.limit = _size(game, roster, army, check)
    limited = isinstance(out.limit, int)
    value = _cost_value(roster, army, check, needed=limited)
    for i, entry in enumerate(army.units):
        each = _line_cost(game, roster, entry, i, value, check, limited)
        out.lines.append(Line(i, entry.unit, entry.count, each, tuple(entry.options)))
    costs = [line.cost for line in out.lines]
    out.total = None if None in costs else sum(costs)  # type: ignore[arg-type]
    if value is None and not limited and any(isinstance(cost_values(game, roster, ln.unit), tuple) for ln in out.lines):
        check.add("no-counted", "", None, (), f"the source does not say which value of '{roster.cost.stat}' counts: "
                  "the total is not computed", "name your reading: 'counted: first' or 'counted: second'", code=NEGATIVE)
    if limited and out.total is not None and out.total > out.limit:  # type: ignore[operator]
        at = _crossing(costs, out.limit)  # type: ignore[arg-type]
        check.add("over-limit", "", at, ("units", at), f"this takes the list to {out.total}, over the limit of "
                  f"{out.limit} for '{out.size.id if out.size else ''}'",
                  "drop units or options, or choose a larger size of game")
    _check_limits(game, roster, army, check)
    _check_choices(roster, army, check)
    out.sections = fill(game, roster, out.size, army, check)
    return out


def _crossing(costs: list, limit: int) -> int:
    """The line after which the running total stays over the limit (negative costs may bring it back)."""
    running, at = 0, 0
    for i, cost in enumerate(costs):
        before, running = running, running + cost
        if running > limit and before <= limit:
            at = i
    return at


def _size(game: Game, roster: Roster, army: ArmyList, check: _Check):
    sizes = roster.sizes
    if is_unstated(sizes) or not sizes:
        if army.size is not None:
            check.add("size-not-named", army.size, None, ("size",),
                      f"the roster names no sizes of game, yet the list names '{army.size}'", "leave 'size:' out")
        return None, sizes if is_unstated(sizes) else None
    by_id = {s.id: s for s in sizes}
    if army.size is None:
        check.add("no-size", "", None, (), "the list names no size of game", f"add 'size:' with one of: {', '.join(by_id)}")
        return None, None
    if army.size not in by_id:
        check.unknown("unknown-size", army.size, None, ("size",), "size of game", army.size, by_id)
        return None, None
    size = by_id[army.size]
    limit = game.parameter_as_written(size.parameter) if size.parameter else size.limit
    return size, limit


def _line_cost(game: Game, roster: Roster, entry, i: int, value: str | None, check: _Check,
               limited: bool) -> int | float | None:
    """One of the line's unit with its options; None (said at the line) where it cannot be known."""
    if entry.unit not in game.units:
        check.unknown("unknown-unit", entry.unit, i, ("units", i, "unit"), "unit", entry.unit, game.units)
        return None
    each = _unit_cost(game, roster, entry.unit, value, check, i, limited)
    options = _options_cost(roster, entry, i, check)
    if each is None or options is None:
        return None
    if each + options < 0:
        check.add("negative-cost", entry.unit, i, ("units", i, "unit"),
                  f"unit '{entry.unit}' costs {each + options} each: a negative cost lowers the list's total",
                  "check the unit's cost and the list's 'counted:' reading", code=NEGATIVE)
    return each + options


def _options_cost(roster: Roster, entry, i: int, check: _Check) -> int | None:
    """What the line's options add, every option counted whether the unit may take it or not;
    None where one of them is unknown or its cost unstated."""
    options = {} if is_unstated(roster.options) else {o.id: o for o in roster.options}
    total: int | None = 0
    for j, name in enumerate(entry.options):
        option = options.get(name)
        where = ("units", i, "options", j)
        if option is None:
            check.unknown("unknown-option", name, i, where, "option", name, options)
            total = None
            continue
        if entry.unit not in option.units:
            check.add("option-not-open", name, i, where, f"unit '{entry.unit}' may not take option '{name}'",
                      f"it is open to: {', '.join(option.units)}")
        elif isinstance(option.max, int) and entry.options[:j].count(name) == option.max:  # once, at the first too many
            check.add("option-max", name, i, where,
                      f"option '{name}' taken {entry.options.count(name)} times, at most {option.max}", "take it fewer times")
        if not isinstance(option.cost, int):
            total = None
        elif total is not None:
            total += option.cost
    return total


def _cost_value(roster: Roster, army: ArmyList, check: _Check, needed: bool) -> str | None:
    """Which of a cost's values counts: the roster's word, or where it is silent the list's reading."""
    stated = roster.cost.value
    if not is_unstated(stated):
        if army.counted is not None:
            check.add("counted-not-open", "", None, ("counted",),
                      f"the roster says which cost value counts ({stated}): the list may not choose", "leave 'counted:' out")
        return stated
    if army.counted is None and needed:
        why = f" ({stated.reason})" if stated.reason else ""
        check.add("no-counted", "", None, (), f"the source does not say which value of '{roster.cost.stat}' counts{why}",
                  "name your reading: 'counted: first' or 'counted: second'")
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


def _unit_cost(game: Game, roster: Roster, unit_id: str, value: str | None, check: _Check, i: int,
               limited: bool) -> int | float | None:
    """One unit's counted cost; None where it has none (an error where the size has a limit the
    total must be checked against, else a warning) or where the list's reading is missing."""
    values = cost_values(game, roster, unit_id)
    code = CODE if limited else NEGATIVE
    where = ("units", i, "unit")
    if values is None:
        check.add("no-cost", unit_id, i, where, f"unit '{unit_id}' has no '{roster.cost.stat}'",
                  "choose a unit with a cost, or give this one its cost in the game's data", code=code)
        return None
    cost = pick(values, value)
    if is_unstated(cost):
        check.add("no-cost", unit_id, i, where, f"the source does not give the {roster.cost.stat} of unit '{unit_id}'",
                  "choose another unit, or record a reading of its cost as an erratum", code=code)
        return None
    return cost


def _matches(limit: UnitLimit, game: Game, unit_id: str) -> bool:
    if limit.unit is not None:
        return unit_id == limit.unit
    unit = game.units.get(unit_id)
    return unit is not None and unit.type == limit.type


def _check_limits(game: Game, roster: Roster, army: ArmyList, check: _Check) -> None:
    for limit in roster.limits:
        what = f"unit '{limit.unit}'" if limit.unit else f"units of type '{limit.type}'"
        subject = limit.unit or limit.type or ""
        taken = 0
        for i, entry in enumerate(army.units):
            if not _matches(limit, game, entry.unit):
                continue
            taken += entry.count
            if isinstance(limit.max, int) and taken > limit.max and taken - entry.count <= limit.max:
                check.add("at-most", subject, i, ("units", i), f"{taken} {what}: the roster allows at most {limit.max}",
                          f"take at most {limit.max} ({limit.source!r})")
        if isinstance(limit.min, int) and taken < limit.min:
            check.add("at-least", subject, None, ("units",), f"{taken} {what}: the roster asks for at least {limit.min}",
                      f"add {what} ({limit.source!r})", key=True)


def _check_choices(roster: Roster, army: ArmyList, check: _Check) -> None:
    for choice in roster.choices:
        hits = [i for i, e in enumerate(army.units) if e.unit in choice.units]
        if choice.required and not hits:
            check.add("one-of", choice.id, None, ("units",), f"the list takes none of {', '.join(choice.units)} "
                      f"(choice '{choice.id}')", f"take one of them ({choice.source!r})", key=True)
        taken = sum(army.units[i].count for i in hits)
        if choice.exclusive and taken > 1:
            at = hits[-1] if len(hits) > 1 else hits[0]
            check.add("only-one", choice.id, at, ("units", at),
                      f"the list takes {taken} of {', '.join(choice.units)}; choice '{choice.id}' allows one",
                      f"keep one of them ({choice.source!r})")
