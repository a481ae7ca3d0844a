"""One mistake, one diagnostic: a record that fails validation is not reported again as
'unknown' wherever it is referenced; a procedures.py that cannot be loaded is one E034, not
an E031 for every check block."""

from __future__ import annotations

from click.testing import CliRunner

from generator.cli import cli
from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import Workspace, line_of


def load(ws: Workspace) -> Report:
    report = Report()
    Project(ws.root).load("demo", report)
    return report


CHAPTER = """\
# Scouts

{{ unit:scouts }} move {{ unit:scouts.move }}.

::: example scouts-shoot
Scouts shoot.

```check
procedure: shoot
inputs: {unit: scouts}
dice: [5]
expect: {hits: 1}
```

```check
procedure: shoot
inputs: {unit: scouts}
dice: [1]
expect: {hits: 0}
```
:::
"""

PROCEDURES = '''\
from generator.checker import procedure
from generator.model import Unit


@procedure("shoot")
def shoot(game, dice, unit: Unit) -> dict:
    return {"hits": dice.successes(1, game.stat(unit, "quality"))}
'''


def test_a_record_that_fails_validation_is_reported_once(ws: Workspace):
    ws.write("rules/01-scouts.md", CHAPTER)
    ws.write("procedures.py", PROCEDURES)
    ws.write("data/cards.yaml", "cards:\n  - {id: scout-card, name: Scouts, card_kind: unit, deck: orders, unit: scouts}\n")
    path = ws.edit("data/units.yaml", "count: 5", "count: five")
    report = load(ws)
    assert [(d.code, d.location.line) for d in report.diagnostics] == [("E004", line_of(path, "count: five"))]


def test_an_unknown_record_is_still_reported(ws: Workspace):
    ws.write("rules/01-scouts.md", CHAPTER.replace("{{ unit:scouts }}", "{{ unit:scuots }}"))
    ws.write("procedures.py", PROCEDURES)
    report = load(ws)
    [error] = report.diagnostics
    assert error.code == "E007" and "scouts" in error.hint


def test_a_broken_procedures_module_is_one_e034(ws: Workspace):
    ws.write("rules/01-scouts.md", CHAPTER)
    path = ws.write("procedures.py", PROCEDURES.replace("def shoot(game, dice, unit: Unit) -> dict:",
                                                        "def shoot(game, dice, unit: Unit) -> dict"))
    report = load(ws)
    assert [d.code for d in report.diagnostics] == ["E034"]
    assert report.diagnostics[0].location.path == path
    result = CliRunner().invoke(cli, ["--root", str(ws.root), "check"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "E034" in result.output
