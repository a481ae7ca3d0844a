"""Profile stats: declared in the manifest, typed, with value errata applied."""

from __future__ import annotations

from ..diagnostics import Report, did_you_mean
from ..game import Game
from ..model import Erratum, Record
from ..values import Target, parse_value

COMMON_LARGEST_DIE = 20  # a target above the game's largest die and above D20 cannot be rolled


def _value_errata(game: Game) -> dict[tuple[str, str, str], Erratum]:
    found = {}
    for erratum in game.errata.values():
        if erratum.record and erratum.field and erratum.field.startswith("stats."):
            section, _, record_id = erratum.record.partition("/")
            found[(section, record_id, erratum.field.removeprefix("stats."))] = erratum
    return found


def _written(value) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return " / ".join(_written(v) for v in value)
    return str(value)


def check(game: Game, report: Report) -> None:
    errata = _value_errata(game)
    for section in ("units", "weapons"):
        for record in game.section(section).values():
            _check_record(game, record, errata, report)


def _check_record(game: Game, record: Record, errata: dict, report: Report) -> None:
    origin = game.origin(record)
    applicable = {s.id: s for s in game.manifest.stats if record.kind in s.applies_to}
    stats: dict = getattr(record, "stats")
    for stat_id, raw in stats.items():
        if stat_id not in applicable:
            report.add("E013", f"unknown {record.kind} stat '{stat_id}'", origin.location("stats", stat_id, key=True),
                       did_you_mean(stat_id, applicable) or
                       f"declare it under 'stats:' in game.yaml (declared: {', '.join(applicable) or 'none'})")
    for stat_id, stat in applicable.items():
        key = (record.section, record.id, stat_id)
        erratum = errata.get(key)
        raw = stats.get(stat_id)
        where = origin.location("stats", stat_id) if stat_id in stats else origin.location("stats")
        if erratum is not None:
            if erratum.source.strip() != _written(raw).strip():
                report.add("E018", f"erratum '{erratum.id}' says the source writes '{erratum.source}', "
                           f"but the record has '{_written(raw)}'", where,
                           "keep the value exactly as the source writes it; the erratum gives the reading")
            raw = erratum.reading
        if stat_id not in stats and erratum is None:
            if stat.required:
                report.add("E005", f"{record.kind} '{record.id}' lacks required stat '{stat_id}'", where,
                           f"add '{stat_id}:' under stats, or an erratum if the source omits it")
            continue
        values = raw if isinstance(raw, list) else [raw]
        if len(values) > stat.max_values:
            report.add("E012", f"stat '{stat_id}' takes at most {stat.max_values} value(s), given {len(values)}",
                       where, "set max_values on the stat in game.yaml if the source gives more")
            continue
        parsed = []
        for value in values:
            try:
                parsed.append(parse_value(value, stat.type, stat.unit))
            except ValueError as exc:
                report.add("E012", f"stat '{stat_id}' of {record.kind} '{record.id}': {exc}", where,
                           f"a {stat.type.value} stat; if the source writes it this way, "
                           "keep it and add an erratum with the reading")
                break
        else:
            largest = max([COMMON_LARGEST_DIE, *(d.sides for d in game.dice.values())])
            beyond = next((v for v in parsed if isinstance(v, Target) and v.number > largest), None)
            if beyond is not None:
                report.add("E012", f"stat '{stat_id}' of {record.kind} '{record.id}': target {beyond} cannot be rolled "
                           f"on any die of the game (largest: D{largest})", where,
                           "write the number the die must show, e.g. 4+; add the die to data/dice.yaml if it is larger")
                continue
            game.values[key] = parsed[0] if stat.max_values == 1 else tuple(parsed)
