"""Enumerations: closed sets of values declared in game.yaml (`enums:`), and the fields and
text stats that must take one of them.

An enumeration named like a field (`side`) checks that field of every record that has one; a
name `KIND-FIELD` (`unit-type`) checks that field of one record kind only. A text stat names
its enumeration with `enum:`. A value outside its set is E050 with "did you mean".
"""

from __future__ import annotations

from typing import Any, Iterator

from ..core.diagnostics import Location, Report, did_you_mean
from ..reading.game import Game
from ..model import RECORD_TYPES, Record
from ..values import Unstated

KINDS = {t.kind: t for t in RECORD_TYPES}


def targets(name: str) -> list[tuple[type[Record], str]]:
    """(record type, field name) pairs an enumeration named `name` constrains."""
    for kind, model in KINDS.items():
        if name.startswith(kind + "-"):
            field = name[len(kind) + 1:].replace("-", "_")
            if field in model.model_fields:
                return [(model, field)]
    field = name.replace("-", "_")
    return [(model, field) for model in RECORD_TYPES if field in model.model_fields and field != "id"]


def _values(raw: Any) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """(sub-path, value) for a field or stat: one value, or each item of a list."""
    if isinstance(raw, (list, tuple)):
        for i, item in enumerate(raw):
            yield (i,), item
    else:
        yield (), raw


def _check_value(report: Report, where: Location, what: str, value: Any, allowed: list[str], enum: str) -> None:
    if value is None or isinstance(value, Unstated) or str(value) in allowed:
        return
    report.add("E050", f"{what}: '{value}' is not one of the '{enum}' values", where,
               did_you_mean(str(value), allowed) or f"use one of: {', '.join(allowed)}, "
               f"or add '{value}' to enums: {enum} in game.yaml")


def check(game: Game, report: Report) -> None:
    manifest, doc = game.manifest, game.manifest_doc
    for name, values in manifest.enums.items():
        seen: set[str] = set()
        for i, value in enumerate(manifest.enum_values(name)):
            if value in seen:
                report.add("E006", f"enumeration '{name}' lists '{value}' twice", doc.location(("enums", name, i)),
                           "list each value once")
            seen.add(value)
    for index, stat in enumerate(manifest.stats):
        if stat.enum is not None and stat.enum not in manifest.enums:
            report.add("E007", f"stat '{stat.id}' names unknown enumeration '{stat.enum}'",
                       doc.location(("stats", index, "enum")),
                       did_you_mean(stat.enum, manifest.enums) or "declare it under 'enums:' in game.yaml")
    by_type: dict[type[Record], list[tuple[str, str]]] = {}
    for name in manifest.enums:
        for model, field in targets(name):
            by_type.setdefault(model, []).append((field, name))
    stat_enums = {s.id: s.enum for s in manifest.stats if s.enum in manifest.enums}
    for record in game.all_records():
        origin = game.origin(record)
        for field, name in by_type.get(type(record), ()):
            allowed = manifest.enum_values(name)
            for sub, value in _values(getattr(record, field)):
                _check_value(report, origin.location(field, *sub), f"{record.kind} '{record.id}' {field}",
                             value, allowed, name)
        stats = getattr(record, "stats", None)
        if isinstance(stats, dict):
            for stat_id, raw in stats.items():
                name = stat_enums.get(stat_id)
                if name is None:
                    continue
                for sub, value in _values(raw):
                    _check_value(report, origin.location("stats", stat_id, *sub),
                                 f"{record.kind} '{record.id}' stat '{stat_id}'", value, manifest.enum_values(name), name)
