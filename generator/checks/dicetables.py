"""Tables: each face of a dice table's roll covered exactly once; every row gives every declared
column, and no undeclared one (references inside cells: fieldrefs.py)."""

from __future__ import annotations

from ..core.diagnostics import Report, did_you_mean
from ..reading.game import Game
from ..model import Table
from ..model.tables import coded_ids
from ..values import Span, StatType, parse_value


def _runs(numbers: list[int]) -> str:
    """[1, 2, 3, 7] -> '1–3, 7'."""
    out, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            out.append(str(start) if start == n else f"{start}–{n}")
            start = None
    return ", ".join(out)


def check(game: Game, report: Report) -> None:
    for table in game.tables.values():
        _check_columns(game, table, report)
        if table.dice is not None:
            _check_coverage(game, table, report)


def _check_columns(game: Game, table: Table, report: Report) -> None:
    if not table.columns:
        return
    known = {c.id for c in table.columns} | ({"roll"} if table.dice else set())
    origin = game.origin(table)
    for i, row in enumerate(table.rows):
        for key in row:
            if key not in known:
                report.add("E003", f"row has column '{key}' that table '{table.id}' does not declare",
                           origin.location("rows", i, key, key=True),
                           did_you_mean(key, known) or f"columns: {', '.join(sorted(known))}")
        missing = [c.id for c in table.columns if c.id not in row]
        if missing:
            report.add("E051", f"row {i + 1} of table '{table.id}' has no {', '.join(repr(m) for m in missing)}",
                       origin.location("rows", i),
                       "give every column a cell: '-' where the source has none, 'unstated' where it "
                       "does not give the value")
        for key, cell in row.items():
            column = next((c for c in table.columns if c.id == key), None)
            if column is not None and column.values:
                _check_coded(game, table, i, column, cell, report)  # other cells' references: fieldrefs.py


def _check_coded(game: Game, table: Table, row: int, column, cell, report: Report) -> None:
    """A coded column's cell holds ids of its declared values ('-' where the source has none)."""
    if cell == "-" or cell is None:
        return
    known = [v.id for v in column.values]
    for part in coded_ids(str(cell)):
        if part not in known:
            report.add("E055", f"table '{table.id}', row {row + 1}, {column.id}: '{part}' is not one of the "
                       f"column's values", game.origin(table).location("rows", row, column.id),
                       did_you_mean(part, known) or f"values: {', '.join(known)}")


def _check_coverage(game: Game, table: Table, report: Report) -> None:
    origin = game.origin(table)
    try:
        dice = parse_value(table.dice, StatType.DICE)
    except ValueError as exc:
        report.add("E012", f"table '{table.id}': {exc}", origin.location("dice"), "write e.g. d6, d100 or 2d6")
        return
    low, high = dice.faces
    covered: dict[int, int] = {}
    for i, row in enumerate(table.rows):
        where = origin.location("rows", i, "roll")
        if "roll" not in row:
            report.add("E005", f"row {i + 1} of dice table '{table.id}' has no 'roll'", origin.location("rows", i),
                       "give the roll range this row covers, e.g. roll: 1-5")
            continue
        try:
            span = parse_value(row["roll"], StatType.RANGE)
        except ValueError as exc:
            report.add("E012", f"table '{table.id}': {exc}", where, "write e.g. 1-5, 6 or 96-100")
            continue
        assert isinstance(span, Span)
        top = high if span.high is None else span.high
        twice = [n for n in range(span.low, top + 1) if n in covered]
        if twice:
            first = covered[twice[0]]
            report.add("E011", f"dice table '{table.id}': {_runs(twice)} already covered by row {first + 1}",
                       where, "each result of the roll belongs to exactly one row")
        outside = [n for n in range(span.low, top + 1) if not low <= n <= high]
        if outside:
            report.add("E010", f"dice table '{table.id}': {_runs(outside)} cannot be rolled on {table.dice}",
                       where, f"{table.dice} rolls {low}–{high}")
        for n in range(span.low, top + 1):
            covered.setdefault(n, i)
    gaps = [n for n in range(low, high + 1) if n not in covered]
    if gaps:
        report.add("E010", f"dice table '{table.id}' ({table.dice}) has no row for {_runs(gaps)}",
                   origin.location("rows"), "add rows so every result of the roll is covered exactly once")
