"""Typed values everywhere: a parameter or stat in a unit of measure is a number, a range or
`unstated` (a word is E012 at its line, with the hint to write `unstated` or record an
erratum), a unit of measure belongs to a distance stat only, and every count of the content
model is at least its minimum (a shipped game declares its model count's)."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.core.diagnostics import Report
from generator.model import RECORD_TYPES, GameManifest
from generator.project import Project

from .conftest import REPO, Workspace, line_of

PARAMETER = "    value: 10\n    unit: points\n"


def _found(report: Report, code: str) -> list:
    return [d for d in report.diagnostics if d.code == code]


def _parameter(ws, value: str, unit: str = "cm") -> Path:
    return ws.edit("game.yaml", PARAMETER, f"{PARAMETER}  - id: reach\n    name: Reach\n    value: {value}\n"
                   f"    unit: {unit}\n")


def test_a_word_for_a_parameter_in_a_unit_of_measure_is_an_error_at_its_value(ws):
    manifest = _parameter(ws, "много")
    found = _found(ws.validate(), "E012")
    assert [(d.location.path, d.location.line) for d in found] == [(manifest, line_of(manifest, "value: много"))]
    assert found[0].message == ("parameter 'reach' in cm: 'много' is not a number or a range "
                                "(write e.g. 40, 2–7 or unstated)")
    assert "unstated" in found[0].hint and "erratum" in found[0].hint


def test_a_parameter_in_another_unit_than_its_own_is_an_error(ws):
    _parameter(ws, "12 in")
    assert [d.message for d in _found(ws.validate(), "E012")] == ["parameter 'reach' in cm: '12 in' is in inch, not in cm"]


def test_a_number_a_range_or_unstated_in_a_unit_of_measure_passes_and_prints_with_its_unit(tmp_path):
    from generator.text.blocks import parameter_value

    printed = {}
    for i, value in enumerate(("40", "'40'", "40 cm", "2–7", "8+", "unstated", "{unstated: the text gives none}", "–")):
        ws = Workspace(tmp_path / str(i))
        _parameter(ws, value)
        report = Report()
        game = Project(ws.root).load("demo", report)
        assert not report.errors, (value, [d.message for d in report.errors])
        printed[value] = parameter_value(game.manifest.parameters[1], "de", game)
    assert printed["40"] == printed["'40'"] == printed["40 cm"] == "40\u00a0cm"  # a number written as text too
    assert (printed["2–7"], printed["–"], printed["unstated"]) == ("2–7", "–", "?‡")


def test_a_parameter_written_with_its_unit_keeps_to_its_minimum(ws):
    manifest = ws.edit("game.yaml", PARAMETER, f"{PARAMETER}  - id: reach\n    name: Reach\n    value: '-5'\n"
                       "    unit: cm\n    min: 0\n")
    found = _found(ws.validate(), "E071")
    assert [d.location.line for d in found] == [line_of(manifest, "value: '-5'")]


def test_a_word_is_fine_where_the_unit_is_no_unit_of_measure(ws):
    _parameter(ws, "many", unit="points")  # points: what the value counts, not a unit of measure
    assert not _found(ws.validate(), "E012")


def test_a_word_for_a_distance_stat_says_to_write_unstated_or_an_erratum(ws):
    units = ws.edit("data/units.yaml", "move: 15 cm", "move: много")
    found = _found(ws.validate(), "E012")
    assert [d.location.line for d in found] == [line_of(units, "move: много")]
    assert "write unstated" in found[0].hint and "erratum" in found[0].hint and "stats.move" in found[0].hint


def test_a_unit_of_measure_on_a_stat_that_is_not_a_distance_is_refused(ws):
    manifest = ws.edit("game.yaml", "    name: Cost\n    type: number\n", "    name: Cost\n    type: number\n    unit: cm\n")
    found = _found(ws.validate(), "E004")
    assert len(found) == 1 and found[0].location.path == manifest
    assert found[0].location.line == line_of(manifest, "id: cost") + 3  # its unit: line
    assert "a unit of measure belongs to a distance stat, not a number stat" in found[0].message
    ws.edit("game.yaml", "    type: number\n    unit: cm\n", "    type: text\n    unit: cm\n")
    assert any("not a text stat" in d.message for d in _found(ws.validate(), "E004"))


def test_a_count_below_its_minimum_is_an_error_at_its_line(ws):
    cases = [("data/units.yaml", "count: 5", "count: -10"),  # models carrying a weapon
             ("data/units.yaml", "count: 5", "count: 0"),
             ("data/bands.yaml", "min: 0", "min: -1")]         # a band's bound
    for rel, old, new in cases:
        path = ws.edit(rel, old, new)
        found = _found(ws.validate(), "E004")
        assert [d.location.line for d in found] == [line_of(path, new)], (new, [d.message for d in found])
        assert "greater than or equal to" in found[0].message and "or more" in found[0].hint
        ws.edit(rel, new, old)
    rosters = ws.edit("data/rosters.yaml", "    sizes:\n", "    limits:\n      - {unit: scouts, max: -2, source: At most.}\n"
                      "    sizes:\n")
    found = _found(ws.validate(), "E004")
    assert [d.location.line for d in found] == [line_of(rosters, "max: -2")]


def _integer_fields(schema: dict, defs: dict, where: str, out: dict, seen: set) -> None:
    """Each integer a schema takes, by the model and field it sits in -> its minimum (None: none)."""
    if isinstance(schema, list):
        for item in schema:
            _integer_fields(item, defs, where, out, seen)
        return
    if not isinstance(schema, dict):
        return
    ref = schema.get("$ref", "").rpartition("/")[2]
    if ref and ref not in seen:
        seen.add(ref)
        _integer_fields(defs[ref], defs, ref, out, seen)
    if schema.get("type") == "integer":
        out.setdefault(where, schema.get("minimum", schema.get("exclusiveMinimum")))
    for key, value in schema.items():
        if key == "properties":
            for name, field in value.items():
                _integer_fields(field, defs, f"{where}.{name}", out, seen)
        elif key != "$defs":
            _integer_fields(value, defs, where, out, seen)


# Whole numbers of the content model that may be below zero: what a value is, not how many.
SIGNED = {
    "Face.value",        # the number on a die's face (a Fudge die: -1)
    "Option.cost",       # what an option adds to a list's total (a negative cost: the roster check warns)
    "GameSize.limit",    # a list's cost limit (costs: the roster check)
    "Parameter.value",   # a parameter's min:/max: bound it (checks/ranges.py)
    "Table.rows", "Action.params", "Rule.params",             # cells and parameters of any kind
    "Counter.strength", "Counter.movement", "Counter.value",  # as the counter prints them
    "CounterFace.strength", "CounterFace.movement", "CounterFace.value",
}


def test_every_count_of_the_content_model_has_a_minimum():
    """A count a record gives (models, copies, sides, rows, limits...) is bound below in the model,
    so a negative one is an error at its line; stats are bound by game.yaml's min: instead."""
    unbound = []
    for model in (*RECORD_TYPES, GameManifest):
        schema = model.model_json_schema()
        found: dict = {}
        _integer_fields(schema, schema.get("$defs", {}), model.__name__, found, set())
        unbound += [where for where, minimum in found.items()
                    if minimum is None and where not in SIGNED and ".stats" not in where]
    assert unbound == []


def test_a_shipped_units_model_count_below_one_is_an_error_at_its_line(tmp_path):
    shutil.copytree(REPO / "content/nuclear", tmp_path / "content/nuclear")
    nuclear = tmp_path / "content/nuclear/data/units.yaml"
    nuclear.write_text(nuclear.read_text(encoding="utf-8").replace("stats: {models: 10, quality: 6+",
                                                                   "stats: {models: -10, quality: 6+", 1),
                       encoding="utf-8")
    report = Report()
    Project(tmp_path).load("nuclear", report)
    found = _found(report, "E071")
    assert [(d.location.path, d.location.line) for d in found] == [(nuclear, line_of(nuclear, "models: -10"))]
    assert "'models' takes values of 1 or more" in found[0].hint
    manifest = (REPO / "content/battle-rules/game.yaml").read_text(encoding="utf-8")
    assert "  - id: models\n    name: Численность\n    abbr: шт.\n    type: number\n    required: true\n    min: 1\n" in manifest
