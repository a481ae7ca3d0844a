"""The unstated value: "the source does not give this" for any field or stat. It validates
where a value is required, prints as a marked blank with a note, exports in JSON, and a
procedure that computes with it fails naming the record and field."""

from __future__ import annotations

import json

import polib

from click.testing import CliRunner

from generator.cli import cli
from generator.core.diagnostics import Report
from generator.i18n.messages import data_messages
from generator.i18n.translate import Translator
from generator.project import Project
from generator.text.blocks import records_html, roster_html, table_html
from generator.text.refs import Ref, resolve
from generator.values import Unstated, UnstatedError, format_value

from .conftest import Workspace, line_of


def load(ws: Workspace):
    report = Report()
    game = Project(ws.root).load("demo", report)
    return game, report


def test_a_required_stat_may_be_unstated(ws: Workspace):
    ws.edit("data/units.yaml", "quality: 4+", 'quality: {unstated: "the card is not shown"}')
    game, report = load(ws)
    assert not report.diagnostics, [d.message for d in report.diagnostics]
    value = game.values[("units", "scouts", "quality")]
    assert value == Unstated(reason="the card is not shown")


def test_removing_the_stat_instead_is_still_an_error(ws: Workspace):
    ws.edit("data/units.yaml", "quality: 4+, ", "")
    _, report = load(ws)
    [missing] = [d for d in report.diagnostics if d.code == "E005"]
    assert "quality: unstated" in missing.hint


def test_any_typed_field_takes_unstated(ws: Workspace):
    ws.edit("data/decks.yaml", "size: poker", "size: unstated")
    ws.edit("data/decks.yaml", "back: spades-diamonds", "back: {unstated: no back is shown}")
    ws.edit("data/dice.yaml", "sides: 6", "sides: {unstated: the text never says}")
    ws.edit("data/cards.yaml", "quantity: 3", "quantity: unstated\n    icons: unstated")
    ws.edit("data/units.yaml", "count: 5", "count: unstated")
    ws.edit("data/tables.yaml", "result: Clear skies.", "result: unstated")
    ws.edit("game.yaml", "value: 10", "value: {unstated: the draft leaves it open}")
    ws.edit("game.yaml", "count: 10", "count: unstated")
    game, report = load(ws)
    assert not report.diagnostics, [d.message for d in report.diagnostics]
    assert game.decks["orders"].print_size == "poker" and game.decks["orders"].print_back == "plain"
    assert isinstance(game.dice["command"].sides, Unstated)
    assert isinstance(game.tables["weather"].rows[1]["result"], Unstated)
    assert game.parameter_as_written("victory-points").reason == "the draft leaves it open"


def test_a_wrong_value_is_still_wrong_and_the_hint_names_unstated(ws: Workspace):
    path = ws.edit("data/dice.yaml", "sides: 6", "sides: six")
    _, report = load(ws)
    [error] = report.diagnostics
    assert (error.code, error.location.line) == ("E004", line_of(path, "sides: six"))
    assert "unstated" in error.hint


def test_export_keeps_unstated_values(ws: Workspace):
    ws.edit("data/dice.yaml", "sides: 6", "sides: {unstated: the text never says}")
    ws.edit("data/units.yaml", "quality: 4+", "quality: unstated")
    game, _ = load(ws)
    data = json.loads(json.dumps(game.export()))
    records = {(r["kind"], r["id"]): r for r in data["records"]}
    assert records[("die", "command")]["sides"] == {"unstated": "the text never says"}
    assert records[("unit", "scouts")]["stats"]["quality"] == {"unstated": True}
    assert records[("unit", "scouts")]["parsed_stats"]["quality"] == {"unstated": True}


def test_prints_as_a_marked_blank_with_a_note(ws: Workspace):
    ws.edit("data/units.yaml", "quality: 4+", 'quality: {unstated: "the card is not shown"}')
    ws.edit("data/tables.yaml", "result: Clear skies.", "result: unstated")
    ws.edit("data/dice.yaml", "sides: 6", "sides: {unstated: the text never says}")
    ws.edit("game.yaml", "value: 10", "value: unstated")
    game, _ = load(ws)
    tr = Translator.load(game, "en")
    assert format_value(Unstated()) == "?‡"
    ws.edit("data/units.yaml", "count: 5", "count: unstated")
    assert "?‡× Rifle" in roster_html(load(ws)[0], tr, lambda r: None)
    roster = roster_html(game, tr, lambda r: None)
    assert "<td>?‡</td>" in roster and "5× Rifle" in roster
    assert "‡ Quality: not stated in the source. the card is not shown." in roster
    table = table_html(game.tables["weather"], tr)
    assert "<td>?‡</td>" in table and "‡ Result, 2: not stated in the source." in table
    dice = records_html(game, "dice", tr, lambda r: None)
    assert "Faces: ?‡" in dice and "‡ Faces: not stated in the source. the text never says." in dice
    assert resolve(game, Ref.parse("param:victory-points")).text("en") == "? (not stated in the source)"
    assert resolve(game, Ref.parse("param:victory-points")).text("ru") == "? (в источнике не указано)"


