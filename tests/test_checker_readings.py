"""Readings: a procedure names the errata it relies on (`errata=[...]`); validation fails when a
cited erratum does not exist (E036) or a `reading` erratum is cited by no procedure (E037).
Every shipped reading is cited, and every shipped citation resolves."""

from __future__ import annotations

import pytest

from generator.checker import load_procedures
from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import REPO, Workspace, line_of

GAMES = ("battle-rules", "deadzone", "frames", "nuclear", "rock-n-roll")

PROCEDURES = '''\
"""Demo procedures."""
from generator.checker import procedure, table


@procedure("shoot", errata=["scouts-in-cover"])
def shoot(game, dice, shots: int = 1) -> dict:
    return {"hits": dice.successes(shots, 4)}


@table("hits", title="Hits on a six-sided die", errata=("scouts-in-cover",))
def hits(game):
    return []
'''

READING = '''
  - id: scouts-in-cover
    summary: The text does not say whether cover changes the roll.
    category: reading
    source: (silent)
    reading: Cover does not change the roll.
'''


def codes(report: Report, code: str) -> list:
    return [d for d in report.diagnostics if d.code == code]


@pytest.fixture
def cited(ws: Workspace) -> Workspace:
    ws.write("procedures.py", PROCEDURES)
    path = ws.game / "data" / "errata.yaml"
    path.write_text(path.read_text(encoding="utf-8") + READING, encoding="utf-8")
    md = ws.game / "ERRATA.md"
    md.write_text(md.read_text(encoding="utf-8") + "- `scouts-in-cover`: cover does not change the roll.\n",
                  encoding="utf-8")
    return ws


def test_a_cited_reading_is_clean(cited: Workspace):
    assert cited.validate().diagnostics == []
    found = load_procedures(cited.game)
    assert found.get("shoot").errata == ("scouts-in-cover",)
    assert found.tables["hits"].errata == ("scouts-in-cover",)


def test_e035_procedure_cites_a_missing_erratum(cited: Workspace):
    path = cited.edit("procedures.py", 'errata=["scouts-in-cover"]', 'errata=["scouts-in-covr"]')
    d = codes(cited.validate(), "E036")[0]
    assert d.location.path.resolve() == path.resolve() and d.location.line == line_of(path, "scouts-in-covr")
    assert "scouts-in-covr" in d.message and "scouts-in-cover" in d.hint


def test_e036_reading_cited_by_nothing(cited: Workspace):
    cited.edit("procedures.py", '@procedure("shoot", errata=["scouts-in-cover"])', '@procedure("shoot")')
    cited.edit("procedures.py", 'errata=("scouts-in-cover",)', "")
    report = cited.validate()
    d = codes(report, "E037")[0]
    assert report.failed() and d.location.path.name == "errata.yaml"
    assert d.location.line == line_of(d.location.path, "id: scouts-in-cover")
    assert not codes(report, "W001")  # a reading is E037's business, not W001's


def test_a_string_names_one_erratum(cited: Workspace):
    cited.edit("procedures.py", 'errata=["scouts-in-cover"]', 'errata="scouts-in-cover"')
    assert load_procedures(cited.game).get("shoot").errata == ("scouts-in-cover",)


@pytest.mark.parametrize("name", GAMES)
def test_shipped_readings_are_cited(name):
    report = Report()
    game = Project(REPO).load(name, report, catalogs=False)
    assert not codes(report, "E036") and not codes(report, "E037"), [d.format_text() for d in report.diagnostics]
    cited = {c[0] for c in load_procedures(game.folder).citations()}
    readings = {e.id for e in game.errata.values() if e.category == "reading"}
    assert readings and readings <= cited
