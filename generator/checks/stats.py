"""Profile stats: declared in the manifest, typed, with value errata applied."""

from __future__ import annotations

from ..core.diagnostics import Report, did_you_mean
from ..reading.game import Game
from ..model import Erratum, Record
from ..values import Target, Unstated, parse_value

COMMON_LARGEST_DIE = 20  # a target above the game's largest die and above D20 cannot be rolled
# The sections whose records carry typed stats (model.game.PROFILE_KINDS).
STAT_SECTIONS = ("units", "weapons", "terrain", "cards", "actions")


def _value_errata(game: Game) -> dict[tuple[str, str, str], Erratum]:
    found = {}
    for erratum in game.errata.values():
        if erratum.record and erratum.field and erratum.field.startswith("stats."):
            section, _, record_id = erratum.record.partition("/")
            found[(section, record_id, erratum.field.removeprefix("stats."))] = erratum
    return found


def _written(value) -> str:
    if value is None or isinstance(value, Unstated):
        return ""
    if isinstance(value, list):
        return " / ".join(_written(v) for v in value)
    return str(value)


def check(game: Game, report: Report) -> None:
    errata = _value_errata(game)
    for section in STAT_SECTIONS:
        for record in game.section(section).values():
            _check_record(game, record, errata, report)


def _check_record(game: Game, record: Record, errata: dict, report: Report) -> None:
    _check_stats(game, record, getattr(record, "stats"), record.id, (), errata, report)
    back = getattr(record, "back_face", None)
    if back is not None and back.stats:  # a card's back written as content: its own stats, none required
        from ..model.cards import back_key

        _check_stats(game, record, back.stats, back_key(record.id), ("back",), errata, report)


def _check_stats(game: Game, record: Record, stats: dict, key_id: str, prefix: tuple, errata: dict,
                 report: Report) -> None:
    """The stats `stats` written at `prefix` of a record, kept in game.values under `key_id`."""
    origin = game.origin(record)
    applicable = {s.id: s for s in game.manifest.stats if record.kind in s.applies_to}
    _unknown_stats(record, stats, applicable, origin, prefix, report)
    for stat_id, stat in applicable.items():
        key = (record.section, key_id, stat_id)
        erratum = errata.get(key)
        raw = stats.get(stat_id)
        where = origin.location(*prefix, "stats", stat_id) if stat_id in stats else origin.location(*prefix, "stats")
        if prefix and stat_id not in stats:  # a back prints only the stats it gives
            continue
        if erratum is not None:
            if erratum.source.strip() != _written(raw).strip():
                report.add("E018", f"erratum '{erratum.id}' says the source writes '{erratum.source}', "
                           f"but the record has '{_written(raw)}'", where,
                           "keep the value exactly as the source writes it; the erratum gives the reading")
            raw = erratum.reading
        if stat_id not in stats and erratum is None:
            if stat.required:
                report.add("E005", f"{record.kind} '{record.id}' lacks required stat '{stat_id}'", where,
                           f"add '{stat_id}:' under stats, or '{stat_id}: unstated' if the source does not give it")
            continue
        parsed = _parsed_stat(game, record, stat, raw, where, report)
        if parsed is not None:
            game.values[key] = parsed[0] if stat.max_values == 1 else tuple(parsed)


def _unknown_stats(record: Record, stats: dict, applicable: dict, origin, prefix: tuple, report: Report) -> None:
    """E013 for each stat written that game.yaml does not declare for the record's kind."""
    for stat_id in stats:
        if stat_id not in applicable:
            report.add("E013", f"unknown {record.kind} stat '{stat_id}'",
                       origin.location(*prefix, "stats", stat_id, key=True),
                       did_you_mean(stat_id, applicable) or
                       f"declare it under 'stats:' in game.yaml (declared: {', '.join(applicable) or 'none'})")


def _parsed_stat(game: Game, record: Record, stat, raw, where, report: Report) -> list | None:
    """The values of one stat as read; None with E012 when there are too many, one does not
    read as the stat's type, or a target cannot be rolled on any die of the game."""
    stat_id = stat.id
    values = raw if isinstance(raw, list) else [raw]
    if len(values) > stat.max_values:
        report.add("E012", f"stat '{stat_id}' takes at most {stat.max_values} value(s), given {len(values)}",
                   where, "set max_values on the stat in game.yaml if the source gives more")
        return None
    parsed = []
    for value in values:
        try:
            parsed.append(parse_value(value, stat.type, stat.unit, game.manifest.unit_words()))
        except ValueError as exc:
            report.add("E012", f"stat '{stat_id}' of {record.kind} '{record.id}': {exc}", where,
                       f"a {stat.type.value} stat: write unstated if the source does not give it; if the "
                       "source writes it this way, keep it and add an erratum with the reading "
                       f"(field: stats.{stat_id})")
            return None
    largest = max([COMMON_LARGEST_DIE, *(d.sides for d in game.dice.values() if isinstance(d.sides, int))])
    beyond = next((v for v in parsed if isinstance(v, Target) and v.number > largest), None)
    if beyond is not None:
        report.add("E012", f"stat '{stat_id}' of {record.kind} '{record.id}': target {beyond} cannot be rolled "
                   f"on any die of the game (largest: D{largest})", where,
                   "write the number the die must show, e.g. 4+; add the die to data/dice.yaml if it is larger")
        return None
    return parsed
