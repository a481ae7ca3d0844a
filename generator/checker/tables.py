"""Probability tables computed from a game's procedures, written as CSV and JSON.

A procedures module declares a table with `@table('id', title=...)` on a function
`(game) -> rows`; each row is a mapping from column name to value, usually exact
probabilities from `exact(...)`. `rulesmith check --tables` writes
`output/<game>/tables/<id>.csv` (decimals, for spreadsheets) and `<id>.json` (exact
fractions next to their decimal values).
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping

from ..game import Game
from .distribution import freeze
from .expect import show
from .procedures import Declared, load_procedures

DECIMALS = 6


@dataclass
class ComputedTable:
    id: str
    title: str
    columns: list[str]
    rows: list[dict[str, Any]]


def compute(game: Game, declared: Declared) -> ComputedTable:
    """Run one table function; ValueError if its rows are not mappings."""
    rows = [dict(row) for row in declared.fn(game) or []]
    if any(not isinstance(row, Mapping) for row in rows):
        raise ValueError(f"table '{declared.id}' must return mappings (column -> value)")
    columns: list[str] = []
    for row in rows:
        columns.extend(str(k) for k in row if str(k) not in columns)
    return ComputedTable(declared.id, declared.title or declared.id, columns, rows)


def _csv_cell(value: Any) -> str:
    if isinstance(value, Fraction):
        return f"{float(value):.{DECIMALS}f}"
    if value is None:
        return ""
    return show(freeze(value))


def _json_cell(value: Any) -> Any:
    if isinstance(value, Fraction):
        return {"exact": show(value), "value": round(float(value), DECIMALS)}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return show(freeze(value))


def write(table: ComputedTable, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    csv_path = folder / f"{table.id}.csv"
    with csv_path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(table.columns)
        for row in table.rows:
            writer.writerow([_csv_cell(row.get(c)) for c in table.columns])
    json_path = folder / f"{table.id}.json"
    json_path.write_text(json.dumps({
        "table": table.id, "title": table.title, "columns": table.columns,
        "rows": [{c: _json_cell(row.get(c)) for c in table.columns} for row in table.rows],
    }, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return [csv_path, json_path]


def write_tables(game: Game, output: Path) -> list[Path]:
    """Compute and write every table the game's procedures declare, under output/<game>/tables/."""
    written: list[Path] = []
    for declared in load_procedures(game.folder).tables.values():
        written.extend(write(compute(game, declared), output / game.id / "tables"))
    return written


__all__ = ["ComputedTable", "compute", "write", "write_tables"]
