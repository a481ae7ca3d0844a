"""Ranges for numbers: a stat or parameter declares min/max; a value outside is E071 where it is
written, with the declaration's line in the hint."""

from __future__ import annotations

from .conftest import line_of


def _errors(report, code):
    return [d for d in report.diagnostics if d.code == code]


def test_a_negative_count_is_an_error_naming_the_declaration(ws):
    ws.edit("game.yaml", "    name: Cost\n    type: number\n", "    name: Cost\n    type: number\n    min: 0\n")
    units = ws.edit("data/units.yaml", "cost: 50", "cost: -10")
    found = _errors(ws.validate(), "E071")
    assert len(found) == 1
    assert (found[0].location.path, found[0].location.line) == (units, line_of(units, "cost: -10"))
    assert "-10, below its minimum 0" in found[0].message
    declared = line_of(ws.game / "game.yaml", "id: cost")
    assert f"game.yaml:{declared}" in found[0].hint and "of 0 or more" in found[0].hint


def test_a_value_in_range_passes_and_a_parameter_above_its_maximum_errs(ws):
    ws.edit("game.yaml", "    name: Cost\n    type: number\n", "    name: Cost\n    type: number\n    min: 0\n")
    assert not _errors(ws.validate(), "E071")
    ws.edit("game.yaml", "    value: 10\n", "    value: 10\n    max: 8\n")
    found = _errors(ws.validate(), "E071")
    assert [d.location.line for d in found] == [line_of(ws.game / "game.yaml", "value: 10")]
    assert "above its maximum 8" in found[0].message and "of 8 or less" in found[0].hint


def test_a_range_upside_down_or_on_a_target_is_refused(ws):
    ws.edit("game.yaml", "    name: Cost\n    type: number\n", "    name: Cost\n    type: number\n    min: 5\n    max: 2\n")
    report = ws.validate()
    assert any("min 5 is above max 2" in d.message for d in _errors(report, "E004"))
    ws.edit("game.yaml", "    min: 5\n    max: 2\n", "")
    ws.edit("game.yaml", "    type: target\n", "    type: target\n    min: 2\n")
    assert any("not a target stat" in d.message for d in _errors(ws.validate(), "E004"))
