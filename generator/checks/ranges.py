"""Numbers within the range their declaration gives: a stat's or a parameter's `min`/`max`
(a count is never negative). An out-of-range value is reported where it is written, and the
hint names the line of the declaration that sets the range."""

from __future__ import annotations

from ..core.diagnostics import Report
from ..reading.game import Game
from ..values import Distance


def _amount(value) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    return value.amount if isinstance(value, Distance) else None


def _outside(declared, value) -> str | None:
    """What is wrong with `value` for a declaration with min/max, or None."""
    amount = _amount(value)
    if amount is None:
        return None
    if declared.min is not None and amount < declared.min:
        return f"below its minimum {declared.min:g}"
    if declared.max is not None and amount > declared.max:
        return f"above its maximum {declared.max:g}"
    return None


def _range(declared) -> str:
    if declared.max is None:
        return f"of {declared.min:g} or more"
    if declared.min is None:
        return f"of {declared.max:g} or less"
    return f"from {declared.min:g} to {declared.max:g}"


def check(game: Game, report: Report) -> None:
    manifest, doc = game.manifest, game.manifest_doc
    ranged = {stat.id: (i, stat) for i, stat in enumerate(manifest.stats) if stat.min is not None or stat.max is not None}
    for (section, key_id, stat_id), values in game.values.items():
        if stat_id not in ranged:
            continue
        index, stat = ranged[stat_id]
        record_id, _, part = key_id.partition(".")  # a card's back keeps its stats under ID.back
        record = game.section(section).get(record_id)
        if record is None:
            continue
        for value in values if isinstance(values, tuple) else (values,):
            wrong = _outside(stat, value)
            if wrong:
                declared = doc.location(("stats", index))
                prefix = (part,) if part else ()
                report.add("E071", f"{record.kind} '{record.id}' stat '{stat_id}' is {value}, {wrong}",
                           game.origin(record).location(*prefix, "stats", stat_id),
                           f"'{stat_id}' takes values {_range(stat)} (declared at {declared.path.name}:"
                           f"{declared.line}); write a value in that range, or change min/max there")
                break
    for index, parameter in enumerate(manifest.parameters):
        wrong = _outside(parameter, manifest.parameter_value(parameter))  # '-5' written as text too
        if wrong:
            declared = doc.location(("parameters", index))
            report.add("E071", f"parameter '{parameter.id}' is {parameter.value}, {wrong}",
                       doc.location(("parameters", index, "value")),
                       f"'{parameter.id}' takes values {_range(parameter)} (declared at {declared.path.name}:"
                       f"{declared.line}); write a value in that range, or change min/max there")
