"""Probability tables computed from a game's procedures, written as CSV and JSON.

A procedures module declares a table with `@table('id', title=..., columns=...)` on a
function `(game) -> rows`; each row maps column ids to values, usually exact
probabilities from `exact(...)`, or records. `rulesmith check --tables` writes
`output/<game>/tables/<id>.csv` (records as ids, probabilities as decimals, for
spreadsheets) and `<id>.json`:

    {"table": id, "title": ..., "columns": [{"id", "name"}],
     "rows": [...],                 # as printed in the source language: "16,7 %", record names
     "localized": {lang: [...]},    # the same for every language of the game
     "exact": [...],                # record ids and exact fractions ("1/6")
     "assumes": ...,                # what the table takes for granted (text or {lang: text})
     "units": {"attacker": {unit id: [reading]}, "target": {...}}}  # how units pick a cell:
                                    # {"with": weapon id or null, "inputs": {column: exact}, "column": id,
                                    #  "times": how many the unit rolls, where the cells are per die}
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Mapping

from .. import outputs
from ..reading.game import Game
from ..model import Record, Table
from ..text.blocks import coded_names
from ..values import UnstatedError
from .calc import format_number
from .distribution import freeze
from .expect import show
from .procedures import Declared, error_line, load_procedures, module_path, problem_of

DECIMALS = 6      # in CSV
PERCENT_DIGITS = 1  # in the printed rows


class Coded(str):
    """A coded cell of a computed table: the ids it holds (it is that string, so procedures and
    spreadsheets see the ids), and the data table column whose values name them for readers."""

    table: Table
    column: int

    def __new__(cls, cell: str, table: Table, column: int) -> "Coded":
        self = super().__new__(cls, cell)
        self.table, self.column = table, column
        return self

    def __reduce__(self):
        return Coded, (str(self), self.table, self.column)

    def printed(self, tr: Any) -> str:
        return coded_names(self.table, self.column, self.table.columns[self.column], str(self), tr)


@dataclass
class ComputedTable:
    id: str
    title: Any                 # text, or {lang: text}
    columns: list[dict[str, Any]]  # {"id": ..., "name": text or {lang: text}}
    rows: list[dict[str, Any]]
    assumes: Any = None
    units: dict[str, dict[str, list[dict[str, Any]]]] | None = None

    def printed_rows(self, tr: Any) -> list[dict[str, Any]]:
        """Each row as a reader of tr's language sees it: probabilities as percentages,
        records and coded cells by name (text/computed.py's ShownTable)."""
        ids = [c["id"] for c in self.columns]
        return [{c: _printed(row.get(c), tr.lang, tr) for c in ids} for row in self.rows]


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
    coded = {column: _coded_column(game, declared.id, column, where)
             for column, where in (declared.extra.get("values") or {}).items()}
    rows = [{k: Coded(v, *coded[k]) if k in coded and isinstance(v, str) else v for k, v in r.items()} for r in rows]
    return ComputedTable(declared.id, declared.title or declared.id, columns, rows,
                         declared.extra.get("assumes"), _unit_readings(game, declared, ids, rows))


def _coded_column(game: Game, table_id: str, column: str, where: str) -> tuple[Table, int]:
    """The data table column 'table-id.column-id' whose values name a computed column's cells."""
    data_id, _, column_id = where.partition(".")
    data = game.tables.get(data_id)
    index = next((i for i, c in enumerate(data.columns) if c.id == column_id and c.values), None) if data else None
    if index is None:
        raise ValueError(f"table '{table_id}': values of column '{column}' name '{where}', which is not a "
                         "data table column with values")
    return data, index


def _unit_readings(game: Game, declared: Declared, ids: list[str], rows: list[dict]) -> dict | None:
    """Each unit's readings as attacker and as target (see `procedures.table`), values exact."""
    sides = {side: declared.extra.get(side) for side in ("attacker", "target") if declared.extra.get(side)}
    if not sides:
        return None
    held = {c: {str(_exact(row.get(c))) for row in rows} for c in ids}
    out: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for side, fn in sides.items():
        out[side] = {}
        for unit in game.units.values():
            readings = [_reading(declared.id, side, unit.id, reading, held) for reading in _found(fn, game, unit)]
            if readings:
                out[side][unit.id] = readings
    return out


def _found(fn: Any, game: Game, unit: Any) -> list:
    """A side's readings of one unit, as the table's function gives them; none where a value
    the unit's reading needs is not in the source."""
    try:
        return list(fn(game, unit) or [])
    except UnstatedError:
        return []


def _reading(table_id: str, side: str, unit_id: str, reading: Mapping, held: dict[str, set[str]]) -> dict[str, Any]:
    """One reading, values exact; ValueError if it names a column the table lacks (`held`:
    column -> the exact values its rows hold) or inputs no row has."""
    inputs = {str(k): _exact(v) for k, v in (reading.get("inputs") or {}).items()}
    column = reading.get("column")
    if any(k not in held for k in inputs) or (column is not None and column not in held):
        raise ValueError(f"table '{table_id}': the {side} reading of '{unit_id}' names a column "
                         f"the table does not have ({', '.join([*inputs, column or ''])})")
    lacking = [f"{k} {v}" for k, v in inputs.items() if str(v) not in held[k]]
    if lacking:
        raise ValueError(f"table '{table_id}': the {side} reading of '{unit_id}' gives "
                         f"{', '.join(lacking)}, which no row of the table has")
    weapon = reading.get("with")
    times = reading.get("times")
    return {"with": getattr(weapon, "id", weapon), "inputs": inputs, "column": column,
            **({"times": times} if isinstance(times, int) and not isinstance(times, bool) else {})}


def _printed(value: Any, lang: str, tr: Any) -> Any:
    """A cell as a reader sees it in `lang`: probabilities as percentages, records by name."""
    if isinstance(value, Fraction):
        return format_number(value, "percent", lang, PERCENT_DIGITS)
    if isinstance(value, Record):
        return tr.field(value, "name") if hasattr(value, "name") else value.id
    if isinstance(value, Coded):  # before str: a coded cell prints its values' names
        return value.printed(tr)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return show(freeze(value))


def _exact(value: Any) -> Any:
    if isinstance(value, Fraction):
        return show(value)
    if value is None or isinstance(value, (str, int, float, bool)):  # a coded cell is its ids
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
    text = io.StringIO(newline="")
    writer = csv.writer(text)
    writer.writerow(ids)
    for row in table.rows:
        writer.writerow([_csv_cell(row.get(c)) for c in ids])
    outputs.write_if_changed(csv_path, text.getvalue())  # a table that came out the same is kept
    source = game.manifest.source_language
    localized = {lang: table.printed_rows(Translator.load(game, lang))
                 for lang in dict.fromkeys([source, *game.manifest.languages])}
    json_path = folder / f"{table.id}.json"
    outputs.write_if_changed(json_path, json.dumps({
        "table": table.id, "title": table.title, "columns": table.columns,
        "rows": localized[source], "localized": localized,
        "exact": [{c: _exact(row.get(c)) for c in ids} for row in table.rows],
        **({"assumes": table.assumes} if table.assumes else {}),
        **({"units": table.units} if table.units else {}),
    }, ensure_ascii=False, indent=2) + "\n")
    return [csv_path, json_path]


class TableError(RuntimeError):
    """A table could not be computed: the procedure raised, overran its time or ended the process."""

    def __init__(self, message: str, line: int = 0):
        super().__init__(message)
        self.line = line


def _write_all(game: Game, output: Path) -> tuple:
    procedures = load_procedures(game.folder)
    try:
        written: list[Path] = []
        for declared in procedures.tables.values():
            written.extend(write(compute(game, declared), output / game.id / "tables", game))
    except OSError as exc:  # writing the tables (a full disk): the parent raises it as it is
        return "os-error", exc
    except Exception as exc:  # a table function's bug: where, for the message
        return "raised", f"{type(exc).__name__}: {exc}", error_line(exc, procedures.path)
    return "written", [str(p) for p in written]


def write_tables(game: Game, output: Path) -> list[Path]:
    """Compute and write every table the game's procedures declare, under output/<game>/tables/.
    The procedures run in a child process with a time limit (bounded.py); TableError if a
    table cannot be computed."""
    return tables_started(game, output)()


def tables_started(game: Game, output: Path) -> Callable[[], list[Path]]:
    """write_tables started: the procedures run in their bounded child while the caller goes
    on; calling what is returned waits for them and gives the files written (TableError or
    OSError as write_tables raises them)."""
    from .bounded import start_bounded, time_limit

    path = module_path(game.folder)
    if not path.is_file():
        return list
    seconds = time_limit()
    child = start_bounded(_write_all, game, output, seconds=seconds)

    def written() -> list[Path]:
        outcome = child.wait()
        if not outcome.ok:
            problem = problem_of(outcome, path, seconds)
            raise TableError(problem.message, problem.line)
        if outcome.value[0] == "os-error":
            raise outcome.value[1]
        if outcome.value[0] == "raised":
            raise TableError(outcome.value[1], outcome.value[2])
        return [Path(p) for p in outcome.value[1]]
    return written


__all__ = ["ComputedTable", "TableError", "compute", "tables_started", "write", "write_tables"]
