"""Units in a probability table's calculator, end to end on a small game: the procedures say how a
unit reads into the table (`@table(attacker=.., target=..)`), `check --tables` writes the
readings, the site offers the units by name; a reading the table cannot hold is an error that
names the unit, never a choice that silently goes nowhere."""

from __future__ import annotations

import json
import re

import pytest

from generator.checker.tables import TableError, write_tables
from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import Workspace

PROCEDURES = '''\
from generator.checker import exact, procedure, table
from generator.values import Target


@procedure("shoot")
def shoot(game, dice, quality: Target, cover: Target) -> dict:
    return {"through": dice.success(quality.number) and not dice.success(cover.number)}


def shooter(game, unit):
    return [{"with": game.weapons[w.weapon], "inputs": {"quality": game.stat(unit, "quality")},
             "times": w.count} for w in unit.weapons]


def target(game, unit):
    return [{"column": "cover-5"}]


@table("odds", columns={"quality": "Quality", **{f"cover-{c}": f"Cover {c}+" for c in (4, 5, 6)}},
       attacker=shooter, target=target, assumes="one shot against one cover roll")
def odds(game):
    return [{"quality": Target(q), **{f"cover-{c}": exact(shoot, game, {"quality": Target(q), "cover": Target(c)})
             .probability("through") for c in (4, 5, 6)}} for q in (QUALITIES)]


QUALITIES = (3, 4, 5)
'''


def _tables(ws: Workspace):
    project = Project(ws.root)
    game = project.load("demo", Report(), checks=False)
    return project, write_tables(game, project.output)


def test_readings_reach_the_table_and_the_calculator(ws: Workspace):
    from generator import outputs
    from generator.site.build import build_site

    ws.write("procedures.py", PROCEDURES)
    project, written = _tables(ws)
    data = json.loads(next(p for p in written if p.suffix == ".json").read_text(encoding="utf-8"))
    assert data["assumes"] == "one shot against one cover roll"
    assert data["units"]["attacker"]["scouts"] == [{"with": "rifle", "inputs": {"quality": "4+"}, "column": None,
                                                    "times": 5}]
    assert data["units"]["target"]["scouts"] == [{"with": None, "inputs": {}, "column": "cover-5"}]
    try:
        site = build_site(project, ["demo"], Report(), search=False).root
    finally:
        outputs.confine_to(None)
    page = (site / "demo/en/tables.html").read_text(encoding="utf-8")
    assert '<option value="0" data-unit="scouts">Scouts — Rifle</option>' in page
    assert "<strong>Assumed:</strong> one shot against one cover roll" in page
    calc = json.loads(re.search(r'<script type="application/json">(.*?)</script>', page).group(1))
    assert calc["attacker"][0]["inputs"] == {"quality": "4+"} and calc["target"][0]["outcome"] == 1
    unit = (site / "demo/en/units/scouts.html").read_text(encoding="utf-8")
    assert 'href="../tables.html?attacker=scouts#prob-odds"' in unit


@pytest.mark.parametrize("change, message", [
    ('QUALITIES = (3, 4, 5)', "no row"),           # the scouts' 4+ is not a row
    ('[{"column": "cover-5"}]', "does not have"),  # a column the table lacks
])
def test_reading_the_table_cannot_hold_is_an_error(ws: Workspace, change, message):
    broken = {"no row": PROCEDURES.replace(change, "QUALITIES = (3, 5)"),
              "does not have": PROCEDURES.replace(change, '[{"column": "cover-2"}]')}[message]
    ws.write("procedures.py", broken)
    with pytest.raises(TableError) as raised:
        _tables(ws)
    assert "scouts" in str(raised.value) and message in str(raised.value)