def test_the_reason_is_translated(ws: Workspace):
    ws.edit("data/dice.yaml", "sides: 6", "sides: {unstated: the text never says}")
    ws.edit("data/units.yaml", "quality: 4+", 'quality: {unstated: "the card is not shown"}')
    game, _ = load(ws)
    texts = {m.msgid for m in data_messages(game)}
    assert {"the text never says", "the card is not shown"} <= texts
    ws.edit("game.yaml", "languages: []", "languages: [ru]")
    assert ws.run("i18n", "update", "ru", "demo").returncode == 0
    po = polib.pofile(str(ws.game / "locale" / "ru.po"))
    for entry in po:
        if entry.msgid == "the text never says":
            entry.msgstr = "текст не говорит"
    po.save()
    game, _ = load(ws)
    tr = Translator.load(game, "ru")
    assert tr.field(game.dice["command"], "sides", "reason") == "текст не говорит"
    assert "‡ Граней: в источнике не указано. текст не говорит." in records_html(game, "dice", tr, lambda r: None)


PROCEDURES = '''\
"""Demo procedures."""
from generator.checker import consistency, procedure


@procedure("command-roll")
def command_roll(game, dice) -> dict:
    """One command die."""
    return {"face": dice.d(game.dice["command"].sides)}


@procedure("shoot")
def shoot(game, dice, unit) -> dict:
    """Hits on the unit's quality."""
    return {"hits": dice.successes(1, game.stat(game.units[unit], "quality"))}


@consistency("victory-is-positive")
def victory_is_positive(game):
    if game.parameter("victory-points") <= 0:
        yield "victory-points must be positive"
'''

CHAPTER = '''\
# Command

::: example command
A command roll of 3.

```check
procedure: command-roll
dice: [3]
expect: {face: 3}
```
:::

::: example shoot
Scouts hit on a 5.

```check
procedure: shoot
inputs: {unit: scouts}
dice: [5]
expect: {hits: 1}
```
:::
'''


def _check(ws: Workspace):
    ws.write("procedures.py", PROCEDURES)
    ws.write("rules/01-command.md", CHAPTER)
    return CliRunner().invoke(cli, ["--root", str(ws.root), "check"])


def test_checks_pass_while_the_values_are_stated(ws: Workspace):
    result = _check(ws)
    assert result.exit_code == 0, result.output


def test_a_procedure_that_needs_an_unstated_value_fails_naming_record_and_field(ws: Workspace):
    ws.edit("data/dice.yaml", "sides: 6", "sides: {unstated: the text never says}")
    ws.edit("data/units.yaml", "quality: 4+", "quality: unstated")
    ws.edit("game.yaml", "value: 10", "value: unstated")
    result = _check(ws)
    assert result.exit_code == 1
    assert "command-roll: die 'command' field 'sides' is not stated in the source (the text never says)" \
        in result.output
    assert "shoot: unit 'scouts' stat 'quality' is not stated in the source" in result.output
    assert "parameter 'victory-points' is not stated in the source" in result.output
    assert "Traceback" not in result.output and "raised" not in result.output


def test_computing_with_an_unstated_value_raises_not_guesses():
    value = Unstated(reason="why").placed("die 'red' field 'sides'")
    for compute in (lambda: value + 1, lambda: value >= 4, lambda: range(value), lambda: int(value)):
        try:
            compute()
        except UnstatedError as exc:
            assert "die 'red' field 'sides'" in str(exc) and "(why)" in str(exc)
        else:
            raise AssertionError("an unstated value computed")


def test_a_parameter_cites_errata_like_a_record(ws: Workspace):
    ws.edit("game.yaml", "    unit: points\n", "    unit: points\n    errata: [quick-for-fst]\n")
    _, report = load(ws)
    [error] = [d for d in report.diagnostics if d.code == "E007"]
    assert "parameter 'victory-points' cites unknown erratum 'quick-for-fst'" in error.message
    assert "quick-for-fast" in error.hint
    ws.edit("game.yaml", "quick-for-fst", "quick-for-fast")
    _, report = load(ws)
    assert not report.diagnostics


def test_a_probability_table_whose_columns_follow_the_data(ws: Workspace, tmp_path):
    ws.write("procedures.py", '''\
from generator.checker import table


def _columns(game):
    return {f"face-{n}": f"Face {n}" for n in range(1, game.parameter("victory-points") + 1)}


@table("faces", columns=_columns)
def faces(game):
    return [{f"face-{n}": n for n in range(1, game.parameter("victory-points") + 1)}]
''')
    result = CliRunner().invoke(cli, ["--root", str(ws.root), "check", "--tables"])
    assert result.exit_code == 0, result.output
    data = json.loads((ws.root / "output" / "demo" / "tables" / "faces.json").read_text(encoding="utf-8"))
    assert [c["name"] for c in data["columns"]][-1] == "Face 10"
    ws.edit("game.yaml", "value: 10", "value: unstated")
    result = CliRunner().invoke(cli, ["--root", str(ws.root), "check", "--tables"])
    assert "parameter 'victory-points' is not stated in the source" in result.output


def test_editors_schema_accepts_the_yaml_forms():
    import jsonschema

    from generator.model.schema import schemas

    schema = schemas()["dice.schema.json"]
    for sides in (6, "unstated", {"unstated": "the text never says"}):
        jsonschema.validate({"dice": [{"id": "red", "name": "Red", "sides": sides}]}, schema)
    try:
        jsonschema.validate({"dice": [{"id": "red", "name": "Red", "sides": "six"}]}, schema)
    except jsonschema.ValidationError:
        pass
    else:
        raise AssertionError("the schema accepts 'six' faces")
