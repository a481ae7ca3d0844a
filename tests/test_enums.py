"""Enumerations declared in game.yaml: fields and text stats outside their set are E050 with
"did you mean", on the value's own line."""

from __future__ import annotations

from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import Workspace, line_of

ENUMS = """\
enums:
  side:
    - {id: soviet, name: Soviet Union, colour: "#b22222"}
    - {id: germany, name: Germany, colour: "#4d4d4d"}
  unit-type: [infantry, vehicle]
  damage-kind: [R, M]
"""


def load(ws: Workspace) -> Report:
    report = Report()
    Project(ws.root).load("demo", report)
    return report


def test_values_in_their_sets_validate(ws: Workspace):
    ws.edit("game.yaml", "stats:\n", ENUMS + "stats:\n")
    ws.edit("data/units.yaml", "    type: infantry\n", "    type: infantry\n    side: soviet\n")
    assert not load(ws).diagnostics


def test_a_typo_in_a_side_is_an_error_with_did_you_mean(ws: Workspace):
    ws.edit("game.yaml", "stats:\n", ENUMS + "stats:\n")
    path = ws.edit("data/units.yaml", "    type: infantry\n", "    type: infantyr\n    side: sovet\n")
    report = load(ws)
    errors = {d.message: d for d in report.diagnostics}
    side = errors["unit 'scouts' side: 'sovet' is not one of the 'side' values"]
    assert (side.code, side.location.line) == ("E050", line_of(path, "side: sovet"))
    assert "soviet" in side.hint
    kind = errors["unit 'scouts' type: 'infantyr' is not one of the 'unit-type' values"]
    assert kind.location.line == line_of(path, "type: infantyr") and "infantry" in kind.hint


def test_kind_prefixed_enum_checks_only_that_kind(ws: Workspace):
    ws.edit("game.yaml", "stats:\n", "enums:\n  unit-type: [infantry]\nstats:\n")
    ws.edit("data/cards.yaml", "    card_kind: order\n    deck: orders\n    quantity: 3\n",
            "    card_kind: order\n    deck: orders\n    quantity: 3\n")
    assert not load(ws).diagnostics  # cards and decks have no 'type' field checked by unit-type


def test_a_text_stat_takes_values_from_its_enum(ws: Workspace):
    ws.edit("game.yaml", "stats:\n", ENUMS + "stats:\n  - {id: kind, name: Kind, type: text, applies_to: [weapon], max_values: 2, enum: damage-kind}\n")
    path = ws.edit("data/weapons.yaml", "attacks: 1}", "attacks: 1, kind: [R, X]}")
    report = load(ws)
    [error] = report.diagnostics
    assert error.code == "E050" and "stat 'kind': 'X'" in error.message
    assert error.location.line == line_of(path, "kind: [R, X]")


def test_unknown_enum_on_a_stat_and_duplicates(ws: Workspace):
    ws.edit("game.yaml", "stats:\n", "enums:\n  side: [a, a]\nstats:\n  - {id: kind, name: Kind, type: text, enum: sides}\n")
    report = load(ws)
    messages = [d.message for d in report.diagnostics]
    assert "stat 'kind' names unknown enumeration 'sides'" in messages
    assert "enumeration 'side' lists 'a' twice" in messages
    assert any("side" in d.hint for d in report.diagnostics if d.code == "E007")


def test_unstated_is_allowed_where_an_enum_applies(ws: Workspace):
    ws.edit("game.yaml", "stats:\n", ENUMS + "stats:\n")
    ws.edit("data/units.yaml", "    type: infantry\n", "    type: infantry\n")
    ws.edit("data/decks.yaml", "    size: poker\n", "    size: poker\n    side: unstated\n")
    assert not load(ws).diagnostics


def test_terrain_carries_typed_stats(ws: Workspace):
    from generator.i18n.translate import Translator
    from generator.text.blocks import records_html

    ws.edit("game.yaml", "stats:\n", "stats:\n  - {id: move-cost, name: Move cost, type: number, applies_to: [terrain], required: true}\n")
    path = ws.edit("data/terrain.yaml", "    name: Woods\n", "    name: Woods\n    stats: {move-cost: two}\n")
    report = load(ws)
    [error] = report.diagnostics
    assert error.code == "E012" and "terrain 'woods'" in error.message and error.location.line == line_of(path, "move-cost")
    ws.edit("data/terrain.yaml", "move-cost: two", "move-cost: 2")
    report = Report()
    game = Project(ws.root).load("demo", report)
    assert not report.diagnostics
    assert "Move cost: 2" in records_html(game, "terrain", Translator.load(game, "en"), lambda r: None)
    ws.edit("data/terrain.yaml", "    stats: {move-cost: 2}\n", "")
    assert [d.code for d in load(ws).diagnostics] == ["E005"]
