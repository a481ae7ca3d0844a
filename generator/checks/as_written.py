"""A stat's as-written form (`as_written:`) holds the same values as the typed stat.

The typed value is what procedures compute with; the as-written form is what the source
prints ("40 см (60 см)" for [40 см, 60 см]), so the source-language edition can print it.
"""

from __future__ import annotations

from ..core.diagnostics import Report, did_you_mean
from ..reading.game import Game
from ..values import Unstated, format_value, written_values
from .stats import STAT_SECTIONS


def check(game: Game, report: Report) -> None:
    stats = {s.id: s for s in game.manifest.stats}
    for section in STAT_SECTIONS:
        for record in game.section(section).values():
            written: dict[str, str] = getattr(record, "as_written", {})
            origin = game.origin(record)
            for stat_id, text in written.items():
                where = origin.location("as_written", stat_id)
                stat = stats.get(stat_id)
                if stat is None or stat_id not in record.stats:
                    report.add("E045", f"{record.kind} '{record.id}' gives how the source writes stat '{stat_id}', "
                               "but no such stat", origin.location("as_written", stat_id, key=True),
                               did_you_mean(stat_id, record.stats) or
                               f"write the typed value under stats: first ({stat_id}: ...), then how the source "
                               "writes it under as_written:")
                    continue
                key = (record.section, record.id, stat_id)
                if key not in game.values:
                    continue  # the typed value itself is wrong (E012) or read through an erratum
                try:
                    found = written_values(text, stat.type, stat.unit, game.manifest.unit_words())
                except ValueError as exc:
                    report.add("E046", f"as_written of {record.kind} '{record.id}' stat '{stat_id}': {exc}", where,
                               "write the source's text: values of the stat's type, separated by / or in brackets")
                    continue
                typed = game.values[key]
                expected = list(typed) if isinstance(typed, tuple) else [typed]
                if found != expected or any(isinstance(v, Unstated) for v in expected):
                    shown = " / ".join(format_value(v) for v in expected)
                    report.add("E046", f"as_written of {record.kind} '{record.id}' stat '{stat_id}' says "
                               f"'{text}', the typed value is '{shown}'", where,
                               "the as-written form must hold the same values in the same order as stats:")
