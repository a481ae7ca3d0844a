"""Units against units in a probability table's calculator: the procedures say how a unit acting
(attacker) or on the receiving end (target) reads into the table (`@table(attacker=..,
target=..)`, written as "units" in the table's JSON); here each reading becomes a named choice
in the page's language that sets the calculator's inputs and outcome. Everything is resolved at
build time: the script only copies the chosen values into the inputs and looks the cell up."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Choice:
    unit: str           # unit id, for presets from a unit's page (?attacker=ID)
    label: str          # the unit's name, with the weapon or the value that tells readings apart
    inputs: dict        # input column id -> the value as the calculator's list shows it
    outcome: int        # index of the outcome column, -1 when this side does not choose it
    times: int | None = None  # dice the unit rolls, where a cell is an expectation per die


def _exact_to_shown(table: dict, rows: list[dict]) -> dict[str, dict[str, str]]:
    """Per column: exact value ("4+") -> the value as the page shows it (rows in its language)."""
    out: dict[str, dict[str, str]] = {}
    for exact_row, row in zip(table.get("exact") or [], rows):
        for column, value in exact_row.items():
            out.setdefault(column, {})[str(value)] = str(row.get(column, ""))
    return out


def unit_choices(ctx, table: dict, rows: list[dict], inputs: list[dict], chances: list[dict]) -> dict[str, list[Choice]]:
    """{"attacker": [...], "target": [...]}: only readings whose values are rows of the table;
    empty when the table declares no unit readings or the game has no units."""
    declared = table.get("units") or {}
    if not declared or not ctx.game.units:
        return {}
    shown = _exact_to_shown(table, rows)
    input_ids = [c["id"] for c in inputs]
    outcome_ids = [c["id"] for c in chances]
    names = {c["id"]: c["name"] for c in inputs}
    out: dict[str, list[Choice]] = {}
    for side in ("attacker", "target"):
        choices = []
        for unit_id, readings in (declared.get(side) or {}).items():
            unit = ctx.game.units.get(unit_id)
            if unit is None:
                continue
            usable = [r for r in readings if _usable(r, input_ids, outcome_ids, shown)]
            choices += [_choice(ctx, unit, unit_id, r, len(usable) > 1, names, shown, outcome_ids) for r in usable]
        if choices:
            out[side] = choices
    return out if out.get("attacker") or out.get("target") else {}


def _usable(reading: dict, input_ids: list[str], outcome_ids: list[str], shown: dict) -> bool:
    """Whether the table has a row for each of the reading's values and its outcome column."""
    values = reading.get("inputs") or {}
    if any(k not in input_ids or str(v) not in shown.get(k, {}) for k, v in values.items()):
        return False  # a value the table has no row for
    column = reading.get("column")
    return column is None or column in outcome_ids


def _choice(ctx, unit, unit_id: str, reading: dict, several: bool, names: dict, shown: dict,
            outcome_ids: list[str]) -> Choice:
    """One unit's reading as the calculator offers it, labelled by its weapon or, where the
    unit has `several` readings without one, by the values that differ."""
    label = ctx.tr.field(unit, "name")
    weapon = reading.get("with")
    if weapon and weapon in ctx.game.weapons:
        label += " — " + ctx.tr.field(ctx.game.weapons[weapon], "name")
    elif several:  # two readings without a weapon: name the values that differ
        label += " — " + ", ".join(f"{_name(names[k], ctx.lang)} {shown[k][str(v)]}"
                                   for k, v in (reading.get("inputs") or {}).items())
    column = reading.get("column")
    times = reading.get("times")
    return Choice(unit_id, label, {k: shown[k][str(v)] for k, v in (reading.get("inputs") or {}).items()},
                  outcome_ids.index(column) if column is not None else -1,
                  times if isinstance(times, int) and times > 0 else None)


def _name(value, lang: str) -> str:
    if isinstance(value, dict):
        return str(value.get(lang) or next(iter(value.values()), ""))
    return str(value)


def readings_of(table: dict, unit_id: str) -> list[str]:
    """The sides ("attacker", "target") a unit can take in a table's calculator."""
    declared = table.get("units") or {}
    return [side for side in ("attacker", "target") if unit_id in (declared.get(side) or {})]


def totals(choice: Choice, cells: dict, input_ids: list[str], lang: str) -> dict[str, list[str]]:
    """For an attacker that rolls `times` dice: each cell its inputs and outcome pick, times
    `times` (an expectation adds up die by die), as shown ("2,5") and exact ("5/2")."""
    from fractions import Fraction

    from ..checker.calc import format_number

    if not choice.times or choice.outcome < 0:
        return {}
    out = {}
    for key, row in cells.items():
        values = key.split("|")
        if any(values[input_ids.index(k)] != v for k, v in choice.inputs.items()):
            continue
        exact = row[choice.outcome][1]
        if not exact:
            continue
        total = Fraction(exact) * choice.times
        out[key] = [format_number(total, "decimal", lang, 2), format_number(total, "fraction", lang)]
    return out
