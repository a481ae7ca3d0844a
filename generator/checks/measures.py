"""Units of measure: a distance stat's unit is a built-in one (cm, inch, hex, cube, UE) or one
the game declares under `measures:` in game.yaml, each declared once; its forms for counts are
those of the source language's CLDR plural categories (E026), all it needs in print (W014); a
parameter in a unit of measure is a number, a range or `unstated`, not a word."""

from __future__ import annotations

from ..core.diagnostics import Report, did_you_mean
from ..reading.game import Game
from ..i18n.plurals import categories, language_name, whole_categories
from ..model.game import COUNT_FIELDS
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
        _counts(game, index, report)
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


def _counts(game: Game, index: int, report: Report) -> None:
    """E026 for a form of a category the source language does not count with (English has no
    'few'); W014 where a measure counts (`one:`) but gives fewer forms than whole numbers take in
    its language (Polish: one, few, many), so that some count prints a wrong form."""
    manifest, doc = game.manifest, game.manifest_doc
    measure, lang = manifest.measures[index], manifest.source_language
    counts = measure.counts
    if not counts:
        return
    has = categories(lang)
    for wrong in (c for c in counts if c not in has):
        report.add("E026", f"unit of measure '{measure.id}': {language_name(lang)} has no plural category '{wrong}'",
                   doc.location(("measures", index, wrong)),
                   f"{language_name(lang)} counts with {', '.join(has)} (CLDR); give only those forms")
    needed = whole_categories(lang)
    explicit = {c for c in COUNT_FIELDS if getattr(measure, c)}
    missing = [c for c in needed if c not in explicit]
    if len(missing) > 1:  # the word serves one category; several that CLDR counts apart print it alike
        report.add("W014", f"unit of measure '{measure.id}' gives no form for {', '.join(missing)}: "
                   f"{language_name(lang)} counts whole numbers with {', '.join(needed)}, and '{measure.word}' "
                   f"prints for all of {', '.join(missing)}", doc.location(("measures", index, "one")),
                   "add the forms, e.g. " + ", ".join(f"{c}: ..." for c in missing[:-1])
                   + " (a category left out prints the word: abbr, else name)")
