"""Probability tables computed from a game's procedures, written as CSV and JSON.

A procedures module declares a table with `@table('id', title=..., columns=...)` on a
function `(game) -> rows`; each row maps column ids to values, usually exact
probabilities from `exact(...)`, or records. `rulesmith check --tables` writes
`output/<game>/tables/<id>.csv` (records as ids, probabilities as decimals, for
spreadsheets) and `<id>.json`:

    {"table": id, "title": ..., "columns": [{"id", "name"}],
     "rows": [...],                 # as printed in the source language: "16,7 %", record names
     "localized": {lang: [...]},    # the same for every language of the game
     "exact": [...]}                # record ids and exact fractions ("1/6")
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping

from ..game import Game
from ..model import Record
from .calc import format_number
from .distribution import freeze
from .expect import show
from .procedures import Declared, load_procedures

DECIMALS = 6      # in CSV
PERCENT_DIGITS = 1  # in the printed rows


@dataclass
class ComputedTable:
    id: str
    title: Any                 # text, or {lang: text}
    columns: list[dict[str, Any]]  # {"id": ..., "name": text or {lang: text}}
    rows: list[dict[str, Any]]


def compute(game: Game, declared: Declared) -> ComputedTable:
    """Run one table function; ValueError if its rows are not mappings."""
    rows = list(declared.fn(game) or [])
    if any(not isinstance(row, Mapping) for row in rows):
        raise ValueError(f"table '{declared.id}' must return mappings (column -> value)")
    names = declared.extra.get("columns") or {}
    if callable(names):  # columns that follow the game's data
        names = names(game)
    ids: list[str] = list(names)
    for row in rows:
        ids.extend(str(k) for k in row if str(k) not in ids)
    columns = [{"id": c, "name": names.get(c, c)} for c in ids]
    return ComputedTable(declared.id, declared.title or declared.id, columns, [dict(r) for r in rows])


def printed(value: Any, lang: str, tr: Any) -> Any:
    """A cell as a reader sees it in `lang`: probabilities as percentages, records by name."""
    return _printed(value, lang, tr)


def _printed(value: Any, lang: str, tr: Any) -> Any:
    if isinstance(value, Fraction):
        return format_number(value, "percent", lang, PERCENT_DIGITS)
    if isinstance(value, Record):
        return tr.field(value, "name") if hasattr(value, "name") else value.id
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return show(freeze(value))


def _exact(value: Any) -> Any:
    if isinstance(value, Fraction):
        return show(value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return show(freeze(value))


def _csv_cell(value: Any) -> str:
    if isinstance(value, Fraction):
        return f"{float(value):.{DECIMALS}f}"
    return "" if value is None else str(_exact(value))


def write(table: ComputedTable, folder: Path, game: Game) -> list[Path]:
    from ..i18n.translate import Translator

    ids = [c["id"] for c in table.columns]
    folder.mkdir(parents=True, exist_ok=True)
    csv_path = folder / f"{table.id}.csv"
    with csv_path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(ids)
        for row in table.rows:
            writer.writerow([_csv_cell(row.get(c)) for c in ids])
    source = game.manifest.source_language
    localized = {}
    for lang in dict.fromkeys([source, *game.manifest.languages]):
        tr = Translator.load(game, lang)
        localized[lang] = [{c: _printed(row.get(c), lang, tr) for c in ids} for row in table.rows]
    json_path = folder / f"{table.id}.json"
    json_path.write_text(json.dumps({
        "table": table.id, "title": table.title, "columns": table.columns,
        "rows": localized[source], "localized": localized,
        "exact": [{c: _exact(row.get(c)) for c in ids} for row in table.rows],
    }, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return [csv_path, json_path]


def write_tables(game: Game, output: Path) -> list[Path]:
    """Compute and write every table the game's procedures declare, under output/<game>/tables/."""
    written: list[Path] = []
    for declared in load_procedures(game.folder).tables.values():
        written.extend(write(compute(game, declared), output / game.id / "tables", game))
    return written


__all__ = ["ComputedTable", "compute", "printed", "write", "write_tables"]
