"""Units of measure: a distance stat's unit is a built-in one (cm, inch, hex, cube, UE) or one
the game declares under `measures:` in game.yaml, each declared once."""

from __future__ import annotations

from ..core.diagnostics import Report, did_you_mean
from ..reading.game import Game
from ..values import DistanceUnit


def check(game: Game, report: Report) -> None:
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
