"""Units of measure: a distance stat's unit is a built-in one (cm, inch, hex, cube, UE) or one
the game declares under `measures:` in game.yaml, each declared once; a parameter in a unit of
measure is a number, a range or `unstated`, not a word."""

from __future__ import annotations

from ..core.diagnostics import Report, did_you_mean
from ..reading.game import Game
from ..values import DistanceUnit, parse_measured, unit_id


def check(game: Game, report: Report) -> None:
    _check_declared(game, report)
    _check_parameters(game, report)


def _check_parameters(game: Game, report: Report) -> None:
    """E012 for a parameter whose `unit:` is a unit of measure and whose value is no number,
    range or `unstated` in it ('много', '40 in' for a parameter in cm)."""
    manifest = game.manifest
    for index, param in enumerate(manifest.parameters):
        unit = manifest.parameter_unit(param)
        if unit is None:
            continue
        try:
            parse_measured(param.value, unit, manifest.unit_words())
        except ValueError as exc:
            report.add("E012", f"parameter '{param.id}' in {unit_id(unit)}: {exc}",
                       game.manifest_doc.location(("parameters", index, "value")),
                       "a parameter in a unit of measure is a number (40), a range (2–7), or unstated where "
                       "the source gives no number; where the source writes a word for one, give the number "
                       "it reads as and record that reading as an erratum the parameter cites (errata: [ID], "
                       "in data/errata.yaml and ERRATA.md)")


def _check_declared(game: Game, report: Report) -> None:
    manifest, doc = game.manifest, game.manifest_doc
    declared: dict[str, int] = {}
    for index, measure in enumerate(manifest.measures):
        if measure.id in declared:
            first = doc.location(("measures", declared[measure.id]))
            report.add("E072", f"unit of measure '{measure.id}' is declared twice", doc.location(("measures", index, "id")),
                       f"declare each unit once (first at {first.path.name}:{first.line})")
        declared.setdefault(measure.id, index)
    known = [*(u.value for u in DistanceUnit), *(m for m in declared if m not in set(DistanceUnit))]
    unknown = [(f"stat '{stat.id}'", stat.unit, doc.location(("stats", index, "unit")))
               for index, stat in enumerate(manifest.stats)]
    unknown += [(f"band '{band.id}'", band.unit, game.origin(band).location("unit")) for band in game.bands.values()]
    for what, unit, where in unknown:
        if unit is None or isinstance(unit, DistanceUnit) or unit in declared:
            continue
        close = did_you_mean(unit, known)
        report.add("E072", f"{what} is in unknown unit of measure '{unit}'", where,
                   (close + " " if close else "") + f"use one of: {', '.join(known)}, or declare it under "
                   f"measures: in game.yaml (- {{id: {unit}, name: ..., abbr: ...}})")
